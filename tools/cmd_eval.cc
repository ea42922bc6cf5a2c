// keydecide eval autocorrect | intent | pinyin: offline evaluation of the decision heads and of
// pinyin conversion.

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "decide/en/context_state.h"
#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/eval.h"
#include "tools/pinyin_eval.h"
#include "tools/proc_status.h"
#include "tools/quantile.h"
#include "tools/text_file.h"
#include "tools/typist.h"

namespace keydecide {

namespace {

// The lines whose first candidate is not the hanzi, for reading what conversion gets wrong.
void WritePinyinErrors(const std::vector<PinyinEvalLine>& lines, const PinyinEvalResult& r,
                       const std::string& path) {
  std::ofstream out(path);
  for (size_t i = 0; i < lines.size() && i < r.first.size(); ++i) {
    if (r.first[i] == lines[i].hanzi) continue;
    out << i + 1 << '\t' << lines[i].hanzi << '\t' << r.first[i] << '\t' << lines[i].letters
        << '\n';
  }
  if (!out.flush()) Die(1, "IOError", "eval pinyin", "cannot write " + path);
}

}  // namespace

void AddEvalCommand(CLI::App* app) {
  auto* eval = app->add_subcommand("eval", "Evaluate the decision heads and pinyin conversion");
  eval->require_subcommand(1);
  AddEvalPersonalCommand(eval);

  struct AutocorrectArgs {
    EngineFlags engine;
    TypistFlags typist;
    std::string typos, text;
    size_t max_chars = 0;
    float threshold = -1;  // the level's
    std::string level = "normal";
    bool json = false;
    std::string trace;
  };
  auto ac = std::make_shared<AutocorrectArgs>();
  auto* autocorrect = eval->add_subcommand("autocorrect", "Typos typed in context");
  ac->engine.AddTo(autocorrect);
  ac->typist.AddTo(autocorrect);
  autocorrect->add_option("--typos", ac->typos, "misspelling<TAB>correction file")->required();
  autocorrect->add_option("--text", ac->text, "Text whose words get the typos")->required();
  autocorrect->add_option("--max-chars", ac->max_chars, "Use only the first N bytes (0 = all)");
  autocorrect->add_option("--level", ac->level, "Autocorrect level: off, cautious, normal or eager")
      ->check(CLI::IsMember({"off", "cautious", "normal", "eager"}))
      ->capture_default_str();
  autocorrect
      ->add_option("--threshold", ac->threshold,
                   "Apply a correction when the autocorrect probability reaches this "
                   "(default: the --level's)")
      ->check(CLI::Range(0.0f, 1.0f));
  autocorrect->add_flag("--json", ac->json, "Print one JSON object");
  autocorrect->add_option("--trace", ac->trace,
                          "Write one JSON line per misspelt word and per correctly typed word "
                          "changed (word, typed, replacement, confidence, applied, misspelt) "
                          "to this file");
  autocorrect->callback([ac] {
    std::unordered_map<std::string, std::string> typo_of;
    size_t skipped = 0;
    CheckOrDie(ParseTypoPairs(ReadOrDie(ac->typos), &typo_of, &skipped), ac->typos);
    std::string text = ReadOrDie(ac->text);
    KeepLeadingBytes(&text, ac->max_chars);
    auto engine = ac->engine.OpenOrDie();
    SessionOptions options;
    options.autocorrect_level = ParseAutocorrectLevelOrDie(ac->level);
    options.autocorrect_threshold = ac->threshold;
    auto session = engine->NewSession(options);
    AutocorrectEvalResult r;
    const std::unique_ptr<SimulatedTypist> typist = ac->typist.MakeOrDie(ac->engine);
    std::vector<AutocorrectTrace> trace;
    CheckOrDie(EvalAutocorrect(text, typo_of, session.get(), &r, typist.get(),
                               ac->trace.empty() ? nullptr : &trace),
               "autocorrect eval");
    if (!ac->trace.empty()) {
      std::ofstream out(ac->trace, std::ios::trunc);
      for (const AutocorrectTrace& t : trace) {
        out << nlohmann::json{{"word", t.word},
                              {"typed", t.typed},
                              {"replacement", t.replacement},
                              {"confidence", t.confidence},
                              {"applied", t.applied},
                              {"misspelt", t.misspelt}}
                   .dump()
            << "\n";
      }
      if (!out.flush()) Die(1, "IOError", "eval autocorrect --trace", "cannot write " + ac->trace);
    }
    nlohmann::json out = {{"corrected_rate", r.corrected_rate()},
                          {"false_correction_rate", r.false_correction_rate()},
                          {"typos", r.typos},
                          {"corrected", r.corrected},
                          {"wrongly_corrected", r.wrongly_corrected},
                          {"correct_words", r.correct_words},
                          {"false_corrections", r.false_corrections},
                          {"unpaired_words", r.unpaired_words},
                          {"unpaired_false_corrections", r.unpaired_false_corrections},
                          {"unpaired_false_correction_rate", r.unpaired_false_correction_rate()},
                          {"pairs", typo_of.size()},
                          {"pairs_skipped", skipped},
                          {"scorer", engine->info().scorer},
                          {"timed", typist != nullptr}};
    if (ac->json) {
      std::cout << out.dump(2) << "\n";
      return;
    }
    std::printf("typos %llu: corrected %.4f, wrongly corrected %llu\n",
                static_cast<unsigned long long>(r.typos), r.corrected_rate(),
                static_cast<unsigned long long>(r.wrongly_corrected));
    std::printf("words typed as written %llu: false corrections %.4f (without a pair %llu: %.4f)\n",
                static_cast<unsigned long long>(r.correct_words), r.false_correction_rate(),
                static_cast<unsigned long long>(r.unpaired_words),
                r.unpaired_false_correction_rate());
  });

  struct IntentArgs {
    EngineFlags engine;
    std::string labeled;
    AppType app = AppType::kChat;
    bool json = false;
  };
  auto ia = std::make_shared<IntentArgs>();
  auto* intent = eval->add_subcommand("intent", "Intent accuracy on label<TAB>text lines");
  ia->engine.AddTo(intent);
  intent->add_option("--labeled", ia->labeled, "label<TAB>text file")->required();
  intent->add_option("--app", ia->app, "Kind of text field the lines are typed into")
      ->transform(CLI::CheckedTransformer(AppTypeNames(), CLI::ignore_case))
      ->default_str("chat");
  intent->add_flag("--json", ia->json, "Print one JSON object");
  intent->callback([ia] {
    auto engine = ia->engine.OpenOrDie();
    IntentEvalResult r;
    SessionOptions options;
    options.app = ia->app;
    CheckOrDie(EvalIntent(ReadOrDie(ia->labeled), *engine, &r, options), "intent eval");
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

  struct StatesArgs {
    std::string model, labeled, out;
    AppType app = AppType::kChat;
  };
  auto sa = std::make_shared<StatesArgs>();
  auto* states = eval->add_subcommand(
      "context-states",
      "Write the English model's hidden state after each line of a label<TAB>text file, set as "
      "a session's context (for fitting a head again: training/keydecide_train/"
      "fit_intent_head.py)");
  states->add_option("--model", sa->model, "English model file")->required();
  states->add_option("--labeled", sa->labeled, "label<TAB>text file")->required();
  states->add_option("--out", sa->out, "Output: float32 [lines, d_model], little-endian")
      ->required();
  states->add_option("--app", sa->app, "Kind of text field the lines are typed into")
      ->transform(CLI::CheckedTransformer(AppTypeNames(), CLI::ignore_case))
      ->default_str("chat");
  states->callback([sa] {
    const std::string tsv = ReadOrDie(sa->labeled);
    std::vector<LabeledLine> labeled;
    CheckOrDie(ParseLabeledLines(tsv, &labeled), sa->labeled);
    std::vector<std::string_view> lines;
    for (const LabeledLine& l : labeled) lines.push_back(l.text);
    int d_model = 0;
    std::vector<float> hidden, probs;
    std::vector<std::string> labels;
    CheckOrDie(ContextStates(sa->model, sa->app, lines, &d_model, &hidden, &labels, &probs),
               "context-states");
    std::ofstream out(sa->out, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(hidden.data()),
              static_cast<std::streamsize>(hidden.size() * sizeof(float)));
    if (!out.flush()) Die(1, "IOError", "eval context-states", "cannot write " + sa->out);
    // The model's own reading of each line, to check against `eval intent`.
    size_t agree = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
      const float* p = probs.data() + i * labels.size();
      agree += labels[std::max_element(p, p + labels.size()) - p] == labeled[i].label;
    }
    std::cout << nlohmann::json{{"lines", lines.size()},
                                {"d_model", d_model},
                                {"intent_labels", labels},
                                {"intent_accuracy",
                                 lines.empty() ? 0.0 : static_cast<double>(agree) / lines.size()},
                                {"out", sa->out}}
                     .dump()
              << "\n";
  });

  struct PinyinArgs {
    EngineFlags engine;
    std::string tsv;
    size_t max_lines = 0;
    bool json = false;
    std::string errors;
    AppType app = AppType::kChat;
  };
  auto pa = std::make_shared<PinyinArgs>();
  pa->engine.language = "zh";
  auto* pinyin = eval->add_subcommand(
      "pinyin", "Pinyin typed letter by letter: sentence top-1/top-5, character accuracy, latency");
  pa->engine.AddTo(pinyin);
  pinyin->add_option("--tsv", pa->tsv, "hanzi<TAB>letters<TAB>syllables file")->required();
  pinyin->add_option("--max-lines", pa->max_lines, "Use only the first N lines (0 = all)");
  pinyin->add_flag("--json", pa->json, "Print one JSON object");
  pinyin->add_option("--errors", pa->errors,
                     "Write each line converted wrongly as line number<TAB>hanzi<TAB>first "
                     "candidate<TAB>letters to this file");
  pinyin
      ->add_option("--app", pa->app,
                   "Kind of text field the lines are typed into (code: the technical weights)")
      ->transform(CLI::CheckedTransformer(AppTypeNames(), CLI::ignore_case))
      ->default_str("chat");
  pinyin->callback([pa] {
    std::vector<PinyinEvalLine> lines;
    CheckOrDie(ParsePinyinEval(ReadOrDie(pa->tsv), &lines), pa->tsv);
    if (pa->max_lines > 0 && lines.size() > pa->max_lines) lines.resize(pa->max_lines);
    auto engine = pa->engine.OpenOrDie();
    // Warm-up, untimed: the first lines once.
    PinyinEvalResult warm, r;
    const std::vector<PinyinEvalLine> first(lines.begin(),
                                            lines.begin() + std::min<size_t>(lines.size(), 20));
    SessionOptions session_options;
    session_options.app = pa->app;
    CheckOrDie(EvalPinyin(first, *engine, &warm, session_options), "pinyin eval");
    CheckOrDie(EvalPinyin(lines, *engine, &r, session_options), "pinyin eval");
    if (!pa->errors.empty()) WritePinyinErrors(lines, r, pa->errors);
    const Engine::Info info = engine->info();
    nlohmann::json out = {{"lines", r.lines},
                          {"sentence_top1", r.sentence_top1()},
                          {"sentence_top5", r.sentence_top5()},
                          {"char_accuracy", r.char_accuracy()},
                          {"keystroke_p50_us", Quantile(r.keystroke_us, 0.5)},
                          {"keystroke_p95_us", Quantile(r.keystroke_us, 0.95)},
                          {"sentence_p50_us", Quantile(r.sentence_us, 0.5)},
                          {"sentence_p95_us", Quantile(r.sentence_us, 0.95)},
                          {"rss_mb", ProcStatusKb("VmRSS") / 1024.0},
                          {"engine", "keydecide " + info.scorer},
                          {"language", info.language}};
    if (pa->json) {
      std::cout << out.dump(2) << "\n";
      return;
    }
    std::printf("lines %llu: sentence top-1 %.4f, top-5 %.4f, character accuracy %.4f\n",
                static_cast<unsigned long long>(r.lines), r.sentence_top1(), r.sentence_top5(),
                r.char_accuracy());
    std::printf("per keystroke P50 %.1f us, P95 %.1f us; whole sentence P50 %.1f us, P95 %.1f us\n",
                Quantile(r.keystroke_us, 0.5), Quantile(r.keystroke_us, 0.95),
                Quantile(r.sentence_us, 0.5), Quantile(r.sentence_us, 0.95));
  });
}

}  // namespace keydecide
