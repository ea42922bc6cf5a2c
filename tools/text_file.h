// Reading the text files the CLI and the benchmarks replay or evaluate.

#ifndef KEYDECIDE_TOOLS_TEXT_FILE_H_
#define KEYDECIDE_TOOLS_TEXT_FILE_H_

#include <cstdio>
#include <string>

#include "tools/text_util.h"

namespace keydecide {

// Reads the whole file into *out; false when it cannot be opened or read.
inline bool ReadTextFile(const std::string& path, std::string* out) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out->clear();
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out->append(buf, n);
  const bool ok = std::ferror(f) == 0;
  std::fclose(f);
  return ok;
}

// Keeps at most max_bytes (0: all): up to the last line end within them, or, with none,
// up to a character boundary.
inline void KeepLeadingBytes(std::string* text, size_t max_bytes) {
  if (max_bytes == 0 || text->size() <= max_bytes) return;
  const size_t nl = text->rfind('\n', max_bytes - 1);
  text->resize(nl == std::string::npos ? BoundaryAtOrAfter(*text, max_bytes) : nl + 1);
}

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_TEXT_FILE_H_
