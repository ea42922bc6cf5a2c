// What `keydecide serve` and `keydecided` share: the daemon's flags and its main loop
// (start the server, wait for SIGTERM/SIGINT, stop cleanly).

#ifndef KEYDECIDE_TOOLS_SERVE_RUNNER_H_
#define KEYDECIDE_TOOLS_SERVE_RUNNER_H_

#include <string>

#include <CLI/CLI.hpp>

#include "keydecide/engine.h"
#include "keydecide/service.h"

namespace keydecide {

struct ServeFlags {
  // The daemon polls briefly before its worker sleeps (RuntimeOptions::spin_us): on the
  // 2-core test machine this takes ~45 µs off each decision's P50
  // (docs/history/BENCHMARKS-to-2026-12-07.md) for at most 50 µs of CPU per keystroke.
  static constexpr int kDefaultSpinUs = 50;

  ServeFlags() { server.runtime.spin_us = kDefaultSpinUs; }

  ServerOptions server;
  bool quiet = false;
  // The person's words (docs/PERSONAL.md): learn into the user store and rank with it (English
  // sessions; a session opened with no_learn learns nothing). `paused`: rank, learn nothing.
  // With personal: fine-tune the model to the person in the background (EngineOptions::fine_tune).
  bool fine_tune = false;
  bool personal = false;
  std::string user_store;  // "": the default store
  bool paused = false;
  // ServerOptions' memory limits in MiB (the flags' unit); applied by RunServer.
  size_t budget_mib = ServerOptions().session_memory_budget_bytes >> 20;
  size_t client_mib = ServerOptions().max_session_bytes_per_client >> 20;
  size_t reserve_mib = ServerOptions().light_client_reserve_bytes >> 20;

  void AddTo(CLI::App* cmd);
};

// The help of the daemon's --lang.
inline constexpr const char* kServeLangHelp =
    "Languages to serve, comma-separated, the first the default (e.g. en,zh); each must "
    "open. Default: en, plus zh when its lexicon <model-dir>/zh/lexicon.kdlex exists. "
    "--lexicon and a --model file apply to the first";

// Opens one engine per language of `languages` (--lang; "" for the default: "en", plus
// "zh" when its pack opens) and serves them until SIGTERM or SIGINT; returns the process
// exit code (0 after a clean stop, 1 when a language cannot be opened or the server cannot
// start). REQUIRES: called from the main thread before any other thread is started (it
// blocks those signals so that every thread inherits the mask and one thread waits for
// them).
int RunServer(const EngineOptions& engine_options, const std::string& languages,
              const ServeFlags& flags);

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_SERVE_RUNNER_H_
