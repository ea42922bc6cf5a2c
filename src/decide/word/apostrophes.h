// Apostrophes in words typed letter by letter: the straight one and the typographic one (U+2019,
// what many keyboards and phones send) both continue a word ("don't", "don’t"); the lexicon keys
// the straight one, and candidates are written back as the person types them.

#ifndef KEYDECIDE_DECIDE_WORD_APOSTROPHES_H_
#define KEYDECIDE_DECIDE_WORD_APOSTROPHES_H_

#include <string>
#include <string_view>

namespace keydecide {

inline constexpr char32_t kRightQuote = 0x2019;
inline constexpr std::string_view kRightQuoteUtf8 = "\xE2\x80\x99";

inline bool IsApostrophe(char32_t cp) { return cp == '\'' || cp == kRightQuote; }

// The typographic apostrophes of *s made straight, in place.
void StraightenApostrophes(std::string* s);
// ... and curled back.
void CurlApostrophes(std::string* s);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_WORD_APOSTROPHES_H_
