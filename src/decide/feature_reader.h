// FeatureReader: a stage that reads the session's state into the keystroke's context (the
// composition as the lexicon keys it, casing, the words before, the person's newest words).

#ifndef KEYDECIDE_DECIDE_FEATURE_READER_H_
#define KEYDECIDE_DECIDE_FEATURE_READER_H_

#include "decide/stage.h"

namespace keydecide {

template <typename Context>
class FeatureReader : public TypedStage<Context, StageRole::kFeatures> {
 public:
  StageResult Run(DecideContext* context) final {
    Read(static_cast<Context*>(context));
    return StageResult::kContinue;
  }

 protected:
  virtual void Read(Context* context) = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_FEATURE_READER_H_
