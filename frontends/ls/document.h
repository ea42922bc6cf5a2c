// Document: the text of one open document and the mapping between LSP positions (line and
// column, the column in UTF-16 code units or UTF-8 bytes as negotiated) and byte offsets.
//
// Lines end at "\n", "\r\n" or "\r", as the LSP specification says. A position past the end
// of its line means the line's end; a line past the last means the end of the text; a column
// inside a character (half of a surrogate pair, the middle of a UTF-8 sequence) means that
// character's start. The text is valid UTF-8 as long as every edit's text is (JSON strings
// are).
//
// Thread-safety: none.

#ifndef KEYDECIDE_FRONTENDS_LS_DOCUMENT_H_
#define KEYDECIDE_FRONTENDS_LS_DOCUMENT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace keydecide::ls {

enum class PositionEncoding { kUtf16, kUtf8 };

struct Position {
  uint32_t line = 0;
  uint32_t character = 0;  // code units of the negotiated encoding
};

// One applied edit, in bytes of the text before it: [begin, end) became `inserted_bytes`.
struct AppliedEdit {
  size_t begin = 0;
  size_t end = 0;
  size_t inserted_bytes = 0;
};

class Document {
 public:
  Document() = default;
  explicit Document(std::string text) : text_(std::move(text)) {}

  const std::string& text() const { return text_; }

  // Byte offset of `pos` (clamped as the header says).
  size_t OffsetOf(Position pos, PositionEncoding encoding) const;
  // The position of the byte offset `offset` (REQUIRES: at a character start, <= size).
  Position PositionOf(size_t offset, PositionEncoding encoding) const;

  // Replaces the text between two positions with `text` (an incremental change).
  AppliedEdit Replace(Position from, Position to, std::string_view text, PositionEncoding encoding);
  // Replaces the whole text (a full change).
  void Assign(std::string text);

 private:
  void IndexLines() const;
  size_t LineStart(uint32_t line) const;
  size_t LineEnd(uint32_t line) const;  // before its terminator

  std::string text_;
  mutable std::vector<size_t> line_starts_;  // only a speed-up, rebuilt after an edit
  mutable bool indexed_ = false;
};

}  // namespace keydecide::ls

#endif  // KEYDECIDE_FRONTENDS_LS_DOCUMENT_H_
