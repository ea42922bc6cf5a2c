// Quantizing model files, for the `keydecide quantize` command and tests.

#ifndef KEYDECIDE_MODEL_QUANTIZE_H_
#define KEYDECIDE_MODEL_QUANTIZE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

struct QuantizeOptions {
  int bits = 8;             // the Transformer layers' projections: 8 or 4
  int group = 64;           // 4-bit: columns per scale, 32 or 64
  int embedding_bits = 8;   // the tied embedding / word-logit table: 8 or 4
  // Weights left in fp32 (exact names, e.g. "layers.0.mlp.fc2.weight").
  std::vector<std::string> keep;
  // A weight whose relative quantization error exceeds its limit is stored one step more
  // precisely (4 -> 8 bits, 8 -> fp32) instead of being only reported.
  bool promote_flagged = true;
  double max_error_q8 = 0.03;  // relative RMS error: ~0.01 is typical for int8 rows
  double max_error_q4 = 0.20;  // ~0.10 is typical for 4-bit groups of 64
};

struct QuantizeReport {
  struct Weight {
    std::string name;
    std::vector<int64_t> shape;
    std::string format;         // as stored: "q8", "q4g32", "q4g64", or "f32" (kept)
    double relative_error = 0;  // sqrt(sum (w - w')^2 / sum w^2) of the stored weights
    std::string flag;           // why it was flagged ("" when not): non-finite, error
  };
  std::vector<Weight> weights;
  uint64_t input_bytes = 0;
  uint64_t output_bytes = 0;
};

// Reads an fp32/fp16 keydecide model and writes a quantized one (docs/MODEL.md, "Quantized
// files"): the projections of every layer at `bits`, the embedding table at
// `embedding_bits`; norms, position/timing embeddings and the decision heads stay as they
// are. The output carries the checksum of its tensor data (model/weight_checksum.h).
// InvalidArgument for bad options or an input that is not a float keydecide model
// (e.g. already quantized); Corruption when the input's tensor data fail its checksum;
// IOError when the output cannot be written (nothing is left half-written).
Status QuantizeModel(const std::string& input, const std::string& output,
                     const QuantizeOptions& options, QuantizeReport* report);

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_QUANTIZE_H_
