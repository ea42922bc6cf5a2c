#include "service/daemon_client.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "keydecide/keydecide.h"
#include "service/json_fields.h"
#include "service/protocol.h"

namespace keydecide::service {

namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

int Fail(int code, const std::string& message, std::string* error) {
  *error = message;
  return code;
}

// Milliseconds left until `deadline` (at least 0).
int MsLeft(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// Waits for `events` on fd until the deadline; false on timeout or error.
bool WaitFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, MsLeft(deadline));
    if (n < 0 && errno == EINTR) continue;
    return n > 0;
  }
}

// The socket file must be a socket that this user owns.
int CheckSocketFile(const std::string& path, std::string* error) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    return Fail(errno == ENOENT ? KD_ERR_NOT_FOUND : KD_ERR_IO,
                "connect " + path + ": " + std::strerror(errno), error);
  }
  if (!S_ISSOCK(st.st_mode)) return Fail(KD_ERR_IO, path + " is not a socket", error);
  if (st.st_uid != ::geteuid()) {
    return Fail(KD_ERR_PERMISSION,
                path + " belongs to uid " + std::to_string(st.st_uid) +
                    ", not this user: refusing to talk to it",
                error);
  }
  return KD_OK;
}

}  // namespace

int KdStatusOfErrorCode(const std::string& code) {
  if (code == errors::kInvalidText || code == errors::kBadRequest ||
      code == errors::kTooManySessions || code == errors::kLineTooLong) {
    return KD_INVALID_ARGUMENT;
  }
  if (code == errors::kBusy || code == errors::kOverBudget) return KD_BUSY;
  if (code == errors::kNotSupported) return KD_ERR_NOT_SUPPORTED;
  if (code == errors::kPermissionDenied || code == errors::kTooManyClients ||
      code == errors::kShuttingDown || code == errors::kTimeout) {
    return KD_ERR_IO;
  }
  return KD_ERR_PROTOCOL;
}

DaemonClient::~DaemonClient() {
  if (fd_ >= 0) ::close(fd_);
}

int DaemonClient::Connect(const std::string& path, std::string* error) {
  sockaddr_un addr{};
  if (path.size() >= sizeof(addr.sun_path)) {
    return Fail(KD_INVALID_ARGUMENT, "socket path too long", error);
  }
  if (const int rc = CheckSocketFile(path, error); rc != KD_OK) return rc;
  path_ = path;
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0) return Fail(KD_ERR_IO, std::string("socket: ") + std::strerror(errno), error);
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.connect_timeout_ms);
  // A Unix socket connects at once or says EAGAIN (the daemon's backlog is full): retry
  // until the deadline.
  while (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    const int err = errno;
    if (err == EINTR) continue;
    if ((err == EAGAIN || err == EINPROGRESS) && MsLeft(deadline) > 0) {
      ::poll(nullptr, 0, 10);
      continue;
    }
    return Fail(err == ENOENT || err == ECONNREFUSED ? KD_ERR_NOT_FOUND : KD_ERR_IO,
                "connect " + path + ": " + std::strerror(err == EAGAIN ? ETIMEDOUT : err),
                error);
  }
  ucred cred{};
  socklen_t len = sizeof(cred);
  if (::getsockopt(fd_, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
    return Fail(KD_ERR_IO, std::string("SO_PEERCRED: ") + std::strerror(errno), error);
  }
  if (cred.uid != ::geteuid()) {
    ::close(fd_);
    fd_ = -1;
    return Fail(KD_ERR_PERMISSION,
                "the process listening on " + path + " runs as uid " + std::to_string(cred.uid) +
                    ", not this user: refusing to talk to it",
                error);
  }
  return KD_OK;
}

int DaemonClient::Call(Json request, Json* reply, std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (broken_ || fd_ < 0) return Fail(KD_ERR_IO, "the connection to the daemon is broken", error);
  const uint64_t id = next_id_++;
  request["id"] = id;
  std::string line;
  try {
    line = request.dump() + "\n";  // strict: invalid UTF-8 is the caller's error
  } catch (const Json::type_error&) {
    return Fail(KD_INVALID_ARGUMENT, "text is not valid UTF-8", error);
  }
  if (max_request_bytes_ > 0 && line.size() - 1 > max_request_bytes_) {
    return Fail(KD_INVALID_ARGUMENT,
                "request of " + std::to_string(line.size() - 1) + " bytes is longer than the "
                    "daemon's limit of " + std::to_string(max_request_bytes_) + " (not sent)",
                error);
  }
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.answer_timeout_ms);
  for (size_t off = 0; off < line.size();) {
    const ssize_t n = ::send(fd_, line.data() + off, line.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN && WaitFor(fd_, POLLOUT, deadline)) continue;
    if (n <= 0) return Broken("send", KD_ERR_IO, error);
    off += static_cast<size_t>(n);
  }
  for (;;) {  // one request in flight: the next line with our id is the answer
    std::string got;
    if (const int rc = ReadLine(&got, error); rc != KD_OK) return rc;
    *reply = Json::parse(got, nullptr, false);
    // Never the line itself: it may hold the person's words, and hosts log the error.
    if (!reply->is_object()) {
      return Fail(KD_ERR_PROTOCOL,
                  "unreadable answer from the daemon (" + std::to_string(got.size()) +
                      " bytes that are not a JSON object)",
                  error);
    }
    const Json& rid = Field(*reply, "id");
    if (rid.is_null() && !BoolField(*reply, "ok", true)) break;  // a refusal without an id
    if (rid.is_number_unsigned() && rid.get<uint64_t>() == id) break;
  }
  if (!BoolField(*reply, "ok", false)) {
    const Json& e = Field(*reply, "error");
    const std::string code = StringField(e, "code");
    const int rc = KdStatusOfErrorCode(code);
    // The daemon closes the connection after these: later calls must not find it alive.
    if (rc == KD_ERR_IO || code == errors::kLineTooLong) broken_ = true;
    return Fail(rc, "daemon: " + code + ": " + StringField(e, "message"), error);
  }
  return KD_OK;
}

int DaemonClient::Reconnect(std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  buf_.clear();
  broken_ = true;  // until the new connection is made
  const int rc = Connect(path_, error);
  if (rc == KD_OK) broken_ = false;
  return rc;
}

int DaemonClient::Broken(const std::string& what, int code, std::string* error) {
  broken_ = true;
  return Fail(code, what + (errno ? std::string(": ") + std::strerror(errno) : ""), error);
}

int DaemonClient::ReadLine(std::string* line, std::string* error) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.answer_timeout_ms);
  for (;;) {
    const size_t nl = buf_.find('\n');
    if (nl != std::string::npos) {
      line->assign(buf_, 0, nl);
      buf_.erase(0, nl + 1);
      return KD_OK;
    }
    if (buf_.size() > options_.max_answer_bytes) {
      errno = 0;
      return Broken("an answer longer than " + std::to_string(options_.max_answer_bytes) +
                        " bytes", KD_ERR_PROTOCOL, error);
    }
    if (!WaitFor(fd_, POLLIN, deadline)) {
      errno = 0;
      return Broken("no answer from the daemon within " +
                        std::to_string(options_.answer_timeout_ms) + " ms", KD_ERR_IO, error);
    }
    char tmp[8192];
    errno = 0;
    const ssize_t n = ::recv(fd_, tmp, sizeof(tmp), 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return Broken("the daemon closed the connection", KD_ERR_IO, error);
    buf_.append(tmp, static_cast<size_t>(n));
  }
}

}  // namespace keydecide::service
