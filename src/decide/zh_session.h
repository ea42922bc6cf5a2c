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
// pinyin_model_weight × the model's log P of their words after the committed text (SentenceLm),
// and so are the 32 most frequent 联想 words, by the model's log P of each as the next word.
// The model also reads the composition's keystrokes (up to 24 letters): Decision::intent and
// popup.probability come from its heads, and when the intent is "latin" (an English word or code
// typed in pinyin mode: "python", "git"), the letters as typed are the first candidate. The bar
// is shown whenever there are candidates (they are how letters become hanzi), whatever the
// popup probability. When the model's best sentence is a single word, no sentence is offered and
// the words come first: the word search's first 16 are ranked again with the model's logits for
// the word being typed (within the search's groups: words for the whole composition first).
// pinyin_model_weight 0 turns the model's ranking off (sentences, words and 联想).
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

#ifndef KEYDECIDE_DECIDE_PINYIN_SESSION_H_
#define KEYDECIDE_DECIDE_PINYIN_SESSION_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "decide/decision_fill.h"
#include "decide/sentence_lm.h"
#include "decide/typed_text.h"
#include "decide/zh_context.h"
#include "keydecide/engine.h"
#include "lexicon/pinyin/pinyin_candidates.h"
#include "lexicon/pinyin/pinyin_sentence.h"
#include "lexicon/pinyin/pinyin_window.h"
#include "lexicon/word_bigram.h"
#include "personal/user_words.h"

namespace keydecide {

class FineTuner;
class Learner;
class Lexicon;

// The pinyin rule: a-z, and apostrophes after the first letter; at most
// PinyinWindow::kMaxComposition letters (a longer run is committed as typed); a deletion never
// reopens committed text.
extern const CompositionRule kPinyinComposition;

// The zh model as a session uses it; all null without one.
struct ZhSessionModel {
  const Transformer* model = nullptr;
  const ZhContext* context = nullptr;
  float sentence_weight = 0;  // EngineOptions::pinyin_model_weight
  // log of the summed lexicon count of the Chinese words outside the model's vocabulary: such a
  // word takes the <unk> probability, shared out by its count (as in ModelScorer).
  float log_oov_count = 0;
  int latin_label = -1;  // index of the "latin" intent label (-1: the model has none)
  SentenceLm::Options lm;
};

// The person's words as a session uses them; learner null without a user store.
struct ZhSessionPersonal {
  Learner* learner = nullptr;
  bool learn = false;  // this session may teach it (the engine learns, not a no_learn session)
  // Score += word_weight × log(1 + w) + pair_weight × log(1 + p) in the sentence search.
  float word_weight = 0;
  float pair_weight = 0;
  // P_user(w): (1 - app_share) × the word's share of all the person's words + app_share × its
  // share in the session's app type, when they wrote anything there (EngineOptions).
  float app_share = 0;
  // The person's fine-tuned adapter (null: fine-tuning off); its correction is added to the
  // model's word logits at fine_tune_weight (SentenceLm::SetAdapter).
  const FineTuner* tuner = nullptr;
  float fine_tune_weight = 0;
};

class ZhSession : public Session {
 public:
  // Compositions the keystroke heads read: training typed latin runs of 2..24 keys and pinyin
  // of at most 24 (config/zh.json); longer ones get no intent.
  static constexpr size_t kMaxModelKeys = 24;
  // The search's best sentences the model scores again. On the tuning half of the pinyin dev
  // file the best 4 gave top-1 0.836 against 0.837 for all 8, at 0.24 against 0.38 ms per
  // keystroke (docs/MODEL.md, "Chinese model").
  static constexpr size_t kSentencesRescored = 4;
  // 联想 with the model: the most frequent followers of the word just committed that it ranks
  // again. On the tuning half of the narrative file, next word in the top 5: 0.293 / 0.305 /
  // 0.307 for 8 / 32 / 64 (weight 1;
  // docs/history/BENCHMARKS-to-2026-12-07.md, "联想 with the model").
  static constexpr size_t kNextWordsRescored = 32;
  // 联想 from the person's pairs: the kUserNextWords heaviest words the person wrote after the
  // word just committed join the bigram's, each at P(w | before) = P_bigram + kUserNextWeight ×
  // P_user (the person's decayed pair count over the word's), and after the model's share,
  // score = log(exp(score) + kUserNextFloor × P_user). On Northern Rebirth (docs/PERSONAL.md,
  // "联想"), next word top-1 / top-5 0.145 / 0.279 without the person; 0.160 / 0.298 with
  // weight 1 and no floor (0.156 / 0.298 with 0.3, 0.159 / 0.293 with 10, 0.159 / 0.300 with
  // 16 words, 0.159 / 0.296 with 4); 0.161 / 0.300 with floor 0.01 (0.162 / 0.298 with 0.03,
  // 0.161 / 0.295 with 0.1).
  static constexpr size_t kUserNextWords = 8;
  static constexpr float kUserNextWeight = 1.0f;
  static constexpr float kUserNextFloor = 0.01f;
  // The words for the composition (after the sentences) with the model: the first
  // kWordsRescored of the word search's order gain kWordModelWeight × the model's logit for the
  // word being typed, given the committed text and the keystrokes, and are ranked again within
  // the search's groups (whole composition first, then longer prefixes). On the tuning halves'
  // first words typed as initials / first syllable in full, narrative then technical, top-1:
  // 0.484 / 0.709, 0.317 / 0.643 without; 0.498 / 0.721, 0.417 / 0.797 with 0.3; 0.465 /
  // 0.723, 0.460 / 0.813 with 0.5; 0.470 / 0.732, 0.462 / 0.827 with 0.7 (docs/MODEL.md).
  static constexpr size_t kWordsRescored = 16;
  static constexpr float kWordModelWeight = 0.3f;

