#include "tools/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace keydecide {

namespace {

Status ErrnoStatus(const std::string& what, const std::string& path, int err) {
  std::string msg = "cannot " + what + " " + path + ": " + std::strerror(err);
  return err == ENOENT ? Status::NotFound(msg) : Status::IOError(msg);
}

// For the error that refuses a file that is neither a regular file nor a pipe.
const char* FileTypeName(mode_t mode) {
  switch (mode & S_IFMT) {
    case S_IFDIR: return "a directory";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    default: return "of an unknown type";
  }
}

// Opens `path` for reading without waiting on a FIFO's writer, and checks what it is: a
// regular file, or a pipe then switched to blocking reads (a writer that is there is waited
// for; with none, read() says end of file at once).
Status OpenTextInput(const std::string& path, int* fd, struct stat* st) {
  *fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (*fd < 0) return ErrnoStatus("open", path, errno);
  Status s;
  if (::fstat(*fd, st) != 0) {
    s = ErrnoStatus("stat", path, errno);
  } else if (S_ISFIFO(st->st_mode)) {
    const int flags = ::fcntl(*fd, F_GETFL);
    if (flags < 0 || ::fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
      s = ErrnoStatus("read", path, errno);
    }
  } else if (!S_ISREG(st->st_mode)) {
    s = Status::IOError(path + " is " + FileTypeName(st->st_mode) +
                        ", not a text file or a pipe");
  }
  if (!s.ok()) ::close(*fd);
  return s;
}

Status TooLarge(const std::string& path, size_t max_bytes) {
  const bool mib = max_bytes >= (1u << 20) && max_bytes % (1u << 20) == 0;
  return Status::InvalidArgument(
      path + " holds more than " +
      (mib ? std::to_string(max_bytes >> 20) + " MiB" : std::to_string(max_bytes) + " bytes") +
      ", the limit for a text input");
}

}  // namespace

Status ReadTextFile(const std::string& path, std::string* out, size_t max_bytes) {
  int fd;
  struct stat st;
  KD_RETURN_IF_ERROR(OpenTextInput(path, &fd, &st));
  out->clear();
  if (S_ISREG(st.st_mode)) {
    if (static_cast<uint64_t>(st.st_size) > max_bytes) {
      ::close(fd);
      return TooLarge(path, max_bytes);
    }
    out->reserve(static_cast<size_t>(st.st_size));
  }
  char buf[1 << 16];
  Status s;
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      s = ErrnoStatus("read", path, errno);
      break;
    }
    if (n == 0) break;
    if (out->size() + static_cast<size_t>(n) > max_bytes) {  // a pipe, or a growing file
      s = TooLarge(path, max_bytes);
      break;
    }
    out->append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return s;
}

}  // namespace keydecide
