// A tiny random typing model written in the safetensors layout of docs/MODEL.md, for tests
// that need a model file without Python.

#ifndef KEYDECIDE_TESTS_MODEL_FIXTURE_H_
#define KEYDECIDE_TESTS_MODEL_FIXTURE_H_

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model_config.h"
#include "model/weight_checksum.h"
#include "model/weight_format.h"

namespace keydecide::testing {

struct TinyModelSpec {
  int n_layers = 2, d_model = 16, n_heads = 2, d_ff = 32, max_len = 24;
  std::vector<std::string> words = {"<unk>", "<num>", "<url>", "<email>", ".",       ",",  "the",
                                    "a",     "dog",   "cat",   "meeting", "station", "we", "will"};
  uint32_t seed = 7;
  // A zh model: metadata "language" and "pinyin" (one reading per word), intent labels.
  std::string language;  // "" : none (an English file)
  std::vector<std::string> readings;
  std::vector<std::string> intent_labels = {"prose", "code", "url", "command"};
  std::vector<float> intent_bias;  // replaces heads.intent.bias (one per label) when set
  bool checksum = true;  // metadata "tensor_crc32" (files from before issue 19 have none)
  // Applied to each tensor's values before writing (e.g. to make some weights huge).
  void (*edit_values)(const std::string& name, std::vector<float>* values) = nullptr;
};

// Rewrites the "tensor_crc32" metadata value (8 hex digits, in place: the header keeps its
// length) to match the tensor data, for tests that damage the data on purpose to reach the
// checks behind the checksum.
inline void ResealTensorCrc32(std::string* file) {
  uint64_t header_len;
  std::memcpy(&header_len, file->data(), 8);
  std::string key(1, '"');  // built by appends: GCC 12 misreads the `+` chain (-Wrestrict)
  key.append(weight_format::kMetaTensorCrc32).append("\":\"");
  const size_t at = file->find(key);
  if (at == std::string::npos || at > 8 + header_len) return;
  const std::string_view data = std::string_view(*file).substr(8 + header_len);
  const std::string crc = FormatTensorCrc32(TensorDataCrc32(data));
  file->replace(at + key.size(), crc.size(), crc);
}

// Returns the bytes of a model file; `edit` may change the header JSON before writing.
inline std::string TinyModelBytes(const TinyModelSpec& spec = {},
                                  void (*edit)(nlohmann::json*) = nullptr) {
  const int d = spec.d_model, ff = spec.d_ff;
  const int vocab = 36 + static_cast<int>(spec.words.size());
  ModelConfig layout;
  layout.n_layers = spec.n_layers, layout.d_model = d, layout.d_ff = ff;
  layout.max_len = spec.max_len, layout.vocab_size = vocab;
  layout.intent_labels = spec.intent_labels;
  const auto shapes = layout.TensorShapes();
  std::mt19937 rng(spec.seed);
  std::normal_distribution<float> normal(0.0f, 0.5f);
  nlohmann::json header;
  std::string data;
  for (const auto& [name, shape] : shapes) {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    const bool is_norm_weight =
        name.find("ln") != std::string::npos && name.find(".weight") != std::string::npos;
    std::vector<float> v(n);
    for (float& x : v) x = is_norm_weight ? 1.0f + 0.1f * normal(rng) : normal(rng);
    if (name == "heads.intent.bias" && !spec.intent_bias.empty()) v = spec.intent_bias;
    if (spec.edit_values) spec.edit_values(name, &v);
    header[name] = {
        {"dtype", "F32"}, {"shape", shape}, {"data_offsets", {data.size(), data.size() + n * 4}}};
    data.append(reinterpret_cast<const char*>(v.data()), n * 4);
  }
  nlohmann::json config = {{"n_layers", spec.n_layers},
                           {"d_model", d},
                           {"n_heads", spec.n_heads},
                           {"d_ff", ff},
                           {"max_len", spec.max_len},
                           {"vocab_size", vocab},
                           {"word_offset", 36},
                           {"n_interval_buckets", 8},
                           {"interval_edges_ms", {60, 100, 150, 220, 350, 600}},
                           {"norm_eps", 1e-5},
                           {"intent_labels", spec.intent_labels},
                           {"app_types", {"chat", "search", "code", "editor", "url"}}};
  std::string words;
  for (size_t i = 0; i < spec.words.size(); ++i) words += (i ? "\n" : "") + spec.words[i];
  header["__metadata__"] = {{"format", "keydecide-model"},
                            {"format_version", "1"},
                            {"config", config.dump()},
                            {"words", words}};
  if (!spec.language.empty()) {
    std::string pinyin;
    for (size_t i = 0; i < spec.readings.size(); ++i) pinyin += (i ? "\n" : "") + spec.readings[i];
    header["__metadata__"]["language"] = spec.language;
    header["__metadata__"]["pinyin"] = pinyin;
  }
  if (spec.checksum) {
    header["__metadata__"][std::string(weight_format::kMetaTensorCrc32)] =
        FormatTensorCrc32(TensorDataCrc32(data));
  }
  if (edit) edit(&header);
  std::string h = header.dump();
  while (h.size() % 8) h += ' ';
  std::string out(8, '\0');
  const uint64_t len = h.size();
  std::memcpy(out.data(), &len, 8);
  return out + h + data;
}

}  // namespace keydecide::testing

#endif  // KEYDECIDE_TESTS_MODEL_FIXTURE_H_
