// Lexicon: a loaded, validated *.kdlex file (see lexicon_format.h). Read-only after Open;
// safe to share between threads and sessions.

#ifndef KEYDECIDE_LEXICON_LEXICON_H_
#define KEYDECIDE_LEXICON_LEXICON_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "keydecide/status.h"
#include "lexicon/lexicon_format.h"

namespace keydecide {

class MappedFile;

class Lexicon {
 public:
  // Maps and validates the file at `path`: header, checksum, and the whole structure (a
  // tree in the builder's layout, bounded valid UTF-8 strings, consistent counts), so a
  // file with a valid checksum but a hostile structure is still refused.
  // On failure returns NotFound/IOError/Corruption/NotSupported naming the path.
  static Status Open(const std::string& path, std::unique_ptr<Lexicon>* out);

  // Same as Open, over bytes the lexicon takes ownership of (tests, embedded lexicons).
  static Status FromBytes(std::string bytes, std::unique_ptr<Lexicon>* out);

  ~Lexicon();

  const lexicon::Header& header() const { return header_; }
  std::span<const lexicon::TrieNode> nodes() const { return nodes_; }
  size_t entry_count() const { return entries_.size(); }
  uint64_t total_count() const { return header_.total_count; }

  // Views stay valid while the Lexicon lives. REQUIRES: entry < entry_count().
  std::string_view Key(uint32_t entry) const;
  uint32_t Count(uint32_t entry) const { return entries_[entry].count; }
  // The most frequent spelling ("I", "London", "the").
  std::string_view CommonSpelling(uint32_t entry) const;
  std::span<const lexicon::Variant> Variants(uint32_t entry) const;
  std::string_view VariantText(const lexicon::Variant& v) const;
  // Index of spelling `v` of `entry` among all the file's spellings (0..variant_count()), a dense
  // id for per-spelling tables. REQUIRES: v < Variants(entry).size().
  uint32_t VariantIndex(uint32_t entry, size_t v) const {
    return entries_[entry].first_variant + static_cast<uint32_t>(v);
  }
  size_t variant_count() const { return variants_.size(); }
  // REQUIRES: index < variant_count().
  std::string_view VariantTextAt(uint32_t index) const { return VariantText(variants_[index]); }
  uint32_t VariantCountAt(uint32_t index) const { return variants_[index].count; }
  // The entry spelling `index` belongs to, or kNoEntry (a file whose entries do not hold their
  // spellings in order). O(log entries).
  uint32_t EntryOfVariant(uint32_t index) const;

  // Entry whose key is exactly `key` (lower-cased), or kNoEntry.
  uint32_t Find(std::string_view key) const;

 private:
  Lexicon() = default;
  static Status Init(std::string_view data, Lexicon* lex);
  Status Validate() const;
  // Validate's last steps: every key is its node's path; the spellings, and the total count
  // (the entries' sum).
  Status ValidatePaths() const;
  bool KeyIs(const lexicon::Entry& entry, const char* path, size_t n) const;
  Status ValidateVariants(uint64_t total) const;

  std::unique_ptr<MappedFile> file_;  // set when mapped
  std::string bytes_;                 // set when built from bytes
  lexicon::Header header_;
  std::span<const lexicon::TrieNode> nodes_;
  std::span<const lexicon::Entry> entries_;
  std::span<const lexicon::Variant> variants_;
  std::string_view pool_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_LEXICON_H_
