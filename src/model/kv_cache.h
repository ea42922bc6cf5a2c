// KvCache: one session's model state: the keys and values of every position seen so far,
// per layer, plus scratch space for a step. Allocated once per session (max_len
// positions); stepping and truncating never allocate.

#ifndef KEYDECIDE_MODEL_KV_CACHE_H_
#define KEYDECIDE_MODEL_KV_CACHE_H_

#include <vector>

#include "model/model_config.h"

namespace keydecide {

class KvCache {
 public:
  explicit KvCache(const ModelConfig& config);

  int length() const { return length_; }
  int capacity() const { return max_len_; }
  // Forgets positions n.. (backspace, commit). REQUIRES: 0 <= n <= length().
  void Truncate(int n) { length_ = n; }
  void Clear() { length_ = 0; }
  // Forks a hypothesis: this cache becomes `from`'s first n positions (keys and values
  // copied). REQUIRES: both for the same config; 0 <= n <= from.length().
  void CopyPrefix(const KvCache& from, int n);

  // Key / value rows [d_model] of a layer at a position.
  float* key(int layer, int pos) { return &keys_[Offset(layer, pos)]; }
  float* value(int layer, int pos) { return &values_[Offset(layer, pos)]; }
  const float* key(int layer, int pos) const { return &keys_[Offset(layer, pos)]; }
  const float* value(int layer, int pos) const { return &values_[Offset(layer, pos)]; }

 private:
  friend class Transformer;
  size_t Offset(int layer, int pos) const {
    return (static_cast<size_t>(layer) * max_len_ + pos) * d_model_;
  }

  int max_len_, d_model_;
  int length_ = 0;
  std::vector<float> keys_, values_;  // [n_layers, max_len, d_model]
  // Scratch of one block of at most kBlockRows positions (Encode and Extend go through
  // longer runs block by block): x, normed x, qkv, attention output, scores, mlp hidden.
  // A session's memory is then mostly its keys and values.
  static constexpr int kBlockRows = 16;
  int block_rows_;
  std::vector<float> x_, xn_, qkv_, att_, scores_, hidden_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_KV_CACHE_H_
