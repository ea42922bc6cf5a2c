#include "text/keyboard_layout.h"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "base/mapped_file.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::vector<std::string_view> SplitFields(std::string_view s) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) fields.push_back(s.substr(i, j - i));
    i = j;
  }
  return fields;
}

Status LineError(int line, const std::string& what) {
  return Status::InvalidArgument("keyboard layout line " + std::to_string(line) + ": " + what);
}

}  // namespace

Status KeyboardLayout::Parse(std::string_view text, KeyboardLayout* out) {
  KD_RETURN_IF_ERROR(utf8::Validate(text));
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a BOM some editors write
  KeyboardLayout layout;
  int line_no = 0;
  int row = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = Trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    if (line.starts_with("name")) {
      const size_t eq = line.find('=');
      if (eq == std::string_view::npos) return LineError(line_no, "expected 'name = <name>'");
      layout.name_ = std::string(Trim(line.substr(eq + 1)));
      continue;
    }
    std::vector<std::string_view> fields = SplitFields(line);
    if (fields[0] != "row" || fields.size() < 3) {
      return LineError(line_no, "expected 'row <offset> <key> ...'");
    }
    const std::string offset_text(fields[1]);
    char* end = nullptr;
    const float offset = std::strtof(offset_text.c_str(), &end);
    if (end == offset_text.c_str() || *end != '\0' || !std::isfinite(offset)) {
      return LineError(line_no, "bad row offset '" + offset_text + "'");
    }
    for (size_t k = 2; k < fields.size(); ++k) {
      size_t pos = 0;
      char32_t cp;
      utf8::Decode(fields[k], &pos, &cp);
      if (pos != fields[k].size()) {
        return LineError(line_no, "key '" + std::string(fields[k]) + "' is not one character");
      }
      const Point centre{offset + static_cast<float>(k - 2) + 0.5f, static_cast<float>(row) + 0.5f};
      if (!layout.keys_.emplace(ToLower(cp), centre).second) {
        return LineError(line_no, "duplicate key '" + std::string(fields[k]) + "'");
      }
    }
    ++row;
  }
  if (layout.keys_.empty()) return Status::InvalidArgument("keyboard layout has no keys");
  if (layout.name_.empty()) layout.name_ = "unnamed";
  *out = std::move(layout);
  return Status::OK();
}

Status KeyboardLayout::Load(const std::string& path, KeyboardLayout* out) {
  std::string text;
  KD_RETURN_IF_ERROR(ReadFileToString(path, &text));
  const Status s = Parse(text, out);
  if (!s.ok()) return Status::Corruption(path + ": " + s.message());  // a malformed file
  return s;
}

bool KeyboardLayout::Find(char32_t cp, Point* out) const {
  auto it = keys_.find(ToLower(cp));
  if (it == keys_.end()) return false;
  *out = it->second;
  return true;
}

float KeyboardLayout::Distance(char32_t a, char32_t b) const {
  Point pa, pb;
  if (!Find(a, &pa) || !Find(b, &pb)) return -1.0f;
  return std::hypot(pa.x - pb.x, pa.y - pb.y);
}

}  // namespace keydecide
