#include "base/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace keydecide {

namespace {

Status ErrnoStatus(const std::string& what, const std::string& path, int err) {
  std::string msg = what + " " + path + ": " + std::strerror(err);
  return err == ENOENT ? Status::NotFound(msg) : Status::IOError(msg);
}

// For the error that refuses a file that is not a regular one.
const char* FileTypeName(mode_t mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a FIFO or pipe";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    default: return "of an unknown type";
  }
}

}  // namespace

Status MappedFile::Open(const std::string& path, std::unique_ptr<MappedFile>* out) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever and
  // deaf to signals handled on this thread; it changes nothing for a regular file.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return ErrnoStatus("cannot open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return ErrnoStatus("cannot stat", path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::IOError(path + " is " + FileTypeName(st.st_mode) + ", not a regular file");
  }
  size_t size = static_cast<size_t>(st.st_size);
  void* addr = nullptr;
  if (size > 0) {
    addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return ErrnoStatus("cannot map", path, err);
    }
  }
  ::close(fd);  // the mapping keeps the file alive
  out->reset(new MappedFile(path, addr, size));
  return Status::OK();
}

MappedFile::~MappedFile() {
  if (size_ > 0) ::munmap(addr_, size_);
}

Status WriteFileAtomically(const std::string& path, std::span<const std::string_view> parts) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::IOError("cannot create " + tmp);
    for (const std::string_view part : parts) {
      out.write(part.data(), static_cast<std::streamsize>(part.size()));
    }
    if (!out.flush()) {
      std::remove(tmp.c_str());
      return Status::IOError("cannot write " + tmp);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Status::IOError("cannot rename " + tmp + " to " + path);
  }
  return Status::OK();
}

Status ReadFileToString(const std::string& path, std::string* out, size_t max_bytes) {
  std::unique_ptr<MappedFile> file;  // regular files only: no FIFO or /dev/zero to hang on
  KD_RETURN_IF_ERROR(MappedFile::Open(path, &file));
  if (file->data().size() > max_bytes) {
    return Status::InvalidArgument(path + " is larger than " + std::to_string(max_bytes) +
                                   " bytes");
  }
  out->assign(file->data());
  return Status::OK();
}

}  // namespace keydecide
