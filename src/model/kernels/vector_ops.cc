// fp32 vector kernels: dot product, residual add, layer norm, GELU, softmax, attention of
// one head over the KV cache. Per-target code first, then dispatch and the scalar
// references (HWY_ONCE), as in hwy/examples/skeleton.cc.

#include <algorithm>
#include <cmath>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "model/kernels/vector_ops.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "model/kernels/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace keydecide::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: every kernel file has its own MatVecImpl etc.

using DF = hn::ScalableTag<float>;

// Sum of all lanes of v.
HWY_INLINE float HorizontalSum(DF d, hn::Vec<DF> v) { return hn::GetLane(hn::SumOfLanes(d, v)); }

float DotImpl(const float* a, const float* b, int n) {
  const DF d;
  const int N = static_cast<int>(hn::Lanes(d));
  auto s0 = hn::Zero(d), s1 = hn::Zero(d);
  int i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    s0 = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), s0);
    s1 = hn::MulAdd(hn::LoadU(d, a + i + N), hn::LoadU(d, b + i + N), s1);
  }
  for (; i + N <= n; i += N) s0 = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), s0);
  float sum = HorizontalSum(d, hn::Add(s0, s1));
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

void AddToImpl(const float* y, int n, float* x) {
  const DF d;
  const int N = static_cast<int>(hn::Lanes(d));
  int i = 0;
  for (; i + N <= n; i += N)
    hn::StoreU(hn::Add(hn::LoadU(d, x + i), hn::LoadU(d, y + i)), d, x + i);
  for (; i < n; ++i) x[i] += y[i];
}

void LayerNormImpl(const float* x, const float* gamma, const float* beta, int n, float eps,
                   float* y) {
  const DF d;
  const int N = static_cast<int>(hn::Lanes(d));
  auto acc = hn::Zero(d);
  int i = 0;
  for (; i + N <= n; i += N) acc = hn::Add(acc, hn::LoadU(d, x + i));
  float sum = HorizontalSum(d, acc);
  for (; i < n; ++i) sum += x[i];
  const float mean = sum / static_cast<float>(n);
  const auto vmean = hn::Set(d, mean);
  acc = hn::Zero(d);
  for (i = 0; i + N <= n; i += N) {
    const auto c = hn::Sub(hn::LoadU(d, x + i), vmean);
    acc = hn::MulAdd(c, c, acc);
  }
  float var = HorizontalSum(d, acc);
  for (; i < n; ++i) var += (x[i] - mean) * (x[i] - mean);
  const float inv = 1.0f / std::sqrt(var / static_cast<float>(n) + eps);
  const auto vinv = hn::Set(d, inv);
  for (i = 0; i + N <= n; i += N) {
    const auto c = hn::Mul(hn::Sub(hn::LoadU(d, x + i), vmean), vinv);
    hn::StoreU(hn::MulAdd(c, hn::LoadU(d, gamma + i), hn::LoadU(d, beta + i)), d, y + i);
  }
  for (; i < n; ++i) y[i] = (x[i] - mean) * inv * gamma[i] + beta[i];
}

// x * Phi(x) with erf from Abramowitz & Stegun 7.1.26 (|error| <= 1.5e-7): Highway 1.0.3
// has no erf, and the model was trained with the exact (erf) GELU.
HWY_INLINE hn::Vec<DF> GeluVec(DF d, hn::Vec<DF> x) {
  const auto z = hn::Mul(hn::Abs(x), hn::Set(d, 0.70710678118654752f));
  const auto t = hn::Div(hn::Set(d, 1.0f), hn::MulAdd(hn::Set(d, 0.3275911f), z, hn::Set(d, 1.0f)));
  auto poly = hn::Set(d, 1.061405429f);
  poly = hn::MulAdd(poly, t, hn::Set(d, -1.453152027f));
  poly = hn::MulAdd(poly, t, hn::Set(d, 1.421413741f));
  poly = hn::MulAdd(poly, t, hn::Set(d, -0.284496736f));
  poly = hn::MulAdd(poly, t, hn::Set(d, 0.254829592f));
  poly = hn::Mul(poly, t);
  const auto e = hn::Exp(d, hn::Neg(hn::Mul(z, z)));
  const auto erf_abs = hn::NegMulAdd(poly, e, hn::Set(d, 1.0f));  // 1 - poly * e
  const auto erf = hn::CopySign(erf_abs, x);
  return hn::Mul(hn::Mul(hn::Set(d, 0.5f), x), hn::Add(hn::Set(d, 1.0f), erf));
}

