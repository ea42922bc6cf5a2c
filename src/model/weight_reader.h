// WeightReader: reads the tensors of a weight file by their contract names (weight_format.h),
// checking shapes, dtypes and finiteness; quantizable weights in the format the file's
// "quantization" metadata names. Transformer::Load's tool; not kept after loading.

#ifndef KEYDECIDE_MODEL_WEIGHT_READER_H_
#define KEYDECIDE_MODEL_WEIGHT_READER_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "keydecide/status.h"
#include "model/kernels/weight_view.h"
#include "model/weight_matrix.h"

namespace keydecide {

class SafetensorsFile;

class WeightReader {
 public:
  // REQUIRES: file outlives the reader and every WeightMatrix view it hands out.
  explicit WeightReader(const SafetensorsFile* file) : file_(file) {}

  // Parses the "quantization" metadata. InvalidArgument/NotSupported on a malformed entry.
  Status Init();

  // A float tensor (F32 or F16) of exactly `shape`, widened to fp32; NaN and Inf refused.
  Status Floats(const std::string& name, const std::vector<int64_t>& shape,
                std::vector<float>* out) const;
  // A weight [rows, cols] in its stored format: an fp32 copy, or a view of the quantized
  // bytes (whose scales must be finite).
  Status Matrix(const std::string& name, int64_t rows, int64_t cols, WeightMatrix* out);
  // A weight that always stays fp32 (the decision heads).
  Status FloatMatrix(const std::string& name, int64_t rows, int64_t cols, WeightMatrix* out) const;

  // InvalidArgument when the quantization metadata named a tensor no Matrix call read.
  Status CheckAllQuantizedRead() const;
  // The formats of the weights read: "f32", "q8", "q4g32", "q4g64", joined by '+'.
  std::string FormatsRead() const;

 private:
  struct StoredFormat {
    kernels::WeightFormat format = kernels::WeightFormat::kF32;
    int group = 0;
  };

  const SafetensorsFile* file_;
  std::map<std::string, StoredFormat, std::less<>> stored_;  // not yet read
  std::set<std::string> formats_read_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_WEIGHT_READER_H_
