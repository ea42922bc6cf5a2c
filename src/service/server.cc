// ConcreteServer: one epoll event-loop thread owns every connection; the Runtime's worker
// thread(s) do the inference.
//
// Why an event loop and not a thread per connection: the work per request is tiny (tens
// of microseconds) and inference is funnelled to one worker anyway, so a hundred client
// threads would only add stacks (RSS per client), context switches and lock traffic. One
// loop thread reads and parses requests, answers the cheap ones (hello, open_session,
// stats, errors) itself, and submits edits to the Runtime; a worker's response is pushed
// to a mailbox and the loop is woken through an eventfd to write it. Connections are
// named by a never-reused 64-bit id, so a response for a client that has gone is dropped,
// never delivered to whoever got its file descriptor next.

#include "keydecide/service.h"

#include <fcntl.h>
#include <malloc.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "keydecide/engine.h"
#include "service/protocol.h"
#include "service/session_cost.h"
#include "service/unix_listener.h"

namespace keydecide {

namespace {

using Clock = std::chrono::steady_clock;
using service::ErrorLine;
using service::Op;
using service::ProtocolRequest;
namespace errors = service::errors;

constexpr uint64_t kListenKey = 0;  // epoll keys; connection ids start above these
constexpr uint64_t kWakeKey = 1;
constexpr uint64_t kFirstConnId = 2;
constexpr size_t kReadChunk = 16 * 1024;
constexpr size_t kMaxReadPerEvent = 256 * 1024;  // then let other clients have a turn
constexpr int kReadingWithinMs = 1000;  // a client that took bytes this recently is reading
// Bytes beyond max_output_bytes a reading client may be behind by: the answers to the requests
// it had sent before its reading paused (a read buffer's worth of lines).
constexpr size_t kOutputSlackBytes = size_t{16} << 20;
constexpr int kTickMs = 500;  // how often stalled lines are checked
constexpr int kListenBacklog = 256;

Status Errno(const std::string& what) {
  return Status::IOError(what + ": " + std::strerror(errno));
}

struct Conn {
  int fd = -1;
  uint64_t id = 0;
  std::string in;
  std::string out;
  size_t out_off = 0;  // bytes of `out` already written
  struct OpenSession {
    Runtime::SessionId rid;
    size_t bytes;  // its share of the session memory budget
  };
  std::unordered_map<uint64_t, OpenSession> sessions;  // client's id -> the runtime's
  size_t session_bytes() const {  // their shares together (at most 32 sessions: summed)
    size_t sum = 0;
    for (const auto& [local, open] : sessions) sum += open.bytes;
    return sum;
  }
  uint64_t next_session = 1;
  size_t in_flight = 0;                // submitted to the runtime, not yet answered
  bool eof = false;                    // the client closed its sending side
  bool hung_up = false;                // the client has gone entirely: nothing can be sent
  bool close_after_flush = false;      // a fatal error was sent
  bool reading = true;                 // EPOLLIN armed
  bool writing = false;                // EPOLLOUT armed
  Clock::time_point partial_since{};   // when `in` last became non-empty
  Clock::time_point write_progress{};  // last time the client took some of `out`
  Clock::time_point last_request{};    // connected, or its last complete request line
  size_t unsent() const { return out.size() - out_off; }
};

class ConcreteServer : public Server {
 public:
  ConcreteServer(const std::vector<const Engine*>& engines, const ServerOptions& options)
      : engines_(engines), options_(options) {}
  ~ConcreteServer() override;

  Status Init();
  void Stop() override;
  void Wait() override;
  const std::string& socket_path() const override { return path_; }
  Stats stats() const override;

 private:
  void Loop();
  void Accept();
  void OnReadable(Conn* c);
  void HandleLine(Conn* c, std::string_view line);
  void HandleSessionOp(Conn* c, const ProtocolRequest& req);
  void DeliverMailbox();
  void Flush(Conn* c);
  void UpdateInterest(Conn* c);
  void MaybeClose(Conn* c);
  void CloseConn(uint64_t id);
  void CheckStalled();
  void PauseAccepting(bool pause);
  void Send(Conn* c, std::string_view line) { c->out.append(line); }
  void SendError(Conn* c, std::string_view id, const char* code, std::string_view message) {
    protocol_errors_.fetch_add(1, std::memory_order_relaxed);
    Send(c, ErrorLine(id, code, message));
  }
  std::string HelloLine(std::string_view id) const;
  std::string StatsLine(std::string_view id) const;
  // The served language named `lang` ("" names the default); nullptr if none.
  const std::string* FindLanguage(std::string_view lang) const;

