#include "decide/word/model_fallback.h"

#include "decide/decision_fill.h"

namespace keydecide {

StageResult ModelFallback::Write(WordContext* context) {
  if (context->hidden == nullptr || ModelOutputsFinite(*context->out)) {
    return StageResult::kContinue;
  }
  context->scored.resize(context->gathered);  // the model's proposals go
  return StageResult::kRescoreWithoutModel;
}

}  // namespace keydecide
