// WordNgram: a back-off word trigram over the words of one lexicon (models/<lang>/teacher.kdng),
// converted at build time from a general-language model that Debian ships (a teacher: English,
// pocketsphinx-en-us's trigram; Chinese, libime's zh_CN.lm; docs/MODEL.md says which and under
// which licence). Sessions score candidates and sentences with it, and take the words it expects
// next as candidates.
//
// Words are numbered as LexiconWordIds numbers them (the WordBigram of the same lexicon uses the
// same ids); 0 is the start of a sentence. A lexicon word the teacher does not know has no
// n-grams and the teacher's unknown-word probability as its unigram. Back-off as in ARPA files:
//   log P(w | u v) = t(u v w)                   when the trigram is listed
//                  = b(u v) + log P(w | v)      else (b = 0 when (u v) is not a listed bigram)
//   log P(w | v)   = s(v w)                     when the bigram is listed
//                  = b(v) + log P(w)            else
// Scores are natural logs, stored as int16 in units of 1/kUnitsPerNat (a 0.001-nat step, a range
// of 32 nats: below what ranking can tell apart, and half the bytes of a float).
//
// File layout, little-endian, every section 4-byte aligned (an int16 section padded to 4):
//   Header (64 bytes)
//   u32 word_of_variant[variant_count]      lexicon spelling index → word id (≥ 1)
//   i16 unigram[word_count]                 log P(w)
//   i16 unigram_backoff[word_count]         b(w)
//   u32 bigram_begin[word_count + 1]        the bigrams (v ·): [bigram_begin[v], bigram_begin[v+1])
//   u32 bigram_word[bigram_count]           w of (v w), strictly ascending within a row
//   i16 bigram_score[bigram_count]          s(v w)
//   i16 bigram_backoff[bigram_count]        b(v w)
//   u32 trigram_begin[bigram_count + 1]     the trigrams (v w ·) of bigram i
//   u32 trigram_word[trigram_count]         strictly ascending within a row
//   i16 trigram_score[trigram_count]        t(v w x)
// The file names the lexicon it was built for by its spelling count and checksum; Open refuses
// another. Everything is validated at Open, so lookups need no checks.
//
// Read-only after Open; safe to share between threads.

#ifndef KEYDECIDE_LEXICON_WORD_NGRAM_H_
#define KEYDECIDE_LEXICON_WORD_NGRAM_H_

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

namespace ngram {

inline constexpr char kMagic[8] = {'K', 'D', 'N', 'G', 'R', 'A', 'M', '1'};
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr size_t kHeaderSize = 64;
inline constexpr float kUnitsPerNat = 1024.0f;

struct Header {
  uint32_t version = kFormatVersion;
  uint32_t variant_count = 0;  // of the lexicon it was built for
  uint32_t lexicon_crc32 = 0;  // that lexicon's file checksum
  uint32_t word_count = 0;     // ids 0..word_count-1; 0 is the sentence start
  uint32_t bigram_count = 0;
  uint32_t trigram_count = 0;
  uint32_t file_crc32 = 0;  // zlib crc32 of the whole file, this field read as zero

  void EncodeTo(std::string* dst) const;  // the 64-byte header
  uint64_t expected_file_size() const;
};

// A score as stored, and back.
int16_t Quantize(double log_p);
inline float Dequantize(int16_t q) { return static_cast<float>(q) / kUnitsPerNat; }

}  // namespace ngram

class WordNgram {
 public:
  static constexpr uint32_t kSentenceStart = 0;
  static constexpr uint32_t kNoBigram = 0xFFFFFFFFu;

  // The two words before the one being scored, found once for all the candidates of a
  // decision (Context). kNoWord: not known (a word the lexicon lacks); without `last` the
  // context is empty and a word scores its unigram.
  static constexpr uint32_t kNoWord = 0xFFFFFFFFu;
  struct Context {
    uint32_t last = kNoWord;
    uint32_t pair = kNoBigram;  // the listed bigram (older last), if any
    float pair_backoff = 0;     // b(older last); 0 when not listed
  };

  // Maps and validates the file at `path` against `lexicon` (which must outlive the model).
  // NotFound/IOError for an unreadable file, Corruption for a malformed one, InvalidArgument when
  // it was built for another lexicon.
  static Status Open(const std::string& path, const Lexicon& lexicon,
                     std::unique_ptr<WordNgram>* out);
  // The same over bytes the model takes ownership of (tests, fuzzing).
  static Status FromBytes(std::string bytes, const Lexicon& lexicon,
                          std::unique_ptr<WordNgram>* out);

  ~WordNgram();

  // The word id of lexicon spelling `variant_index` (Lexicon::VariantIndex).
  uint32_t WordOf(uint32_t variant_index) const { return word_of_variant_[variant_index]; }

  // REQUIRES: each of older and last < word_count() or kNoWord.
  Context Find(uint32_t older, uint32_t last) const;
  // log P(word | context), natural log. REQUIRES: word < word_count().
  float LogProb(const Context& context, uint32_t word) const;
  // log P(word) alone.
  float Unigram(uint32_t word) const { return ngram::Dequantize(unigram_[word]); }

  // The words listed after the context, in id order, and their scores (before any back-off):
  // the trigrams of its pair, and the bigrams of its last word.
  struct Row {
    std::span<const uint32_t> words;
    std::span<const int16_t> scores;
  };
  Row Trigrams(const Context& context) const;
  Row Bigrams(uint32_t last) const;

  // The `k` likeliest bigrams of every word, made once (IndexTopBigrams, at load: one pass
  // over the bigrams), so that the words expected after a word need no scan of its whole row
  // (thousands for "the"). TopBigrams: the row's words, likeliest first, at most k; empty
  // before IndexTopBigrams. REQUIRES: last < word_count() or kNoWord.
  void IndexTopBigrams(size_t k);
  Row TopBigrams(uint32_t last) const;

  const ngram::Header& header() const { return header_; }
  size_t word_count() const { return header_.word_count; }

 private:
  WordNgram() = default;
  static Status Init(std::string_view data, const Lexicon& lexicon, WordNgram* model);
  // The index of `word` in [begin, end) of `words`, or kNoBigram.
  static uint32_t Search(const uint32_t* words, uint32_t begin, uint32_t end, uint32_t word);

  std::unique_ptr<MappedFile> file_;
  std::string bytes_;
  ngram::Header header_;
  const uint32_t* word_of_variant_ = nullptr;
  const int16_t* unigram_ = nullptr;
  const int16_t* unigram_backoff_ = nullptr;
  const uint32_t* bigram_begin_ = nullptr;
  const uint32_t* bigram_word_ = nullptr;
  const int16_t* bigram_score_ = nullptr;
  const int16_t* bigram_backoff_ = nullptr;
  const uint32_t* trigram_begin_ = nullptr;
  const uint32_t* trigram_word_ = nullptr;
  const int16_t* trigram_score_ = nullptr;
  size_t top_k_ = 0;
  std::vector<uint32_t> top_words_;  // top_k_ per word, padded with kNoWord
  std::vector<int16_t> top_scores_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_WORD_NGRAM_H_
