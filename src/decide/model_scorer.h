// ModelScorer: ranks candidates by the typing model's word logits at the cursor (which
// already see the context and the keystrokes), plus the lexicon's typing cost and the
// session's recent words:
//   score = logit(w) - channel_weight * cost + history_weight * log(1 + recent)
// A word outside the model's vocabulary takes the <unk> logit, shared out by its lexicon
// count: logit(<unk>) + log(count(w) / count(all lexicon words outside the vocabulary)).
// Logits need no normalisation: every candidate of one keystroke shares the same one.

#ifndef KEYDECIDE_DECIDE_MODEL_SCORER_H_
#define KEYDECIDE_DECIDE_MODEL_SCORER_H_

#include "decide/scorer.h"

namespace keydecide {

class Lexicon;
class Transformer;

class ModelScorer : public Scorer {
 public:
  struct Options {
    float channel_weight = 1.0f;  // nats per typing-slip point (tuned by replay on dev)
    float history_weight = 0.2f;  // nats per log(1 + recent uses) (tuned likewise)
  };

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
