// PinyinHeads: the zh model's heads at the keystrokes' state: intent (prose, or latin: an
// English word or code typed in pinyin mode, "python", "git", whose letters as typed are then
// the first candidate) and popup. A state whose heads overflowed serves no one: the lexicon
// rung does.

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_HEADS_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_HEADS_H_

#include "decide/score_adjuster.h"
#include "decide/zh/pinyin_context.h"

namespace keydecide {

class PinyinHeads : public ScoreAdjuster<PinyinContext> {
 public:
  static constexpr size_t kMinLatinKeys = 2;  // shorter letter runs are never latin
  // P(latin) above which the letters as typed are the first candidate. Chosen on the tuning
  // halves of the pinyin and latin dev files (docs/MODEL.md, "Chinese typing model"): higher
  // thresholds kept the same pinyin top-1 and lost latin words.
  static constexpr float kLatinThreshold = 0.5f;

  explicit PinyinHeads(const PinyinEnv& env);
  const char* name() const override { return "heads"; }

 protected:
  void Adjust(PinyinContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_HEADS_H_
