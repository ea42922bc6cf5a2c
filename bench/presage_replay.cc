// presage_replay: the replay of tools/replay.h with Presage (Debian's presage, a smoothed
// n-gram predictor) behind the same Session interface, so both engines are measured by the
// same typist on the same text. Used by bench/presage_compare.sh.
//
//   presage_replay --db NGRAMS.db --text FILE [--suggestions K] [--max-chars N]

#include <presage.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "keydecide/engine.h"
#include "tools/replay.h"
#include "tools/text_file.h"

namespace keydecide {
namespace {

// Presage reads the text before the cursor through this callback.
class TextCallback : public PresageCallback {
 public:
  explicit TextCallback(const std::string* text) : text_(text) {}
  std::string get_past_stream() const override { return *text_; }
  std::string get_future_stream() const override { return ""; }

 private:
  const std::string* text_;
};

class PresageSession : public Session {
 public:
  PresageSession(const std::string& db, int suggestions)
      : callback_(&text_), presage_(&callback_) {
    presage_.config("Presage.PredictorRegistry.PREDICTORS",
                    "DefaultSmoothedNgramPredictor DefaultRecencyPredictor");
    presage_.config("Presage.Predictors.DefaultSmoothedNgramPredictor.DBFILENAME", db);
    presage_.config("Presage.ContextTracker.ONLINE_LEARNING", "no");
    presage_.config("Presage.Selector.SUGGESTIONS", std::to_string(suggestions));
  }

  using Session::Type;
  Status Type(std::string_view t, std::optional<int64_t>) override {
    text_ += t;
    return Status::OK();
  }
  Status Backspace() override {
    if (!text_.empty()) text_.pop_back();
    return Status::OK();
  }
  Status Accept(std::string_view word) override {
    text_.resize(text_.size() - composition().size());
    text_ += word;
    return Status::OK();
  }
  Status SetContext(std::string_view t) override {
    text_ = t;
    return Status::OK();
  }
  Status Decide(int k, Decision* out) override {
    const std::vector<std::string> words = presage_.predict();
    out->candidates.clear();
    for (const std::string& w : words) {
      if (static_cast<int>(out->candidates.size()) == k) break;
      out->candidates.push_back({w, 0, 0, CandidateKind::kCompletion});
    }
    return Status::OK();
  }
  std::string_view text() const override { return text_; }
  std::string_view composition() const override {
    size_t start = text_.size();
    while (start > 0 && IsAsciiLetter(text_[start - 1])) --start;
    return std::string_view(text_).substr(start);
  }

 private:
  std::string text_;
  TextCallback callback_;
  Presage presage_;
};

}  // namespace
}  // namespace keydecide

int main(int argc, char** argv) {
  CLI::App app{"Replay a text with Presage behind keydecide's Session interface"};
  std::string db, text_path, trace_path;
  int suggestions = 3;
  size_t max_chars = 0;
  app.add_option("--db", db, "Presage n-gram database (text2ngram, sqlite)")->required();
  app.add_option("--text", text_path, "Text to type")->required();
  app.add_option("--suggestions", suggestions, "Candidates the typist looks at");
  app.add_option("--max-chars", max_chars, "Type only the first N bytes, cut at a line end");
  app.add_option("--trace", trace_path, "One JSON line per word (keydecide replay --trace)");
  bool contractions = false, exact_case = false;
  app.add_flag("--contractions", contractions, "A word keeps its apostrophes (replay's rule)");
  app.add_flag("--exact-case", exact_case, "A candidate counts only in the word's own case");
  CLI11_PARSE(app, argc, argv);

  std::string text;
  if (const keydecide::Status s = keydecide::ReadTextFile(text_path, &text); !s.ok()) {
    std::cerr << "presage_replay: " << s.ToString() << "\n";
    return 1;
  }
  keydecide::KeepLeadingBytes(&text, max_chars);
  try {
    keydecide::PresageSession session(db, std::max(suggestions, 3));
    keydecide::ReplayOptions options;
    options.suggestions = suggestions;
    options.contractions = contractions;
    options.exact_case = exact_case;
    std::vector<keydecide::WordTrace> trace;
    if (!trace_path.empty()) {
      options.trace = &trace;
      options.trace_depth = suggestions;  // Presage offers what its selector was set to
    }
    keydecide::ReplayResult r;
    const keydecide::Status s = keydecide::Replay(text, &session, options, &r);
    if (!s.ok()) {
      std::cerr << "presage_replay: " << s.ToString() << "\n";
      return 1;
    }
    if (!trace_path.empty()) {
      std::ofstream trace_out(trace_path, std::ios::trunc);
      for (const keydecide::WordTrace& t : trace) {
        trace_out << keydecide::WordTraceJson(text, t).dump() << "\n";
      }
    }
    nlohmann::json out = keydecide::ReplayReport(r);
    out["engine"] = "presage";
    std::cout << out.dump(2) << "\n";
  } catch (const std::exception& e) {  // Presage reports configuration errors by throwing
    std::cerr << "presage_replay: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
