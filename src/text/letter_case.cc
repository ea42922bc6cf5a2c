// Letter classes and case from utf8proc's Unicode tables; the loops that walk UTF-8 and the
// NFC step of AppendLowerUtf8 are ours, so that the hot path (lower-casing the typed word on
// every keystroke) stays allocation-free: utf8proc's own string functions malloc.

#include "text/letter_case.h"

#include <utf8proc.h>

#include <algorithm>
#include <utility>

#include "text/utf8.h"

namespace keydecide {

namespace {

bool IsMark(utf8proc_category_t c) {
  return c == UTF8PROC_CATEGORY_MN || c == UTF8PROC_CATEGORY_MC || c == UTF8PROC_CATEGORY_ME;
}

// Code points of one string the NFC step holds at a time; a longer non-ASCII string is
// lower-cased without it (no typed word, lexicon key or model word comes near).
constexpr size_t kNfcCodePoints = 256;

// Appends the canonical decomposition of cp to buf[*n..]; false when it does not fit.
bool DecomposeInto(char32_t cp, utf8proc_int32_t* buf, utf8proc_ssize_t* n) {
  int last_boundclass = 0;
  const utf8proc_ssize_t room = static_cast<utf8proc_ssize_t>(kNfcCodePoints) - *n;
  const utf8proc_ssize_t got = utf8proc_decompose_char(static_cast<utf8proc_int32_t>(cp), buf + *n,
                                                       room, UTF8PROC_DECOMPOSE, &last_boundclass);
  if (got < 0 || got > room) return false;
  *n += got;
  return true;
}

utf8proc_uint16_t CombiningClass(utf8proc_int32_t cp) {
  return utf8proc_get_property(cp)->combining_class;
}

// Puts decomposed buf[0..n) in canonical order, marks sorted by combining class (a stable
// insertion sort, as Unicode's algorithm), then composes it in place
// (utf8proc_normalize_utf32 does not allocate). Returns the new length, < 0 on failure.
utf8proc_ssize_t Compose(utf8proc_int32_t* buf, utf8proc_ssize_t n) {
  for (utf8proc_ssize_t i = 1; i < n; ++i) {
    for (utf8proc_ssize_t j = i; j > 0 && CombiningClass(buf[j]) != 0 &&
                                 CombiningClass(buf[j - 1]) > CombiningClass(buf[j]);
         --j) {
      std::swap(buf[j], buf[j - 1]);
    }
  }
  return utf8proc_normalize_utf32(buf, n, static_cast<utf8proc_option_t>(UTF8PROC_COMPOSE));
}

// Appends the lower case of s in NFC; false, with nothing appended, when s has invalid UTF-8
// or does not fit in kNfcCodePoints.
bool AppendLowerNfc(std::string_view s, std::string* out) {
  utf8proc_int32_t scratch[kNfcCodePoints];
  utf8proc_ssize_t n = 0;
  size_t pos = 0;
  while (pos < s.size()) {
    char32_t cp;
    if (!utf8::Decode(s, &pos, &cp)) return false;  // invalid bytes: the caller copies them
    if (!DecomposeInto(cp, scratch, &n)) return false;
  }
  n = Compose(scratch, n);
  if (n < 0) return false;
  // Lower case after composition (U+0130 İ lowers to i, where its decomposition would keep a
  // dot above). A letter whose lower case is another base letter may then compose with the
  // mark after it (İ + U+0301 -> i + U+0301 -> í): normalise once more, so that lower-casing
  // a second time changes nothing (fuzz/text_fuzzer.cc found it).
  bool recompose = false;
  for (utf8proc_ssize_t i = 0; i < n; ++i) {
    const utf8proc_int32_t lower = static_cast<utf8proc_int32_t>(ToLower(scratch[i]));
    recompose |= lower != scratch[i] && i + 1 < n && CombiningClass(scratch[i + 1]) != 0;
    scratch[i] = lower;
  }
  if (recompose) {
    utf8proc_int32_t again[kNfcCodePoints];
    utf8proc_ssize_t m = 0;
    for (utf8proc_ssize_t i = 0; i < n; ++i) {
      if (!DecomposeInto(static_cast<char32_t>(scratch[i]), again, &m)) return false;
    }
    n = Compose(again, m);
    if (n < 0) return false;
    std::copy(again, again + n, scratch);
  }
  for (utf8proc_ssize_t i = 0; i < n; ++i) utf8::Append(static_cast<char32_t>(scratch[i]), out);
  return true;
}

}  // namespace

bool IsLetter(char32_t cp) {
  if (cp < 0x80) return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
  const utf8proc_category_t c = utf8proc_category(static_cast<utf8proc_int32_t>(cp));
  return (c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO) || IsMark(c);
}

bool IsDigit(char32_t cp) { return cp >= '0' && cp <= '9'; }

bool IsSpace(char32_t cp) {
  if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0x85) return true;
  if (cp < 0xA0) return false;
  const utf8proc_category_t c = utf8proc_category(static_cast<utf8proc_int32_t>(cp));
  return c == UTF8PROC_CATEGORY_ZS || c == UTF8PROC_CATEGORY_ZL || c == UTF8PROC_CATEGORY_ZP;
}

