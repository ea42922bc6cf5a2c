// SessionHistory: the words this session has finished recently, as a cache language model
// (a word just used is likely again, a name or a term most of all) and as a source of
// candidates for words the lexicon lacks. Nothing of it is stored: it lives and dies with the
// session. Fixed size; nothing allocates after construction.

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
  // Words remembered: about four pages, so that a name of a long e-mail or a chapter is still
  // there when it comes again (docs/history/BENCHMARKS-to-2026-12-07.md, "The session's words").
  static constexpr size_t kCapacity = 2048;
  static constexpr size_t kMaxWordBytes = 47;

  struct Word {      // one distinct remembered word
    uint32_t entry;  // lexicon entry, or lexicon::kNoEntry for unknown words
    uint16_t count;  // occurrences among the remembered words (0: a free record)
    uint8_t length;
    bool capitalized;  // every occurrence began with a capital (a name, for unknown words)
    char text[kMaxWordBytes + 1];  // lower-cased key (as the lexicon stores keys)
    std::string_view key() const { return {text, length}; }
  };

  // REQUIRES: lexicon outlives this object.
  explicit SessionHistory(const Lexicon* lexicon);

  // Remembers a finished word (any case; stored lower-cased). Words longer than
  // kMaxWordBytes or without letters are ignored. Forgets the oldest beyond kCapacity.
  // O(1) for a lexicon word; an unknown word is looked up among the unknown ones.
  void Push(std::string_view word);
  void Clear();
  // Forgets the most recent Push (the person deleted back into that word).
  void PopLast();

  size_t size() const { return size_; }  // remembered occurrences (<= kCapacity)

  // The distinct remembered words, in no order, with free records (count 0) among them: skip
  // those. Valid until the next Push, PopLast or Clear.
  const Word* begin() const { return words_.data(); }
  const Word* end() const { return words_.data() + used_; }

  // Occurrences of a lexicon entry among the remembered words (0 if none). O(1).
  uint16_t CountOf(uint32_t entry) const;
  // Occurrences of a word the lexicon lacks, by its lower-cased key (0 if none).
  uint16_t CountOfUnknown(std::string_view key) const;

 private:
  static constexpr uint16_t kNone = 0xFFFF;
  static constexpr size_t kIndexSlots = 2 * kCapacity;  // at most half full: short probes

  void Forget(uint16_t id);  // one occurrence less; frees the record at 0
  size_t Home(uint32_t entry) const;
  uint16_t FindEntry(uint32_t entry) const;
  uint16_t FindUnknown(std::string_view key) const;
  void IndexErase(uint32_t entry);

  const Lexicon* lexicon_;
  std::array<Word, kCapacity> words_{};
  size_t used_ = 0;                         // records ever used: words_[0, used_)
  std::array<uint16_t, kCapacity> free_{};  // freed records below used_, a stack
  size_t free_size_ = 0;
  std::array<uint16_t, kCapacity> ring_{};  // record of each occurrence, oldest at next_
  size_t next_ = 0;
  size_t size_ = 0;
  // Lexicon entry -> record, open addressing with linear probing (kNone: empty), so that
  // CountOf, asked for each of 64 candidates per keystroke, is one probe or two.
  std::array<uint16_t, kIndexSlots> index_{};
  std::string lowered_;  // scratch for Push
};

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_SESSION_HISTORY_H_
