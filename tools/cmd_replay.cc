// keydecide replay: simulated typing of a text file; keystroke savings and latency.

#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/replay.h"
#include "tools/text_file.h"
#include "tools/typist.h"

namespace keydecide {

namespace {
void WriteTraceOrDie(const std::string& path, std::string_view text,
                     const std::vector<WordTrace>& trace) {
  std::ofstream out(path, std::ios::trunc);
  for (const WordTrace& t : trace) out << WordTraceJson(text, t).dump() << "\n";
  if (!out.flush()) Die(1, "IOError", "replay --trace", "cannot write " + path);
}
}  // namespace

void AddReplayCommand(CLI::App* app) {
  struct Args {
    EngineFlags engine;
    TypistFlags typist;
    std::string text_path;
    int suggestions = 3;
    size_t max_chars = 0;
    bool json = false;
    std::string trace;
    std::string popup_features;
    bool contractions = false;
    bool exact_case = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app->add_subcommand("replay", "Simulate a typist on a text: KSR and latency");
  args->engine.AddTo(cmd);
  args->typist.AddTo(cmd);
  cmd->add_option("--text", args->text_path, "UTF-8 text file to type")->required();
  cmd->add_option("--suggestions", args->suggestions, "Candidates the typist looks at")
      ->check(CLI::Range(1, 200))
      ->capture_default_str();
  cmd->add_option("--max-chars", args->max_chars,
                  "Type only the first N bytes, cut at a line end (0 = all)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_flag("--contractions", args->contractions,
                "A word keeps its apostrophes between letters (don't is one word)");
  cmd->add_flag("--exact-case", args->exact_case,
                "A candidate counts only in the word's own case (I, London, a sentence start)");
  cmd->add_option("--trace", args->trace,
                  "Write one JSON line per word (its rank among all candidates before each "
                  "letter, letters typed, picked) to this file, for bench/completion_analysis.py");
  cmd->add_option("--popup-features", args->popup_features,
                  "Write the popup label and features of every model decision to this TSV file, "
                  "for training/keydecide_train/fit_popup.py");
  cmd->callback([args] {
    std::string text = ReadOrDie(args->text_path);
    KeepLeadingBytes(&text, args->max_chars);
    auto engine = args->engine.OpenOrDie();
    auto session = args->engine.NewSession(*engine, SessionOptions());
    ReplayOptions options;
    options.suggestions = args->suggestions;
    options.contractions = args->contractions;
    options.exact_case = args->exact_case;
    const std::unique_ptr<SimulatedTypist> typist = args->typist.MakeOrDie(args->engine);
    options.typist = typist.get();
    std::vector<WordTrace> trace;
    if (!args->trace.empty()) options.trace = &trace;
    std::ofstream popup_rows;
    if (!args->popup_features.empty()) {
      popup_rows.open(args->popup_features, std::ios::binary | std::ios::trunc);
      if (!popup_rows) {
        Die(1, "IOError", "replay --popup-features", "cannot write " + args->popup_features);
      }
      options.popup_features = &popup_rows;
    }
    ReplayResult r;
    CheckOrDie(Replay(text, session.get(), options, &r), "replay of " + args->text_path);
    if (!args->trace.empty()) WriteTraceOrDie(args->trace, text, trace);
    if (popup_rows.is_open() && !popup_rows.flush()) {
      Die(1, "IOError", "replay --popup-features", "cannot write " + args->popup_features);
    }
    if (args->json) {
      nlohmann::json out = ReplayReport(r);
      out["text"] = args->text_path;
      out["suggestions"] = args->suggestions;
      out["scorer"] = engine->info().scorer;
      out["tier"] = args->engine.tier;
      out["contractions"] = args->contractions;
      out["exact_case"] = args->exact_case;
      out["timed"] = typist != nullptr;
      if (typist) out["typist"] = {{"seed", args->typist.seed}, {"median_ms", typist->median_ms()}};
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
                r.LatencyQuantile(0.5), r.LatencyQuantile(0.95), r.LatencyQuantile(0.99),
                r.latency_us.size());
  });
}

}  // namespace keydecide
