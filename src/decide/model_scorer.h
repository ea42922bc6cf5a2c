// ModelScorer: ranks candidates by the typing model's word logits at the cursor (which
// already see the context and the keystrokes), plus the lexicon's typing cost and the
// session's recent words (SessionHistory) as a cache model:
//   score = logit(w) - channel_weight * cost + cache
//   cache = cache_weight * log(1 + P_session(w) / P_lexicon(w))   once letters are typed,
//           history_weight * log(1 + recent)                       at a word start,
// P_session(w) = recent / the words remembered, P_lexicon(w) the word's share of the lexicon's
// text. Once letters are typed a word gains by how much more this text uses it than text in
// general does: a name or a term of the text much, "the" little. At a word start nothing
// narrows the candidates, and the stronger bonus ranks the text's words above the model's
// next word too often (docs/history/BENCHMARKS-to-2026-12-07.md, "The session's words"). A word
// that neither the lexicon nor the model has, typed kNewWordSightings times or more, also gets
// new_word_bonus once letters are typed: its share of the model's <unk> is the smallest any word
// gets. A word outside the model's vocabulary takes the <unk> logit, shared out by its lexicon
// count: logit(<unk>) + log(count(w) / count(all lexicon words outside the vocabulary)).
// Logits need no normalisation: every candidate of one keystroke shares the same one.

#ifndef KEYDECIDE_DECIDE_MODEL_SCORER_H_
#define KEYDECIDE_DECIDE_MODEL_SCORER_H_

#include <cstdint>

#include "decide/scorer.h"

namespace keydecide {

class Lexicon;
class Transformer;

class ModelScorer : public Scorer {
 public:
  struct Options {
    float channel_weight = 1.0f;  // nats per typing-slip point (tuned by replay on dev)
    float history_weight = 0.4f;  // nats per log(1 + recent uses), at a word start
    float cache_weight = 0.7f;    // nats per log(1 + P_session / P_lexicon), once letters are typed
    float new_word_bonus = 4.0f;  // nats (these three: docs/history/BENCHMARKS-to-2026-12-07.md,
                                  // "The session's words")
  };
  static constexpr uint16_t kNewWordSightings = 2;  // once may be a typo

  // REQUIRES: lexicon and model outlive this object. oov_count is the summed count of the
  // lexicon entries the model's vocabulary lacks.
  ModelScorer(const Lexicon* lexicon, const Transformer* model, double oov_count,
              const Options& options);

  const char* name() const override { return "model"; }
  void Score(const ScoringInput& input, std::span<ScoredCandidate> candidates) const override;

 private:
  const Lexicon* lexicon_;
  const Transformer* model_;
  float log_oov_count_;
  Options options_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_MODEL_SCORER_H_
