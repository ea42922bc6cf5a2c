#include "text/tokenizer.h"

#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c += 32;
    if (c != prefix[i]) return false;
  }
  return true;
}

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Characters that may not end a URL: they are usually the sentence's, not the link's.
bool IsUrlTrailingPunct(char c) {
  return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == ')' ||
         c == ']' || c == '\'' || c == '"' || c == '>';
}

// Length of the URL starting at text[0], or 0 if none starts there.
size_t MatchUrl(std::string_view text) {
  if (!StartsLikeUrl(text)) return 0;
  size_t end = 0;
  while (end < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[end]);
    if (c <= ' ' || c == '"' || c == '<' || c == '>' || c == 0x7F) break;
    ++end;
  }
  while (end > 0 && IsUrlTrailingPunct(text[end - 1])) --end;
  return end;
}

bool IsEmailLocalChar(char c) {
  return IsAsciiAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}

// Length of the e-mail address starting at text[0], or 0. Shape: local@label(.label)+ with a
// final label of at least two letters.
size_t MatchEmail(std::string_view text) {
  size_t at = 0;
  while (at < text.size() && IsEmailLocalChar(text[at])) ++at;
  if (at == 0 || at >= text.size() || text[at] != '@') return 0;
  size_t end = at + 1;
  while (end < text.size() && (IsAsciiAlnum(text[end]) || text[end] == '-' || text[end] == '.')) {
    ++end;
  }
  while (end > at + 1 && (text[end - 1] == '.' || text[end - 1] == '-')) --end;
  const size_t last_dot = text.substr(0, end).rfind('.');  // the sentence's full stop is trimmed above
  if (last_dot == std::string_view::npos || last_dot <= at + 1 || last_dot + 3 > end) return 0;
  for (size_t i = last_dot + 1; i < end; ++i) {
    if (!((text[i] | 0x20) >= 'a' && (text[i] | 0x20) <= 'z')) return 0;
  }
  return end;
}

// Decodes the code point at pos without advancing; invalid bytes give U+FFFD.
char32_t PeekChar(std::string_view s, size_t pos, size_t* next) {
  char32_t cp;
  *next = pos;
  utf8::Decode(s, next, &cp);
  return cp;
}

}  // namespace

bool StartsLikeUrl(std::string_view text) {
  return StartsWithNoCase(text, "http://") || StartsWithNoCase(text, "https://") ||
         StartsWithNoCase(text, "ftp://") || StartsWithNoCase(text, "www.");
}

void Tokenize(std::string_view text, std::vector<Token>* out) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t next;
    const char32_t cp = PeekChar(text, pos, &next);
    const bool valid = cp != utf8::kReplacement || next - pos == 3;
    if (IsSpace(cp)) {
      pos = next;
      continue;
    }
    const std::string_view rest = text.substr(pos);
    // URLs and e-mail addresses start with an ASCII letter or digit.
    if (IsAsciiAlnum(text[pos])) {
      size_t len = MatchUrl(rest);
      TokenKind kind = TokenKind::kUrl;
      if (len == 0) {
        len = MatchEmail(rest);
        kind = TokenKind::kEmail;
      }
      if (len > 0) {
        out->push_back({kind, rest.substr(0, len), pos});
        pos += len;
        continue;
      }
    }
    if (IsLetter(cp) || IsDigit(cp)) {
      // A run of letters (or of digits), joined across a single inner connector that is
      // followed by the same class: "don't", "well-known", "3.14", "1,000".
      const bool word = IsLetter(cp);
      auto same_class = [word](char32_t c) { return word ? IsLetter(c) : IsDigit(c); };
      size_t end = next;
      while (end < text.size()) {
        size_t after;
        const char32_t c = PeekChar(text, end, &after);
        if (same_class(c)) {
          end = after;
          continue;
        }
        const bool connector = word ? (c == '\'' || c == '-') : (c == '.' || c == ',');
        if (!connector || after >= text.size()) break;
        size_t after2;
        if (!same_class(PeekChar(text, after, &after2))) break;
        end = after2;
      }
      out->push_back({word ? TokenKind::kWord : TokenKind::kNumber, text.substr(pos, end - pos),
                      pos});
      pos = end;
      continue;
    }
    const bool punct = valid && ((cp < 0x80 && cp > ' ' && cp != 0x7F) ||
                                 (cp >= 0xA1 && cp <= 0xBF) || (cp >= 0x2010 && cp <= 0x2027) ||
                                 (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF01 && cp <= 0xFF0F));
    out->push_back(
        {punct ? TokenKind::kPunct : TokenKind::kOther, text.substr(pos, next - pos), pos});
    pos = next;
  }
}

const char* TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kWord:
      return "word";
    case TokenKind::kNumber:
      return "number";
    case TokenKind::kPunct:
      return "punct";
    case TokenKind::kUrl:
      return "url";
    case TokenKind::kEmail:
      return "email";
    case TokenKind::kOther:
      return "other";
  }
  return "other";
}

}  // namespace keydecide
