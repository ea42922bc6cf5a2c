#include "decide/model_scorer.h"

#include <algorithm>
#include <cmath>

#include "lexicon/lexicon.h"
#include "model/transformer.h"

namespace keydecide {

ModelScorer::ModelScorer(const Lexicon* lexicon, const Transformer* model, double oov_count,
                         const Options& options)
    : lexicon_(lexicon),
      model_(model),
      log_oov_count_(static_cast<float>(std::log(std::max(oov_count, 1.0)))),
      options_(options) {}

void ModelScorer::Score(const ScoringInput& input, std::span<ScoredCandidate> candidates) const {
  const float unk = model_->WordLogit(input.hidden, ModelConfig::kUnkWord);
  for (ScoredCandidate& c : candidates) {
    float s;
    if (c.word > ModelConfig::kEmailWord) {
      s = c.logit = model_->WordLogit(input.hidden, c.word);
    } else {
      const uint32_t count = c.entry != lexicon::kNoEntry ? lexicon_->Count(c.entry) : 1;
      s = unk + std::log(static_cast<float>(std::max<uint32_t>(count, 1))) - log_oov_count_;
    }
    c.score = s - options_.channel_weight * static_cast<float>(c.cost) +
              options_.history_weight * std::log1p(static_cast<float>(c.recent));
  }
}

}  // namespace keydecide
