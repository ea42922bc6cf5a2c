// CandidateSource: a stage that adds candidates for the keystroke (the lexicon's, the session's
// words, the person's, a bigram's or teacher's followers, a pinyin search's).

#ifndef KEYDECIDE_DECIDE_CANDIDATE_SOURCE_H_
#define KEYDECIDE_DECIDE_CANDIDATE_SOURCE_H_

#include "decide/stage.h"

namespace keydecide {

template <typename Context>
class CandidateSource : public TypedStage<Context, StageRole::kCandidates> {
 public:
  StageResult Run(DecideContext* context) final {
    Gather(static_cast<Context*>(context));
    return StageResult::kContinue;
  }

 protected:
  virtual void Gather(Context* context) = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_CANDIDATE_SOURCE_H_
