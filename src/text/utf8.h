// UTF-8 decoding and encoding. Everything that enters the engine as text passes through
// here first: invalid input is either rejected (Validate) or repaired explicitly (Repair),
// never silently reinterpreted.

#ifndef KEYDECIDE_TEXT_UTF8_H_
#define KEYDECIDE_TEXT_UTF8_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "keydecide/status.h"

namespace keydecide::utf8 {

inline constexpr char32_t kReplacement = 0xFFFD;

// Decodes the code point starting at s[*pos] and advances *pos past it. Returns false on
// an invalid sequence (stray continuation byte, overlong form, surrogate, value above
// U+10FFFF, or a sequence cut short by the end of s); then *pos advances by one byte and
// *cp is kReplacement. REQUIRES: *pos < s.size().
bool Decode(std::string_view s, size_t* pos, char32_t* cp);

// Appends the UTF-8 form of cp to *out. Invalid code points (surrogates, > U+10FFFF)
// are written as U+FFFD.
void Append(char32_t cp, std::string* out);

// OK when s is entirely valid UTF-8; otherwise InvalidArgument naming the byte offset.
Status Validate(std::string_view s);

// Returns s with every invalid sequence replaced by U+FFFD (one per invalid byte).
std::string Repair(std::string_view s);

// Number of code points in valid UTF-8 text (invalid bytes count one each).
size_t Length(std::string_view s);

// Byte offset of the start of the last code point of s (0 when s is empty).
// REQUIRES: s is valid UTF-8.
size_t LastCharStart(std::string_view s);

// The smallest character boundary at or after `pos` (s.size() when none), so that
// s.substr(result) does not start inside a UTF-8 sequence.
size_t BoundaryAtOrAfter(std::string_view s, size_t pos);

}  // namespace keydecide::utf8

#endif  // KEYDECIDE_TEXT_UTF8_H_
