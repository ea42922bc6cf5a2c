// keydecided: the resident daemon (docs/PROTOCOL.md). `keydecide serve` runs the same.

#include <string>

#include <CLI/CLI.hpp>

#include "tools/serve_runner.h"

int main(int argc, char** argv) {
  CLI::App app{"keydecided: the keydecide daemon (newline-delimited JSON on a Unix socket)"};
  app.set_version_flag("--version", "keydecided " KEYDECIDE_VERSION);
  keydecide::EngineOptions engine;
  keydecide::ServeFlags serve;
  std::string languages;  // "": the default (kServeLangHelp)
  app.add_option("--model-dir", engine.model_dir,
                 "Models folder (default: $KEYDECIDE_MODEL_DIR, else the first of the data "
                 "folders and the installed models that has the language: docs/INTEGRATION.md)");
  app.add_option("--lexicon", engine.lexicon_path, "Lexicon file");
  app.add_option("--model", engine.model_path, "Model file, or 'none' for the count baseline");
  app.add_option("--layout", engine.keyboard_layout, "Keyboard layout name or file")
      ->capture_default_str();
  app.add_option("--lang", languages, keydecide::kServeLangHelp);
  app.add_option("--max-candidates", engine.max_candidates, "Candidates searched per key")
      ->check(CLI::Range(0, 200))
      ->capture_default_str();
  serve.AddTo(&app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // a usage error: exit 2, as for most Unix tools
    app.exit(e);
    return 2;
  }
  return keydecide::RunServer(engine, languages, serve);
}
