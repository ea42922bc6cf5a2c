// What every subcommand of the keydecide CLI shares: the engine flags, and dying with a
// message on stderr (CLI::RuntimeError carries the exit code out of CLI11's callbacks).

#ifndef KEYDECIDE_TOOLS_CLI_COMMON_H_
#define KEYDECIDE_TOOLS_CLI_COMMON_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>

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
  int pinyin_beam_width = EngineOptions().pinyin.beam_width;
  std::string pinyin_fuzzy;
  bool pinyin_typos = false;
  float pinyin_model_weight = EngineOptions().pinyin.model_weight;
  float pinyin_teacher_weight = EngineOptions().pinyin.teacher_weight;
  float pinyin_teacher_weight_code = EngineOptions().pinyin.teacher_weight_code;
  float teacher_weight = EngineOptions().teacher_weight;
  float word_bigram_weight = EngineOptions().word_bigram_weight;
  std::string small_model;
  std::string popup_net;
  std::string intent_ngrams;
  std::string tier = "full_model";  // the rung every session is held at (--tier)
  // --personal, --user-store, --no-learn (AddPersonalTo: the commands a person types with).
  bool personal = false;
  std::string user_store;
  bool no_learn = false;

  void AddTo(CLI::App* cmd);
  // The person's store: rank with their words and shortcuts, learn what they type.
  void AddPersonalTo(CLI::App* cmd);
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

// Exit status of a usage error (a bad flag, a missing argument), as for most Unix tools; other
// failures exit with 1.
inline constexpr int kUsageExit = 2;

// Whether errors are written as JSON: the command line has --json (main sets it before
// parsing, so that a usage error is JSON too).
void SetJsonErrors(bool on);

// Writes the error and throws CLI::RuntimeError(exit_code). Under --json it is one JSON object
// on stdout, {"error":{"kind":KIND,"what":WHAT,"message":MESSAGE}}, so that a program reading
// the command's JSON reads the failure there too; otherwise "keydecide: WHAT: MESSAGE" on stderr.
// `kind` is Status's kind name ("NotFound", "InvalidArgument", ...) or "Usage".
[[noreturn]] void Die(int exit_code, std::string_view kind, const std::string& what,
                      const std::string& message);

// Parses the command line and runs the chosen command. Returns its exit status: 0, 1 for a
// failure (Die), kUsageExit for a usage error (written as Die writes errors), 0 after --help
// or --version.
int RunCli(CLI::App* app, int argc, char** argv);

// "off", "cautious", "normal" or "eager" (CLI11 checked the name).
AutocorrectLevel ParseAutocorrectLevelOrDie(const std::string& name);

// An --app option's names (chat, search, code, editor, url), for CLI::CheckedTransformer.
const std::map<std::string, AppType>& AppTypeNames();

// Dies (exit 1, the status's kind) unless `status` is ok.
void CheckOrDie(const Status& status, const std::string& what);

// The whole file (tools/text_file.h: a regular file or a pipe, at most kMaxTextFileBytes; "-":
// standard input), or the error (naming the path and why: also when it is empty) and exit 1.
std::string ReadOrDie(const std::string& path);

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_CLI_COMMON_H_
