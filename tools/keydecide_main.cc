// keydecide: the command-line front end, one subcommand per tools/cmd_*.cc.

#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"keydecide: on-device typing decisions (candidates, popup, autocorrect, intent)"};
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
  CLI11_PARSE(app, argc, argv);
  return 0;
}
