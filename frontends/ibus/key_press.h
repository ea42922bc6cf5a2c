// KeyPress: a key as the typing logic sees it, whatever framework sent it (ibus_key.h maps
// IBus's keyval and modifiers to it). Plain values.

#ifndef KEYDECIDE_FRONTENDS_IBUS_KEY_PRESS_H_
#define KEYDECIDE_FRONTENDS_IBUS_KEY_PRESS_H_

#include <string>

namespace keydecide::ibus {

struct KeyPress {
  enum class Kind {
    kText,  // a character: `text` (UTF-8; " " for Space)
    kBackspace,
    kEnter,
    kTab,
    kEscape,
    kPageUp,
    kPageDown,
    kUp,
    kDown,
    kSwitchLanguage,  // the switch key (Control+Shift+space): the next language
    kModifier,        // Shift, Control ... alone: nothing happens
    kOther,           // arrows, Home, Delete, function keys: the cursor may move
  };
  Kind kind = Kind::kOther;
  std::string text;
  // Control, Alt or Super held: a shortcut of the application, which gets the key.
  bool shortcut = false;
};

}  // namespace keydecide::ibus

#endif  // KEYDECIDE_FRONTENDS_IBUS_KEY_PRESS_H_
