// libFuzzer target for the keyboard layout parser (src/text/keyboard_layout.cc) and what is
// built on a layout: the typing costs and a fuzzy search over a small lexicon. Besides "never
// crashes, never reads out of bounds, no undefined behaviour", it checks:
//   - a layout that parses has keys, and a key it finds has a finite centre;
//   - Distance is symmetric, zero from a key to itself, finite and >= 0 between keys it has,
//     negative exactly when one of the two is missing;
//   - the typing costs on it are zero for the intended key, and every search hit is an
//     entry of the lexicon with a finite score, best first.
//
//   build-hfuzz/bin/layout_fuzzer -max_total_time=15 NEW_CORPUS_DIR fuzz/corpus/layout

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "lexicon/candidate_search.h"
#include "lexicon/lexicon.h"
#include "lexicon/lexicon_tool.h"
#include "lexicon/typing_costs.h"
#include "text/keyboard_layout.h"
#include "text/utf8.h"

namespace {

using namespace keydecide;

Lexicon* SmallLexicon() {
  std::string bytes;
  FUZZ_CHECK(BuildLexiconFromText("we will meet at the station; the quiet queen wrote to you "
                                  "about the zebra, the sea and the sky. qwerty azerty dvorak",
                                  1, &bytes)
                 .ok());
  std::unique_ptr<Lexicon> lexicon;
  FUZZ_CHECK(Lexicon::FromBytes(std::move(bytes), &lexicon).ok());
  return lexicon.release();
}

// The code points of s (invalid bytes skipped), at most `limit`.
std::vector<char32_t> CodePoints(std::string_view s, size_t limit) {
  std::vector<char32_t> out;
  size_t pos = 0;
  while (pos < s.size() && out.size() < limit) {
    char32_t cp;
    if (utf8::Decode(s, &pos, &cp)) out.push_back(cp);
  }
  return out;
}

void CheckGeometry(const KeyboardLayout& layout, std::string_view text) {
  std::vector<char32_t> keys = CodePoints(text, 48);
  for (const char32_t c : U"qwertyuiopasdfghjklzxcvbnm'QAZ") keys.push_back(c);
  for (const char32_t a : keys) {
    KeyboardLayout::Point p;
    const bool has_a = layout.Find(a, &p);
    if (has_a) FUZZ_CHECK(std::isfinite(p.x) && std::isfinite(p.y));
    if (has_a) FUZZ_CHECK(layout.Distance(a, a) == 0.0f);
    for (const char32_t b : {keys.front(), U'e', U's', keys.back()}) {
      KeyboardLayout::Point q;
      const float d = layout.Distance(a, b);
      FUZZ_CHECK(d == layout.Distance(b, a));
      FUZZ_CHECK((d < 0) == !(has_a && layout.Find(b, &q)));
      if (d >= 0) FUZZ_CHECK(std::isfinite(d));
    }
  }
}

void CheckSearch(const Lexicon& lexicon, const KeyboardLayout& layout) {
  const TypingCosts costs(&layout);
  for (uint8_t c = 'a'; c <= 'z'; ++c) FUZZ_CHECK(costs.Substitution(c, c, 1) == 0);
  CandidateSearch search(&lexicon, &costs, CandidateSearch::Options());
  std::vector<SearchHit> hits;
  for (const char* typed : {"sta", "qiet", "wr", "zebar", "tje", "s"}) {
    search.Search(typed, &hits);
    for (size_t i = 0; i < hits.size(); ++i) {
      FUZZ_CHECK(hits[i].entry < lexicon.entry_count() && std::isfinite(hits[i].score));
      if (i > 0) FUZZ_CHECK(hits[i].score <= hits[i - 1].score);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Lexicon* lexicon = SmallLexicon();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  KeyboardLayout layout;
  if (!KeyboardLayout::Parse(text, &layout).ok()) return 0;
  FUZZ_CHECK(layout.size() > 0);
  CheckGeometry(layout, text);
  CheckSearch(*lexicon, layout);
  return 0;
}
