// keydecide eval autocorrect | intent: offline evaluation of the decision heads.

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "tools/commands.h"
#include "tools/eval.h"
#include "tools/text_file.h"

namespace keydecide {

void AddEvalCommand(CLI::App* app) {
  auto* eval = app->add_subcommand("eval", "Evaluate the decision heads");
  eval->require_subcommand(1);

  struct AutocorrectArgs {
    EngineFlags engine;
    std::string typos, text;
    size_t max_chars = 0;
    bool json = false;
  };
  auto ac = std::make_shared<AutocorrectArgs>();
  auto* autocorrect = eval->add_subcommand("autocorrect", "Typos typed in context");
  ac->engine.AddTo(autocorrect);
  autocorrect->add_option("--typos", ac->typos, "misspelling<TAB>correction file")->required();
  autocorrect->add_option("--text", ac->text, "Text whose words get the typos")->required();
  autocorrect->add_option("--max-chars", ac->max_chars, "Use only the first N bytes (0 = all)");
  autocorrect->add_flag("--json", ac->json, "Print one JSON object");
  autocorrect->callback([ac] {
    std::unordered_map<std::string, std::string> typo_of;
    size_t skipped = 0;
    CheckOrDie(ParseTypoPairs(ReadOrDie(ac->typos), &typo_of, &skipped), ac->typos);
    std::string text = ReadOrDie(ac->text);
    KeepLeadingBytes(&text, ac->max_chars);
    auto engine = ac->engine.OpenOrDie();
    auto session = engine->NewSession(SessionOptions());
    AutocorrectEvalResult r;
    CheckOrDie(EvalAutocorrect(text, typo_of, session.get(), &r), "autocorrect eval");
    nlohmann::json out = {{"corrected_rate", r.corrected_rate()},
                          {"false_correction_rate", r.false_correction_rate()},
                          {"typos", r.typos},
                          {"corrected", r.corrected},
                          {"wrongly_corrected", r.wrongly_corrected},
                          {"correct_words", r.correct_words},
                          {"false_corrections", r.false_corrections},
                          {"pairs", typo_of.size()},
                          {"pairs_skipped", skipped},
                          {"scorer", engine->info().scorer}};
    if (ac->json) {
      std::cout << out.dump(2) << "\n";
      return;
    }
    std::printf("typos %llu: corrected %.4f, wrongly corrected %llu\n",
                static_cast<unsigned long long>(r.typos), r.corrected_rate(),
                static_cast<unsigned long long>(r.wrongly_corrected));
    std::printf("correct words %llu: false corrections %.4f\n",
                static_cast<unsigned long long>(r.correct_words), r.false_correction_rate());
  });

  struct IntentArgs {
    EngineFlags engine;
    std::string labeled;
    bool json = false;
  };
  auto ia = std::make_shared<IntentArgs>();
  auto* intent = eval->add_subcommand("intent", "Intent accuracy on label<TAB>text lines");
  ia->engine.AddTo(intent);
  intent->add_option("--labeled", ia->labeled, "label<TAB>text file")->required();
  intent->add_flag("--json", ia->json, "Print one JSON object");
  intent->callback([ia] {
    auto engine = ia->engine.OpenOrDie();
    IntentEvalResult r;
    CheckOrDie(EvalIntent(ReadOrDie(ia->labeled), *engine, &r), "intent eval");
    nlohmann::json per = nlohmann::json::object();
    for (const auto& [label, c] : r.labels) {
      per[label] = {{"accuracy", c.total ? static_cast<double>(c.correct) / c.total : 0.0},
                    {"total", c.total}};
    }
    nlohmann::json out = {{"accuracy", r.total ? static_cast<double>(r.correct) / r.total : 0.0},
                          {"total", r.total},
                          {"per_label", per}};
    if (ia->json) {
      std::cout << out.dump(2) << "\n";
      return;
    }
    for (const auto& [label, c] : r.labels) {
      std::printf("%-10s %.4f of %llu\n", label.c_str(),
                  c.total ? static_cast<double>(c.correct) / c.total : 0.0,
                  static_cast<unsigned long long>(c.total));
    }
    std::printf("overall    %.4f of %llu\n",
                r.total ? static_cast<double>(r.correct) / r.total : 0.0,
                static_cast<unsigned long long>(r.total));
  });
}

}  // namespace keydecide
