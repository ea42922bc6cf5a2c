#include "model/weight_reader.h"

#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "model/kernels/kernels.h"
#include "model/safetensors.h"
#include "model/weight_format.h"

namespace keydecide {

namespace {

using kernels::WeightFormat;

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

// The tensor `name`, which must have exactly `shape`.
Status FindTensor(const SafetensorsFile& f, const std::string& name,
                  const std::vector<int64_t>& shape, const SafetensorsFile::Tensor** out) {
  const SafetensorsFile::Tensor* t = f.Find(name);
  if (t == nullptr) return Status::InvalidArgument("model file lacks tensor '" + name + "'");
  if (t->shape != shape) {
    return Status::InvalidArgument("tensor '" + name + "' has shape " + ShapeString(t->shape) +
                                   ", expected " + ShapeString(shape));
  }
  *out = t;
  return Status::OK();
}

// Reads a float tensor (F32 or F16) of exactly `shape` as fp32, refusing NaN and Inf.
Status ReadTensor(const SafetensorsFile& f, const std::string& name,
                  const std::vector<int64_t>& shape, std::vector<float>* out) {
  const SafetensorsFile::Tensor* t;
  KD_RETURN_IF_ERROR(FindTensor(f, name, shape, &t));
  if (t->dtype != SafetensorsFile::DType::kF32 && t->dtype != SafetensorsFile::DType::kF16) {
    return Status::InvalidArgument("tensor '" + name + "' must be F32 or F16");
  }
  *out = ToFloats(*t);
  for (float x : *out) {
    if (!std::isfinite(x)) return Status::InvalidArgument("tensor '" + name + "' has NaN or Inf");
  }
  return Status::OK();
}

Status ParseFormat(std::string_view spec, kernels::WeightFormat* format, int* group) {
  if (spec == "q8") {
    *format = WeightFormat::kQ8, *group = 0;
  } else if (spec == "q4g32" || spec == "q4g64") {
    *format = WeightFormat::kQ4, *group = spec == "q4g32" ? 32 : 64;
  } else if (spec == "f32") {
    *format = WeightFormat::kF32, *group = 0;
  } else {
    return Status::NotSupported("weight format '" + std::string(spec) + "'");
  }
  return Status::OK();
}

// Reads weight `name` [rows, cols] in its stored format: fp32 copy, or a view of the
// quantized bytes (whose scales must be finite).
Status ReadWeight(const SafetensorsFile& f, const std::string& name, int64_t rows, int64_t cols,
                  WeightFormat format, int group, WeightMatrix* out) {
  if (format == WeightFormat::kF32) {
    std::vector<float> w;
    KD_RETURN_IF_ERROR(ReadTensor(f, name, {rows, cols}, &w));
    *out = WeightMatrix::FromF32(std::move(w), static_cast<int>(rows), static_cast<int>(cols));
    return Status::OK();
  }
  const bool q4 = format == WeightFormat::kQ4;
  if (q4 && (cols % 32 != 0 || cols % group != 0)) {
    return Status::InvalidArgument("tensor '" + name + "': " + std::to_string(cols) +
                                   " columns do not split into 4-bit groups of " +
                                   std::to_string(group));
  }
  if (cols > kernels::kMaxCols) {
    return Status::NotSupported("tensor '" + name + "' is wider than the kernels accept");
  }
  const SafetensorsFile::Tensor* data;
  KD_RETURN_IF_ERROR(FindTensor(f, name, {rows, q4 ? cols / 2 : cols}, &data));
  if (data->dtype != (q4 ? SafetensorsFile::DType::kU8 : SafetensorsFile::DType::kI8)) {
    return Status::InvalidArgument("tensor '" + name + "' must be " + (q4 ? "U8" : "I8"));
  }
  const SafetensorsFile::Tensor* scales;
  const std::string scales_name = name + ".scales";
  KD_RETURN_IF_ERROR(FindTensor(f, scales_name, {rows, q4 ? cols / group : 1}, &scales));
  if (scales->dtype != SafetensorsFile::DType::kF32) {
    return Status::InvalidArgument("tensor '" + scales_name + "' must be F32");
  }
  for (size_t i = 0; i < scales->data.size(); i += 4) {
    float x;
    std::memcpy(&x, scales->data.data() + i, 4);
    if (!std::isfinite(x))
      return Status::InvalidArgument("tensor '" + scales_name + "' has NaN or Inf");
  }
  *out = WeightMatrix::View(format, static_cast<int>(rows), static_cast<int>(cols),
                            group, data->data.data(), scales->data.data());
  return Status::OK();
}

std::string FormatName(WeightFormat format, int group) {
  return format == WeightFormat::kF32  ? std::string("f32")
         : format == WeightFormat::kQ8 ? std::string("q8")
                                       : "q4g" + std::to_string(group);
}

}  // namespace

Status WeightReader::Init() {
  const std::string_view q = file_->Metadata(weight_format::kMetaQuantization);
  if (q.empty()) return Status::OK();
  const nlohmann::json j = nlohmann::json::parse(q, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Status::InvalidArgument("metadata 'quantization' is not a JSON object");
  for (const auto& [name, spec] : j.items()) {
    if (!spec.is_string()) {
      return Status::InvalidArgument("quantization of '" + name + "' is not a string");
    }
    StoredFormat& stored = stored_[name];
    KD_RETURN_IF_ERROR(
        ParseFormat(spec.get<std::string>(), &stored.format, &stored.group).Annotated(name));
  }
  return Status::OK();
}

Status WeightReader::Floats(const std::string& name, const std::vector<int64_t>& shape,
                            std::vector<float>* out) const {
  return ReadTensor(*file_, name, shape, out);
}

Status WeightReader::Matrix(const std::string& name, int64_t rows, int64_t cols,
                            WeightMatrix* out) {
  StoredFormat stored;
  if (auto it = stored_.find(name); it != stored_.end()) {
    stored = it->second;
    stored_.erase(it);
  }
  formats_read_.insert(FormatName(stored.format, stored.group));
  return ReadWeight(*file_, name, rows, cols, stored.format, stored.group, out);
}

Status WeightReader::FloatMatrix(const std::string& name, int64_t rows, int64_t cols,
                                 WeightMatrix* out) const {
  std::vector<float> w;
  KD_RETURN_IF_ERROR(ReadTensor(*file_, name, {rows, cols}, &w));
  *out = WeightMatrix::FromF32(std::move(w), static_cast<int>(rows), static_cast<int>(cols));
  return Status::OK();
}

Status WeightReader::CheckAllQuantizedRead() const {
  if (stored_.empty()) return Status::OK();
  // Norms, heads and embeddings other than tok_emb stay fp32.
  return Status::InvalidArgument("quantization names '" + stored_.begin()->first +
                                 "', which is not a quantizable weight");
}

std::string WeightReader::FormatsRead() const {
  std::string joined;
  for (const std::string& format : formats_read_) {
    if (!joined.empty()) joined += '+';
    joined += format;
  }
  return joined;
}

}  // namespace keydecide
