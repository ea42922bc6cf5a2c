// Filling a Decision without allocating: the candidate slots a session reuses, and the
// outputs of a decision no model served. Internal to src/decide.

#ifndef KEYDECIDE_DECIDE_DECISION_FILL_H_
#define KEYDECIDE_DECIDE_DECISION_FILL_H_

#include <cstddef>
#include <span>
#include <vector>

#include "keydecide/decision.h"

namespace keydecide {

// Every candidate slot a Decision can need (kMaxCandidatesLimit), made at session open with
// room for any spelling, so that Decide moves slots and their buffers around instead of
// allocating.
class CandidateSlots {
 public:
  CandidateSlots();
  // Grows or shrinks *out to k slots, keeping removed slots (and their buffers) aside.
  void Resize(size_t k, std::vector<Candidate>* out);

 private:
  std::vector<Candidate> spare_;
};

// A Decision's outputs when no model served it: the bar shows whenever there are
// candidates; no autocorrect, no intent.
void ClearModelOutputs(Decision* out);

// Whether no value is NaN or infinite. A model whose weights are finite can still overflow
// on some input (Transformer::Load's probe refuses the ones that overflow on its tokens);
// the sessions check what it gave and serve that decision at the lexicon tier instead.
bool AllFinite(std::span<const float> values);
// The same over a Decision's scores and model outputs (popup, autocorrect, intent).
bool ModelOutputsFinite(const Decision& d);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_DECISION_FILL_H_
