// AutocorrectHead: whether to replace the word being typed when it ends, and with what
// (Decision::autocorrect), from the model's autocorrect head at the keystroke's state
// (Autocorrect). A word the person keeps as typed is never applied: at a corrected word they
// deleted back to (or took the letters back at), one of their own words, or a word the lexicon
// lacks that this text already has as typed (a name, a program).

#ifndef KEYDECIDE_DECIDE_WORD_AUTOCORRECT_HEAD_H_
#define KEYDECIDE_DECIDE_WORD_AUTOCORRECT_HEAD_H_

#include "decide/decision_writer.h"
#include "decide/word/word_context.h"

namespace keydecide {

class AutocorrectHead : public DecisionWriter<WordContext> {
 public:
  const char* name() const override { return "autocorrect_head"; }

 protected:
  StageResult Write(WordContext* context) override;
};

// Whether the person keeps the composition as typed (above); sets context->keep_as_typed.
bool KeptAsTyped(WordContext* context);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_AUTOCORRECT_HEAD_H_
