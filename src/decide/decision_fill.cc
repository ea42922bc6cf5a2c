#include "decide/decision_fill.h"

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
