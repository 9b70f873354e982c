// The KlDiv formulas in SIMD, for either logTarget, compiled once per Highway target from
// generic_formulas-inl.h: the same operations as their scalar forms (formulas.cpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/loss/kl_div_simd.cpp"
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

// self, target.
template <bool kLogTarget>
struct KlDivTermFormula {
  static constexpr int kInputs = 2;
  static float Scalar(const ElementwiseParams& p, const float* in) {
    return kl_div_term<kLogTarget>(p, in);
  }
  template <class D, class In>
  static hn::Vec<D> Vector(D, const hn::Vec<D>*, const In& in) {
    if constexpr (kLogTarget) {
      return KlDivLogTargetTerm<VectorOps<D>>(in(0), in(1));
    } else {
      return KlDivTerm<VectorOps<D>>(in(0), in(1));
    }
  }
};

// gradOutput, self (unread), target; p[0] the scale.
template <bool kLogTarget>
struct KlDivGradFormula {
  static constexpr int kInputs = 3;
  static float Scalar(const ElementwiseParams& p, const float* in) {
    return kl_div_grad<kLogTarget>(p, in);
  }
  template <class D, class In>
  static hn::Vec<D> Vector(D, const hn::Vec<D>* p, const In& in) {
    if constexpr (kLogTarget) {
      return KlDivLogTargetGrad<VectorOps<D>>(in(0), in(2), p[0]);
    } else {
      return KlDivGrad<VectorOps<D>>(in(0), in(2), p[0]);
    }
  }
};

using KlDivTerm0 = KlDivTermFormula<false>;
using KlDivTerm1 = KlDivTermFormula<true>;
using KlDivGrad0 = KlDivGradFormula<false>;
using KlDivGrad1 = KlDivGradFormula<true>;
OA_ELEMENTWISE_TARGET(KlDivTerm0Kernels, KlDivTerm0)
OA_ELEMENTWISE_TARGET(KlDivTerm1Kernels, KlDivTerm1)
OA_ELEMENTWISE_TARGET(KlDivGrad0Kernels, KlDivGrad0)
OA_ELEMENTWISE_TARGET(KlDivGrad1Kernels, KlDivGrad1)

}  // namespace HWY_NAMESPACE
}  // namespace oa::loss
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::loss {

OA_ELEMENTWISE_EXPORT(KlDivTerm0Kernels)
OA_ELEMENTWISE_EXPORT(KlDivTerm1Kernels)
OA_ELEMENTWISE_EXPORT(KlDivGrad0Kernels)
OA_ELEMENTWISE_EXPORT(KlDivGrad1Kernels)

Formula kl_div_term_formula(bool log_target) {
  return log_target ? Formula{kl_div_term<true>, KlDivTerm1Kernels}
                    : Formula{kl_div_term<false>, KlDivTerm0Kernels};
}

Formula kl_div_grad_formula(bool log_target) {
  return log_target ? Formula{kl_div_grad<true>, KlDivGrad1Kernels}
                    : Formula{kl_div_grad<false>, KlDivGrad0Kernels};
}

}  // namespace oa::loss
#endif
