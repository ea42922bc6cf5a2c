#include "document.h"

#include <algorithm>

namespace keydecide::ls {
namespace {

// Length of the UTF-8 sequence that `lead` starts (1 for a stray continuation byte, so that
// malformed text still advances).
size_t SequenceLength(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

bool HasLineEnd(std::string_view s) { return s.find_first_of("\r\n") != std::string_view::npos; }

}  // namespace

void Document::IndexLines() const {
  if (indexed_) return;
  line_starts_.assign(1, 0);
  for (size_t i = 0; i < text_.size(); ++i) {
    const char c = text_[i];
    if (c == '\n' || (c == '\r' && (i + 1 == text_.size() || text_[i + 1] != '\n'))) {
      line_starts_.push_back(i + 1);
    }
  }
  indexed_ = true;
}

size_t Document::LineStart(uint32_t line) const {
  IndexLines();
  return line < line_starts_.size() ? line_starts_[line] : text_.size();
}

size_t Document::LineEnd(uint32_t line) const {
  IndexLines();
  if (line + 1 >= line_starts_.size()) return text_.size();
  size_t end = line_starts_[line + 1] - 1;  // the terminator's last byte
  if (text_[end] == '\n' && end > line_starts_[line] && text_[end - 1] == '\r') --end;
  return end;
}

size_t Document::OffsetOf(Position pos, PositionEncoding encoding) const {
  IndexLines();
  if (pos.line >= line_starts_.size()) return text_.size();
  size_t at = LineStart(pos.line);
  const size_t end = LineEnd(pos.line);
  uint32_t units = 0;
  while (at < end) {
    const size_t len = std::min(SequenceLength(static_cast<unsigned char>(text_[at])), end - at);
    const uint32_t width =
        encoding == PositionEncoding::kUtf8 ? static_cast<uint32_t>(len) : (len == 4 ? 2u : 1u);
    if (units + width > pos.character) break;  // inside this character, or at its start
    units += width;
    at += len;
  }
  return at;
}

Position Document::PositionOf(size_t offset, PositionEncoding encoding) const {
  IndexLines();
  offset = std::min(offset, text_.size());
  const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  Position pos;
  pos.line = static_cast<uint32_t>(it - line_starts_.begin() - 1);
  size_t at = line_starts_[pos.line];
  const size_t end = std::min(offset, LineEnd(pos.line));
  while (at < end) {
    const size_t len = std::min(SequenceLength(static_cast<unsigned char>(text_[at])), end - at);
    pos.character +=
        encoding == PositionEncoding::kUtf8 ? static_cast<uint32_t>(len) : (len == 4 ? 2u : 1u);
    at += len;
  }
  return pos;
}

AppliedEdit Document::Replace(Position from, Position to, std::string_view text,
                              PositionEncoding encoding) {
  AppliedEdit edit;
  edit.begin = OffsetOf(from, encoding);
  edit.end = std::max(edit.begin, OffsetOf(to, encoding));  // a reversed range: an insertion
  edit.inserted_bytes = text.size();
  const bool same_lines =
      indexed_ && !HasLineEnd(text) &&
      !HasLineEnd(std::string_view(text_).substr(edit.begin, edit.end - edit.begin)) &&
      (edit.begin == 0 || text_[edit.begin - 1] != '\r');
  text_.replace(edit.begin, edit.end - edit.begin, text);
  if (same_lines) {
    // No line end added, removed or split ("\r" then "\n"): the lines after the edit only
    // move (typing within a line of a long document costs no rescan).
    const auto first = std::upper_bound(line_starts_.begin(), line_starts_.end(), edit.begin);
    for (auto it = first; it != line_starts_.end(); ++it)
      *it = *it - (edit.end - edit.begin) + text.size();
  } else {
    indexed_ = false;
  }
  return edit;
}

void Document::Assign(std::string text) {
  text_ = std::move(text);
  indexed_ = false;
}

}  // namespace keydecide::ls
