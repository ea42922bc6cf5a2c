#include "decide/word/intent_head.h"

#include "decide/intent_reading.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_state.h"
#include "model/transformer.h"

namespace keydecide {

StageResult IntentHead::Write(WordContext* context) {
  if (context->hidden == nullptr) return StageResult::kContinue;
  const WordPack& pack = *context->pack;
  const bool small = context->small_active;
  const Transformer& model = small ? *pack.small_model() : *pack.model();
  IntentDecision& intent = context->out->intent;
  ReadIntent(model, context->hidden, small ? nullptr : pack.intent_ngrams(),
             context->session->text.text(), &intent.probabilities);
  WriteIntentLabel(model.config().intent_labels, intent.probabilities, &intent.label);
  return StageResult::kContinue;
}

}  // namespace keydecide
