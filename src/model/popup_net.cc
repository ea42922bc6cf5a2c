#include "model/popup_net.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "base/mapped_file.h"

namespace keydecide {

namespace {

Status Bad(const std::string& why) { return Status::InvalidArgument("popup net: " + why); }

// The numbers of `v` (null: missing), which must be an array of `size` of them, each within
// +-kMaxMagnitude; `name` is what an error calls it.
Status ReadNumbers(const nlohmann::json* v, const std::string& name, size_t size,
                   std::vector<float>* out) {
  if (v == nullptr || !v->is_array() || v->size() != size) {
    return Bad("'" + name + "' must be an array of " + std::to_string(size) + " numbers");
  }
  for (const nlohmann::json& x : *v) {
    if (!x.is_number() || !(std::fabs(x.get<double>()) <= PopupNet::kMaxMagnitude)) {
      return Bad("'" + name + "' holds something other than a number within +-1e6");
    }
    out->push_back(x.get<float>());
  }
  return Status::OK();
}

const nlohmann::json* Find(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() ? &*it : nullptr;
}

}  // namespace

Status PopupNet::Parse(std::string_view json, std::span<const std::string_view> feature_names,
                       std::unique_ptr<PopupNet>* out) {
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Bad("not a JSON object");
  const auto format = j.find("format");
  const auto version = j.find("version");
  if (format == j.end() || *format != "keydecide-popup") {
    return Bad("format is not keydecide-popup");
  }
  if (version == j.end() || !version->is_number_integer() || *version != 1) {
    return Bad("only version 1 is read");
  }
  const auto names = j.find("features");
  if (names == j.end() || !names->is_array() || names->size() != feature_names.size()) {
    return Bad("'features' must list the engine's " + std::to_string(feature_names.size()) +
               " features");
  }
  for (size_t i = 0; i < feature_names.size(); ++i) {
    const nlohmann::json& name = (*names)[i];
    if (!name.is_string() || name.get<std::string>() != feature_names[i]) {
      return Bad("feature " + std::to_string(i) + " is not '" + std::string(feature_names[i]) +
                 "' (fitted for another engine: refit it)");
    }
  }
  const size_t f = feature_names.size();
  const nlohmann::json* hidden_bias = Find(j, "hidden_bias");
  const size_t h = hidden_bias != nullptr && hidden_bias->is_array() ? hidden_bias->size() : 0;
  if (h < 1 || h > kMaxHidden) {
    return Bad("'hidden_bias' must hold 1.." + std::to_string(kMaxHidden) + " numbers");
  }
  std::unique_ptr<PopupNet> net(new PopupNet());
  std::vector<float> mean, scale;
  KD_RETURN_IF_ERROR(ReadNumbers(Find(j, "mean"), "mean", f, &mean));
  KD_RETURN_IF_ERROR(ReadNumbers(Find(j, "scale"), "scale", f, &scale));
  for (float v : scale) {
    if (!(v >= PopupNet::kMinScale)) return Bad("every 'scale' must be >= 1e-6");
  }
  KD_RETURN_IF_ERROR(ReadNumbers(hidden_bias, "hidden_bias", h, &net->hidden_bias_));
  KD_RETURN_IF_ERROR(
      ReadNumbers(Find(j, "output_weight"), "output_weight", h, &net->output_weight_));
  const auto rows = j.find("hidden_weight");
  if (rows == j.end() || !rows->is_array() || rows->size() != h) {
    return Bad("'hidden_weight' must hold " + std::to_string(h) + " rows");
  }
  for (size_t r = 0; r < h; ++r) {
    KD_RETURN_IF_ERROR(ReadNumbers(&(*rows)[r], "hidden_weight[" + std::to_string(r) + "]", f,
                                   &net->hidden_weight_));
  }
  const auto output_bias = j.find("output_bias");
  if (output_bias == j.end() || !output_bias->is_number() ||
      !(std::fabs(output_bias->get<double>()) <= kMaxMagnitude)) {
    return Bad("'output_bias' must be a number within +-1e6");
  }
  net->output_bias_ = output_bias->get<float>();
  // The standardisation folded into the first layer: w' = w / scale, b' = b - w' . mean.
  for (size_t r = 0; r < h; ++r) {
    float* w = &net->hidden_weight_[r * f];
    for (size_t i = 0; i < f; ++i) {
      w[i] /= scale[i];
      net->hidden_bias_[r] -= w[i] * mean[i];
    }
  }
  net->feature_count_ = f;
  *out = std::move(net);
  return Status::OK();
}

Status PopupNet::Open(const std::string& path, std::span<const std::string_view> feature_names,
                      std::unique_ptr<PopupNet>* out) {
  std::string json;
  KD_RETURN_IF_ERROR(ReadFileToString(path, &json, kMaxFileBytes));
  const Status s = Parse(json, feature_names, out);
  return s.ok() ? s : s.Annotated(path);
}

// Scalar on purpose: H x F is about 700 multiply-adds, under a microsecond.
float PopupNet::Probability(std::span<const float> x) const {
  const size_t f = feature_count_;
  float z = output_bias_;
  for (size_t r = 0; r < hidden_bias_.size(); ++r) {
    const float* w = &hidden_weight_[r * f];
    float a = hidden_bias_[r];
    for (size_t i = 0; i < f; ++i) a += w[i] * x[i];
    if (a > 0) z += output_weight_[r] * a;
  }
  return 1.0f / (1.0f + std::exp(-z));
}

}  // namespace keydecide
