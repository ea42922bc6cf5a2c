// Server: the keydecided daemon's core, usable in-process (tests, `keydecide loadtest`).
// It listens on a Unix socket, checks each peer's uid, speaks newline-delimited JSON
// (docs/PROTOCOL.md) and feeds one Runtime over one shared Engine per language, so every
// client uses the same mapped models and lexicons; `open_session` picks the language.
//
//   std::unique_ptr<keydecide::Server> server;
//   Status s = keydecide::Server::Start(engine.get(), keydecide::ServerOptions(), &server);
//   // or, several languages (the first is the default): Server::Start({en, zh}, ...)
//   ...                 // clients connect to server->socket_path()
//   server->Stop();     // from any thread, e.g. on SIGTERM
//   server->Wait();
//
// Thread-safety: Stop, Wait, socket_path and stats may be called from any thread. The
// Engines must outlive the Server.

#ifndef KEYDECIDE_SERVICE_H_
#define KEYDECIDE_SERVICE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/export.h"
#include "keydecide/options.h"
#include "keydecide/runtime.h"
#include "keydecide/status.h"

namespace keydecide {

class Engine;

struct ServerOptions {
  // --- Behaviour ---

  // Socket path. Empty: DefaultSocketPath().
  std::string socket_path;

  // Peer uid allowed to connect (SO_PEERCRED). -1: the daemon's own effective uid.
  // Others get a permission_denied line and are disconnected.
  int64_t allowed_uid = -1;

  // Longest request line in bytes (newline excluded). A longer one gets line_too_long and
  // the connection is closed (the rest of the line cannot be trusted to be a request).
  size_t max_line_bytes = 64 * 1024;

  // Connected clients; one more gets too_many_clients and is disconnected.
  size_t max_clients = 1024;

  // Sessions one client may hold open; open_session beyond gets too_many_sessions.
  size_t max_sessions_per_client = 32;

  // Memory all open sessions may take, in bytes: each costs what one session of its language
  // allocated when the daemon started (English with the model ~0.9 MB, Chinese ~3 MB).
  // open_session beyond gets over_budget (retry after others close). With the engines'
  // mapped files and buffers the daemon stays under 512 MB however clients behave.
  size_t session_memory_budget_bytes = size_t{384} << 20;

  // Memory one client's sessions may take together, so that a few greedy clients cannot
  // spend the whole budget: 48 MiB, an eighth of it (about 40 English or 15 Chinese
  // sessions). open_session beyond gets over_budget.
  size_t max_session_bytes_per_client = size_t{48} << 20;

  // The last part of the budget, which only light clients may take: those whose sessions,
  // with the new one, stay within a quarter of the reserve (8 MiB: an input method's English
  // and Chinese sessions). However many greedy clients came first, at least four light ones
  // still open their sessions. 0: no reserve. REQUIRES: at most the budget.
  size_t light_client_reserve_bytes = size_t{32} << 20;

  // --- Performance and robustness ---

  // Responses a client has not read yet, in bytes. Past half of this the daemon stops
  // reading that client's requests; past all of it the client is too slow and is
  // disconnected.
  size_t max_output_bytes = 4 << 20;

  // A client that leaves half a request line unfinished this long is disconnected.
  // 0: never.
  int partial_line_timeout_ms = 10000;

  // A client that takes none of its pending answers this long (it stopped reading, or its
  // process is frozen) is disconnected. 0: never.
  int write_stall_timeout_ms = 10000;

  // A connection that holds no session and sends no request this long is closed, so that
  // idle connections cannot take every client slot (max_clients). One with a session open
  // is kept however long the person pauses. 0: never.
  int idle_timeout_ms = 60000;

  // The worker queue and latency governor behind the socket.
  RuntimeOptions runtime;
};

// $XDG_RUNTIME_DIR/keydecided.sock when XDG_RUNTIME_DIR is set and absolute, else
// /tmp/keydecide-<uid>/keydecided.sock (Start creates that folder with mode 0700 and
// refuses it if it is not a folder owned by this uid and closed to others).
KD_API std::string DefaultSocketPath();

// Several languages at once (keydecided --lang, kd_engine_open's language list).
//
// Splits a comma-separated list such as "en,zh" (spaces around names ignored) into *out,
// in order. InvalidArgument (and *out untouched) for an empty list or name, or a name
// given twice.
KD_API Status ParseLanguageList(std::string_view list, std::vector<std::string>* out);

// Opens one Engine per language of `languages`, in order, into *out. Every language gets
// `options`, except that options.lexicon_path and a model file in options.model_path apply
// to the first language only: the others use their own pack's files (a model_path of
// "none" applies to every language). On failure returns the first error, its message
// naming the language, and leaves *out untouched. REQUIRES: languages is not empty.
KD_API Status OpenLanguageEngines(const EngineOptions& options, const std::vector<std::string>& languages,
                           std::vector<std::unique_ptr<Engine>>* out);

class KD_API Server {
 public:
  struct Stats {
    uint64_t connections = 0;       // accepted over the lifetime
    uint64_t refused_peers = 0;     // wrong uid, or too many clients
    size_t clients = 0;             // connected now
    size_t sessions = 0;            // open now, all clients
    size_t session_bytes = 0;       // their shares of the session memory budget
    uint64_t requests = 0;          // request lines handled
    uint64_t protocol_errors = 0;   // lines answered with an error
    uint64_t slow_disconnects = 0;  // clients dropped for not reading or a stalled line
    Runtime::Stats runtime;
  };

  // Creates the socket (mode 0600), the runtime and the event-loop thread, serving the
  // language of `engine`. On failure (socket path unusable or already served by a live
  // daemon, bad options) returns the reason and leaves *out untouched; a stale socket file
  // of a dead daemon is replaced.
  static Status Start(const Engine* engine, const ServerOptions& options,
                      std::unique_ptr<Server>* out);

  // The same, serving one engine per language (Engine::Info::language; distinct). The
  // first is the default language: `hello` reports it as "language", and an `open_session`
  // without "lang" gets it. InvalidArgument for no engine, a null one or a language twice.
  static Status Start(const std::vector<const Engine*>& engines, const ServerOptions& options,
                      std::unique_ptr<Server>* out);

  // Stops (if not yet) and waits.
  virtual ~Server() = default;

  // Asks the event loop to stop: the listening socket is closed and removed, requests
  // already accepted are answered, then every client is disconnected. Returns at once.
  virtual void Stop() = 0;
  // Blocks until the event loop has stopped.
  virtual void Wait() = 0;

  virtual const std::string& socket_path() const = 0;
  virtual Stats stats() const = 0;
};

}  // namespace keydecide

#endif  // KEYDECIDE_SERVICE_H_
