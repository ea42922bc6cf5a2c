#include "lexicon/word_ngram.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/byte_fields.h"
#include "base/mapped_file.h"
#include "lexicon/lexicon.h"
#include "lexicon/lexicon_format.h"

namespace keydecide {

namespace ngram {

namespace {

uint64_t Padded16(uint64_t n) { return (2 * n + 3) / 4 * 4; }  // bytes of n int16, to 4

// Header layout (byte offsets):
//   0 magic[8]  8 version  12 header_size  16 variant_count  20 lexicon_crc32  24 word_count
//   28 bigram_count  32 trigram_count  36 reserved(12)  48 file_crc32  52 reserved(12)
// The checksum sits where the lexicon's does, so lexicon::FileCrc32 / SealFile serve both.
Status Decode(std::string_view file, Header* h) {
  if (file.size() < kHeaderSize || std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0) {
    return Status::Corruption("not a keydecide word n-gram file (bad magic or too short)");
  }
  h->version = GetField<uint32_t>(file, 8);
  if (h->version != kFormatVersion) {
    return Status::NotSupported("word n-gram format version " + std::to_string(h->version));
  }
  if (GetField<uint32_t>(file, 12) != kHeaderSize) return Status::Corruption("bad header size");
  h->variant_count = GetField<uint32_t>(file, 16);
  h->lexicon_crc32 = GetField<uint32_t>(file, 20);
  h->word_count = GetField<uint32_t>(file, 24);
  h->bigram_count = GetField<uint32_t>(file, 28);
  h->trigram_count = GetField<uint32_t>(file, 32);
  h->file_crc32 = GetField<uint32_t>(file, 48);
  if (h->word_count < 2) return Status::Corruption("no words");
  if (file.size() != h->expected_file_size()) {
    return Status::Corruption("file size " + std::to_string(file.size()) + ", header says " +
                              std::to_string(h->expected_file_size()));
  }
  if (lexicon::FileCrc32(file) != h->file_crc32) return Status::Corruption("checksum mismatch");
  return Status::OK();
}

}  // namespace

int16_t Quantize(double log_p) {
  const double units = std::round(log_p * kUnitsPerNat);
  return static_cast<int16_t>(std::clamp(units, -32767.0, 32767.0));
}

void Header::EncodeTo(std::string* dst) const {
  dst->assign(kHeaderSize, '\0');
  std::memcpy(dst->data(), kMagic, sizeof(kMagic));
  PutField<uint32_t>(dst, 8, version);
  PutField<uint32_t>(dst, 12, kHeaderSize);
  PutField<uint32_t>(dst, 16, variant_count);
  PutField<uint32_t>(dst, 20, lexicon_crc32);
  PutField<uint32_t>(dst, 24, word_count);
  PutField<uint32_t>(dst, 28, bigram_count);
  PutField<uint32_t>(dst, 32, trigram_count);
  PutField<uint32_t>(dst, 48, file_crc32);
}

uint64_t Header::expected_file_size() const {
  // 64-bit arithmetic: no overflow for any 32-bit counts.
  const uint64_t words = word_count, bigrams = bigram_count, trigrams = trigram_count;
  return kHeaderSize + 4 * uint64_t{variant_count} + 2 * Padded16(words) + 4 * (words + 1) +
         4 * bigrams + 2 * Padded16(bigrams) + 4 * (bigrams + 1) + 4 * trigrams +
         Padded16(trigrams);
}

}  // namespace ngram

WordNgram::~WordNgram() = default;

Status WordNgram::Open(const std::string& path, const Lexicon& lexicon,
                       std::unique_ptr<WordNgram>* out) {
  std::unique_ptr<WordNgram> model(new WordNgram());
  KD_RETURN_IF_ERROR(MappedFile::Open(path, &model->file_));
  const Status s = Init(model->file_->data(), lexicon, model.get());
  if (!s.ok()) return s.Annotated(path);
  *out = std::move(model);
  return Status::OK();
}

Status WordNgram::FromBytes(std::string bytes, const Lexicon& lexicon,
                            std::unique_ptr<WordNgram>* out) {
  std::unique_ptr<WordNgram> model(new WordNgram());
  model->bytes_ = std::move(bytes);
  KD_RETURN_IF_ERROR(Init(model->bytes_, lexicon, model.get()));
  *out = std::move(model);
  return Status::OK();
}

namespace {

// Rows [begin[i], begin[i+1]) of `words` for i < rows: they must tile [0, total), and hold
// strictly ascending ids in [1, word_count).
Status CheckRows(const char* what, const uint32_t* begin, uint32_t rows, const uint32_t* words,
                 uint32_t total, uint32_t word_count) {
  if (begin[0] != 0 || begin[rows] != total) {
    return Status::Corruption(std::string(what) + " rows do not cover their entries");
  }
  for (uint32_t r = 0; r < rows; ++r) {
    if (begin[r + 1] < begin[r] || begin[r + 1] > total) {
      return Status::Corruption(std::string("bad ") + what + " row " + std::to_string(r));
    }
    for (uint32_t i = begin[r]; i < begin[r + 1]; ++i) {
      if (words[i] == WordNgram::kSentenceStart || words[i] >= word_count ||
          (i > begin[r] && words[i] <= words[i - 1])) {
        return Status::Corruption(std::string("bad word in ") + what + " row " + std::to_string(r));
      }
    }
  }
  return Status::OK();
}

// Log probabilities are at most 0 (a back-off weight may be either sign).
Status CheckScores(const char* what, const int16_t* scores, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    if (scores[i] > 0) {
      return Status::Corruption(std::string("positive log probability in ") + what + " " +
                                std::to_string(i));
    }
  }
  return Status::OK();
}

}  // namespace

