// ZhState: a pinyin session's state that outlives a keystroke, owned by the ZhSession and read
// by its stages through PinyinContext: the committed text and the composition, the searches and
// their results (the sentences ranked again by the model, the hanzi words, the person's words
// for the letters), the 联想 words offered, the model's context, what the person converted
// before. The searches are here because both Decide's stages and Accept run them.
//
// The searches: a composition up to 64 bytes is one lattice for both; a longer one is converted
// through a PinyinWindow (its early part fixed word by word, the sentence search reading its
// last 32 to 64 bytes, a sentence offered being the fixed part followed by one of the search's
// sentences; the words offered are those that start the composition). With a model, the
// search's best sentences are ranked again by their score plus PinyinOptions::model_weight × the
// model's log P of their words after the committed text (SentenceLm).

#ifndef KEYDECIDE_DECIDE_ZH_ZH_STATE_H_
#define KEYDECIDE_DECIDE_ZH_ZH_STATE_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "decide/offered_candidates.h"
#include "decide/sentence_lm.h"
#include "decide/typed_text.h"
#include "decide/zh/pinyin_origin.h"
#include "decide/zh/pinyin_user_bonus.h"
#include "decide/zh/zh_context.h"
#include "keydecide/decision.h"
#include "keydecide/pack_traits.h"
#include "lexicon/pinyin/pinyin_candidates.h"
#include "lexicon/pinyin/pinyin_sentence.h"
#include "lexicon/pinyin/pinyin_window.h"
#include "lexicon/word_bigram.h"
#include "personal/user_words.h"

namespace keydecide {

class Lexicon;
class PersonalRanking;

// The pinyin rule: a-z, and apostrophes after the first letter (kPinyinWord, what hosts read of
// it); at most PinyinWindow::kMaxComposition letters (a longer run is committed as typed); a
// deletion never reopens committed text.
extern const WordRule kPinyinWord;
extern const CompositionRule kPinyinComposition;

// The zh model as a session uses it; all null without one.
struct ZhSessionModel {
  const Transformer* model = nullptr;
  const ZhContext* context = nullptr;
  float sentence_weight = 0;  // PinyinOptions::model_weight
  // log of the summed lexicon count of the Chinese words outside the model's vocabulary: such a
  // word takes the <unk> probability, shared out by its count (as in ModelScorer).
  float log_oov_count = 0;
  int latin_label = -1;  // index of the "latin" intent label (-1: the model has none)
  SentenceLm::Options lm;
};

struct ZhState {
  // The search's best sentences the model scores again. On the tuning half of the pinyin dev
  // file the best 4 gave top-1 0.836 against 0.837 for all 8, at 0.24 against 0.38 ms per
  // keystroke (docs/MODEL.md, "Chinese model").
  static constexpr size_t kSentencesRescored = 4;
  // Sentences offered before the words, as fcitx5's pinyin does by default ("Number of
  // sentence").
  static constexpr size_t kSentencesOffered = 2;

  // REQUIRES: lexicon (and bigram, may be null) outlive the state; lexicon is pinyin-keyed.
  ZhState(const Lexicon* lexicon, const WordBigram* bigram,
          const PinyinCandidateSearch::Options& search_options,
          const PinyinSentenceSearch::Options& sentence_options, const ZhSessionModel& model,
          int app);

  std::string_view composition() const { return text.composition(); }
  bool UseModel() const { return lm != nullptr && tier <= Tier::kNoVocabProposals; }
  // The person's snapshot the last keystroke ranked with; null without one.
  const UserWords* user_words() const;

  // Runs the searches for the current composition unless the last ones were for it.
  void SearchComposition();
  // The committed text since the last newline as the model's context (when it changed).
  void UpdateModelContext();
  // With a model: the search's sentences re-ranked by score + sentence_weight × model log P,
  // into ranked (else ranked is the search's order).
  void RankSentences();
  // The sentences to offer before the words: the best two, unless the best is one word (then
  // it is the first word candidate), and only those of several words.
  std::span<const PinyinSentence> OfferedSentences() const;
  // Whether `offered` is `sentence` after the composition's fixed part (PinyinWindow).
  bool IsSentence(const PinyinSentence& sentence, std::string_view offered) const;
  bool IsOffered(std::span<const PinyinSentence> sentences, std::string_view offered) const;
  // The learned words for the composition into user_first and user_prefix: the person's
  // heaviest word for these letters (or initials) first, and words whose reading starts them.
  void FindUserWords();
  bool IsUserCandidate(std::string_view offered) const;

  TypedText text;
  PinyinCandidateSearch search;
  PinyinSentenceSearch sentence_search;
  PinyinWindow window;  // fixes the early part of a long composition (with sentence_search)
  const Lexicon* lexicon;
  const WordBigram* bigram;
  uint32_t context_word = 0;  // bigram id of the word just committed; 0: none known
  std::string last_word;      // the word just committed, for the person's pairs ("": none)
  std::string searched;       // the composition both searches last ran on
  uint32_t searched_context = 0;
  bool search_valid = false;            // their results are those of searched and searched_context
  bool sentences_model_failed = false;  // the model overflowed on ranked: the bigram's order
  struct NextWord {
    std::string_view text;  // the lexicon's, or the snapshot's (a new snapshot clears next)
    uint32_t word;          // bigram word id; 0: not a bigram word
    uint32_t variant;       // lexicon spelling, or UserWords::kNoTag
    uint32_t count;         // c(word before, word) in the bigram
    float p_user;           // P_user(word | word before)
    float score;            // log P(w | word before), plus the model's share
  };
  std::vector<NextWord> next;  // 联想 candidates of the last Decide without a composition

  ZhSessionModel model;
  std::unique_ptr<SentenceLm> lm;  // with a model
  Tier tier = Tier::kFullModel;
  ZhContext::Scratch context_scratch;
  std::string context_text;      // the committed text the model's context was read from
  std::string context_buffer;    // the committed text and the composition's fixed part
  uint64_t context_version = 0;  // bumped when context_text changes
  uint64_t searched_context_version = 0;
  std::vector<int32_t> context_words, sentence_words;
  std::vector<PinyinSentence> ranked;

  const int app;                        // the session's AppType, as the learner counts it
  PersonalRanking* personal = nullptr;  // null without a learner
  PinyinUserBonus user_bonus;
  struct UserCandidate {
    uint32_t word;      // UserWords::word index
    uint32_t consumed;  // letters of the composition it converts
  };
  std::vector<UserCandidate> user_first;   // before the sentences (the whole composition)
  std::vector<UserCandidate> user_prefix;  // after them (a start of the composition)
  struct UserOrder {
    uint32_t word;  // UserWords index
    float p;        // PinyinUserBonus::UserProb
  };
  std::vector<UserOrder> user_order;  // FindUserWords' scratch
  std::string user_letters;           // the composition without apostrophes
  std::string first_offered;          // the first candidate of the last Decide ...
  std::string first_offered_for;      // ... and the composition it was for
  // The last Decide's candidates and where each came from (the writer tags them), for Pick.
  OfferedCandidates<PinyinOrigin> offered_candidates;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_ZH_STATE_H_
