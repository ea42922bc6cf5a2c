// Scorer: ranks the candidates of one keystroke. The count-based BaselineScorer and the
// neural model's scorer implement it, so the pipeline does not change when a model loads.

#ifndef KEYDECIDE_DECIDE_SCORER_H_
#define KEYDECIDE_DECIDE_SCORER_H_

#include <cstdint>
#include <span>
#include <string_view>

namespace keydecide {

class SessionHistory;

struct ScoredCandidate {
  uint32_t entry;        // lexicon entry, or lexicon::kNoEntry for a history-only word
  const void* history;   // the SessionHistory::Word it came from, when not in the lexicon
  uint16_t cost;         // typing-slip points
  float score;           // set by the scorer: a log-score, higher is better
};

struct ScoringInput {
  std::string_view typed;          // lower-cased composition ("" at a word start)
  const SessionHistory* history;   // the session's recent words
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
