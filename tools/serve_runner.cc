#include "tools/serve_runner.h"

#include <signal.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace keydecide {

namespace {

// The default languages: "en", which must open, and "zh" if its pack is there. A zh pack
// that is there but does not open is reported and left out.
Status OpenDefaultEngines(const EngineOptions& options, bool quiet,
                          std::vector<std::unique_ptr<Engine>>* out) {
  KD_RETURN_IF_ERROR(OpenLanguageEngines(options, {"en"}, out));
  EngineOptions zh = options;  // as OpenLanguageEngines treats a second language
  zh.language = "zh";
  zh.lexicon_path.clear();
  if (zh.model_path != "none") zh.model_path.clear();
  std::unique_ptr<Engine> engine;
  const Status s = Engine::Open(zh, &engine);
  if (s.ok()) {
    out->push_back(std::move(engine));
  } else if (s.code() != Status::Code::kNotFound && !quiet) {
    std::fprintf(stderr, "keydecided: not serving zh: %s\n", s.ToString().c_str());
  }
  return Status::OK();
}

}  // namespace

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
  cmd->add_option("--memory-budget-mib", budget_mib,
                  "Memory all open sessions may take (docs/PROTOCOL.md, Memory)")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--client-memory-mib", client_mib, "Memory one client's sessions may take")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--light-reserve-mib", reserve_mib,
                  "The budget's last part, kept for clients with few sessions (0: none)")
      ->check(CLI::Range(0, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--max-line-bytes", server.max_line_bytes, "Longest request line")
      ->check(CLI::Range(64, 16 << 20))
      ->capture_default_str();
  cmd->add_flag("--quiet", quiet, "Print nothing but errors");
  cmd->add_flag("--personal", personal,
                "Learn the person's words into the user store and rank with them (English)");
  cmd->add_option("--store", user_store,
                  "With --personal: the user store (default: $XDG_DATA_HOME/keydecide/user.db)");
  cmd->add_flag("--pause-learning", paused, "With --personal: rank with the store, learn nothing");
  cmd->add_flag("--fine-tune", fine_tune,
                "With --personal: fine-tune the model to the person in the background (English; "
                "docs/PERSONAL.md)");
}

int RunServer(const EngineOptions& given_options, const std::string& languages,
              const ServeFlags& flags) {
  EngineOptions engine_options = given_options;
  engine_options.personal = flags.personal;
  engine_options.user_store_path = flags.user_store;
  engine_options.learn = !flags.paused;
  engine_options.fine_tune = flags.fine_tune;
  // Block the stop signals before any thread exists; this thread then waits for them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  std::vector<std::unique_ptr<Engine>> engines;
  Status s;
  if (languages.empty()) {
    s = OpenDefaultEngines(engine_options, flags.quiet, &engines);
  } else {
    std::vector<std::string> list;
    s = ParseLanguageList(languages, &list);
    if (s.ok()) s = OpenLanguageEngines(engine_options, list, &engines);
  }
  if (!s.ok()) {
    std::fprintf(stderr, "keydecided: cannot open the engine: %s\n", s.ToString().c_str());
    return 1;
  }
  std::vector<const Engine*> served;
  std::string names;  // "en (model), zh (lexicon)"
  for (const auto& e : engines) {
    served.push_back(e.get());
    const Engine::Info info = e->info();
    names += (names.empty() ? "" : ", ") + info.language + " (" + info.scorer + ")";
  }
  std::unique_ptr<Server> server;
  ServerOptions server_options = flags.server;
  server_options.session_memory_budget_bytes = flags.budget_mib << 20;
  server_options.max_session_bytes_per_client = flags.client_mib << 20;
  server_options.light_client_reserve_bytes = flags.reserve_mib << 20;
  s = Server::Start(served, server_options, &server);
  if (!s.ok()) {
    std::fprintf(stderr, "keydecided: cannot start: %s\n", s.ToString().c_str());
    return 1;
  }
  if (!flags.quiet) {
    std::fprintf(stderr, "keydecided: listening on %s (languages %s)\n",
                 server->socket_path().c_str(), names.c_str());
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
