// Transformer: the typing model's fp32 reference forward pass (docs/MODEL.md, "The typing
// model"). Plain loops, written to be read and to be the reference the fast kernels of
// src/model/kernels are tested against. Immutable after Load; shared by all sessions,
// whose state lives in their KvCache.

#ifndef KEYDECIDE_MODEL_TRANSFORMER_H_
#define KEYDECIDE_MODEL_TRANSFORMER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keydecide/status.h"
#include "model/kv_cache.h"
#include "model/model_config.h"

namespace keydecide {

class SafetensorsFile;

struct TokenInput {
  int32_t id;
  uint8_t interval = 0;         // bucket 0..7 (0: not a keystroke)
  uint8_t after_backspace = 0;  // 1 on the key typed right after a backspace
};

class Transformer {
 public:
  // Reads the config and vocabulary metadata and every tensor of the contract, checking
  // names, shapes and dtypes (F16 is widened to F32). InvalidArgument/Corruption naming the
  // first problem; the file may be dropped afterwards (weights are copied).
  static Status Load(const SafetensorsFile& file, std::unique_ptr<Transformer>* out);
  static Status Open(const std::string& path, std::unique_ptr<Transformer>* out);

  const ModelConfig& config() const { return config_; }

  // --- Vocabulary ---
  int n_words() const { return config_.n_words(); }
  std::string_view Word(int index) const { return words_[index]; }
  // Word index of a lower-cased token, or ModelConfig::kUnkWord.
  int WordIndex(std::string_view lower) const;
  // True for vocabulary words that contain a letter (not punctuation or specials).
  bool IsLetterWord(int index) const { return letter_word_[index] != 0; }

  // --- Forward ---
  // Appends one token at position cache->length() and writes the final-norm hidden state
  // of that position to y [d_model]. REQUIRES: cache->length() < cache->capacity(), token
  // fields in range (id < vocab_size, interval < 8, after_backspace < 2).
  void Step(const TokenInput& token, KvCache* cache, float* y) const;

  // Clears the cache and encodes `tokens` at positions 0..n-1 all at once (matrix form),
  // writing the final-norm hidden states to y [n, d_model]. Same results as n Steps.
  // REQUIRES: 1 <= tokens.size() <= max_len.
  void Encode(std::span<const TokenInput> tokens, KvCache* cache, float* y) const;

  // --- Heads on a final-norm hidden state y ---
  float WordLogit(const float* y, int word) const;
  void WordLogits(const float* y, float* logits) const;  // [n_words]
  float Popup(const float* y) const;                      // probability
  float Autocorrect(const float* y) const;                // probability
  void Intent(const float* y, float* probs) const;        // [intent_labels.size()]

 private:
  struct Linear {  // y = W x + b, W [out, in] row-major
    int in = 0, out = 0;
    std::vector<float> w, b;
  };
  struct Norm {
    std::vector<float> w, b;
  };
  struct Layer {
    Norm ln1, ln2;
    Linear qkv, out, fc1, fc2;
  };

  Transformer() = default;
  void Embed(const TokenInput& t, int pos, float* x) const;
  void Attend(int layer, int pos, const float* q, const KvCache& cache, float* scores,
              float* out) const;
  void LayerNorm(const Norm& n, const float* x, float* y) const;

  ModelConfig config_;
  std::vector<float> tok_emb_, pos_emb_, ivl_emb_, bs_emb_;  // [rows, d_model]
  std::vector<Layer> layers_;
  Norm ln_f_;
  Linear popup_, autocorrect_, intent_;
  std::vector<std::string> words_;
  std::unordered_map<std::string_view, int> word_index_;  // views into words_
  std::vector<uint8_t> letter_word_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_TRANSFORMER_H_
