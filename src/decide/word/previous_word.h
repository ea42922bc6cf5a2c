// PreviousWord: the word before the composition, when only spaces separate them: lower-cased
// (the person's pairs), and as the word bigram's word (its sentence start when there is no word
// before, or one the lexicon lacks).

#ifndef KEYDECIDE_DECIDE_WORD_PREVIOUS_WORD_H_
#define KEYDECIDE_DECIDE_WORD_PREVIOUS_WORD_H_

#include "decide/feature_reader.h"
#include "decide/word/word_context.h"

namespace keydecide {

class PreviousWord : public FeatureReader<WordContext> {
 public:
  const char* name() const override { return "previous_word"; }

 protected:
  void Read(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_PREVIOUS_WORD_H_
