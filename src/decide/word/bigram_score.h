// BigramScore: the word before's say in each candidate's score, beyond the word's own
// frequency, which the scores already hold (the model's logit, or the baseline's count):
// score += weight * log(P(word | the word before) / P(word)). The words outside the model's
// vocabulary have no context otherwise. With the model the weight is
// EngineOptions::word_bigram_weight; without it (the lexicon-only rung, the count baseline) 1,
// which turns the baseline's unigram into the bigram. After no word (a sentence start,
// punctuation between) the context is the bigram's sentence start.

#ifndef KEYDECIDE_DECIDE_WORD_BIGRAM_SCORE_H_
#define KEYDECIDE_DECIDE_WORD_BIGRAM_SCORE_H_

#include "decide/score_adjuster.h"
#include "decide/word/word_context.h"

namespace keydecide {

class BigramScore : public ScoreAdjuster<WordContext> {
 public:
  const char* name() const override { return "bigram_score"; }

 protected:
  void Adjust(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_BIGRAM_SCORE_H_
