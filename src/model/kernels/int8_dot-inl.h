// int8 dot products shared by the int8 and int4 kernels, per Highway target (included
// by matmul_q8.cc and matmul_q4.cc after hwy/highway.h, once per target: the include guard
// toggles with HWY_TARGET_TOGGLE, as Highway's own -inl.h headers do).

#if defined(KEYDECIDE_MODEL_KERNELS_INT8_DOT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KEYDECIDE_MODEL_KERNELS_INT8_DOT_INL_H_
#undef KEYDECIDE_MODEL_KERNELS_INT8_DOT_INL_H_
#else
#define KEYDECIDE_MODEL_KERNELS_INT8_DOT_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace keydecide::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Exact int32 dot of n int8 pairs: widened to int16, pairs multiplied and added into
// int32 (Highway 1.0.3 has no four-way int8 dot).
HWY_INLINE int32_t DotI8(const int8_t* w, const int8_t* x, int n) {
  const hn::ScalableTag<int16_t> d16;
  const hn::Repartition<int32_t, decltype(d16)> d32;
  const hn::Rebind<int8_t, decltype(d16)> d8;  // half-width int8, widened to full int16
  const int N = static_cast<int>(hn::Lanes(d16));
  auto a = hn::Zero(d32), b = hn::Zero(d32);
  int i = 0;
  for (; i + N <= n; i += N) {
    a = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, w + i)),
                                      hn::PromoteTo(d16, hn::LoadU(d8, x + i)), a, b);
  }
  int32_t sum = hn::GetLane(hn::SumOfLanes(d32, hn::Add(a, b)));
  for (; i < n; ++i) sum += w[i] * x[i];
  return sum;
}

// fp32 x against int8 w widened to float: the candidates' logits keep full precision in x
// (few rows, so the int8 path's speed matters little there).
HWY_INLINE float DotI8F32(const int8_t* w, const float* x, int n) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::Rebind<int8_t, decltype(df)> d8;
  const int N = static_cast<int>(hn::Lanes(df));
  auto a = hn::Zero(df), b = hn::Zero(df);
  int i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    a = hn::MulAdd(hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, w + i))), hn::LoadU(df, x + i),
                   a);
    b = hn::MulAdd(hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, w + i + N))),
                   hn::LoadU(df, x + i + N), b);
  }
  for (; i + N <= n; i += N) {
    a = hn::MulAdd(hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, w + i))), hn::LoadU(df, x + i),
                   a);
  }
  float sum = hn::GetLane(hn::SumOfLanes(df, hn::Add(a, b)));
  for (; i < n; ++i) sum += static_cast<float>(w[i]) * x[i];
  return sum;
}

}  // namespace keydecide::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // KEYDECIDE_MODEL_KERNELS_INT8_DOT_INL_H_
