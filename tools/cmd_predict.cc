// keydecide predict: one decision for a given context and typed prefix, or one for each line of
// a file of contexts (one engine for all: what a dev set of phrases needs).

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tools/cli_common.h"
#include "tools/commands.h"

namespace keydecide {

namespace {

// A line of --contexts: "\\n" stands for a line break.
std::string Unescape(std::string_view line) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else {
      out += line[i];
    }
  }
  return out;
}

// Everything a decision says but its timings (which change run to run).
nlohmann::json DecisionJson(const Decision& d) {
  nlohmann::json out;
  out["composition"] = d.composition;
  out["preedit"] = d.preedit;
  out["candidates"] = nlohmann::json::array();
  for (const Candidate& c : d.candidates) {
    out["candidates"].push_back({{"text", c.text},
                                 {"score", c.score},
                                 {"typing_cost", c.typing_cost},
                                 {"kind", CandidateKindName(c.kind)}});
  }
  out["tier"] = TierName(d.tier);
  out["has_model"] = d.has_model;
  out["popup"] = {{"probability", d.popup.probability}, {"show", d.popup.show}};
  out["autocorrect"] = {{"apply", d.autocorrect.apply},
                        {"replacement", d.autocorrect.replacement},
                        {"confidence", d.autocorrect.confidence}};
  out["shortcut"] = {{"fire", d.shortcut.fire},
                     {"trigger", d.shortcut.trigger},
                     {"expansion", d.shortcut.expansion}};
  out["intent"] = {{"label", d.intent.label}, {"probabilities", d.intent.probabilities}};
  return out;
}

}  // namespace

void AddPredictCommand(CLI::App* app) {
  struct Args {
    EngineFlags engine;
    std::string context, prefix, contexts;
    int k = 3;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app->add_subcommand("predict", "Candidates for a context and a typed prefix");
  args->engine.AddTo(cmd);
  args->engine.AddPersonalTo(cmd);
  cmd->add_option("--context", args->context,
                  "Text before the word being typed (a space is added before --prefix when the "
                  "context ends in a letter)");
  cmd->add_option("--prefix", args->prefix, "Letters of the word typed so far");
  cmd->add_option("-k,--candidates", args->k, "Number of candidates")
      ->check(CLI::Range(1, 200))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_option("--contexts", args->contexts,
                  "A file of contexts, one a line (\\n for a line break within one; a tab and "
                  "letters after it: those letters typed after the context): the candidates "
                  "after each, in a new session, as one JSON line each, with the whole decision "
                  "under \"decision\" (with --json; instead of --context and --prefix)");
  cmd->callback([args] {
    auto engine = args->engine.OpenOrDie();
    if (!args->contexts.empty()) {
      if (!args->json) Die(kUsageExit, "Usage", "predict", "--contexts needs --json");
      std::ifstream in(args->contexts);
      if (!in) Die(1, "NotFound", "predict", "cannot read " + args->contexts);
      for (std::string line; std::getline(in, line);) {
        const size_t tab = line.find('\t');
        const std::string prefix = tab == std::string::npos ? "" : line.substr(tab + 1);
        const std::string context = Unescape(line.substr(0, tab));
        auto session = engine->NewSession(SessionOptions());
        CheckOrDie(session->SetContext(context), "bad context");
        CheckOrDie(session->Type(prefix), "bad letters");
        Decision d;
        CheckOrDie(session->Decide(args->k, &d), "decide");
        nlohmann::json out;
        out["context"] = context;
        if (!prefix.empty()) out["prefix"] = prefix;
        out["candidates"] = nlohmann::json::array();
        for (const Candidate& c : d.candidates) out["candidates"].push_back(c.text);
        out["decision"] = DecisionJson(d);
        std::cout << out.dump() << "\n";
      }
      return;
    }
    auto session = engine->NewSession(SessionOptions());
    std::string context = args->context;
    if (!context.empty() && !args->prefix.empty() &&
        std::isalpha(static_cast<unsigned char>(context.back()))) {
      context += ' ';
    }
    CheckOrDie(session->SetContext(context), "bad --context");
    CheckOrDie(session->Type(args->prefix), "bad --prefix");
    Decision d;
    CheckOrDie(session->Decide(args->k, &d), "decide");
    if (args->json) {
      nlohmann::json out = DecisionJson(d);
      out["timings_us"] = {
          {"features", d.timings.features_us}, {"candidates", d.timings.candidates_us},
          {"model", d.timings.model_us},       {"heads", d.timings.heads_us},
          {"post", d.timings.post_us},         {"total", d.timings.total_us}};
      std::cout << out.dump() << "\n";
      return;
    }
    for (size_t i = 0; i < d.candidates.size(); ++i) {
      const Candidate& c = d.candidates[i];
      std::cout << i + 1 << ". " << c.text << "\t" << c.score << "\t" << CandidateKindName(c.kind)
                << "\n";
    }
    if (d.has_model) {
      std::printf("popup %.2f (%s)  autocorrect %.2f%s%s  intent %s\n", d.popup.probability,
                  d.popup.show ? "show" : "hide", d.autocorrect.confidence,
                  d.autocorrect.apply ? " -> " : "",
                  d.autocorrect.apply ? d.autocorrect.replacement.c_str() : "",
                  d.intent.label.c_str());
    }
    std::cout << "total " << d.timings.total_us << " us\n";
  });
}

}  // namespace keydecide
