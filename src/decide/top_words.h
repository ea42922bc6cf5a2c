// The model's best letter words from a row of word logits: the next-word proposals at a word
// start and the autocorrect shortlist both read them.

#ifndef KEYDECIDE_DECIDE_TOP_WORDS_H_
#define KEYDECIDE_DECIDE_TOP_WORDS_H_

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace keydecide {

class Transformer;

// Replaces *out with the k highest (logit, word) pairs of `logits` (word w's logit at index w)
// among the model's letter words, best first (ties: any order). Does not allocate when
// out->capacity() >= k.
void TopLetterWords(const Transformer& model, std::span<const float> logits, size_t k,
                    std::vector<std::pair<float, int>>* out);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_TOP_WORDS_H_
