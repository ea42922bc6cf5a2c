// libFuzzer target for the word bigram file (src/lexicon/word_bigram.cc), over a small pinyin
// lexicon, and for the English builder's reading of text. The first input byte picks the case:
//   0 the rest as a whole file;
//   1 a valid bigram with the rest's edits (fuzz_util.h Poke) written past the header, the
//     header's identity fields (magic, version, size, lexicon) kept, then sealed, so that the
//     checks behind the checksum are reached;
//   2 the same with the edits in the header's counts and parameters (word and pair counts,
//     discount, unigram weight, tokens);
//   3 small numbers: every 2 input bytes write one byte's value as a whole u32 into one of the
//     sections' slots (ids and counts near their bounds), sealed;
//   4 truncated to, or zero-extended by, the next two bytes' length, then sealed;
//   5 the rest as English text (any bytes) read by WordBigramBuilder over a small English
//     lexicon: the file it builds must load and pass the same checks.
// On a file that loads it checks what the sentence search relies on: every id it hands out
// is in range, rows ascend, counts are positive, every probability is finite and at most 1,
// and a search over it keeps its invariants.
//
//   build-hfuzz/bin/bigram_fuzzer -max_total_time=15 NEW_CORPUS_DIR fuzz/corpus/bigram

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>

#include "base/byte_fields.h"
#include "fuzz/fuzz_util.h"
#include "lexicon/lexicon.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/pinyin/pinyin_sentence.h"
#include "lexicon/word_bigram.h"
#include "lexicon/word_bigram_builder.h"

