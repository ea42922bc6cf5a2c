#include "decide/session_history.h"

#include <algorithm>
#include <cstring>

#include "lexicon/lexicon.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

void SessionHistory::Push(std::string_view word) {
  while (!word.empty() && word.back() == '\'') word.remove_suffix(1);
  if (word.empty() || word.size() > kMaxWordBytes) return;
  // Lower-casing never lengthens text in the scripts we case-map, so the reserved scratch
  // suffices and nothing allocates.
  lowered_.clear();
  AppendLowerUtf8(word, &lowered_);
  if (lowered_.size() > kMaxWordBytes) return;
  size_t pos = 0;
  bool has_letter = false;
  while (pos < lowered_.size() && !has_letter) {
    char32_t cp;
    utf8::Decode(lowered_, &pos, &cp);
    has_letter = IsLetter(cp);
  }
  if (!has_letter) return;
  Slot& slot = ring_[next_];
  slot.length = static_cast<uint8_t>(lowered_.size());
  std::memcpy(slot.text, lowered_.data(), lowered_.size());
  slot.text[slot.length] = '\0';
  slot.entry = lexicon_->Find(lowered_);
  next_ = (next_ + 1) % kCapacity;
  size_ = std::min(size_ + 1, kCapacity);
  RebuildDistinct();
}

void SessionHistory::Clear() { next_ = size_ = distinct_size_ = 0; }

void SessionHistory::PopLast() {
  if (size_ == 0) return;
  next_ = (next_ + kCapacity - 1) % kCapacity;
  --size_;
  RebuildDistinct();
}

// Called once per finished word (not per keystroke): sorts at most kCapacity items.
void SessionHistory::RebuildDistinct() {
  for (size_t i = 0; i < size_; ++i) {  // the size_ most recent slots, oldest first
    const Slot& s = ring_[(next_ + kCapacity - size_ + i) % kCapacity];
    Word& w = distinct_[i];
    w.entry = s.entry;
    w.count = 1;
    w.length = s.length;
    std::memcpy(w.text, s.text, s.length + 1);
  }
  auto by_key = [](const Word& a, const Word& b) { return a.key() < b.key(); };
  std::sort(distinct_.begin(), distinct_.begin() + size_, by_key);
  distinct_size_ = 0;
  for (size_t i = 0; i < size_; ++i) {  // merge runs of the same word
    if (distinct_size_ > 0 && distinct_[distinct_size_ - 1].key() == distinct_[i].key()) {
      ++distinct_[distinct_size_ - 1].count;
    } else {
      distinct_[distinct_size_++] = distinct_[i];
    }
  }
  std::sort(distinct_.begin(), distinct_.begin() + distinct_size_,
            [](const Word& a, const Word& b) {
              return a.entry != b.entry ? a.entry < b.entry : a.key() < b.key();
            });
}

uint16_t SessionHistory::CountOf(uint32_t entry) const {
  const Word* it = std::lower_bound(begin(), end(), entry,
                                    [](const Word& w, uint32_t e) { return w.entry < e; });
  return (it != end() && it->entry == entry) ? it->count : 0;
}

}  // namespace keydecide
