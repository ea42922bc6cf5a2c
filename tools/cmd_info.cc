// keydecide info: what the engine loads.

#include <iostream>

#include "tools/cli_common.h"
#include "tools/commands.h"

namespace keydecide {

void AddInfoCommand(CLI::App* app) {
  auto* cmd = app->add_subcommand("info", "Show what the engine loads");
  auto flags = std::make_shared<EngineFlags>();
  flags->AddTo(cmd);
  cmd->callback([flags] {
    const Engine::Info info = flags->OpenOrDie()->info();
    std::cout << "language:        " << info.language << "\n"
              << "lexicon:         " << info.lexicon_path << "\n"
              << "lexicon words:   " << info.lexicon_words << "\n"
              << "lexicon bytes:   " << info.lexicon_bytes << "\n"
              << "keyboard layout: "
              << (info.keyboard_layout.empty() ? "(not used)" : info.keyboard_layout) << "\n"
              << "scorer:          " << info.scorer << "\n"
              << "model:           " << (info.model_path.empty() ? "(none)" : info.model_path)
              << "\n"
              << "model weights:   " << (info.model_weights.empty() ? "-" : info.model_weights)
              << "\n"
              << "small model:     "
              << (info.small_model_path.empty() ? "(none)" : info.small_model_path) << "\n"
              << "popup network:   "
              << (info.popup_net_path.empty() ? "(none)" : info.popup_net_path) << "\n"
              << "intent n-grams:  "
              << (info.intent_ngrams_path.empty() ? "(none)" : info.intent_ngrams_path) << "\n"
              << "SIMD target:     " << info.simd_target << "\n";
  });
}

}  // namespace keydecide