void GeluImpl(int n, float* x) {
  const DF d;
  const int N = static_cast<int>(hn::Lanes(d));
  int i = 0;
  for (; i + N <= n; i += N) hn::StoreU(GeluVec(d, hn::LoadU(d, x + i)), d, x + i);
  if (i < n) {  // tail through a padded vector
    HWY_ALIGN float buf[HWY_MAX_BYTES / sizeof(float)] = {};
    for (int j = i; j < n; ++j) buf[j - i] = x[j];
    hn::Store(GeluVec(d, hn::Load(d, buf)), d, buf);
    for (int j = i; j < n; ++j) x[j] = buf[j - i];
  }
}

void SoftmaxImpl(int n, float* x) {
  const DF d;
  const int N = static_cast<int>(hn::Lanes(d));
  float m = x[0];
  for (int i = 1; i < n; ++i) m = std::max(m, x[i]);
  const auto vm = hn::Set(d, m);
  auto acc = hn::Zero(d);
  int i = 0;
  for (; i + N <= n; i += N) {
    const auto e = hn::Exp(d, hn::Sub(hn::LoadU(d, x + i), vm));
    acc = hn::Add(acc, e);
    hn::StoreU(e, d, x + i);
  }
  float sum = HorizontalSum(d, acc);
  for (; i < n; ++i) sum += x[i] = std::exp(x[i] - m);
  const float inv = 1.0f / sum;
  const auto vinv = hn::Set(d, inv);
  for (i = 0; i + N <= n; i += N) hn::StoreU(hn::Mul(hn::LoadU(d, x + i), vinv), d, x + i);
  for (; i < n; ++i) x[i] *= inv;
}

void AttendHeadImpl(const float* q, const float* k, const float* v, int stride, int n, int head_dim,
                    float scale, float* scores, float* out) {
  for (int j = 0; j < n; ++j)
    scores[j] = DotImpl(q, k + static_cast<size_t>(j) * stride, head_dim) * scale;
  SoftmaxImpl(n, scores);
  const DF d;
  const int N = static_cast<int>(hn::Lanes(d));
  int i = 0;
  for (; i + N <= head_dim; i += N) {
    auto acc = hn::Zero(d);
    for (int j = 0; j < n; ++j) {
      acc = hn::MulAdd(hn::Set(d, scores[j]), hn::LoadU(d, v + static_cast<size_t>(j) * stride + i),
                       acc);
    }
    hn::StoreU(acc, d, out + i);
  }
  for (; i < head_dim; ++i) {
    float acc = 0;
    for (int j = 0; j < n; ++j) acc += scores[j] * v[static_cast<size_t>(j) * stride + i];
    out[i] = acc;
  }
}

float QuantizeActivationsImpl(const float* x, int n, int8_t* q) {
  const DF d;
  const hn::Rebind<int8_t, DF> d8;
  const int N = static_cast<int>(hn::Lanes(d));
  auto vmax = hn::Zero(d), vsum = hn::Zero(d);
  int i = 0;
  for (; i + N <= n; i += N) {
    const auto v = hn::LoadU(d, x + i);
    vmax = hn::Max(vmax, hn::Abs(v));
    vsum = hn::Add(vsum, v);
  }
  float amax = hn::GetLane(hn::MaxOfLanes(d, vmax)), sum = HorizontalSum(d, vsum);
  for (int j = i; j < n; ++j) amax = std::max(amax, std::fabs(x[j])), sum += x[j];
  if (!(amax > 0) || !std::isfinite(amax) || !std::isfinite(sum)) {  // zero, or NaN/Inf upstream
    std::fill(q, q + n, 0);
    return 0;
  }
  const float inv = 127.0f / amax;
  const auto vinv = hn::Set(d, inv);
  for (i = 0; i + N <= n; i += N) {
    // Round to nearest even, as nearbyint in the reference.
    hn::StoreU(hn::DemoteTo(d8, hn::NearestInt(hn::Mul(hn::LoadU(d, x + i), vinv))), d8, q + i);
  }
  for (; i < n; ++i) q[i] = static_cast<int8_t>(std::nearbyint(x[i] * inv));
  return amax / 127.0f;
}

}  // namespace
}  // namespace keydecide::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keydecide::kernels {

