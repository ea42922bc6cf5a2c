#include "model/safetensors.h"

#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "base/mapped_file.h"
#include "model/weight_checksum.h"
#include "model/weight_format.h"

namespace keydecide {

int64_t SafetensorsFile::Tensor::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

SafetensorsFile::~SafetensorsFile() = default;

Status SafetensorsFile::Open(const std::string& path, std::unique_ptr<SafetensorsFile>* out) {
  std::unique_ptr<SafetensorsFile> f(new SafetensorsFile());
  KD_RETURN_IF_ERROR(MappedFile::Open(path, &f->file_));
  f->bytes_ = f->file_->data();
  const Status s = f->Parse();
  if (!s.ok()) return s.Annotated(path);  // Corruption, or NotSupported for other dtypes
  *out = std::move(f);
  return Status::OK();
}

Status SafetensorsFile::FromBytes(std::string bytes, std::unique_ptr<SafetensorsFile>* out) {
  std::unique_ptr<SafetensorsFile> f(new SafetensorsFile());
  f->owned_ = std::move(bytes);
  f->bytes_ = f->owned_;
  KD_RETURN_IF_ERROR(f->Parse());
  *out = std::move(f);
  return Status::OK();
}

Status SafetensorsFile::Parse() {
  if (bytes_.size() < 8) return Status::Corruption("file too short for a safetensors header");
  uint64_t header_len;
  std::memcpy(&header_len, bytes_.data(), 8);
  if (header_len > kMaxHeaderBytes || header_len > bytes_.size() - 8) {
    return Status::Corruption("bad safetensors header length " + std::to_string(header_len));
  }
  const std::string_view data = bytes_.substr(8 + header_len);
  tensor_data_ = data;
  nlohmann::json header = nlohmann::json::parse(bytes_.substr(8, header_len), nullptr,
                                                /*allow_exceptions=*/false);
  if (header.is_discarded() || !header.is_object()) {
    return Status::Corruption("safetensors header is not a JSON object");
  }
  for (auto& [name, value] : header.items()) {
    if (name == "__metadata__") {
      if (!value.is_object()) return Status::Corruption("__metadata__ is not an object");
      for (auto& [k, v] : value.items()) {
        if (!v.is_string()) return Status::Corruption("metadata '" + k + "' is not a string");
        metadata_[k] = v.get<std::string>();
      }
      continue;
    }
    if (!value.is_object() || !value.contains("dtype") || !value.contains("shape") ||
        !value.contains("data_offsets") || !value["dtype"].is_string() ||
        !value["shape"].is_array() || !value["data_offsets"].is_array() ||
        value["data_offsets"].size() != 2) {
      return Status::Corruption("tensor '" + name + "' has a malformed entry");
    }
    Tensor t;
    const std::string dtype = value["dtype"].get<std::string>();
    size_t elem_size;
    if (dtype == "F32") {
      t.dtype = DType::kF32, elem_size = 4;
    } else if (dtype == "F16") {
      t.dtype = DType::kF16, elem_size = 2;
    } else if (dtype == "I8") {
      t.dtype = DType::kI8, elem_size = 1;
    } else if (dtype == "U8") {
      t.dtype = DType::kU8, elem_size = 1;
    } else {
      return Status::NotSupported("tensor '" + name + "' has dtype " + dtype);
    }
    // Shapes are small; cap every dimension so the element count cannot overflow.
    int64_t elements = 1;
    for (const auto& d : value["shape"]) {
      if (!d.is_number_integer() || d.get<int64_t>() < 0 || d.get<int64_t>() > (int64_t{1} << 31)) {
        return Status::Corruption("tensor '" + name + "' has a bad shape");
      }
      t.shape.push_back(d.get<int64_t>());
      elements *= t.shape.back();
      if (elements > (int64_t{1} << 40))
        return Status::Corruption("tensor '" + name + "' is too large");
    }
    const auto& offs = value["data_offsets"];
    if (!offs[0].is_number_unsigned() || !offs[1].is_number_unsigned()) {
      return Status::Corruption("tensor '" + name + "' has bad data offsets");
    }
    const uint64_t begin = offs[0].get<uint64_t>(), end = offs[1].get<uint64_t>();
    if (begin > end || end > data.size()) {
      return Status::Corruption("tensor '" + name + "' lies outside the file");
    }
    if (end - begin != static_cast<uint64_t>(elements) * elem_size) {
      return Status::Corruption("tensor '" + name + "' size does not match its shape");
    }
    t.data = data.substr(begin, end - begin);
    tensors_.emplace(name, std::move(t));
  }
  return Status::OK();
}

const SafetensorsFile::Tensor* SafetensorsFile::Find(const std::string& name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

std::string_view SafetensorsFile::Metadata(std::string_view key) const {
  auto it = metadata_.find(std::string(key));  // at load time only
  return it == metadata_.end() ? std::string_view() : std::string_view(it->second);
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1F;
  uint32_t mant = h & 0x3FF;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400) == 0);
      bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (mant & 0x3FF) << 13;
    }
  } else if (exp == 31) {
    bits = sign | 0x7F800000u | mant << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::vector<float> ToFloats(const SafetensorsFile::Tensor& t) {
  const size_t n = static_cast<size_t>(t.elements());
  std::vector<float> out(n);
  if (t.dtype == SafetensorsFile::DType::kF32) {
    std::memcpy(out.data(), t.data.data(), n * sizeof(float));
  } else {
    for (size_t i = 0; i < n; ++i) {
      uint16_t h;
      std::memcpy(&h, t.data.data() + 2 * i, 2);
      out[i] = HalfToFloat(h);
    }
  }
  return out;
}

Status WriteSafetensors(const std::string& path, const std::map<std::string, std::string>& metadata,
                        const std::vector<TensorToWrite>& tensors) {
  constexpr size_t kAlign = 64;
  auto round_up = [](size_t n) { return (n + kAlign - 1) / kAlign * kAlign; };
  nlohmann::json header;
  header["__metadata__"] = metadata;
  uint32_t crc = 0;
  for (const TensorToWrite& t : tensors) crc = TensorDataCrc32(t.bytes, crc);
  header["__metadata__"][std::string(weight_format::kMetaTensorCrc32)] = FormatTensorCrc32(crc);
  size_t offset = 0;
  for (const TensorToWrite& t : tensors) {
    header[t.name] = {{"dtype", t.dtype},
                      {"shape", t.shape},
                      {"data_offsets", {offset, offset + t.bytes.size()}}};
    offset += t.bytes.size();
  }
  std::string text = header.dump();
  text.resize(round_up(text.size() + 8) - 8, ' ');  // JSON may end in spaces
  const uint64_t header_len = text.size();
  std::vector<std::string_view> parts = {
      std::string_view(reinterpret_cast<const char*>(&header_len), 8), text};
  for (const TensorToWrite& t : tensors) parts.emplace_back(t.bytes);
  return WriteFileAtomically(path, parts);
}

}  // namespace keydecide
