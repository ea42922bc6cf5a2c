// PinyinCandidatesWriter: the candidates of a pinyin keystroke, in order: the person's words for
// the whole composition, the letters as typed (when the model reads them as latin), the
// sentences, the words for all the letters, the person's words for a start of them, the
// search's other words, the 联想 words; at most max_candidates.

#ifndef KEYDECIDE_DECIDE_ZH_PINYIN_CANDIDATES_WRITER_H_
#define KEYDECIDE_DECIDE_ZH_PINYIN_CANDIDATES_WRITER_H_

#include "decide/decision_fill.h"
#include "decide/decision_writer.h"
#include "decide/zh/pinyin_context.h"

namespace keydecide {

class PinyinCandidatesWriter : public DecisionWriter<PinyinContext> {
 public:
  explicit PinyinCandidatesWriter(const PinyinEnv& env);
  const char* name() const override { return "write_candidates"; }

 protected:
  StageResult Write(PinyinContext* context) override;

 private:
  void WriteTop(PinyinContext* context, size_t k);

  CandidateSlots slots_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_PINYIN_CANDIDATES_WRITER_H_
