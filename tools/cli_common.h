// What every subcommand of the keydecide CLI shares: the engine flags, and dying with a
// message on stderr (CLI::RuntimeError carries the exit code out of CLI11's callbacks).

#ifndef KEYDECIDE_TOOLS_CLI_COMMON_H_
#define KEYDECIDE_TOOLS_CLI_COMMON_H_

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "keydecide/engine.h"

namespace keydecide {

// Engine options shared by every command that loads one.
struct EngineFlags {
  std::string model_dir;
  std::string lexicon;
  std::string model;
  std::string layout = "qwerty";
  std::string language = "en";
  int max_candidates = EngineOptions().max_candidates;
  int pinyin_beam_width = EngineOptions().pinyin_beam_width;
  std::string pinyin_fuzzy;
  bool pinyin_typos = false;
  float pinyin_model_weight = EngineOptions().pinyin_model_weight;
  std::string small_model;
  std::string tier = "full_model";  // the rung every session is held at (--tier)

  void AddTo(CLI::App* cmd);
  // The engine options these flags give.
  EngineOptions Options() const;
  // Opens the engine or prints the error and throws CLI::RuntimeError.
  std::unique_ptr<Engine> OpenOrDie() const;
  // A new session held at --tier.
  std::unique_ptr<Session> NewSession(const Engine& engine, const SessionOptions& options) const;
};

class SimulatedTypist;

// --timed and --typist-seed: the simulated typist of tools/typist.h, on the engine's keyboard
// layout (a file path, or a name under <model dir>/layouts/).
struct TypistFlags {
  bool timed = false;
  uint64_t seed = 1;

  void AddTo(CLI::App* cmd);
  // Null when not --timed; else the typist, or the error and CLI::RuntimeError.
  std::unique_ptr<SimulatedTypist> MakeOrDie(const EngineFlags& engine) const;
};

// Prints `status` to stderr and throws CLI::RuntimeError(1) unless it is ok.
void CheckOrDie(const Status& status, const std::string& what);

// The whole file (tools/text_file.h: a regular file or a pipe, at most kMaxTextFileBytes), or
// the error (naming the path and why: also when it is empty) on stderr and
// CLI::RuntimeError(1).
std::string ReadOrDie(const std::string& path);

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_CLI_COMMON_H_
