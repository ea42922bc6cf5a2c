// WordSession: the session of a language typed word by word (English; any pack built on
// WordPackSpec). The composition is the run of letters before the cursor, as the pack's
// CompositionRule says; Decide runs the pack's stage table (WordPackSpec::stages) over one
// WordContext:
//   features -> candidates (lexicon, the session's own words, followers, the person's words)
//   -> model (its step and proposals) -> scoring -> writing (candidates, heads, shortcut).
// The session keeps what outlives a keystroke (WordState): the text, the words typed, the
// model's tracks, the autocorrection that can be undone, and, with a user store, the words held
// back from the learner until kept (PersonalRanking).

#ifndef KEYDECIDE_DECIDE_WORD_WORD_SESSION_H_
#define KEYDECIDE_DECIDE_WORD_WORD_SESSION_H_

#include <optional>
#include <string_view>

#include "decide/offered_candidates.h"
#include "decide/personal_ranking.h"
#include "decide/stage_pipeline.h"
#include "decide/word/word_context.h"
#include "decide/word/word_state.h"
#include "keydecide/engine.h"

namespace keydecide {

class WordSession : public Session, private PersonalRanking::Listener {
 public:
  // REQUIRES: the pack (its engine) outlives the session.
  WordSession(const WordPack* pack, const SessionOptions& options);
  // Offers the learner the last finished word, which the person kept.
  ~WordSession() override;

  using Session::Type;
  Status Type(std::string_view text, std::optional<int64_t> t_ms) override;
  Status Backspace() override;
  Status Accept(std::string_view word) override;
  Status AcceptCorrection(std::string_view replacement) override;
  // Accept of the offered text.
  Status Pick(uint32_t id) override;
  Status SetContext(std::string_view text) override;
  Status Decide(int max_candidates, Decision* out) override;
  void SetTier(Tier tier) override { state_.tier = tier; }
  std::string_view text() const override { return state_.text.text(); }
  std::string_view composition() const override { return state_.text.composition(); }
  // The popup features of the latest decision made with the full model's heads (all zero
  // before one): what the replay dumps to fit the popup network.
  const PopupFeatures& popup_features() const { return context_.popup_features; }

 private:
  void AppendChar(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms);
  void TrimText();
  // The person's words (src/personal): a finished word is held (PendingWords) until the next
  // word ends (or the session closes); deleting back into it or replacing the text drops it.
  void OnWordEnded(size_t start, size_t end);
  // The host's text ends with a word and spaces before the composition: that word is the word
  // before (the bigram's context, the person's pairs), as if typed here, never learned.
  void RememberContextWord();
  void ShiftPersonalOffsets(size_t cut);
  // A forget reached the learner: the word the next one would pair with and the session's own
  // cache of the text go, so that nothing forgotten comes back from here.
  void OnForget() override;

  WordState state_;
  PersonalRanking personal_;
  WordContext context_;
  StagePipeline stages_;
  OfferedCandidates<NoOrigin> offered_;  // the last Decide's candidates, for Pick
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_WORD_SESSION_H_
