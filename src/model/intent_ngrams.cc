#include "model/intent_ngrams.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <nlohmann/json.hpp>

#include "model/safetensors.h"
#include "model/weight_checksum.h"
#include "model/weight_format.h"

namespace keydecide {

namespace {

constexpr std::string_view kFormat = "keydecide-intent-ngrams";
constexpr uint32_t kFnvOffset = 0x811C9DC5u;
constexpr uint32_t kFnvPrime = 0x01000193u;

Status Bad(const std::string& why) { return Status::InvalidArgument("intent n-grams: " + why); }

bool Blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// A decimal integer metadata value within [lo, hi].
Status ReadInt(const SafetensorsFile& f, std::string_view key, int lo, int hi, int* out) {
  const std::string_view v = f.Metadata(key);
  int n = 0;
  for (const char c : v) {
    if (c < '0' || c > '9' || n > hi) return Bad(std::string(key) + " is not a small integer");
    n = n * 10 + (c - '0');
  }
  if (v.empty() || n < lo || n > hi) {
    return Bad(std::string(key) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  *out = n;
  return Status::OK();
}

}  // namespace

Status IntentNgrams::Load(const SafetensorsFile& f, std::span<const std::string> model_labels,
                          std::unique_ptr<IntentNgrams>* out) {
  if (f.Metadata("format") != kFormat || f.Metadata("format_version") != "1") {
    return Bad("not a keydecide-intent-ngrams file of format_version 1");
  }
  KD_RETURN_IF_ERROR(
      VerifyTensorChecksum(f.Metadata(weight_format::kMetaTensorCrc32), f.tensor_data()));
  const nlohmann::json labels =
      nlohmann::json::parse(f.Metadata("labels"), nullptr, /*allow_exceptions=*/false);
  if (!labels.is_array() || labels.size() != model_labels.size() || labels.empty() ||
      labels.size() > kMaxLabels) {
    return Bad("'labels' must list the model's " + std::to_string(model_labels.size()) +
               " intent labels");
  }
  // column[i]: the model label of the file's column i.
  std::vector<size_t> column(labels.size());
  std::vector<bool> seen(model_labels.size(), false);
  for (size_t i = 0; i < labels.size(); ++i) {
    const auto it = labels[i].is_string() ? std::find(model_labels.begin(), model_labels.end(),
                                                      labels[i].get<std::string>())
                                          : model_labels.end();
    if (it == model_labels.end() || seen[it - model_labels.begin()]) {
      return Bad("'labels' are not the model's intent labels");
    }
    column[i] = it - model_labels.begin();
    seen[column[i]] = true;
  }
  std::unique_ptr<IntentNgrams> ngrams(new IntentNgrams());
  KD_RETURN_IF_ERROR(ReadInt(f, "max_order", 1, kMaxOrder, &ngrams->max_order_));
  KD_RETURN_IF_ERROR(ReadInt(f, "max_bytes", 1, kMaxBytes, &ngrams->max_bytes_));
  const size_t n = labels.size();
  const SafetensorsFile::Tensor* w = f.Find("weight");
  const SafetensorsFile::Tensor* b = f.Find("bias");
  if (w == nullptr || w->dtype != SafetensorsFile::DType::kF16 || w->shape.size() != 2 ||
      w->shape[1] != static_cast<int64_t>(n) || w->shape[0] < 1 ||
      w->shape[0] > static_cast<int64_t>(kMaxBuckets) || (w->shape[0] & (w->shape[0] - 1)) != 0) {
    return Bad("'weight' must be F16 [buckets, labels], buckets a power of two up to 2^20");
  }
  if (b == nullptr || b->dtype != SafetensorsFile::DType::kF32 ||
      b->shape != std::vector<int64_t>{static_cast<int64_t>(n)}) {
    return Bad("'bias' must be F32 [labels]");
  }
  const std::vector<float> file_w = ToFloats(*w), file_b = ToFloats(*b);
  const auto moderate = [](float x) { return std::fabs(x) <= kMaxMagnitude; };
  if (!std::all_of(file_w.begin(), file_w.end(), moderate) ||
      !std::all_of(file_b.begin(), file_b.end(), moderate)) {
    return Bad("a weight is not finite or beyond +-1e4");
  }
  const size_t buckets = static_cast<size_t>(w->shape[0]);
  ngrams->labels_ = n;
  ngrams->mask_ = buckets - 1;
  ngrams->weight_.assign(file_w.size(), 0.0f);
  ngrams->bias_.assign(n, 0.0f);
  for (size_t i = 0; i < n; ++i) ngrams->bias_[column[i]] = file_b[i];
  for (size_t r = 0; r < buckets; ++r) {
    for (size_t i = 0; i < n; ++i) ngrams->weight_[r * n + column[i]] = file_w[r * n + i];
  }
  *out = std::move(ngrams);
  return Status::OK();
}

Status IntentNgrams::Open(const std::string& path, std::span<const std::string> model_labels,
                          std::unique_ptr<IntentNgrams>* out) {
  std::unique_ptr<SafetensorsFile> f;
  KD_RETURN_IF_ERROR(SafetensorsFile::Open(path, &f));
  const Status s = Load(*f, model_labels, out);
  return s.ok() ? s : s.Annotated(path);
}

Status IntentNgrams::FromBytes(std::string bytes, std::span<const std::string> model_labels,
                               std::unique_ptr<IntentNgrams>* out) {
  std::unique_ptr<SafetensorsFile> f;
  KD_RETURN_IF_ERROR(SafetensorsFile::FromBytes(std::move(bytes), &f));
  return Load(*f, model_labels, out);
}

void IntentNgrams::Blend(std::string_view text, std::span<float> probs) const {
  if (probs.empty()) return;
  for (float& p : probs) p = p > 0 ? std::log(p) : -std::numeric_limits<float>::infinity();
  AddLogits(text, probs);
  const float top = *std::max_element(probs.begin(), probs.end());
  float total = 0;
  for (float& p : probs) total += (p = std::isfinite(top) ? std::exp(p - top) : 1.0f);
  for (float& p : probs) p /= total;
}

// Hand-written: a few hundred byte runs per decision, hashed and summed in one pass; the
// Python fit computes the same (training/keydecide_train/intent_ngrams.py).
void IntentNgrams::AddLogits(std::string_view text, std::span<float> log_probs) const {
  bool whole = true;
  const std::string_view line = IntentLine(text, static_cast<size_t>(max_bytes_), &whole);
  // The framed line: [0x02] line 0x03, read through a small window rather than copied.
  const size_t size = line.size() + (whole ? 2 : 1);
  const auto byte_at = [&](size_t i) -> uint8_t {
    if (whole && i == 0) return 0x02;
    const size_t j = i - (whole ? 1 : 0);
    return j < line.size() ? static_cast<uint8_t>(line[j]) : 0x03;
  };
  float sum[kMaxLabels] = {};
  size_t runs = 0;
  for (int n = 1; n <= max_order_; ++n) {
    for (size_t i = 0; i + n <= size; ++i) {
      uint32_t h = kFnvOffset ^ static_cast<uint32_t>(n);
      for (int k = 0; k < n; ++k) h = (h ^ byte_at(i + k)) * kFnvPrime;
      const float* w = &weight_[(h & mask_) * labels_];
      for (size_t c = 0; c < labels_; ++c) sum[c] += w[c];
      ++runs;
    }
  }
  const float norm = runs > 0 ? 1.0f / std::sqrt(static_cast<float>(runs)) : 0.0f;
  for (size_t c = 0; c < labels_ && c < log_probs.size(); ++c) {
    log_probs[c] += bias_[c] + sum[c] * norm;
  }
}

std::string_view IntentLine(std::string_view text, size_t max_bytes, bool* whole) {
  size_t end = text.size();
  std::string_view line;
  while (true) {
    const size_t nl = end == 0 ? std::string_view::npos : text.rfind('\n', end - 1);
    const size_t start = nl == std::string_view::npos ? 0 : nl + 1;
    line = text.substr(start, end - start);
    if (!Blank(line) || start == 0) break;
    end = start - 1;
  }
  *whole = true;
  if (Blank(line)) return {};
  if (line.size() > max_bytes) {
    *whole = false;
    return line.substr(line.size() - max_bytes);
  }
  return line;
}

}  // namespace keydecide
