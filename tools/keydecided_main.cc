// keydecided: the resident daemon (docs/PROTOCOL.md). `keydecide serve` runs the same.

#include <string>

#include <CLI/CLI.hpp>

#include "tools/serve_runner.h"

int main(int argc, char** argv) {
  CLI::App app{"keydecided: the keydecide daemon (newline-delimited JSON on a Unix socket)"};
  keydecide::EngineOptions engine;
  keydecide::ServeFlags serve;
  std::string languages;  // "": the default (kServeLangHelp)
  app.add_option("--model-dir", engine.model_dir,
                 "Models folder (default: $KEYDECIDE_MODEL_DIR, else the bundled models/)");
  app.add_option("--lexicon", engine.lexicon_path, "Lexicon file");
  app.add_option("--model", engine.model_path, "Model file, or 'none' for the count baseline");
  app.add_option("--layout", engine.keyboard_layout, "Keyboard layout name or file")
      ->capture_default_str();
  app.add_option("--lang", languages, keydecide::kServeLangHelp);
  app.add_option("--max-candidates", engine.max_candidates, "Candidates searched per key")
      ->check(CLI::Range(1, 200))
      ->capture_default_str();
  serve.AddTo(&app);
  CLI11_PARSE(app, argc, argv);
  return keydecide::RunServer(engine, languages, serve);
}
