// SafetensorsFile: reads the safetensors layout (8-byte little-endian header length, a JSON
// header naming each tensor's dtype, shape and byte range, then the raw data), memory
// mapped. Every range is validated against the file before any tensor is handed out.

#ifndef KEYDECIDE_MODEL_SAFETENSORS_H_
#define KEYDECIDE_MODEL_SAFETENSORS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/status.h"

namespace keydecide {

class MappedFile;

class SafetensorsFile {
 public:
  // Values are the strings the format uses; part of the format.
  enum class DType { kF32, kF16, kI8, kU8 };

  struct Tensor {
    DType dtype;
    std::vector<int64_t> shape;
    std::string_view data;  // into the mapped file
    int64_t elements() const;
  };

  static constexpr uint64_t kMaxHeaderBytes = 64 << 20;  // refuse absurd headers

  // Maps and parses `path`. Corruption when the header length, the JSON, a dtype, a shape
  // or a byte range is malformed or points outside the file; NotSupported for other dtypes.
  static Status Open(const std::string& path, std::unique_ptr<SafetensorsFile>* out);
  // Same over bytes owned by the result (tests).
  static Status FromBytes(std::string bytes, std::unique_ptr<SafetensorsFile>* out);

  ~SafetensorsFile();

  // nullptr when absent. Valid while this object lives.
  const Tensor* Find(const std::string& name) const;
  const std::map<std::string, Tensor>& tensors() const { return tensors_; }
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  // "" when absent.
  std::string_view Metadata(std::string_view key) const;
  uint64_t size_bytes() const { return bytes_.size(); }
  // Every byte after the header: the tensors' data (what weight_format::kMetaTensorCrc32
  // covers). Valid while this object lives.
  std::string_view tensor_data() const { return tensor_data_; }

 private:
  SafetensorsFile() = default;
  Status Parse();

  std::unique_ptr<MappedFile> file_;
  std::string owned_;
  std::string_view bytes_;
  std::string_view tensor_data_;
  std::map<std::string, Tensor> tensors_;
  std::map<std::string, std::string> metadata_;
};

// A tensor to write: raw little-endian bytes of `dtype` ("F32", "F16", "I8", "U8").
struct TensorToWrite {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;
  std::string bytes;
};

// Writes a safetensors file, tensors in the given order with no gaps (other readers refuse
// holes); the header is padded with spaces so the data starts at a multiple of 64 bytes.
// The metadata written is `metadata` plus weight_format::kMetaTensorCrc32, the checksum of
// the tensor data written (a value given for it is replaced).
// Written to `path`.tmp, then renamed: a failure never leaves a half-written file.
// IOError on failure.
Status WriteSafetensors(const std::string& path, const std::map<std::string, std::string>& metadata,
                        const std::vector<TensorToWrite>& tensors);

// Converts IEEE half to float (exact; handles subnormals, infinities and NaN).
float HalfToFloat(uint16_t h);

// The values of an F32 or F16 tensor as floats. REQUIRES: t.dtype is kF32 or kF16.
std::vector<float> ToFloats(const SafetensorsFile::Tensor& t);

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_SAFETENSORS_H_
