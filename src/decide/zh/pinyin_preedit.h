// PinyinPreedit: the composition and its syllable breaks in the reading of the first conversion
// offered ("ni'hao"; Decision::composition, preedit), none when the letters as typed come
// first.

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_PREEDIT_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_PREEDIT_H_

#include "decide/decision_writer.h"
#include "decide/zh/pinyin_context.h"

namespace keydecide {

class PinyinPreedit : public DecisionWriter<PinyinContext> {
 public:
  const char* name() const override { return "preedit"; }

 protected:
  StageResult Write(PinyinContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_PREEDIT_H_
