// RefreshPersonal: the feature reader that brings the session's PersonalRanking up to date
// before the candidates (the learner's newest snapshot and adapter, a forget). Every pack's.

#ifndef KEYDECIDE_DECIDE_REFRESH_PERSONAL_H_
#define KEYDECIDE_DECIDE_REFRESH_PERSONAL_H_

#include "decide/decide_context.h"
#include "decide/feature_reader.h"
#include "decide/personal_ranking.h"

namespace keydecide {

class RefreshPersonal : public FeatureReader<DecideContext> {
 public:
  const char* name() const override { return "refresh_personal"; }

 protected:
  void Read(DecideContext* context) override {
    if (context->personal != nullptr) context->personal->Refresh();
  }
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_REFRESH_PERSONAL_H_