HWY_EXPORT(DotImpl);
HWY_EXPORT(AddToImpl);
HWY_EXPORT(LayerNormImpl);
HWY_EXPORT(GeluImpl);
HWY_EXPORT(SoftmaxImpl);
HWY_EXPORT(AttendHeadImpl);
HWY_EXPORT(QuantizeActivationsImpl);

float QuantizeActivations(const float* x, int n, int8_t* q) {
  return HWY_DYNAMIC_DISPATCH(QuantizeActivationsImpl)(x, n, q);
}

float Dot(const float* a, const float* b, int n) { return HWY_DYNAMIC_DISPATCH(DotImpl)(a, b, n); }
void AddTo(const float* y, int n, float* x) { HWY_DYNAMIC_DISPATCH(AddToImpl)(y, n, x); }
void LayerNorm(const float* x, const float* gamma, const float* beta, int n, float eps, float* y) {
  HWY_DYNAMIC_DISPATCH(LayerNormImpl)(x, gamma, beta, n, eps, y);
}
void Gelu(int n, float* x) { HWY_DYNAMIC_DISPATCH(GeluImpl)(n, x); }
void Softmax(int n, float* x) { HWY_DYNAMIC_DISPATCH(SoftmaxImpl)(n, x); }
void AttendHead(const float* q, const float* k, const float* v, int stride, int n, int head_dim,
                float scale, float* scores, float* out) {
  HWY_DYNAMIC_DISPATCH(AttendHeadImpl)(q, k, v, stride, n, head_dim, scale, scores, out);
}

namespace ref {

float Dot(const float* a, const float* b, int n) {
  double sum = 0;  // double: the reference should not carry its own rounding error
  for (int i = 0; i < n; ++i) sum += static_cast<double>(a[i]) * b[i];
  return static_cast<float>(sum);
}

void LayerNorm(const float* x, const float* gamma, const float* beta, int n, float eps, float* y) {
  double mean = 0, var = 0;
  for (int i = 0; i < n; ++i) mean += x[i];
  mean /= n;
  for (int i = 0; i < n; ++i) var += (x[i] - mean) * (x[i] - mean);
  var /= n;
  const double inv = 1.0 / std::sqrt(var + eps);
  for (int i = 0; i < n; ++i) y[i] = static_cast<float>((x[i] - mean) * inv * gamma[i] + beta[i]);
}

void Gelu(int n, float* x) {
  for (int i = 0; i < n; ++i) x[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * 0.70710678118654752f));
}

void Softmax(int n, float* x) {
  const float m = *std::max_element(x, x + n);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += x[i] = std::exp(x[i] - m);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(x[i] / sum);
}

void AttendHead(const float* q, const float* k, const float* v, int stride, int n, int head_dim,
                float scale, float* scores, float* out) {
  for (int j = 0; j < n; ++j)
    scores[j] = Dot(q, k + static_cast<size_t>(j) * stride, head_dim) * scale;
  Softmax(n, scores);
  for (int i = 0; i < head_dim; ++i) {
    double acc = 0;
    for (int j = 0; j < n; ++j) acc += scores[j] * v[static_cast<size_t>(j) * stride + i];
    out[i] = static_cast<float>(acc);
  }
}

}  // namespace ref
}  // namespace keydecide::kernels
#endif  // HWY_ONCE
