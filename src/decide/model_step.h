// ModelStep: a stage that runs the model for the keystroke and leaves its state at the cursor
// in DecideContext::hidden (null when it did not run or overflowed); it may add the model's own
// candidates.

#ifndef KEYDECIDE_DECIDE_MODEL_STEP_H_
#define KEYDECIDE_DECIDE_MODEL_STEP_H_

#include "decide/stage.h"

namespace keydecide {

template <typename Context>
class ModelStep : public TypedStage<Context, StageRole::kModel> {
 public:
  StageResult Run(DecideContext* context) final {
    Step(static_cast<Context*>(context));
    return StageResult::kContinue;
  }

 protected:
  virtual void Step(Context* context) = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_MODEL_STEP_H_
