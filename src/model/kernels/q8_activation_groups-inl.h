// The int8 matrix product's loop over activation groups, shared by every CPU family's
// kernels (the AVX-512 VNNI kernel in matmul_q8.cc, the 256-bit x86 ones in
// q8_x86_256-inl.h, Arm's sdot ones in matmul_q8_dotprod.cc).
//
// Weight rows outer, activation rows inner: a block of 4 weight rows is read from memory once
// and then served from L1 to every activation row of the group, instead of the whole matrix
// streaming past once per tile of activation rows.
//
// Included, like the kernels' other -inl headers, inside each family's namespace after it
// defines KD_GROUP_TARGET, the attributes of its kernels (their instruction set): the loop is
// compiled for that set, so the kernels it calls inline into it (called from a loop compiled
// for the baseline, they could not: a call per tile cost 8% of a 256-column product). No
// include guard, for that reason. The includer has included <cstddef>, <cstdint> and
// weight_view.h.

// Kernels provides (members compiled for the same instruction set, or for none):
//   using X = int8_t or uint8_t;  // a prepared activation byte
//   static constexpr int kPadTo;  // prepared rows are padded to a multiple of this many bytes
//   static constexpr int kTileX;  // activation rows per TileRows
//   static float PrepareRow(const float* x, int cols, X* xp);  // quantize and pad; the scale
//   static void TileRows(const WeightView&, int r, const X* const xp[kTileX],
//                        const float sx[kTileX], float* const y[kTileX]);  // y[t][r..r+4)
//   static void FourRows(const WeightView&, int r, const X* xp, float sx, float* y);  // y[0..4)
//   static float OneRow(const WeightView&, int r, const X* xp, float sx);
// y [n, w.rows] = x [n, w.cols] times the rows of w, plus bias (may be null).
// REQUIRES: w.cols <= kMaxCols.
template <class Kernels>
KD_GROUP_TARGET void MatMulInActivationGroups(const WeightView& w, const float* x, int n,
                                              const float* bias, float* y) {
  using X = typename Kernels::X;
  constexpr int kTileX = Kernels::kTileX;
  constexpr int kScratchBytes = 64 * 1024;  // quantized activations of one group, on the stack
  constexpr int kMaxGroup = 256;
  alignas(64) X scratch[kScratchBytes];
  const int padded = (w.cols + Kernels::kPadTo - 1) / Kernels::kPadTo * Kernels::kPadTo;
  int group = kScratchBytes / padded / 4 * 4;  // >= 16 rows (cols <= kMaxCols)
  if (group > kMaxGroup) group = kMaxGroup;
  float sx[kMaxGroup];
  for (int t0 = 0; t0 < n; t0 += group) {
    const int rows_x = n - t0 < group ? n - t0 : group;
    for (int i = 0; i < rows_x; ++i) {
      sx[i] = Kernels::PrepareRow(x + static_cast<size_t>(t0 + i) * w.cols, w.cols,
                                  scratch + static_cast<size_t>(i) * padded);
    }
    auto xrow = [&](int i) -> const X* { return scratch + static_cast<size_t>(i) * padded; };
    auto yrow = [&](int i) { return y + static_cast<size_t>(t0 + i) * w.rows; };
    const int tiled = rows_x / kTileX * kTileX;
    int r = 0;
    for (; r + 4 <= w.rows; r += 4) {
      for (int i = 0; i < tiled; i += kTileX) {
        const X* xs[kTileX];
        float* ys[kTileX];
        for (int t = 0; t < kTileX; ++t) xs[t] = xrow(i + t), ys[t] = yrow(i + t);
        Kernels::TileRows(w, r, xs, sx + i, ys);
      }
      for (int i = tiled; i < rows_x; ++i) Kernels::FourRows(w, r, xrow(i), sx[i], yrow(i) + r);
    }
    for (; r < w.rows; ++r) {
      for (int i = 0; i < rows_x; ++i) yrow(i)[r] = Kernels::OneRow(w, r, xrow(i), sx[i]);
    }
    if (bias != nullptr) {
      for (int i = 0; i < rows_x; ++i) {
        for (r = 0; r < w.rows; ++r) yrow(i)[r] += bias[r];
      }
    }
  }
}
