#include "decide/zh/pinyin_preedit.h"

#include "decide/zh/pinyin_limits.h"
#include "decide/zh/zh_state.h"

namespace keydecide {

StageResult PinyinPreedit::Write(PinyinContext* context) {
  const ZhState& session = *context->session;
  Decision* out = context->out;
  const std::string_view typed = session.composition();
  if (out->composition.capacity() < kMaxComposition) out->composition.reserve(kMaxComposition);
  out->composition.assign(typed);
  // Every letter may be followed by a break: twice the composition.
  if (out->preedit.capacity() < 2 * kMaxComposition) out->preedit.reserve(2 * kMaxComposition);
  // The breaks of the first conversion offered (the model may have moved it).
  const std::span<const PinyinSentence> sentences = context->sentences;
  const uint64_t breaks = context->latin || typed.empty() ? 0
                          : !sentences.empty()            ? sentences.front().breaks
                          : !session.ranked.empty()       ? session.ranked.front().breaks
                                                          : 0;
  session.window.WriteSyllableBreaks(typed, breaks, &out->preedit);
  return StageResult::kContinue;
}

}  // namespace keydecide
