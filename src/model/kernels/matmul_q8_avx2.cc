// The 256-bit int8 kernels with AVX2's byte products (matmul_q8_x86.h says why they are exact).

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "model/kernels/kernels.h"
#include "model/kernels/matmul_q8_x86.h"

namespace keydecide::kernels::avx2 {
namespace {

#define KD_X86_TARGET "avx2,fma"

struct Product {
  static constexpr bool kOffsetX = false;
  // acc += w . x per group of four bytes: |w| (unsigned) times x with w's sign, in int16
  // pairs (vpmaddubsw), then the pairs added into int32 (vpmaddwd by ones).
  __attribute__((target(KD_X86_TARGET), always_inline)) static inline __m256i Mul(__m256i acc,
                                                                                  __m256i x,
                                                                                  __m256i w) {
    const __m256i pairs = _mm256_maddubs_epi16(_mm256_abs_epi8(w), _mm256_sign_epi8(x, w));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
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

}  // namespace keydecide::kernels::avx2
