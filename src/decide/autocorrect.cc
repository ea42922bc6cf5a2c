#include "decide/autocorrect.h"

#include <algorithm>

#include "decide/top_words.h"
#include "lexicon/lexicon.h"
#include "model/transformer.h"
#include "text/edit_distance.h"
#include "text/letter_case.h"

namespace keydecide {

bool KeepAsTyped(std::string_view composition, std::string_view typed, const Lexicon& lexicon) {
  if (IsAllUpper(composition)) return true;
  if (!StartsUpper(composition)) return false;
  const uint32_t entry = lexicon.Find(typed);
  return entry != lexicon::kNoEntry && StartsUpper(lexicon.CommonSpelling(entry));
}

CorrectionPick::CorrectionPick(const Transformer* model)
    : model_(model), logits_(std::min(model->n_words(), kCorrectionWords)) {
  shortlist_.reserve(kCorrectionShortlist);
  lower_.reserve(kMaxEditDistanceBytes * 2);  // lower-casing never doubles a word's bytes
}

int CorrectionPick::Pick(const float* hidden, std::string_view typed) {
  model_->WordLogits(hidden, static_cast<int>(logits_.size()), logits_.data());
  TopLetterWords(*model_, logits_, kCorrectionShortlist, &shortlist_);
  for (const auto& [logit, w] : shortlist_) {
    // Too long to compare is too far; skipping it keeps lower_ within its reserve.
    if (model_->Word(w).size() > kMaxEditDistanceBytes) continue;
    lower_.clear();
    AppendLowerUtf8(model_->Word(w), &lower_);
    if (lower_ == typed) return -1;  // the model prefers what was typed
    if (BoundedEditDistance(typed, lower_, kMaxCorrectionEdits) <= kMaxCorrectionEdits) return w;
  }
  return -1;
}

}  // namespace keydecide
