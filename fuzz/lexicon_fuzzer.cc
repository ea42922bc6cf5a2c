// libFuzzer target for the lexicon file (src/lexicon/lexicon.cc, lexicon_format.cc): a file
// either is refused or is safe and consistent to search. The first input byte picks the case:
//   0 the rest as a whole file;
//   1 an English lexicon (from tests/fixtures/tiny_corpus.txt) with the rest's edits
//     (fuzz_util.h Poke) written over its sections, then sealed, so that the structure checks
//     behind the checksum are reached;
//   2 the same over a pinyin-keyed (zh) lexicon, its spellings hanzi;
//   3 the English one with edits anywhere past the magic (header fields too), sealed;
//   4 the English one with edits and no new seal: refused whenever a byte changed.
// On a file that loads it checks what the searches rely on: every entry's key is valid UTF-8
// and Find gives that entry back; spellings are valid UTF-8 words; the fuzzy search's hits are
// entries, finite and best first.
//
//   build-hfuzz/bin/lexicon_fuzzer -max_total_time=15 NEW_CORPUS_DIR fuzz/corpus/lexicon

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "lexicon/candidate_search.h"
#include "lexicon/lexicon.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/lexicon_format.h"
#include "lexicon/lexicon_tool.h"
#include "lexicon/typing_costs.h"
#include "text/utf8.h"

namespace {

using namespace keydecide;

struct Bases {
  std::string en, zh;
};

Bases* MakeBases() {
  auto* b = new Bases;
  std::ifstream in(KD_FIXTURES "/tiny_corpus.txt", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  FUZZ_CHECK(!text.empty() && BuildLexiconFromText(text, 1, &b->en).ok());
  LexiconBuilder builder;
  builder.AddKeyedWord("women", "我们", 600);
  builder.AddKeyedWord("wo", "我", 900);
  builder.AddKeyedWord("men", "们", 50);
  builder.AddKeyedWord("men", "门", 70);
  builder.AddKeyedWord("zhongguo", "中国", 500);
  LexiconBuilder::Options options;
  options.min_count = 1;
  options.keep_all_keyed_variants = true;
  options.language = "zh";
  FUZZ_CHECK(builder.Finish(options, &b->zh).ok());
  return b;
}

void CheckEntries(const Lexicon& lex) {
  FUZZ_CHECK(lex.entry_count() > 0 && lex.nodes().size() > 0);
  for (uint32_t e = 0; e < lex.entry_count() && e < 512; ++e) {
    const std::string_view key = lex.Key(e);
    FUZZ_CHECK(!key.empty() && utf8::Validate(key).ok());
    FUZZ_CHECK(lex.Find(key) == e);
    const auto variants = lex.Variants(e);
    FUZZ_CHECK(!variants.empty());
    for (size_t v = 0; v < variants.size(); ++v) {
      const std::string_view text = lex.VariantText(variants[v]);
      FUZZ_CHECK(!text.empty() && utf8::Validate(text).ok());
      FUZZ_CHECK(lex.VariantIndex(e, v) < lex.variant_count());
    }
    FUZZ_CHECK(lex.CommonSpelling(e) == lex.VariantText(variants[0]));
  }
}

void CheckSearch(const Lexicon& lex, std::string_view typed) {
  static const TypingCosts costs(nullptr);
  CandidateSearch search(&lex, &costs, CandidateSearch::Options());
  std::vector<SearchHit> hits;
  std::vector<std::string> queries = {std::string(typed.substr(0, 12)), "th", "stat", "wom"};
  if (lex.entry_count() > 0) queries.emplace_back(lex.Key(0).substr(0, 3));
  for (const std::string& q : queries) {
    search.Search(q, &hits);
    for (size_t i = 0; i < hits.size(); ++i) {
      FUZZ_CHECK(hits[i].entry < lex.entry_count() && std::isfinite(hits[i].score));
      if (i > 0) FUZZ_CHECK(hits[i].score <= hits[i - 1].score);
    }
  }
}

// The case's file from the input (see the top of the file); *must_fail when it has to be
// refused.
std::string MakeFile(const Bases& b, uint8_t mode, std::string_view rest, bool* must_fail) {
  *must_fail = false;
  if (mode == 0) return std::string(rest);
  std::string bytes = mode == 2 ? b.zh : b.en;
  const size_t header = lexicon::kHeaderSize;
  const size_t begin = mode == 3 ? sizeof(lexicon::kMagic) : header;
  fuzz::Poke(rest, begin, bytes.size(), &bytes);
  if (mode == 4) {
    *must_fail = bytes != b.en;  // edits may write a byte back as it was
  } else {
    lexicon::SealFile(&bytes);
  }
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Bases* bases = MakeBases();
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  bool must_fail;
  std::string file = MakeFile(*bases, data[0] % 5, rest, &must_fail);
  std::unique_ptr<Lexicon> lex;
  const Status s = Lexicon::FromBytes(std::move(file), &lex);
  FUZZ_CHECK(s.ok() == (lex != nullptr));
  if (must_fail) FUZZ_CHECK(!s.ok());
  if (!s.ok()) return 0;
  CheckEntries(*lex);
  CheckSearch(*lex, rest);
  return 0;
}