  void ReleaseSession(const Conn::OpenSession& open);
  // Why `c` may not open a session costing `bytes` now (the over_budget message), or "".
  std::string OverBudget(const Conn& c, size_t bytes) const;

  const std::vector<const Engine*> engines_;   // one per language, default first
  std::vector<std::string> languages_;         // engines_[i]->info().language
  std::vector<size_t> session_bytes_;          // one session's cost, per language
  std::atomic<size_t> session_bytes_used_{0};  // by the open sessions (written by the loop)
  bool trim_pending_ = false;                  // sessions closed since the last trim
  std::string scorer_;                         // of the default language
  const ServerOptions options_;
  std::string path_;
  uid_t allowed_uid_ = 0;
  std::unique_ptr<Runtime> runtime_;
  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  service::UnixListener listener_;  // identity of our socket file, to remove it at stop
  std::thread loop_;
  std::once_flag joined_;
  std::atomic<bool> stop_{false};
  bool accept_paused_ = false;

  std::unordered_map<uint64_t, std::unique_ptr<Conn>> conns_;  // loop thread only
  uint64_t next_conn_ = kFirstConnId;

  std::mutex mail_mu_;  // worker threads -> loop
  std::vector<std::pair<uint64_t, std::string>> mailbox_;
  std::vector<std::pair<uint64_t, std::string>> delivering_;

  std::atomic<uint64_t> connections_{0}, refused_{0}, requests_{0}, protocol_errors_{0},
      slow_disconnects_{0};
  std::atomic<size_t> clients_{0}, sessions_{0};
};

Status ConcreteServer::Init() {
  path_ = options_.socket_path.empty() ? DefaultSocketPath() : options_.socket_path;
  if (options_.max_line_bytes < 64 || options_.max_clients < 1 ||
      options_.max_sessions_per_client < 1 || options_.max_output_bytes < 1024) {
    return Status::InvalidArgument("server limits are too small");
  }
  if (options_.light_client_reserve_bytes > options_.session_memory_budget_bytes) {
    return Status::InvalidArgument("the light clients' reserve is larger than the memory budget");
  }
  allowed_uid_ = options_.allowed_uid >= 0 ? static_cast<uid_t>(options_.allowed_uid) : ::geteuid();
  KD_RETURN_IF_ERROR(Runtime::Create(engines_, options_.runtime, &runtime_));
  languages_ = runtime_->languages();
  for (const Engine* engine : engines_) {
    session_bytes_.push_back(service::MeasureSessionBytes(*engine));
  }
  // Limits no session could ever pass would refuse every open_session: refuse them now.
  const size_t largest = *std::max_element(session_bytes_.begin(), session_bytes_.end());
  const size_t reserve = options_.light_client_reserve_bytes;
  if (options_.max_session_bytes_per_client < largest ||
      options_.session_memory_budget_bytes < largest || (reserve > 0 && reserve / 4 < largest)) {
    return Status::InvalidArgument("the session memory limits are too small for one session (" +
                                   std::to_string((largest + (1 << 20) - 1) >> 20) +
                                   " MiB): raise them, or set the reserve "
                                   "to 0");
  }
  scorer_ = engines_.front()->info().scorer;
  // The fallback folder under /tmp is shared ground: make sure it is ours and private.
  const bool private_parent =
      options_.socket_path.empty() && path_.rfind("/tmp/keydecide-", 0) == 0;
  service::UnixListener listener;
  KD_RETURN_IF_ERROR(service::ListenUnix(path_, private_parent, kListenBacklog, &listener));
  listen_fd_ = listener.fd;
  listener_ = listener;

  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd_ < 0 || wake_fd_ < 0) return Errno("epoll/eventfd");
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = kListenKey;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &ev) != 0) return Errno("epoll_ctl");
  ev.data.u64 = kWakeKey;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev) != 0) return Errno("epoll_ctl");
  loop_ = std::thread([this] { Loop(); });
  return Status::OK();
}

