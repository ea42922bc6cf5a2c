// WeightView: a [rows, cols] weight matrix (one row per output, row-major) in one of the
// storage formats the kernels read. A view only: the bytes belong to the mapped model
// file or to the Transformer. The formats are persisted in model files (docs/MODEL.md,
// "Quantized files"): enum values and layouts must not change.

#ifndef KEYDECIDE_MODEL_KERNELS_WEIGHT_VIEW_H_
#define KEYDECIDE_MODEL_KERNELS_WEIGHT_VIEW_H_

#include <cstddef>
#include <cstdint>

namespace keydecide::kernels {

enum class WeightFormat : uint8_t {
  kF32 = 0,  // float [rows, cols]
  // int8 [rows, cols] and one float scale per row: W[r][c] = q[r][c] * scale[r].
  kQ8 = 1,
  // 4-bit, one float scale per `group` columns of a row (group 32 or 64; cols % 32 == 0):
  // W[r][c] = (nibble - 8) * scale[r][c / group]. A row is packed in blocks of 128 columns
  // (the last block may have fewer, a multiple of 32): byte j of a block of B columns holds
  // column j in its low nibble and column j + B/2 in its high one, so one 64-byte load
  // unpacks to two runs of 64 consecutive columns. Bytes per row: cols / 2.
  kQ4 = 2,
};

inline constexpr int kQ4Block = 128;

struct WeightView {
  WeightFormat format = WeightFormat::kF32;
  int rows = 0;
  int cols = 0;
  int group = 0;                  // kQ4 only
  const float* f32 = nullptr;     // kF32
  const int8_t* q8 = nullptr;     // kQ8
  const uint8_t* q4 = nullptr;    // kQ4
  const float* scales = nullptr;  // kQ8: [rows]; kQ4: [rows, cols / group]
  // kQ8 only, a speed-up: the sum of each row's int8 values, which the VNNI kernel needs
  // to undo its unsigned-activation offset. Null: the VNNI path is not used.
  const int32_t* row_sums = nullptr;

  int scales_per_row() const {
    return format == WeightFormat::kQ4 ? cols / group : format == WeightFormat::kQ8 ? 1 : 0;
  }
  size_t bytes_per_row() const {
    switch (format) {
      case WeightFormat::kF32:
        return static_cast<size_t>(cols) * 4;
      case WeightFormat::kQ8:
        return static_cast<size_t>(cols);
      case WeightFormat::kQ4:
        return static_cast<size_t>(cols) / 2;
    }
    return 0;
  }
};

// Rows [first, first + count) of w as a matrix of their own.
inline WeightView SliceRows(WeightView w, int first, int count) {
  const size_t r = static_cast<size_t>(first);
  if (w.f32) w.f32 += r * w.cols;
  if (w.q8) w.q8 += r * w.cols;
  if (w.q4) w.q4 += r * w.bytes_per_row();
  if (w.scales) w.scales += r * w.scales_per_row();
  if (w.row_sums) w.row_sums += r;
  w.rows = count;
  return w;
}

// --- Quantizing one row (used by `keydecide quantize`; defines the formats' rounding) ---
// Symmetric per-row int8: scale = max|w| / 127, q = round(w / scale). Returns the scale.
float QuantizeRowQ8(const float* w, int cols, int8_t* q);
// Group-wise 4-bit in the kQ4 layout: per group the value of largest magnitude m maps to
// -8 (scale = m / -8) so the full range is used; nibble = clamp(round(w / scale) + 8, 0, 15).
// scales gets cols / group floats, packed gets cols / 2 bytes. REQUIRES: cols % 32 == 0,
// group 32 or 64, cols % group == 0.
void QuantizeRowQ4(const float* w, int cols, int group, float* scales, uint8_t* packed);
// The column index held by nibble `high` of byte `byte` of a kQ4 row.
int Q4Column(int cols, int byte, bool high);

}  // namespace keydecide::kernels

#endif  // KEYDECIDE_MODEL_KERNELS_WEIGHT_VIEW_H_
