// Highway compiles this file once per SIMD target; HWY_ONCE holds the dispatching entry points.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/smooth_l1_loss/smooth_l1_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>

#include "core/map_dense-inl.h"
#include "core/reduce-inl.h"
#include "kernels/smooth_l1_loss/smooth_l1.h"

HWY_BEFORE_NAMESPACE();
namespace oa::kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace simd = oa::simd::HWY_NAMESPACE;

// Stores v at p, non-temporally when stream (p is then aligned to the vector size).
template <class D, class V>
void Put(D df, V v, float* p, bool stream) {
  if (stream) {
    hn::Stream(v, df, p);
  } else {
    hn::StoreU(v, df, p);
  }
}

// smooth_l1_grad on vectors: sign(d) is 1 with d's sign for a nonzero number, else d itself (a
// zero or NaN), one select fewer than two comparisons with zero (SmoothL1 backward, 16M elements,
// 2 threads, in-process A/B: 1.02-1.07x float32, 1.04-1.06x bfloat16).
template <class D, class V>
V Grad(D df, V d, V beta) {
  const auto magnitude = hn::Abs(d);
  const auto sign =
      hn::IfThenElse(hn::Gt(magnitude, hn::Zero(df)), hn::CopySignToAbs(hn::Set(df, 1.0f), d), d);
  return hn::IfThenElse(hn::Lt(magnitude, beta), hn::Div(d, beta), sign);
}

// smooth_l1_grad_input on vectors. Where grad is a number and gradOutput a NaN, the product is
// already that NaN (quieted, as the multiplication by scale quiets it anyway), so only a NaN grad
// needs a select: the product of two NaNs may be either.
template <class D, class V>
V GradInput(D df, V x, V y, V grad_output, V beta, V scale) {
  const auto grad = Grad(df, hn::Sub(x, y), beta);
  return hn::Mul(hn::IfThenElse(hn::IsNaN(grad), grad, hn::Mul(grad, grad_output)), scale);
}

void Backward(float beta, float scale, const float* grad_output, const float* x, const float* y,
              float* out, int64_t n, bool stream) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto vbeta = hn::Set(df, beta);
  const auto vscale = hn::Set(df, scale);
  // Operands far larger than the caches: the inputs are prefetched too.
  const bool prefetch = stream;
  const int64_t head = stream ? simd::StreamHead(df, out, n) : 0;
  int64_t i = 0;
  for (; i < head; ++i) {
    out[i] = smooth_l1_grad_input(x[i], y[i], grad_output[i], beta, scale);
  }
  stream = stream && (head > 0 || reinterpret_cast<uintptr_t>(out) % (lanes * 4) == 0);
  for (; i + lanes <= n; i += lanes) {
    if (prefetch) {
      simd::PrefetchAhead(x, i, 4, simd::kBlockPrefetchBytes);
      simd::PrefetchAhead(y, i, 4, simd::kBlockPrefetchBytes);
      simd::PrefetchAhead(grad_output, i, 4, simd::kBlockPrefetchBytes);
    }
    const auto g = GradInput(df, hn::LoadU(df, x + i), hn::LoadU(df, y + i),
                             hn::LoadU(df, grad_output + i), vbeta, vscale);
    Put(df, g, out + i, stream);
  }
  for (; i < n; ++i) {
    out[i] = smooth_l1_grad_input(x[i], y[i], grad_output[i], beta, scale);
  }
}

void BackwardDense(float beta, float scale, const aclDataType* dtype, char* const* ptr,
                   const int64_t* stride, int64_t n, bool stream) {
  const hn::ScalableTag<float> df;
  const auto vbeta = hn::Set(df, beta);
  const auto vscale = hn::Set(df, scale);
  simd::MapDense<3>(
      df, dtype, ptr, stride, n, stream,
      [&](const auto& in) { return GradInput(df, in(1), in(2), in(0), vbeta, vscale); },
      [&](const auto& in) { return smooth_l1_grad_input(in(1), in(2), in(0), beta, scale); });
}

// The loss term of d (see smooth_l1_term).
template <class D, class V>
V Term(D df, V d, V beta) {
  const auto half = hn::Set(df, 0.5f);
  const auto magnitude = hn::Abs(d);
  const auto inside = hn::Mul(hn::Mul(half, d), hn::Div(d, beta));
  const auto outside = hn::Sub(magnitude, hn::Mul(half, beta));
  return hn::IfThenElse(hn::Lt(magnitude, beta), inside, outside);
}