ConcreteServer::~ConcreteServer() {
  Stop();
  Wait();
  if (runtime_) runtime_->Shutdown();  // Init may have failed before the loop started
  if (listen_fd_ >= 0) service::RemoveSocketFile(path_, listener_);  // bound, never served
  for (int fd : {listen_fd_, epoll_fd_, wake_fd_}) {
    if (fd >= 0) ::close(fd);
  }
}

void ConcreteServer::Stop() {
  stop_.store(true);
  if (wake_fd_ >= 0) {
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof(one));
  }
}

void ConcreteServer::Wait() {
  std::call_once(joined_, [this] {
    if (loop_.joinable()) loop_.join();
  });
}

Server::Stats ConcreteServer::stats() const {
  Stats st;
  st.connections = connections_.load();
  st.refused_peers = refused_.load();
  st.clients = clients_.load();
  st.sessions = sessions_.load();
  st.session_bytes = session_bytes_used_.load();
  st.requests = requests_.load();
  st.protocol_errors = protocol_errors_.load();
  st.slow_disconnects = slow_disconnects_.load();
  if (runtime_) st.runtime = runtime_->stats();
  return st;
}

void ConcreteServer::Loop() {
  std::vector<epoll_event> events(256);
  Clock::time_point last_tick = Clock::now();
  while (!stop_.load()) {
    const int n = ::epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), kTickMs);
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < n; ++i) {
      const uint64_t key = events[i].data.u64;
      if (key == kListenKey) {
        Accept();
      } else if (key == kWakeKey) {
        uint64_t count;
        [[maybe_unused]] ssize_t r = ::read(wake_fd_, &count, sizeof(count));
      } else {
        auto it = conns_.find(key);
        if (it == conns_.end()) continue;
        Conn* c = it->second.get();
        const uint32_t e = events[i].events;
        if (e & EPOLLIN) OnReadable(c);
        if (e & (EPOLLERR | EPOLLHUP)) c->eof = c->hung_up = true;
        Flush(c);
        MaybeClose(c);
      }
    }
    DeliverMailbox();
    if (Clock::now() - last_tick > std::chrono::milliseconds(kTickMs)) {
      last_tick = Clock::now();
      if (!service::SocketFileIsOurs(path_, listener_)) {
        // Someone removed or replaced our socket: new clients would reach them, not us.
        std::fprintf(stderr, "keydecided: the socket %s was removed or replaced; stopping\n",
                     path_.c_str());
        break;
      }
      CheckStalled();
      if (trim_pending_) {  // give closed sessions' memory back to the system (glibc keeps it)
        ::malloc_trim(0);
        trim_pending_ = false;
      }
      PauseAccepting(false);  // retry descriptors freed elsewhere in the process
    }
  }

  // Stop: no new clients; answer what the runtime accepted; then say goodbye.
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
  ::close(listen_fd_);
  listen_fd_ = -1;
  service::RemoveSocketFile(path_, listener_);
  runtime_->Shutdown();
  DeliverMailbox();
  std::vector<uint64_t> ids;
  for (auto& [id, c] : conns_) ids.push_back(id);
  for (uint64_t id : ids) {
    Conn* c = conns_[id].get();
    Flush(c);  // best effort: a client that does not read loses the rest
    CloseConn(id);
  }
}

void ConcreteServer::Accept() {
  for (;;) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors: the pending connection stays in the backlog and the listening
        // socket stays readable, so stop watching it (no busy loop) until a client leaves
        // or the next tick.
        PauseAccepting(true);
      }
      return;  // EAGAIN, or a connection that was reset before we took it
    }
    ucred cred{};
    socklen_t len = sizeof(cred);
    const char* refusal = nullptr;
    const char* code = nullptr;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != allowed_uid_) {
      code = errors::kPermissionDenied;
      refusal = "this daemon serves only its own user";
    } else if (conns_.size() >= options_.max_clients) {
      code = errors::kTooManyClients;
      refusal = "too many clients";
    }
    if (refusal != nullptr) {
      refused_.fetch_add(1, std::memory_order_relaxed);  // before the peer can see the close
      const std::string line = ErrorLine("", code, refusal);
      [[maybe_unused]] ssize_t w =
          ::send(fd, line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      ::close(fd);
      continue;
    }
    auto c = std::make_unique<Conn>();
    c->fd = fd;
    c->id = next_conn_++;
    c->last_request = Clock::now();
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.u64 = c->id;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      ::close(fd);
      continue;
    }
    conns_.emplace(c->id, std::move(c));
    connections_.fetch_add(1, std::memory_order_relaxed);
    clients_.store(conns_.size(), std::memory_order_relaxed);
  }
}

