// A prescan of JSON text for its nesting depth, so that hostile input (a daemon request line,
// an imported export) is refused before a recursive parser sees it.

#ifndef KEYDECIDE_BASE_JSON_DEPTH_H_
#define KEYDECIDE_BASE_JSON_DEPTH_H_

#include <algorithm>
#include <string_view>

namespace keydecide {

// Deepest [ / { nesting in `text`, ignoring brackets inside strings; stops counting once past
// `limit` (the result is then limit + 1). Malformed text gets a number too: the parser that
// follows judges the rest.
inline int JsonNestingDepth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace keydecide

#endif  // KEYDECIDE_BASE_JSON_DEPTH_H_
