// PinyinUserBonus: the person's words as a cache language model beside the pinyin sentence
// search's (WordBonus): a word gains log(1 + word_weight × P_user(w) / P_lexicon(w)) (P_user:
// UserShare) and, after the word before it, log(1 + pair_weight × P_user(w | previous) /
// P_lexicon(w)), P_user from the decayed counts. (As mixing P_user into the model with weight
// λ = word_weight / (1 + word_weight), less the same log(1 − λ) for every word.) Words common
// everywhere gain little; the person's own rare ones, much.

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_USER_BONUS_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_USER_BONUS_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "decide/personal_ranking.h"
#include "lexicon/pinyin/pinyin_sentence.h"
#include "personal/user_words.h"

namespace keydecide {

class Lexicon;

class PinyinUserBonus : public WordBonus {
 public:
  struct Weights {
    float word = 0, pair = 0;  // PinyinOptions::user_word_weight, user_pair_weight
    float app_share = 0;       // EngineOptions::user_app_share
  };

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
  void Set(const UserWords* words, const Lexicon* lexicon, const Weights& weights, int app);
  uint32_t context = UserWords::kNoTag;  // the variant just committed, when known
  // P_user(w) in the session's app type, as Set left it.
  float UserProb(const UserWords::Word& w) const { return share_(w); }

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
  UserShare share_;
  float inv_lexicon_total_ = 0;
  float word_weight_ = 0, pair_weight_ = 0, max_word_ = 0, max_pair_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_USER_BONUS_H_
