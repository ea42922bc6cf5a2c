// keydecide quantize IN OUT: writes an int8 or int4 copy of a float model and reports what
// it cost: per-weight quantization error and, on a calibration text, how often every
// decision agrees with the float model. With --compare-only, only the agreement of two
// existing files (e.g. a float model and a copy whose weights were rounded elsewhere, to see
// what a quantization scheme costs before writing its kernels).

#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "model/quantize.h"
#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/eval.h"
#include "tools/text_file.h"

namespace keydecide {

void AddQuantizeCommand(CLI::App* app) {
  struct Args {
    std::string input, output, report, text;
    QuantizeOptions options;
    bool no_promote = false;
    bool compare_only = false;
    size_t max_chars = 20000;
    EngineFlags engine;  // the lexicon and layout the agreement check runs with
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app->add_subcommand("quantize", "Write an int8/int4 copy of a float model");
  cmd->add_option("input", a->input, "Float model (.safetensors)")->required();
  cmd->add_option("output", a->output, "Quantized model to write")->required();
  cmd->add_option("--bits", a->options.bits, "Bits of the layer weights")
      ->check(CLI::IsMember({4, 8}));
  cmd->add_option("--group", a->options.group, "4-bit: columns per scale")
      ->check(CLI::IsMember({32, 64}));
  cmd->add_option("--embedding-bits", a->options.embedding_bits,
                  "Bits of the embedding / word-logit table")
      ->check(CLI::IsMember({4, 8}));
  cmd->add_option("--keep", a->options.keep, "Weights to leave in fp32 (exact names)");
  cmd->add_flag("--no-promote", a->no_promote,
                "Only report weights over the error limit; do not store them more precisely");
  cmd->add_option("--report", a->report, "Write the report as JSON to this file");
  cmd->add_flag("--compare-only", a->compare_only,
                "Write nothing: compare the decisions of input and output (an existing model) "
                "on --text");
  cmd->add_option("--text", a->text,
                  "Calibration text: type it with both models and compare every decision");
  cmd->add_option("--max-chars", a->max_chars, "Use only the first N bytes of --text (0 = all)");
  a->engine.AddTo(cmd);
  cmd->callback([a] {
    a->options.promote_flagged = !a->no_promote;
    if (a->compare_only && a->text.empty()) {
      Die(kUsageExit, "Usage", "quantize", "--compare-only needs --text");
    }
    QuantizeReport q;
    if (!a->compare_only) {
      CheckOrDie(QuantizeModel(a->input, a->output, a->options, &q), "quantize");
    }
    nlohmann::json report = {{"input", a->input},
                             {"output", a->output},
                             {"input_bytes", q.input_bytes},
                             {"output_bytes", q.output_bytes},
                             {"weights", nlohmann::json::array()}};
    if (!a->compare_only) {
      std::printf("%s: %.2f MB -> %s: %.2f MB\n", a->input.c_str(), q.input_bytes / 1e6,
                  a->output.c_str(), q.output_bytes / 1e6);
    }
    for (const auto& w : q.weights) {
      report["weights"].push_back({{"name", w.name},
                                   {"shape", w.shape},
                                   {"format", w.format},
                                   {"relative_error", w.relative_error},
                                   {"flag", w.flag}});
      std::printf("  %-28s %-6s rel. error %.4f%s%s\n", w.name.c_str(), w.format.c_str(),
                  w.relative_error, w.flag.empty() ? "" : "  FLAGGED: ", w.flag.c_str());
    }
    if (!a->text.empty()) {
      std::string text = ReadOrDie(a->text);
      KeepLeadingBytes(&text, a->max_chars);
      EngineFlags reference = a->engine, candidate = a->engine;
      reference.model = a->input;
      candidate.model = a->output;
      auto ref_engine = reference.OpenOrDie();
      auto cand_engine = candidate.OpenOrDie();
      auto ref_session = ref_engine->NewSession(SessionOptions());
      auto cand_session = cand_engine->NewSession(SessionOptions());
      AgreementResult r;
      CheckOrDie(EvalAgreement(text, 3, ref_session.get(), cand_session.get(), &r), "agreement");
      report["agreement"] = {
          {"text", a->text},
          {"bytes", text.size()},
          {"decisions", r.decisions},
          {"ranking_top1", r.Rate(r.ranking_top1, r.ranked)},
          {"popup", r.Rate(r.popup, r.decisions)},
          {"autocorrect", r.Rate(r.autocorrect, r.decisions)},
          {"intent", r.Rate(r.intent, r.decisions)},
          {"max_score_error", r.max_score_error},
          {"mean_score_error", r.scores_compared ? r.sum_score_error / r.scores_compared : 0.0}};
      std::printf(
          "agreement with %s over %llu decisions: ranking top-1 %.4f, popup %.4f, "
          "autocorrect %.4f, intent %.4f; score error max %.4f mean %.5f\n",
          a->input.c_str(), static_cast<unsigned long long>(r.decisions),
          r.Rate(r.ranking_top1, r.ranked), r.Rate(r.popup, r.decisions),
          r.Rate(r.autocorrect, r.decisions), r.Rate(r.intent, r.decisions), r.max_score_error,
          report["agreement"]["mean_score_error"].get<double>());
    }
    if (!a->report.empty()) {
      std::ofstream out(a->report);
      out << report.dump(2) << "\n";
      if (!out) {
        Die(1, "IOError", "quantize", "cannot write " + a->report);
      }
    }
  });
}

}  // namespace keydecide
