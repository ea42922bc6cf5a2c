#include "decide/baseline_scorer.h"

#include <cmath>

#include "lexicon/lexicon.h"

namespace keydecide {

void BaselineScorer::Score(const ScoringInput& input, std::span<ScoredCandidate> candidates) const {
  const double total = static_cast<double>(lexicon_->total_count());
  const size_t remembered = input.history_size;
  // Trust the cache in proportion to how much it has seen: one remembered word must not
  // outweigh the whole corpus.
  const double lambda = options_.history_weight * static_cast<double>(remembered) /
                        static_cast<double>(remembered + options_.history_warmup_words);
  for (ScoredCandidate& c : candidates) {
    const double unigram = c.entry != lexicon::kNoEntry ? lexicon_->Count(c.entry) / total : 0.0;
    const double history = remembered > 0 ? static_cast<double>(c.recent) / remembered : 0.0;
    const double p = (1.0 - lambda) * unigram + lambda * history;
    c.score = static_cast<float>(std::log(p > 0 ? p : 1e-12)) -
              options_.nats_per_point * static_cast<float>(c.cost);
  }
}

}  // namespace keydecide
