// The matrix kernels' one choice point (by weight format) and their scalar references.

#include <algorithm>
#include <cmath>
#include <vector>

#include "model/kernels/kernels.h"
#include "model/kernels/matmul_formats.h"

namespace keydecide::kernels {

void MatVec(const WeightView& w, const float* x, const float* bias, float* y) {
  switch (w.format) {
    case WeightFormat::kF32:
      return MatVecF32(w, x, bias, y);
    case WeightFormat::kQ8:
      return MatVecQ8(w, x, bias, y);
    case WeightFormat::kQ4:
      return MatVecQ4(w, x, bias, y);
  }
}

void MatMul(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  switch (w.format) {
    case WeightFormat::kF32:
      return MatMulF32(w, x, n, bias, y);
    case WeightFormat::kQ8:
      return MatMulQ8(w, x, n, bias, y);
    case WeightFormat::kQ4:
      return MatMulQ4(w, x, n, bias, y);
  }
}

void RowDots(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out) {
  switch (w.format) {
    case WeightFormat::kF32:
      return RowDotsF32(w, rows, x, out);
    case WeightFormat::kQ8:
      return RowDotsQ8(w, rows, x, out);
    case WeightFormat::kQ4:
      return RowDotsQ4(w, rows, x, out);
  }
}

// Scalar on purpose: one row per token (d_model values), far from the hot loops.
void DequantizeRow(const WeightView& w, int row, float* out) { ref::DequantizeRow(w, row, out); }

namespace ref {

float QuantizeActivations(const float* x, int n, int8_t* q) {
  float amax = 0;
  bool finite = true;
  for (int i = 0; i < n; ++i) {
    amax = std::max(amax, std::fabs(x[i]));
    finite &= std::isfinite(x[i]);
  }
  if (!(amax > 0) || !finite) {  // all zero, or NaN/Inf upstream: no signal to keep
    std::fill(q, q + n, 0);
    return 0;
  }
  const float inv = 127.0f / amax;
  for (int i = 0; i < n; ++i) q[i] = static_cast<int8_t>(std::nearbyint(x[i] * inv));
  return amax / 127.0f;
}

void DequantizeRow(const WeightView& w, int row, float* out) {
  const size_t r = static_cast<size_t>(row);
  switch (w.format) {
    case WeightFormat::kF32:
      std::copy(w.f32 + r * w.cols, w.f32 + (r + 1) * w.cols, out);
      return;
    case WeightFormat::kQ8:
      for (int c = 0; c < w.cols; ++c) out[c] = w.q8[r * w.cols + c] * w.scales[r];
      return;
    case WeightFormat::kQ4: {
      const uint8_t* packed = w.q4 + r * w.bytes_per_row();
      const float* scales = w.scales + r * w.scales_per_row();
      for (int b = 0; b < w.cols / 2; ++b) {
        for (const bool high : {false, true}) {
          const int c = Q4Column(w.cols, b, high);
          const int nibble = high ? packed[b] >> 4 : packed[b] & 15;
          out[c] = static_cast<float>(nibble - 8) * scales[c / w.group];
        }
      }
      return;
    }
  }
}

// One output: the definition of each format's dot product, including the on-the-fly int8
// quantization of x (xq, sx) for the quantized formats.
static float RowDot(const WeightView& w, int row, const float* x, const int8_t* xq, float sx) {
  const size_t r = static_cast<size_t>(row);
  switch (w.format) {
    case WeightFormat::kF32:
      return Dot(w.f32 + r * w.cols, x, w.cols);
    case WeightFormat::kQ8: {
      int64_t acc = 0;
      for (int c = 0; c < w.cols; ++c) acc += int64_t{w.q8[r * w.cols + c]} * xq[c];
      return static_cast<float>(acc) * (sx * w.scales[r]);
    }
    case WeightFormat::kQ4: {
      const uint8_t* packed = w.q4 + r * w.bytes_per_row();
      const float* scales = w.scales + r * w.scales_per_row();
      std::vector<int64_t> group_acc(w.scales_per_row(), 0);
      for (int b = 0; b < w.cols / 2; ++b) {
        for (const bool high : {false, true}) {
          const int c = Q4Column(w.cols, b, high);
          const int nibble = high ? packed[b] >> 4 : packed[b] & 15;
          group_acc[c / w.group] += int64_t{nibble - 8} * xq[c];
        }
      }
      double sum = 0;
      for (size_t g = 0; g < group_acc.size(); ++g)
        sum += static_cast<double>(group_acc[g]) * scales[g];
      return static_cast<float>(sum * sx);
    }
  }
  return 0;
}

void MatVec(const WeightView& w, const float* x, const float* bias, float* y) {
  std::vector<int8_t> xq(w.cols);
  const float sx = w.format == WeightFormat::kF32 ? 0 : QuantizeActivations(x, w.cols, xq.data());
  for (int r = 0; r < w.rows; ++r) y[r] = (bias ? bias[r] : 0.0f) + RowDot(w, r, x, xq.data(), sx);
}

void RowDots(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out) {
  std::vector<float> row(w.cols);
  for (size_t i = 0; i < rows.size(); ++i) {
    ref::DequantizeRow(w, rows[i], row.data());
    out[i] = ref::Dot(row.data(), x, w.cols);
  }
}

}  // namespace ref
}  // namespace keydecide::kernels
