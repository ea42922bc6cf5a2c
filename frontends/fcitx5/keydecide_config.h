// The addon's options, as fcitx5's configuration tools show them (saved in
// $XDG_CONFIG_HOME/fcitx5/conf/keydecide.conf).

#ifndef KEYDECIDE_FRONTENDS_FCITX5_KEYDECIDE_CONFIG_H_
#define KEYDECIDE_FRONTENDS_FCITX5_KEYDECIDE_CONFIG_H_

#include <fcitx-config/configuration.h>
#include <fcitx-config/enum.h>
#include <fcitx-config/option.h>
#include <fcitx-utils/i18n.h>
#include <fcitx-utils/key.h>

namespace keydecide::fcitx5 {

enum class Language { English, Pinyin };
FCITX_CONFIG_ENUM_NAME_WITH_I18N(Language, N_("English prediction"), N_("Pinyin"));

enum class Backend { InProcess, Daemon };
FCITX_CONFIG_ENUM_NAME_WITH_I18N(Backend, N_("In this process"), N_("keydecided daemon"));

enum class Layout { qwerty, azerty, dvorak };
FCITX_CONFIG_ENUM_NAME_WITH_I18N(Layout, N_("QWERTY"), N_("AZERTY"), N_("Dvorak"));

// The names are keydecide's levels (kd_autocorrect_level), in order.
enum class AutocorrectLevel { Off, Cautious, Normal, Eager };
FCITX_CONFIG_ENUM_NAME_WITH_I18N(AutocorrectLevel, N_("Off"), N_("Cautious"), N_("Normal"),
                                 N_("Eager"));

FCITX_CONFIGURATION(
    KeydecideConfig,
    fcitx::OptionWithAnnotation<Language, LanguageI18NAnnotation> language{
        this, "Language", _("Language at start"), Language::English};
    fcitx::KeyListOption switchKey{this,
                                   "SwitchKey",
                                   _("Switch between English and Pinyin"),
                                   {fcitx::Key("Control+Shift+space")},
                                   fcitx::KeyListConstrain()};
    fcitx::OptionWithAnnotation<Layout, LayoutI18NAnnotation> layout{
        this, "Layout", _("Keyboard layout (typing slips)"), Layout::qwerty};
    fcitx::OptionWithAnnotation<AutocorrectLevel, AutocorrectLevelI18NAnnotation> autocorrect{
        this, "Autocorrect", _("Autocorrect"), AutocorrectLevel::Normal};
    fcitx::Option<bool> undoOnBackspace{
        this, "UndoOnBackspace",
        _("Backspace right after an autocorrection or a shortcut undoes it"), true};
    fcitx::Option<bool> learn{this, "Learn", _("Learn my words (kept on this computer only)"),
                              false};
    // Terminals do not flag password prompts (sudo, ssh), so typing there is not learned
    // unless the person turns this on.
    fcitx::Option<bool> learnInTerminals{
        this, "LearnInTerminals",
        _("Also learn what I type in terminals (they do not mark password prompts)"), false};
    fcitx::OptionWithAnnotation<Backend, BackendI18NAnnotation> backend{
        this, "Backend", _("Engine"), Backend::InProcess};
    fcitx::Option<std::string> socket{this, "Socket", _("Daemon socket (empty: the default)"), ""};
    fcitx::Option<std::string> modelDir{this, "ModelDir",
                                        _("Models folder (empty: the installed models)"), ""};
    fcitx::Option<int, fcitx::IntConstrain> pageSize{this, "PageSize", _("Candidates per page"), 5,
                                                     fcitx::IntConstrain(3, 10)};
    fcitx::Option<bool> fullWidthPunctuation{this, "FullWidthPunctuation",
                                             _("Pinyin: full-width punctuation (，。？！)"), true};
    fcitx::Option<int, fcitx::IntConstrain> waitMs{
        this, "DecisionWaitMs",
        _("Longest wait for a decision before the key is drawn without it (ms)"), 30,
        fcitx::IntConstrain(0, 10000)};);

}  // namespace keydecide::fcitx5

#endif  // KEYDECIDE_FRONTENDS_FCITX5_KEYDECIDE_CONFIG_H_
