// The BinaryCrossEntropyWithLogits formulas in SIMD, for each set of optional inputs (weight,
// posWeight), compiled once per Highway target from generic_formulas-inl.h: the same operations as
// their scalar forms (formulas.cpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/loss/bce_logits_simd.cpp"
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

// self, target, [weight], [posWeight].
template <bool kWeight, bool kPosWeight>
struct BceLogitsTermFormula {
  static constexpr int kInputs = 2 + kWeight + kPosWeight;
  static float Scalar(const ElementwiseParams& p, const float* in) {
    return bce_logits_term<kWeight, kPosWeight>(p, in);
  }
  template <class D, class In>
  static hn::Vec<D> Vector(D d, const hn::Vec<D>*, const In& in) {
    return BceLogitsTerm<VectorOps<D>, kPosWeight>(in(0), in(1), OptionalInput<kWeight>(d, in, 2),
                                                   OptionalInput<kPosWeight>(d, in, 2 + kWeight));
  }
};

// gradOutput, self, target, [weight], [posWeight]; p[0] the scale.
template <bool kWeight, bool kPosWeight>
struct BceLogitsGradFormula {
  static constexpr int kInputs = 3 + kWeight + kPosWeight;
  static float Scalar(const ElementwiseParams& p, const float* in) {
    return bce_logits_grad<kWeight, kPosWeight>(p, in);
  }
  template <class D, class In>
  static hn::Vec<D> Vector(D d, const hn::Vec<D>* p, const In& in) {
    return BceLogitsGrad<VectorOps<D>, kPosWeight>(
        in(0), in(1), in(2), OptionalInput<kWeight>(d, in, 3),
        OptionalInput<kPosWeight>(d, in, 3 + kWeight), p[0]);
  }
};

// Named by the optional inputs present: W weight, P posWeight.
using LogitsTerm = BceLogitsTermFormula<false, false>;
using LogitsTermW = BceLogitsTermFormula<true, false>;
using LogitsTermP = BceLogitsTermFormula<false, true>;
using LogitsTermWP = BceLogitsTermFormula<true, true>;
using LogitsGrad = BceLogitsGradFormula<false, false>;
using LogitsGradW = BceLogitsGradFormula<true, false>;
using LogitsGradP = BceLogitsGradFormula<false, true>;
using LogitsGradWP = BceLogitsGradFormula<true, true>;
OA_ELEMENTWISE_TARGET(LogitsTermKernels, LogitsTerm)
OA_ELEMENTWISE_TARGET(LogitsTermWKernels, LogitsTermW)
OA_ELEMENTWISE_TARGET(LogitsTermPKernels, LogitsTermP)
OA_ELEMENTWISE_TARGET(LogitsTermWPKernels, LogitsTermWP)
OA_ELEMENTWISE_TARGET(LogitsGradKernels, LogitsGrad)
OA_ELEMENTWISE_TARGET(LogitsGradWKernels, LogitsGradW)
OA_ELEMENTWISE_TARGET(LogitsGradPKernels, LogitsGradP)
OA_ELEMENTWISE_TARGET(LogitsGradWPKernels, LogitsGradWP)

}  // namespace HWY_NAMESPACE
}  // namespace oa::loss
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::loss {

OA_ELEMENTWISE_EXPORT(LogitsTermKernels)
OA_ELEMENTWISE_EXPORT(LogitsTermWKernels)
OA_ELEMENTWISE_EXPORT(LogitsTermPKernels)
OA_ELEMENTWISE_EXPORT(LogitsTermWPKernels)
OA_ELEMENTWISE_EXPORT(LogitsGradKernels)
OA_ELEMENTWISE_EXPORT(LogitsGradWKernels)
OA_ELEMENTWISE_EXPORT(LogitsGradPKernels)
OA_ELEMENTWISE_EXPORT(LogitsGradWPKernels)

Formula bce_logits_term_formula(bool weight, bool pos_weight) {
  if (pos_weight) {
    return weight ? Formula{bce_logits_term<true, true>, LogitsTermWPKernels}
                  : Formula{bce_logits_term<false, true>, LogitsTermPKernels};
  }
  return weight ? Formula{bce_logits_term<true, false>, LogitsTermWKernels}
                : Formula{bce_logits_term<false, false>, LogitsTermKernels};
}

Formula bce_logits_grad_formula(bool weight, bool pos_weight) {
  if (pos_weight) {
    return weight ? Formula{bce_logits_grad<true, true>, LogitsGradWPKernels}
                  : Formula{bce_logits_grad<false, true>, LogitsGradPKernels};
  }
  return weight ? Formula{bce_logits_grad<true, false>, LogitsGradWKernels}
                : Formula{bce_logits_grad<false, false>, LogitsGradKernels};
}

}  // namespace oa::loss
#endif
