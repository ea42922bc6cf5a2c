#include "decide/session_history.h"

#include <algorithm>
#include <cstring>

#include "lexicon/lexicon.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

SessionHistory::SessionHistory(const Lexicon* lexicon) : lexicon_(lexicon) {
  lowered_.reserve(2 * kMaxWordBytes);
  index_.fill(kNone);
}

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
  if (size_ == kCapacity) {  // the oldest goes first, so that a record is free below
    Forget(ring_[next_]);
    --size_;
  }
  const uint32_t entry = lexicon_->Find(lowered_);
  uint16_t id = entry != lexicon::kNoEntry ? FindEntry(entry) : FindUnknown(lowered_);
  if (id == kNone) {
    id = free_size_ > 0 ? free_[--free_size_] : static_cast<uint16_t>(used_++);
    Word& w = words_[id];
    w.entry = entry;
    w.count = 0;
    w.length = static_cast<uint8_t>(lowered_.size());
    std::memcpy(w.text, lowered_.data(), lowered_.size());
    w.text[w.length] = '\0';
    w.capitalized = true;
    if (entry != lexicon::kNoEntry) {
      size_t slot = Home(entry);
      while (index_[slot] != kNone) slot = (slot + 1) % kIndexSlots;
      index_[slot] = id;
    }
  }
  ++words_[id].count;
  words_[id].capitalized = words_[id].capitalized && StartsUpper(word);
  ring_[next_] = id;
  next_ = (next_ + 1) % kCapacity;
  ++size_;
}

void SessionHistory::Clear() {
  used_ = free_size_ = next_ = size_ = 0;
  index_.fill(kNone);
}

void SessionHistory::PopLast() {
  if (size_ == 0) return;
  next_ = (next_ + kCapacity - 1) % kCapacity;
  --size_;
  Forget(ring_[next_]);
}

void SessionHistory::Forget(uint16_t id) {
  Word& w = words_[id];
  if (--w.count > 0) return;
  if (w.entry != lexicon::kNoEntry) IndexErase(w.entry);
  free_[free_size_++] = id;
}

size_t SessionHistory::Home(uint32_t entry) const {
  return (entry * 2654435761u) % kIndexSlots;  // Knuth's multiplicative hash
}

uint16_t SessionHistory::FindEntry(uint32_t entry) const {
  for (size_t slot = Home(entry); index_[slot] != kNone; slot = (slot + 1) % kIndexSlots) {
    if (words_[index_[slot]].entry == entry) return index_[slot];
  }
  return kNone;
}

// Unknown words are few among the remembered ones (names, typos), so a scan over the records
// serves them; the lexicon's words go through the index.
uint16_t SessionHistory::FindUnknown(std::string_view key) const {
  for (size_t id = 0; id < used_; ++id) {
    const Word& w = words_[id];
    if (w.count > 0 && w.entry == lexicon::kNoEntry && w.key() == key) {
      return static_cast<uint16_t>(id);
    }
  }
  return kNone;
}

// Removes `entry` from the index, then moves back each later record of its probe run that
// may no longer be found past the hole (deletion without tombstones).
void SessionHistory::IndexErase(uint32_t entry) {
  size_t hole = Home(entry);
  while (words_[index_[hole]].entry != entry) hole = (hole + 1) % kIndexSlots;
  for (size_t slot = (hole + 1) % kIndexSlots; index_[slot] != kNone;
       slot = (slot + 1) % kIndexSlots) {
    const size_t home = Home(words_[index_[slot]].entry);
    // The record at `slot` may move into the hole unless its home lies cyclically in
    // (hole, slot].
    const bool stays = hole < slot ? (home > hole && home <= slot) : (home > hole || home <= slot);
    if (stays) continue;
    index_[hole] = index_[slot];
    hole = slot;
  }
  index_[hole] = kNone;
}

uint16_t SessionHistory::CountOf(uint32_t entry) const {
  if (entry == lexicon::kNoEntry) return 0;
  const uint16_t id = FindEntry(entry);
  return id != kNone ? words_[id].count : 0;
}

uint16_t SessionHistory::CountOfUnknown(std::string_view key) const {
  const uint16_t id = FindUnknown(key);
  return id != kNone ? words_[id].count : 0;
}

}  // namespace keydecide
