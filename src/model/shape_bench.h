// The model alone at standard shapes with random weights, for `keydecide bench --shape`
// (docs/history/BENCHMARKS-to-2026-12-07.md), so the kernels compare with other runtimes on equal
// terms.

#ifndef KEYDECIDE_MODEL_SHAPE_BENCH_H_
#define KEYDECIDE_MODEL_SHAPE_BENCH_H_

#include <string>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

struct ModelShape {
  std::string name;
  int n_layers, d_model, n_heads, vocab;  // d_ff = 4 * d_model
};

// S1 = 4 layers d256 4 heads vocab 5000, S2 = 6 layers d256, S3 = 8 layers d384 6 heads
// vocab 8000, S4 = 8 layers d768 12 heads vocab 16000. InvalidArgument for other names.
Status StandardShape(const std::string& name, ModelShape* out);

struct ShapeBenchOptions {
  ModelShape shape;
  std::string weights = "q8";  // "f32", "q8", "q4g32", "q4g64"
  int threads = 1;             // scenario (c) splits its sequences over this many threads
  int iterations = 0;          // per scenario; 0: a default that takes about a second
  uint32_t seed = 1;
  // Writes the random float model here (and the quantized one beside it) so that another
  // runtime (bench/compare_torch.py) can load the same weights. "" : a temporary file.
  std::string model_path;
};

struct ScenarioTiming {
  std::string name;             // "a", "b", "c"
  std::string what;             // human description
  int iterations = 0;
  std::vector<double> times_us; // one per iteration
  double p50_us = 0, p95_us = 0, mean_us = 0;
};

// (a) one 32-token forward (block encode) plus the word logits of its last position;
// (b) one decode step with 31 tokens cached plus the word logits;
// (c) 64 sequences x 32 tokens, each a forward plus its last position's logits.
Status BenchModelShape(const ShapeBenchOptions& options, std::vector<ScenarioTiming>* out);

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_SHAPE_BENCH_H_
