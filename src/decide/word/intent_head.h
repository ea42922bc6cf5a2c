// IntentHead: what kind of text this is (Decision::intent), from the model's intent head at the
// keystroke's state, with the pack's intent n-grams blended in on the full model.

#ifndef KEYDECIDE_DECIDE_WORD_INTENT_HEAD_H_
#define KEYDECIDE_DECIDE_WORD_INTENT_HEAD_H_

#include "decide/decision_writer.h"
#include "decide/word/word_context.h"

namespace keydecide {

class IntentHead : public DecisionWriter<WordContext> {
 public:
  const char* name() const override { return "intent_head"; }

 protected:
  StageResult Write(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_INTENT_HEAD_H_