Status WordNgram::Init(std::string_view data, const Lexicon& lexicon, WordNgram* m) {
  ngram::Header& h = m->header_;
  KD_RETURN_IF_ERROR(ngram::Decode(data, &h));
  if (h.variant_count != lexicon.variant_count() ||
      h.lexicon_crc32 != lexicon.header().file_crc32) {
    return Status::InvalidArgument("word n-gram built for another lexicon");
  }
  // Sections are 4-byte aligned in the file and mmap/std::string data is at least 8-byte
  // aligned, so these casts are aligned.
  const char* p = data.data() + ngram::kHeaderSize;
  const auto u32 = [&p](uint64_t n) {
    const auto* section = reinterpret_cast<const uint32_t*>(p);
    p += 4 * n;
    return section;
  };
  const auto i16 = [&p](uint64_t n) {
    const auto* section = reinterpret_cast<const int16_t*>(p);
    p += (2 * n + 3) / 4 * 4;
    return section;
  };
  m->word_of_variant_ = u32(h.variant_count);
  m->unigram_ = i16(h.word_count);
  m->unigram_backoff_ = i16(h.word_count);
  m->bigram_begin_ = u32(uint64_t{h.word_count} + 1);
  m->bigram_word_ = u32(h.bigram_count);
  m->bigram_score_ = i16(h.bigram_count);
  m->bigram_backoff_ = i16(h.bigram_count);
  m->trigram_begin_ = u32(uint64_t{h.bigram_count} + 1);
  m->trigram_word_ = u32(h.trigram_count);
  m->trigram_score_ = i16(h.trigram_count);

  for (uint32_t v = 0; v < h.variant_count; ++v) {
    const uint32_t w = m->word_of_variant_[v];
    if (w == kSentenceStart || w >= h.word_count) {
      return Status::Corruption("bad word id of spelling " + std::to_string(v));
    }
  }
  KD_RETURN_IF_ERROR(CheckRows("bigram", m->bigram_begin_, h.word_count, m->bigram_word_,
                               h.bigram_count, h.word_count));
  KD_RETURN_IF_ERROR(CheckRows("trigram", m->trigram_begin_, h.bigram_count, m->trigram_word_,
                               h.trigram_count, h.word_count));
  KD_RETURN_IF_ERROR(CheckScores("unigram", m->unigram_, h.word_count));
  KD_RETURN_IF_ERROR(CheckScores("bigram", m->bigram_score_, h.bigram_count));
  KD_RETURN_IF_ERROR(CheckScores("trigram", m->trigram_score_, h.trigram_count));
  return Status::OK();
}

