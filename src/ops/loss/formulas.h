// The losses' elementwise formulas as the elementwise helper (core/elementwise_op.h) takes them:
// each one's scalar form (formulas.cpp) and its SIMD entry points (the *_simd.cpp files), both
// instantiated from generic_formulas-inl.h, so they give the same bits. `in` holds the inputs in
// the order each comment lists; v[0] of the params is the formula's scale where it has one (1 /
// the count a mean divides by, else 1; MseGrad's is twice that).
#pragma once

#include "core/elementwise_op.h"

namespace oa::loss {

struct Formula {
  ScalarFormula scalar = nullptr;
  const ElementwiseKernels& (*kernels)() = nullptr;
};

// The scalar forms. kWeight and kPosWeight: the optional inputs that are present, which follow the
// required ones in that order.
float mse_term(const ElementwiseParams& p, const float* in);          // self, target
float mse_grad(const ElementwiseParams& p, const float* in);          // gradOutput, self, target
float l1_term(const ElementwiseParams& p, const float* in);           // self, target
float l1_grad(const ElementwiseParams& p, const float* in);           // gradOutput, self, target
float soft_margin_term(const ElementwiseParams& p, const float* in);  // self, target
float soft_margin_grad(const ElementwiseParams& p, const float* in);  // gradOutput, self, target
template <bool kWeight>
float bce_term(const ElementwiseParams& p, const float* in);  // self, target, [weight]
template <bool kWeight>
float bce_grad(const ElementwiseParams& p, const float* in);  // gradOutput, self, target, [weight]
// self, target, [weight], [posWeight]
template <bool kWeight, bool kPosWeight>
float bce_logits_term(const ElementwiseParams& p, const float* in);
// gradOutput, self, target, [weight], [posWeight]
template <bool kWeight, bool kPosWeight>
float bce_logits_grad(const ElementwiseParams& p, const float* in);
template <bool kLogTarget>
float kl_div_term(const ElementwiseParams& p, const float* in);  // self, target
// gradOutput, self (only its shape counts: the gradient does not depend on it), target
template <bool kLogTarget>
float kl_div_grad(const ElementwiseParams& p, const float* in);

// The math the formulas are built from, on one float (generic_math-inl.h): for the tests of its
// accuracy.
float math_log(float x);
float math_log1p(float x);
float math_exp(float x);

// The formulas (regression_simd.cpp, bce_simd.cpp, bce_logits_simd.cpp, kl_div_simd.cpp).
Formula mse_term_formula();
Formula mse_grad_formula();
Formula l1_term_formula();
Formula l1_grad_formula();
Formula soft_margin_term_formula();
Formula soft_margin_grad_formula();
Formula bce_term_formula(bool weight);
Formula bce_grad_formula(bool weight);
Formula bce_logits_term_formula(bool weight, bool pos_weight);
Formula bce_logits_grad_formula(bool weight, bool pos_weight);
Formula kl_div_term_formula(bool log_target);
Formula kl_div_grad_formula(bool log_target);

}  // namespace oa::loss
