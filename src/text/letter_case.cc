#include "text/letter_case.h"

#include "text/utf8.h"

namespace keydecide {

namespace {

// Latin Extended-A pairs upper/lower as even/odd code points, except the ranges below
// where the pairing is shifted by one (U+0139..U+0148, U+0179..U+017E).
bool OddIsUpperInLatinExtA(char32_t cp) {
  return (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E);
}

}  // namespace

bool IsLetter(char32_t cp) {
  if (cp < 0x80) return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
  if (cp < 0xC0) return cp == 0xAA || cp == 0xB5 || cp == 0xBA;
  if (cp <= 0x24F) return cp != 0xD7 && cp != 0xF7;
  if (cp >= 0x370 && cp <= 0x3FF) return cp >= 0x386 && cp != 0x387 && cp != 0x3F6;
  if (cp >= 0x400 && cp <= 0x52F) return !(cp >= 0x482 && cp <= 0x489);
  if (cp >= 0x1E00 && cp <= 0x1FFF) return true;         // Latin/Greek extended
  if (cp >= 0x3040 && cp <= 0x30FF) return true;         // kana
  if (cp >= 0x3400 && cp <= 0x9FFF) return true;         // CJK ideographs
  if (cp >= 0xAC00 && cp <= 0xD7A3) return true;         // Hangul syllables
  if (cp >= 0x0590 && cp <= 0x06FF) return cp >= 0x5D0;  // Hebrew and Arabic letters
  return false;
}

bool IsDigit(char32_t cp) { return cp >= '0' && cp <= '9'; }

bool IsSpace(char32_t cp) {
  return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

char32_t ToLower(char32_t cp) {
  if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 32;
  if ((cp >= 0x100 && cp <= 0x177 && cp != 0x130 && cp != 0x138 && cp != 0x149) ||
      (cp >= 0x179 && cp <= 0x17E)) {
    const bool upper = OddIsUpperInLatinExtA(cp) ? (cp & 1) : !(cp & 1);
    return upper ? cp + 1 : cp;
  }
  if (cp == 0x130) return 'i';
  if (cp == 0x178) return 0xFF;                                   // Ÿ
  if (cp >= 0x391 && cp <= 0x3AB && cp != 0x3A2) return cp + 32;  // Greek
  if (cp >= 0x410 && cp <= 0x42F) return cp + 32;                 // Cyrillic basic
  if (cp >= 0x400 && cp <= 0x40F) return cp + 80;                 // Cyrillic Ѐ..Џ
  return cp;
}

char32_t ToUpper(char32_t cp) {
  if (cp < 0x80) return (cp >= 'a' && cp <= 'z') ? cp - 32 : cp;
  if (cp >= 0xE0 && cp <= 0xFE && cp != 0xF7) return cp - 32;
  if (cp == 0xFF) return 0x178;  // ÿ
  if (cp >= 0x100 && cp <= 0x17E && cp != 0x131 && cp != 0x138 && cp != 0x149) {
    const bool lower = OddIsUpperInLatinExtA(cp) ? !(cp & 1) : (cp & 1);
    return lower ? cp - 1 : cp;
  }
  if (cp >= 0x3B1 && cp <= 0x3CB && cp != 0x3C2) return cp - 32;
  if (cp >= 0x430 && cp <= 0x44F) return cp - 32;
  if (cp >= 0x450 && cp <= 0x45F) return cp - 80;
  return cp;
}

void AppendLowerUtf8(std::string_view s, std::string* out) {
  size_t pos = 0;
  while (pos < s.size()) {
    const unsigned char b = static_cast<unsigned char>(s[pos]);
    if (b < 0x80) {  // fast path: ASCII
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
