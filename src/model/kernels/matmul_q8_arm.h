// The int8 matrix kernels of 64-bit Arm (q8_neon-inl.h), which the Highway NEON and SVE
// targets of matmul_q8.cc hand their int8 work to. Same contract as MatVecQ8 / MatMulQ8
// (matmul_formats.h). AArch64 only; the CPU features are checked at run time (targets.h:
// CpuArmInt8), each file is compiled for its extension with function target attributes.
//
// Both multiply signed by signed bytes, so unlike x86's vpdpbusd no offset is needed (and
// row_sums is not read): the int32 dots are exact for any int8 weights and activations.

#ifndef KEYDECIDE_MODEL_KERNELS_MATMUL_Q8_ARM_H_
#define KEYDECIDE_MODEL_KERNELS_MATMUL_Q8_ARM_H_

#include "model/kernels/weight_view.h"

namespace keydecide::kernels {

// FEAT_DotProd (Apple M1 and later, Cortex-A55/A76 and later): sdot, four byte products
// summed into each int32 lane of a 128-bit register, on 4 weight rows per activation chunk
// (MatVec) and 4 x 4 tiles (MatMul). REQUIRES: a CPU with dotprod.
namespace dotprod {
void MatVecQ8(const WeightView& w, const float* x, const float* bias, float* y);
void MatMulQ8(const WeightView& w, const float* x, int n, const float* bias, float* y);
}  // namespace dotprod

// FEAT_I8MM (Apple M2 and later, Armv8.6 cores): smmla, a 2 x 8 by 8 x 2 int8 matrix
// product into 2 x 2 int32, twice sdot's products per instruction, which pays when two
// activation rows share the weights: MatMul only (a matrix-vector product has one row, so
// the dotprod kernel serves it). REQUIRES: a CPU with i8mm and dotprod.
namespace i8mm {
void MatMulQ8(const WeightView& w, const float* x, int n, const float* bias, float* y);
}  // namespace i8mm

}  // namespace keydecide::kernels

#endif  // KEYDECIDE_MODEL_KERNELS_MATMUL_Q8_ARM_H_
