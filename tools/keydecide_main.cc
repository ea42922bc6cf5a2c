// keydecide: the command-line front end, one subcommand per tools/cmd_*.cc.

#include <string_view>

#include "tools/cli_common.h"
#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"keydecide: on-device typing decisions (candidates, popup, autocorrect, intent)"};
  app.set_version_flag("--version", "keydecide " KEYDECIDE_VERSION);
  app.require_subcommand(1);
  keydecide::AddTypeCommand(&app);
  keydecide::AddPredictCommand(&app);
  keydecide::AddReplayCommand(&app);
  keydecide::AddLexiconCommand(&app);
  keydecide::AddInfoCommand(&app);
  keydecide::AddEvalCommand(&app);
  keydecide::AddQuantizeCommand(&app);
  keydecide::AddBenchCommand(&app);
  keydecide::AddServeCommand(&app);
  keydecide::AddLoadtestCommand(&app);
  keydecide::AddPersonalCommand(&app);
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--json") keydecide::SetJsonErrors(true);
  }
  return keydecide::RunCli(&app, argc, argv);
}
