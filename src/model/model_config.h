// ModelConfig: the hyper-parameters and token layout of a typing model, read from the
// "config" metadata of its weight file (docs/MODEL.md is the contract).

#ifndef KEYDECIDE_MODEL_MODEL_CONFIG_H_
#define KEYDECIDE_MODEL_MODEL_CONFIG_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

struct ModelConfig {
  // Fixed token ids of the contract (persisted: do not renumber).
  static constexpr int kPad = 0;
  static constexpr int kBos = 1;
  static constexpr int kSep = 2;
  static constexpr int kFirstApp = 3;   // 5 app types
  static constexpr int kFirstChar = 8;  // 'a'..'z', '\'', other
  static constexpr int kCharApostrophe = 34;
  static constexpr int kCharOther = 35;
  static constexpr int kWordOffset = 36;
  // Word indices (add kWordOffset for the token id).
  static constexpr int kUnkWord = 0;
  static constexpr int kNumWord = 1;
  static constexpr int kUrlWord = 2;
  static constexpr int kEmailWord = 3;
  static constexpr int kIntervalBuckets = 8;

  int n_layers = 0;
  int d_model = 0;
  int n_heads = 0;
  int d_ff = 0;
  int max_len = 0;
  int vocab_size = 0;
  float norm_eps = 1e-5f;
  std::vector<float> interval_edges_ms;  // 6 edges -> buckets 1..7
  std::vector<std::string> intent_labels;

  int head_dim() const { return d_model / n_heads; }
  int n_words() const { return vocab_size - kWordOffset; }

  // Every tensor of the contract (docs/MODEL.md, "File") and its shape, by name.
  std::map<std::string, std::vector<int64_t>> TensorShapes() const;

  // Parses and checks the JSON object; InvalidArgument naming the bad field.
  static Status Parse(std::string_view json, ModelConfig* out);

  // Token id of a typed character (lower-cased ASCII letter, apostrophe, other).
  static int CharToken(char32_t cp);
  // Interval bucket (1..7) of a keystroke that came `ms` after the previous one.
  int IntervalBucket(float ms) const;
};

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_MODEL_CONFIG_H_
