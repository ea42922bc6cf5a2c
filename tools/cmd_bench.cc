// keydecide bench: per-decision latency on real text (with the stage breakdown, candidate-
// count scaling, cold start and RSS), or the model alone at a standard shape.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "model/shape_bench.h"
#include "tools/cli_common.h"
#include "tools/commands.h"
#include "tools/proc_status.h"
#include "tools/quantile.h"
#include "tools/text_file.h"

namespace keydecide {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kWarmupDecisions = 200;

nlohmann::json Quantiles(const std::vector<float>& v) {
  return {{"p50", Quantile(v, 0.5)},
          {"p95", Quantile(v, 0.95)},
          {"p99", Quantile(v, 0.99)},
          {"p999", Quantile(v, 0.999)}};
}

struct StageSamples {
  std::vector<float> total, features, candidates, model, heads, post, wall;
};

// Types `text` one character per keystroke, again from the start in a new session until
// `min_decisions` decisions past the warm-up are recorded.
Status TypeAndTime(const Engine& engine, const EngineFlags& flags, const SessionOptions& options,
                   const std::string& text, int k, size_t min_decisions, StageSamples* s) {
  if (text.empty()) return Status::InvalidArgument("empty text");
  Decision d;
  size_t seen = 0;
  while (s->total.size() < min_decisions) {
    auto session = flags.NewSession(engine, options);
    for (size_t pos = 0; pos < text.size() && s->total.size() < min_decisions;) {
      size_t next = pos + 1;
      while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;
      KD_RETURN_IF_ERROR(session->Type(std::string_view(text).substr(pos, next - pos)));
      pos = next;
      const auto t0 = Clock::now();
      KD_RETURN_IF_ERROR(session->Decide(k, &d));
      const float wall = std::chrono::duration<float, std::micro>(Clock::now() - t0).count();
      if (++seen <= kWarmupDecisions) continue;
      s->wall.push_back(wall);
      s->total.push_back(d.timings.total_us);
      s->features.push_back(d.timings.features_us);
      s->candidates.push_back(d.timings.candidates_us);
      s->model.push_back(d.timings.model_us);
      s->heads.push_back(d.timings.heads_us);
      s->post.push_back(d.timings.post_us);
    }
  }
  return Status::OK();
}

}  // namespace

