// Highway compiles this file once per SIMD target; HWY_ONCE holds the dispatching entry points.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/smooth_l1_loss/smooth_l1_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>

#include "kernels/smooth_l1_loss/smooth_l1.h"

HWY_BEFORE_NAMESPACE();
namespace oa::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Stores v at p, non-temporally when stream (p is then aligned to the vector size).
template <class D, class V>
void Put(D df, V v, float* p, bool stream) {
  if (stream) {
    hn::Stream(v, df, p);
  } else {
    hn::StoreU(v, df, p);
  }
}

// Streaming needs aligned vectors: the number of leading elements to store normally first.
template <class D>
int64_t Head(D df, const float* out, int64_t n, bool stream) {
  const auto bytes = static_cast<uintptr_t>(hn::Lanes(df) * sizeof(float));
  const auto misalignment = reinterpret_cast<uintptr_t>(out) % bytes;
  if (!stream || misalignment % sizeof(float) != 0) {
    return 0;
  }
  return std::min<int64_t>(n, static_cast<int64_t>((bytes - misalignment) % bytes / sizeof(float)));
}

template <class D, class V>
V Grad(D df, V d, V beta) {
  const auto sign = hn::IfThenElse(hn::Gt(d, hn::Zero(df)), hn::Set(df, 1.0f),
                                   hn::IfThenElse(hn::Lt(d, hn::Zero(df)), hn::Set(df, -1.0f), d));
  return hn::IfThenElse(hn::Lt(hn::Abs(d), beta), hn::Div(d, beta), sign);
}

void Backward(float beta, float scale, const float* grad_output, const float* x, const float* y,
              float* out, int64_t n, bool stream) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto vbeta = hn::Set(df, beta);
  const auto vscale = hn::Set(df, scale);
  const int64_t head = Head(df, out, n, stream);
  int64_t i = 0;
  for (; i < head; ++i) {
    out[i] = smooth_l1_grad(x[i] - y[i], beta) * grad_output[i] * scale;
  }
  stream = stream && (head > 0 || reinterpret_cast<uintptr_t>(out) % (lanes * 4) == 0);
  for (; i + lanes <= n; i += lanes) {
    const auto d = hn::Sub(hn::LoadU(df, x + i), hn::LoadU(df, y + i));
    const auto g = hn::Mul(Grad(df, d, vbeta), hn::LoadU(df, grad_output + i));
    Put(df, hn::Mul(g, vscale), out + i, stream);
  }
  for (; i < n; ++i) {
    out[i] = smooth_l1_grad(x[i] - y[i], beta) * grad_output[i] * scale;
  }
}

void Forward(float beta, const float* x, const float* y, float* out, int64_t n, bool stream) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto vbeta = hn::Set(df, beta);
  const auto half = hn::Set(df, 0.5f);
  const auto half_beta = hn::Mul(half, vbeta);
  const int64_t head = Head(df, out, n, stream);
  int64_t i = 0;
  for (; i < head; ++i) {
    out[i] = smooth_l1_term(x[i] - y[i], beta);
  }
  stream = stream && (head > 0 || reinterpret_cast<uintptr_t>(out) % (lanes * 4) == 0);
  for (; i + lanes <= n; i += lanes) {
    const auto d = hn::Sub(hn::LoadU(df, x + i), hn::LoadU(df, y + i));
    const auto magnitude = hn::Abs(d);
    const auto inside = hn::Mul(hn::Mul(half, d), hn::Div(d, vbeta));
    const auto outside = hn::Sub(magnitude, half_beta);
    Put(df, hn::IfThenElse(hn::Lt(magnitude, vbeta), inside, outside), out + i, stream);
  }
  for (; i < n; ++i) {
    out[i] = smooth_l1_term(x[i] - y[i], beta);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::kernels {

HWY_EXPORT(Backward);
HWY_EXPORT(Forward);

void smooth_l1_backward(Isa isa, float beta, float scale, const float* grad_output, const float* x,
                        const float* y, float* out, int64_t n, bool stream) {
  if (isa == Isa::simd) {
    HWY_DYNAMIC_DISPATCH(Backward)(beta, scale, grad_output, x, y, out, n, stream);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    out[i] = smooth_l1_grad(x[i] - y[i], beta) * grad_output[i] * scale;
  }
}

void smooth_l1_forward(Isa isa, float beta, const float* x, const float* y, float* out, int64_t n,
                       bool stream) {
  if (isa == Isa::simd) {
    HWY_DYNAMIC_DISPATCH(Forward)(beta, x, y, out, n, stream);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    out[i] = smooth_l1_term(x[i] - y[i], beta);
  }
}

}  // namespace oa::kernels
#endif