void ConcreteServer::OnReadable(Conn* c) {
  size_t total = 0;
  char buf[kReadChunk];
  while (c->reading && !c->close_after_flush && total < kMaxReadPerEvent) {
    const ssize_t n = ::recv(c->fd, buf, sizeof(buf), 0);
    if (n == 0) {
      c->eof = true;
      break;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) c->eof = true;  // reset: nothing to answer
      break;
    }
    total += static_cast<size_t>(n);
    const bool was_empty = c->in.empty();
    c->in.append(buf, static_cast<size_t>(n));
    if (was_empty) c->partial_since = Clock::now();

    size_t start = 0;
    for (;;) {
      const size_t nl = c->in.find('\n', start);
      if (nl == std::string::npos) break;
      std::string_view line(c->in.data() + start, nl - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.size() > options_.max_line_bytes) {
        SendError(c, "", errors::kLineTooLong, "request line longer than the limit");
        c->close_after_flush = true;
        break;
      }
      if (!line.empty()) {
        c->last_request = Clock::now();
        HandleLine(c, line);
      }
      start = nl + 1;
      if (c->close_after_flush) break;
    }
    c->in.erase(0, start);
    if (start > 0 && !c->in.empty()) c->partial_since = Clock::now();  // a new line began
    if (c->in.size() > options_.max_line_bytes && !c->close_after_flush) {
      SendError(c, "", errors::kLineTooLong, "request line longer than the limit");
      c->close_after_flush = true;
    }
    // Back-pressure: a client that does not read its responses is not read either.
    if (c->unsent() > options_.max_output_bytes / 2) break;
  }
}

void ConcreteServer::HandleLine(Conn* c, std::string_view line) {
  requests_.fetch_add(1, std::memory_order_relaxed);
  ProtocolRequest req;
  service::ProtocolError err;
  if (!service::ParseRequest(line, &req, &err)) {
    SendError(c, req.id, err.code, err.message);
    return;
  }
  switch (req.op) {
    case Op::kHello:
      Send(c, HelloLine(req.id));
      return;
    case Op::kStats:
      Send(c, StatsLine(req.id));
      return;
    case Op::kOpenSession: {
      if (c->sessions.size() >= options_.max_sessions_per_client) {
        SendError(
            c, req.id, errors::kTooManySessions,
            "at most " + std::to_string(options_.max_sessions_per_client) + " sessions per client");
        return;
      }
      const std::string* lang = FindLanguage(req.lang);
      if (lang == nullptr) {
        std::string served;
        for (const std::string& l : languages_) served += (served.empty() ? "" : ", ") + l;
        SendError(c, req.id, errors::kNotSupported,
                  "this daemon does not serve that language; it serves: " + served);
        return;
      }
      const size_t bytes = session_bytes_[lang - languages_.data()];
      if (const std::string why = OverBudget(*c, bytes); !why.empty()) {
        SendError(c, req.id, errors::kOverBudget, why);
        return;
      }
      SessionOptions so;
      so.app = req.app;
      so.auto_capitalize = req.auto_capitalize;
      so.no_learn = req.no_learn;
      so.autocorrect_level = req.autocorrect;
      Runtime::SessionId rid;
      const Status s = runtime_->OpenSession(*lang, so, c->id, &rid);  // fair turns per client
      if (!s.ok()) {
        // NotSupported: the runtime is stopping (the language was checked above).
        const bool stopping = s.code() == Status::Code::kNotSupported;
        SendError(c, req.id, stopping ? errors::kShuttingDown : errors::kTooManySessions,
                  s.message());
        return;
      }
      const uint64_t local = c->next_session++;
      c->sessions.emplace(local, Conn::OpenSession{rid, bytes});
      session_bytes_used_ += bytes;
      sessions_.fetch_add(1, std::memory_order_relaxed);
      std::string answer = "{\"id\":" + (req.id.empty() ? std::string("null") : req.id) +
                           ",\"ok\":true,\"session\":" + std::to_string(local) + ",\"lang\":";
      service::AppendJsonString(*lang, &answer);
      answer.append("}\n");
      Send(c, answer);
      return;
    }
    case Op::kCloseSession: {
      auto it = c->sessions.find(req.session);
      if (it == c->sessions.end()) {
        SendError(c, req.id, errors::kUnknownSession, "no such session on this connection");
        return;
      }
      ReleaseSession(it->second);
      c->sessions.erase(it);
      sessions_.fetch_sub(1, std::memory_order_relaxed);
      Send(c, "{\"id\":" + (req.id.empty() ? std::string("null") : req.id) +
                  ",\"ok\":true,\"session\":" + std::to_string(req.session) + "}\n");
      return;
    }
    default:
      HandleSessionOp(c, req);
  }
}