void AddBenchCommand(CLI::App* app) {
  struct Args {
    EngineFlags engine;
    std::string text, shape, weights = "q8", plot, save_model, personal_store,
                             autocorrect_level = "normal";
    int threads = 1, iterations = 0, suggestions = 3;
    size_t decisions = 5000, max_chars = 0;
    bool json = false, no_scaling = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app->add_subcommand(
      "bench", "Latency per decision on real text (--text), or the model alone (--shape)");
  a->engine.AddTo(cmd);
  cmd->add_option("--text", a->text, "Text to type, one decision per keystroke");
  cmd->add_option("--decisions", a->decisions, "Decisions to time after a 200-decision warm-up");
  cmd->add_option("--max-chars", a->max_chars, "Use only the first N bytes of --text (0 = all)");
  cmd->add_option("--suggestions", a->suggestions, "Candidates asked for per decision");
  cmd->add_flag("--no-scaling", a->no_scaling, "Skip the candidate-count scaling runs");
  cmd->add_option("--autocorrect-level", a->autocorrect_level,
                  "Autocorrect level of the timed sessions (a lower threshold reads the model's "
                  "vocabulary at more keystrokes): off, cautious, normal or eager")
      ->check(CLI::IsMember({"off", "cautious", "normal", "eager"}))
      ->capture_default_str();
  cmd->add_option("--plot", a->plot, "Write a latency plot (PNG, needs python3-matplotlib)");
  cmd->add_option("--shape", a->shape, "Model alone with random weights: S1, S2, S3 or S4");
  cmd->add_option("--weights", a->weights, "--shape: f32, q8, q4g32 or q4g64");
  cmd->add_option("--threads", a->threads, "--shape: threads for scenario (c)");
  cmd->add_option("--iterations", a->iterations,
                  "--shape: iterations of (a) and (b) (0 = default)");
  cmd->add_option("--save-model", a->save_model,
                  "--shape: keep the random float model at this path (for compare_torch.py)");
  cmd->add_option("--personal-store", a->personal_store,
                  "--text: rank with this user store, learning paused (docs/PERSONAL.md)");
  cmd->add_flag("--json", a->json, "Print one JSON object");
  cmd->callback([a] {
    if (a->shape.empty() == a->text.empty()) {
      Die(kUsageExit, "Usage", "bench", "give exactly one of --text and --shape");
    }
    if (!a->shape.empty()) {
      ShapeBenchOptions o;
      CheckOrDie(StandardShape(a->shape, &o.shape), "bench");
      o.weights = a->weights;
      o.threads = a->threads;
      o.iterations = a->iterations;
      o.model_path = a->save_model;
      std::vector<ScenarioTiming> timings;
      CheckOrDie(BenchModelShape(o, &timings), "bench --shape");
      nlohmann::json out = {{"shape", a->shape},
                            {"weights", a->weights},
                            {"threads", a->threads},
                            {"scenarios", nlohmann::json::object()}};
      for (const ScenarioTiming& t : timings) {
        out["scenarios"][t.name] = {{"what", t.what},
                                    {"iterations", t.iterations},
                                    {"p50_us", t.p50_us},
                                    {"p95_us", t.p95_us},
                                    {"mean_us", t.mean_us}};
        if (!a->json) {
          std::printf("%s %s %d thread(s) (%s) %-48s P50 %10.1f us  P95 %10.1f us  (%d runs)\n",
                      a->shape.c_str(), a->weights.c_str(), a->threads, t.name.c_str(),
                      t.what.c_str(), t.p50_us, t.p95_us, t.iterations);
        }
      }
      if (a->json) std::cout << out.dump(2) << "\n";
      return;
    }

    std::string text = ReadOrDie(a->text);
    KeepLeadingBytes(&text, a->max_chars);
    // With --personal-store the decisions rank with the person's words; learning is paused so
    // that every run reads the same store.
    const auto open = [&](const EngineFlags& flags) {
      if (a->personal_store.empty()) return flags.OpenOrDie();
      // A mistyped path would open (and time) a fresh, empty store.
      if (!std::filesystem::is_regular_file(a->personal_store)) {
        Die(kUsageExit, "Usage", "bench", "no user store at " + a->personal_store);
      }
      EngineOptions o = flags.Options();
      o.personal = true;
      o.user_store_path = a->personal_store;
      o.learn = false;
      std::unique_ptr<Engine> e;
      CheckOrDie(Engine::Open(o, &e), "cannot open the engine");
      if (e->info().personal.rfind("on", 0) != 0) {
        Die(1, "IOError", "bench", "the user store did not open: " + e->info().personal);
      }
      return e;
    };
    const auto t0 = Clock::now();
    auto engine = open(a->engine);
    {
      auto session = engine->NewSession(SessionOptions());
      Decision d;
      CheckOrDie(session->Type("t"), "bench");
      CheckOrDie(session->Decide(a->suggestions, &d), "bench");
    }
    const double cold_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    SessionOptions options;
    options.autocorrect_level = ParseAutocorrectLevelOrDie(a->autocorrect_level);
    StageSamples s;
    CheckOrDie(TypeAndTime(*engine, a->engine, options, text, a->suggestions, a->decisions, &s),
               "bench");
    const long rss_kb = ProcStatusKb("VmRSS"), hwm_kb = ProcStatusKb("VmHWM");
    nlohmann::json out = {{"text", a->text},
                          {"model", engine->info().model_path},
                          {"scorer", engine->info().scorer},
                          {"tier", a->engine.tier},
                          {"autocorrect_level", a->autocorrect_level},
                          {"personal", engine->info().personal},
                          {"decisions", s.total.size()},
                          {"cold_start_ms", cold_ms},
                          {"rss_mb", rss_kb / 1024.0},
                          {"peak_rss_mb", hwm_kb / 1024.0},
                          {"decision_us", Quantiles(s.total)},
                          {"wall_us", Quantiles(s.wall)},
                          {"stages_us",
                           {{"features", Quantiles(s.features)},
                            {"candidates", Quantiles(s.candidates)},
                            {"model", Quantiles(s.model)},
                            {"heads", Quantiles(s.heads)},
                            {"post", Quantiles(s.post)}}}};
    if (!a->no_scaling) {
      out["candidate_scaling"] = nlohmann::json::array();
      for (const int n : {1, 8, 64, 200}) {
        EngineFlags flags = a->engine;
        flags.max_candidates = n;
        auto e = open(flags);
        StageSamples sc;
        CheckOrDie(TypeAndTime(*e, a->engine, options, text, std::min(a->suggestions, n),
                               std::max<size_t>(a->decisions / 2, 1000), &sc),
                   "bench");
        out["candidate_scaling"].push_back(
            {{"max_candidates", n}, {"decision_us", Quantiles(sc.total)}});
      }
    }
    if (!a->plot.empty()) {
      const std::string data = a->plot + ".json";
      nlohmann::json plot = out;
      plot["samples_us"] = s.total;
      std::ofstream(data) << plot.dump();
      const std::string command = "/usr/bin/python3 " KEYDECIDE_SOURCE_DIR
                                  "/bench/plot_bench.py '" +
                                  data + "' '" + a->plot + "'";
      if (std::system(command.c_str()) != 0) {
        Die(1, "IOError", "bench", "plotting failed (" + command + ")");
      }
      std::remove(data.c_str());
    }
    if (a->json) {
      std::cout << out.dump(2) << "\n";
      return;
    }
    std::printf("%zu decisions (%s), cold start %.1f ms, RSS %.1f MB (peak %.1f MB)\n",
                s.total.size(), engine->info().scorer.c_str(), cold_ms, rss_kb / 1024.0,
                hwm_kb / 1024.0);
    auto row = [](const char* name, const std::vector<float>& v) {
      std::printf("  %-11s P50 %8.1f  P95 %8.1f  P99 %8.1f  P99.9 %8.1f us\n", name,
                  Quantile(v, 0.5), Quantile(v, 0.95), Quantile(v, 0.99), Quantile(v, 0.999));
    };
    row("decision", s.total);
    row("features", s.features);
    row("candidates", s.candidates);
    row("model", s.model);
    row("heads", s.heads);
    row("post", s.post);
    if (out.contains("candidate_scaling")) {
      for (const auto& c : out["candidate_scaling"]) {
        std::printf("  max_candidates %3d: P50 %8.1f  P95 %8.1f us\n",
                    c["max_candidates"].get<int>(), c["decision_us"]["p50"].get<double>(),
                    c["decision_us"]["p95"].get<double>());
      }
    }
  });
}

}  // namespace keydecide