  // REQUIRES: lexicon (and bigram, may be null) outlive the session; lexicon is pinyin-keyed.
  // model.model may be null (no model).
  ZhSession(const Lexicon* lexicon, const WordBigram* bigram,
            const PinyinCandidateSearch::Options& search_options,
            const PinyinSentenceSearch::Options& sentence_options, const ZhSessionModel& model,
            AppType app = AppType::kChat, const ZhSessionPersonal& personal = {});
  // Offers the learner the last commit, which the person kept.
  ~ZhSession() override;

  using Session::Type;
  Status Type(std::string_view text, std::optional<int64_t> t_ms) override;
  Status Backspace() override;
  Status Accept(std::string_view word) override;
  Status SetContext(std::string_view text) override;
  Status Decide(int max_candidates, Decision* out) override;
  // Below kNoVocabProposals the model is not run: the bigram's sentences, no intent.
  void SetTier(Tier tier) override {
    if (tier != tier_) search_valid_ = false;  // the sentences' order depends on it
    tier_ = tier;
  }
  std::string_view text() const override { return text_.text(); }
  std::string_view composition() const override { return text_.composition(); }

 private:
  void AppendChar(std::string_view ch, char32_t cp, std::optional<int64_t> t_ms);
  // Runs the searches for the current composition unless the last ones were for it.
  void SearchComposition();
  bool UseModel() const { return lm_ != nullptr && tier_ <= Tier::kNoVocabProposals; }
  // With a model: the search's sentences re-ranked by score + sentence_weight × model log P,
  // into ranked_ (else ranked_ is the search's order).
  void RankSentences();
  // The committed text since the last newline as the model's context (when it changed).
  void UpdateModelContext();
  // The sentences to offer before the words: the best two, unless the best is one word (then
  // it is the first word candidate), and only those of several words.
  std::span<const PinyinSentence> OfferedSentences() const;
  // Whether `text` is `sentence` after the composition's fixed part (PinyinWindow).
  bool IsSentence(const PinyinSentence& sentence, std::string_view text) const;
  bool IsOffered(std::span<const PinyinSentence> sentences, std::string_view text) const;
  // The bigram word id of `word` among the last 联想 candidates (0 when not one of them).
  uint32_t AcceptedWordId(std::string_view word) const;
  // 联想: the words that followed context_word_ in the training text (the most frequent k, or
  // kNextWordsRescored with the model) and those the person wrote after last_word_
  // (AddUserNextWords), into next_ (at most k), by log P(w | word before), with the model
  // ranked again by RankNextWords.
  void FindNextWords(size_t k);
  void AddUserNextWords();
  // Adds to next_'s scores pinyin_model_weight × the model's log P(w | committed text), the
  // weight the sentences use (0.5 / 0.7 / 1.0 / 2.0 gave the same 联想 within 0.5 points on the
  // tuning halves).
  void RankNextWords();
  // `found` with its first kWordsRescored words ranked again by the model's logits at `hidden`
  // (the keystrokes' hidden state), into ranked_words_; `found` itself when the model
  // overflowed or there is nothing to order.
  std::span<const PinyinCandidate> RankWords(const float* hidden,
                                             std::span<const PinyinCandidate> found);
  // The model's hidden state after the composition's keystrokes (nullptr: not run).
  const float* ReadKeystrokes();
  // Decide's post stage: the letters as typed (when `latin`), the sentences, the words, the
  // 联想 words, into out->candidates (at most k).
  void WriteCandidates(size_t k, bool latin, std::span<const PinyinCandidate> found,
                       std::span<const PinyinSentence> sentences, Decision* out);
  // The composition and its syllable breaks (out->composition, out->preedit).
  void WritePreedit(bool latin, std::span<const PinyinSentence> sentences, Decision* out);

