// Reading the model's intent head, the same for every pack: its probabilities at a hidden
// state (with a pack's intent n-grams blended in, when it has them), and the label of the
// likeliest (Decision::intent).

#ifndef KEYDECIDE_DECIDE_INTENT_READING_H_
#define KEYDECIDE_DECIDE_INTENT_READING_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keydecide {

class IntentNgrams;
class Transformer;

// The intent head at `hidden` into *probabilities (one per intent label); then `ngrams` (may be
// null) blended in over `text`, the line being typed. Allocates only when *probabilities is
// smaller than the labels.
void ReadIntent(const Transformer& model, const float* hidden, const IntentNgrams* ngrams,
                std::string_view text, std::vector<float>* probabilities);
// The label of the largest probability (the first of equals) into *label.
// REQUIRES: probabilities.size() == labels.size() > 0.
void WriteIntentLabel(const std::vector<std::string>& labels, std::span<const float> probabilities,
                      std::string* label);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_INTENT_READING_H_
