// WordRanking: with the model, the words for the composition ranked again: the first kRescored
// of the word search's order gain kModelWeight × the model's logit for the word being typed,
// given the committed text and the keystrokes, within the search's groups (whole composition
// first, then longer prefixes). On the tuning halves' first words typed as initials / first
// syllable in full, narrative then technical, top-1: 0.484 / 0.709, 0.317 / 0.643 without;
// 0.498 / 0.721, 0.417 / 0.797 with 0.3; 0.465 / 0.723, 0.460 / 0.813 with 0.5; 0.470 / 0.732,
// 0.462 / 0.827 with 0.7 (docs/MODEL.md). When the model's best sentence is a single word, no
// sentence is offered and these words come first.

#ifndef KEYDECIDE_DECIDE_ZH_WORD_RANKING_H_
#define KEYDECIDE_DECIDE_ZH_WORD_RANKING_H_

#include <cstdint>
#include <vector>

#include "decide/score_adjuster.h"
#include "decide/zh/pinyin_context.h"

namespace keydecide {

class WordRanking : public ScoreAdjuster<PinyinContext> {
 public:
  static constexpr size_t kRescored = 16;
  static constexpr float kModelWeight = 0.3f;

  explicit WordRanking(const PinyinEnv& env);
  const char* name() const override { return "word_ranking"; }

 protected:
  void Adjust(PinyinContext* context) override;

 private:
  std::vector<PinyinCandidate> ranked_;  // the words in the model's order
  std::vector<int32_t> ids_;
  std::vector<float> log_p_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_WORD_RANKING_H_
