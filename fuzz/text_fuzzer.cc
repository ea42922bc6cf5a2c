// libFuzzer target for the text layer every input passes first (src/text): UTF-8 validation,
// repair and decoding, the tokenizer, and letter case. Besides "never crashes, never reads out
// of bounds, no undefined behaviour", it checks what the engine relies on:
//   - Validate accepts exactly the strings Repair leaves alone; Repair's output is valid and
//     has as many code points; Decode walks every byte, and re-encoding valid text gives it
//     back; BoundaryAtOrAfter lands on a boundary;
//   - lower-casing valid UTF-8 gives valid UTF-8, lower-casing again changes nothing (for
//     strings the NFC step takes), and
//     AppendLowerUtf8 appends exactly ToLowerUtf8; capitalising valid text keeps it valid;
//   - tokens are in order, do not overlap, are views of the input at their offsets, and
//     what lies between them is white space only; a number starts with a digit.
//
//   build-hfuzz/bin/text_fuzzer -max_total_time=15 NEW_CORPUS_DIR fuzz/corpus/text

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "text/letter_case.h"
#include "text/tokenizer.h"
#include "text/utf8.h"

namespace {

using namespace keydecide;

// Decodes all of s; returns the number of code points (invalid bytes count one each).
size_t DecodeAll(std::string_view s, std::string* reencoded) {
  size_t pos = 0, n = 0;
  while (pos < s.size()) {
    const size_t before = pos;
    char32_t cp;
    const bool ok = utf8::Decode(s, &pos, &cp);
    FUZZ_CHECK(pos > before && pos <= s.size());
    FUZZ_CHECK(ok || (pos == before + 1 && cp == utf8::kReplacement));
    utf8::Append(cp, reencoded);
    ++n;
  }
  return n;
}

void CheckUtf8(std::string_view s) {
  const bool valid = utf8::Validate(s).ok();
  const std::string repaired = utf8::Repair(s);
  FUZZ_CHECK(valid == (repaired == s));
  FUZZ_CHECK(utf8::Validate(repaired).ok());
  std::string reencoded;
  const size_t n = DecodeAll(s, &reencoded);
  FUZZ_CHECK(n == utf8::Length(s) && utf8::Length(repaired) == n);
  FUZZ_CHECK(reencoded == repaired);  // an invalid byte reads as U+FFFD, as Repair writes it
  for (size_t pos = 0; pos <= s.size(); pos += 1 + pos / 3) {
    const size_t b = utf8::BoundaryAtOrAfter(s, pos);
    FUZZ_CHECK(b >= std::min(pos, s.size()) && b <= s.size());
    if (valid && b < s.size()) FUZZ_CHECK((static_cast<uint8_t>(s[b]) & 0xC0) != 0x80);
  }
  if (valid && !s.empty()) {
    const size_t last = utf8::LastCharStart(s);
    FUZZ_CHECK(last < s.size() && utf8::Length(s.substr(last)) == 1);
  }
}

void CheckCase(std::string_view s) {
  const std::string lower = ToLowerUtf8(s);
  std::string appended = "x";
  AppendLowerUtf8(s, &appended);
  FUZZ_CHECK(appended == "x" + lower);
  if (!utf8::Validate(s).ok()) return;
  FUZZ_CHECK(utf8::Validate(lower).ok());
  // Idempotent where the NFC step runs: up to 256 code points once decomposed, which 64 code
  // points never exceed (a canonical decomposition is at most 4 long). Longer strings are
  // lowered code point by code point (letter_case.h), and a string just past the limit may
  // fit once lowered (İ decomposes to 2, i to 1).
  if (utf8::Length(s) <= 64) FUZZ_CHECK(ToLowerUtf8(lower) == lower);
  FUZZ_CHECK(utf8::Validate(CapitalizeUtf8(s)).ok());
  if (IsAllUpper(s)) FUZZ_CHECK(StartsUpper(s));
}

bool AllSpace(std::string_view gap) {
  size_t pos = 0;
  while (pos < gap.size()) {
    char32_t cp;
    if (!utf8::Decode(gap, &pos, &cp) || !IsSpace(cp)) return false;
  }
  return true;
}

void CheckTokens(std::string_view s) {
  std::vector<Token> tokens;
  Tokenize(s, &tokens);
  size_t at = 0;
  for (const Token& t : tokens) {
    FUZZ_CHECK(!t.text.empty() && t.offset >= at && t.offset + t.text.size() <= s.size());
    FUZZ_CHECK(t.text.data() == s.data() + t.offset);
    FUZZ_CHECK(AllSpace(s.substr(at, t.offset - at)));
    if (t.kind == TokenKind::kNumber) FUZZ_CHECK(t.text[0] >= '0' && t.text[0] <= '9');
    at = t.offset + t.text.size();
  }
  FUZZ_CHECK(AllSpace(s.substr(at)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view s(reinterpret_cast<const char*>(data), size);
  CheckUtf8(s);
  CheckCase(s);
  CheckTokens(s);
  return 0;
}
