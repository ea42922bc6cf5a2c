// keydecide bench --shape: random-weight models at standard shapes (bench_tool.h).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "model/shape_bench.h"
#include "model/quantize.h"
#include "model/safetensors.h"
#include "model/transformer.h"

namespace keydecide {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kSequence = 32;   // tokens of a forward in (a) and (c)
constexpr int kSequences = 64;  // sequences of (c)

// Writes a float model of `shape` with N(0, 0.02)-like random weights (norms near 1) in
// the file layout of docs/MODEL.md.
Status WriteRandomModel(const ModelShape& shape, uint32_t seed, const std::string& path) {
  const int64_t d = shape.d_model, ff = 4 * shape.d_model, max_len = 64;
  const int64_t words = shape.vocab - ModelConfig::kWordOffset;
  ModelConfig layout;
  layout.n_layers = shape.n_layers, layout.d_model = static_cast<int>(d);
  layout.d_ff = static_cast<int>(ff), layout.max_len = static_cast<int>(max_len);
  layout.vocab_size = shape.vocab;
  layout.intent_labels = {"prose", "code", "url", "command"};
  const auto tensors = layout.TensorShapes();
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<TensorToWrite> out;
  for (const auto& [name, dims] : tensors) {
    int64_t n = 1;
    for (int64_t x : dims) n *= x;
    const bool norm_weight = name.find("ln") != std::string::npos && name.ends_with(".weight");
    const float scale = dims.size() == 2 ? 1.0f / std::sqrt(static_cast<float>(dims[1])) : 0.02f;
    std::vector<float> v(n);
    for (float& x : v) x = norm_weight ? 1.0f + 0.1f * normal(rng) : scale * normal(rng);
    out.push_back({name, "F32", dims, std::string(reinterpret_cast<const char*>(v.data()), n * 4)});
  }
  nlohmann::json config = {{"n_layers", shape.n_layers},
                           {"d_model", d},
                           {"n_heads", shape.n_heads},
                           {"d_ff", ff},
                           {"max_len", max_len},
                           {"vocab_size", shape.vocab},
                           {"word_offset", ModelConfig::kWordOffset},
                           {"n_interval_buckets", 8},
                           {"interval_edges_ms", {60, 100, 150, 220, 350, 600}},
                           {"norm_eps", 1e-5},
                           {"intent_labels", {"prose", "code", "url", "command"}},
                           {"app_types", {"chat", "search", "code", "editor", "url"}}};
  std::string vocabulary = "<unk>\n<num>\n<url>\n<email>";
  for (int64_t w = 4; w < words; ++w) vocabulary += "\nw" + std::to_string(w);
  return WriteSafetensors(path,
                          {{"format", "keydecide-model"},
                           {"format_version", "1"},
                           {"config", config.dump()},
                           {"words", vocabulary}},
                          out);
}

void Summarize(ScenarioTiming* s) {
  std::vector<double> t = s->times_us;
  std::sort(t.begin(), t.end());
  auto q = [&](double p) { return t[static_cast<size_t>(p * (t.size() - 1) + 0.5)]; };
  s->p50_us = q(0.5);
  s->p95_us = q(0.95);
  double sum = 0;
  for (double x : t) sum += x;
  s->mean_us = sum / t.size();
}

std::vector<TokenInput> RandomTokens(int n, int vocab, std::mt19937* rng) {
  std::vector<TokenInput> t(n);
  for (TokenInput& x : t) {
    x = {static_cast<int32_t>((*rng)() % vocab), static_cast<uint8_t>((*rng)() % 8), 0};
  }
  return t;
}

}  // namespace

Status StandardShape(const std::string& name, ModelShape* out) {
  if (name == "S1")
    *out = {"S1", 4, 256, 4, 5000};
  else if (name == "S2")
    *out = {"S2", 6, 256, 4, 5000};
  else if (name == "S3")
    *out = {"S3", 8, 384, 6, 8000};
  else if (name == "S4")
    *out = {"S4", 8, 768, 12, 16000};
  else
    return Status::InvalidArgument("unknown shape '" + name + "' (S1, S2, S3, S4)");
  return Status::OK();
}

