// Smooth L1 loss and its gradient on contiguous float32 arrays (SPEC sections 9 and 11). The SIMD
// kernels perform the same IEEE operations in the same order as the scalar formulas below, so both
// paths give the same bits.
#pragma once

#include <cmath>
#include <cstdint>

#include "acl/acl_base.h"
#include "core/isa.h"

namespace oa::kernels {

// d(loss)/dx for d = x - y: d / beta inside (-beta, beta), else sign(d) with sign(0) = 0 (so
// beta = 0 is the L1 gradient); NaN stays NaN.
inline float smooth_l1_grad(float d, float beta) {
  if (std::fabs(d) < beta) {
    return d / beta;
  }
  return d > 0.0f ? 1.0f : (d < 0.0f ? -1.0f : d);
}

// gradInput's element: grad(x - y) · gradOutput · scale, where a NaN factor is the product: grad's
// NaN if it is one, else gradOutput's. Left to the multiplication, the sign of the NaN would depend
// on the compiler (a product of two NaNs is either; -1 · x may become -x, which flips a NaN's
// sign), and the SIMD and scalar paths could differ in it.
inline float smooth_l1_grad_input(float x, float y, float grad_output, float beta, float scale) {
  const float grad = smooth_l1_grad(x - y, beta);
  const float product =
      std::isnan(grad) ? grad : (std::isnan(grad_output) ? grad_output : grad * grad_output);
  return product * scale;
}

// The loss term: 0.5 d² / beta inside (-beta, beta), else |d| - 0.5 beta. Inside, it is computed
// as (0.5 d) (d / beta): |d / beta| < 1, so no intermediate overflows (d² does for |d| > 1.8e19
// with a larger beta, and inf / inf would be NaN for beta = inf) or underflows (d² does for
// |d| < 1e-19 with a tiny beta, while the term itself is a normal number).
inline float smooth_l1_term(float d, float beta) {
  float magnitude = std::fabs(d);
  if (magnitude < beta) {
    return 0.5f * d * (d / beta);
  }
  return magnitude - 0.5f * beta;
}

// out[i] = grad(x[i] - y[i]) * grad_output[i] * scale. With stream, the SIMD path writes out
// with non-temporal stores (a large output in memory; never a buffer that is read next); the
// elementwise engine fences them at the end of each chunk.
void smooth_l1_backward(Isa isa, float beta, float scale, const float* grad_output, const float* x,
                        const float* y, float* out, int64_t n, bool stream);

// The same in SIMD on operands of any FLOAT, FLOAT16 and BF16 mix: ptr[0] the output, ptr[1..3]
// gradOutput, x and y, of dtype[0..3]; the output contiguous, each input contiguous (stride 1) or
// one value for all n (stride 0). Inputs are widened exactly and the output rounded once, so the
// bits equal those of smooth_l1_backward on float32 copies. Only a FLOAT output is streamed (a
// 16-bit one was slower streamed than stored normally).
void smooth_l1_backward_dense(float beta, float scale, const aclDataType* dtype, char* const* ptr,
                              const int64_t* stride, int64_t n, bool stream);

// out[i] = term(x[i] - y[i]); stream as above.
void smooth_l1_forward(Isa isa, float beta, const float* x, const float* y, float* out, int64_t n,
                       bool stream);

// The same in SIMD: ptr[0] the output, ptr[1..2] x and y, as smooth_l1_backward_dense.
void smooth_l1_forward_dense(float beta, const aclDataType* dtype, char* const* ptr,
                             const int64_t* stride, int64_t n, bool stream);

// acc + Σ term(x[i] - y[i]) for i < n over contiguous inputs x = ptr[0] and y = ptr[1] of any
// FLOAT, FLOAT16 and BF16 mix (dtype[0..1]), computed in SIMD registers and added as accumulate
// (core/reduce.h) adds: the same bits as smooth_l1_forward's terms passed to accumulate.
double smooth_l1_forward_sum(float beta, const aclDataType* dtype, const char* const* ptr,
                             int64_t n, double acc);

}  // namespace oa::kernels
