// ModelFallback: a logit or a head that overflowed on this input serves no one: the decision is
// made again without the model (the candidates it gathered, the lexicon rung's scores), which
// this writer asks of the pipeline (StageResult::kRescoreWithoutModel) after the heads.

#ifndef KEYDECIDE_DECIDE_WORD_MODEL_FALLBACK_H_
#define KEYDECIDE_DECIDE_WORD_MODEL_FALLBACK_H_

#include "decide/decision_writer.h"
#include "decide/word/word_context.h"

namespace keydecide {

class ModelFallback : public DecisionWriter<WordContext> {
 public:
  const char* name() const override { return "model_fallback"; }

 protected:
  StageResult Write(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_MODEL_FALLBACK_H_
