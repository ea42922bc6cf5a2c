// DecisionWriter: a stage that writes part of the Decision (the candidates, the preedit, a
// head: popup, autocorrect, intent; a shortcut). A writer that finds the model's outputs
// overflowed may ask for the scoring again without the model (StageResult).

#ifndef KEYDECIDE_DECIDE_DECISION_WRITER_H_
#define KEYDECIDE_DECIDE_DECISION_WRITER_H_

#include "decide/stage.h"

namespace keydecide {

template <typename Context>
class DecisionWriter : public TypedStage<Context, StageRole::kWriting> {
 public:
  StageResult Run(DecideContext* context) final { return Write(static_cast<Context*>(context)); }

 protected:
  virtual StageResult Write(Context* context) = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_DECISION_WRITER_H_
