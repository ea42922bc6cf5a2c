#include "lexicon/word_bigram.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/byte_fields.h"
#include "base/mapped_file.h"
#include "lexicon/lexicon.h"
#include "lexicon/lexicon_format.h"

namespace keydecide {

namespace bigram {

namespace {

// Header layout (byte offsets):
//   0 magic[8]  8 version  12 header_size  16 variant_count  20 lexicon_crc32  24 word_count
//   28 pair_count  32 discount(f32)  36 unigram_weight(f32)  40 tokens(8)  48 file_crc32  52
//   reserved(12)
// The checksum sits where the lexicon's does, so lexicon::FileCrc32 / SealFile serve both.
Status Decode(std::string_view file, Header* h) {
  if (file.size() < kHeaderSize || std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0) {
    return Status::Corruption("not a keydecide word bigram file (bad magic or too short)");
  }
  h->version = GetField<uint32_t>(file, 8);
  if (h->version != kFormatVersion) {
    return Status::NotSupported("word bigram format version " + std::to_string(h->version));
  }
  if (GetField<uint32_t>(file, 12) != kHeaderSize) return Status::Corruption("bad header size");
  h->variant_count = GetField<uint32_t>(file, 16);
  h->lexicon_crc32 = GetField<uint32_t>(file, 20);
  h->word_count = GetField<uint32_t>(file, 24);
  h->pair_count = GetField<uint32_t>(file, 28);
  h->discount = GetField<float>(file, 32);
  h->unigram_weight = GetField<float>(file, 36);
  h->tokens = GetField<uint64_t>(file, 40);
  h->file_crc32 = GetField<uint32_t>(file, 48);
  if (h->word_count == 0) return Status::Corruption("no words");
  if (!(h->discount > 0.0f && h->discount < 1.0f)) return Status::Corruption("bad discount");
  if (!(h->unigram_weight >= 0.0f && h->unigram_weight <= 1.0f)) {
    return Status::Corruption("bad unigram weight");
  }
  if (h->tokens == 0 && h->unigram_weight > 0.0f) {
    return Status::Corruption("a text unigram without words");
  }
  if (file.size() != h->expected_file_size()) {
    return Status::Corruption("file size " + std::to_string(file.size()) + ", header says " +
                              std::to_string(h->expected_file_size()));
  }
  if (lexicon::FileCrc32(file) != h->file_crc32) return Status::Corruption("checksum mismatch");
  return Status::OK();
}

}  // namespace

void Header::EncodeTo(std::string* dst) const {
  dst->assign(kHeaderSize, '\0');
  std::memcpy(dst->data(), kMagic, sizeof(kMagic));
  PutField<uint32_t>(dst, 8, version);
  PutField<uint32_t>(dst, 12, kHeaderSize);
  PutField<uint32_t>(dst, 16, variant_count);
  PutField<uint32_t>(dst, 20, lexicon_crc32);
  PutField<uint32_t>(dst, 24, word_count);
  PutField<uint32_t>(dst, 28, pair_count);
  PutField<float>(dst, 32, discount);
  PutField<float>(dst, 36, unigram_weight);
  PutField<uint64_t>(dst, 40, tokens);
  PutField<uint32_t>(dst, 48, file_crc32);
}

uint64_t Header::expected_file_size() const {
  // 64-bit arithmetic: no overflow for any 32-bit counts.
  return kHeaderSize +
         4 * (uint64_t{variant_count} + 4 * uint64_t{word_count} + 1 + 2 * uint64_t{pair_count});
}

}  // namespace bigram

WordBigram::~WordBigram() = default;

Status WordBigram::Open(const std::string& path, const Lexicon& lexicon,
                        std::unique_ptr<WordBigram>* out) {
  std::unique_ptr<WordBigram> model(new WordBigram());
  KD_RETURN_IF_ERROR(MappedFile::Open(path, &model->file_));
  const Status s = Init(model->file_->data(), lexicon, model.get());
  if (!s.ok()) return s.Annotated(path);
  *out = std::move(model);
  return Status::OK();
}

Status WordBigram::FromBytes(std::string bytes, const Lexicon& lexicon,
                             std::unique_ptr<WordBigram>* out) {
  std::unique_ptr<WordBigram> model(new WordBigram());
  model->bytes_ = std::move(bytes);
  KD_RETURN_IF_ERROR(Init(model->bytes_, lexicon, model.get()));
  *out = std::move(model);
  return Status::OK();
}

Status WordBigram::Init(std::string_view data, const Lexicon& lexicon, WordBigram* m) {
  bigram::Header& h = m->header_;
  KD_RETURN_IF_ERROR(bigram::Decode(data, &h));
  if (h.variant_count != lexicon.variant_count() ||
      h.lexicon_crc32 != lexicon.header().file_crc32) {
    return Status::InvalidArgument("word bigram built for another lexicon");
  }
  // Sections are 4-byte aligned in the file and mmap/std::string data is at least 8-byte
  // aligned, so these casts are aligned.
  const auto* p = reinterpret_cast<const uint32_t*>(data.data() + bigram::kHeaderSize);
  m->word_of_variant_ = p;
  m->left_total_ = p += h.variant_count;
  m->left_distinct_ = p += h.word_count;
  m->word_total_ = p += h.word_count;
  m->row_begin_ = p += h.word_count;
  m->right_ = p += h.word_count + 1;
  m->pair_count_ = p += h.pair_count;

  const auto bad = [](const char* what, uint64_t i) {
    return Status::Corruption(std::string(what) + " " + std::to_string(i));
  };
  m->variant_of_word_.assign(h.word_count, kNoVariant);
  m->backoff_.assign(h.word_count, 1.0f);
  for (uint32_t v = 0; v < h.variant_count; ++v) {
    const uint32_t w = m->word_of_variant_[v];
    if (w == kSentenceStart || w >= h.word_count) return bad("bad word id of spelling", v);
    if (m->variant_of_word_[w] == kNoVariant) m->variant_of_word_[w] = v;
  }
  if (m->row_begin_[0] != 0 || m->row_begin_[h.word_count] != h.pair_count) {
    return Status::Corruption("rows do not cover the pairs");
  }
  for (uint32_t v = 0; v < h.word_count; ++v) {
    const uint32_t begin = m->row_begin_[v], end = m->row_begin_[v + 1];
    if (end < begin || end > h.pair_count) return bad("bad row of word", v);
    if (end - begin > m->left_distinct_[v]) return bad("more pairs than distinct followers:", v);
    uint64_t sum = 0;
    for (uint32_t i = begin; i < end; ++i) {
      if (m->right_[i] == kSentenceStart || m->right_[i] >= h.word_count ||
          (i > begin && m->right_[i] <= m->right_[i - 1])) {
        return bad("bad follower in the row of word", v);
      }
      if (m->pair_count_[i] == 0) return bad("zero pair count in the row of word", v);
      sum += m->pair_count_[i];
    }
    // Every distinct follower was seen once at least, the dropped ones too: this keeps every
    // P(w | v) at most 1.
    if (sum + (m->left_distinct_[v] - (end - begin)) > m->left_total_[v]) {
      return bad("pair counts above the total of word", v);
    }
    if (m->left_distinct_[v] > m->left_total_[v]) return bad("more followers than counts:", v);
    // Every occurrence of a word but the last of a run is followed by one.
    if (v != kSentenceStart && m->left_total_[v] > m->word_total_[v]) {
      return bad("more pairs than occurrences of word", v);
    }
    if (m->word_total_[v] > h.tokens) return bad("more occurrences than words of word", v);
    // The back-off weight: what the discounted pairs leave of c(v). Without dropped pairs or a
    // teacher's unlisted followers it is D · n(v) / c(v); with them, their counts go to it too.
    if (m->left_total_[v] > 0) {
      double listed = 0;
      for (uint32_t i = begin; i < end; ++i) {
        listed += std::max(static_cast<double>(m->pair_count_[i]) - h.discount, 0.0);
      }
      m->backoff_[v] = static_cast<float>(1.0 - listed / m->left_total_[v]);
    }
  }
  return Status::OK();
}

std::span<const uint32_t> WordBigram::Followers(uint32_t previous) const {
  const uint32_t begin = row_begin_[previous];
  return {right_ + begin, row_begin_[previous + 1] - begin};
}

std::span<const uint32_t> WordBigram::FollowerCounts(uint32_t previous) const {
  const uint32_t begin = row_begin_[previous];
  return {pair_count_ + begin, row_begin_[previous + 1] - begin};
}

float WordBigram::Unigram(uint32_t word, float p_lexicon) const {
  const float lambda = header_.unigram_weight;
  float p = (1.0f - lambda) * p_lexicon;
  if (lambda > 0.0f) {
    p += lambda * static_cast<float>(word_total_[word]) / static_cast<float>(header_.tokens);
  }
  return p;
}

uint32_t WordBigram::PairCount(uint32_t previous, uint32_t word) const {
  const std::span<const uint32_t> followers = Followers(previous);
  const auto it = std::lower_bound(followers.begin(), followers.end(), word);
  if (it == followers.end() || *it != word) return 0;
  return pair_count_[row_begin_[previous] + (it - followers.begin())];
}

float WordBigram::LogProb(uint32_t previous, uint32_t word, float unigram) const {
  float p = unigram;
  const uint32_t total = left_total_[previous];
  if (total > 0) {
    const std::span<const uint32_t> followers = Followers(previous);
    const auto it = std::lower_bound(followers.begin(), followers.end(), word);
    float seen = 0;
    if (it != followers.end() && *it == word) {
      const uint32_t count = pair_count_[row_begin_[previous] + (it - followers.begin())];
      seen = std::max(static_cast<float>(count) - header_.discount, 0.0f);
    }
    p = seen / static_cast<float>(total) + backoff_[previous] * p;
  }
  return std::log(std::max(p, 1e-30f));
}

}  // namespace keydecide
