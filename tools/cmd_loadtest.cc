// keydecide loadtest: N clients type M keys each through the daemon's socket, then the
// same keys go through the in-process Runtime in the same run, so the IPC overhead is a
// measured difference. Also measures a coalesced burst of keys against separate decisions
// and the daemon's RSS with and without the clients.
//
// Every client is closed-loop (one request in flight): latency is from writing the request
// to reading its response; throughput is all decisions over the phase's wall time.

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "keydecide/runtime.h"
#include "keydecide/service.h"
#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/proc_status.h"
#include "tools/serve_runner.h"
#include "tools/text_file.h"

namespace keydecide {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kFallbackText =
    "see you tomorrow at the station. we will meet the team after lunch and talk about the "
    "new plans for the week. thanks for your message, i will call you back in the evening.";

struct Percentiles {
  double p50 = 0, p95 = 0, p99 = 0, mean = 0;
  size_t n = 0;
};

Percentiles Summarise(std::vector<float> v) {
  Percentiles p;
  p.n = v.size();
  if (v.empty()) return p;
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))]; };
  p.p50 = at(0.50);
  p.p95 = at(0.95);
  p.p99 = at(0.99);
  double sum = 0;
  for (float x : v) sum += x;
  p.mean = sum / static_cast<double>(v.size());
  return p;
}

// The keys of one client: a stretch of the text starting at a different place per client,
// one UTF-8 character per key, white space as a plain space.
std::vector<std::string> KeysFor(const std::string& text, int client, int clients, int keys) {
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(keys));
  size_t pos =
      text.size() / static_cast<size_t>(std::max(clients, 1)) * static_cast<size_t>(client);
  while (static_cast<int>(out.size()) < keys) {
    if (pos >= text.size()) pos = 0;
    size_t len = 1;
    const unsigned char c = static_cast<unsigned char>(text[pos]);
    if (c >= 0xF0)
      len = 4;
    else if (c >= 0xE0)
      len = 3;
    else if (c >= 0xC0)
      len = 2;
    if (c >= 0x80 && c < 0xC0) {  // a continuation byte: not a character start
      ++pos;
      continue;
    }
    std::string key = text.substr(pos, len);
    if (key == "\n" || key == "\t" || key == "\r") key = " ";
    out.push_back(key);
    pos += len;
  }
  return out;
}

