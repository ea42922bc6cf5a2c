// Kernels: the model's inner loops, each a pointer-plus-count function with a plain scalar
// reference (namespace ref) beside the SIMD version. The SIMD versions are written once
// with Google Highway and compiled for every target of this architecture (AVX-512 VNNI,
// AVX-512, AVX2, SSE4, NEON, SVE, and a portable scalar one); the best one the CPU
// supports is chosen at run time, or the one named by KEYDECIDE_SIMD (see targets.h).
//
// No kernel allocates, locks or makes a system call: scratch space for quantized
// activations lives on the stack (kMaxCols bounds it).

#ifndef KEYDECIDE_MODEL_KERNELS_KERNELS_H_
#define KEYDECIDE_MODEL_KERNELS_KERNELS_H_

#include <cstdint>
#include <span>

#include "model/kernels/weight_view.h"

namespace keydecide::kernels {

// Largest inner dimension a matrix kernel accepts (the stack scratch for one quantized
// activation row is this many bytes).
inline constexpr int kMaxCols = 4096;

// --- Matrix kernels (any WeightFormat) ---
// y[r] = bias[r] + W[r] . x for r < w.rows. bias may be null. REQUIRES: w.cols <= kMaxCols.
// Quantized formats quantize x to int8 on the fly (one scale for the row, symmetric).
void MatVec(const WeightView& w, const float* x, const float* bias, float* y);
// The same for n rows of x [n, w.cols] into y [n, w.rows].
void MatMul(const WeightView& w, const float* x, int n, const float* bias, float* y);
// out[i] = W[rows[i]] . x: the logits of chosen rows only (candidate words). x stays fp32
// (the weights are widened): candidates are ranked by these, and a few rows cost little.
// REQUIRES: 0 <= rows[i] < w.rows.
void RowDots(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out);
// out[c] = W[row][c] as float (embedding lookup).
void DequantizeRow(const WeightView& w, int row, float* out);

// --- Vector kernels (fp32) ---
// int8 quantization of x as ref::QuantizeActivations (same results).
float QuantizeActivations(const float* x, int n, int8_t* q);
float Dot(const float* a, const float* b, int n);
// x[i] += y[i].
void AddTo(const float* y, int n, float* x);
// y = (x - mean) / sqrt(var + eps) * gamma + beta.
void LayerNorm(const float* x, const float* gamma, const float* beta, int n, float eps, float* y);
// x = x * Phi(x) (exact GELU: erf form, polynomial erf with |error| < 2e-7).
void Gelu(int n, float* x);
// x = softmax(x).
void Softmax(int n, float* x);
// Causal attention of one query head over n cached positions: keys and values of position
// j start at k + j * stride and v + j * stride (head_dim floats each).
// out[head_dim] = sum_j softmax_j(q . k_j * scale) v_j. scores has room for n floats.
void AttendHead(const float* q, const float* k, const float* v, int stride, int n, int head_dim,
                float scale, float* scores, float* out);

// Plain loops: the definition of each kernel above, used by the tests (and readable).
namespace ref {
void MatVec(const WeightView& w, const float* x, const float* bias, float* y);
void RowDots(const WeightView& w, std::span<const int32_t> rows, const float* x, float* out);
void DequantizeRow(const WeightView& w, int row, float* out);
float Dot(const float* a, const float* b, int n);
void LayerNorm(const float* x, const float* gamma, const float* beta, int n, float eps, float* y);
void Gelu(int n, float* x);
void Softmax(int n, float* x);
void AttendHead(const float* q, const float* k, const float* v, int stride, int n, int head_dim,
                float scale, float* scores, float* out);
// int8 activation quantization shared by the quantized formats: q[i] = round(x[i] * 127 /
// max|x|) (ties to even); returns the scale max|x| / 127 (0 for an all-zero x).
float QuantizeActivations(const float* x, int n, int8_t* q);
}  // namespace ref

}  // namespace keydecide::kernels

#endif  // KEYDECIDE_MODEL_KERNELS_KERNELS_H_