void ConcreteServer::HandleSessionOp(Conn* c, const ProtocolRequest& req) {
  // Session ids are per connection: another client's sessions cannot even be named.
  auto it = c->sessions.find(req.session);
  if (it == c->sessions.end()) {
    SendError(c, req.id, errors::kUnknownSession, "no such session on this connection");
    return;
  }
  Request r;
  switch (req.op) {
    case Op::kKey:
      r.kind = RequestKind::kType;
      r.t_ms = req.t_ms;
      break;
    case Op::kBackspace:
      r.kind = RequestKind::kBackspace;
      break;
    case Op::kCommit:
      r.kind = req.correction ? RequestKind::kAcceptCorrection : RequestKind::kAccept;
      break;
    case Op::kSetContext:
      r.kind = RequestKind::kSetContext;
      break;
    case Op::kPick:
      r.kind = RequestKind::kPick;
      r.candidate = req.candidate;
      break;
    default:
      r.kind = RequestKind::kDecide;
  }
  r.text = req.text;
  r.count = req.count;
  r.decide = req.decide || req.op == Op::kDecide;
  r.max_candidates = req.k;
  const uint64_t conn_id = c->id;
  const uint64_t local = req.session;
  auto done = [this, conn_id, local, id = req.id](const Response& resp) {
    std::string line;
    line.reserve(512);
    service::AppendResponseLine(id, local, resp, &line);
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mail_mu_);
      wake = mailbox_.empty();
      mailbox_.emplace_back(conn_id, std::move(line));
    }
    if (wake) {
      const uint64_t one = 1;
      [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof(one));
    }
  };
  const Admission a = runtime_->Submit(it->second.rid, std::move(r), std::move(done));
  switch (a) {
    case Admission::kAccepted:
      ++c->in_flight;
      return;
    case Admission::kQueueFull:
      SendError(c, req.id, errors::kBusy, "too many requests queued for this session; retry");
      return;
    case Admission::kShutDown:
      SendError(c, req.id, errors::kShuttingDown, "the daemon is stopping");
      return;
    case Admission::kUnknownSession:
      SendError(c, req.id, errors::kUnknownSession, "session closed");
      return;
    case Admission::kInvalid:
      SendError(c, req.id, errors::kBadRequest, "request out of range");
      return;
  }
}

void ConcreteServer::DeliverMailbox() {
  {
    std::lock_guard<std::mutex> lock(mail_mu_);
    delivering_.swap(mailbox_);
  }
  for (auto& [conn_id, line] : delivering_) {
    auto it = conns_.find(conn_id);
    if (it == conns_.end()) continue;  // the client has gone: drop its late responses
    Conn* c = it->second.get();
    --c->in_flight;
    Send(c, line);
  }
  for (auto& [conn_id, line] : delivering_) {
    auto it = conns_.find(conn_id);
    if (it == conns_.end()) continue;
    Flush(it->second.get());
    MaybeClose(it->second.get());
  }
  delivering_.clear();
}

