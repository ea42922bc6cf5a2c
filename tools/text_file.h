// Reading the text files the CLI and the benchmarks replay or evaluate.

#ifndef KEYDECIDE_TOOLS_TEXT_FILE_H_
#define KEYDECIDE_TOOLS_TEXT_FILE_H_

#include <cstddef>
#include <string>

#include "keydecide/status.h"
#include "tools/text_util.h"

namespace keydecide {

// The most a text input may hold: 512 MiB. The largest file the tools read (the English
// training split) is under 70 MB; the cap only stops an endless stream from taking the memory
// (`--text /dev/stdin` fed by `yes`).
inline constexpr size_t kMaxTextFileBytes = size_t{512} << 20;

// Reads the whole of `path` into *out. A regular file or a pipe (a FIFO, or process
// substitution `<(...)`): a FIFO with no writer reads as empty instead of waiting for one.
// Anything else (a character device such as /dev/zero, a directory, a socket) is refused at
// once. Failure: NotFound/IOError naming the path and the reason, InvalidArgument when it
// holds more than max_bytes; *out is then unspecified.
Status ReadTextFile(const std::string& path, std::string* out,
                    size_t max_bytes = kMaxTextFileBytes);

// Keeps at most max_bytes (0: all): up to the last line end within them, or, with none,
// up to a character boundary.
inline void KeepLeadingBytes(std::string* text, size_t max_bytes) {
  if (max_bytes == 0 || text->size() <= max_bytes) return;
  const size_t nl = text->rfind('\n', max_bytes - 1);
  text->resize(nl == std::string::npos ? BoundaryAtOrAfter(*text, max_bytes) : nl + 1);
}

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_TEXT_FILE_H_
