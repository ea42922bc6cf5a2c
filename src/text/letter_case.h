// Letter classes and case mapping, from Unicode's tables (utf8proc, Debian libutf8proc-dev):
// simple one-to-one case mapping, so a lower-cased string keeps its length in code points.
// Locale-independent on purpose: the same input always gives the same lexicon key on every
// machine.

#ifndef KEYDECIDE_TEXT_LETTER_CASE_H_
#define KEYDECIDE_TEXT_LETTER_CASE_H_

#include <string>
#include <string_view>

namespace keydecide {

// Letters (Unicode L*) and combining marks (M*: a mark belongs to the letter before it, so a
// decomposed "é" is one word).
bool IsLetter(char32_t cp);
bool IsDigit(char32_t cp);  // ASCII digits only
bool IsSpace(char32_t cp);  // ASCII and Unicode white space

char32_t ToLower(char32_t cp);
char32_t ToUpper(char32_t cp);

// Lower-cases every letter, in NFC (a composed and a decomposed "é" give the same key).
// Invalid UTF-8 bytes are copied through unchanged (and the string is then not normalised);
// nor is a non-ASCII string of more than 256 code points once decomposed (lower-cased code
// point by code point). Does not allocate beyond `out`.
std::string ToLowerUtf8(std::string_view s);
void AppendLowerUtf8(std::string_view s, std::string* out);

// Upper-cases the first code point and leaves the rest as they are.
std::string CapitalizeUtf8(std::string_view s);
void AppendCapitalizedUtf8(std::string_view s, std::string* out);

// Upper-cases every code point (one for one: "ß" stays). Invalid UTF-8 bytes are copied
// through unchanged. Does not allocate beyond `out`.
void AppendUpperUtf8(std::string_view s, std::string* out);

// True when s has at least one letter and its first letter is upper case.
bool StartsUpper(std::string_view s);

// True when s has at least two letters and every letter is upper case ("NASA", "OK").
bool IsAllUpper(std::string_view s);

}  // namespace keydecide

#endif  // KEYDECIDE_TEXT_LETTER_CASE_H_
