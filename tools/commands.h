// The subcommands of the keydecide CLI. Each Add*Command registers its options on `app`
// and a callback that runs it; the callback throws CLI::RuntimeError(exit code) on failure
// after printing the reason to stderr.

#ifndef KEYDECIDE_TOOLS_COMMANDS_H_
#define KEYDECIDE_TOOLS_COMMANDS_H_

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

  void AddTo(CLI::App* cmd);
  // Opens the engine or prints the error and throws CLI::RuntimeError.
  std::unique_ptr<Engine> OpenOrDie() const;
};

// Prints `status` to stderr and throws CLI::RuntimeError(1) unless it is ok.
void CheckOrDie(const Status& status, const std::string& what);

// The whole file, or an error on stderr and CLI::RuntimeError(1).
std::string ReadOrDie(const std::string& path);

void AddTypeCommand(CLI::App* app);
void AddPredictCommand(CLI::App* app);
void AddReplayCommand(CLI::App* app);
void AddLexiconCommand(CLI::App* app);
void AddInfoCommand(CLI::App* app);
void AddEvalCommand(CLI::App* app);
void AddQuantizeCommand(CLI::App* app);
void AddBenchCommand(CLI::App* app);
void AddServeCommand(CLI::App* app);     // tools/cmd_serve.cc
void AddLoadtestCommand(CLI::App* app);  // tools/cmd_loadtest.cc

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_COMMANDS_H_
