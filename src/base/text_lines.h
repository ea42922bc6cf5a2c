// ForEachLine: the non-blank lines of a text, for the line-based files the tools read (word
// lists, readings, counts).

#ifndef KEYDECIDE_BASE_TEXT_LINES_H_
#define KEYDECIDE_BASE_TEXT_LINES_H_

#include <cstddef>
#include <string_view>

namespace keydecide {

// Calls fn(line_number, line) for every line that is not blank (spaces and tabs only), with a
// trailing '\r' removed; numbers count from 1 and include the blank lines.
template <typename Fn>
void ForEachLine(std::string_view text, Fn fn) {
  size_t number = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    fn(number, line);
  }
}

}  // namespace keydecide

#endif  // KEYDECIDE_BASE_TEXT_LINES_H_
