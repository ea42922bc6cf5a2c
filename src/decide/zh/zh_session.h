// The Chinese (pinyin) language pack's session, behind the same Session/Decision API as English,
// over what its engine loaded (zh_engine.h): lexicon, word bigram and zh model, the last two when
// present.
//
// A ZhSession keeps the committed text and, as its suffix, the composition: the pinyin
// letters typed since the last commit (a-z, and apostrophes after the first letter). Any other
// character commits the composition as typed and is appended to the text. Decide offers, for the
// composition, the best whole sentences of PinyinSentenceSearch (kind kSentence, two when they
// have more than one word), then the hanzi words of PinyinCandidateSearch that can start it; the
// preedit shows the composition's syllable breaks in the best sentence's reading. Accept(sentence)
// replaces the whole composition; Accept(word) replaces the letters that word consumed and keeps
// the rest of the composition for the next conversion.
//
// A composition longer than the sentence search reads (64 bytes) is converted through a
// PinyinWindow: its early part is fixed word by word, the search reads its last 32 to 64 bytes,
// and a sentence offered is the fixed part followed by one of the search's sentences; the words
// offered are those that start the composition (read from its first 64 bytes). Up to
// PinyinWindow::kMaxComposition (1024) letters convert, at a bounded cost per keystroke.
//
// With a bigram, the session remembers the word just committed (by Accept; anything else typed,
// SetContext or deleting into the text forgets it): the sentence search scores the first word of
// the next composition after it, and with no composition Decide offers the words that followed it
// most often in the training text (联想, kind kNextWord).
//
// With a model, the search's best sentences are ranked again by their score plus
// PinyinOptions::model_weight × the model's log P of their words after the committed text
// (SentenceLm), and so are the 32 most frequent 联想 words, by the model's log P of each as the
// next word. The model also reads the composition's keystrokes (up to 24 letters): Decision::intent
// and popup.probability come from its heads, and when the intent is "latin" (an English word or
// code typed in pinyin mode: "python", "git"), the letters as typed are the first candidate. The
// bar is shown whenever there are candidates (they are how letters become hanzi), whatever the
// popup probability. When the model's best sentence is a single word, no sentence is offered and
// the words come first: the word search's first 16 are ranked again with the model's logits for
// the word being typed (within the search's groups: words for the whole composition first).
// PinyinOptions::model_weight 0 turns the model's ranking off (sentences, words and 联想).
//
// With a learner (the user store), the session learns what the person converts and ranks with
// it (docs/PERSONAL.md, "Chinese"): each word it commits, with its pinyin and the word before
// it (a long composition's fixed part too); "picked" when it was not the first candidate; and a
// phrase the person built from several picks in one composition (张 + 伟 + 明 for "zhangweiming")
// as a word of its own. A commit is learned once the next one is made or the session ends, and
// never when the person deletes into the text right after it. Learned words add to their scores in
// the sentence search (log of their weight, and of their pairs'); a learned word whose reading (or
// initials) is the whole composition comes first when it is the person's heaviest word there (in
// the session's app type) and either was picked or is no lexicon word; words whose reading starts
// the composition are offered after the sentences.

#ifndef KEYDECIDE_DECIDE_ZH_ZH_SESSION_H_
#define KEYDECIDE_DECIDE_ZH_ZH_SESSION_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decide/personal_ranking.h"
#include "decide/stage_pipeline.h"
#include "decide/zh/pinyin_context.h"
#include "decide/zh/zh_state.h"
#include "keydecide/engine.h"

