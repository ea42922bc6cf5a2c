// int8 matrix kernels (WeightFormat::kQ8): x is quantized to int8 once per call, then
// each output is an exact int32 dot product scaled by (scale of x) * (scale of the row).
//
// One inner loop per CPU family behind one interface:
// - AVX-512 VNNI (the HWY_AVX3_DL target, here): vpdpbusd on 512-bit registers, four int8
//   products per int32 lane in one instruction. vpdpbusd multiplies unsigned by signed
//   bytes, so x is offset to x + 128 (a sign-bit flip) and 128 * (sum of the row) is
//   subtracted afterwards (row_sums).
// - AVX2 and AVX-512 without VNNI: the 256-bit kernels of matmul_q8_x86.h, with AVX-VNNI's
//   vpdpbusd where the CPU has it (targets.h: UseAvxVnni) and AVX2's maddubs/madd otherwise.
// - 64-bit Arm with dotprod / i8mm (targets.h: UseArmInt8): the kernels of
//   matmul_q8_arm.h, sdot on 4 rows per chunk and in 4 x 4 tiles, smmla for MatMul.
// - Everywhere else: widen int8 to int16 and multiply-add pairs into int32
//   (ReorderWidenMulAccumulate; Highway 1.0.3 has no int8 dot).

#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "model/kernels/matmul_q8.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "model/kernels/int8_dot-inl.h"
#include "model/kernels/kernels.h"
#include "model/kernels/matmul_formats.h"
#include "model/kernels/targets.h"
#if HWY_ARCH_X86
#include "model/kernels/matmul_q8_x86.h"
#endif
#if HWY_ARCH_ARM_A64
#include "model/kernels/matmul_q8_arm.h"
#endif

HWY_BEFORE_NAMESPACE();
namespace keydecide::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: every kernel file has its own MatVecImpl etc.

using D16 = hn::ScalableTag<int16_t>;
using D32 = hn::Repartition<int32_t, D16>;
using D8 = hn::Rebind<int8_t, D16>;  // half-width int8 vector widened to a full int16 one

// int32 dots of rows w0..w3 (n int8 each) with x.
HWY_INLINE void DotI8x4(const int8_t* w0, const int8_t* w1, const int8_t* w2, const int8_t* w3,
                        const int8_t* x, int n, int32_t* out) {
  const D16 d16;
  const D32 d32;
  const D8 d8;
  const int N = static_cast<int>(hn::Lanes(d16));
  auto a0 = hn::Zero(d32), a1 = hn::Zero(d32), a2 = hn::Zero(d32), a3 = hn::Zero(d32);
  auto b0 = hn::Zero(d32), b1 = hn::Zero(d32), b2 = hn::Zero(d32), b3 = hn::Zero(d32);
  int i = 0;
  for (; i + N <= n; i += N) {
    const auto vx = hn::PromoteTo(d16, hn::LoadU(d8, x + i));
    a0 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, w0 + i)), vx, a0, b0);
    a1 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, w1 + i)), vx, a1, b1);
    a2 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, w2 + i)), vx, a2, b2);
    a3 = hn::ReorderWidenMulAccumulate(d32, hn::PromoteTo(d16, hn::LoadU(d8, w3 + i)), vx, a3, b3);
  }
  out[0] = hn::GetLane(hn::SumOfLanes(d32, hn::Add(a0, b0)));
  out[1] = hn::GetLane(hn::SumOfLanes(d32, hn::Add(a1, b1)));
  out[2] = hn::GetLane(hn::SumOfLanes(d32, hn::Add(a2, b2)));
  out[3] = hn::GetLane(hn::SumOfLanes(d32, hn::Add(a3, b3)));
  for (; i < n; ++i) {
    out[0] += w0[i] * x[i], out[1] += w1[i] * x[i], out[2] += w2[i] * x[i], out[3] += w3[i] * x[i];
  }
}

void MatVecGeneric(const WeightView& w, const int8_t* xq, float sx, const float* bias, float* y) {
  const size_t cols = static_cast<size_t>(w.cols);
  int32_t dots[4];
  int r = 0;
  for (; r + 4 <= w.rows; r += 4) {
    const int8_t* row = w.q8 + r * cols;
    DotI8x4(row, row + cols, row + 2 * cols, row + 3 * cols, xq, w.cols, dots);
    for (int k = 0; k < 4; ++k) y[r + k] = static_cast<float>(dots[k]) * (sx * w.scales[r + k]);
  }
  for (; r < w.rows; ++r)
    y[r] = static_cast<float>(DotI8(w.q8 + r * cols, xq, w.cols)) * (sx * w.scales[r]);
  if (bias != nullptr) {
    for (r = 0; r < w.rows; ++r) y[r] += bias[r];
  }
}

