#include "decide/intent_reading.h"

#include <algorithm>

#include "model/intent_ngrams.h"
#include "model/transformer.h"

namespace keydecide {

void ReadIntent(const Transformer& model, const float* hidden, const IntentNgrams* ngrams,
                std::string_view text, std::vector<float>* probabilities) {
  probabilities->resize(model.config().intent_labels.size());
  model.Intent(hidden, probabilities->data());
  if (ngrams != nullptr) ngrams->Blend(text, *probabilities);
}

void WriteIntentLabel(const std::vector<std::string>& labels, std::span<const float> probabilities,
                      std::string* label) {
  const size_t best =
      std::max_element(probabilities.begin(), probabilities.end()) - probabilities.begin();
  label->assign(labels[best]);
}

}  // namespace keydecide
