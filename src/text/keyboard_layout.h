// KeyboardLayout: where each key sits, so that typing costs can follow geometry (a slip to
// a neighbouring key is far likelier than one across the keyboard). Layouts are data files
// (models/layouts/*.txt), so AZERTY or Dvorak need no code.
//
// File format, UTF-8, one keyboard row per line, top row first:
//   # comment
//   name = qwerty
//   row <offset> <key> <key> ...
// <offset> is the row's horizontal shift in key widths. Key k (0-based) of row r has its
// centre at (offset + k + 0.5, r + 0.5). Keys are single lower-case characters; upper case
// maps to them.

#ifndef KEYDECIDE_TEXT_KEYBOARD_LAYOUT_H_
#define KEYDECIDE_TEXT_KEYBOARD_LAYOUT_H_

#include <string>
#include <string_view>
#include <unordered_map>

#include "keydecide/status.h"

namespace keydecide {

class KeyboardLayout {
 public:
  struct Point {
    float x, y;
  };

  // Parses a layout file's text. Returns InvalidArgument with the line number on a
  // malformed line, a duplicate key, or a layout with no keys.
  static Status Parse(std::string_view text, KeyboardLayout* out);
  // Reads and parses a layout file: NotFound/IOError, or Corruption for malformed content.
  static Status Load(const std::string& path, KeyboardLayout* out);

  const std::string& name() const { return name_; }
  size_t size() const { return keys_.size(); }

  // Centre of the key typing cp (case-insensitive); false when the layout has no such key.
  bool Find(char32_t cp, Point* out) const;

  // Distance between the centres of two keys in key widths, or a negative value when
  // either key is not on this layout.
  float Distance(char32_t a, char32_t b) const;

 private:
  std::string name_;
  std::unordered_map<char32_t, Point> keys_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_TEXT_KEYBOARD_LAYOUT_H_