#if HWY_TARGET == HWY_AVX3_DL
// Highway's AVX3_DL target string lacks avx512vnni (1.0.3); the VNNI functions add it.
#define KD_VNNI __attribute__((target(HWY_TARGET_STR ",avx512vnni"))) inline

// The four sums of a, b, c, d (int32 lanes each) as one 128-bit vector [a b c d]: three
// rounds of interleave-and-add instead of four full horizontal sums.
KD_VNNI __m128i Sum4(__m512i a, __m512i b, __m512i c, __m512i d) {
  const __m512i ab = _mm512_add_epi32(_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
  const __m512i cd = _mm512_add_epi32(_mm512_unpacklo_epi32(c, d), _mm512_unpackhi_epi32(c, d));
  const __m512i abcd =
      _mm512_add_epi32(_mm512_unpacklo_epi64(ab, cd), _mm512_unpackhi_epi64(ab, cd));
  const __m256i h =
      _mm256_add_epi32(_mm512_castsi512_si256(abcd), _mm512_extracti64x4_epi64(abcd, 1));
  return _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

// Rows are read in whole 64-byte chunks, then one masked chunk for the rest (never past
// the row, so the last row of a mapped file is safe). Each kernel below has one loop over
// the whole chunks, free of branches, and the masked chunk after it.
KD_VNNI __mmask64 TailMask(int cols) { return ~0ULL >> (64 - cols % 64); }

// acc[i] += xu . rows i of p (4 rows, `cols` apart) over chunk k, loads masked by `m`.
KD_VNNI void Rows4Chunk(const int8_t* p, int cols, int k, __mmask64 m, __m512i vx, __m512i* a) {
  for (int i = 0; i < 4; ++i) {
    a[i] = _mm512_dpbusd_epi32(a[i], vx, _mm512_maskz_loadu_epi8(m, p + i * cols + 64 * k));
  }
}

// y[r..r+4) for one activation row xu (x + 128, zero-padded to whole chunks).
KD_VNNI void Rows4Vnni(const WeightView& w, int r, const uint8_t* xu, float sx, float* y) {
  const int cols = w.cols, full = cols / 64;
  const int8_t* p = w.q8 + static_cast<size_t>(r) * cols;
  __m512i a[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                  _mm512_setzero_si512()};
  for (int k = 0; k < full; ++k) {
    Rows4Chunk(p, cols, k, ~0ULL, _mm512_load_si512(xu + 64 * k), a);
    // The weights stream from L3 (a model's int8 layers outgrow L2): ask for the rows of
    // four blocks ahead while this one is multiplied.
    for (int i = 0; i < 4; ++i) {
      _mm_prefetch(reinterpret_cast<const char*>(p + (16 + i) * cols + 64 * k), _MM_HINT_T0);
    }
  }
  if (cols % 64) Rows4Chunk(p, cols, full, TailMask(cols), _mm512_load_si512(xu + 64 * full), a);
  __m128i s = Sum4(a[0], a[1], a[2], a[3]);
  s = _mm_sub_epi32(
      s, _mm_slli_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w.row_sums + r)), 7));
  const __m128 scale = _mm_mul_ps(_mm_loadu_ps(w.scales + r), _mm_set1_ps(sx));
  _mm_storeu_ps(y, _mm_mul_ps(_mm_cvtepi32_ps(s), scale));
}

KD_VNNI float Row1Vnni(const WeightView& w, int r, const uint8_t* xu, float sx) {
  const int cols = w.cols, full = cols / 64;
  const int8_t* p = w.q8 + static_cast<size_t>(r) * cols;
  __m512i a = _mm512_setzero_si512();
  for (int k = 0; k < full; ++k) {
    a = _mm512_dpbusd_epi32(a, _mm512_load_si512(xu + 64 * k), _mm512_loadu_si512(p + 64 * k));
  }
  if (cols % 64) {
    a = _mm512_dpbusd_epi32(a, _mm512_load_si512(xu + 64 * full),
                            _mm512_maskz_loadu_epi8(TailMask(cols), p + 64 * full));
  }
  const int32_t dot = _mm512_reduce_add_epi32(a) - 128 * w.row_sums[r];
  return static_cast<float>(dot) * (sx * w.scales[r]);
}

