// ScoreCandidates: the scorer's score of every candidate: the model's (ModelScorer) at the
// keystroke's hidden state, the small model's on its rung, else the count baseline.

#ifndef KEYDECIDE_DECIDE_WORD_SCORE_CANDIDATES_H_
#define KEYDECIDE_DECIDE_WORD_SCORE_CANDIDATES_H_

#include "decide/score_adjuster.h"
#include "decide/word/word_context.h"

namespace keydecide {

class ScoreCandidates : public ScoreAdjuster<WordContext> {
 public:
  const char* name() const override { return "scorer"; }

 protected:
  void Adjust(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_SCORE_CANDIDATES_H_
