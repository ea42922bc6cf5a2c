// The int8 kernels with Arm's signed byte dot product (sdot, FEAT_DotProd): each vdotq_s32
// adds four byte products into each of four int32 lanes, 16 products per instruction.
// Signed by signed, so x needs no offset (matmul_q8_arm.h).

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "model/kernels/kernels.h"
#include "model/kernels/matmul_q8_arm.h"

namespace keydecide::kernels::dotprod {
namespace {

#define KD_ARM_TARGET "arch=armv8.2-a+dotprod"
#include "model/kernels/q8_neon-inl.h"

// The four sums of a, b, c, d (4 int32 lanes each) as [a b c d]: two rounds of pairwise adds.
KD_INLINE int32x4_t Sum4(int32x4_t a, int32x4_t b, int32x4_t c, int32x4_t d) {
  return vpaddq_s32(vpaddq_s32(a, b), vpaddq_s32(c, d));
}

// y[r..r+4) for one prepared activation row xp: each x chunk loaded once serves 4 rows.
KD_TARGET void Rows4(const WeightView& w, int r, const int8_t* xp, float sx, float* y) {
  const int cols = w.cols, full = cols / kChunk, rest = cols % kChunk;
  const int8_t* p = w.q8 + static_cast<size_t>(r) * cols;
  int32x4_t a0 = vdupq_n_s32(0), a1 = a0, a2 = a0, a3 = a0;
  for (int k = 0; k < full; ++k) {
    const int o = kChunk * k;
    const int8x16_t vx = vld1q_s8(xp + o);
    a0 = vdotq_s32(a0, LoadChunk(p + o), vx);
    a1 = vdotq_s32(a1, LoadChunk(p + cols + o), vx);
    a2 = vdotq_s32(a2, LoadChunk(p + 2 * cols + o), vx);
    a3 = vdotq_s32(a3, LoadChunk(p + 3 * cols + o), vx);
    // As the x86 kernels: the block of rows 16 ahead is not where the four streams lead
    // the hardware prefetcher, so ask for it meanwhile (a hint: past the matrix it is dropped).
    for (int i = 0; i < 4; ++i) __builtin_prefetch(p + (16 + i) * cols + o, 0, 3);
  }
  if (rest != 0) {
    const int o = kChunk * full;
    const int8x16_t vx = vld1q_s8(xp + o);
    a0 = vdotq_s32(a0, LoadTail(p + o, rest), vx);
    a1 = vdotq_s32(a1, LoadTail(p + cols + o, rest), vx);
    a2 = vdotq_s32(a2, LoadTail(p + 2 * cols + o, rest), vx);
    a3 = vdotq_s32(a3, LoadTail(p + 3 * cols + o, rest), vx);
  }
  Store4(Sum4(a0, a1, a2, a3), w, r, sx, y);
}

KD_TARGET float Row1(const WeightView& w, int r, const int8_t* xp, float sx) {
  const int cols = w.cols, full = cols / kChunk, rest = cols % kChunk;
  const int8_t* p = w.q8 + static_cast<size_t>(r) * cols;
  int32x4_t a = vdupq_n_s32(0);
  for (int k = 0; k < full; ++k) {
    a = vdotq_s32(a, LoadChunk(p + kChunk * k), vld1q_s8(xp + kChunk * k));
  }
  if (rest != 0) a = vdotq_s32(a, LoadTail(p + kChunk * full, rest), vld1q_s8(xp + kChunk * full));
  return static_cast<float>(vaddvq_s32(a)) * (sx * w.scales[r]);
}

// acc[t][i] += xp[t] . row i over one chunk, for 4 activation rows and 4 weight rows: each
// weight chunk loaded once serves all four activation rows. The pragmas unroll it: without
// them GCC 12 keeps the 16 accumulators in memory.
KD_INLINE void Tile4x4Chunk(const int8x16_t wv[4], const int8_t* const xp[4], int o,
                            int32x4_t (*acc)[4]) {
#pragma GCC unroll 4
  for (int t = 0; t < 4; ++t) {
    const int8x16_t vx = vld1q_s8(xp[t] + o);
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) acc[t][i] = vdotq_s32(acc[t][i], wv[i], vx);
  }
}

KD_TARGET void Tile4x4(const WeightView& w, int r, const int8_t* const xp[4], const float sx[4],
                       float* const y[4]) {
  const int cols = w.cols, full = cols / kChunk, rest = cols % kChunk;
  const int8_t* p = w.q8 + static_cast<size_t>(r) * cols;
  int32x4_t acc[4][4];
  for (auto& row : acc) {
    for (int32x4_t& a : row) a = vdupq_n_s32(0);
  }
  for (int k = 0; k < full; ++k) {
    const int o = kChunk * k;
    const int8x16_t wv[4] = {LoadChunk(p + o), LoadChunk(p + cols + o), LoadChunk(p + 2 * cols + o),
                             LoadChunk(p + 3 * cols + o)};
    Tile4x4Chunk(wv, xp, o, acc);
  }
  if (rest != 0) {
    const int o = kChunk * full;
    const int8x16_t wv[4] = {LoadTail(p + o, rest), LoadTail(p + cols + o, rest),
                             LoadTail(p + 2 * cols + o, rest), LoadTail(p + 3 * cols + o, rest)};
    Tile4x4Chunk(wv, xp, o, acc);
  }
  for (int t = 0; t < 4; ++t) {
    Store4(Sum4(acc[t][0], acc[t][1], acc[t][2], acc[t][3]), w, r, sx[t], y[t] + r);
  }
}

KD_TARGET void MatVecImpl(const WeightView& w, const float* x, const float* bias, float* y) {
  alignas(16) int8_t xp[kMaxCols];
  const float sx = PrepareX(x, w.cols, xp);
  int r = 0;
  for (; r + 4 <= w.rows; r += 4) Rows4(w, r, xp, sx, y + r);
  for (; r < w.rows; ++r) y[r] = Row1(w, r, xp, sx);
  if (bias != nullptr) {
    for (r = 0; r < w.rows; ++r) y[r] += bias[r];
  }
}

// These kernels for MatMulInActivationGroups (q8_activation_groups-inl.h).
struct GroupKernels {
  using X = int8_t;
  static constexpr int kPadTo = kChunk;
  static constexpr int kTileX = 4;
  static float PrepareRow(const float* x, int cols, int8_t* xp) { return PrepareX(x, cols, xp); }
  static void TileRows(const WeightView& w, int r, const int8_t* const xp[4], const float sx[4],
                       float* const y[4]) {
    Tile4x4(w, r, xp, sx, y);
  }
  static void FourRows(const WeightView& w, int r, const int8_t* xp, float sx, float* y) {
    Rows4(w, r, xp, sx, y);
  }
  static float OneRow(const WeightView& w, int r, const int8_t* xp, float sx) {
    return Row1(w, r, xp, sx);
  }
};

#define KD_GROUP_TARGET KD_TARGET
#include "model/kernels/q8_activation_groups-inl.h"
#undef KD_GROUP_TARGET

KD_TARGET void MatMulImpl(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  MatMulInActivationGroups<GroupKernels>(w, x, n, bias, y);
}

#undef KD_INLINE
#undef KD_TARGET
#undef KD_ARM_TARGET

}  // namespace

void MatVecQ8(const WeightView& w, const float* x, const float* bias, float* y) {
  MatVecImpl(w, x, bias, y);
}
void MatMulQ8(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  MatMulImpl(w, x, n, bias, y);
}

}  // namespace keydecide::kernels::dotprod
