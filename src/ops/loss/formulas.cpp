// The scalar forms of the loss formulas: generic_formulas-inl.h on one float at a time, compiled
// for the baseline target (what the reference implementations and the engine's scalar paths run).
#include "ops/loss/formulas.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace oa::loss {
namespace {

// The scalar backend of generic_math-inl.h.
struct ScalarOps {
  using V = float;
  using I = int32_t;
  using M = bool;
  static V Set(float v) { return v; }
  static I SetI(int32_t v) { return v; }
  static V Select(M m, V a, V b) { return m ? a : b; }
  static M And(M a, M b) { return a && b; }
  static M Or(M a, M b) { return a || b; }
  static M IsNaN(V v) { return std::isnan(v); }
  static V Neg(V v) { return -v; }
  static V Abs(V v) { return std::fabs(v); }
  static I Bits(V v) {
    I i;
    std::memcpy(&i, &v, sizeof(i));
    return i;
  }
  static V FromBits(I i) {
    V v;
    std::memcpy(&v, &i, sizeof(v));
    return v;
  }
  static V ToFloat(I i) { return static_cast<float>(i); }
  static I ToInt(V v) { return static_cast<int32_t>(v); }
  static I ShiftRight1(I i) { return i >> 1; }
  static I ShiftRight23(I i) { return i >> 23; }
  static I ShiftLeft23(I i) { return static_cast<int32_t>(static_cast<uint32_t>(i) << 23); }
};

#include "ops/loss/generic_formulas-inl.h"

// in[at] where the optional input is present, else 1 (the formula's value without it).
template <bool kPresent>
float optional_input(const float* in, int at) {
  if constexpr (kPresent) {
    return in[at];
  } else {
    return 1.0f;
  }
}

}  // namespace

float math_log(float x) { return Log<ScalarOps>(x); }
float math_log1p(float x) { return Log1p<ScalarOps>(x); }
float math_exp(float x) { return Exp<ScalarOps>(x); }

float mse_term(const ElementwiseParams&, const float* in) {
  return MseTerm<ScalarOps>(in[0], in[1]);
}

float mse_grad(const ElementwiseParams& p, const float* in) {
  return MseGrad<ScalarOps>(in[0], in[1], in[2], p.v[0]);
}

float l1_term(const ElementwiseParams&, const float* in) { return L1Term<ScalarOps>(in[0], in[1]); }

float l1_grad(const ElementwiseParams& p, const float* in) {
  return L1Grad<ScalarOps>(in[0], in[1], in[2], p.v[0]);
}

float soft_margin_term(const ElementwiseParams&, const float* in) {
  return SoftMarginTerm<ScalarOps>(in[0], in[1]);
}

float soft_margin_grad(const ElementwiseParams& p, const float* in) {
  return SoftMarginGrad<ScalarOps>(in[0], in[1], in[2], p.v[0]);
}

template <bool kWeight>
float bce_term(const ElementwiseParams&, const float* in) {
  return BceTerm<ScalarOps>(in[0], in[1], optional_input<kWeight>(in, 2));
}

template <bool kWeight>
float bce_grad(const ElementwiseParams& p, const float* in) {
  return BceGrad<ScalarOps>(in[0], in[1], in[2], optional_input<kWeight>(in, 3), p.v[0]);
}

template <bool kWeight, bool kPosWeight>
float bce_logits_term(const ElementwiseParams&, const float* in) {
  return BceLogitsTerm<ScalarOps, kPosWeight>(in[0], in[1], optional_input<kWeight>(in, 2),
                                              optional_input<kPosWeight>(in, 2 + kWeight));
}

template <bool kWeight, bool kPosWeight>
float bce_logits_grad(const ElementwiseParams& p, const float* in) {
  return BceLogitsGrad<ScalarOps, kPosWeight>(in[0], in[1], in[2], optional_input<kWeight>(in, 3),
                                              optional_input<kPosWeight>(in, 3 + kWeight), p.v[0]);
}

template <bool kLogTarget>
float kl_div_term(const ElementwiseParams&, const float* in) {
  if constexpr (kLogTarget) {
    return KlDivLogTargetTerm<ScalarOps>(in[0], in[1]);
  } else {
    return KlDivTerm<ScalarOps>(in[0], in[1]);
  }
}

template <bool kLogTarget>
float kl_div_grad(const ElementwiseParams& p, const float* in) {
  if constexpr (kLogTarget) {
    return KlDivLogTargetGrad<ScalarOps>(in[0], in[2], p.v[0]);
  } else {
    return KlDivGrad<ScalarOps>(in[0], in[2], p.v[0]);
  }
}

template float bce_term<false>(const ElementwiseParams&, const float*);
template float bce_term<true>(const ElementwiseParams&, const float*);
template float bce_grad<false>(const ElementwiseParams&, const float*);
template float bce_grad<true>(const ElementwiseParams&, const float*);
template float bce_logits_term<false, false>(const ElementwiseParams&, const float*);
template float bce_logits_term<true, false>(const ElementwiseParams&, const float*);
template float bce_logits_term<false, true>(const ElementwiseParams&, const float*);
template float bce_logits_term<true, true>(const ElementwiseParams&, const float*);
template float bce_logits_grad<false, false>(const ElementwiseParams&, const float*);
template float bce_logits_grad<true, false>(const ElementwiseParams&, const float*);
template float bce_logits_grad<false, true>(const ElementwiseParams&, const float*);
template float bce_logits_grad<true, true>(const ElementwiseParams&, const float*);
template float kl_div_term<false>(const ElementwiseParams&, const float*);
template float kl_div_term<true>(const ElementwiseParams&, const float*);
template float kl_div_grad<false>(const ElementwiseParams&, const float*);
template float kl_div_grad<true>(const ElementwiseParams&, const float*);

}  // namespace oa::loss
