// The int8 matrix kernels on 256-bit x86 registers, written once over the product of one
// 32-byte chunk (the `Product` policy) and compiled twice: with AVX2's maddubs/madd sequence
// (matmul_q8_avx2.cc) and with AVX-VNNI's vpdpbusd (matmul_q8_avxvnni.cc). Hand-written, not
// Highway: Highway 1.0.3 has neither instruction, and these loops are most of a keystroke.
//
// The including file defines KD_X86_TARGET (the target attribute string) and a Product
// struct, then includes this header inside an anonymous namespace, so each copy has internal
// linkage and its own target flags (no inline function compiled for one ISA can be picked
// by the linker for the other). The including file has included <immintrin.h>, <cstdint>,
// <cstring> and kernels.h before.
//
// Product must provide:
//   static constexpr bool kOffsetX;  // x is stored as x + 128 (unsigned); the kernels then
//                                    // subtract 128 * row_sums[r] from each dot
//   static __m256i Mul(__m256i acc, __m256i x, __m256i w);  // acc += 8 int32 partial dots

#define KD_TARGET __attribute__((target(KD_X86_TARGET)))
#define KD_INLINE KD_TARGET inline __attribute__((always_inline))

constexpr int kChunk = 32;  // bytes of one row multiplied per step

// Rows are read in whole chunks; the part of a row past its last whole chunk is copied into
// a zeroed chunk, so no load reads past the row (the last row of a mapped file is safe).
KD_INLINE __m256i LoadTail(const int8_t* p, int n) {
  alignas(32) int8_t tail[kChunk] = {};
  std::memcpy(tail, p, static_cast<size_t>(n));
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(tail));
}

KD_INLINE __m256i LoadChunk(const int8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

KD_INLINE __m256i LoadX(const int8_t* x) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(x));
}

// The four sums of a, b, c, d (8 int32 lanes each) as [a b c d]: interleave-and-add rounds
// instead of four full horizontal sums.
KD_INLINE __m128i Sum4(__m256i a, __m256i b, __m256i c, __m256i d) {
  const __m256i ab = _mm256_add_epi32(_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b));
  const __m256i cd = _mm256_add_epi32(_mm256_unpacklo_epi32(c, d), _mm256_unpackhi_epi32(c, d));
  const __m256i abcd =
      _mm256_add_epi32(_mm256_unpacklo_epi64(ab, cd), _mm256_unpackhi_epi64(ab, cd));
  return _mm_add_epi32(_mm256_castsi256_si128(abcd), _mm256_extracti128_si256(abcd, 1));
}

KD_INLINE int32_t Sum1(__m256i a) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(s);
}

// [4] int32 dots -> y[0..4) = (dots - offset) * sx * scales.
template <class Product>
KD_INLINE void Store4(__m128i dots, const WeightView& w, int r, float sx, float* y) {
  if constexpr (Product::kOffsetX) {
    const __m128i sums = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w.row_sums + r));
    dots = _mm_sub_epi32(dots, _mm_slli_epi32(sums, 7));
  }
  const __m128 scale = _mm_mul_ps(_mm_loadu_ps(w.scales + r), _mm_set1_ps(sx));
  _mm_storeu_ps(y, _mm_mul_ps(_mm_cvtepi32_ps(dots), scale));
}

// y[r..r+4) for one prepared activation row xp (zero-padded to whole chunks).
template <class Product>
KD_TARGET void Rows4(const WeightView& w, int r, const int8_t* xp, float sx, float* y) {
  const int cols = w.cols, full = cols / kChunk, rest = cols % kChunk;
  const int8_t* p = w.q8 + static_cast<size_t>(r) * cols;
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
  for (int k = 0; k < full; ++k) {
    const int o = kChunk * k;
    const __m256i vx = LoadX(xp + o);
    a0 = Product::Mul(a0, vx, LoadChunk(p + o));
    a1 = Product::Mul(a1, vx, LoadChunk(p + cols + o));
    a2 = Product::Mul(a2, vx, LoadChunk(p + 2 * cols + o));
    a3 = Product::Mul(a3, vx, LoadChunk(p + 3 * cols + o));
    // The weights stream from L2/L3: ask for the block of rows 16 ahead meanwhile.
    for (int i = 0; i < 4; ++i) {
      _mm_prefetch(reinterpret_cast<const char*>(p + (16 + i) * cols + o), _MM_HINT_T0);
    }
  }
  if (rest != 0) {
    const int o = kChunk * full;
    const __m256i vx = LoadX(xp + o);
    a0 = Product::Mul(a0, vx, LoadTail(p + o, rest));
    a1 = Product::Mul(a1, vx, LoadTail(p + cols + o, rest));
    a2 = Product::Mul(a2, vx, LoadTail(p + 2 * cols + o, rest));
    a3 = Product::Mul(a3, vx, LoadTail(p + 3 * cols + o, rest));
  }
  Store4<Product>(Sum4(a0, a1, a2, a3), w, r, sx, y);
}

