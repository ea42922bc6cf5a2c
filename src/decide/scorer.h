// Scorer: ranks the candidates of one keystroke. The count-based BaselineScorer and the
// model's ModelScorer implement it, so the pipeline does not change when a model loads.

#ifndef KEYDECIDE_DECIDE_SCORER_H_
#define KEYDECIDE_DECIDE_SCORER_H_

#include <cstdint>
#include <span>
#include <string_view>

namespace keydecide {

struct ScoredCandidate {
  uint32_t entry;         // lexicon entry, or lexicon::kNoEntry
  int32_t word;           // model word index, or -1 (no model, or not in its vocabulary)
  std::string_view text;  // the spelling when entry is kNoEntry (a history or model word)
  uint16_t cost;          // typing-slip points between the typed letters and this word
  uint16_t recent;        // occurrences among the session's recent words
  float score;            // set by the scorer: a log-score, higher is better
  float logit = 0;        // set by the model scorer: the model's logit for `word` (when >= 0)
  float cache = 0;        // ... and the part of `score` the session's recent words gave
};

struct ScoringInput {
  std::string_view typed;  // lower-cased composition ("" at a word start)
  size_t history_size;     // words the session remembers (the denominator of `recent`)
  const float* hidden;     // the model's final-norm state at the cursor, or nullptr
};

class Scorer {
 public:
  virtual ~Scorer() = default;
  virtual const char* name() const = 0;
  // Sets `score` of every candidate. Called on the hot path: must not allocate.
  virtual void Score(const ScoringInput& input, std::span<ScoredCandidate> candidates) const = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_SCORER_H_