// A blocking line client of the daemon.
class LineClient {
 public:
  ~LineClient() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool Connect(const std::string& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (fd_ < 0 || path.size() >= sizeof(addr.sun_path)) return false;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    return ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  }
  // Sends one line and reads one line back. False if the connection broke.
  bool Call(const std::string& line, std::string* reply) { return Send(line) && ReadLine(reply); }
  bool Send(const std::string& bytes) {
    size_t off = 0;
    while (off < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return false;
      off += static_cast<size_t>(n);
    }
    return true;
  }
  bool ReadLine(std::string* reply) {
    for (;;) {
      const size_t nl = buf_.find('\n');
      if (nl != std::string::npos) {
        reply->assign(buf_, 0, nl);
        buf_.erase(0, nl + 1);
        return true;
      }
      char tmp[8192];
      const ssize_t n = ::recv(fd_, tmp, sizeof(tmp), 0);
      if (n <= 0) return false;
      buf_.append(tmp, static_cast<size_t>(n));
    }
  }
  // The daemon's pid (SO_PEERCRED), for its RSS.
  pid_t PeerPid() const {
    ucred cred{};
    socklen_t len = sizeof(cred);
    return ::getsockopt(fd_, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 ? cred.pid : -1;
  }

 private:
  int fd_ = -1;
  std::string buf_;
};

double RssMiB(pid_t pid) { return ProcStatusKb("VmRSS", pid) / 1024.0; }

std::string KeyLine(const std::string& key, int k) {
  return "{\"op\":\"key\",\"session\":1,\"k\":" + std::to_string(k) +
         ",\"text\":" + nlohmann::json(key).dump() + "}\n";
}

struct PhaseResult {
  Percentiles latency;  // per request, or per burst with --pipeline
  double seconds = 0;
  size_t keys = 0;
  size_t decisions = 0;   // answers with a decision
  size_t superseded = 0;  // answers coalesced into a newer decision
  size_t errors = 0;
  double throughput() const { return seconds > 0 ? static_cast<double>(decisions) / seconds : 0; }
  double keys_per_s() const { return seconds > 0 ? static_cast<double>(keys) / seconds : 0; }
};

struct RssReport {
  double idle = 0;           // MiB, before any of our clients connected
  double with_clients = 0;   // all clients connected (hello answered), no sessions
  double with_sessions = 0;  // and each with an open session
};

PhaseResult SocketPhase(const std::string& path, const std::vector<std::vector<std::string>>& keys,
                        int k, int pipeline, RssReport* rss) {
  const int clients = static_cast<int>(keys.size());
  std::vector<std::unique_ptr<LineClient>> conns(static_cast<size_t>(clients));
  PhaseResult result;
  pid_t daemon = -1;
  for (int c = 0; c < clients; ++c) {
    conns[c] = std::make_unique<LineClient>();
    std::string reply;
    if (!conns[c]->Connect(path)) {
      Die(1, "IOError", "loadtest", "cannot connect to " + path);
    }
    if (c == 0) {
      daemon = conns[c]->PeerPid();
      rss->idle = RssMiB(daemon);
    }
    if (!conns[c]->Call("{\"op\":\"hello\"}\n", &reply) ||
        reply.find("\"ok\":true") == std::string::npos) {
      Die(1, "IOError", "loadtest", "hello failed: " + reply);
    }
  }
  rss->with_clients = RssMiB(daemon);
  for (int c = 0; c < clients; ++c) {
    std::string reply;
    if (!conns[c]->Call("{\"op\":\"open_session\",\"app\":\"chat\"}\n", &reply) ||
        reply.find("\"ok\":true") == std::string::npos) {
      Die(1, "IOError", "loadtest", "open_session failed: " + reply);
    }
  }
  rss->with_sessions = RssMiB(daemon);
  std::vector<std::vector<float>> lat(static_cast<size_t>(clients));
  std::atomic<size_t> errors{0}, decided{0}, superseded{0};
  std::vector<std::thread> threads;
  const Clock::time_point t0 = Clock::now();
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      std::string reply, burst;
      lat[c].reserve(keys[c].size());
      const size_t n_keys = keys[c].size();
      for (size_t i = 0; i < n_keys; i += static_cast<size_t>(pipeline)) {
        const size_t n = std::min(static_cast<size_t>(pipeline), n_keys - i);
        burst.clear();
        for (size_t j = 0; j < n; ++j) burst += KeyLine(keys[c][i + j], k);
        const Clock::time_point a = Clock::now();
        if (!conns[c]->Send(burst)) {
          errors.fetch_add(1);
          return;
        }
        for (size_t j = 0; j < n; ++j) {
          if (!conns[c]->ReadLine(&reply)) {
            errors.fetch_add(1);
            return;
          }
          if (reply.find("\"outcome\":\"decided\"") != std::string::npos) {
            decided.fetch_add(1);
          } else if (reply.find("\"outcome\":\"superseded\"") != std::string::npos) {
            superseded.fetch_add(1);
          } else {
            errors.fetch_add(1);
          }
        }
        lat[c].push_back(std::chrono::duration<float, std::micro>(Clock::now() - a).count());
      }
    });
  }
  for (auto& t : threads) t.join();
  result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::vector<float> all;
  for (auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  for (const auto& v : keys) result.keys += v.size();
  result.decisions = decided.load();
  result.superseded = superseded.load();
  result.errors = errors.load();
  result.latency = Summarise(std::move(all));
  return result;
}

// Submits and waits, from one thread.
class Waiter {
 public:
  ResponseCallback Callback() {
    return [this](const Response& r) {
      std::lock_guard<std::mutex> lock(mu_);
      if (r.outcome == Outcome::kDecided) {
        ++decided_;
        worker_us_ += r.service_us;  // one decided response per worker pass
      }
      if (r.outcome == Outcome::kSuperseded) ++superseded_;
      ++done_;
      cv_.notify_one();
    };
  }
  void WaitFor(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return done_ >= n; });
  }
  int decided() {
    std::lock_guard<std::mutex> lock(mu_);
    return decided_;
  }
  int superseded() {
    std::lock_guard<std::mutex> lock(mu_);
    return superseded_;
  }
  // Worker time spent on the requests of this waiter (edits applied and decisions made).
  float worker_us() {
    std::lock_guard<std::mutex> lock(mu_);
    return worker_us_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int done_ = 0, decided_ = 0, superseded_ = 0;
  float worker_us_ = 0;
};

