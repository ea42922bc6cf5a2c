// DaemonClient: the client end of the daemon's protocol (docs/PROTOCOL.md), one request in
// flight per connection, as the C ABI uses it.
//
// Trust, before a single byte is sent (as OpenSSH's agent client and D-Bus do): the socket
// file must be a socket owned by this user, and the process at the other end must run as this
// user (SO_PEERCRED). Another local user who squats the path, or replaces the daemon's socket
// in a folder they can write, gets nothing and the caller gets KD_ERR_PERMISSION.
//
// Every wait is bounded: connecting and each answer time out (Options), an answer line has a
// bounded length, and a request longer than the daemon's line limit (hello's max_line_bytes)
// is refused before it is sent, so the connection lives on.
//
// Returns kd_status codes (keydecide.h) with the reason in *error. Thread-safe: Call
// serialises its callers.

#ifndef KEYDECIDE_SERVICE_DAEMON_CLIENT_H_
#define KEYDECIDE_SERVICE_DAEMON_CLIENT_H_

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

namespace keydecide::service {

class DaemonClient {
 public:
  struct Options {
    int connect_timeout_ms = 2000;   // connecting and the peer checks
    int answer_timeout_ms = 10000;   // each answer; past it the connection counts as broken
    size_t max_answer_bytes = 16 << 20;  // one answer line (a decision is a few KB)
  };

  explicit DaemonClient(const Options& options) : options_(options) {}
  ~DaemonClient();
  DaemonClient(const DaemonClient&) = delete;
  DaemonClient& operator=(const DaemonClient&) = delete;

  // Connects to `path` after checking who owns it and who listens on it.
  //   KD_ERR_NOT_FOUND   nothing listens there
  //   KD_ERR_PERMISSION  the socket or its process belongs to another user: nothing was sent
  //   KD_ERR_IO          the system refused, or the connect timed out
  int Connect(const std::string& path, std::string* error);

  // Sends `request` (an "id" is added) and reads its answer into *reply: KD_OK when the
  // daemon answered ok, else the daemon's error mapped to a kd_status. KD_INVALID_ARGUMENT
  // for a request longer than the daemon's line limit (not sent; the connection lives on);
  // KD_ERR_IO when the connection broke or an answer did not come in time (every later call
  // fails the same way).
  int Call(nlohmann::json request, nlohmann::json* reply, std::string* error);

  // The daemon's line limit (from hello); 0: not known yet.
  void set_max_request_bytes(size_t n) { max_request_bytes_ = n; }

  // True after the connection broke (every Call fails until Reconnect succeeds).
  bool broken() const { return broken_; }
  // Connects again to the path of the last Connect (the daemon restarted), with the same
  // checks; the caller says hello again. Codes as Connect.
  int Reconnect(std::string* error);

 private:
  int Broken(const std::string& what, int code, std::string* error);
  // One line from the daemon within the answer timeout; the kd_status of a failure.
  int ReadLine(std::string* line, std::string* error);

  Options options_;
  std::string path_;
  int fd_ = -1;
  std::mutex mu_;
  std::string buf_;
  uint64_t next_id_ = 1;
  std::atomic<bool> broken_{false};
  size_t max_request_bytes_ = 0;
};

// A daemon error code (docs/PROTOCOL.md) as a kd_status.
int KdStatusOfErrorCode(const std::string& code);

}  // namespace keydecide::service

#endif  // KEYDECIDE_SERVICE_DAEMON_CLIENT_H_
