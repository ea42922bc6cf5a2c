// The English language pack's session: the per-keystroke pipeline
//   features -> candidates (lexicon, the session's own words, the model's proposals)
//   -> model -> scoring -> post (top-k, surface forms, heads: popup, autocorrect, intent).
// The composition is the run of letters before the cursor (an apostrophe after a letter
// continues it: "don'" on the way to "don't").

#ifndef KEYDECIDE_DECIDE_EN_SESSION_H_
#define KEYDECIDE_DECIDE_EN_SESSION_H_

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "decide/autocorrect.h"
#include "decide/decision_fill.h"
#include "decide/model_track.h"
#include "decide/popup_features.h"
#include "decide/scorer.h"
#include "decide/session_history.h"
#include "decide/stage_clock.h"
#include "decide/typed_text.h"
#include "keydecide/engine.h"
#include "lexicon/candidate_search.h"
#include "lexicon/word_ngram.h"
#include "model/logit_adapter.h"
#include "personal/user_words.h"

namespace keydecide {

class EnPack;
class Learner;

// The English rule: letters, and an apostrophe after a letter; deleting or trimming reopens
// the word before the cursor.
extern const CompositionRule kEnglishComposition;

class EnSession : public Session {
 public:
  // The words the teacher expects next that join a decision's candidates.
  static constexpr size_t kTeacherFollowers = 8;

  // REQUIRES: the pack (its engine) outlives the session.
  EnSession(const EnPack* engine, const SessionOptions& options);
  // Offers the learner the last finished word, which the person kept.
  ~EnSession() override;

  using Session::Type;
  Status Type(std::string_view text, std::optional<int64_t> t_ms) override;
  Status Backspace() override;
  Status Accept(std::string_view word) override;
  Status AcceptCorrection(std::string_view replacement) override;
  Status SetContext(std::string_view text) override;
  Status Decide(int max_candidates, Decision* out) override;
  void SetTier(Tier tier) override { tier_ = tier; }
  std::string_view text() const override { return text_.text(); }
  std::string_view composition() const override { return text_.composition(); }
  // The popup features of the latest decision made with the full model's heads (all zero
  // before one): what the replay dumps to fit the popup network.
  const PopupFeatures& popup_features() const { return popup_features_; }

 private:
  void AppendChar(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms);
  void TrimText();
  void GatherCandidates();
  void AddApostropheWords();
  void ApplySpellingRules(bool capitalize, AutocorrectDecision* out) const;
  // The person's shortcut for the word being typed, if any: its expansion first among at
  // most max_candidates, and whether it fires (see ShortcutDecision).
  void ApplyShortcut(int max_candidates, Decision* out) const;
  void AddModelProposals(const float* hidden);
  void WriteCandidates(size_t k, bool capitalize, Decision* out);
  float EstimatePopup(float head, size_t offered, bool capitalize);
  void FillHeads(const float* hidden, bool capitalize, Decision* out);
  void ScoreAndPost(const float* hidden, int max_candidates, bool capitalize, Clock::time_point* t,
                    Decision* out);

  // The person's words (src/personal): learning off the keystroke path, ranking with the
  // learner's snapshot. A finished word waits as `pending_` until the next word ends (or the
  // session closes): deleting back into it or replacing the text drops it, so a word the
  // person corrected right away is never learned.
  void OnWordEnded(size_t start, size_t end);
  void OfferPending();
  // A forget reached the learner since this session took its words (Learner::forget_epoch):
  // the word held back, the word the next one would pair with and the session's own cache of
  // the text go, so that nothing forgotten comes back from here.
  void CatchUpForget();
  void RememberContextWord();
  void ShiftPersonalOffsets(size_t cut);
  void ForgetCorrection() { correction_.start = correction_.end = std::string::npos; }
  void FindPreviousKey();
  // The session's own words added per keystroke beside the lexicon's (GatherCandidates).
  static constexpr size_t kHistoryCandidates = 16;
  void AddUserCandidates();
  // The person's words as a cache model (the .cc says how). kUserPairShare weighs their pairs
  // against their words; chosen with the option weights on the Wesnoth tuning split
  // (docs/PERSONAL.md, "As a cache model").
  static constexpr float kUserPairShare = 3.0f;
  void AddUserBonus();
  // The fine-tuned adapter's correction (FineTuner) added to the model-scored candidates.
  void AddAdapterDelta(const float* hidden);
  // The word bigram (EnPack::bigram): the word before as its word, the followers of it that
  // complete the typed letters as candidates, and its say in their scores.
  void FindPreviousWord();
  void AddBigramFollowers();
  void AddBigramScore(bool model);
  // The general-language teacher (EnPack::teacher): the two words before as its context, the
  // words it expects next that complete the typed letters as candidates, and its say in their
  // scores.
  void FindTeacherContext();
  void AddTeacherFollowers();
  void AddTeacherScore();

