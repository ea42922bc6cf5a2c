// Helpers shared by the Arm int8 kernels (matmul_q8_arm.h): chunk loads, activation
// preparation and the scaled store. Hand-written NEON, not Highway: Highway 1.0.3 has
// neither sdot nor smmla, and these loops are most of a keystroke.
//
// The including file defines KD_ARM_TARGET (the target attribute string: GCC 12 wants
// "arch=armv8.2-a+dotprod" spelled out, "+dotprod" alone fails to inline arm_neon.h's
// vdotq_s32) and includes this header inside an anonymous namespace, so each copy has
// internal linkage and its own target flags. It has included <arm_neon.h>, <cstdint>,
// <cstring> and kernels.h before, uses KD_TARGET / KD_INLINE (defined here) for its own
// kernels and #undefs them at its end.

#define KD_TARGET __attribute__((target(KD_ARM_TARGET)))
#define KD_INLINE KD_TARGET inline __attribute__((always_inline))

constexpr int kChunk = 16;  // bytes of one row multiplied per step (one 128-bit register)

// Bytes of an activation row padded to whole chunks.
KD_INLINE int Padded(int cols) { return (cols + kChunk - 1) / kChunk * kChunk; }

KD_INLINE int8x16_t LoadChunk(const int8_t* p) { return vld1q_s8(p); }

// Rows are read in whole chunks; the part of a row past its last whole chunk is copied into
// a zeroed chunk, so no load reads past the row (the last row of a mapped file is safe).
KD_INLINE int8x16_t LoadTail(const int8_t* p, int n) {
  alignas(16) int8_t tail[kChunk] = {};
  std::memcpy(tail, p, static_cast<size_t>(n));
  return vld1q_s8(tail);
}

// y[0..4) = dots * sx * scales[r..r+4) (the reference's rounding: float(dot) * (sx * scale)).
KD_INLINE void Store4(int32x4_t dots, const WeightView& w, int r, float sx, float* y) {
  const float32x4_t scale = vmulq_n_f32(vld1q_f32(w.scales + r), sx);
  vst1q_f32(y, vmulq_f32(vcvtq_f32_s32(dots), scale));
}

// Quantizes x into xp (int8, signed as the reference makes it), zero-padded to whole chunks:
// the padding multiplies the zeroed tail of a weight chunk and adds nothing.
KD_TARGET float PrepareX(const float* x, int cols, int8_t* xp) {
  const float sx = QuantizeActivations(x, cols, xp);
  std::memset(xp + cols, 0, static_cast<size_t>(Padded(cols) - cols));
  return sx;
}
