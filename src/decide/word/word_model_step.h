// WordModelStep: the typing model's step for the keystroke (one step per new token, on the
// session's ModelTrack) and, at a word start on the full rung, the model's own best next words
// as candidates (the lexicon offers only its most frequent words there). The small-model rung
// steps the small model instead (or, without one, the lexicon serves it); a hidden state that
// overflowed serves no one: the lexicon rung does. It marks what was gathered before its
// proposals (WordContext::gathered), what a rescore without the model goes back to.

#ifndef KEYDECIDE_DECIDE_WORD_WORD_MODEL_STEP_H_
#define KEYDECIDE_DECIDE_WORD_WORD_MODEL_STEP_H_

#include <utility>
#include <vector>

#include "decide/model_step.h"
#include "decide/word/word_context.h"

namespace keydecide {

class WordModelStep : public ModelStep<WordContext> {
 public:
  static constexpr int kProposals = 16;  // model words added at a word start
  // ... chosen among the model's 8192 most frequent words (its vocabulary is in frequency
  // order): the whole word table (20k rows) costs more than the rest of the decision. On 50 KB
  // of dev text: KSR 0.4177 vs 0.4178 with all rows, next-word top-3 0.2323 vs 0.2326,
  // P95 latency 0.50 ms vs 0.80 ms (docs/history/BENCHMARKS-to-2026-12-07.md).
  static constexpr int kProposalWords = 8192;

  explicit WordModelStep(const WordEnv& env);
  const char* name() const override { return "model"; }

 protected:
  void Step(WordContext* context) override;

 private:
  void AddProposals(WordContext* context);

  std::vector<float> logits_;
  std::vector<std::pair<float, int>> proposals_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_WORD_MODEL_STEP_H_
