#include "decide/zh/pinyin_heads.h"

#include <cmath>

#include "decide/decision_fill.h"
#include "decide/intent_reading.h"
#include "decide/zh/zh_state.h"
#include "model/transformer.h"

namespace keydecide {

PinyinHeads::PinyinHeads(const PinyinEnv& env) {
  if (const Transformer* model = env.session->model.model) {
    env.context->intent.resize(model->config().intent_labels.size());
  }
}

void PinyinHeads::Adjust(PinyinContext* context) {
  if (context->hidden == nullptr) return;
  const ZhState& session = *context->session;
  const Transformer& model = *session.model.model;
  ReadIntent(model, context->hidden, nullptr, {}, &context->intent);
  context->popup = model.Popup(context->hidden);
  const size_t d = static_cast<size_t>(model.config().d_model);
  context->overflowed = !AllFinite({context->hidden, d}) || !AllFinite(context->intent) ||
                        !std::isfinite(context->popup);
  if (context->overflowed) {
    context->hidden = nullptr;
    return;
  }
  const int latin = session.model.latin_label;
  context->latin = latin >= 0 && context->typed.size() >= kMinLatinKeys &&
                   context->intent[latin] > kLatinThreshold;
}

}  // namespace keydecide
