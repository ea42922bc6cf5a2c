#include "decide/zh/pinyin_heads_writer.h"

#include "decide/decision_fill.h"
#include "decide/intent_reading.h"
#include "decide/zh/zh_state.h"
#include "model/transformer.h"

namespace keydecide {

StageResult PinyinHeadsWriter::Write(PinyinContext* context) {
  const ZhState& session = *context->session;
  Decision* out = context->out;
  ClearModelOutputs(out);
  out->has_model = context->hidden != nullptr;
  if (context->hidden != nullptr) {
    out->popup.probability = context->popup;
    out->intent.probabilities.assign(context->intent.begin(), context->intent.end());
    WriteIntentLabel(session.model.model->config().intent_labels, context->intent,
                     &out->intent.label);
  }
  const bool model_served = !context->overflowed && !session.sentences_model_failed;
  out->tier = session.UseModel() && !session.composition().empty() && model_served
                  ? session.tier
                  : Tier::kLexiconOnly;
  return StageResult::kContinue;
}

}  // namespace keydecide
