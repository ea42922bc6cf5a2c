// WordFeatures: the keystroke's features (the composition, lower-cased as the lexicon keys it,
// whether candidates start with a capital), and a clean context for the stages after it.

#ifndef KEYDECIDE_DECIDE_WORD_WORD_FEATURES_H_
#define KEYDECIDE_DECIDE_WORD_WORD_FEATURES_H_

#include "decide/feature_reader.h"
#include "decide/word/word_context.h"

namespace keydecide {

class WordFeatures : public FeatureReader<WordContext> {
 public:
  const char* name() const override { return "features"; }

 protected:
  void Read(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_WORD_FEATURES_H_