namespace {

using namespace keydecide;

struct Base {
  std::unique_ptr<Lexicon> lexicon;
  std::string bigram;  // valid for `lexicon`
  std::unique_ptr<Lexicon> english;
};

Base* MakeBase() {
  auto* b = new Base;
  LexiconBuilder builder;
  for (const auto& [key, word, count] : {std::tuple{"women", "我们", 600},
                                         {"wo", "我", 900},
                                         {"men", "们", 50},
                                         {"men", "门", 70},
                                         {"de", "的", 2000},
                                         {"zhongguo", "中国", 500},
                                         {"zhong", "中", 800},
                                         {"guo", "国", 300}}) {
    builder.AddKeyedWord(key, word, count);
  }
  LexiconBuilder::Options options;
  options.min_count = 1;
  options.keep_all_keyed_variants = true;
  options.language = "zh";
  std::string bytes;
  FUZZ_CHECK(builder.Finish(options, &bytes).ok());
  FUZZ_CHECK(Lexicon::FromBytes(std::move(bytes), &b->lexicon).ok());
  WordBigramBuilder::Options bigram_options;
  bigram_options.min_pair_count = 1;
  WordBigramBuilder bigram(*b->lexicon, bigram_options);
  bigram.AddText("我们的中国。我的门，中国的我们。中国人的国，我们的门的中国");
  WordBigramBuilder::Stats stats;
  FUZZ_CHECK(bigram.Finish(&b->bigram, &stats).ok());
  LexiconBuilder english;
  english.AddText("the The new york you don't can't I said dogs café naïve");
  LexiconBuilder::Options english_options;
  english_options.min_count = 1;
  english_options.language = "en";
  FUZZ_CHECK(english.Finish(english_options, &bytes).ok());
  FUZZ_CHECK(Lexicon::FromBytes(std::move(bytes), &b->english).ok());
  return b;
}

// The identity fields of the header (bigram::Header::EncodeTo's layout), as the valid file.
void KeepIdentity(const Base& b, std::string* bytes) {
  std::memcpy(bytes->data(), bigram::kMagic, sizeof(bigram::kMagic));
  PutField<uint32_t>(bytes, 8, bigram::kFormatVersion);
  PutField<uint32_t>(bytes, 12, bigram::kHeaderSize);
  PutField<uint32_t>(bytes, 16, static_cast<uint32_t>(b.lexicon->variant_count()));
  PutField<uint32_t>(bytes, 20, b.lexicon->header().file_crc32);
}

std::string MakeFile(const Base& b, uint8_t mode, std::string_view rest) {
  if (mode == 0) return std::string(rest);
  std::string bytes = b.bigram;
  const size_t header = bigram::kHeaderSize;
  if (mode == 1) fuzz::Poke(rest, header, bytes.size(), &bytes);
  if (mode == 2) fuzz::Poke(rest, 24, 48, &bytes);  // word_count .. tokens
  if (mode == 3) {
    const size_t slots = (bytes.size() - header) / 4;
    for (size_t i = 0; i + 1 < rest.size(); i += 2) {
      const size_t slot = static_cast<uint8_t>(rest[i]) * 7919 % slots;
      PutField<uint32_t>(&bytes, header + 4 * slot, static_cast<uint8_t>(rest[i + 1]));
    }
  }
  if (mode == 4 && rest.size() >= 2) {
    const size_t n =
        static_cast<uint8_t>(rest[0]) | static_cast<size_t>(static_cast<uint8_t>(rest[1])) << 8;
    if (rest[0] & 1) {
      bytes.append(n % 64, '\0');
    } else {
      bytes.resize(std::max<size_t>(header, bytes.size() - n % bytes.size()));
    }
  }
  KeepIdentity(b, &bytes);
  lexicon::SealFile(&bytes);
  return bytes;
}

void CheckModel(const Lexicon& lexicon, const WordBigram& model) {
  const uint32_t n = static_cast<uint32_t>(model.word_count());
  FUZZ_CHECK(n >= 1 && model.VariantOf(WordBigram::kSentenceStart) == WordBigram::kNoVariant);
  for (uint32_t v = 0; v < lexicon.variant_count(); ++v) {
    const uint32_t w = model.WordOf(v);
    FUZZ_CHECK(w > 0 && w < n && model.VariantOf(w) < lexicon.variant_count());
  }
  for (uint32_t v = 0; v < n && v < 64; ++v) {
    const auto followers = model.Followers(v);
    const auto counts = model.FollowerCounts(v);
    FUZZ_CHECK(followers.size() == counts.size());
    uint64_t sum = 0;
    for (size_t i = 0; i < followers.size(); ++i) {
      FUZZ_CHECK(followers[i] > 0 && followers[i] < n && counts[i] > 0);
      if (i > 0) FUZZ_CHECK(followers[i] > followers[i - 1]);
      sum += counts[i];
    }
    FUZZ_CHECK(sum <= model.FollowerTotal(v));
    for (uint32_t w = 0; w < n && w < 64; ++w) {
      const float unigram = model.Unigram(w, 0.001f);
      FUZZ_CHECK(std::isfinite(unigram) && unigram >= 0 && unigram <= 1.0001f);
      const float log_p = model.LogProb(v, w, unigram);
      FUZZ_CHECK(std::isfinite(log_p) && log_p <= 1e-4f);
    }
  }
}

void CheckSearch(const Base& b, const WordBigram& model) {
  PinyinSentenceSearch search(b.lexicon.get(), &model, PinyinSentenceSearch::Options());
  FUZZ_CHECK(search.Search("womendezhongguo").ok());
  float previous = INFINITY;
  for (const PinyinSentence& s : search.sentences()) {
    FUZZ_CHECK(std::isfinite(s.score) && s.score <= previous && !s.words.empty());
    previous = s.score;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Base* base = MakeBase();
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::unique_ptr<WordBigram> model;
  if (data[0] % 6 == 5) {
    WordBigramBuilder builder(*base->english, WordBigramBuilder::Options());
    builder.AddText(rest);
    std::string bytes;
    WordBigramBuilder::Stats stats;
    FUZZ_CHECK(builder.Finish(&bytes, &stats).ok());
    FUZZ_CHECK(WordBigram::FromBytes(std::move(bytes), *base->english, &model).ok());
    CheckModel(*base->english, *model);
    return 0;
  }
  const Status s =
      WordBigram::FromBytes(MakeFile(*base, data[0] % 6, rest), *base->lexicon, &model);
  FUZZ_CHECK(s.ok() == (model != nullptr));
  if (!s.ok()) return 0;
  CheckModel(*base->lexicon, *model);
  CheckSearch(*base, *model);
  return 0;
}
