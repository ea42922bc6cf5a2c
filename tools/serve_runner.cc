#include "tools/serve_runner.h"

#include <signal.h>

#include <cstdio>
#include <memory>

namespace keydecide {

void ServeFlags::AddTo(CLI::App* cmd) {
  cmd->add_option("--socket", server.socket_path,
                  "Socket path (default: $XDG_RUNTIME_DIR/keydecided.sock, else "
                  "/tmp/keydecide-<uid>/keydecided.sock)");
  cmd->add_option("--workers", server.runtime.workers, "Inference threads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--spin-us", server.runtime.spin_us,
                  "Idle worker polls this long before sleeping (0: sleep at once)")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  cmd->add_option("--budget-us", server.runtime.governor.budget_us,
                  "Per-decision latency budget of the governor in µs (0: off)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--max-clients", server.max_clients, "Connected clients at most")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-sessions-per-client", server.max_sessions_per_client,
                  "Open sessions per client at most")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-line-bytes", server.max_line_bytes, "Longest request line")
      ->check(CLI::Range(64, 16 << 20))
      ->capture_default_str();
  cmd->add_flag("--quiet", quiet, "Print nothing but errors");
}

int RunServer(const EngineOptions& engine_options, const ServeFlags& flags) {
  // Block the stop signals before any thread exists; this thread then waits for them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  std::unique_ptr<Engine> engine;
  Status s = Engine::Open(engine_options, &engine);
  if (!s.ok()) {
    std::fprintf(stderr, "keydecided: cannot open the engine: %s\n", s.ToString().c_str());
    return 1;
  }
  std::unique_ptr<Server> server;
  s = Server::Start(engine.get(), flags.server, &server);
  if (!s.ok()) {
    std::fprintf(stderr, "keydecided: cannot start: %s\n", s.ToString().c_str());
    return 1;
  }
  if (!flags.quiet) {
    std::fprintf(stderr, "keydecided: listening on %s (scorer %s)\n", server->socket_path().c_str(),
                 engine->info().scorer.c_str());
  }
  int sig = 0;
  sigwait(&stop_signals, &sig);
  server->Stop();
  server->Wait();
  const Server::Stats st = server->stats();
  if (!flags.quiet) {
    std::fprintf(stderr,
                 "keydecided: stopped on signal %d after %llu connections, %llu requests, "
                 "%llu decisions\n",
                 sig, static_cast<unsigned long long>(st.connections),
                 static_cast<unsigned long long>(st.requests),
                 static_cast<unsigned long long>(st.runtime.decisions));
  }
  server.reset();
  return 0;
}

}  // namespace keydecide
