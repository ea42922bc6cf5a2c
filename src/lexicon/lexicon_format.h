// The binary lexicon file (*.kdlex): a word trie with counts and case variants, laid out
// so it can be memory-mapped and searched in place. Little-endian; all values unsigned.
//
//   [Header 64 bytes] [TrieNode x node_count] [Entry x entry_count]
//   [Variant x variant_count] [string pool, pool_size bytes]
//
// Sections follow each other with no gaps, so
//   file_size = kHeaderSize + 16 * node_count + 16 * entry_count + 12 * variant_count
//             + pool_size
// and every section starts 4-byte aligned (header and element sizes are multiples of 4).
//
// The trie is over the bytes of lower-cased UTF-8 keys. Node 0 is the root. A node's
// children are contiguous, stored after their parent (first_child > own index, so every
// walk terminates), and ordered by descending max_count so a best-first search can visit
// siblings lazily. The values of every field and enum here are part of the persisted format.

#ifndef KEYDECIDE_LEXICON_LEXICON_FORMAT_H_
#define KEYDECIDE_LEXICON_LEXICON_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "keydecide/status.h"

namespace keydecide::lexicon {

inline constexpr char kMagic[8] = {'K', 'D', 'L', 'E', 'X', 'I', 'C', '\0'};
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr uint32_t kHeaderSize = 64;
inline constexpr uint32_t kNoEntry = 0xFFFFFFFFu;
inline constexpr size_t kMaxKeyBytes = 64;  // longer words are not stored

struct TrieNode {
  uint32_t first_child;  // index of the first child; meaningless when child_count == 0
  uint32_t entry;        // index into the entries, or kNoEntry
  uint32_t max_count;    // largest entry count in this node's subtree (search bound)
  uint16_t child_count;
  uint8_t label;  // the key byte leading to this node (0 for the root)
  uint8_t reserved;
};
static_assert(sizeof(TrieNode) == 16);

struct Entry {
  uint32_t key_offset;  // lower-cased key in the string pool
  uint16_t key_length;
  uint16_t variant_count;  // >= 1
  uint32_t count;          // corpus count summed over the case variants
  uint32_t first_variant;
};
static_assert(sizeof(Entry) == 16);

struct Variant {  // one spelling as seen in text: "london" -> "London"
  uint32_t offset;  // in the string pool
  uint32_t length;
  uint32_t count;
};
static_assert(sizeof(Variant) == 12);

struct Header {
  uint32_t version = kFormatVersion;
  uint64_t file_size = 0;
  uint32_t node_count = 0;
  uint32_t entry_count = 0;
  uint32_t variant_count = 0;
  uint32_t pool_size = 0;
  uint64_t total_count = 0;  // sum of entry counts (the unigram denominator)
  uint32_t file_crc32 = 0;  // zlib crc32 of the whole file, this field read as zero
  std::string language;        // at most 7 bytes, e.g. "en"

  // Writes the 64-byte header to *dst (replacing its content). To seal a file, encode with
  // file_crc32 = 0, append the sections, then SealFile.
  void EncodeTo(std::string* dst) const;

  // Parses and checks the header of a whole file: magic, version, declared sizes against
  // file.size(), section arithmetic (overflow-safe) and the whole-file checksum. Returns
  // Corruption (or NotSupported for a newer version) with a message saying what is wrong.
  Status DecodeFrom(std::string_view file);

  // Byte offsets of the sections, valid after a successful DecodeFrom or when set by hand.
  uint64_t nodes_offset() const { return kHeaderSize; }
  uint64_t entries_offset() const { return nodes_offset() + uint64_t{16} * node_count; }
  uint64_t variants_offset() const { return entries_offset() + uint64_t{16} * entry_count; }
  uint64_t pool_offset() const { return variants_offset() + uint64_t{12} * variant_count; }
  uint64_t expected_file_size() const { return pool_offset() + pool_size; }
};

// The checksum of a whole file (header and sections), with the checksum field read as 0.
// REQUIRES: file.size() >= kHeaderSize.
uint32_t FileCrc32(std::string_view file);

// Computes FileCrc32 of *file and stores it in the header's checksum field.
void SealFile(std::string* file);

}  // namespace keydecide::lexicon

#endif  // KEYDECIDE_LEXICON_LEXICON_FORMAT_H_