// acc[t][i] += xu[t] . row i over chunk k, for 4 activation rows and 4 weight rows.
KD_VNNI void Tile4x4Chunk(const int8_t* p, int cols, int k, __mmask64 m, const uint8_t* const xu[4],
                          __m512i (*acc)[4]) {
  const __m512i w0 = _mm512_maskz_loadu_epi8(m, p + 64 * k);
  const __m512i w1 = _mm512_maskz_loadu_epi8(m, p + cols + 64 * k);
  const __m512i w2 = _mm512_maskz_loadu_epi8(m, p + 2 * cols + 64 * k);
  const __m512i w3 = _mm512_maskz_loadu_epi8(m, p + 3 * cols + 64 * k);
  for (int t = 0; t < 4; ++t) {
    const __m512i vx = _mm512_load_si512(xu[t] + 64 * k);
    acc[t][0] = _mm512_dpbusd_epi32(acc[t][0], vx, w0);
    acc[t][1] = _mm512_dpbusd_epi32(acc[t][1], vx, w1);
    acc[t][2] = _mm512_dpbusd_epi32(acc[t][2], vx, w2);
    acc[t][3] = _mm512_dpbusd_epi32(acc[t][3], vx, w3);
  }
}

// y [4, w.rows] for four activation rows at once: each weight chunk loaded once serves
// all four (4 x 4 accumulators).
KD_VNNI void Tile4x4Vnni(const WeightView& w, int r, const uint8_t* const xu[4], const float sx[4],
                         float* const y[4]) {
  const int cols = w.cols, full = cols / 64;
  const int8_t* p = w.q8 + static_cast<size_t>(r) * cols;
  __m512i acc[4][4];
  for (auto& row : acc) {
    for (__m512i& a : row) a = _mm512_setzero_si512();
  }
  for (int k = 0; k < full; ++k) Tile4x4Chunk(p, cols, k, ~0ULL, xu, acc);
  if (cols % 64) Tile4x4Chunk(p, cols, full, TailMask(cols), xu, acc);
  const __m128i offset =
      _mm_slli_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w.row_sums + r)), 7);
  const __m128 scales = _mm_loadu_ps(w.scales + r);
  for (int t = 0; t < 4; ++t) {
    const __m128i s = _mm_sub_epi32(Sum4(acc[t][0], acc[t][1], acc[t][2], acc[t][3]), offset);
    _mm_storeu_ps(y[t] + r, _mm_mul_ps(_mm_cvtepi32_ps(s), _mm_mul_ps(scales, _mm_set1_ps(sx[t]))));
  }
}

// Quantizes x and writes it offset by 128 (sign bit flipped), zero-padded to whole chunks.
inline float QuantizeOffset(const float* x, int cols, uint8_t* xu) {
  alignas(64) int8_t xq[kMaxCols];
  const float sx = QuantizeActivations(x, cols, xq);
  const int padded = (cols + 63) / 64 * 64;
  for (int c = 0; c < cols; ++c) xu[c] = static_cast<uint8_t>(xq[c]) ^ 0x80;
  std::memset(xu + cols, 0, padded - cols);
  return sx;
}

KD_VNNI void MatVecVnni(const WeightView& w, const float* x, const float* bias, float* y) {
  alignas(64) uint8_t xu[kMaxCols];
  const float sx = QuantizeOffset(x, w.cols, xu);
  int r = 0;
  for (; r + 4 <= w.rows; r += 4) Rows4Vnni(w, r, xu, sx, y + r);
  for (; r < w.rows; ++r) y[r] = Row1Vnni(w, r, xu, sx);
  if (bias != nullptr) {
    for (r = 0; r < w.rows; ++r) y[r] += bias[r];
  }
}

