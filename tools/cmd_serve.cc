// keydecide serve: the keydecided daemon in the foreground (same flags as keydecided).

#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/serve_runner.h"

namespace keydecide {

void AddServeCommand(CLI::App* app) {
  struct Args {
    EngineFlags engine;
    ServeFlags serve;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app->add_subcommand("serve", "Run the keydecided daemon in the foreground");
  args->engine.AddTo(cmd);
  args->serve.AddTo(cmd);
  // --lang (EngineFlags) takes a list here; not given: the daemon's default languages.
  CLI::Option* lang = cmd->get_option("--lang");
  lang->description(kServeLangHelp)->default_str("");
  cmd->callback([args, lang] {
    EngineOptions o;
    o.model_dir = args->engine.model_dir;
    o.lexicon_path = args->engine.lexicon;
    o.model_path = args->engine.model;
    o.keyboard_layout = args->engine.layout;
    o.max_candidates = args->engine.max_candidates;
    const int rc = RunServer(o, lang->count() > 0 ? args->engine.language : "", args->serve);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace keydecide
