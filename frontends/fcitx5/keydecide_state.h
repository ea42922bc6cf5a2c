// KeydecideState: one input context's typing. It maps fcitx5's keys to the edits of the
// context's keydecide session and draws the session's decisions: the preedit (the word being
// typed; pinyin with its syllable breaks), the candidate window when the decision says to show
// it, the commits. Nothing here decides what to offer: that is the engine's, where its tests
// see it.
//
// The state mirrors the session: `preedit_` is the session's composition (a decision for the
// latest edit overrides it, so a pinyin pick that converts part of the letters leaves the rest),
// and `context_` what was committed before the cursor. Main thread only.

#ifndef KEYDECIDE_FRONTENDS_FCITX5_KEYDECIDE_STATE_H_
#define KEYDECIDE_FRONTENDS_FCITX5_KEYDECIDE_STATE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <fcitx/event.h>
#include <fcitx/inputcontext.h>
#include <fcitx/inputcontextproperty.h>

#include "decision_worker.h"
#include "keydecide_config.h"

namespace keydecide::fcitx5 {

// The worker the front ends share (frontends/common).
using frontend::Answer;
using frontend::DecisionCopy;
using frontend::DecisionWorker;
using frontend::Edit;
using frontend::EngineSetup;
using frontend::SessionSpec;

class KeydecideEngine;

class KeydecideState : public fcitx::InputContextProperty {
 public:
  KeydecideState(KeydecideEngine* engine, fcitx::InputContext* ic);
  ~KeydecideState() override;

  void HandleKey(fcitx::KeyEvent& event);
  // Commits the letters being typed as typed and forgets the context (focus left, the cursor
  // moved, the input method was switched).
  void Flush();
  // The candidate at `index` of the whole list was picked (a number key, Tab, a click).
  void Pick(int index);

  Language language() const { return language_; }
  void SetLanguage(Language language);

 private:
  // The last autocorrection or shortcut expansion committed, while Backspace may undo it.
  struct Undo {
    bool armed = false;
    std::string typed;        // the letters as typed (a shortcut's trigger)
    std::string replacement;  // what replaced them in the application ...
    std::string ending;       // ... followed by this (the space or punctuation that ended them)
    bool shortcut = false;    // an expansion, not an autocorrection
  };

  bool HandleListKey(const fcitx::Key& key);
  void HandleEnglish(fcitx::KeyEvent& event, const std::string& ch);
  void HandlePinyin(fcitx::KeyEvent& event, const fcitx::Key& key, const std::string& ch);
  void HandleBackspace(fcitx::KeyEvent& event);
  void EndEnglishWord(const std::string& ending);
  void UndoLastWord();
  void CommitAsTyped();
  void CommitText(const std::string& text);

  // Opens the session of the current language when it is not open (on a new worker too),
  // giving it the text this state holds.
  void EnsureSession();
  // Queues edits for the session and waits, at most the configured time, for the decision so
  // that it is drawn with this key; without it in time, draws the preedit alone.
  void Send(std::vector<Edit> edits);
  void OnAnswer(uint64_t seq, const Answer& answer);
  // Waits (bounded) for the decision of the last edit: true when it is the one shown.
  bool CatchUp();
  bool Fresh() const { return answered_ == sent_ && sent_ > 0; }
  void Draw();
  void DrawCandidates(bool show);

  KeydecideEngine* engine_;
  fcitx::InputContext* ic_;
  Language language_;

  // The session per language (0: not opened yet) and the worker it lives on.
  uint64_t worker_generation_ = 0;
  uint64_t sessions_[2] = {0, 0};

  std::string preedit_;
  std::string context_;  // the newest committed text, at most kMaxContextBytes
  Undo undo_;
  std::string literal_;  // a trigger whose expansion was undone: ended as typed, not expanded

  uint64_t sent_ = 0;      // batches queued
  uint64_t answered_ = 0;  // the batch `decision_` answers
  DecisionCopy decision_;
  std::shared_ptr<DecisionWorker::Pending> last_pending_;
};

}  // namespace keydecide::fcitx5

#endif  // KEYDECIDE_FRONTENDS_FCITX5_KEYDECIDE_STATE_H_
