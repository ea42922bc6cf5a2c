#include "model/kernels/weight_view.h"

#include <algorithm>
#include <cmath>

namespace keydecide::kernels {

float QuantizeRowQ8(const float* w, int cols, int8_t* q) {
  float amax = 0;
  for (int c = 0; c < cols; ++c) amax = std::max(amax, std::fabs(w[c]));
  const float scale = amax / 127.0f;
  const float inv = amax > 0 ? 127.0f / amax : 0.0f;
  for (int c = 0; c < cols; ++c) {
    q[c] = static_cast<int8_t>(std::clamp(std::nearbyint(w[c] * inv), -127.0f, 127.0f));
  }
  return scale;
}

int Q4Column(int cols, int byte, bool high) {
  const int block_start = (byte * 2 / kQ4Block) * kQ4Block;
  const int block = std::min(kQ4Block, cols - block_start);
  const int j = byte - block_start / 2;
  return block_start + j + (high ? block / 2 : 0);
}

void QuantizeRowQ4(const float* w, int cols, int group, float* scales, uint8_t* packed) {
  int8_t nibble_of_col[kQ4Block];
  for (int g = 0; g < cols / group; ++g) {
    const float* x = w + g * group;
    float m = 0;
    for (int c = 0; c < group; ++c) {
      if (std::fabs(x[c]) > std::fabs(m)) m = x[c];
    }
    scales[g] = m / -8.0f;
  }
  for (int block_start = 0; block_start < cols; block_start += kQ4Block) {
    const int block = std::min(kQ4Block, cols - block_start);
    for (int c = 0; c < block; ++c) {
      const int col = block_start + c;
      const float scale = scales[col / group];
      const float inv = scale != 0 ? 1.0f / scale : 0.0f;
      nibble_of_col[c] =
          static_cast<int8_t>(std::clamp(std::nearbyint(w[col] * inv) + 8.0f, 0.0f, 15.0f));
    }
    for (int j = 0; j < block / 2; ++j) {
      packed[block_start / 2 + j] =
          static_cast<uint8_t>(nibble_of_col[j] | (nibble_of_col[j + block / 2] << 4));
    }
  }
}

}  // namespace keydecide::kernels
