#include "model/weight_matrix.h"

#include <cstring>

namespace keydecide {

using kernels::WeightFormat;

WeightMatrix WeightMatrix::FromF32(std::vector<float> w, int rows, int cols) {
  WeightMatrix m;
  m.f32_ = std::move(w);
  m.view_.format = WeightFormat::kF32;
  m.view_.rows = rows;
  m.view_.cols = cols;
  m.view_.f32 = m.f32_.data();
  return m;
}

WeightMatrix WeightMatrix::Quantize(const float* w, int rows, int cols, WeightFormat format,
                                    int group) {
  if (format == WeightFormat::kF32) {
    return FromF32(std::vector<float>(w, w + static_cast<size_t>(rows) * cols), rows, cols);
  }
  WeightMatrix m;
  m.view_.format = format;
  m.view_.rows = rows;
  m.view_.cols = cols;
  if (format == WeightFormat::kQ8) {
    m.q8_.resize(static_cast<size_t>(rows) * cols);
    m.scales_.resize(rows);
    for (int r = 0; r < rows; ++r) {
      m.scales_[r] = kernels::QuantizeRowQ8(w + static_cast<size_t>(r) * cols, cols,
                                            &m.q8_[static_cast<size_t>(r) * cols]);
    }
    m.view_.q8 = m.q8_.data();
    m.ComputeRowSums();
  } else {
    m.view_.group = group;
    const size_t bytes = m.view_.bytes_per_row(), per_row = m.view_.scales_per_row();
    m.q4_.resize(rows * bytes);
    m.scales_.resize(rows * per_row);
    for (int r = 0; r < rows; ++r) {
      kernels::QuantizeRowQ4(w + static_cast<size_t>(r) * cols, cols, group,
                             &m.scales_[r * per_row], &m.q4_[r * bytes]);
    }
    m.view_.q4 = m.q4_.data();
  }
  m.view_.scales = m.scales_.data();
  return m;
}

WeightMatrix WeightMatrix::View(WeightFormat format, int rows, int cols, int group,
                                const void* data, const void* scales) {
  WeightMatrix m;
  m.view_.format = format;
  m.view_.rows = rows;
  m.view_.cols = cols;
  m.view_.group = format == WeightFormat::kQ4 ? group : 0;
  // Scales are copied: few, and a file need not align them for float loads.
  m.scales_.resize(static_cast<size_t>(rows) * m.view_.scales_per_row());
  std::memcpy(m.scales_.data(), scales, m.scales_.size() * sizeof(float));
  m.view_.scales = m.scales_.data();
  if (format == WeightFormat::kQ8) {
    m.view_.q8 = static_cast<const int8_t*>(data);
    m.ComputeRowSums();
  } else {
    m.view_.q4 = static_cast<const uint8_t*>(data);
  }
  return m;
}

void WeightMatrix::ComputeRowSums() {
  row_sums_.assign(view_.rows, 0);
  for (int r = 0; r < view_.rows; ++r) {
    const int8_t* row = view_.q8 + static_cast<size_t>(r) * view_.cols;
    for (int c = 0; c < view_.cols; ++c) row_sums_[r] += row[c];
  }
  view_.row_sums = row_sums_.data();
}

}  // namespace keydecide