  // The undo of an autocorrection (Session::AcceptCorrection).
  bool AtCorrectedWord() const;
  void AddTypedCandidate();
  bool KeptByPerson() const;
  bool KeptInThisText() const;

  const EnPack* engine_;
  SessionOptions options_;
  AutocorrectBars autocorrect_bars_;  // AutocorrectBarsFor(options_)
  TypedText text_;
  size_t pushed_word_end_ = std::string::npos;  // where the last remembered word ended
  SessionHistory history_;
  CandidateSearch search_;
  std::unique_ptr<ModelTrack> track_;         // when the engine has a model
  std::unique_ptr<Autocorrect> autocorrect_;  // when the engine has a model
  // The small-model rung's own track and autocorrect, when the engine has a small model. A
  // track not used by a decision falls behind and catches up on its next Sync.
  std::unique_ptr<ModelTrack> small_track_;
  std::unique_ptr<Autocorrect> small_autocorrect_;
  bool small_active_ = false;     // this Decide's hidden state is the small model's
  Tier tier_ = Tier::kFullModel;  // costliest rung Decide may use (SetTier)

  Learner* learner_ = nullptr;                   // the engine's, when it has one
  bool learn_ = false;                           // ... and this session may teach it
  std::shared_ptr<const UserWords> user_words_;  // the snapshot this Decide ranks with
  uint64_t user_words_version_ = 0;              // the learner's version it was fetched at
  std::shared_ptr<const LogitAdapter> adapter_;  // the fine-tuner's, as of adapter_version_
  uint64_t adapter_version_ = 0;
  std::vector<float> adapter_z_;  // LogitAdapter::Project of the hidden state
  struct FinishedWord {
    std::array<char, 64> text;
    uint8_t length = 0;
    size_t end = std::string::npos;  // byte offset in text_ where it ended; npos: none
    std::string_view view() const { return {text.data(), length}; }
  };
  FinishedWord pending_;  // finished, not yet offered
  FinishedWord pending_previous_;
  bool pending_picked_ = false;
  FinishedWord last_word_;                   // the last finished word (for pairs)
  bool last_word_from_context_ = false;      // ... found in SetContext's text: never learned
  size_t context_end_ = 0;  // text_ up to here came from SetContext, not typed: never learned
  uint64_t forget_epoch_ = 0;  // the learner's forget epoch pending_ and last_word_ belong to
  size_t accepted_end_ = std::string::npos;  // where the last Accept'ed word ended

  // The last autocorrection the host applied, while it can be undone: the letters as typed and
  // where the replacement lies in text_ (end npos: none). `undone`: the person took the typed
  // letters back; the composition at that spot is then not autocorrected again.
  struct Correction {
    std::string typed;  // reserved at construction (kMaxAcceptBytes)
    std::string key;    // ... lower-cased, as the lexicon keys words
    size_t start = std::string::npos;
    size_t end = std::string::npos;
    bool undone = false;
  };
  Correction correction_;

  // Scratch reused by every Decide.
  std::string typed_;
  bool curly_ = false;  // the composition has a typographic apostrophe (U+2019)
  std::vector<SearchHit> hits_;
  std::vector<ScoredCandidate> scored_;
  CandidateSlots slots_;
  std::vector<float> logits_;
  std::vector<std::pair<float, int>> proposals_;
  std::string previous_key_;  // lower-cased word before the composition, or ""
  std::string user_key_;
  std::string bigram_key_;
  uint32_t previous_word_ = 0;  // the bigram's word for previous_key_ (0: the sentence start)
  WordNgram::Context teacher_context_;
  std::array<const UserWords::Word*, 4> user_best_{};
  std::array<const SessionHistory::Word*, kHistoryCandidates> history_best_{};
  // The spellings of the unknown ones among them (reserved: written without allocating).
  std::array<std::string, kHistoryCandidates> history_spelling_;
  PopupFeatures popup_features_{};
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_EN_SESSION_H_