template <class Product>
KD_TARGET float Row1(const WeightView& w, int r, const int8_t* xp, float sx) {
  const int cols = w.cols, full = cols / kChunk, rest = cols % kChunk;
  const int8_t* p = w.q8 + static_cast<size_t>(r) * cols;
  __m256i a = _mm256_setzero_si256();
  for (int k = 0; k < full; ++k) {
    a = Product::Mul(a, LoadX(xp + kChunk * k), LoadChunk(p + kChunk * k));
  }
  if (rest != 0) {
    a = Product::Mul(a, LoadX(xp + kChunk * full), LoadTail(p + kChunk * full, rest));
  }
  int32_t dot = Sum1(a);
  if constexpr (Product::kOffsetX) dot -= 128 * w.row_sums[r];
  return static_cast<float>(dot) * (sx * w.scales[r]);
}

// Activation rows per tile: 4 weight rows x 2 activation rows keep 8 accumulators, 4 weight
// chunks and the activation chunk in AVX2's 16 registers (a 4 x 4 tile, as the AVX-512
// kernel's 32 registers hold, spilled to the stack and ran at half speed).
constexpr int kTileRows = 2;

// acc[t][i] += xp[t] . row i over one chunk: each weight chunk loaded once serves every
// activation row of the tile.
template <class Product>
KD_INLINE void TileChunk(const __m256i wv[4], const int8_t* const xp[kTileRows], int o,
                         __m256i (*acc)[4]) {
  for (int t = 0; t < kTileRows; ++t) {
    const __m256i vx = LoadX(xp[t] + o);
    for (int i = 0; i < 4; ++i) acc[t][i] = Product::Mul(acc[t][i], vx, wv[i]);
  }
}

// y[t][r..r+4) for the kTileRows activation rows xp[t].
template <class Product>
KD_TARGET void Tile(const WeightView& w, int r, const int8_t* const xp[kTileRows],
                    const float sx[kTileRows], float* const y[kTileRows]) {
  const int cols = w.cols, full = cols / kChunk, rest = cols % kChunk;
  const int8_t* p = w.q8 + static_cast<size_t>(r) * cols;
  __m256i acc[kTileRows][4];
  for (auto& row : acc) {
    for (__m256i& a : row) a = _mm256_setzero_si256();
  }
  for (int k = 0; k < full; ++k) {
    const int o = kChunk * k;
    const __m256i wv[4] = {LoadChunk(p + o), LoadChunk(p + cols + o), LoadChunk(p + 2 * cols + o),
                           LoadChunk(p + 3 * cols + o)};
    TileChunk<Product>(wv, xp, o, acc);
  }
  if (rest != 0) {
    const int o = kChunk * full;
    const __m256i wv[4] = {LoadTail(p + o, rest), LoadTail(p + cols + o, rest),
                           LoadTail(p + 2 * cols + o, rest), LoadTail(p + 3 * cols + o, rest)};
    TileChunk<Product>(wv, xp, o, acc);
  }
  for (int t = 0; t < kTileRows; ++t) {
    Store4<Product>(Sum4(acc[t][0], acc[t][1], acc[t][2], acc[t][3]), w, r, sx[t], y[t] + r);
  }
}

// Quantizes x into xp as the Product wants it (offset or not), zero-padded to whole chunks.
template <class Product>
KD_TARGET float PrepareX(const float* x, int cols, int8_t* xp) {
  const float sx = QuantizeActivations(x, cols, xp);
  const int padded = (cols + kChunk - 1) / kChunk * kChunk;
  if constexpr (Product::kOffsetX) {
    for (int c = 0; c < cols; ++c) xp[c] = static_cast<int8_t>(static_cast<uint8_t>(xp[c]) ^ 0x80);
  }
  std::memset(xp + cols, 0, static_cast<size_t>(padded - cols));  // 0 adds nothing either way
  return sx;
}

template <class Product>
KD_TARGET void MatVecQ8Impl(const WeightView& w, const float* x, const float* bias, float* y) {
  alignas(32) int8_t xp[kMaxCols];
  const float sx = PrepareX<Product>(x, w.cols, xp);
  int r = 0;
  for (; r + 4 <= w.rows; r += 4) Rows4<Product>(w, r, xp, sx, y + r);
  for (; r < w.rows; ++r) y[r] = Row1<Product>(w, r, xp, sx);
  if (bias != nullptr) {
    for (r = 0; r < w.rows; ++r) y[r] += bias[r];
  }
}

// These kernels for MatMulInActivationGroups (q8_activation_groups-inl.h).
template <class Product>
struct GroupKernels {
  using X = int8_t;
  static constexpr int kPadTo = kChunk;
  static constexpr int kTileX = kTileRows;
  static float PrepareRow(const float* x, int cols, int8_t* xp) {
    return PrepareX<Product>(x, cols, xp);
  }
  static void TileRows(const WeightView& w, int r, const int8_t* const xp[kTileX],
                       const float sx[kTileX], float* const y[kTileX]) {
    Tile<Product>(w, r, xp, sx, y);
  }
  static void FourRows(const WeightView& w, int r, const int8_t* xp, float sx, float* y) {
    Rows4<Product>(w, r, xp, sx, y);
  }
  static float OneRow(const WeightView& w, int r, const int8_t* xp, float sx) {
    return Row1<Product>(w, r, xp, sx);
  }
};

#define KD_GROUP_TARGET KD_TARGET
#include "model/kernels/q8_activation_groups-inl.h"
#undef KD_GROUP_TARGET

template <class Product>
KD_TARGET void MatMulQ8Impl(const WeightView& w, const float* x, int n, const float* bias,
                            float* y) {
  MatMulInActivationGroups<GroupKernels<Product>>(w, x, n, bias, y);
}

#undef KD_INLINE
#undef KD_TARGET
