// The per-format entry points behind kernels.h's matrix kernels (matmul.cc picks one by
// WeightFormat). Internal to src/model/kernels.

#ifndef KEYDECIDE_MODEL_KERNELS_MATMUL_FORMATS_H_
#define KEYDECIDE_MODEL_KERNELS_MATMUL_FORMATS_H_

#include <cstdint>
#include <span>

#include "model/kernels/weight_view.h"

namespace keydecide::kernels {

#define KD_DECLARE_MATRIX_KERNELS(Suffix)                                                       \
  void MatVec##Suffix(const WeightView& w, const float* x, const float* bias, float* y);        \
  void MatMul##Suffix(const WeightView& w, const float* x, int n, const float* bias, float* y); \
  void RowDots##Suffix(const WeightView& w, std::span<const int32_t> rows, const float* x,      \
                       float* out);

KD_DECLARE_MATRIX_KERNELS(F32)
KD_DECLARE_MATRIX_KERNELS(Q8)
KD_DECLARE_MATRIX_KERNELS(Q4)
#undef KD_DECLARE_MATRIX_KERNELS

}  // namespace keydecide::kernels

#endif  // KEYDECIDE_MODEL_KERNELS_MATMUL_FORMATS_H_