Request KeyRequest(const std::string& key, int k) {
  Request r;
  r.kind = RequestKind::kType;
  r.text = key;
  r.max_candidates = k;
  return r;
}

PhaseResult InProcessPhase(Runtime* rt, const std::vector<std::vector<std::string>>& keys, int k,
                           int pipeline) {
  const int clients = static_cast<int>(keys.size());
  std::vector<std::vector<float>> lat(static_cast<size_t>(clients));
  std::vector<Runtime::SessionId> ids(static_cast<size_t>(clients));
  for (auto& id : ids) CheckOrDie(rt->OpenSession({}, &id), "open session");
  std::vector<std::thread> threads;
  std::atomic<size_t> errors{0}, decided{0}, superseded{0};
  const Clock::time_point t0 = Clock::now();
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      Waiter w;
      int n = 0;
      const size_t n_keys = keys[c].size();
      for (size_t i = 0; i < n_keys; i += static_cast<size_t>(pipeline)) {
        const size_t burst = std::min(static_cast<size_t>(pipeline), n_keys - i);
        const Clock::time_point a = Clock::now();
        for (size_t j = 0; j < burst; ++j) {
          if (rt->Submit(ids[c], KeyRequest(keys[c][i + j], k), w.Callback()) !=
              Admission::kAccepted) {
            errors.fetch_add(1);
            continue;
          }
          ++n;
        }
        w.WaitFor(n);
        lat[c].push_back(std::chrono::duration<float, std::micro>(Clock::now() - a).count());
      }
      decided.fetch_add(static_cast<size_t>(w.decided()));
      superseded.fetch_add(static_cast<size_t>(w.superseded()));
      if (w.decided() + w.superseded() != n) {
        errors.fetch_add(static_cast<size_t>(n - w.decided() - w.superseded()));
      }
    });
  }
  for (auto& t : threads) t.join();
  PhaseResult result;
  result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  for (auto id : ids) rt->CloseSession(id);
  std::vector<float> all;
  for (auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  for (const auto& v : keys) result.keys += v.size();
  result.decisions = decided.load();
  result.superseded = superseded.load();
  result.errors = errors.load();
  result.latency = Summarise(std::move(all));
  return result;
}

// The engine alone: each client's keys typed straight into a Session on this thread (no
// queue, no thread hand-off), so the runtime's own cost is a measured difference too.
PhaseResult DirectPhase(const Engine& engine, const std::vector<std::vector<std::string>>& keys,
                        int k) {
  std::vector<float> all;
  Decision d;
  const Clock::time_point t0 = Clock::now();
  for (const auto& client : keys) {
    auto session = engine.NewSession({});
    for (const std::string& key : client) {
      const Clock::time_point a = Clock::now();
      session->Type(key);
      session->Decide(k, &d);
      all.push_back(std::chrono::duration<float, std::micro>(Clock::now() - a).count());
    }
  }
  PhaseResult result;
  result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  result.decisions = all.size();
  result.keys = all.size();
  result.latency = Summarise(std::move(all));
  return result;
}

struct BurstResult {
  Percentiles burst_us;         // a burst of `burst` keys submitted at once, until all answered
  Percentiles three_us;         // three keys one after the other, each waited for
  Percentiles burst_worker_us;  // worker time (edits + decisions) of a burst
  Percentiles three_worker_us;  // worker time of three separate decisions
  double decisions_per_burst = 0;
};

BurstResult BurstPhase(Runtime* rt, const std::vector<std::string>& keys, int burst, int rounds,
                       int k) {
  BurstResult out;
  Runtime::SessionId id;
  CheckOrDie(rt->OpenSession({}, &id), "open session");
  std::vector<float> bursts, threes, burst_work, three_work;
  size_t next = 0;
  auto key = [&] { return keys[next++ % keys.size()]; };
  const uint64_t decisions_before = rt->stats().decisions;
  for (int r = 0; r < rounds; ++r) {
    Waiter w;
    const Clock::time_point a = Clock::now();
    for (int i = 0; i < burst; ++i) rt->Submit(id, KeyRequest(key(), k), w.Callback());
    w.WaitFor(burst);
    bursts.push_back(std::chrono::duration<float, std::micro>(Clock::now() - a).count());
    burst_work.push_back(w.worker_us());
  }
  const uint64_t burst_decisions = rt->stats().decisions - decisions_before;
  for (int r = 0; r < rounds; ++r) {
    Waiter w;
    const Clock::time_point a = Clock::now();
    for (int i = 1; i <= 3; ++i) {
      rt->Submit(id, KeyRequest(key(), k), w.Callback());
      w.WaitFor(i);
    }
    threes.push_back(std::chrono::duration<float, std::micro>(Clock::now() - a).count());
    three_work.push_back(w.worker_us());
  }
  rt->CloseSession(id);
  out.burst_us = Summarise(std::move(bursts));
  out.three_us = Summarise(std::move(threes));
  out.burst_worker_us = Summarise(std::move(burst_work));
  out.three_worker_us = Summarise(std::move(three_work));
  out.decisions_per_burst = static_cast<double>(burst_decisions) / std::max(rounds, 1);
  return out;
}

