// The int8 matrix kernels of the 256-bit x86 families (q8_x86_256-inl.h), which the Highway
// AVX2 and AVX-512 targets of matmul_q8.cc hand their int8 work to. Same contract as
// MatVecQ8 / MatMulQ8 (matmul_formats.h). x86-64 only.

#ifndef KEYDECIDE_MODEL_KERNELS_MATMUL_Q8_X86_H_
#define KEYDECIDE_MODEL_KERNELS_MATMUL_Q8_X86_H_

#include "model/kernels/weight_view.h"

namespace keydecide::kernels {

// AVX2: unsigned x signed byte products (vpmaddubsw) added in pairs (vpmaddwd). Exact for
// every int8 weight and for activations in [-127, 127] (what QuantizeActivations makes): the
// weight's magnitude (at most 128) is the unsigned side and its sign moves to the activation,
// so a pair of products is at most 2 * 128 * 127 = 32512 and the int16 step never saturates.
namespace avx2 {
void MatVecQ8(const WeightView& w, const float* x, const float* bias, float* y);
void MatMulQ8(const WeightView& w, const float* x, int n, const float* bias, float* y);
}  // namespace avx2

// AVX-VNNI (Intel since Alder Lake, AMD Zen 5): vpdpbusd on 256-bit registers, four byte
// products per int32 lane. x is offset to x + 128 (unsigned) and 128 * row_sums is taken
// off afterwards. REQUIRES: w.row_sums, and a CPU with AVX-VNNI (CpuHasAvxVnni()).
namespace avxvnni {
void MatVecQ8(const WeightView& w, const float* x, const float* bias, float* y);
void MatMulQ8(const WeightView& w, const float* x, int n, const float* bias, float* y);
}  // namespace avxvnni

}  // namespace keydecide::kernels

#endif  // KEYDECIDE_MODEL_KERNELS_MATMUL_Q8_X86_H_