void ConcreteServer::Flush(Conn* c) {
  const bool was_waiting = c->writing;  // answers were already waiting for the client
  bool progress = false;
  while (c->unsent() > 0) {
    const ssize_t n = ::send(c->fd, c->out.data() + c->out_off, c->unsent(), MSG_NOSIGNAL);
    if (n > 0) {
      c->out_off += static_cast<size_t>(n);
      progress = true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    c->eof = true;  // EPIPE or reset: the client has gone
    c->out.clear();
    c->out_off = 0;
    break;
  }
  if (c->out_off == c->out.size()) {
    c->out.clear();
    c->out_off = 0;
  } else if (c->out_off > (1 << 16)) {
    c->out.erase(0, c->out_off);
    c->out_off = 0;
  }
  if (c->unsent() > 0 && (progress || !was_waiting)) c->write_progress = Clock::now();
  // Over the limit, a client that is reading (it took bytes within the last second) is only
  // behind on answers it already asked for: its requests are no longer read (UpdateInterest),
  // so what is still to come is bounded by its in-flight requests, and kOutputSlackBytes
  // bounds even that. One that stopped reading is let go.
  const bool reading =
      Clock::now() - c->write_progress < std::chrono::milliseconds(kReadingWithinMs);
  if (c->unsent() > options_.max_output_bytes &&
      (!reading || c->unsent() > options_.max_output_bytes + kOutputSlackBytes)) {
    slow_disconnects_.fetch_add(1, std::memory_order_relaxed);
    c->eof = true;
    c->out.clear();
    c->out_off = 0;
    c->close_after_flush = true;
  }
  UpdateInterest(c);
}

void ConcreteServer::UpdateInterest(Conn* c) {
  const bool want_read =
      !c->eof && !c->close_after_flush && c->unsent() <= options_.max_output_bytes / 2;
  const bool want_write = c->unsent() > 0;
  if (want_read == c->reading && want_write == c->writing) return;
  epoll_event ev{};
  ev.events = (want_read ? EPOLLIN | EPOLLRDHUP : 0u) | (want_write ? EPOLLOUT : 0u);
  ev.data.u64 = c->id;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c->fd, &ev);
  c->reading = want_read;
  c->writing = want_write;
}

// A connection ends when the client has gone (or was told to go) and nothing is left to
// send; a client that only closed its sending side still gets its pending answers.
void ConcreteServer::MaybeClose(Conn* c) {
  const bool fatal = c->close_after_flush && c->unsent() == 0;
  const bool finished = c->eof && c->in_flight == 0 && c->unsent() == 0;
  if (fatal || finished || c->hung_up) CloseConn(c->id);
}

std::string ConcreteServer::OverBudget(const Conn& c, size_t bytes) const {
  const auto mib = [](size_t b) { return std::to_string(b >> 20) + " MiB"; };
  const size_t budget = options_.session_memory_budget_bytes;
  const size_t mine = c.session_bytes() + bytes;
  if (mine > options_.max_session_bytes_per_client) {
    return "this client's sessions would take more than its share of the daemon's memory (" +
           mib(options_.max_session_bytes_per_client) + "): close one of them first";
  }
  if (session_bytes_used_ + bytes > budget) {
    return "the daemon's session memory budget (" + mib(budget) +
           ") is spent: close a session or retry later";
  }
  // The reserve: the budget's last part is for light clients only, so that however many
  // greedy clients came first, an input method asking for its few sessions still gets them.
  const size_t reserve = options_.light_client_reserve_bytes;
  if (session_bytes_used_ + bytes > budget - reserve && mine > reserve / 4) {
    return "the daemon's session memory budget (" + mib(budget) +
           ") is nearly spent, and its last " + mib(reserve) +
           " are kept for clients with few sessions: close a session or retry later";
  }
  return "";
}

void ConcreteServer::ReleaseSession(const Conn::OpenSession& open) {
  runtime_->CloseSession(open.rid);
  session_bytes_used_ -= open.bytes;
  trim_pending_ = true;
}

void ConcreteServer::CloseConn(uint64_t id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn* c = it->second.get();
  for (const auto& [local, open] : c->sessions) ReleaseSession(open);
  sessions_.fetch_sub(c->sessions.size(), std::memory_order_relaxed);
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, c->fd, nullptr);
  ::close(c->fd);
  conns_.erase(it);
  clients_.store(conns_.size(), std::memory_order_relaxed);
  PauseAccepting(false);  // a descriptor is free again
}

