// WriteCandidates: the top candidates by score (ties: lexicon order, then spelling), cased for
// the cursor (capitalised at a sentence start, upper case after two capitals, apostrophes as
// typed) into Decision::candidates; the composition, the preedit and the rung that served the
// decision. Without the model's state, the heads' fields are cleared here (ClearModelOutputs).

#ifndef KEYDECIDE_DECIDE_WORD_WRITE_CANDIDATES_H_
#define KEYDECIDE_DECIDE_WORD_WRITE_CANDIDATES_H_

#include "decide/decision_fill.h"
#include "decide/decision_writer.h"
#include "decide/word/word_context.h"

namespace keydecide {

class WriteCandidates : public DecisionWriter<WordContext> {
 public:
  const char* name() const override { return "write_candidates"; }

 protected:
  StageResult Write(WordContext* context) override;

 private:
  void WriteTop(WordContext* context, size_t k);

  CandidateSlots slots_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_WRITE_CANDIDATES_H_
