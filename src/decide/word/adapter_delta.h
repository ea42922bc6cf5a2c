// AdapterDelta: the person's fine-tuned adapter's correction (FineTuner) added to the
// candidates the full model scored, at EngineOptions::fine_tune_weight.

#ifndef KEYDECIDE_DECIDE_WORD_ADAPTER_DELTA_H_
#define KEYDECIDE_DECIDE_WORD_ADAPTER_DELTA_H_

#include <vector>

#include "decide/score_adjuster.h"
#include "decide/word/word_context.h"

namespace keydecide {

class AdapterDelta : public ScoreAdjuster<WordContext> {
 public:
  explicit AdapterDelta(const WordEnv& env);
  const char* name() const override { return "adapter_delta"; }

 protected:
  void Adjust(WordContext* context) override;

 private:
  std::vector<float> z_;  // LogitAdapter::Project of the hidden state
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_ADAPTER_DELTA_H_
