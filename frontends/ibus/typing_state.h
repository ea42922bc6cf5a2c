// TypingState: one input context's typing, as the fcitx5 addon's KeydecideState does it but
// framework-free (IBus drives it through keydecide_ibus_engine.cc; the unit tests drive it
// directly). It maps keys to the edits of the context's keydecide session and shows the
// session's decisions through a TypingHost: the preedit (the word being typed; pinyin with its
// syllable breaks), the candidates when the decision says to show them, the commits, the undo
// of an autocorrection or a shortcut's expansion. What a word is, what Space and Enter do and
// whether the window always shows are the language pack's (PackTraits), never a language's
// name compared here; candidates are picked by id.
//
// The state mirrors the session: `preedit_` is the session's composition (a decision for the
// latest edit overrides it, so a pinyin pick that converts part of the letters leaves the rest),
// and `context_` what was committed before the cursor. Main thread only.

#ifndef KEYDECIDE_FRONTENDS_IBUS_TYPING_STATE_H_
#define KEYDECIDE_FRONTENDS_IBUS_TYPING_STATE_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "decision_worker.h"
#include "field_policy.h"
#include "key_press.h"
#include "keydecide/pack_traits.h"
#include "typing_host.h"

namespace keydecide::ibus {

using frontend::Answer;
using frontend::DecisionCopy;
using frontend::DecisionWorker;
using frontend::Edit;
using frontend::SessionSpec;

struct TypingSettings {
  // The languages the switch key cycles through, the first the one typing starts in. Each must
  // be served by the worker's engine.
  std::vector<std::string> languages = {"en", "zh"};
  int32_t autocorrect_level = KD_AUTOCORRECT_NORMAL;
  bool undo_on_backspace = true;  // Backspace right after an autocorrection undoes it
  bool learn_in_terminals = false;
  bool native_punctuation = true;  // the pack's own punctuation (pinyin's ，。) for ASCII
  int page_size = 5;               // candidates per page (and number keys 1..page_size)
  // The longest wait for a decision before the key is drawn without it.
  std::chrono::milliseconds wait{30};
};

class TypingState {
 public:
  // REQUIRES: `worker` and `host` outlive this object; settings.languages is not empty.
  TypingState(DecisionWorker* worker, TypingHost* host, TypingSettings settings);
  ~TypingState();

  TypingState(const TypingState&) = delete;
  TypingState& operator=(const TypingState&) = delete;

  // A key pressed (the host passes no releases). True when it was consumed; false when the
  // application should get it, after what this call committed.
  bool HandleKey(const KeyPress& key);
  // Commits the letters being typed as typed and forgets the context (focus left, the cursor
  // moved, the field was reset).
  void Flush();
  // The field focused says this of itself; a change opens new sessions (with this context).
  void SetField(const FieldPolicy& field);
  void SetLanguage(const std::string& language);
  // The candidate at `index` of the panel's whole list was picked (a click, a number key, Tab).
  void Pick(int index);
  // Paging the candidate window (also a host's own page buttons).
  void PageUp();
  void PageDown();

  const std::string& language() const { return language_; }
  const PackTraits& traits() const { return traits_; }
  // The panel as last shown (tests).
  const PanelView& panel() const { return panel_; }

 private:
  // The last autocorrection or shortcut expansion committed, while Backspace may undo it.
  struct Undo {
    bool armed = false;
    std::string typed;        // the letters as typed (a shortcut's trigger)
    std::string replacement;  // what replaced them in the application ...
    std::string ending;       // ... followed by this (the space or punctuation that ended them)
    bool shortcut = false;    // an expansion, not an autocorrection
  };

  bool HandleListKey(const KeyPress& key);
  bool HandleBackspace();
  bool HandleWordKey(const std::string& ch);     // a pack whose composition is the word
  bool HandleReadingKey(const std::string& ch);  // a pack that converts a reading (pinyin)
  void EndWord(const std::string& ending);
  void UndoLastWord();
  void CommitAsTyped();
  void CommitText(const std::string& text);
  void CloseSessions();

  uint64_t& SessionId() { return sessions_[language_]; }
  // Opens the session of the current language when it is not open, giving it the text this
  // state holds.
  void EnsureSession();
  SessionSpec Spec() const;
  // Queues edits for the session and waits, at most settings.wait, for the decision so that
  // it is drawn with this key; without it in time, draws the preedit alone.
  void Send(std::vector<Edit> edits);
  void OnAnswer(uint64_t seq, const Answer& answer);
  // Waits (bounded) for the decision of the last edit: true when it is the one shown.
  bool CatchUp();
  bool Fresh() const { return answered_ == sent_ && sent_ > 0; }
  bool Showing() const { return !panel_.candidates.empty(); }
  void Draw();

  DecisionWorker* const worker_;
  TypingHost* const host_;
  const TypingSettings settings_;
  std::string language_;
  PackTraits traits_;
  FieldPolicy field_;

  std::map<std::string, uint64_t> sessions_;  // by language; 0 or absent: not opened yet

  std::string preedit_;
  std::string context_;  // the newest committed text, at most kMaxContextBytes
  Undo undo_;
  std::string literal_;     // a trigger whose expansion was undone: ended as typed, not expanded
  bool dismissed_ = false;  // Escape closed the window until the next decision

  uint64_t sent_ = 0;      // batches queued
  uint64_t answered_ = 0;  // the batch `decision_` answers
  DecisionCopy decision_;
  std::shared_ptr<DecisionWorker::Pending> last_pending_;
  PanelView panel_;
  // Answers delivered later through the main loop find this state through it, or not at all
  // once it is gone.
  std::shared_ptr<TypingState*> self_;
};

}  // namespace keydecide::ibus

#endif  // KEYDECIDE_FRONTENDS_IBUS_TYPING_STATE_H_