  // The person's words. A newer snapshot of the learner's, when there is one.
  void RefreshUserWords();
  // The tuner's newer adapter, when there is one, into the sentence scores.
  void RefreshAdapter();
  // The learned words for the composition into user_first_ and user_prefix_.
  void FindUserWords();
  bool IsUserCandidate(std::string_view text) const;
  // Queues `text` (read as `reading`, may be "") to learn after previous_word_, which it becomes.
  void QueueWord(std::string_view text, std::string_view reading, bool picked);
  // What Accept(word) learns: `text` read as `reading` (may be ""), into pending_.
  void LearnAccepted(std::string_view text, std::string_view reading, bool picked);
  void LearnSentence(const PinyinSentence& sentence, bool picked);
  void OfferPending();
  // A 联想 pick: the pair (previous_word_, word) and the word, with its reading.
  void LearnNextWordPick(std::string_view word);
  void ForgetPrevious() {
    previous_word_.clear();
    last_word_.clear();
  }

  // The person's words as a cache language model beside the search's: a word gains
  // log(1 + word_weight × P_user(w) / P_lexicon(w)) (P_user as ZhSessionPersonal::app_share
  // says), and after the word before it
  // log(1 + pair_weight × P_user(w | previous) / P_lexicon(w)), P_user from the decayed counts.
  // (As mixing P_user into the model with weight λ = word_weight / (1 + word_weight), less
  // the same log(1 − λ) for every word.) Words common everywhere gain little; the person's
  // own rare ones, much.
  class UserBonus : public WordBonus {
   public:
    float Word(uint32_t variant) const override;
    float Pair(uint32_t previous, uint32_t variant) const override;
    float max_word() const override { return max_word_; }
    float max_pair() const override { return max_pair_; }
    float MaxWordIn(uint32_t begin, uint32_t end) const override;
    // The person's offered words the lexicon lacks (names built from single hanzi, say), at
    // log(word_weight × P_user(w)): the bonus's formula for a word of no lexicon probability.
    // Looked up by their first two letters.
    size_t ExtraWords(std::string_view rest, std::span<ExtraWord> out) const override;
    std::string_view ExtraText(uint32_t id) const override;
    // O(words log words): once per snapshot.
    void Set(const UserWords* words, const Lexicon* lexicon, const ZhSessionPersonal& personal,
             int app);
    uint32_t context = UserWords::kNoTag;  // the variant just committed, when known
    // P_user(w) in the session's app type (ZhSessionPersonal::app_share), as Set left it.
    float UserProb(const UserWords::Word& w) const;

   private:
    struct Extra {
      uint32_t word;    // UserWords index
      uint64_t breaks;  // ExtraWord::breaks
      float log_p;
    };
    struct TagBonus {
      uint32_t tag;
      float bonus;
    };
    static constexpr size_t kBuckets = 26 * 26;  // by the first two letters

    float LexiconProb(uint32_t variant) const;
    void SetExtraWords();
    static size_t BucketOf(std::string_view letters);
    std::span<const Extra> Bucket(std::string_view letters) const;

    // Word's answers, by tag: the search asks for every word it meets, and a compact array
    // searches faster than UserWords::FindTag.
    std::vector<TagBonus> word_bonus_;
    std::vector<Extra> extra_;                  // by bucket, best first in each
    uint32_t bucket_begin_[kBuckets + 1] = {};  // bucket b: extra_[begin[b], begin[b + 1])

