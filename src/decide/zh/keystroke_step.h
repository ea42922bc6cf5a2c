// KeystrokeStep: the zh model reads the composition's keystrokes (up to kMaxKeys letters) after
// the committed text; its state feeds the heads (PinyinHeads) and the words' ranking
// (WordRanking). Not run below the kNoVocabProposals rung, or without letters.

#ifndef KEYDECIDE_DECIDE_ZH_KEYSTROKE_STEP_H_
#define KEYDECIDE_DECIDE_ZH_KEYSTROKE_STEP_H_

#include <vector>

#include "decide/model_step.h"
#include "decide/zh/pinyin_context.h"
#include "model/transformer.h"

namespace keydecide {

class KeystrokeStep : public ModelStep<PinyinContext> {
 public:
  // Compositions the keystroke heads read: training typed latin runs of 2..24 keys and pinyin
  // of at most 24 (config/zh.json); longer ones get no intent.
  static constexpr size_t kMaxKeys = 24;

  explicit KeystrokeStep(const PinyinEnv& env);
  const char* name() const override { return "keystrokes"; }

 protected:
  void Step(PinyinContext* context) override;

 private:
  std::vector<TokenInput> keys_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_KEYSTROKE_STEP_H_
