#include "decide/top_words.h"

#include <algorithm>

#include "model/transformer.h"

namespace keydecide {

void TopLetterWords(const Transformer& model, std::span<const float> logits, size_t k,
                    std::vector<std::pair<float, int>>* out) {
  out->clear();
  if (k == 0) return;
  // A min-heap of the best so far: the worst kept pair on top.
  auto worse = [](const auto& a, const auto& b) { return a.first > b.first; };
  for (int w = 0; w < static_cast<int>(logits.size()); ++w) {
    if (!model.vocab().IsLetterWord(w)) continue;
    if (out->size() < k) {
      out->push_back({logits[w], w});
      std::push_heap(out->begin(), out->end(), worse);
    } else if (logits[w] > out->front().first) {
      std::pop_heap(out->begin(), out->end(), worse);
      out->back() = {logits[w], w};
      std::push_heap(out->begin(), out->end(), worse);
    }
  }
  std::sort_heap(out->begin(), out->end(), worse);  // ascending in `worse`: best first
}

}  // namespace keydecide
