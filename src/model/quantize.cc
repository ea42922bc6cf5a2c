// keydecide quantize: float model file in, quantized model file out (model_tool.h).

#include <algorithm>
#include <cmath>
#include <cstring>
#include <regex>

#include <nlohmann/json.hpp>

#include "model/quantize.h"
#include "model/kernels/kernels.h"
#include "model/safetensors.h"
#include "model/weight_checksum.h"
#include "model/weight_format.h"
#include "model/weight_matrix.h"

namespace keydecide {

namespace {

using kernels::WeightFormat;

bool IsQuantizable(const std::string& name) {
  static const std::regex kLayerWeight(
      R"(layers\.\d+\.(attn\.qkv|attn\.out|mlp\.fc1|mlp\.fc2)\.weight)");
  return name == "tok_emb.weight" || std::regex_match(name, kLayerWeight);
}

std::string FormatName(WeightFormat format, int group) {
  if (format == WeightFormat::kQ8) return "q8";
  if (format == WeightFormat::kQ4) return "q4g" + std::to_string(group);
  return "f32";
}

double RelativeError(const std::vector<float>& w, const WeightMatrix& q) {
  std::vector<float> row(q.cols());
  double err = 0, norm = 0;
  for (int r = 0; r < q.rows(); ++r) {
    kernels::ref::DequantizeRow(q.view(), r, row.data());
    for (int c = 0; c < q.cols(); ++c) {
      const double x = w[static_cast<size_t>(r) * q.cols() + c];
      err += (x - row[c]) * (x - row[c]);
      norm += x * x;
    }
  }
  return norm > 0 ? std::sqrt(err / norm) : 0.0;
}

template <typename T>
std::string Bytes(const T* data, size_t n) {
  return std::string(reinterpret_cast<const char*>(data), n * sizeof(T));
}

// Stores `w` in `format`, appending the data (and scales) tensors to `out`.
void Store(const std::string& name, const std::vector<int64_t>& shape, const WeightMatrix& q,
           std::vector<TensorToWrite>* out) {
  const kernels::WeightView& v = q.view();
  const size_t rows = static_cast<size_t>(v.rows);
  if (v.format == WeightFormat::kQ8) {
    out->push_back({name, "I8", shape, Bytes(v.q8, rows * v.cols)});
    out->push_back({name + ".scales", "F32", {shape[0], 1}, Bytes(v.scales, rows)});
  } else {
    out->push_back({name, "U8", {shape[0], shape[1] / 2}, Bytes(v.q4, rows * v.bytes_per_row())});
    out->push_back({name + ".scales",
                    "F32",
                    {shape[0], shape[1] / v.group},
                    Bytes(v.scales, rows * v.scales_per_row())});
  }
}

}  // namespace

Status QuantizeModel(const std::string& input, const std::string& output,
                     const QuantizeOptions& options, QuantizeReport* report) {
  for (const int bits : {options.bits, options.embedding_bits}) {
    if (bits != 8 && bits != 4) return Status::InvalidArgument("bits must be 8 or 4");
  }
  if (options.group != 32 && options.group != 64) {
    return Status::InvalidArgument("group must be 32 or 64");
  }
  std::unique_ptr<SafetensorsFile> file;
  KD_RETURN_IF_ERROR(SafetensorsFile::Open(input, &file));
  if (file->Metadata("format") != "keydecide-model") {
    return Status::InvalidArgument(input + " is not a keydecide model");
  }
  if (!file->Metadata("quantization").empty()) {
    return Status::InvalidArgument(input + " is already quantized: quantize the float model");
  }
  KD_RETURN_IF_ERROR(VerifyTensorChecksum(file->Metadata(weight_format::kMetaTensorCrc32),
                                          file->tensor_data())
                         .Annotated(input));
  *report = QuantizeReport();
  report->input_bytes = file->size_bytes();

  std::vector<TensorToWrite> tensors;
  nlohmann::json formats = nlohmann::json::object();
  for (const auto& [name, t] : file->tensors()) {
    if (!IsQuantizable(name) || t.shape.size() != 2 ||
        std::find(options.keep.begin(), options.keep.end(), name) != options.keep.end()) {
      tensors.push_back({name, t.dtype == SafetensorsFile::DType::kF16 ? "F16" : "F32", t.shape,
                         std::string(t.data)});
      if (IsQuantizable(name)) report->weights.push_back({name, t.shape, "f32", 0, ""});
      continue;
    }
    if (t.dtype != SafetensorsFile::DType::kF16 && t.dtype != SafetensorsFile::DType::kF32) {
      return Status::InvalidArgument("tensor '" + name + "' is not F16/F32");
    }
    const std::vector<float> w = ToFloats(t);
    const int rows = static_cast<int>(t.shape[0]), cols = static_cast<int>(t.shape[1]);
    QuantizeReport::Weight entry{name, t.shape, "f32", 0, ""};
    if (!std::all_of(w.begin(), w.end(), [](float x) { return std::isfinite(x); })) {
      entry.flag = "non-finite";  // kept as it is: the model loader will refuse it
      tensors.push_back({name, t.dtype == SafetensorsFile::DType::kF16 ? "F16" : "F32", t.shape,
                         std::string(t.data)});
      report->weights.push_back(entry);
      continue;
    }
    const int bits = name == "tok_emb.weight" ? options.embedding_bits : options.bits;
    WeightFormat format = bits == 8 ? WeightFormat::kQ8 : WeightFormat::kQ4;
    if (format == WeightFormat::kQ4 && cols % options.group != 0) format = WeightFormat::kQ8;
    WeightMatrix q = WeightMatrix::Quantize(w.data(), rows, cols, format, options.group);
    entry.relative_error = RelativeError(w, q);
    const double limit = format == WeightFormat::kQ8 ? options.max_error_q8 : options.max_error_q4;
    if (entry.relative_error > limit) {
      entry.flag = "error " + std::to_string(entry.relative_error) + " > " + std::to_string(limit);
      if (options.promote_flagged) {
        format = format == WeightFormat::kQ4 ? WeightFormat::kQ8 : WeightFormat::kF32;
        q = WeightMatrix::Quantize(w.data(), rows, cols, format, options.group);
        entry.relative_error = RelativeError(w, q);
      }
    }
    entry.format = FormatName(format, options.group);
    if (format == WeightFormat::kF32) {
      tensors.push_back({name, t.dtype == SafetensorsFile::DType::kF16 ? "F16" : "F32", t.shape,
                         std::string(t.data)});
    } else {
      Store(name, t.shape, q, &tensors);
      formats[name] = entry.format;
    }
    report->weights.push_back(entry);
  }
  std::map<std::string, std::string> metadata;
  for (const auto& [key, value] : file->metadata()) metadata[key] = value;
  metadata["quantization"] = formats.dump();
  KD_RETURN_IF_ERROR(WriteSafetensors(output, metadata, tensors));
  std::unique_ptr<SafetensorsFile> written;
  KD_RETURN_IF_ERROR(SafetensorsFile::Open(output, &written));
  report->output_bytes = written->size_bytes();
  return Status::OK();
}

}  // namespace keydecide
