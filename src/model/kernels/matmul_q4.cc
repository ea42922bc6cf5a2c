// 4-bit group-wise matrix kernels (WeightFormat::kQ4; layout in weight_view.h). x is
// quantized to int8 once per call; each group's int32 dot is scaled by the group's scale.
//
// Everywhere: a block of 128 columns is unpacked to int8 (nibble - 8) and dotted like int8.
// On AVX-512 VNNI: the unpacked nibbles (0..15) are the unsigned operand of vpdpbusd and
// x the signed one; the "- 8" is folded in by starting each accumulator at -8 * (sum of
// the four x bytes of its lane), which is computed once per call.

#include <algorithm>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "model/kernels/matmul_q4.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "model/kernels/int8_dot-inl.h"
#include "model/kernels/kernels.h"
#include "model/kernels/matmul_formats.h"

HWY_BEFORE_NAMESPACE();
namespace keydecide::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: every kernel file has its own MatVecImpl etc.

// Unpacks `bytes` packed bytes (a block of 2 * bytes columns) to int8 nibble - 8:
// low nibbles to out[0, bytes), high nibbles to out[bytes, 2 * bytes).
HWY_INLINE void UnpackBlock(const uint8_t* packed, int bytes, int8_t* out) {
  const hn::CappedTag<uint8_t, 32> du;
  const hn::Rebind<int8_t, decltype(du)> di;
  const int N = static_cast<int>(hn::Lanes(du));
  const auto mask = hn::Set(du, 0x0F), eight = hn::Set(du, 8);
  int i = 0;
  for (; i + N <= bytes; i += N) {
    const auto v = hn::LoadU(du, packed + i);
    hn::StoreU(hn::BitCast(di, hn::Sub(hn::And(v, mask), eight)), di, out + i);
    hn::StoreU(hn::BitCast(di, hn::Sub(hn::ShiftRight<4>(v), eight)), di, out + bytes + i);
  }
  for (; i < bytes; ++i) {
    out[i] = static_cast<int8_t>((packed[i] & 15) - 8);
    out[bytes + i] = static_cast<int8_t>((packed[i] >> 4) - 8);
  }
}

float RowGeneric(const WeightView& w, int r, const int8_t* xq, float sx) {
  const uint8_t* packed = w.q4 + static_cast<size_t>(r) * w.bytes_per_row();
  const float* scales = w.scales + static_cast<size_t>(r) * w.scales_per_row();
  alignas(64) int8_t unpacked[kQ4Block];
  float sum = 0;
  for (int start = 0; start < w.cols; start += kQ4Block) {
    const int block = std::min(kQ4Block, w.cols - start);
    UnpackBlock(packed + start / 2, block / 2, unpacked);
    for (int g = 0; g < block; g += w.group) {
      sum += static_cast<float>(DotI8(unpacked + g, xq + start + g, w.group)) *
             scales[(start + g) / w.group];
    }
  }
  return sum * sx;
}

#if HWY_TARGET == HWY_AVX3_DL
#define KD_VNNI __attribute__((target(HWY_TARGET_STR ",avx512vnni"))) inline

// x prepared for the VNNI rows: int8 chunks of 64 and their accumulator start values.
struct PreparedX {
  alignas(64) int8_t q[kMaxCols];
  alignas(64) int32_t start[kMaxCols / 4];  // -8 * (sum of the 4 bytes of each lane)
  float scale;
};

KD_VNNI void PrepareX(const float* x, int cols, PreparedX* p) {
  p->scale = QuantizeActivations(x, cols, p->q);
  const __m512i ones = _mm512_set1_epi8(1);
  for (int k = 0; k < cols / 64; ++k) {
    const __m512i lane_sums =
        _mm512_dpbusd_epi32(_mm512_setzero_si512(), ones, _mm512_load_si512(p->q + 64 * k));
    _mm512_store_si512(p->start + 16 * k, _mm512_mullo_epi32(lane_sums, _mm512_set1_epi32(-8)));
  }
}

// The scale of each lane of a 64-column chunk starting at group index g: one broadcast for
// groups of 64, two halves for groups of 32.
KD_VNNI __m512 ChunkScales(const float* scales, int group, int chunk) {
  return group == 64 ? _mm512_set1_ps(scales[chunk])
                     : _mm512_insertf32x8(_mm512_set1_ps(scales[2 * chunk]),
                                          _mm256_set1_ps(scales[2 * chunk + 1]), 1);
}