void ConcreteServer::PauseAccepting(bool pause) {
  if (pause == accept_paused_ || listen_fd_ < 0) return;
  epoll_event ev{};
  ev.events = pause ? 0u : static_cast<uint32_t>(EPOLLIN);
  ev.data.u64 = kListenKey;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &ev);
  accept_paused_ = pause;
}

void ConcreteServer::CheckStalled() {
  const Clock::time_point now = Clock::now();
  const int line_ms = options_.partial_line_timeout_ms;
  const int write_ms = options_.write_stall_timeout_ms;
  const int idle_ms = options_.idle_timeout_ms;
  std::vector<uint64_t> half_lines, not_reading, idle;
  for (auto& [id, c] : conns_) {
    if (idle_ms > 0 && c->sessions.empty() && c->in.empty() && c->unsent() == 0 &&
        c->in_flight == 0 && now - c->last_request > std::chrono::milliseconds(idle_ms)) {
      idle.push_back(id);  // holding nothing and saying nothing: its slot goes to others
    } else if (line_ms > 0 && !c->in.empty() &&
               now - c->partial_since > std::chrono::milliseconds(line_ms)) {
      half_lines.push_back(id);
    } else if (write_ms > 0 && c->unsent() > 0 &&
               now - c->write_progress > std::chrono::milliseconds(write_ms)) {
      not_reading.push_back(id);
    }
  }
  for (uint64_t id : half_lines) {
    Conn* c = conns_[id].get();
    slow_disconnects_.fetch_add(1, std::memory_order_relaxed);
    SendError(c, "", errors::kTimeout, "request line left unfinished");
    c->in.clear();
    c->close_after_flush = true;
    Flush(c);
    // Whether or not the error could be written, a stalled client is not kept.
    CloseConn(id);
  }
  for (uint64_t id : idle) {
    Conn* c = conns_[id].get();
    SendError(c, "", errors::kTimeout, "idle connection without sessions closed");
    c->close_after_flush = true;
    Flush(c);
    CloseConn(id);
  }
  for (uint64_t id : not_reading) {  // its answers cannot even be written: just let it go
    slow_disconnects_.fetch_add(1, std::memory_order_relaxed);
    CloseConn(id);
  }
}

const std::string* ConcreteServer::FindLanguage(std::string_view lang) const {
  if (lang.empty()) return &languages_.front();
  for (const std::string& l : languages_) {
    if (l == lang) return &l;
  }
  return nullptr;
}

std::string ConcreteServer::HelloLine(std::string_view id) const {
  std::string line = "{\"id\":";
  line.append(id.empty() ? std::string_view("null") : id);
  line.append(",\"ok\":true,\"server\":\"keydecided\",\"protocol\":");
  line.append(std::to_string(service::kProtocolVersion));
  line.append(",\"version\":\"" KEYDECIDE_VERSION "\",\"language\":");
  service::AppendJsonString(languages_.front(), &line);
  line.append(",\"languages\":[");
  for (size_t i = 0; i < languages_.size(); ++i) {
    if (i > 0) line.push_back(',');
    service::AppendJsonString(languages_[i], &line);
  }
  line.append("],\"scorer\":");
  service::AppendJsonString(scorer_, &line);
  line.append(",\"max_line_bytes\":" + std::to_string(options_.max_line_bytes));
  line.append(",\"max_sessions\":" + std::to_string(options_.max_sessions_per_client));
  line.append("}\n");
  return line;
}

