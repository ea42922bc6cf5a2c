// ScoreAdjuster: a stage that sets or changes the candidates' scores (the scorer, the model's
// ranking, a bigram's or teacher's say, the person's bonus).

#ifndef KEYDECIDE_DECIDE_SCORE_ADJUSTER_H_
#define KEYDECIDE_DECIDE_SCORE_ADJUSTER_H_

#include "decide/stage.h"

namespace keydecide {

template <typename Context>
class ScoreAdjuster : public TypedStage<Context, StageRole::kScoring> {
 public:
  StageResult Run(DecideContext* context) final {
    Adjust(static_cast<Context*>(context));
    return StageResult::kContinue;
  }

 protected:
  virtual void Adjust(Context* context) = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_SCORE_ADJUSTER_H_
