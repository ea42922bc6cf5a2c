// PopupHead: whether the suggestion bar helps now (Decision::popup), with the model's state:
// the popup network's estimate with the full model, else the popup head mixed with the
// candidates' share (the network is fitted to the typing model's outputs, not the small
// model's); shown when it reaches SessionOptions::popup_threshold.

#ifndef KEYDECIDE_DECIDE_WORD_POPUP_HEAD_H_
#define KEYDECIDE_DECIDE_WORD_POPUP_HEAD_H_

#include "decide/decision_writer.h"
#include "decide/word/word_context.h"

namespace keydecide {

class PopupHead : public DecisionWriter<WordContext> {
 public:
  const char* name() const override { return "popup_head"; }

 protected:
  StageResult Write(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_POPUP_HEAD_H_
