// The losses' per-element formulas, forward terms and gradients, written once for any backend O
// (see generic_math-inl.h; no include guard for the same reason: included inside each backend's
// namespace). Each computes in float32 with exactly rounded operations and
// ends in the canonical NaN, so the scalar form (formulas.cpp) and the SIMD forms (*_simd.cpp) give
// the same bits. `scale` is the reduction's factor: 1 / (the count a mean divides by), else 1.
// The order of the operations follows PyTorch's CPU kernels, term for term, except where noted.

#include "ops/loss/generic_math-inl.h"  // IWYU pragma: export

// MseLoss: (x - y)^2.
template <class O>
typename O::V MseTerm(typename O::V x, typename O::V y) {
  const typename O::V d = x - y;
  return Canonical<O>(d * d);
}

// MseLossBackward: norm (x - y) g with norm = 2 scale.
template <class O>
typename O::V MseGrad(typename O::V g, typename O::V x, typename O::V y, typename O::V norm) {
  return Canonical<O>((norm * (x - y)) * g);
}

// L1Loss: |x - y|.
template <class O>
typename O::V L1Term(typename O::V x, typename O::V y) {
  return Canonical<O>(O::Abs(x - y));
}

// sign(d): +-1, with sign(+-0) = +-0 and NaN kept.
template <class O>
typename O::V Sign(typename O::V d) {
  return O::Select(d > O::Set(0.0f), O::Set(1.0f), O::Select(d < O::Set(0.0f), O::Set(-1.0f), d));
}

// L1LossBackward: sign(x - y) g scale.
template <class O>
typename O::V L1Grad(typename O::V g, typename O::V x, typename O::V y, typename O::V scale) {
  return Canonical<O>((Sign<O>(x - y) * g) * scale);
}

// SoftMarginLoss: log(1 + exp(-y x)), in the form that overflows nowhere.
template <class O>
typename O::V SoftMarginTerm(typename O::V x, typename O::V y) {
  return Canonical<O>(Softplus<O>(O::Neg(y * x)));
}

// SoftMarginLossBackward: -y sigma(-y x) g scale (sigma(-y x) = exp(-y x) / (1 + exp(-y x))).
template <class O>
typename O::V SoftMarginGrad(typename O::V g, typename O::V x, typename O::V y,
                             typename O::V scale) {
  return Canonical<O>(((O::Neg(y) * Sigmoid<O>(O::Neg(y * x))) * g) * scale);
}

// max(v, -100): the clamp PyTorch puts on BinaryCrossEntropy's logs, so that a probability of 0 or
// 1 gives a finite loss (NaN kept).
template <class O>
typename O::V ClampedLog(typename O::V v) {
  return O::Select(v < O::Set(-100.0f), O::Set(-100.0f), v);
}

// BinaryCrossEntropy: -w (y log x + (1 - y) log(1 - x)) as
// ((y - 1) max(log1p(-x), -100) - y max(log x, -100)) w.
template <class O>
typename O::V BceTerm(typename O::V x, typename O::V y, typename O::V w) {
  using V = typename O::V;
  const V log_x = ClampedLog<O>(Log<O>(x));
  const V log_complement = ClampedLog<O>(Log1p<O>(O::Neg(x)));
  return Canonical<O>(((y - O::Set(1.0f)) * log_complement - y * log_x) * w);
}

// BinaryCrossEntropyBackward: g (x - y) / max((1 - x) x, 1e-12) w scale.
template <class O>
typename O::V BceGrad(typename O::V g, typename O::V x, typename O::V y, typename O::V w,
                      typename O::V scale) {
  using V = typename O::V;
  const V epsilon = O::Set(1e-12f);
  const V variance = (O::Set(1.0f) - x) * x;
  const V denominator = O::Select(variance < epsilon, epsilon, variance);
  return Canonical<O>((((g * (x - y)) / denominator) * w) * scale);
}

