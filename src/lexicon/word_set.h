// WordSet: which lower-cased spellings are English words, beyond the lexicon's (models/en/
// lexicon.kdws, beside the lexicon; built by `keydecide lexicon words` from Debian's
// wamerican-huge list). Autocorrect reads a word neither knows as likely misspelt.
//
// A Bloom filter: no false negatives, about 1% false positives at 10 bits per word and 7
// hashes. A false positive only takes a misspelling for a word (it is then corrected as
// readily as a known word is), the cautious direction, and the filter is a tenth of the list.
//
// File layout, little-endian:
//   Header (64 bytes): magic "KDWORDS1", u32 version (8), u32 header size (12), u32 hash count
//   k (16), u32 reserved (20), u64 bit count m (24, a multiple of 64), u64 words added (32),
//   u32 reserved (40), u32 reserved (44), u32 file crc32 (48; zlib crc32 of the whole file, this
//   field read as zero), reserved (52..64)
//   u8 bits[m / 8]
// Bit i of the filter is bit (i % 8) of bits[i / 8]. A word sets bits (h1 + j·h2) mod m for
// j < k, with h1 = FNV-1a 64 of its bytes and h2 = splitmix64(h1) | 1.
//
// Read-only after Open; safe to share between threads.

#ifndef KEYDECIDE_LEXICON_WORD_SET_H_
#define KEYDECIDE_LEXICON_WORD_SET_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "keydecide/status.h"

namespace keydecide {

class MappedFile;

class WordSet {
 public:
  static constexpr size_t kHeaderSize = 64;
  static constexpr uint32_t kMaxHashes = 16;

  // Maps and validates the file (magic, version, sizes, checksum). NotFound/IOError for an
  // unreadable file, Corruption for a malformed one, NotSupported for another version.
  static Status Open(const std::string& path, std::unique_ptr<WordSet>* out);
  // The same over bytes the set takes ownership of (tests, fuzzers).
  static Status FromBytes(std::string bytes, std::unique_ptr<WordSet>* out);

  // The file's bytes for `words` (each as given: lower-case them first), with bits_per_word
  // bits per word (1..64) and `hashes` hashes (1..kMaxHashes). InvalidArgument otherwise.
  static Status Build(std::span<const std::string_view> words, uint32_t bits_per_word,
                      uint32_t hashes, std::string* bytes);

  ~WordSet();

  // True when `word` was added, and for about 1% of the strings that were not.
  bool MayContain(std::string_view word) const;

  uint64_t words() const { return words_; }
  uint64_t bit_count() const { return bit_count_; }

 private:
  WordSet() = default;
  static Status Init(std::string_view data, WordSet* set);

  std::unique_ptr<MappedFile> file_;
  std::string bytes_;
  const uint8_t* bits_ = nullptr;
  uint64_t bit_count_ = 0;
  uint64_t words_ = 0;
  uint32_t hashes_ = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_WORD_SET_H_