uint32_t WordNgram::Search(const uint32_t* words, uint32_t begin, uint32_t end, uint32_t word) {
  const uint32_t* it = std::lower_bound(words + begin, words + end, word);
  return it != words + end && *it == word ? static_cast<uint32_t>(it - words) : kNoBigram;
}

WordNgram::Context WordNgram::Find(uint32_t older, uint32_t last) const {
  Context c;
  c.last = last;
  if (older == kNoWord || last == kNoWord) return c;
  c.pair = Search(bigram_word_, bigram_begin_[older], bigram_begin_[older + 1], last);
  if (c.pair != kNoBigram) c.pair_backoff = ngram::Dequantize(bigram_backoff_[c.pair]);
  return c;
}

float WordNgram::LogProb(const Context& context, uint32_t word) const {
  float backoff = 0;
  if (context.pair != kNoBigram) {
    const uint32_t t =
        Search(trigram_word_, trigram_begin_[context.pair], trigram_begin_[context.pair + 1], word);
    if (t != kNoBigram) return ngram::Dequantize(trigram_score_[t]);
    backoff = context.pair_backoff;
  }
  if (context.last == kNoWord) return ngram::Dequantize(unigram_[word]);
  const uint32_t b =
      Search(bigram_word_, bigram_begin_[context.last], bigram_begin_[context.last + 1], word);
  if (b != kNoBigram) return backoff + ngram::Dequantize(bigram_score_[b]);
  return backoff + ngram::Dequantize(unigram_backoff_[context.last]) +
         ngram::Dequantize(unigram_[word]);
}

WordNgram::Row WordNgram::Trigrams(const Context& context) const {
  if (context.pair == kNoBigram) return {};
  const uint32_t begin = trigram_begin_[context.pair], end = trigram_begin_[context.pair + 1];
  return {{trigram_word_ + begin, end - begin}, {trigram_score_ + begin, end - begin}};
}

WordNgram::Row WordNgram::Bigrams(uint32_t last) const {
  if (last == kNoWord) return {};
  const uint32_t begin = bigram_begin_[last], end = bigram_begin_[last + 1];
  return {{bigram_word_ + begin, end - begin}, {bigram_score_ + begin, end - begin}};
}

void WordNgram::IndexTopBigrams(size_t k) {
  top_k_ = k;
  top_words_.assign(header_.word_count * k, kNoWord);
  top_scores_.assign(header_.word_count * k, 0);
  std::vector<uint32_t> order;
  for (uint32_t w = 0; w < header_.word_count; ++w) {
    const uint32_t begin = bigram_begin_[w], end = bigram_begin_[w + 1];
    order.resize(end - begin);
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = begin + i;
    const size_t n = std::min(k, order.size());
    std::partial_sort(order.begin(), order.begin() + n, order.end(), [&](uint32_t a, uint32_t b) {
      return bigram_score_[a] != bigram_score_[b] ? bigram_score_[a] > bigram_score_[b]
                                                  : bigram_word_[a] < bigram_word_[b];
    });
    for (size_t i = 0; i < n; ++i) {
      top_words_[w * k + i] = bigram_word_[order[i]];
      top_scores_[w * k + i] = bigram_score_[order[i]];
    }
  }
}

WordNgram::Row WordNgram::TopBigrams(uint32_t last) const {
  if (last == kNoWord || top_k_ == 0) return {};
  const size_t at = last * top_k_;
  size_t n = 0;
  while (n < top_k_ && top_words_[at + n] != kNoWord) ++n;
  return {{top_words_.data() + at, n}, {top_scores_.data() + at, n}};
}

}  // namespace keydecide
