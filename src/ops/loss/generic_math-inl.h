// float32 log, log1p, exp and the stable sigmoid forms the losses are built from, written once for
// any backend O: ScalarOps (formulas.cpp, one float) and VectorOps<D> (vector_ops-inl.h, one
// Highway vector). Every step is an IEEE operation that rounds exactly (add, subtract, multiply,
// divide, compare, select, exact conversions and bit moves; never a fused multiply-add), so the
// scalar and every SIMD target give the same bits, and the reference and the fast implementations
// of an operator agree bitwise.
//
// No include guard on purpose: this file is included inside each backend's namespace (the baseline
// one in formulas.cpp, and HWY_NAMESPACE once per Highway target in the *_simd.cpp files), so that
// each instantiation is compiled for its own target. It includes nothing; its includer provides
// <cmath>.
//
// A backend O provides V (float, or a vector), I (int32_t, or a vector of them), M (bool, or a
// mask), the arithmetic and comparison operators on V and +, -, &, | on I, and Set, SetI, Select,
// And, Or, IsNaN, Neg, Abs, Bits (V to I), FromBits (I to V), ToFloat (exact small I to V), ToInt
// (an integral V to I), ShiftRight1, ShiftRight23 (arithmetic) and ShiftLeft23.
//
// Accuracy (tests/ops/loss/math_test.cpp measures it against double on every 257th float32): log,
// log1p and exp within 1 unit in the last place of the correctly rounded result.

// ln 2 split so that k * kLn2High is exact for |k| < 2^9: 15 significant bits, and the rest.
constexpr float kLn2High = 0x1.62e4p-1f;
constexpr float kLn2Low = 0x1.7f7d1cp-20f;
constexpr float kLog2E = 0x1.715476p+0f;

// The canonical quiet NaN for any NaN: which NaN an operation on two NaNs keeps depends on the
// order of its operands, which a compiler may swap; a formula's NaN result is this one.
template <class O>
typename O::V Canonical(typename O::V v) {
  return O::Select(O::IsNaN(v), O::Set(NAN), v);
}

// log(x): -inf at +-0, NaN below 0 and for NaN, +inf at +inf.
template <class O>
typename O::V Log(typename O::V x) {
  using V = typename O::V;
  using I = typename O::I;
  // A subnormal |x| is scaled by 2^23 first (exactly), then x = 2^e m with m in [1, 2).
  const auto subnormal = O::Abs(x) < O::Set(0x1p-126f);
  const V normal = O::Select(subnormal, x * O::Set(0x1p23f), x);
  const I bits = O::Bits(normal) & O::SetI(0x7FFFFFFF);
  V e = O::ToFloat(O::ShiftRight23(bits) - O::SetI(127)) -
        O::Select(subnormal, O::Set(23.0f), O::Set(0.0f));
  V m = O::FromBits((bits & O::SetI(0x007FFFFF)) | O::SetI(0x3F800000));
  // m into [sqrt(2)/2, sqrt(2)), so that f = m - 1 (exact) is small on either side of 0.
  const auto high = m > O::Set(0x1.6a09e6p+0f);
  m = O::Select(high, m * O::Set(0.5f), m);
  e = O::Select(high, e + O::Set(1.0f), e);
  const V f = m - O::Set(1.0f);
  // log(1 + f) = 2 atanh(s) with s = f / (2 + f), |s| <= 0.172, written as
  // f - f^2/2 + s (f^2/2 + R) with R = 2z/3 + 2z^2/5 + 2z^3/7 + 2z^4/9, z = s^2; the next term of
  // the series is below 2^-27 of the result.
  const V s = f / (O::Set(2.0f) + f);
  const V z = s * s;
  const V r = z * (O::Set(2.0f / 3) +
                   z * (O::Set(2.0f / 5) + z * (O::Set(2.0f / 7) + z * O::Set(2.0f / 9))));
  const V half_square = O::Set(0.5f) * f * f;
  const V result =
      e * O::Set(kLn2High) - ((half_square - (s * (half_square + r) + e * O::Set(kLn2Low))) - f);
  const V inf = O::Set(INFINITY);
  V out = O::Select(x == O::Set(0.0f), O::Neg(inf), result);
  out = O::Select(x == inf, inf, out);
  return O::Select(O::Or(x < O::Set(0.0f), O::IsNaN(x)), O::Set(NAN), out);
}