// A well-behaved typist against greedy clients: while it types its keys one at a time, each
// greedy client (its own connection and thread) opens every session it may (32, until
// refused), sends a key into each at once, reads the answers, and after kGreedyRounds such
// rounds closes them all and starts again: the daemon's queue holds a burst of every greedy
// client's sessions, and its session memory is under churn at its budget. The typist's session is
// opened first; it types a key every `interval_ms` (a person's pace), or back to back with 0.
constexpr int kGreedyRounds = 20;

struct FloodResult {
  Percentiles typist_us;
  size_t typist_errors = 0;
  uint64_t greedy_opened = 0, greedy_refused = 0, greedy_keys = 0;
  int greedy_connected = 0;
  double rss_idle_mib = 0, rss_peak_mib = 0, rss_after_mib = 0;
};

FloodResult FloodPhase(const std::string& path, const std::vector<std::string>& keys, int greedy,
                       int k, int interval_ms) {
  FloodResult result;
  LineClient typist;
  std::string reply;
  if (!typist.Connect(path) || !typist.Call("{\"op\":\"open_session\"}\n", &reply) ||
      reply.find("\"ok\":true") == std::string::npos) {
    Die(1, "IOError", "loadtest", "the typist cannot open a session: " + reply);
  }
  const pid_t daemon = typist.PeerPid();
  result.rss_idle_mib = result.rss_peak_mib = RssMiB(daemon);
  std::atomic<bool> done{false};
  std::atomic<uint64_t> opened{0}, refused{0}, typed{0};
  std::atomic<int> connected{0};  // greedy clients that got in (a refused one does not count)
  std::vector<std::thread> threads;
  for (int g = 0; g < greedy; ++g) {
    threads.emplace_back([&] {
      LineClient c;
      if (!c.Connect(path)) return;
      connected.fetch_add(1);
      std::string answer, burst;
      while (!done.load(std::memory_order_relaxed)) {
        std::vector<std::string> ids;
        for (int s = 0; s < 32; ++s) {
          if (!c.Call("{\"op\":\"open_session\"}\n", &answer)) return;
          const size_t at = answer.find("\"session\":");
          if (answer.find("\"ok\":true") == std::string::npos || at == std::string::npos) {
            refused.fetch_add(1);
            break;
          }
          opened.fetch_add(1);
          ids.push_back(answer.substr(at + 10, answer.find_first_of(",}", at) - at - 10));
        }
        // Rounds of one key into every session, sent at once (so that all of them wait in
        // the daemon's queue together), then the answers read.
        for (int round = 0; round < kGreedyRounds && !done.load(std::memory_order_relaxed);
             ++round) {
          burst.clear();
          for (const std::string& id : ids) {
            burst += "{\"op\":\"key\",\"session\":" + id + ",\"text\":\"a\"}\n";
          }
          if (!c.Send(burst)) return;
          for (size_t i = 0; i < ids.size(); ++i) {
            if (!c.ReadLine(&answer)) return;
          }
          typed.fetch_add(ids.size());
        }
        for (const std::string& id : ids) {
          if (!c.Call("{\"op\":\"close_session\",\"session\":" + id + "}\n", &answer)) return;
        }
      }
    });
  }
  std::vector<float> lat;
  lat.reserve(keys.size());
  Clock::time_point next = Clock::now();
  for (size_t i = 0; i < keys.size(); ++i) {
    std::this_thread::sleep_until(next);
    next += std::chrono::milliseconds(interval_ms);
    const Clock::time_point a = Clock::now();
    if (!typist.Call(KeyLine(keys[i], k), &reply) ||
        reply.find("\"ok\":true") == std::string::npos) {
      ++result.typist_errors;
      continue;
    }
    lat.push_back(std::chrono::duration<float, std::micro>(Clock::now() - a).count());
    if (i % 25 == 0) result.rss_peak_mib = std::max(result.rss_peak_mib, RssMiB(daemon));
  }
  done.store(true);
  for (auto& t : threads) t.join();
  // Every greedy session is closed now; the daemon gives memory back at its next tick.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  result.rss_after_mib = RssMiB(daemon);
  result.typist_us = Summarise(std::move(lat));
  result.greedy_opened = opened.load();
  result.greedy_refused = refused.load();
  result.greedy_keys = typed.load();
  result.greedy_connected = connected.load();
  return result;
}