// BinaryCrossEntropyWithLogits: w ((1 - y) x - (1 + (pw - 1) y) log sigma(x)) (PyTorch's loss),
// in a form without cancellation: with log sigma(x) = min(x, 0) - L, L = log1p(exp(-|x|)), it is
// w ((1 - y) x + (1 + (pw - 1) y) L) for x >= 0 and w (-pw y x + (1 + (pw - 1) y) L) below, each a
// sum of two terms of one sign for y in [0, 1] (PyTorch's own form loses L, 3.7e-44 at
// x = -100, y = 0, to the cancellation of x against log sigma(x)). Without posWeight, pw = 1 and
// the factor of L is 1 (not computed as 1 + 0 y, which is NaN for an infinite y).
template <class O, bool kPosWeight>
typename O::V BceLogitsTerm(typename O::V x, typename O::V y, typename O::V w, typename O::V pw) {
  using V = typename O::V;
  const V one = O::Set(1.0f);
  const V softplus = SoftplusTail<O>(x);
  V lead;
  V tail;
  if constexpr (kPosWeight) {
    lead = O::Select(x >= O::Set(0.0f), (one - y) * x, O::Neg((pw * y) * x));
    tail = ((pw - one) * y + one) * softplus;
  } else {
    lead = O::Select(x >= O::Set(0.0f), (one - y) * x, O::Neg(y * x));
    tail = softplus;
  }
  return Canonical<O>((lead + tail) * w);
}

// BinaryCrossEntropyWithLogitsBackward: ((pw y + 1 - y) sigma(x) - pw y) g w scale (PyTorch's
// gradient; without posWeight pw = 1, (sigma(x) - y) g w scale), as
// ((1 - y) sigma(x) - pw y sigma(-x)) g w scale: the two sigmoids from one exp(-|x|), so that
// neither difference rounds away a sigma(-x) far below 1 (-3 sigma(-60) = -2.6e-26 at x = 60,
// y = 1, pw = 3, which PyTorch's form gives as 0).
template <class O, bool kPosWeight>
typename O::V BceLogitsGrad(typename O::V g, typename O::V x, typename O::V y, typename O::V w,
                            typename O::V pw, typename O::V scale) {
  using V = typename O::V;
  const V one = O::Set(1.0f);
  const V e = Exp<O>(O::Neg(O::Abs(x)));
  const V d = one + e;
  const auto positive = x >= O::Set(0.0f);
  const V sigmoid = O::Select(positive, one / d, e / d);
  const V complement = O::Select(positive, e / d, one / d);  // sigma(-x)
  const V positive_weight = kPosWeight ? pw * y : y;
  const V grad = (one - y) * sigmoid - positive_weight * complement;
  return Canonical<O>(((grad * g) * w) * scale);
}

// KlDiv with logTarget false: y (log y - x), as xlogy(y, y) - y x with xlogy(0, y) = 0 (so a zero
// target gives 0 for any finite x, and a negative one NaN).
template <class O>
typename O::V KlDivTerm(typename O::V x, typename O::V y) {
  using V = typename O::V;
  const V xlogy = O::Select(y == O::Set(0.0f), O::Set(0.0f), y * Log<O>(y));
  return Canonical<O>(xlogy - y * x);
}

// KlDiv with logTarget true: exp(y) (y - x).
template <class O>
typename O::V KlDivLogTargetTerm(typename O::V x, typename O::V y) {
  return Canonical<O>(Exp<O>(y) * (y - x));
}

// KlDivBackward: -y g scale, or with logTarget -exp(y) g scale.
template <class O>
typename O::V KlDivGrad(typename O::V g, typename O::V y, typename O::V scale) {
  return Canonical<O>((O::Neg(y) * g) * scale);
}
template <class O>
typename O::V KlDivLogTargetGrad(typename O::V g, typename O::V y, typename O::V scale) {
  return Canonical<O>((O::Neg(Exp<O>(y)) * g) * scale);
}
