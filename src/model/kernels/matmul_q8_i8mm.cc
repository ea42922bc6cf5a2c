// The int8 matrix product with Arm's int8 matrix multiply (smmla, FEAT_I8MM): each
// vmmlaq_s32 multiplies a 2 x 8 block of bytes (two activation rows) by an 8 x 2 one (two
// weight rows) into the 2 x 2 int32 dots, 32 products per instruction against sdot's 16.
//
// Its left operand is two rows' 8-byte pieces in one register, so the activations of a
// group are stored in pairs interleaved by 8 bytes, once per call:
//   pair p: x[2p][0..8) x[2p+1][0..8) x[2p][8..16) x[2p+1][8..16) ...
// and one 16-byte load is an operand. The weights' layout is the file's: two chunks of two
// rows are zipped into the same form (two instructions per pair of rows and chunk, shared
// by every activation pair of the tile). An odd last activation row is paired with zeros.

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "model/kernels/kernels.h"
#include "model/kernels/matmul_q8_arm.h"

namespace keydecide::kernels::i8mm {
namespace {

#define KD_ARM_TARGET "arch=armv8.2-a+dotprod+i8mm"
#include "model/kernels/q8_neon-inl.h"

// Chunks a and b (16 bytes each) of two rows as smmla operands: [a0..8 b0..8], [a8..16 b8..16].
KD_INLINE void ZipRows(int8x16_t a, int8x16_t b, int8x16_t* lo, int8x16_t* hi) {
  const int64x2_t a64 = vreinterpretq_s64_s8(a), b64 = vreinterpretq_s64_s8(b);
  *lo = vreinterpretq_s8_s64(vzip1q_s64(a64, b64));
  *hi = vreinterpretq_s8_s64(vzip2q_s64(a64, b64));
}

// Two prepared activation rows (padded bytes each) into one interleaved pair.
KD_TARGET void InterleavePair(const int8_t* x0, const int8_t* x1, int padded, int8_t* out) {
  for (int o = 0; o < padded; o += kChunk) {
    int8x16_t lo, hi;
    ZipRows(vld1q_s8(x0 + o), vld1q_s8(x1 + o), &lo, &hi);
    vst1q_s8(out + 2 * o, lo);
    vst1q_s8(out + 2 * o + kChunk, hi);
  }
}

// acc[i][j] += (activation pair i) x (weight rows 2j, 2j+1)^T over one chunk at byte o of the
// rows; lanes [x0.w0, x0.w1, x1.w0, x1.w1]. The low and high halves of the chunk go to
// separate accumulators, so no smmla waits on the one before it.
template <int XP, int WP>
KD_INLINE void MmlaChunk(const int8_t* const xpair[XP], int o, const int8x16_t wlo[WP],
                         const int8x16_t whi[WP], int32x4_t (*lo)[WP], int32x4_t (*hi)[WP]) {
  for (int i = 0; i < XP; ++i) {
    const int8x16_t xlo = vld1q_s8(xpair[i] + 2 * o), xhi = vld1q_s8(xpair[i] + 2 * o + kChunk);
    for (int j = 0; j < WP; ++j) {
      lo[i][j] = vmmlaq_s32(lo[i][j], xlo, wlo[j]);
      hi[i][j] = vmmlaq_s32(hi[i][j], xhi, whi[j]);
    }
  }
}

// The dots of XP activation pairs with WP weight-row pairs (rows wr[2j], wr[2j+1]; the two
// may be one row, twice) over whole rows of `cols` bytes.
template <int XP, int WP>
KD_TARGET void Tile(const int8_t* const wr[2 * WP], int cols, const int8_t* const xpair[XP],
                    int32x4_t (*acc)[WP]) {
  const int full = cols / kChunk, rest = cols % kChunk;
  int32x4_t lo[XP][WP], hi[XP][WP];
  for (int i = 0; i < XP; ++i) {
    for (int j = 0; j < WP; ++j) lo[i][j] = hi[i][j] = vdupq_n_s32(0);
  }
  int8x16_t wlo[WP], whi[WP];
  for (int k = 0; k < full; ++k) {
    const int o = kChunk * k;
    for (int j = 0; j < WP; ++j) {
      ZipRows(LoadChunk(wr[2 * j] + o), LoadChunk(wr[2 * j + 1] + o), &wlo[j], &whi[j]);
    }
    MmlaChunk<XP, WP>(xpair, o, wlo, whi, lo, hi);
  }
  if (rest != 0) {
    const int o = kChunk * full;
    for (int j = 0; j < WP; ++j) {
      ZipRows(LoadTail(wr[2 * j] + o, rest), LoadTail(wr[2 * j + 1] + o, rest), &wlo[j], &whi[j]);
    }
    MmlaChunk<XP, WP>(xpair, o, wlo, whi, lo, hi);
  }
  for (int i = 0; i < XP; ++i) {
    for (int j = 0; j < WP; ++j) acc[i][j] = vaddq_s32(lo[i][j], hi[i][j]);
  }
}

// Scales a tile's dots into y: activation row 2i + h (h = 0, 1) of pair i goes to y[2i + h]
// (null: the zero row that pads an odd group), its dots with the weight rows r, r+1 (pair
// 0), r+2, r+3 (pair 1) are lanes 2h, 2h+1 of acc[i][0], acc[i][1]. `nw` of those weight
// rows are real (fewer than 2 * WP when the last one was paired with itself).
template <int XP, int WP>
KD_TARGET void StoreTile(const int32x4_t (*acc)[WP], const WeightView& w, int r, int nw,
                         const float* sx, float* const* y) {
  for (int i = 0; i < XP; ++i) {
    for (int h = 0; h < 2; ++h) {
      float* yt = y[2 * i + h];
      if (yt == nullptr) continue;
      if constexpr (WP == 2) {  // four weight rows: one vector store
        const int32x4_t dots =
            h == 0 ? vcombine_s32(vget_low_s32(acc[i][0]), vget_low_s32(acc[i][1]))
                   : vcombine_s32(vget_high_s32(acc[i][0]), vget_high_s32(acc[i][1]));
        Store4(dots, w, r, sx[2 * i + h], yt + r);
      } else {
        int32_t lanes[4];
        vst1q_s32(lanes, acc[i][0]);
        for (int m = 0; m < nw; ++m) {
          yt[r + m] = static_cast<float>(lanes[2 * h + m]) * (sx[2 * i + h] * w.scales[r + m]);
        }
      }
    }
  }
}

// Every activation pair of a group (pairs of them, 2 * padded bytes apart in xs; y[t] the
// output row of activation row t) against WP pairs of weight rows wr, nw of them real.
template <int WP>
KD_TARGET void AllPairs(const WeightView& w, int r, int nw, const int8_t* const wr[2 * WP],
                        const int8_t* xs, int padded, int pairs, const float* sx, float* const* y) {
  auto xpair = [&](int p) -> const int8_t* { return xs + static_cast<size_t>(p) * 2 * padded; };
  int p = 0;
  for (; p + 2 <= pairs; p += 2) {
    const int8_t* xp[2] = {xpair(p), xpair(p + 1)};
    int32x4_t acc[2][WP];
    Tile<2, WP>(wr, w.cols, xp, acc);
    StoreTile<2, WP>(acc, w, r, nw, sx + 2 * p, y + 2 * p);
  }
  if (p < pairs) {
    const int8_t* xp[1] = {xpair(p)};
    int32x4_t acc[1][WP];
    Tile<1, WP>(wr, w.cols, xp, acc);
    StoreTile<1, WP>(acc, w, r, nw, sx + 2 * p, y + 2 * p);
  }
}

// Weight rows outer, activation pairs inner (as the other kernels): a block of 4 weight
// rows is read from memory once and then served from L1 to every activation row of the
// group, in tiles of 4 x 4 (two pairs by two pairs: 8 smmla per chunk).
KD_TARGET void MatMulImpl(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  constexpr int kScratchBytes = 64 * 1024;  // quantized activations of one group, on the stack
  constexpr int kMaxGroup = 256;
  alignas(16) int8_t scratch[kScratchBytes];
  alignas(16) int8_t x0[kMaxCols], x1[kMaxCols];
  const int cols = w.cols, padded = Padded(cols);
  int group = kScratchBytes / padded / 4 * 4;  // >= 16 rows (cols <= kMaxCols), even
  if (group > kMaxGroup) group = kMaxGroup;
  float sx[kMaxGroup];
  float* ys[kMaxGroup];  // output row of each activation row of the group; null: padding
  for (int t0 = 0; t0 < n; t0 += group) {
    const int rows_x = n - t0 < group ? n - t0 : group, pairs = (rows_x + 1) / 2;
    for (int p = 0; p < pairs; ++p) {
      const int t = 2 * p;
      sx[t] = PrepareX(x + static_cast<size_t>(t0 + t) * cols, cols, x0);
      ys[t] = y + static_cast<size_t>(t0 + t) * w.rows;
      if (t + 1 < rows_x) {
        sx[t + 1] = PrepareX(x + static_cast<size_t>(t0 + t + 1) * cols, cols, x1);
        ys[t + 1] = ys[t] + w.rows;
      } else {
        sx[t + 1] = 0;
        ys[t + 1] = nullptr;
        std::memset(x1, 0, static_cast<size_t>(padded));
      }
      InterleavePair(x0, x1, padded, scratch + static_cast<size_t>(p) * 2 * padded);
    }
    auto wrow = [&](int r) { return w.q8 + static_cast<size_t>(r) * cols; };
    int r = 0;
    for (; r + 4 <= w.rows; r += 4) {
      const int8_t* wr[4] = {wrow(r), wrow(r + 1), wrow(r + 2), wrow(r + 3)};
      AllPairs<2>(w, r, 4, wr, scratch, padded, pairs, sx, ys);
    }
    if (r + 2 <= w.rows) {
      const int8_t* wr[2] = {wrow(r), wrow(r + 1)};
      AllPairs<1>(w, r, 2, wr, scratch, padded, pairs, sx, ys);
      r += 2;
    }
    if (r < w.rows) {
      const int8_t* wr[2] = {wrow(r), wrow(r)};  // one row, paired with itself
      AllPairs<1>(w, r, 1, wr, scratch, padded, pairs, sx, ys);
    }
    if (bias != nullptr) {
      for (int t = 0; t < rows_x; ++t) {
        for (r = 0; r < w.rows; ++r) ys[t][r] += bias[r];
      }
    }
  }
}

#undef KD_INLINE
#undef KD_TARGET
#undef KD_ARM_TARGET

}  // namespace

void MatMulQ8(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  MatMulImpl(w, x, n, bias, y);
}

}  // namespace keydecide::kernels::i8mm
