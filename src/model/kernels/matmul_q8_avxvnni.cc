// The 256-bit int8 kernels with AVX-VNNI's four-way byte dot (vpdpbusd, VEX encoded).

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "model/kernels/kernels.h"
#include "model/kernels/matmul_q8_x86.h"

namespace keydecide::kernels::avxvnni {
namespace {

#define KD_X86_TARGET "avx2,fma,avxvnni"

struct Product {
  static constexpr bool kOffsetX = true;  // vpdpbusd multiplies unsigned x by signed w
  __attribute__((target(KD_X86_TARGET), always_inline)) static inline __m256i Mul(__m256i acc,
                                                                                  __m256i x,
                                                                                  __m256i w) {
    return _mm256_dpbusd_avx_epi32(acc, x, w);
  }
};

#include "model/kernels/q8_x86_256-inl.h"

#undef KD_X86_TARGET

}  // namespace

void MatVecQ8(const WeightView& w, const float* x, const float* bias, float* y) {
  MatVecQ8Impl<Product>(w, x, bias, y);
}
void MatMulQ8(const WeightView& w, const float* x, int n, const float* bias, float* y) {
  MatMulQ8Impl<Product>(w, x, n, bias, y);
}

}  // namespace keydecide::kernels::avxvnni
