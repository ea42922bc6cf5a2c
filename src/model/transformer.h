// Transformer: the typing model's forward pass (docs/MODEL.md, "The typing model") over
// the kernels of src/model/kernels, with fp32, int8 or int4 weights. Immutable after Load;
// shared by all sessions (thread-safe for concurrent Steps on different caches), whose
// state lives in their KvCache. The kernels' scalar references define its arithmetic.

#ifndef KEYDECIDE_MODEL_TRANSFORMER_H_
#define KEYDECIDE_MODEL_TRANSFORMER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"
#include "model/kernels/weight_view.h"
#include "model/kv_cache.h"
#include "model/model_config.h"
#include "model/vocab.h"
#include "model/weight_matrix.h"

namespace keydecide {

class SafetensorsFile;
class WeightReader;

struct TokenInput {
  int32_t id;
  uint8_t interval = 0;         // bucket 0..7 (0: not a keystroke)
  uint8_t after_backspace = 0;  // 1 on the key typed right after a backspace
};

class Transformer {
 public:
  // Reads the config and vocabulary metadata and every tensor of the contract
  // (model/weight_format.h), checking names, shapes and dtypes. F16/F32 weights are widened
  // to fp32 copies; quantized ones (metadata "quantization") are used in place, so `file` is
  // kept open. The tensor data must match the file's checksum when it has one
  // (model/weight_checksum.h), and a probe of a few tokens must give finite outputs.
  // InvalidArgument/Corruption/NotSupported naming the first problem.
  static Status Load(std::shared_ptr<const SafetensorsFile> file,
                     std::unique_ptr<Transformer>* out);
  static Status Open(const std::string& path, std::unique_ptr<Transformer>* out);

  const ModelConfig& config() const { return config_; }
  // "f32" (fp16/fp32 files), "q8", "q4g32", "q4g64"; "+" joins several (e.g. "q4g64+q8").
  const std::string& weight_format() const { return weight_format_; }
  // What identifies these weights: the file's tensor checksum (weight_checksum.h), or, for a
  // file without one, its format and tensor bytes ("f32:<bytes>").
  std::string weights_id() const;

  // --- Vocabulary ---
  const Vocab& vocab() const { return vocab_; }
  int n_words() const { return config_.n_words(); }
  // The language the model was trained for (Vocab::language).
  std::string_view language() const { return vocab_.language(); }

  // --- Forward ---
  // Appends one token at position cache->length() and writes the final-norm hidden state
  // of that position to y [d_model]. REQUIRES: cache->length() < cache->capacity(), token
  // fields in range (id < vocab_size, interval < 8, after_backspace < 2).
  void Step(const TokenInput& token, KvCache* cache, float* y) const;

  // Clears the cache and encodes `tokens` at positions 0..n-1 all at once (matrix form),
  // writing the final-norm hidden states to y [n, d_model]. Same results as n Steps (up to
  // rounding). REQUIRES: 1 <= tokens.size() <= max_len.
  void Encode(std::span<const TokenInput> tokens, KvCache* cache, float* y) const;

  // Appends `tokens` at positions cache->length().. in one block (the matrix form, as
  // Encode) and writes the final-norm hidden state of the last one to y [d_model]. Same
  // results as one Step per token (up to rounding), cheaper for several: a finished word,
  // or keystrokes that arrived together. REQUIRES: 1 <= tokens.size() <=
  // cache->capacity() - cache->length(), token fields in range.
  void Extend(std::span<const TokenInput> tokens, KvCache* cache, float* y) const;
  // As Extend, writing the hidden state of every new position: y [tokens.size(), d_model].
  void ExtendAll(std::span<const TokenInput> tokens, KvCache* cache, float* y) const;

  // --- Heads on a final-norm hidden state y ---
  float WordLogit(const float* y, int word) const;
  // out[i] = logit of words[i]: the candidate rows only.
  void WordLogits(const float* y, std::span<const int32_t> words, float* out) const;
  void WordLogits(const float* y, float* logits) const;  // all [n_words]
  // The first n words' logits [n] (the vocabulary is in frequency order). REQUIRES: n <= n_words.
  void WordLogits(const float* y, int n, float* logits) const;
  float Popup(const float* y) const;                // probability
  float Autocorrect(const float* y) const;          // probability
  void Intent(const float* y, float* probs) const;  // [intent_labels.size()]

 private:
  struct Linear {  // y = W x + b, W [out, in]
    WeightMatrix w;
    std::vector<float> b;
  };
  struct Norm {
    std::vector<float> w, b;
  };
  struct Layer {
    Norm ln1, ln2;
    Linear qkv, out, fc1, fc2;
  };

  Transformer() = default;
  // Load's steps: the embeddings, the layers, the final norm and the heads.
  Status LoadEmbeddings(WeightReader* reader);
  Status LoadLayers(WeightReader* reader);
  Status LoadHeads(const WeightReader& reader);
  Status ReadNorm(const WeightReader& reader, const std::string& name, Norm* n) const;
  // Corruption when a probe's hidden states, heads or first kProbedWords logits overflow.
  Status CheckFiniteOutputs() const;
  static constexpr int kProbedWords = 64;
  void Embed(const TokenInput& t, int pos, float* x) const;
  void Forward(std::span<const TokenInput> tokens, KvCache* cache) const;
  void Attend(int layer, int pos, const float* q, const KvCache& cache, float* scores,
              float* out) const;
  void Apply(const Linear& l, const float* x, float* y) const;
  void ApplyNorm(const Norm& n, const float* x, float* y) const;

  std::shared_ptr<const SafetensorsFile> file_;  // quantized weights point into it
  ModelConfig config_;
  std::string weight_format_;
  WeightMatrix tok_emb_;                           // [vocab, d_model], tied with the word logits
  kernels::WeightView word_rows_;                  // tok_emb_ from row kWordOffset on
  std::vector<float> pos_emb_, ivl_emb_, bs_emb_;  // [rows, d_model]
  std::vector<Layer> layers_;
  Norm ln_f_;
  Linear popup_, autocorrect_, intent_;
  Vocab vocab_;  // its readings are views into file_'s metadata
};

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_TRANSFORMER_H_