void Forward(float beta, const float* x, const float* y, float* out, int64_t n, bool stream) {
  const hn::ScalableTag<float> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto vbeta = hn::Set(df, beta);
  // Operands far larger than the caches: the inputs are prefetched too.
  const bool prefetch = stream;
  const int64_t head = stream ? simd::StreamHead(df, out, n) : 0;
  int64_t i = 0;
  for (; i < head; ++i) {
    out[i] = smooth_l1_term(x[i] - y[i], beta);
  }
  stream = stream && (head > 0 || reinterpret_cast<uintptr_t>(out) % (lanes * 4) == 0);
  for (; i + lanes <= n; i += lanes) {
    if (prefetch) {
      simd::PrefetchAhead(x, i, 4, simd::kBlockPrefetchBytes);
      simd::PrefetchAhead(y, i, 4, simd::kBlockPrefetchBytes);
    }
    const auto d = hn::Sub(hn::LoadU(df, x + i), hn::LoadU(df, y + i));
    Put(df, Term(df, d, vbeta), out + i, stream);
  }
  for (; i < n; ++i) {
    out[i] = smooth_l1_term(x[i] - y[i], beta);
  }
}

void ForwardDense(float beta, const aclDataType* dtype, char* const* ptr, const int64_t* stride,
                  int64_t n, bool stream) {
  const hn::ScalableTag<float> df;
  const auto vbeta = hn::Set(df, beta);
  simd::MapDense<2>(
      df, dtype, ptr, stride, n, stream,
      [&](const auto& in) { return Term(df, hn::Sub(in(0), in(1)), vbeta); },
      [&](const auto& in) { return smooth_l1_term(in(0) - in(1), beta); });
}

// ForwardSum with both inputs' dtype known at compile time (kAll), or read at run time
// (ACL_DT_UNDEFINED). Flattened, as MapDenseAs.
template <aclDataType kAll>
HWY_FLATTEN double ForwardSumAs(float beta, const aclDataType* dtype, const char* const* ptr,
                                int64_t n, double acc) {
  const hn::ScalableTag<float> df;
  const auto vbeta = hn::Set(df, beta);
  const auto type = [&](int k) { return kAll == ACL_DT_UNDEFINED ? dtype[k] : kAll; };
  return simd::AccumulateValues(
      df, n, acc,
      [&](int64_t i) {
        const auto x = simd::LoadAsFloat(df, type(0), ptr[0], i);
        const auto y = simd::LoadAsFloat(df, type(1), ptr[1], i);
        return Term(df, hn::Sub(x, y), vbeta);
      },
      [&](int64_t i) {
        return smooth_l1_term(load_float(type(0), ptr[0], i) - load_float(type(1), ptr[1], i),
                              beta);
      });
}

double ForwardSum(float beta, const aclDataType* dtype, const char* const* ptr, int64_t n,
                  double acc) {
  return simd::WithCommonDtype(dtype, 2, [&](auto all) {
    return ForwardSumAs<decltype(all)::value>(beta, dtype, ptr, n, acc);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::kernels
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace oa::kernels {

HWY_EXPORT(Backward);
HWY_EXPORT(BackwardDense);
HWY_EXPORT(Forward);
HWY_EXPORT(ForwardDense);
HWY_EXPORT(ForwardSum);

void smooth_l1_backward(Isa isa, float beta, float scale, const float* grad_output, const float* x,
                        const float* y, float* out, int64_t n, bool stream) {
  if (isa == Isa::simd) {
    HWY_DYNAMIC_DISPATCH(Backward)(beta, scale, grad_output, x, y, out, n, stream);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    out[i] = smooth_l1_grad_input(x[i], y[i], grad_output[i], beta, scale);
  }
}

void smooth_l1_backward_dense(float beta, float scale, const aclDataType* dtype, char* const* ptr,
                              const int64_t* stride, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(BackwardDense)(beta, scale, dtype, ptr, stride, n, stream);
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

void smooth_l1_forward_dense(float beta, const aclDataType* dtype, char* const* ptr,
                             const int64_t* stride, int64_t n, bool stream) {
  HWY_DYNAMIC_DISPATCH(ForwardDense)(beta, dtype, ptr, stride, n, stream);
}

double smooth_l1_forward_sum(float beta, const aclDataType* dtype, const char* const* ptr,
                             int64_t n, double acc) {
  return HWY_DYNAMIC_DISPATCH(ForwardSum)(beta, dtype, ptr, n, acc);
}

}  // namespace oa::kernels
#endif
