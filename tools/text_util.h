// Small text helpers for the CLI and the benchmarks, which see only include/keydecide (the
// engine's own text code is internal).

#ifndef KEYDECIDE_TOOLS_TEXT_UTIL_H_
#define KEYDECIDE_TOOLS_TEXT_UTIL_H_

#include <cstddef>
#include <string_view>

namespace keydecide {

// The smallest character boundary at or after pos (s.size() when none).
inline size_t BoundaryAtOrAfter(std::string_view s, size_t pos) {
  while (pos < s.size() && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) ++pos;
  return pos < s.size() ? pos : s.size();
}

// The replay's notion of a word character (tools/replay.h).
inline bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_TEXT_UTIL_H_
