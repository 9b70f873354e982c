// The MseLoss, L1Loss and SoftMarginLoss formulas in SIMD, compiled once per Highway target from
// generic_formulas-inl.h: the same operations as their scalar forms (formulas.cpp), the same bits.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/loss/regression_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cmath>

#include "core/elementwise_op-inl.h"
#include "ops/loss/formulas.h"
#include "ops/loss/vector_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace oa::loss {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#include "ops/loss/generic_formulas-inl.h"

// Forward terms: self, target.
struct MseTermFormula {
  static constexpr int kInputs = 2;
  static float Scalar(const ElementwiseParams& p, const float* in) { return mse_term(p, in); }
  template <class D, class In>
  static hn::Vec<D> Vector(D, const hn::Vec<D>*, const In& in) {
    return MseTerm<VectorOps<D>>(in(0), in(1));
  }
};

struct L1TermFormula {
  static constexpr int kInputs = 2;
  static float Scalar(const ElementwiseParams& p, const float* in) { return l1_term(p, in); }
  template <class D, class In>
  static hn::Vec<D> Vector(D, const hn::Vec<D>*, const In& in) {
    return L1Term<VectorOps<D>>(in(0), in(1));
  }
};

struct SoftMarginTermFormula {
  static constexpr int kInputs = 2;
  static float Scalar(const ElementwiseParams& p, const float* in) {
    return soft_margin_term(p, in);
  }
  template <class D, class In>
  static hn::Vec<D> Vector(D, const hn::Vec<D>*, const In& in) {
    return SoftMarginTerm<VectorOps<D>>(in(0), in(1));
  }
};

// Gradients: gradOutput, self, target; p[0] the scale.
struct MseGradFormula {
  static constexpr int kInputs = 3;
  static float Scalar(const ElementwiseParams& p, const float* in) { return mse_grad(p, in); }
  template <class D, class In>
  static hn::Vec<D> Vector(D, const hn::Vec<D>* p, const In& in) {
    return MseGrad<VectorOps<D>>(in(0), in(1), in(2), p[0]);
  }
};

struct L1GradFormula {
  static constexpr int kInputs = 3;
  static float Scalar(const ElementwiseParams& p, const float* in) { return l1_grad(p, in); }
  template <class D, class In>
  static hn::Vec<D> Vector(D, const hn::Vec<D>* p, const In& in) {
    return L1Grad<VectorOps<D>>(in(0), in(1), in(2), p[0]);
  }
};

struct SoftMarginGradFormula {
  static constexpr int kInputs = 3;
  static float Scalar(const ElementwiseParams& p, const float* in) {
    return soft_margin_grad(p, in);
  }
  template <class D, class In>
  static hn::Vec<D> Vector(D, const hn::Vec<D>* p, const In& in) {
    return SoftMarginGrad<VectorOps<D>>(in(0), in(1), in(2), p[0]);
  }
};

OA_ELEMENTWISE_TARGET(MseTermKernels, MseTermFormula)
OA_ELEMENTWISE_TARGET(L1TermKernels, L1TermFormula)
OA_ELEMENTWISE_TARGET(SoftMarginTermKernels, SoftMarginTermFormula)
OA_ELEMENTWISE_TARGET(MseGradKernels, MseGradFormula)
OA_ELEMENTWISE_TARGET(L1GradKernels, L1GradFormula)
OA_ELEMENTWISE_TARGET(SoftMarginGradKernels, SoftMarginGradFormula)

}  // namespace HWY_NAMESPACE
}  // namespace oa::loss
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::loss {

OA_ELEMENTWISE_EXPORT(MseTermKernels)
OA_ELEMENTWISE_EXPORT(L1TermKernels)
OA_ELEMENTWISE_EXPORT(SoftMarginTermKernels)
OA_ELEMENTWISE_EXPORT(MseGradKernels)
OA_ELEMENTWISE_EXPORT(L1GradKernels)
OA_ELEMENTWISE_EXPORT(SoftMarginGradKernels)

Formula mse_term_formula() { return {mse_term, MseTermKernels}; }
Formula l1_term_formula() { return {l1_term, L1TermKernels}; }
Formula soft_margin_term_formula() { return {soft_margin_term, SoftMarginTermKernels}; }
Formula mse_grad_formula() { return {mse_grad, MseGradKernels}; }
Formula l1_grad_formula() { return {l1_grad, L1GradKernels}; }
Formula soft_margin_grad_formula() { return {soft_margin_grad, SoftMarginGradKernels}; }

}  // namespace oa::loss
#endif
