#include "decide/zh/pinyin_features.h"

#include "decide/zh/pinyin_limits.h"
#include "decide/zh/zh_state.h"

namespace keydecide {

PinyinFeatures::PinyinFeatures(const PinyinEnv& env) {
  env.context->typed.reserve(kMaxComposition);
}

void PinyinFeatures::Read(PinyinContext* context) {
  context->typed.assign(context->session->composition());
  context->found = {};
  context->sentences = {};
  context->hidden = nullptr;
  context->popup = 0;
  context->latin = false;
  context->overflowed = false;
}

}  // namespace keydecide
