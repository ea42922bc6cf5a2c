#include "decide/popup_estimate.h"

#include <algorithm>
#include <cmath>

#include "lexicon/lexicon.h"

namespace keydecide {

float SavingShare(std::span<const ScoredCandidate> scored, size_t offered, size_t typed_bytes,
                  const Lexicon& lexicon) {
  if (scored.empty()) return 0;
  float top = scored.front().score;  // the best, unless nothing was sorted (offered 0)
  for (const ScoredCandidate& c : scored) top = std::max(top, c.score);
  const size_t slots = std::min(offered, kPopupSlots);
  float all = 0, saving = 0;
  for (size_t i = 0; i < scored.size(); ++i) {
    const ScoredCandidate& c = scored[i];
    const float p = std::exp(c.score - top);
    all += p;
    const size_t length =
        c.entry != lexicon::kNoEntry ? lexicon.Key(c.entry).size() : c.text.size();
    if (i < slots && length >= typed_bytes + 2) saving += p;
  }
  return saving / all;
}

float ClampedLogit(float p) {
  p = std::clamp(p, 1e-6f, 1.0f - 1e-6f);
  return std::log(p / (1.0f - p));
}

float MixPopup(float head, float share, float head_share) {
  return MixPopupLogits(ClampedLogit(head), ClampedLogit(share), head_share);
}

float MixPopupLogits(float head_logit, float share_logit, float head_share) {
  const float z = head_share * head_logit + (1.0f - head_share) * share_logit;
  return 1.0f / (1.0f + std::exp(-z));
}

}  // namespace keydecide
