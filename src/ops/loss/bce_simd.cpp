// The BinaryCrossEntropy formulas in SIMD, with and without weight, compiled once per Highway
// target from generic_formulas-inl.h: the same operations as their scalar forms (formulas.cpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/loss/bce_simd.cpp"
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

// self, target, [weight].
template <bool kWeight>
struct BceTermFormula {
  static constexpr int kInputs = 2 + kWeight;
  static float Scalar(const ElementwiseParams& p, const float* in) {
    return bce_term<kWeight>(p, in);
  }
  template <class D, class In>
  static hn::Vec<D> Vector(D d, const hn::Vec<D>*, const In& in) {
    return BceTerm<VectorOps<D>>(in(0), in(1), OptionalInput<kWeight>(d, in, 2));
  }
};

// gradOutput, self, target, [weight]; p[0] the scale.
template <bool kWeight>
struct BceGradFormula {
  static constexpr int kInputs = 3 + kWeight;
  static float Scalar(const ElementwiseParams& p, const float* in) {
    return bce_grad<kWeight>(p, in);
  }
  template <class D, class In>
  static hn::Vec<D> Vector(D d, const hn::Vec<D>* p, const In& in) {
    return BceGrad<VectorOps<D>>(in(0), in(1), in(2), OptionalInput<kWeight>(d, in, 3), p[0]);
  }
};

using BceTerm0 = BceTermFormula<false>;
using BceTerm1 = BceTermFormula<true>;
using BceGrad0 = BceGradFormula<false>;
using BceGrad1 = BceGradFormula<true>;
OA_ELEMENTWISE_TARGET(BceTerm0Kernels, BceTerm0)
OA_ELEMENTWISE_TARGET(BceTerm1Kernels, BceTerm1)
OA_ELEMENTWISE_TARGET(BceGrad0Kernels, BceGrad0)
OA_ELEMENTWISE_TARGET(BceGrad1Kernels, BceGrad1)

}  // namespace HWY_NAMESPACE
}  // namespace oa::loss
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::loss {

OA_ELEMENTWISE_EXPORT(BceTerm0Kernels)
OA_ELEMENTWISE_EXPORT(BceTerm1Kernels)
OA_ELEMENTWISE_EXPORT(BceGrad0Kernels)
OA_ELEMENTWISE_EXPORT(BceGrad1Kernels)

Formula bce_term_formula(bool weight) {
  return weight ? Formula{bce_term<true>, BceTerm1Kernels}
                : Formula{bce_term<false>, BceTerm0Kernels};
}

Formula bce_grad_formula(bool weight) {
  return weight ? Formula{bce_grad<true>, BceGrad1Kernels}
                : Formula{bce_grad<false>, BceGrad0Kernels};
}

}  // namespace oa::loss
#endif