namespace {

// The random model of the shape in its weight format, loaded (temporary files removed).
Status MakeShapeModel(const ShapeBenchOptions& o, std::unique_ptr<Transformer>* model) {
  const bool temporary = o.model_path.empty();
  const std::string float_path =
      temporary ? (std::filesystem::temp_directory_path() /
                   ("keydecide-shape-" + std::to_string(::getpid()) + ".safetensors"))
                      .string()
                : o.model_path;
  KD_RETURN_IF_ERROR(WriteRandomModel(o.shape, o.seed, float_path));
  std::string path = float_path;
  if (o.weights != "f32") {
    QuantizeOptions q;
    if (o.weights == "q8") {
      q.bits = 8;
    } else if (o.weights == "q4g32" || o.weights == "q4g64") {
      q.bits = 4, q.group = o.weights == "q4g32" ? 32 : 64;
    } else {
      return Status::InvalidArgument("weights must be f32, q8, q4g32 or q4g64");
    }
    q.promote_flagged = false;  // the shape, not the weights, is under test
    path = float_path + "." + o.weights + ".safetensors";
    QuantizeReport report;
    KD_RETURN_IF_ERROR(QuantizeModel(float_path, path, q, &report));
  }
  const Status loaded = Transformer::Open(path, model);
  if (temporary) {
    std::filesystem::remove(float_path);
    if (path != float_path) std::filesystem::remove(path);
  }
  return loaded;
}

// One forward's buffers: the cache, the hidden states, the word logits.
struct ShapeBuffers {
  explicit ShapeBuffers(const ModelConfig& config)
      : cache(config),
        y(static_cast<size_t>(config.max_len) * config.d_model),
        logits(config.n_words()) {}
  KvCache cache;
  std::vector<float> y, logits;
};

// One forward of `tokens` plus the last position's word logits.
void Forward(const Transformer& model, const std::vector<TokenInput>& tokens, ShapeBuffers* b) {
  model.Encode(tokens, &b->cache, b->y.data());
  model.WordLogits(b->y.data() + (tokens.size() - 1) * model.config().d_model, b->logits.data());
}

template <typename Fn>
double TimeUs(Fn&& fn) {
  const auto t0 = Clock::now();
  fn();
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

ScenarioTiming Scenario(const char* name, const char* what, int iterations) {
  return {name, what, iterations, {}, 0, 0, 0};
}

// a: one 32-token forward.
ScenarioTiming TimeForward(const Transformer& model, const std::vector<TokenInput>& tokens,
                           int iterations) {
  ScenarioTiming a = Scenario("a", "one 32-token forward + word logits", iterations);
  ShapeBuffers buffers(model.config());
  for (int i = 0; i < 3; ++i) Forward(model, tokens, &buffers);  // warm-up
  for (int i = 0; i < a.iterations; ++i) {
    a.times_us.push_back(TimeUs([&] { Forward(model, tokens, &buffers); }));
  }
  return a;
}

// b: one decode step after 31 cached tokens.
ScenarioTiming TimeStep(const Transformer& model, const std::vector<TokenInput>& tokens,
                        int iterations) {
  ScenarioTiming b = Scenario("b", "one decode step with 31 cached + word logits", iterations);
  ShapeBuffers buffers(model.config());
  Forward(model, tokens, &buffers);
  for (int i = 0; i < b.iterations + 10; ++i) {
    buffers.cache.Truncate(kSequence - 1);
    const double t = TimeUs([&] {
      model.Step(tokens.back(), &buffers.cache, buffers.y.data());
      model.WordLogits(buffers.y.data(), buffers.logits.data());
    });
    if (i >= 10) b.times_us.push_back(t);  // the first ten warm up
  }
  return b;
}

// c: 64 sequences spread over `threads` threads.
ScenarioTiming TimeBatch(const Transformer& model, std::mt19937* rng, int threads,
                         int iterations) {
  ScenarioTiming cs =
      Scenario("c", "64 sequences x 32 tokens (forward + last logits each)", iterations);
  std::vector<std::vector<TokenInput>> sequences;
  for (int s = 0; s < kSequences; ++s) {
    sequences.push_back(RandomTokens(kSequence, model.config().vocab_size, rng));
  }
  std::vector<std::unique_ptr<ShapeBuffers>> per_thread;
  for (int t = 0; t < threads; ++t) {
    per_thread.push_back(std::make_unique<ShapeBuffers>(model.config()));
  }
  auto run_all = [&] {
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t) {
      workers.emplace_back([&, t] {
        for (int s = t; s < kSequences; s += threads) {
          Forward(model, sequences[s], per_thread[t].get());
        }
      });
    }
    for (int s = 0; s < kSequences; s += threads) Forward(model, sequences[s], per_thread[0].get());
    for (auto& w : workers) w.join();
  };
  run_all();  // warm-up
  for (int i = 0; i < cs.iterations; ++i) cs.times_us.push_back(TimeUs(run_all));
  return cs;
}

}  // namespace

Status BenchModelShape(const ShapeBenchOptions& o, std::vector<ScenarioTiming>* result) {
  if (o.threads < 1 || o.threads > 64) return Status::InvalidArgument("threads must be 1..64");
  std::unique_ptr<Transformer> model;
  KD_RETURN_IF_ERROR(MakeShapeModel(o, &model));
  std::mt19937 rng(o.seed);
  result->clear();
  const bool big = o.shape.d_model >= 768;
  const auto tokens = RandomTokens(kSequence, model->config().vocab_size, &rng);
  result->push_back(TimeForward(*model, tokens, o.iterations ? o.iterations : (big ? 40 : 300)));
  result->push_back(TimeStep(*model, tokens, o.iterations ? o.iterations : (big ? 300 : 3000)));
  result->push_back(TimeBatch(*model, &rng, o.threads,
                              o.iterations ? std::max(1, o.iterations / 100) : (big ? 2 : 8)));
  for (ScenarioTiming& s : *result) Summarize(&s);
  return Status::OK();
}

}  // namespace keydecide
