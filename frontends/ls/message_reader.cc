#include "message_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace keydecide::ls {
namespace {

constexpr std::string_view kContentLength = "content-length";
constexpr std::string_view kHeaderEnd = "\r\n\r\n";

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Parses a header block (without its final blank line) for Content-Length. False when a line
// is not "Name: value", the length is missing, repeated, not decimal or absurd.
bool ParseHeaders(std::string_view block, uint64_t* length, std::string* error) {
  bool found = false;
  while (!block.empty()) {
    const size_t eol = block.find("\r\n");
    const std::string_view line = block.substr(0, eol);
    block.remove_prefix(eol == std::string_view::npos ? block.size() : eol + 2);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      *error = "malformed header line (no 'Name: value')";
      return false;
    }
    if (!EqualsIgnoreCase(Trim(line.substr(0, colon)), kContentLength)) continue;
    const std::string_view value = Trim(line.substr(colon + 1));
    if (found || value.empty() || value.size() > 12 ||
        !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      *error = "invalid or repeated Content-Length";
      return false;
    }
    uint64_t n = 0;
    for (const char c : value) n = n * 10 + static_cast<uint64_t>(c - '0');
    *length = n;
    found = true;
  }
  if (!found) *error = "header without Content-Length";
  return found;
}

}  // namespace

void MessageReader::Append(std::string_view bytes) {
  if (skipping_ > 0) {  // the rest of an oversized body: never buffered
    const size_t n = std::min(skipping_, bytes.size());
    skipping_ -= n;
    bytes.remove_prefix(n);
  }
  if (start_ > 0 && start_ * 2 >= buffer_.size()) {  // compact, amortised
    buffer_.erase(0, start_);
    start_ = 0;
  }
  buffer_.append(bytes);
}

void MessageReader::Consume(size_t n) {
  start_ += n;
  if (start_ == buffer_.size()) {
    buffer_.clear();
    start_ = 0;
  }
}

void MessageReader::Resynchronise() {
  const std::string_view rest = std::string_view(buffer_).substr(start_);
  // Header names are case-insensitive, but every client writes "Content-Length".
  const size_t next = rest.find("Content-Length", 1);
  if (next != std::string_view::npos) {
    Consume(next);
  } else {
    // Keep the longest tail that may be the start of the next "Content-Length".
    constexpr std::string_view kName = "Content-Length";
    size_t keep = std::min(rest.size(), kName.size() - 1);
    while (keep > 0 && rest.substr(rest.size() - keep) != kName.substr(0, keep)) --keep;
    Consume(rest.size() - keep);
  }
}

MessageReader::Result MessageReader::Next(std::string* body, std::string* error) {
  if (skipping_ > 0) return Result::kNeedMore;
  const std::string_view rest = std::string_view(buffer_).substr(start_);
  const size_t end = rest.find(kHeaderEnd);
  if (end == std::string_view::npos) {
    if (rest.size() <= kMaxHeaderBytes) return Result::kNeedMore;
    *error = "header block longer than 4096 bytes";
    Resynchronise();
    return Result::kError;
  }
  if (end > kMaxHeaderBytes) {
    *error = "header block longer than 4096 bytes";
    Resynchronise();
    return Result::kError;
  }
  uint64_t length = 0;
  if (!ParseHeaders(rest.substr(0, end), &length, error)) {
    Consume(end + kHeaderEnd.size());
    return Result::kError;
  }
  const size_t header = end + kHeaderEnd.size();
  if (length > max_body_bytes_) {
    *error = "message of " + std::to_string(length) + " bytes is over the limit of " +
             std::to_string(max_body_bytes_) + " bytes; skipped";
    const size_t here = std::min<uint64_t>(rest.size() - header, length);
    skipping_ = static_cast<size_t>(length - here);
    Consume(header + here);
    return Result::kError;
  }
  if (rest.size() - header < length) return Result::kNeedMore;
  body->assign(rest.substr(header, static_cast<size_t>(length)));
  Consume(header + static_cast<size_t>(length));
  return Result::kMessage;
}

std::string FrameMessage(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

}  // namespace keydecide::ls
