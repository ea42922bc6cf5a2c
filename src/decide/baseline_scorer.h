// BaselineScorer: the count-based reference every model must beat.
//   score = log((1 - λ) P_unigram(w) + λ P_history(w)) - nats_per_point * cost
// P_unigram comes from the lexicon counts, P_history from the session's recent words (a
// cache model, Kuhn & De Mori 1990), and the last term is the channel: how unlikely the
// typed letters are if w was meant.

#ifndef KEYDECIDE_DECIDE_BASELINE_SCORER_H_
#define KEYDECIDE_DECIDE_BASELINE_SCORER_H_

#include <cstddef>

#include "decide/scorer.h"

namespace keydecide {

class Lexicon;

class BaselineScorer : public Scorer {
 public:
  struct Options {
    float history_weight = 0.1f;       // λ: share of probability mass given to recent words...
    size_t history_warmup_words = 20;  // ...reached half-way after this many words
    float nats_per_point = 0.35f;      // channel: one 10-point slip costs 3.5 nats
  };

  // REQUIRES: lexicon outlives this object.
  BaselineScorer(const Lexicon* lexicon, const Options& options)
      : lexicon_(lexicon), options_(options) {}

  const char* name() const override { return "baseline-unigram"; }
  void Score(const ScoringInput& input, std::span<ScoredCandidate> candidates) const override;

 private:
  const Lexicon* lexicon_;
  Options options_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_BASELINE_SCORER_H_
