// IntentNgrams: a linear classifier of the line being typed, read through hashed byte n-grams,
// whose logits the engine adds to the typing model's intent log-probabilities. Why beside the
// model: in its hidden states, shell commands lie among code and the code of languages it never
// trained on near prose, where no head separates them; the bytes of a line (a `$ ` before a
// command, --flags, braces, sigils, `::`) do, in any language. Fitted on the training split's
// lines by training/keydecide_train/intent_ngrams.py, which computes the same features.
//
// Features: the line is the last line of the text before the cursor holding more than spaces
// and tabs, at most its last max_bytes bytes, framed by 0x02 (only when its start is among
// them) and 0x03. Every run of 1 to max_order bytes is hashed by 32-bit FNV-1a, started from
// the offset basis xor the run's length, into a bucket by the hash's low bits. The logits are
// bias + sum over runs of weight[bucket] / sqrt(runs).
//
// The file (safetensors): "weight" F16 [buckets, labels] (buckets a power of two, at most
// kMaxBuckets), "bias" F32 [labels], the metadata's "format" "keydecide-intent-ngrams",
// "format_version" "1", "labels" (a JSON list naming the weight's columns: the model's intent
// labels in any order), "max_order" (1..kMaxOrder), "max_bytes" (1..kMaxBytes) and
// "tensor_crc32" (model/weight_checksum.h); at most kMaxLabels labels. Every weight finite and
// within +-kMaxMagnitude.

#ifndef KEYDECIDE_MODEL_INTENT_NGRAMS_H_
#define KEYDECIDE_MODEL_INTENT_NGRAMS_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

class SafetensorsFile;

class IntentNgrams {
 public:
  static constexpr size_t kMaxBuckets = size_t{1} << 20;
  static constexpr size_t kMaxLabels = 16;
  static constexpr int kMaxOrder = 8;
  static constexpr int kMaxBytes = 4096;
  static constexpr float kMaxMagnitude = 1e4f;

  // Reads the file at `path` for a model whose intent labels are `model_labels`. NotFound when
  // absent; Corruption or InvalidArgument, naming the path and what is wrong, when it is not
  // such a file or its labels are not the model's.
  static Status Open(const std::string& path, std::span<const std::string> model_labels,
                     std::unique_ptr<IntentNgrams>* out);
  // The same over a file's bytes (tests, the fuzzer).
  static Status FromBytes(std::string bytes, std::span<const std::string> model_labels,
                          std::unique_ptr<IntentNgrams>* out);

  // Adds the logits for `text` (the text before the cursor; any bytes) to `log_probs`, one per
  // model label in the model's order. REQUIRES: log_probs.size() == the model's label count.
  // Does not allocate.
  void AddLogits(std::string_view text, std::span<float> log_probs) const;

  // Turns the model's intent probabilities `probs` (the model's label order) into the blend's:
  // softmax(log probs + AddLogits' logits for `text`). A probability of 0 stays 0. Does not
  // allocate.
  void Blend(std::string_view text, std::span<float> probs) const;

  size_t buckets() const { return mask_ + 1; }

 private:
  IntentNgrams() = default;
  static Status Load(const SafetensorsFile& f, std::span<const std::string> model_labels,
                     std::unique_ptr<IntentNgrams>* out);

  size_t labels_ = 0;
  size_t mask_ = 0;
  int max_order_ = 0;
  int max_bytes_ = 0;
  std::vector<float> weight_;  // [buckets][labels_], columns in the model's label order
  std::vector<float> bias_;    // [labels_], the model's label order
};

// The line IntentNgrams reads in `text` (see above): its bytes, and whether its start is among
// them. Exposed for tests.
std::string_view IntentLine(std::string_view text, size_t max_bytes, bool* whole);

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_INTENT_NGRAMS_H_
