#include "text/utf8.h"

#include <algorithm>

namespace keydecide::utf8 {

namespace {

bool IsContinuation(unsigned char b) { return (b & 0xC0) == 0x80; }

}  // namespace

// Hand-written rather than using iconv/ICU: the hot path decodes a few bytes per key and
// must not allocate, and we need the exact rejection rules of RFC 3629.
bool Decode(std::string_view s, size_t* pos, char32_t* cp) {
  const size_t i = *pos;
  const unsigned char b0 = static_cast<unsigned char>(s[i]);
  size_t len;
  char32_t value;
  char32_t min_value;
  if (b0 < 0x80) {
    *cp = b0;
    *pos = i + 1;
    return true;
  } else if ((b0 & 0xE0) == 0xC0) {
    len = 2, value = b0 & 0x1F, min_value = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, value = b0 & 0x0F, min_value = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, value = b0 & 0x07, min_value = 0x10000;
  } else {
    len = 0, value = 0, min_value = 0;  // continuation byte or 0xF8..0xFF
  }
  bool valid = len != 0 && i + len <= s.size();
  for (size_t k = 1; valid && k < len; ++k) {
    const unsigned char b = static_cast<unsigned char>(s[i + k]);
    valid = IsContinuation(b);
    value = (value << 6) | (b & 0x3F);
  }
  valid = valid && value >= min_value && value <= 0x10FFFF && !(value >= 0xD800 && value <= 0xDFFF);
  if (!valid) {
    *cp = kReplacement;
    *pos = i + 1;
    return false;
  }
  *cp = value;
  *pos = i + len;
  return true;
}

void Append(char32_t cp, std::string* out) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacement;
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

Status Validate(std::string_view s) {
  size_t pos = 0;
  char32_t cp;
  while (pos < s.size()) {
    const size_t start = pos;
    if (!Decode(s, &pos, &cp)) {
      return Status::InvalidArgument("invalid UTF-8 at byte " + std::to_string(start));
    }
  }
  return Status::OK();
}

std::string Repair(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t pos = 0;
  char32_t cp;
  while (pos < s.size()) {
    const size_t start = pos;
    if (Decode(s, &pos, &cp)) {
      out.append(s.substr(start, pos - start));
    } else {
      Append(kReplacement, &out);
    }
  }
  return out;
}

size_t Length(std::string_view s) {
  size_t n = 0, pos = 0;
  char32_t cp;
  while (pos < s.size()) {
    Decode(s, &pos, &cp);
    ++n;
  }
  return n;
}

size_t LastCharStart(std::string_view s) {
  if (s.empty()) return 0;
  size_t i = s.size() - 1;
  while (i > 0 && IsContinuation(static_cast<unsigned char>(s[i]))) --i;
  return i;
}

size_t BoundaryAtOrAfter(std::string_view s, size_t pos) {
  while (pos < s.size() && IsContinuation(static_cast<unsigned char>(s[pos]))) ++pos;
  return std::min(pos, s.size());
}

}  // namespace keydecide::utf8