namespace keydecide {

class FineTuner;
class Learner;

// The person's words as a session uses them; learner null without a user store.
struct ZhSessionPersonal {
  Learner* learner = nullptr;
  bool learn = false;  // this session may teach it (the engine learns, not a no_learn session)
  // Score += word_weight × log(1 + w) + pair_weight × log(1 + p) in the sentence search;
  // P_user(w) as UserShare says, with app_share.
  PinyinUserBonus::Weights weights;
  // The person's fine-tuned adapter (null: fine-tuning off); its correction is added to the
  // model's word logits at fine_tune_weight (SentenceLm::SetAdapter).
  const FineTuner* tuner = nullptr;
  float fine_tune_weight = 0;
};

class ZhSession : public Session, private PersonalRanking::Listener {
 public:
  // REQUIRES: lexicon (and bigram, may be null) outlive the session; lexicon is pinyin-keyed.
  // model.model may be null (no model). `stages`: the pack's stage table.
  ZhSession(const Lexicon* lexicon, const WordBigram* bigram,
            const PinyinCandidateSearch::Options& search_options,
            const PinyinSentenceSearch::Options& sentence_options, const ZhSessionModel& model,
            std::span<const StageEntry<PinyinEnv>> stages, AppType app = AppType::kChat,
            const ZhSessionPersonal& personal = {});
  // Offers the learner the last commit, which the person kept.
  ~ZhSession() override;

  using Session::Type;
  Status Type(std::string_view text, std::optional<int64_t> t_ms) override;
  Status Backspace() override;
  Status Accept(std::string_view word) override;
  // Resolves the candidate by where the last Decide recorded it came from (PinyinOrigin).
  Status Pick(uint32_t id) override;
  Status SetContext(std::string_view text) override;
  Status Decide(int max_candidates, Decision* out) override;
  // Below kNoVocabProposals the model is not run: the bigram's sentences, no intent.
  void SetTier(Tier tier) override {
    if (tier != state_.tier) state_.search_valid = false;  // the sentences' order depends on it
    state_.tier = tier;
  }
  std::string_view text() const override { return state_.text.text(); }
  std::string_view composition() const override { return state_.text.composition(); }

 private:
  // What an accepted word stands for: the letters it converts and its bigram word id.
  struct Accepted {
    size_t consumed;
    uint32_t word_id = 0;
    std::string_view last;  // the last word committed
  };
  void AppendChar(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms);
  // Which offered candidate `word` is, found by its text as the writer gave them precedence (a
  // sentence, the person's word, a searched word; a 联想 word without letters), else kLetters.
  PinyinOrigin FindOrigin(std::string_view word);
  // Whether a recorded origin still points at what the last Decide offered.
  bool Recorded(const PinyinOrigin& origin) const;
  // Accept and Pick: replaces the letters the candidate converts with `word`, and learns it.
  void Commit(std::string_view word, const PinyinOrigin& origin);
  // What `word`, of `origin`, converts of the letters, learning it when `learning`.
  Accepted ResolveAccepted(std::string_view word, const PinyinOrigin& origin, bool learning,
                           bool picked);
  // A phrase the person built from several picks is learned as a word of its own.
  void LearnPhrase();

  // The person's words: what a commit queues for the learner (PendingWords), held until the
  // next commit. Queues `text` (read as `reading`, may be "") after previous_word_, which it
  // becomes.
  void QueueWord(std::string_view text, std::string_view reading, bool picked);
  // What Accept(word) learns: `text` read as `reading` (may be "").
  void LearnAccepted(std::string_view text, std::string_view reading, bool picked);
  void LearnSentence(const PinyinSentence& sentence, bool picked);
  // A 联想 pick: the pair (previous_word_, word) and the word, with its reading (`next` null:
  // not one of the 联想 words offered).
  void LearnNextWordPick(std::string_view word, const ZhState::NextWord* next);
  void ForgetPrevious() {
    previous_word_.clear();
    state_.last_word.clear();
  }
  // A new snapshot: the 联想 words and the search's bonus are the old one's.
  void OnWordsChanged() override;
  // A new adapter, into the sentence scores.
  void OnAdapterChanged() override;
  // A forget reached the learner (issue 51): what the session kept of the person's text goes.
  void OnForget() override;

  ZhState state_;
  ZhSessionPersonal personal_options_;
  PersonalRanking personal_;
  PinyinContext context_;
  StagePipeline stages_;
  struct Piece {
    std::string text, reading;
  };
  std::vector<Piece> pieces_;  // the words accepted so far into the composition being converted
  std::string previous_word_;  // the last word committed, for pairs ("" after anything else)
  std::string reading_scratch_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_ZH_SESSION_H_
