// SessionHistory: the words this session has finished recently, as a cache language model
// (a word just used is likely again) and as a source of candidates for words the lexicon
// lacks. Fixed size; nothing allocates after construction.

#ifndef KEYDECIDE_DECIDE_SESSION_HISTORY_H_
#define KEYDECIDE_DECIDE_SESSION_HISTORY_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace keydecide {

class Lexicon;

class SessionHistory {
 public:
  static constexpr size_t kCapacity = 128;  // words remembered
  static constexpr size_t kMaxWordBytes = 47;

  struct Word {      // one distinct remembered word
    uint32_t entry;  // lexicon entry, or lexicon::kNoEntry for unknown words
    uint16_t count;  // occurrences among the remembered words
    uint8_t length;
    char text[kMaxWordBytes + 1];  // lower-cased key (as the lexicon stores keys)
    std::string_view key() const { return {text, length}; }
  };

  // REQUIRES: lexicon outlives this object.
  explicit SessionHistory(const Lexicon* lexicon) : lexicon_(lexicon) {
    lowered_.reserve(2 * kMaxWordBytes);
  }

  // Remembers a finished word (any case; stored lower-cased). Words longer than
  // kMaxWordBytes or without letters are ignored. Forgets the oldest beyond kCapacity.
  void Push(std::string_view word);
  void Clear();
  // Forgets the most recent Push (the person deleted back into that word).
  void PopLast();

  size_t size() const { return size_; }  // remembered occurrences (<= kCapacity)

  // Distinct remembered words, sorted by entry (unknown words last); valid until Push.
  const Word* begin() const { return distinct_.data(); }
  const Word* end() const { return distinct_.data() + distinct_size_; }

  // Occurrences of a lexicon entry among the remembered words (0 if none).
  uint16_t CountOf(uint32_t entry) const;

 private:
  void RebuildDistinct();

  const Lexicon* lexicon_;
  struct Slot {
    uint32_t entry;
    uint8_t length;
    char text[kMaxWordBytes + 1];
  };
  std::array<Slot, kCapacity> ring_{};
  size_t next_ = 0;
  size_t size_ = 0;
  std::array<Word, kCapacity> distinct_{};
  size_t distinct_size_ = 0;
  std::string lowered_;  // scratch for Push
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_SESSION_HISTORY_H_
