// TypedCandidate: at a corrected word the person deleted back to (Session::AcceptCorrection),
// the typed letters first: a candidate that outscores every other, written as typed
// (WriteCandidates). The same word found by the search is scored out (-inf: never written), not
// erased, so that the candidates gathered before the model keep their places.

#ifndef KEYDECIDE_DECIDE_WORD_TYPED_CANDIDATE_H_
#define KEYDECIDE_DECIDE_WORD_TYPED_CANDIDATE_H_

#include "decide/score_adjuster.h"
#include "decide/word/word_context.h"

namespace keydecide {

class TypedCandidate : public ScoreAdjuster<WordContext> {
 public:
  const char* name() const override { return "typed_candidate"; }

 protected:
  void Adjust(WordContext* context) override;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_TYPED_CANDIDATE_H_
