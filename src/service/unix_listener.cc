#include "service/unix_listener.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace keydecide::service {

namespace {

Status Errno(const std::string& what) {
  return Status::IOError(what + ": " + std::strerror(errno));
}

bool FillAddress(const std::string& path, sockaddr_un* addr) {
  *addr = sockaddr_un{};
  addr->sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(addr->sun_path)) return false;
  std::memcpy(addr->sun_path, path.c_str(), path.size() + 1);
  return true;
}

Status PreparePrivateFolder(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return Errno("mkdir " + dir);
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) return Errno("stat " + dir);
  if (!S_ISDIR(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0) {
    return Status::InvalidArgument(dir + " is not a folder owned by this user with mode 0700");
  }
  return Status::OK();
}

// Every folder from `dir` up to / must be owned by root or this user, and one that others
// may write must be sticky (others cannot then remove or rename our socket), as OpenSSH
// checks the paths it trusts. Otherwise another user could replace the socket and read
// every key typed.
Status CheckSafeFolders(std::string dir) {
  while (!dir.empty()) {
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0) return Errno("stat " + dir);
    if (st.st_uid != 0 && st.st_uid != ::geteuid()) {
      return Status::InvalidArgument(dir + " belongs to uid " + std::to_string(st.st_uid) +
                                     ": another user could replace the socket there");
    }
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0) {
      return Status::InvalidArgument(dir + " is writable by other users and not sticky: "
                                     "another user could replace the socket there");
    }
    if (dir == "/") break;
    const size_t slash = dir.rfind('/');
    dir = slash == 0 ? "/" : slash == std::string::npos ? std::string() : dir.substr(0, slash);
  }
  return Status::OK();
}

// Removes a socket file left by a daemon that is gone; refuses to touch anything else or
// to take over from a live daemon.
Status ClearStaleSocket(const std::string& path, const sockaddr_un& addr) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return Status::OK();  // nothing there
  if (!S_ISSOCK(st.st_mode)) return Status::InvalidArgument(path + " exists and is not a socket");
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Errno("socket");
  const bool live = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  if (live) return Status::InvalidArgument("another daemon is listening on " + path);
  if (::unlink(path.c_str()) != 0) return Errno("unlink stale " + path);
  return Status::OK();
}

}  // namespace

Status ListenUnix(const std::string& path, bool private_parent, int backlog, UnixListener* out) {
  sockaddr_un addr;
  if (!FillAddress(path, &addr)) {
    return Status::InvalidArgument("socket path is empty or longer than " +
                                   std::to_string(sizeof(addr.sun_path) - 1) + " bytes");
  }
  if (private_parent) {
    const size_t slash = path.rfind('/');
    if (slash != std::string::npos && slash > 0) {
      KD_RETURN_IF_ERROR(PreparePrivateFolder(path.substr(0, slash)));
    }
  }
  if (const size_t slash = path.rfind('/'); slash != std::string::npos) {
    KD_RETURN_IF_ERROR(CheckSafeFolders(slash == 0 ? "/" : path.substr(0, slash)));
  }
  KD_RETURN_IF_ERROR(ClearStaleSocket(path, addr));

  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return Errno("socket");
  // Linux creates the socket file with the socket inode's mode (less the umask), so the
  // file is 0600 from its first moment, without touching the process-wide umask.
  struct stat st;
  Status failure;
  if (::fchmod(fd, 0600) != 0) {
    failure = Errno("fchmod");
  } else if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    failure = Errno("bind " + path);
  } else if (::chmod(path.c_str(), 0600) != 0 || ::lstat(path.c_str(), &st) != 0) {
    failure = Errno("chmod " + path);
    ::unlink(path.c_str());
  } else if (::listen(fd, backlog) != 0) {
    failure = Errno("listen");
    ::unlink(path.c_str());
  }
  if (!failure.ok()) {
    ::close(fd);
    return failure;
  }
  out->fd = fd;
  out->dev = st.st_dev;
  out->ino = st.st_ino;
  return Status::OK();
}

bool SocketFileIsOurs(const std::string& path, const UnixListener& l) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && st.st_dev == l.dev && st.st_ino == l.ino;
}

void RemoveSocketFile(const std::string& path, const UnixListener& l) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && st.st_dev == l.dev && st.st_ino == l.ino) {
    ::unlink(path.c_str());
  }
}

}  // namespace keydecide::service