// log(1 + y), accurate for small y: u = 1 + y rounds, and (y - (u - 1)) / u corrects log(u) for
// that rounding (u - 1 is exact where it matters). -inf at y = -1, NaN below.
template <class O>
typename O::V Log1p(typename O::V y) {
  using V = typename O::V;
  const V one = O::Set(1.0f);
  const V u = one + y;
  const V log_u = Log<O>(u);
  const V correction = (y - (u - one)) / u;
  return O::Select(O::And(u > O::Set(0.0f), u < O::Set(INFINITY)), log_u + correction, log_u);
}

// exp(x): 0 below about -103.97, +inf above about 88.72, NaN for NaN.
template <class O>
typename O::V Exp(typename O::V x) {
  using V = typename O::V;
  using I = typename O::I;
  // Clamped to [-104, 89], where the result is already 0 or +inf; a NaN is computed as 0 and put
  // back at the end.
  V t = O::Select(x < O::Set(-104.0f), O::Set(-104.0f), x);
  t = O::Select(t > O::Set(89.0f), O::Set(89.0f), t);
  t = O::Select(O::IsNaN(x), O::Set(0.0f), t);
  // k = round(t / ln 2) (adding and subtracting 1.5 * 2^23 rounds to an integer), and
  // r = t - k ln 2 in [-0.35, 0.35], k * kLn2High and its difference from t exact.
  const V magic = O::Set(12582912.0f);
  const V k = (t * O::Set(kLog2E) + magic) - magic;
  const V r = (t - k * O::Set(kLn2High)) - k * O::Set(kLn2Low);
  // exp(r) by its Taylor series to r^7/7!: the rest is below 2^-27 of the result.
  V p = O::Set(1.0f / 5040);
  p = p * r + O::Set(1.0f / 720);
  p = p * r + O::Set(1.0f / 120);
  p = p * r + O::Set(1.0f / 24);
  p = p * r + O::Set(1.0f / 6);
  p = p * r + O::Set(0.5f);
  p = p * r + O::Set(1.0f);
  p = p * r + O::Set(1.0f);
  // 2^k, k in [-150, 128], as two normal powers of two 2^k1 2^k2: the first product is exact, the
  // second rounds once (to a subnormal or to infinity where the result is one).
  const I ki = O::ToInt(k);
  const I k1 = O::ShiftRight1(ki);
  const I k2 = ki - k1;
  const V scale1 = O::FromBits(O::ShiftLeft23(k1 + O::SetI(127)));
  const V scale2 = O::FromBits(O::ShiftLeft23(k2 + O::SetI(127)));
  return O::Select(O::IsNaN(x), x, (p * scale1) * scale2);
}

// max(v, 0), a NaN v kept.
template <class O>
typename O::V PositivePart(typename O::V v) {
  return O::Select(v < O::Set(0.0f), O::Set(0.0f), v);
}

// log1p(exp(-|x|)), in (0, log 2]: what the stable forms of log(1 + exp(x)) add to max(x, 0).
template <class O>
typename O::V SoftplusTail(typename O::V x) {
  return Log1p<O>(Exp<O>(O::Neg(O::Abs(x))));
}

// sigma(x) = 1 / (1 + exp(-x)), from e = exp(-|x|) <= 1 so that nothing overflows: 1 / (1 + e)
// for x >= 0, e / (1 + e) below.
template <class O>
typename O::V Sigmoid(typename O::V x) {
  using V = typename O::V;
  const V e = Exp<O>(O::Neg(O::Abs(x)));
  const V d = O::Set(1.0f) + e;
  return O::Select(x >= O::Set(0.0f), O::Set(1.0f) / d, e / d);
}

// log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), finite wherever the result is.
template <class O>
typename O::V Softplus(typename O::V x) {
  return PositivePart<O>(x) + SoftplusTail<O>(x);
}
