// WordBigram: a word bigram language model over the hanzi words of one pinyin-keyed lexicon
// (models/zh/lexicon.kdbg, beside the lexicon), trained by `keydecide lexicon bigram` on segmented
// Chinese text. The sentence search scores a word by its probability after the word before it.
//
// Words are the distinct spelling texts of the lexicon, numbered 1..word_count-1 in the order of
// their first spelling (Chinese), or its entries numbered in the byte order of their keys
// (English: every spelling of an entry is its word; word_bigram_builder.h); 0 is the start of a
// sentence (or of any run of hanzi). The probability of
// word w after word v is interpolated absolute discounting over a unigram that mixes the text's
// counts with the lexicon's:
//   P(w | v) = max(c(v,w) − D, 0) / c(v) + α(v) · P_1(w)
//   α(v)     = 1 − Σ_kept max(c(v,u) − D, 0) / c(v)     (the back-off weight)
//   P_1(w)   = λ · c(w) / N + (1 − λ) · P_lexicon(w)
// where c(v,w) is the pair's count, c(v) the count of v followed by any word, n(v) the number of
// distinct words seen after v (both before rare pairs are dropped), c(w) the count of w in the
// text and N the text's words; P(w | v) = P_1(w) for a v never seen. α(v) is what the kept,
// discounted pairs leave: D · n(v) / c(v) when no pair was dropped; the dropped pairs' counts,
// and a teacher's occurrences of v that its listed pairs do not cover (word_bigram_builder.h),
// add to it.
//
// File layout, little-endian, every section 4-byte aligned:
//   Header (64 bytes, below)
//   u32 word_of_variant[variant_count]   lexicon spelling index → word id (≥ 1)
//   u32 left_total[word_count]           c(v)
//   u32 left_distinct[word_count]        n(v)
//   u32 word_total[word_count]           c(w)
//   u32 row_begin[word_count + 1]        pairs of v: [row_begin[v], row_begin[v+1])
//   u32 right[pair_count]                w, strictly ascending within a row
//   u32 pair_count_of[pair_count]        c(v,w) ≥ 1
// The file names the lexicon it was built for by its spelling count and checksum; Open refuses
// another. Everything is validated at Open, so lookups need no checks.
//
// Read-only after Open; safe to share between threads.

#ifndef KEYDECIDE_LEXICON_WORD_BIGRAM_H_
#define KEYDECIDE_LEXICON_WORD_BIGRAM_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

class Lexicon;
class MappedFile;

namespace bigram {

inline constexpr char kMagic[8] = {'K', 'D', 'B', 'I', 'G', 'R', 'M', '1'};
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr size_t kHeaderSize = 64;

struct Header {
  uint32_t version = kFormatVersion;
  uint32_t variant_count = 0;  // of the lexicon it was built for
  uint32_t lexicon_crc32 = 0;  // that lexicon's file checksum
  uint32_t word_count = 0;     // ids 0..word_count-1; 0 is the sentence start
  uint32_t pair_count = 0;
  float discount = 0.75f;       // D, in (0, 1)
  float unigram_weight = 0.9f;  // λ, in [0, 1]
  uint64_t tokens = 0;          // words in the training text (information)
  uint32_t file_crc32 = 0;      // zlib crc32 of the whole file, this field read as zero

  void EncodeTo(std::string* dst) const;  // the 64-byte header
  uint64_t expected_file_size() const;
};

}  // namespace bigram

class WordBigram {
 public:
  static constexpr uint32_t kSentenceStart = 0;

  // Maps and validates the file at `path` against `lexicon` (which must outlive the model):
  // header, checksum, sizes, every id and row. NotFound/IOError for an unreadable file,
  // Corruption for a malformed one, InvalidArgument when it was built for another lexicon.
  static Status Open(const std::string& path, const Lexicon& lexicon,
                     std::unique_ptr<WordBigram>* out);
  // The same over bytes the model takes ownership of (tests).
  static Status FromBytes(std::string bytes, const Lexicon& lexicon,
                          std::unique_ptr<WordBigram>* out);

  ~WordBigram();

  // The word id of lexicon spelling `variant_index` (Lexicon::VariantIndex).
  uint32_t WordOf(uint32_t variant_index) const { return word_of_variant_[variant_index]; }

  // P_1(word), given P_lexicon(word). REQUIRES: word < word_count().
  float Unigram(uint32_t word, float p_lexicon) const;
  // log P(word | previous) (natural log), given Unigram(word) (computed once per word, as the
  // search scores one word after many). REQUIRES: both ids below word_count().
  float LogProb(uint32_t previous, uint32_t word, float unigram) const;

  // The first lexicon spelling of word `word`, or kNoVariant (the sentence start).
  static constexpr uint32_t kNoVariant = 0xFFFFFFFFu;
  uint32_t VariantOf(uint32_t word) const { return variant_of_word_[word]; }

  // c(previous): how often `previous` was followed by any word.
  uint32_t FollowerTotal(uint32_t previous) const { return left_total_[previous]; }
  // The words seen after `previous` (those kept), in id order, and their counts.
  std::span<const uint32_t> Followers(uint32_t previous) const;
  std::span<const uint32_t> FollowerCounts(uint32_t previous) const;
  // c(previous, word) as kept (0 when not kept). O(log followers). REQUIRES: previous <
  // word_count().
  uint32_t PairCount(uint32_t previous, uint32_t word) const;

  const bigram::Header& header() const { return header_; }
  size_t word_count() const { return header_.word_count; }

 private:
  WordBigram() = default;
  static Status Init(std::string_view data, const Lexicon& lexicon, WordBigram* model);

  std::unique_ptr<MappedFile> file_;
  std::string bytes_;
  bigram::Header header_;
  const uint32_t* word_of_variant_ = nullptr;
  const uint32_t* left_total_ = nullptr;
  const uint32_t* left_distinct_ = nullptr;
  const uint32_t* word_total_ = nullptr;
  const uint32_t* row_begin_ = nullptr;
  const uint32_t* right_ = nullptr;
  const uint32_t* pair_count_ = nullptr;
  std::vector<uint32_t> variant_of_word_;  // made at Open
  std::vector<float> backoff_;             // per word: the back-off weight, made at Open
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_WORD_BIGRAM_H_
