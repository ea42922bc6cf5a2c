#include "decide/zh/pinyin_conversion.h"

#include "decide/zh/pinyin_limits.h"
#include "decide/zh/zh_state.h"

namespace keydecide {

PinyinConversion::PinyinConversion(const PinyinEnv& env) {
  ZhState& session = *env.session;
  if (session.personal == nullptr) return;
  session.user_first.reserve(kMaxUserFirst);
  session.user_prefix.reserve(kMaxUserPrefix);
  session.user_order.reserve(2 * kMaxUserOrder);
  session.user_letters.reserve(kMaxComposition);
}

void PinyinConversion::Gather(PinyinContext* context) {
  ZhState& session = *context->session;
  session.user_first.clear();  // none without letters
  session.user_prefix.clear();
  if (context->typed.empty()) return;
  session.SearchComposition();
  context->found = session.search.candidates();
  context->sentences = session.OfferedSentences();
  session.FindUserWords();
}

}  // namespace keydecide
