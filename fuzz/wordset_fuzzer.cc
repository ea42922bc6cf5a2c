// libFuzzer target for the known-words file (src/lexicon/word_set.cc). The first input byte
// picks the case:
//   0 the rest as a whole file;
//   1 a valid file with the rest's edits (fuzz_util.h Poke) anywhere past the magic, sealed, so
//     that the checks behind the checksum are reached;
//   2 the rest as a word list (one word a line, any bytes) built into a file, which must load
//     and hold every word.
// On a file that loads, lookups of the rest's lines must not read outside it (ASan) and give
// the same answer twice.
//
//   build-fuzz/bin/wordset_fuzzer -max_total_time=15 NEW_CORPUS_DIR fuzz/corpus/wordset

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/word_set.h"

namespace {

using namespace keydecide;

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
  return lines;
}

const std::string& ValidFile() {
  static const std::string* bytes = [] {
    auto* b = new std::string;
    const std::vector<std::string_view> words = {"the", "xylophone", "don't", "café", "naïve"};
    FUZZ_CHECK(WordSet::Build(words, 10, 7, b).ok());
    return b;
  }();
  return *bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::unique_ptr<WordSet> set;
  switch (data[0] % 3) {
    case 0:
      if (!WordSet::FromBytes(std::string(rest), &set).ok()) return 0;
      break;
    case 1: {
      std::string bytes = ValidFile();
      fuzz::Poke(rest, 8, bytes.size(), &bytes);
      lexicon::SealFile(&bytes);
      if (!WordSet::FromBytes(std::move(bytes), &set).ok()) return 0;
      break;
    }
    default: {
      const std::vector<std::string_view> words = Lines(rest);
      std::string bytes;
      FUZZ_CHECK(WordSet::Build(words, 10, 7, &bytes).ok());
      FUZZ_CHECK(WordSet::FromBytes(std::move(bytes), &set).ok());
      for (const std::string_view w : words) FUZZ_CHECK(set->MayContain(w));
      break;
    }
  }
  FUZZ_CHECK(set->bit_count() > 0 && set->bit_count() % 64 == 0);
  for (const std::string_view w : Lines(rest)) FUZZ_CHECK(set->MayContain(w) == set->MayContain(w));
  return 0;
}
