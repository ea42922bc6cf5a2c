// WeightMatrix: a weight matrix in one of the kernel formats, with the storage it needs:
// either its own (quantized here, or widened from F16) or a view into a mapped model file
// (quantized files are used in place). Adds what the fast kernels need beside the
// persisted bytes (int8 row sums for VNNI).

#ifndef KEYDECIDE_MODEL_WEIGHT_MATRIX_H_
#define KEYDECIDE_MODEL_WEIGHT_MATRIX_H_

#include <cstdint>
#include <vector>

#include "model/kernels/weight_view.h"

namespace keydecide {

class WeightMatrix {
 public:
  WeightMatrix() = default;
  WeightMatrix(WeightMatrix&&) = default;
  WeightMatrix& operator=(WeightMatrix&&) = default;

  // Owns a copy of fp32 weights [rows, cols].
  static WeightMatrix FromF32(std::vector<float> w, int rows, int cols);
  // Quantizes fp32 weights [rows, cols] (kQ4 REQUIRES cols % group == 0, group 32|64).
  static WeightMatrix Quantize(const float* w, int rows, int cols, kernels::WeightFormat format,
                               int group = 0);
  // Views persisted quantized bytes in place (kQ8: data int8 [rows, cols]; kQ4: data
  // [rows, cols/2]), which must outlive this object; copies the scales (kQ8: [rows] floats,
  // kQ4: [rows, cols/group]), which need no alignment. REQUIRES: format is kQ8 or kQ4.
  static WeightMatrix View(kernels::WeightFormat format, int rows, int cols, int group,
                           const void* data, const void* scales);

  const kernels::WeightView& view() const { return view_; }
  kernels::WeightFormat format() const { return view_.format; }
  int rows() const { return view_.rows; }
  int cols() const { return view_.cols; }

 private:
  void ComputeRowSums();

  kernels::WeightView view_;
  std::vector<float> f32_, scales_;
  std::vector<int8_t> q8_;
  std::vector<uint8_t> q4_;
  std::vector<int32_t> row_sums_;
};

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_WEIGHT_MATRIX_H_
