#include "decide/pending_words.h"

#include "personal/learner.h"

namespace keydecide {

PendingWords::PendingWords(size_t reserved, size_t max) : words_(reserved), max_(max) {
  for (Word& w : words_) {
    w.text.reserve(Learner::kMaxWordBytes);
    w.previous.reserve(Learner::kMaxWordBytes);
  }
}

bool PendingWords::Hold(std::string_view text, std::string_view previous, std::string_view reading,
                        bool picked, size_t end) {
  if (size_ == max_) return false;
  if (size_ == words_.size()) words_.emplace_back();
  Word& w = words_[size_++];
  w.text.assign(text);
  w.previous.assign(previous);
  w.reading.assign(reading);
  w.picked = picked;
  w.end = end;
  return true;
}

void PendingWords::OfferTo(Learner* learner, int app, uint64_t epoch) {
  for (const Word& w : words()) learner->Offer(w.text, w.previous, w.picked, w.reading, app, epoch);
  size_ = 0;
}

void PendingWords::DropEndingAfter(size_t size) {
  size_t kept = 0;
  for (size_t i = 0; i < size_; ++i) {
    if (words_[i].end != kNoEnd && words_[i].end > size) continue;
    if (kept != i) std::swap(words_[kept], words_[i]);
    ++kept;
  }
  size_ = kept;
}

void PendingWords::ShiftEnds(size_t cut) {
  size_t kept = 0;
  for (size_t i = 0; i < size_; ++i) {
    Word& w = words_[i];
    if (w.end != kNoEnd) {
      if (w.end < cut) continue;
      w.end -= cut;
    }
    if (kept != i) std::swap(words_[kept], words_[i]);
    ++kept;
  }
  size_ = kept;
}

}  // namespace keydecide