char32_t ToLower(char32_t cp) {
  if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
  return static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(cp)));
}

char32_t ToUpper(char32_t cp) {
  if (cp < 0x80) return (cp >= 'a' && cp <= 'z') ? cp - 32 : cp;
  return static_cast<char32_t>(utf8proc_toupper(static_cast<utf8proc_int32_t>(cp)));
}

void AppendLowerUtf8(std::string_view s, std::string* out) {
  size_t ascii = 0;
  while (ascii < s.size() && static_cast<unsigned char>(s[ascii]) < 0x80) ++ascii;
  if (ascii < s.size() && AppendLowerNfc(s, out)) return;
  // ASCII (the usual word), or a string the NFC step cannot take: code point by code point.
  size_t pos = 0;
  while (pos < s.size()) {
    const unsigned char b = static_cast<unsigned char>(s[pos]);
    if (b < 0x80) {
      out->push_back(static_cast<char>((b >= 'A' && b <= 'Z') ? b + 32 : b));
      ++pos;
      continue;
    }
    const size_t start = pos;
    char32_t cp;
    if (utf8::Decode(s, &pos, &cp)) {
      utf8::Append(ToLower(cp), out);
    } else {
      out->append(s.substr(start, pos - start));
    }
  }
}

std::string ToLowerUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  AppendLowerUtf8(s, &out);
  return out;
}

void AppendCapitalizedUtf8(std::string_view s, std::string* out) {
  if (s.empty()) return;
  size_t pos = 0;
  char32_t cp;
  if (!utf8::Decode(s, &pos, &cp)) {
    out->append(s);
    return;
  }
  utf8::Append(ToUpper(cp), out);
  out->append(s.substr(pos));
}

void AppendUpperUtf8(std::string_view s, std::string* out) {
  size_t pos = 0;
  while (pos < s.size()) {
    const size_t start = pos;
    char32_t cp;
    if (utf8::Decode(s, &pos, &cp)) {
      utf8::Append(ToUpper(cp), out);
    } else {
      pos = start + 1;
      out->push_back(s[start]);
    }
  }
}

std::string CapitalizeUtf8(std::string_view s) {
  std::string out;
  AppendCapitalizedUtf8(s, &out);
  return out;
}

bool StartsUpper(std::string_view s) {
  size_t pos = 0;
  char32_t cp;
  while (pos < s.size()) {
    if (utf8::Decode(s, &pos, &cp) && IsLetter(cp)) return ToLower(cp) != cp;
  }
  return false;
}

bool IsAllUpper(std::string_view s) {
  size_t pos = 0, letters = 0;
  char32_t cp;
  while (pos < s.size()) {
    if (!utf8::Decode(s, &pos, &cp) || !IsLetter(cp)) continue;
    if (ToLower(cp) == cp) return false;
    ++letters;
  }
  return letters >= 2;
}

}  // namespace keydecide
