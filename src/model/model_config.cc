#include "model/model_config.h"

#include <nlohmann/json.hpp>

namespace keydecide {

namespace {

Status GetInt(const nlohmann::json& j, const char* key, int lo, int hi, int* out) {
  if (!j.contains(key) || !j[key].is_number_integer()) {
    return Status::InvalidArgument(std::string("model config lacks integer '") + key + "'");
  }
  const int64_t v = j[key].get<int64_t>();
  if (v < lo || v > hi) {
    return Status::InvalidArgument(std::string("model config '") + key +
                                   "' = " + std::to_string(v) + " is outside " +
                                   std::to_string(lo) + ".." + std::to_string(hi));
  }
  *out = static_cast<int>(v);
  return Status::OK();
}

}  // namespace

Status ModelConfig::Parse(std::string_view json, ModelConfig* out) {
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::InvalidArgument("model config is not a JSON object");
  }
  ModelConfig c;
  KD_RETURN_IF_ERROR(GetInt(j, "n_layers", 1, 64, &c.n_layers));
  KD_RETURN_IF_ERROR(GetInt(j, "d_model", 8, 4096, &c.d_model));
  KD_RETURN_IF_ERROR(GetInt(j, "n_heads", 1, 64, &c.n_heads));
  KD_RETURN_IF_ERROR(GetInt(j, "d_ff", 8, 16384, &c.d_ff));
  KD_RETURN_IF_ERROR(GetInt(j, "max_len", 4, 4096, &c.max_len));
  KD_RETURN_IF_ERROR(GetInt(j, "vocab_size", kWordOffset + 4, 1 << 22, &c.vocab_size));
  int word_offset = 0;
  KD_RETURN_IF_ERROR(GetInt(j, "word_offset", kWordOffset, kWordOffset, &word_offset));
  int buckets = 0;
  KD_RETURN_IF_ERROR(GetInt(j, "n_interval_buckets", kIntervalBuckets, kIntervalBuckets, &buckets));
  if (c.d_model % c.n_heads != 0) {
    return Status::InvalidArgument("model config: d_model is not a multiple of n_heads");
  }
  if (j.contains("norm_eps")) {
    if (!j["norm_eps"].is_number() || !(j["norm_eps"].get<double>() > 0)) {
      return Status::InvalidArgument("model config: bad norm_eps");
    }
    c.norm_eps = j["norm_eps"].get<float>();
  }
  if (!j.contains("interval_edges_ms") || !j["interval_edges_ms"].is_array() ||
      j["interval_edges_ms"].size() != kIntervalBuckets - 2) {
    return Status::InvalidArgument("model config: interval_edges_ms must list 6 edges");
  }
  for (const auto& e : j["interval_edges_ms"]) {
    if (!e.is_number()) return Status::InvalidArgument("model config: bad interval edge");
    c.interval_edges_ms.push_back(e.get<float>());
  }
  if (!j.contains("intent_labels") || !j["intent_labels"].is_array() ||
      j["intent_labels"].empty() || j["intent_labels"].size() > 16) {
    return Status::InvalidArgument("model config: intent_labels must list 1..16 labels");
  }
  for (const auto& l : j["intent_labels"]) {
    if (!l.is_string()) return Status::InvalidArgument("model config: bad intent label");
    c.intent_labels.push_back(l.get<std::string>());
  }
  *out = std::move(c);
  return Status::OK();
}

int ModelConfig::CharToken(char32_t cp) {
  if (cp >= 'A' && cp <= 'Z') cp += 32;
  if (cp >= 'a' && cp <= 'z') return kFirstChar + static_cast<int>(cp - 'a');
  if (cp == '\'') return kCharApostrophe;
  return kCharOther;
}

int ModelConfig::IntervalBucket(float ms) const {
  int bucket = 1;
  for (float edge : interval_edges_ms) {
    if (ms < edge) return bucket;
    ++bucket;
  }
  return bucket;
}

std::map<std::string, std::vector<int64_t>> ModelConfig::TensorShapes() const {
  const int64_t d = d_model, ff = d_ff, n_intent = static_cast<int64_t>(intent_labels.size());
  std::map<std::string, std::vector<int64_t>> shapes = {
      {"tok_emb.weight", {vocab_size, d}},
      {"pos_emb.weight", {max_len, d}},
      {"ivl_emb.weight", {kIntervalBuckets, d}},
      {"bs_emb.weight", {2, d}},
      {"ln_f.weight", {d}},
      {"ln_f.bias", {d}},
      {"heads.popup.weight", {1, d}},
      {"heads.popup.bias", {1}},
      {"heads.autocorrect.weight", {1, d}},
      {"heads.autocorrect.bias", {1}},
      {"heads.intent.weight", {n_intent, d}},
      {"heads.intent.bias", {n_intent}},
  };
  for (int i = 0; i < n_layers; ++i) {
    std::string p = "layers.";
    p += std::to_string(i);
    p += '.';
    shapes[p + "ln1.weight"] = {d};
    shapes[p + "ln1.bias"] = {d};
    shapes[p + "ln2.weight"] = {d};
    shapes[p + "ln2.bias"] = {d};
    shapes[p + "attn.qkv.weight"] = {3 * d, d};
    shapes[p + "attn.qkv.bias"] = {3 * d};
    shapes[p + "attn.out.weight"] = {d, d};
    shapes[p + "attn.out.bias"] = {d};
    shapes[p + "mlp.fc1.weight"] = {ff, d};
    shapes[p + "mlp.fc1.bias"] = {ff};
    shapes[p + "mlp.fc2.weight"] = {d, ff};
    shapes[p + "mlp.fc2.bias"] = {d};
  }
  return shapes;
}

}  // namespace keydecide
