// fp32 matrix kernels: the fallback format (models stored as F32/F16, and the heads).
// Four weight rows share each load of x; one horizontal sum per row.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "model/kernels/matmul_f32.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "model/kernels/matmul_formats.h"

HWY_BEFORE_NAMESPACE();
namespace keydecide::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: every kernel file has its own MatVecImpl etc.

using DF = hn::ScalableTag<float>;

// Dots of rows w0..w3 (each n floats) with x.
HWY_INLINE void Dot4(const float* w0, const float* w1, const float* w2, const float* w3,
                     const float* x, int n, float* out) {
  const DF d;
  const int N = static_cast<int>(hn::Lanes(d));
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  int i = 0;
  for (; i + N <= n; i += N) {
    const auto vx = hn::LoadU(d, x + i);
    a0 = hn::MulAdd(hn::LoadU(d, w0 + i), vx, a0);
    a1 = hn::MulAdd(hn::LoadU(d, w1 + i), vx, a1);
    a2 = hn::MulAdd(hn::LoadU(d, w2 + i), vx, a2);
    a3 = hn::MulAdd(hn::LoadU(d, w3 + i), vx, a3);
  }
  out[0] = hn::GetLane(hn::SumOfLanes(d, a0));
  out[1] = hn::GetLane(hn::SumOfLanes(d, a1));
  out[2] = hn::GetLane(hn::SumOfLanes(d, a2));
  out[3] = hn::GetLane(hn::SumOfLanes(d, a3));
  for (; i < n; ++i) {
    out[0] += w0[i] * x[i], out[1] += w1[i] * x[i], out[2] += w2[i] * x[i], out[3] += w3[i] * x[i];
  }
}

HWY_INLINE float Dot1(const float* w, const float* x, int n) {
  const DF d;
  const int N = static_cast<int>(hn::Lanes(d));
  auto a = hn::Zero(d);
  int i = 0;
  for (; i + N <= n; i += N) a = hn::MulAdd(hn::LoadU(d, w + i), hn::LoadU(d, x + i), a);
  float sum = hn::GetLane(hn::SumOfLanes(d, a));
  for (; i < n; ++i) sum += w[i] * x[i];
  return sum;
}

void MatVecImpl(const WeightView& w, const float* x, const float* bias, float* y) {
  const size_t cols = static_cast<size_t>(w.cols);
  int r = 0;
  for (; r + 4 <= w.rows; r += 4) {
    const float* row = w.f32 + r * cols;
    Dot4(row, row + cols, row + 2 * cols, row + 3 * cols, x, w.cols, y + r);
  }
  for (; r < w.rows; ++r) y[r] = Dot1(w.f32 + r * cols, x, w.cols);
  if (bias != nullptr) {
    for (r = 0; r < w.rows; ++r) y[r] += bias[r];
  }
}

void RowDotsImpl(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out) {
  for (size_t i = 0; i < rows.size(); ++i) {
    out[i] = Dot1(w.f32 + static_cast<size_t>(rows[i]) * w.cols, x, w.cols);
  }
}

}  // namespace
}  // namespace keydecide::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keydecide::kernels {

HWY_EXPORT(MatVecImpl);
HWY_EXPORT(RowDotsImpl);

void MatVecF32(const WeightView& w, const float* x, const float* bias, float* y) {
  HWY_DYNAMIC_DISPATCH(MatVecImpl)(w, x, bias, y);
}
// Row by row of x: the weights of one matrix stay in L2 across the rows.
void MatMulF32(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  for (int t = 0; t < n; ++t) {
    HWY_DYNAMIC_DISPATCH(MatVecImpl)
    (w, x + static_cast<size_t>(t) * w.cols, bias, y + static_cast<size_t>(t) * w.rows);
  }
}
void RowDotsF32(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out) {
  HWY_DYNAMIC_DISPATCH(RowDotsImpl)(w, rows, x, out);
}

}  // namespace keydecide::kernels
#endif  // HWY_ONCE
