// PinyinHeadsWriter: the heads' part of a pinyin decision: intent and popup probability from the
// model's heads when it ran; the bar shown whenever there are candidates (they are how letters
// become hanzi), whatever the popup probability; the rung that served it (the model's when it
// ran on the keystrokes or, past KeystrokeStep::kMaxKeys letters, on the sentences alone; not
// when it overflowed on either).

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_HEADS_WRITER_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_HEADS_WRITER_H_

#include "decide/decision_writer.h"
#include "decide/zh/pinyin_context.h"

namespace keydecide {

class PinyinHeadsWriter : public DecisionWriter<PinyinContext> {
 public:
  const char* name() const override { return "heads_writer"; }

 protected:
  StageResult Write(PinyinContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_HEADS_WRITER_H_