    const UserWords* words_ = nullptr;
    const Lexicon* lexicon_ = nullptr;
    float inv_total_ = 0, inv_lexicon_total_ = 0;
    int app_ = 0;
    float app_share_ = 0, inv_app_total_ = 0;  // app_share_ 0 when nothing was written in app_
    float word_weight_ = 0, pair_weight_ = 0, max_word_ = 0, max_pair_ = 0;
  };

  TypedText text_;
  PinyinCandidateSearch search_;
  PinyinSentenceSearch sentence_search_;
  PinyinWindow window_;  // fixes the early part of a long composition (with sentence_search_)
  const Lexicon* lexicon_;
  const WordBigram* bigram_;
  uint32_t context_word_ = 0;  // bigram id of the word just committed; 0: none known
  std::string last_word_;      // the word just committed, for the person's pairs ("": none)
  std::string searched_;       // the composition both searches last ran on
  uint32_t searched_context_ = 0;
  bool search_valid_ = false;  // their results are those of searched_ and searched_context_
  bool sentences_model_failed_ = false;  // the model overflowed on ranked_: the bigram's order
  struct NextWord {
    std::string_view text;  // the lexicon's, or user_words_' (RefreshUserWords clears next_)
    uint32_t word;          // bigram word id; 0: not a bigram word
    uint32_t variant;       // lexicon spelling, or UserWords::kNoTag
    uint32_t count;         // c(word before, word) in the bigram
    float p_user;           // P_user(word | word before)
    float score;            // log P(w | word before), plus the model's share
  };
  std::vector<NextWord> next_;     // 联想 candidates of the last Decide without a composition
  std::vector<int32_t> next_ids_;  // next_'s words as model word indices (RankNextWords)
  std::vector<float> next_log_p_;
  std::vector<PinyinCandidate> ranked_words_;  // RankWords' order of the words
  std::vector<int32_t> word_ids_;
  std::vector<float> word_log_p_;
  CandidateSlots slots_;

  ZhSessionModel model_;
  std::unique_ptr<SentenceLm> lm_;  // with a model
  Tier tier_ = Tier::kFullModel;
  ZhContext::Scratch context_scratch_;
  std::string context_text_;      // the committed text the model's context was read from
  std::string context_buffer_;    // the committed text and the composition's fixed part
  uint64_t context_version_ = 0;  // bumped when context_text_ changes
  uint64_t searched_context_version_ = 0;
  std::vector<int32_t> context_words_, sentence_words_;
  std::vector<TokenInput> keys_;
  std::vector<float> intent_;
  std::vector<PinyinSentence> ranked_;

  const int app_;  // the session's AppType, as the learner counts it
  ZhSessionPersonal personal_;
  std::shared_ptr<const UserWords> user_words_;  // the snapshot this Decide ranks with
  uint64_t user_words_version_ = 0;
  std::shared_ptr<const LogitAdapter> adapter_;  // the tuner's, as of adapter_version_
  uint64_t adapter_version_ = 0;
  UserBonus user_bonus_;
  struct UserCandidate {
    uint32_t word;      // UserWords::word index
    uint32_t consumed;  // letters of the composition it converts
  };
  std::vector<UserCandidate> user_first_;   // before the sentences (the whole composition)
  std::vector<UserCandidate> user_prefix_;  // after them (a start of the composition)
  struct UserOrder {
    uint32_t word;  // UserWords index
    float p;        // UserBonus::UserProb
  };
  std::vector<UserOrder> user_order_;  // FindUserWords' scratch
  std::string user_letters_;           // the composition without apostrophes
  std::string first_offered_;          // the first candidate of the last Decide ...
  std::string first_offered_for_;      // ... and the composition it was for
  struct Piece {
    std::string text, reading;
  };
  std::vector<Piece> pieces_;  // the words accepted so far into the composition being converted
  struct Pending {
    std::string word, previous, reading;
    bool picked;
  };
  std::vector<Pending> pending_;  // the last commit's words, offered at the next commit
  std::string previous_word_;     // the last word committed, for pairs ("" after anything else)
  std::string reading_scratch_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_PINYIN_SESSION_H_