nlohmann::json ToJson(const PhaseResult& r) {
  return {{"keys", r.keys},
          {"keys_per_s", r.keys_per_s()},
          {"superseded", r.superseded},
          {"decisions", r.decisions},
          {"errors", r.errors},
          {"seconds", r.seconds},
          {"decisions_per_s", r.throughput()},
          {"p50_us", r.latency.p50},
          {"p95_us", r.latency.p95},
          {"p99_us", r.latency.p99},
          {"mean_us", r.latency.mean}};
}

}  // namespace

void AddLoadtestCommand(CLI::App* app) {
  struct Args {
    EngineFlags engine;
    int clients = 16;
    int keys = 500;
    int k = 3;
    int workers = 1;
    int spin_us = ServeFlags::kDefaultSpinUs;  // as keydecided
    float budget_us = GovernorOptions().budget_us;
    std::string socket;
    std::string text;
    int burst = 10;
    int pipeline = 1;
    int burst_rounds = 300;
    int greedy = 0;
    int typist_interval_ms = 100;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app->add_subcommand(
      "loadtest", "Clients typing through the daemon's socket and in-process, in one run");
  args->engine.AddTo(cmd);
  cmd->add_option("--clients", args->clients, "Concurrent clients")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--keys", args->keys, "Keys per client")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  cmd->add_option("-k,--candidates", args->k, "Candidates per decision")
      ->check(CLI::Range(0, 20))
      ->capture_default_str();
  cmd->add_option("--workers", args->workers, "Inference threads (in-process and own server)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--spin-us", args->spin_us, "Idle worker polls this long before sleeping")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  cmd->add_option("--budget-us", args->budget_us, "Governor budget in µs (0: off)")
      ->capture_default_str();
  cmd->add_option("--socket", args->socket,
                  "Use the daemon listening here (default: start one in this process on a "
                  "temporary socket)");
  cmd->add_option("--text", args->text,
                  "Text the clients type (default: data/en/dev.txt when present)");
  cmd->add_option("--pipeline", args->pipeline,
                  "Keys each client sends before it waits for their answers (1: one at a "
                  "time; more: bursts that the daemon may coalesce)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--burst", args->burst, "Keys in a coalescing burst")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--burst-rounds", args->burst_rounds, "Bursts measured")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  cmd->add_option("--greedy", args->greedy,
                  "Instead of the phases above: one typist types --keys keys while this many "
                  "greedy clients open every session they may, type and close them, over and "
                  "over (the daemon's memory budget under churn)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--typist-interval-ms", args->typist_interval_ms,
                  "With --greedy: the typist's pace, a key every this many ms (0: back to back)")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    std::string text = kFallbackText;
    const std::string text_path =
        !args->text.empty() ? args->text
                            : (std::filesystem::exists("data/en/dev.txt") ? "data/en/dev.txt" : "");
    if (!text_path.empty()) text = ReadOrDie(text_path);
    constexpr size_t kMaxTextBytes = 8 << 20;
    if (text.size() > kMaxTextBytes) text.resize(kMaxTextBytes);
    std::vector<std::vector<std::string>> keys;
    for (int c = 0; c < args->clients; ++c) {
      keys.push_back(KeysFor(text, c, args->clients, args->keys));
    }

    auto engine = args->engine.OpenOrDie();
    RuntimeOptions ro;
    ro.workers = args->workers;
    ro.spin_us = args->spin_us;
    ro.governor.budget_us = args->budget_us;

    // Through the socket: our own server on a temporary socket, or the given daemon.
    std::unique_ptr<Server> server;
    std::string path = args->socket;
    if (path.empty()) {
      path = "/tmp/keydecide-loadtest-" + std::to_string(::getpid()) + ".sock";
      ServerOptions so;
      so.socket_path = path;
      so.runtime = ro;
      so.max_sessions_per_client = args->greedy > 0 ? 32 : 4;  // the greedy ones ask for 32
      CheckOrDie(Server::Start(engine.get(), so, &server), "start the server");
    }
    if (args->greedy > 0) {
      const FloodResult f =
          FloodPhase(path, keys[0], args->greedy, args->k, args->typist_interval_ms);
      if (server) {
        server->Stop();
        server->Wait();
      }
      if (args->json) {
        nlohmann::json out;
        out["scorer"] = engine->info().scorer;
        out["greedy_clients"] = args->greedy;
        out["typist_interval_ms"] = args->typist_interval_ms;
        out["typist"] = {{"keys", f.typist_us.n},     {"errors", f.typist_errors},
                         {"p50_us", f.typist_us.p50}, {"p95_us", f.typist_us.p95},
                         {"p99_us", f.typist_us.p99}, {"mean_us", f.typist_us.mean}};
        out["greedy_connected"] = f.greedy_connected;
        out["greedy"] = {
            {"opened", f.greedy_opened}, {"refused", f.greedy_refused}, {"keys", f.greedy_keys}};
        out["daemon_rss_mib"] = {
            {"idle", f.rss_idle_mib}, {"peak", f.rss_peak_mib}, {"after", f.rss_after_mib}};
        std::cout << out.dump(2) << "\n";
      } else {
        std::printf("scorer %s; a typist's %zu keys (one every %d ms) against %d greedy clients\n",
                    engine->info().scorer.c_str(), f.typist_us.n, args->typist_interval_ms,
                    args->greedy);
        std::printf("typist: P50 %.1f µs, P95 %.1f µs, P99 %.1f µs, mean %.1f µs, errors %zu\n",
                    f.typist_us.p50, f.typist_us.p95, f.typist_us.p99, f.typist_us.mean,
                    f.typist_errors);
        std::printf("greedy: %d connected, %llu sessions opened, %llu refused, %llu keys\n",
                    f.greedy_connected, static_cast<unsigned long long>(f.greedy_opened),
                    static_cast<unsigned long long>(f.greedy_refused),
                    static_cast<unsigned long long>(f.greedy_keys));
        std::printf("daemon RSS: %.1f MiB before, %.1f MiB peak, %.1f MiB after all closed\n",
                    f.rss_idle_mib, f.rss_peak_mib, f.rss_after_mib);
      }
      if (f.typist_errors > 0) throw CLI::RuntimeError(1);
      return;
    }
    RssReport rss;
    const PhaseResult via_socket = SocketPhase(path, keys, args->k, args->pipeline, &rss);
    Tier socket_tier = Tier::kFullModel;
    Runtime::Stats socket_stats;
    if (server) {
      socket_stats = server->stats().runtime;
      socket_tier = socket_stats.tier;
      server->Stop();
      server->Wait();
      server.reset();
    }

    // In-process: the same keys through a Runtime of the same options.
    std::unique_ptr<Runtime> rt;
    CheckOrDie(Runtime::Create(engine.get(), ro, &rt), "start the runtime");
    const PhaseResult in_process = InProcessPhase(rt.get(), keys, args->k, args->pipeline);
    const Tier in_process_tier = rt->stats().tier;
    const PhaseResult direct = DirectPhase(*engine, keys, args->k);
    const Runtime::Stats in_process_stats = rt->stats();
    rt.reset();
    // Bursts against separate decisions, like for like: the governor off, so that both
    // are served by the full tier.
    BurstResult burst;
    if (args->burst_rounds > 0) {
      RuntimeOptions bo = ro;
      bo.governor.budget_us = 0;
      CheckOrDie(Runtime::Create(engine.get(), bo, &rt), "start the runtime");
      burst = BurstPhase(rt.get(), keys[0], args->burst, args->burst_rounds, args->k);
      rt.reset();
    }
    auto tier_mix = [](const Runtime::Stats& st) {
      std::string mix;
      for (int t = 0; t < 4; ++t) {
        if (st.tier_decisions[t] == 0) continue;
        if (!mix.empty()) mix += ", ";
        mix += std::string(TierName(static_cast<Tier>(t))) + " " +
               std::to_string(st.tier_decisions[t]);
      }
      return mix;
    };

    const Engine::Info info = engine->info();
    if (args->json) {
      nlohmann::json out;
      out["scorer"] = info.scorer;
      out["clients"] = args->clients;
      out["pipeline"] = args->pipeline;
      out["keys_per_client"] = args->keys;
      out["workers"] = args->workers;
      out["spin_us"] = args->spin_us;
      out["external_daemon"] = !args->socket.empty();
      out["socket"] = ToJson(via_socket);
      out["socket"]["final_tier"] = args->socket.empty() ? TierName(socket_tier) : "unknown";
      out["in_process"] = ToJson(in_process);
      out["in_process"]["final_tier"] = TierName(in_process_tier);
      out["in_process"]["tiers"] = tier_mix(in_process_stats);
      out["socket"]["tiers"] = tier_mix(socket_stats);
      out["engine_direct"] = ToJson(direct);
      out["ipc_overhead_us"] = {{"p50", via_socket.latency.p50 - in_process.latency.p50},
                                {"p95", via_socket.latency.p95 - in_process.latency.p95},
                                {"p99", via_socket.latency.p99 - in_process.latency.p99}};
      out["daemon_rss_mib"] = {{"idle", rss.idle},
                               {"with_clients", rss.with_clients},
                               {"with_sessions", rss.with_sessions}};
      out["burst"] = {{"keys", args->burst},
                      {"decisions_per_burst", burst.decisions_per_burst},
                      {"burst_p50_us", burst.burst_us.p50},
                      {"three_separate_p50_us", burst.three_us.p50},
                      {"burst_worker_p50_us", burst.burst_worker_us.p50},
                      {"three_separate_worker_p50_us", burst.three_worker_us.p50}};
      std::cout << out.dump(2) << "\n";
    } else {
      std::printf("scorer %s, %d clients x %d keys, %d worker(s), spin %d µs%s\n",
                  info.scorer.c_str(), args->clients, args->keys, args->workers, args->spin_us,
                  args->socket.empty() ? ", server in this process" : ", external daemon");
      if (args->pipeline > 1) {
        std::printf("latency per burst of %d pipelined keys (send to last answer)\n",
                    args->pipeline);
      }
      std::printf("%-12s %10s %10s %10s %10s %12s %10s %11s %7s\n", "path", "P50 µs", "P95 µs",
                  "P99 µs", "mean µs", "decisions/s", "keys/s", "superseded", "errors");
      for (const auto& [name, r] :
           {std::pair<const char*, const PhaseResult*>{"socket", &via_socket},
            {"in-process", &in_process},
            {"engine", &direct}}) {
        std::printf("%-12s %10.1f %10.1f %10.1f %10.1f %12.0f %10.0f %11zu %7zu\n", name,
                    r->latency.p50, r->latency.p95, r->latency.p99, r->latency.mean,
                    r->throughput(), r->keys_per_s(), r->superseded, r->errors);
      }
      std::printf("(engine: Type + Decide on one thread, sessions one after another; no queue)\n");
      std::printf("IPC overhead: P50 %.1f µs, P95 %.1f µs, P99 %.1f µs\n",
                  via_socket.latency.p50 - in_process.latency.p50,
                  via_socket.latency.p95 - in_process.latency.p95,
                  via_socket.latency.p99 - in_process.latency.p99);
      std::printf(
          "daemon RSS: %.1f MiB idle, %.1f MiB with %d clients connected (%.1f KiB each), "
          "%.1f MiB with a session each (%.1f KiB per session)\n",
          rss.idle, rss.with_clients, args->clients,
          (rss.with_clients - rss.idle) * 1024 / args->clients, rss.with_sessions,
          (rss.with_sessions - rss.with_clients) * 1024 / args->clients);
      if (args->burst_rounds > 0) {
        std::printf(
            "burst of %d keys: P50 %.1f µs wall, %.1f µs worker, %.2f decisions per burst; "
            "3 separate decisions: P50 %.1f µs wall, %.1f µs worker\n",
            args->burst, burst.burst_us.p50, burst.burst_worker_us.p50, burst.decisions_per_burst,
            burst.three_us.p50, burst.three_worker_us.p50);
      }
      std::printf("tiers served: socket [%s], in-process [%s]\n",
                  args->socket.empty() ? tier_mix(socket_stats).c_str() : "external daemon",
                  tier_mix(in_process_stats).c_str());
    }
    if (via_socket.errors + in_process.errors > 0) throw CLI::RuntimeError(1);
  });
}

}  // namespace keydecide