std::string ConcreteServer::StatsLine(std::string_view id) const {
  const Stats st = stats();
  const Runtime::Stats& rt = st.runtime;
  std::string line = "{\"id\":";
  line.append(id.empty() ? std::string_view("null") : id);
  auto field = [&](const char* name, uint64_t v) {
    line.append(",\"");
    line.append(name);
    line.append("\":");
    line.append(std::to_string(v));
  };
  line.append(",\"ok\":true");
  field("clients", st.clients);
  field("sessions", st.sessions);
  field("session_memory_bytes", st.session_bytes);
  field("connections", st.connections);
  field("refused_peers", st.refused_peers);
  field("requests", st.requests);
  field("protocol_errors", st.protocol_errors);
  field("slow_disconnects", st.slow_disconnects);
  field("decisions", rt.decisions);
  field("superseded", rt.superseded);
  field("passes", rt.passes);
  field("rejected", rt.rejected);
  field("tier_changes", rt.tier_changes);
  line.append(",\"tier\":\"");
  line.append(TierName(rt.tier));
  line.append("\",\"tier_decisions\":{");
  for (int t = 0; t < 4; ++t) {
    if (t > 0) line.push_back(',');
    line.append("\"");
    line.append(TierName(static_cast<Tier>(t)));
    line.append("\":" + std::to_string(rt.tier_decisions[t]));
  }
  line.append("},\"window_p50_us\":" + std::to_string(rt.window_p50_us));
  line.append(",\"window_p90_us\":" + std::to_string(rt.window_p90_us));
  line.append(",\"languages\":{");
  for (size_t i = 0; i < rt.languages.size(); ++i) {
    const Runtime::Stats::Language& l = rt.languages[i];
    if (i > 0) line.push_back(',');
    service::AppendJsonString(l.language, &line);
    line.append(":{\"sessions\":" + std::to_string(l.sessions));
    line.append(",\"decisions\":" + std::to_string(l.decisions));
    line.append(",\"tier\":\"");
    line.append(TierName(l.tier));
    line.append("\",\"tier_changes\":" + std::to_string(l.tier_changes));
    line.append(",\"window_p50_us\":" + std::to_string(l.window_p50_us));
    line.append(",\"window_p90_us\":" + std::to_string(l.window_p90_us));
    line.push_back('}');
  }
  line.append("}}\n");
  return line;
}

}  // namespace

std::string DefaultSocketPath() {
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/keydecided.sock";
  return "/tmp/keydecide-" + std::to_string(::geteuid()) + "/keydecided.sock";
}

Status ParseLanguageList(std::string_view list, std::vector<std::string>* out) {
  std::vector<std::string> names;
  size_t start = 0;
  for (;;) {
    const size_t comma = std::min(list.find(',', start), list.size());
    std::string_view name = list.substr(start, comma - start);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.empty()) {
      return Status::InvalidArgument("empty language in the list '" + std::string(list) + "'");
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return Status::InvalidArgument("language '" + std::string(name) + "' is listed twice");
    }
    names.emplace_back(name);
    if (comma == list.size()) break;
    start = comma + 1;
  }
  *out = std::move(names);
  return Status::OK();
}

Status OpenLanguageEngines(const EngineOptions& options, const std::vector<std::string>& languages,
                           std::vector<std::unique_ptr<Engine>>* out) {
  if (languages.empty()) return Status::InvalidArgument("no language");
  std::vector<std::unique_ptr<Engine>> engines;
  for (size_t i = 0; i < languages.size(); ++i) {
    EngineOptions o = options;
    o.language = languages[i];
    if (i > 0) {  // the explicit files are the first language's
      o.lexicon_path.clear();
      if (o.model_path != "none") o.model_path.clear();
    }
    std::unique_ptr<Engine> engine;
    const Status s = Engine::Open(o, &engine);
    if (!s.ok()) {  // name the language, unless the message does already
      const std::string quoted = "'" + languages[i] + "'";
      return s.message().find(quoted) != std::string::npos ? s : s.Annotated("language " + quoted);
    }
    engines.push_back(std::move(engine));
  }
  *out = std::move(engines);
  return Status::OK();
}

Status Server::Start(const Engine* engine, const ServerOptions& options,
                     std::unique_ptr<Server>* out) {
  if (engine == nullptr) return Status::InvalidArgument("no engine");
  return Start(std::vector<const Engine*>{engine}, options, out);
}

Status Server::Start(const std::vector<const Engine*>& engines, const ServerOptions& options,
                     std::unique_ptr<Server>* out) {
  if (engines.empty()) return Status::InvalidArgument("no engine");
  for (const Engine* e : engines) {
    if (e == nullptr) return Status::InvalidArgument("no engine");
  }
  auto server = std::make_unique<ConcreteServer>(engines, options);
  KD_RETURN_IF_ERROR(server->Init());
  *out = std::move(server);
  return Status::OK();
}

}  // namespace keydecide
