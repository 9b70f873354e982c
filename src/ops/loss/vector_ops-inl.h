// The Highway backend of generic_math-inl.h: V is one vector of float32 lanes of D, I the int32
// vector of as many lanes, M the mask. Included once per target (the usual toggle guard).
#if defined(OA_OPS_LOSS_VECTOR_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OA_OPS_LOSS_VECTOR_OPS_INL_H_
#undef OA_OPS_LOSS_VECTOR_OPS_INL_H_
#else
#define OA_OPS_LOSS_VECTOR_OPS_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace oa::loss {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D>
struct VectorOps {
  using V = hn::Vec<D>;
  using DI = hn::RebindToSigned<D>;
  using I = hn::Vec<DI>;
  using M = hn::Mask<D>;
  static V Set(float v) { return hn::Set(D(), v); }
  static I SetI(int32_t v) { return hn::Set(DI(), v); }
  static V Select(M m, V a, V b) { return hn::IfThenElse(m, a, b); }
  static M And(M a, M b) { return hn::And(a, b); }
  static M Or(M a, M b) { return hn::Or(a, b); }
  static M IsNaN(V v) { return hn::IsNaN(v); }
  static V Neg(V v) { return hn::Neg(v); }
  static V Abs(V v) { return hn::Abs(v); }
  static I Bits(V v) { return hn::BitCast(DI(), v); }
  static V FromBits(I i) { return hn::BitCast(D(), i); }
  static V ToFloat(I i) { return hn::ConvertTo(D(), i); }
  static I ToInt(V v) { return hn::ConvertTo(DI(), v); }
  static I ShiftRight1(I i) { return hn::ShiftRight<1>(i); }
  static I ShiftRight23(I i) { return hn::ShiftRight<23>(i); }
  static I ShiftLeft23(I i) { return hn::ShiftLeft<23>(i); }
};

// in(at) where an optional input is present, else ones (the formula's value without it).
template <bool kPresent, class D, class In>
hn::Vec<D> OptionalInput(D d, const In& in, int at) {
  if constexpr (kPresent) {
    return in(at);
  } else {
    return hn::Set(d, 1.0f);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::loss
HWY_AFTER_NAMESPACE();

#endif
