// The subcommands of the keydecide CLI, one file each (tools/cmd_<name>.cc). Each
// Add*Command registers its options on `app` and a callback that runs it; the callback
// throws CLI::RuntimeError(exit code) on failure after printing the reason to stderr
// (tools/cli_common.h).

#ifndef KEYDECIDE_TOOLS_COMMANDS_H_
#define KEYDECIDE_TOOLS_COMMANDS_H_

#include <CLI/CLI.hpp>

namespace keydecide {

void AddTypeCommand(CLI::App* app);
void AddPredictCommand(CLI::App* app);
void AddReplayCommand(CLI::App* app);
void AddLexiconCommand(CLI::App* app);
void AddInfoCommand(CLI::App* app);      // tools/cmd_info.cc
void AddEvalCommand(CLI::App* app);
void AddQuantizeCommand(CLI::App* app);
void AddBenchCommand(CLI::App* app);
void AddServeCommand(CLI::App* app);     // tools/cmd_serve.cc
void AddLoadtestCommand(CLI::App* app);  // tools/cmd_loadtest.cc
void AddPersonalCommand(CLI::App* app);  // tools/cmd_personal.cc
// `eval personal`, under the eval command (tools/cmd_personal.cc).
void AddEvalPersonalCommand(CLI::App* eval);

}  // namespace keydecide

#endif  // KEYDECIDE_TOOLS_COMMANDS_H_
