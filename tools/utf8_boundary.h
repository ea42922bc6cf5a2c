// UTF-8 character boundaries for the CLI, which sees only include/keydecide (the engine's
// own UTF-8 code is internal).

#ifndef KEYDECIDE_TOOLS_UTF8_BOUNDARY_H_
#define KEYDECIDE_TOOLS_UTF8_BOUNDARY_H_

#include <cstddef>
#include <string_view>

namespace keydecide {

// The smallest character boundary at or after pos (s.size() when none).
inline size_t BoundaryAtOrAfter(std::string_view s, size_t pos) {
  while (pos < s.size() && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) ++pos;
  return pos < s.size() ? pos : s.size();
}

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_UTF8_BOUNDARY_H_
