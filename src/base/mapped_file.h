// MappedFile: a read-only memory map of a whole file. Models and lexicons are mapped, not
// read, so that several engines (and the daemon's clients) share one copy in the page cache.

#ifndef KEYDECIDE_BASE_MAPPED_FILE_H_
#define KEYDECIDE_BASE_MAPPED_FILE_H_

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "keydecide/status.h"

namespace keydecide {

class MappedFile {
 public:
  // Maps `path` read-only. On success stores the map in *out; on failure returns NotFound or
  // IOError naming the path and leaves *out untouched. An empty file maps to an empty view.
  // Only regular files are mapped: a FIFO, device, directory or socket is refused at once
  // (opened without blocking, then fstat), never waited on.
  static Status Open(const std::string& path, std::unique_ptr<MappedFile>* out);

  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  // Valid while this object lives.
  std::string_view data() const { return {static_cast<const char*>(addr_), size_}; }
  const std::string& path() const { return path_; }

 private:
  MappedFile(std::string path, void* addr, size_t size)
      : path_(std::move(path)), addr_(addr), size_(size) {}

  std::string path_;
  void* addr_;
  size_t size_;
};

// Reads a whole regular file of at most max_bytes into *out (small text inputs such as
// keyboard layouts). NotFound/IOError as Open; InvalidArgument when it is larger.
Status ReadFileToString(const std::string& path, std::string* out, size_t max_bytes = 1 << 20);

// Writes `parts`, one after the other, to path + ".tmp" and renames it to `path`, so that a
// failure never leaves a half-written file in its place. IOError naming the file on failure
// (the temporary file is removed).
Status WriteFileAtomically(const std::string& path, std::span<const std::string_view> parts);

}  // namespace keydecide

#endif  // KEYDECIDE_BASE_MAPPED_FILE_H_
