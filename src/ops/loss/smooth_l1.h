// The smooth L1 loss and its gradient as scalar formulas on float32 (SPEC sections 9 and 11): what
// the reference computes, and what the vector formulas (smooth_l1_simd.cpp) round exactly alike.
#pragma once

#include <cmath>

#include "core/elementwise_op.h"

namespace oa::loss {

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

// The formulas as the elementwise engine takes them. Backward: inputs gradOutput, self, target;
// v[0] beta, v[1] the mean's scale. Forward: inputs self, target; v[0] beta.
inline float smooth_l1_backward_formula(const ElementwiseParams& p, const float* in) {
  return smooth_l1_grad_input(in[1], in[2], in[0], p.v[0], p.v[1]);
}
inline float smooth_l1_forward_formula(const ElementwiseParams& p, const float* in) {
  return smooth_l1_term(in[0] - in[1], p.v[0]);
}

// The SIMD entry points of the two formulas (smooth_l1_simd.cpp).
const ElementwiseKernels& smooth_l1_backward_kernels();
const ElementwiseKernels& smooth_l1_forward_kernels();

}  // namespace oa::loss
