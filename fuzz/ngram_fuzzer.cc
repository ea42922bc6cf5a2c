// libFuzzer target for the teacher's word n-gram file (src/lexicon/word_ngram.cc) over a small
// pinyin lexicon, and for the ARPA reader that makes it (word_ngram_builder.cc). The first input
// byte picks the case:
//   0 the rest as a whole file;
//   1 a valid file with the rest's edits (fuzz_util.h Poke) written past the header, the
//     header's identity fields (magic, version, size, lexicon) kept, then sealed, so that the
//     checks behind the checksum are reached;
//   2 the same with the edits in the header's counts (words, bigrams, trigrams);
//   3 small numbers: every 2 input bytes write one byte's value as a whole u32 into one of the
//     sections' slots (ids and row bounds near their limits), sealed;
//   4 truncated to, or zero-extended by, the next two bytes' length, then sealed;
//   5 the rest as ARPA text read by WordNgramBuilder: refused with a message, or a file that
//     loads and passes the same checks.
// On a file that loads it checks what the sessions rely on: every id it hands out is in range,
// rows ascend, every log probability is finite and at most 0 where it must be, and a sentence
// search mixing it in keeps its invariants.
//
//   build-fuzz/bin/ngram_fuzzer -max_total_time=15 NEW_CORPUS_DIR fuzz/corpus/ngram

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
#include "lexicon/word_ngram.h"
#include "lexicon/word_ngram_builder.h"

namespace {

using namespace keydecide;

constexpr std::string_view kArpa =
    "\\data\\\nngram 1=6\nngram 2=4\nngram 3=2\n\n\\1-grams:\n-1.0\t我们\t-0.2\n-0.8\t的\t-0.3\n"
    "-1.2\t中国\t-0.1\n-2.0\t<unk>\n-99\t<s>\t-0.5\n-1.5\t我\t-0.2\n\n\\2-grams:\n-0.3\t我们 "
    "的\t-0.1\n"
    "-0.4\t的 中国\n-0.6\t<s> 我们\t-0.2\n-0.9\t我 的\t-0.1\n\n\\3-grams:\n-0.1\t我们 的 中国\n"
    "-0.2\t<s> 我们 的\n\n\\end\\\n";

struct Base {
  std::unique_ptr<Lexicon> lexicon;
  std::unique_ptr<WordBigram> bigram;
  std::string ngram;  // valid for `lexicon`
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
  WordBigramBuilder bigram(*b->lexicon, WordBigramBuilder::Options());
  bigram.AddText("我们的中国。我的门，中国的我们。");
  WordBigramBuilder::Stats stats;
  FUZZ_CHECK(bigram.Finish(&bytes, &stats).ok());
  FUZZ_CHECK(WordBigram::FromBytes(std::move(bytes), *b->lexicon, &b->bigram).ok());
  WordNgramBuilder ngram(*b->lexicon);
  FUZZ_CHECK(ngram.ReadArpa(kArpa).ok());
  ngram.Finish(&b->ngram);
  return b;
}

// The identity fields of the header (ngram::Header::EncodeTo's layout), as the valid file.
void KeepIdentity(const Base& b, std::string* bytes) {
  std::memcpy(bytes->data(), ngram::kMagic, sizeof(ngram::kMagic));
  PutField<uint32_t>(bytes, 8, ngram::kFormatVersion);
  PutField<uint32_t>(bytes, 12, ngram::kHeaderSize);
  PutField<uint32_t>(bytes, 16, static_cast<uint32_t>(b.lexicon->variant_count()));
  PutField<uint32_t>(bytes, 20, b.lexicon->header().file_crc32);
}

std::string MakeFile(const Base& b, uint8_t mode, std::string_view rest) {
  if (mode == 0) return std::string(rest);
  std::string bytes = b.ngram;
  const size_t header = ngram::kHeaderSize;
  if (mode == 1) fuzz::Poke(rest, header, bytes.size(), &bytes);
  if (mode == 2) fuzz::Poke(rest, 24, 36, &bytes);  // word, bigram and trigram counts
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

void CheckRow(const WordNgram::Row& row, uint32_t n) {
  FUZZ_CHECK(row.words.size() == row.scores.size());
  for (size_t i = 0; i < row.words.size(); ++i) {
    FUZZ_CHECK(row.words[i] > 0 && row.words[i] < n && row.scores[i] <= 0);
    if (i > 0) FUZZ_CHECK(row.words[i] > row.words[i - 1]);
  }
}

void CheckModel(const Lexicon& lexicon, const WordNgram& model) {
  const uint32_t n = static_cast<uint32_t>(model.word_count());
  for (uint32_t v = 0; v < lexicon.variant_count(); ++v) {
    FUZZ_CHECK(model.WordOf(v) > 0 && model.WordOf(v) < n);
  }
  for (uint32_t older = 0; older < n && older < 32; ++older) {
    for (const uint32_t first : {older, WordNgram::kNoWord}) {
      for (uint32_t last = 0; last < n && last < 32; ++last) {
        const WordNgram::Context c = model.Find(first, last);
        CheckRow(model.Trigrams(c), n);
        CheckRow(model.Bigrams(last), n);
        for (uint32_t w = 1; w < n && w < 32; ++w) {
          FUZZ_CHECK(std::isfinite(model.LogProb(c, w)) && model.Unigram(w) <= 0);
        }
      }
    }
  }
}

void CheckSearch(const Base& b, const WordNgram& model) {
  PinyinSentenceSearch::Options options;
  options.teacher = &model;
  options.teacher_weight = 0.8f;
  PinyinSentenceSearch search(b.lexicon.get(), b.bigram.get(), options);
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
  std::unique_ptr<WordNgram> model;
  std::string bytes;
  if (data[0] % 6 == 5) {
    WordNgramBuilder builder(*base->lexicon);
    const Status read = builder.ReadArpa(rest);
    if (!read.ok()) {
      FUZZ_CHECK(read.message().find("ARPA line") != std::string::npos);
      return 0;
    }
    builder.Finish(&bytes);
  } else {
    bytes = MakeFile(*base, data[0] % 6, rest);
  }
  const Status s = WordNgram::FromBytes(std::move(bytes), *base->lexicon, &model);
  FUZZ_CHECK(s.ok() == (model != nullptr));
  FUZZ_CHECK(s.ok() || data[0] % 6 != 5);  // what the builder writes always loads
  if (!s.ok()) return 0;
  CheckModel(*base->lexicon, *model);
  CheckSearch(*base, *model);
  return 0;
}
