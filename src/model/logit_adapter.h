// LogitAdapter: a person's correction to a typing model's word logits, trained on the device
// over the frozen base model (docs/PERSONAL.md, "Fine-tuning"):
//
//   logit'(w | y) = logit(w | y) + bias[w] + U[w] . (A y)
//
// y is the base model's final-norm hidden state [d_model], A [rank, d_model] projects it,
// U [n_words, rank] and bias [n_words] are per word. The base weights are never changed; an
// adapter names the base it was trained on (base_id: the weight file's checksum), and one
// for another base is refused when read.
//
// Why the output side only: the gradient then stops at y, so a round needs the base's
// forward once per example and no backward pass through the int8 layers, and the adapter
// costs rank * d_model + candidates * rank multiply-adds per keystroke.
//
// Serialised form (the user store keeps it as a blob), little-endian:
//   "KDA1" | u32 rank | u32 d_model | u32 n_words | u32 base_id length | base_id bytes |
//   f32 A[rank * d_model] | f32 U[n_words * rank] | f32 bias[n_words]
// Parse refuses any other length, dimensions beyond the limits below and non-finite values.

#ifndef KEYDECIDE_MODEL_LOGIT_ADAPTER_H_
#define KEYDECIDE_MODEL_LOGIT_ADAPTER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

struct LogitAdapter {
  static constexpr int kMaxRank = 64;
  static constexpr int kMaxDModel = 4096;
  static constexpr int kMaxWords = 1 << 20;
  static constexpr size_t kMaxBaseIdBytes = 64;

  int rank = 0, d_model = 0, n_words = 0;
  std::string base_id;
  std::vector<float> a;     // [rank, d_model]
  std::vector<float> u;     // [n_words, rank]
  std::vector<float> bias;  // [n_words]

  // A zero adapter (no effect): A drawn from N(0, 1/d_model) by `seed`, U and bias zero, so
  // that training moves U first (the LoRA start). REQUIRES: dimensions within the limits.
  static LogitAdapter Zero(int rank, int d_model, int n_words, std::string base_id, uint64_t seed);

  // z = A y [rank]: once per hidden state.
  void Project(const float* y, float* z) const;
  // bias[w] + U[w] . z for the z of Project.
  float Delta(const float* z, int word) const {
    const float* uw = &u[static_cast<size_t>(word) * rank];
    float s = bias[word];
    for (int r = 0; r < rank; ++r) s += uw[r] * z[r];
    return s;
  }

  std::string Serialize() const;
  // InvalidArgument/Corruption naming the first problem; *out is untouched then.
  static Status Parse(std::string_view blob, LogitAdapter* out);
};

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_LOGIT_ADAPTER_H_