// These kernels for MatMulInActivationGroups (q8_activation_groups-inl.h).
struct VnniGroupKernels {
  using X = uint8_t;
  static constexpr int kPadTo = 64;
  static constexpr int kTileX = 4;
  static float PrepareRow(const float* x, int cols, uint8_t* xu) {
    return QuantizeOffset(x, cols, xu);
  }
  static void TileRows(const WeightView& w, int r, const uint8_t* const xu[4], const float sx[4],
                       float* const y[4]) {
    Tile4x4Vnni(w, r, xu, sx, y);
  }
  static void FourRows(const WeightView& w, int r, const uint8_t* xu, float sx, float* y) {
    Rows4Vnni(w, r, xu, sx, y);
  }
  static float OneRow(const WeightView& w, int r, const uint8_t* xu, float sx) {
    return Row1Vnni(w, r, xu, sx);
  }
};

#define KD_GROUP_TARGET KD_VNNI
#include "model/kernels/q8_activation_groups-inl.h"
#undef KD_GROUP_TARGET

KD_VNNI void MatMulVnni(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  MatMulInActivationGroups<VnniGroupKernels>(w, x, n, bias, y);
}

#undef KD_VNNI
#endif  // HWY_TARGET == HWY_AVX3_DL

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
#define KD_X86_256 1  // this target hands int8 work to the 256-bit x86 kernels
#endif
#if HWY_ARCH_ARM_A64 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
#define KD_ARM_INT8 1  // this target hands int8 work to the Arm kernels the CPU has
#endif

void MatVecImpl(const WeightView& w, const float* x, const float* bias, float* y) {
#if HWY_TARGET == HWY_AVX3_DL
  if (w.row_sums != nullptr) return MatVecVnni(w, x, bias, y);
#elif defined(KD_X86_256)
  if (w.row_sums != nullptr && UseAvxVnni()) return avxvnni::MatVecQ8(w, x, bias, y);
  return avx2::MatVecQ8(w, x, bias, y);
#elif defined(KD_ARM_INT8)
  // i8mm pays only with two activation rows: its CPUs' matrix-vector products use sdot.
  if (UseArmInt8() != ArmInt8::kPortable) return dotprod::MatVecQ8(w, x, bias, y);
#endif
  alignas(64) int8_t xq[kMaxCols];
  const float sx = QuantizeActivations(x, w.cols, xq);
  MatVecGeneric(w, xq, sx, bias, y);
}

void MatMulImpl(const WeightView& w, const float* x, int n, const float* bias, float* y) {
#if HWY_TARGET == HWY_AVX3_DL
  if (w.row_sums != nullptr) return MatMulVnni(w, x, n, bias, y);
#elif defined(KD_X86_256)
  if (w.row_sums != nullptr && UseAvxVnni()) return avxvnni::MatMulQ8(w, x, n, bias, y);
  return avx2::MatMulQ8(w, x, n, bias, y);
#elif defined(KD_ARM_INT8)
  if (UseArmInt8() == ArmInt8::kI8mm) return i8mm::MatMulQ8(w, x, n, bias, y);
  if (UseArmInt8() == ArmInt8::kDotprod) return dotprod::MatMulQ8(w, x, n, bias, y);
#endif
  alignas(64) int8_t xq[kMaxCols];
  for (int t = 0; t < n; ++t) {
    const float sx = QuantizeActivations(x + static_cast<size_t>(t) * w.cols, w.cols, xq);
    MatVecGeneric(w, xq, sx, bias, y + static_cast<size_t>(t) * w.rows);
  }
}

#undef KD_X86_256
#undef KD_ARM_INT8

void RowDotsImpl(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out) {
  for (size_t i = 0; i < rows.size(); ++i) {
    const int r = rows[i];
    out[i] = DotI8F32(w.q8 + static_cast<size_t>(r) * w.cols, x, w.cols) * w.scales[r];
  }
}

}  // namespace
}  // namespace keydecide::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keydecide::kernels {

HWY_EXPORT(MatVecImpl);
HWY_EXPORT(MatMulImpl);
HWY_EXPORT(RowDotsImpl);

void MatVecQ8(const WeightView& w, const float* x, const float* bias, float* y) {
  HWY_DYNAMIC_DISPATCH(MatVecImpl)(w, x, bias, y);
}
void MatMulQ8(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  HWY_DYNAMIC_DISPATCH(MatMulImpl)(w, x, n, bias, y);
}
void RowDotsQ8(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out) {
  HWY_DYNAMIC_DISPATCH(RowDotsImpl)(w, rows, x, out);
}

}  // namespace keydecide::kernels
#endif  // HWY_ONCE
