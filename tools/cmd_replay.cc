// keydecide replay: simulated typing of a text file; keystroke savings and latency.

#include <cmath>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "tools/commands.h"
#include "tools/replay.h"
#include "tools/text_file.h"

namespace keydecide {

void AddReplayCommand(CLI::App* app) {
  struct Args {
    EngineFlags engine;
    std::string text_path;
    int suggestions = 3;
    size_t max_chars = 0;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app->add_subcommand("replay", "Simulate a typist on a text: KSR and latency");
  args->engine.AddTo(cmd);
  cmd->add_option("--text", args->text_path, "UTF-8 text file to type")->required();
  cmd->add_option("--suggestions", args->suggestions, "Candidates the typist looks at")
      ->check(CLI::Range(1, 200))
      ->capture_default_str();
  cmd->add_option("--max-chars", args->max_chars,
                  "Type only the first N bytes, cut at a line end (0 = all)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    std::string text = ReadOrDie(args->text_path);
    KeepLeadingBytes(&text, args->max_chars);
    auto engine = args->engine.OpenOrDie();
    auto session = engine->NewSession(SessionOptions());
    ReplayOptions options;
    options.suggestions = args->suggestions;
    ReplayResult r;
    CheckOrDie(Replay(text, session.get(), options, &r), "replay of " + args->text_path);
    const double p50 = r.LatencyQuantile(0.5), p95 = r.LatencyQuantile(0.95),
                 p99 = r.LatencyQuantile(0.99);
    if (args->json) {
      nlohmann::json out = {
          {"text", args->text_path},
          {"suggestions", args->suggestions},
          {"scorer", engine->info().scorer},
          {"ksr", r.ksr()},
          {"ksr_word_only", r.ksr_word_only()},
          {"next_word_top1", r.next_word_top1_rate()},
          {"next_word_top3", r.next_word_top3_rate()},
          {"keystrokes", r.keystrokes},
          {"keystrokes_word_only", r.keystrokes_word_only},
          {"characters", r.characters},
          {"words", r.words},
          {"words_picked", r.words_picked},
          {"decisions", r.latency_us.size()},
          {"latency_us", {{"p50", p50}, {"p95", p95}, {"p99", p99}}},
      };
      const double auc = r.PopupAuc();
      out["popup_auc"] = std::isnan(auc) ? nlohmann::json(nullptr) : nlohmann::json(auc);
      std::cout << out.dump(2) << "\n";
      return;
    }
    std::printf("characters      %llu\n", static_cast<unsigned long long>(r.characters));
    std::printf("keystrokes      %llu (word only: %llu)\n",
                static_cast<unsigned long long>(r.keystrokes),
                static_cast<unsigned long long>(r.keystrokes_word_only));
    std::printf("ksr             %.4f (word only: %.4f)\n", r.ksr(), r.ksr_word_only());
    std::printf("next word       top-1 %.4f, top-3 %.4f\n", r.next_word_top1_rate(),
                r.next_word_top3_rate());
    std::printf("words picked    %.4f of %llu\n",
                r.words ? static_cast<double>(r.words_picked) / r.words : 0.0,
                static_cast<unsigned long long>(r.words));
    if (!r.popup.empty()) std::printf("popup AUC       %.4f\n", r.PopupAuc());
    std::printf("latency         p50 %.1f us, p95 %.1f us, p99 %.1f us over %zu decisions\n",
                p50, p95, p99, r.latency_us.size());
  });
}

}  // namespace keydecide
