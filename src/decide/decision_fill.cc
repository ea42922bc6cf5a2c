#include "decide/decision_fill.h"

#include <algorithm>
#include <cmath>

#include "decide/text_limits.h"

namespace keydecide {

void ClearModelOutputs(Decision* out) {
  out->popup = {0, !out->candidates.empty()};
  out->autocorrect.apply = false;
  out->autocorrect.replacement.clear();
  out->autocorrect.confidence = 0;
  out->intent.label.clear();
  out->intent.probabilities.clear();
}

bool AllFinite(std::span<const float> values) {
  return std::all_of(values.begin(), values.end(), [](float x) { return std::isfinite(x); });
}

bool ModelOutputsFinite(const Decision& d) {
  for (const Candidate& c : d.candidates) {
    if (!std::isfinite(c.score)) return false;
  }
  return std::isfinite(d.popup.probability) && std::isfinite(d.autocorrect.confidence) &&
         AllFinite(d.intent.probabilities);
}

CandidateSlots::CandidateSlots() : spare_(kMaxCandidatesLimit) {
  for (Candidate& c : spare_) c.text.reserve(kCandidateTextReserve);
}

void CandidateSlots::Resize(size_t k, std::vector<Candidate>* out) {
  if (out->capacity() < static_cast<size_t>(kMaxCandidatesLimit)) out->reserve(kMaxCandidatesLimit);
  while (out->size() > k) {
    spare_.push_back(std::move(out->back()));
    out->pop_back();
  }
  while (out->size() < k) {
    if (!spare_.empty()) {
      out->push_back(std::move(spare_.back()));
      spare_.pop_back();
    } else {
      out->emplace_back();
      out->back().text.reserve(kCandidateTextReserve);
    }
  }
}

}  // namespace keydecide