// Rows r..r+3 at once (x's chunks and start values loaded once for all four). One 64-byte
// load holds a 128-column block: its low nibbles are the first 64 columns, its high ones
// the next 64. REQUIRES: w.cols % 128 == 0 (whole blocks).
KD_VNNI void Rows4Vnni(const WeightView& w, int r, const PreparedX& x, float* y) {
  const size_t bytes = w.bytes_per_row(), per_row = w.scales_per_row();
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  __m512 acc[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(),
                   _mm512_setzero_ps()};
  for (int k = 0; k < w.cols / 128; ++k) {
    const __m512i x0 = _mm512_load_si512(x.q + 128 * k), x1 = _mm512_load_si512(x.q + 128 * k + 64);
    const __m512i s0 = _mm512_load_si512(x.start + 32 * k),
                  s1 = _mm512_load_si512(x.start + 32 * k + 16);
    for (int i = 0; i < 4; ++i) {
      const uint8_t* packed = w.q4 + (r + i) * bytes;
      const float* scales = w.scales + (r + i) * per_row;
      const __m512i b = _mm512_loadu_si512(packed + 64 * k);
      const __m512i lo = _mm512_and_si512(b, low4);
      const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(b, 4), low4);
      acc[i] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_dpbusd_epi32(s0, lo, x0)),
                               ChunkScales(scales, w.group, 2 * k), acc[i]);
      acc[i] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_dpbusd_epi32(s1, hi, x1)),
                               ChunkScales(scales, w.group, 2 * k + 1), acc[i]);
    }
  }
  for (int i = 0; i < 4; ++i) y[i] = _mm512_reduce_add_ps(acc[i]) * x.scale;
}

KD_VNNI void MatVecVnni(const WeightView& w, const float* x, const float* bias, float* y) {
  PreparedX px;
  PrepareX(x, w.cols, &px);
  int r = 0;
  for (; r + 4 <= w.rows; r += 4) Rows4Vnni(w, r, px, y + r);
  for (; r < w.rows; ++r) y[r] = RowGeneric(w, r, px.q, px.scale);
  if (bias != nullptr) {
    for (r = 0; r < w.rows; ++r) y[r] += bias[r];
  }
}

#undef KD_VNNI
#endif  // HWY_TARGET == HWY_AVX3_DL

void MatVecImpl(const WeightView& w, const float* x, const float* bias, float* y) {
#if HWY_TARGET == HWY_AVX3_DL
  if (w.cols % 128 == 0) return MatVecVnni(w, x, bias, y);
#endif
  alignas(64) int8_t xq[kMaxCols];
  const float sx = QuantizeActivations(x, w.cols, xq);
  for (int r = 0; r < w.rows; ++r) y[r] = (bias ? bias[r] : 0.0f) + RowGeneric(w, r, xq, sx);
}

void RowDotsImpl(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out) {
  alignas(64) int8_t unpacked[kQ4Block];
  for (size_t i = 0; i < rows.size(); ++i) {
    const size_t r = static_cast<size_t>(rows[i]);
    const uint8_t* packed = w.q4 + r * w.bytes_per_row();
    const float* scales = w.scales + r * w.scales_per_row();
    float sum = 0;
    for (int start = 0; start < w.cols; start += kQ4Block) {
      const int block = std::min(kQ4Block, w.cols - start);
      UnpackBlock(packed + start / 2, block / 2, unpacked);
      for (int g = 0; g < block; g += w.group) {
        sum += DotI8F32(unpacked + g, x + start + g, w.group) * scales[(start + g) / w.group];
      }
    }
    out[i] = sum;
  }
}

}  // namespace
}  // namespace keydecide::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keydecide::kernels {

HWY_EXPORT(MatVecImpl);
HWY_EXPORT(RowDotsImpl);

void MatVecQ4(const WeightView& w, const float* x, const float* bias, float* y) {
  HWY_DYNAMIC_DISPATCH(MatVecImpl)(w, x, bias, y);
}
void MatMulQ4(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  for (int t = 0; t < n; ++t) {
    HWY_DYNAMIC_DISPATCH(MatVecImpl)
    (w, x + static_cast<size_t>(t) * w.cols, bias, y + static_cast<size_t>(t) * w.rows);
  }
}
void RowDotsQ4(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out) {
  HWY_DYNAMIC_DISPATCH(RowDotsImpl)(w, rows, x, out);
}

}  // namespace keydecide::kernels
#endif  // HWY_ONCE
