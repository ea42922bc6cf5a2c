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
  const bool word_start = input.typed.empty();
  // P_session / P_lexicon = (recent / remembered) / (count / lexicon total).
  const float lexicon_per_remembered = static_cast<float>(lexicon_->total_count()) /
                                       static_cast<float>(std::max<size_t>(input.history_size, 1));
  for (ScoredCandidate& c : candidates) {
    // A word the lexicon lacks counts as seen once.
    const float count = static_cast<float>(
        std::max<uint32_t>(c.entry != lexicon::kNoEntry ? lexicon_->Count(c.entry) : 1, 1));
    float s;
    if (c.word > ModelConfig::kEmailWord) {
      s = c.logit = model_->WordLogit(input.hidden, c.word);
    } else {
      s = unk + std::log(count) - log_oov_count_;
    }
    const float recent = static_cast<float>(c.recent);
    float cache;
    if (word_start) {
      cache = options_.history_weight * std::log1p(recent);
    } else {
      cache = options_.cache_weight * std::log1p(recent * lexicon_per_remembered / count);
      if (c.entry == lexicon::kNoEntry && c.word < 0 && c.recent >= kNewWordSightings) {
        cache += options_.new_word_bonus;
      }
    }
    c.cache = cache;
    c.score = s - options_.channel_weight * static_cast<float>(c.cost) + cache;
  }
}

}  // namespace keydecide
