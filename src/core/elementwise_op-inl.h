// The SIMD entry points of an elementwise formula, compiled once per Highway target (the usual
// toggle guard). An operator's SIMD file (after foreach_target.h) defines its formula inside
// HWY_NAMESPACE as
//   struct Formula {
//     static constexpr int kInputs = 3;
//     static float Scalar(const ElementwiseParams& p, const float* in);   // the scalar formula
//     template <class D, class In>
//     static hn::Vec<D> Vector(D d, const hn::Vec<D>* p, const In& in);  // in(k): input k
//   };
// where p[j] holds params.v[j] in every lane; Vector must round exactly as Scalar does. Then
// OA_ELEMENTWISE_TARGET(Name, Formula) there, and OA_ELEMENTWISE_EXPORT(Name) under HWY_ONCE,
// which defines `const ElementwiseKernels& Name()`.
#if defined(OA_CORE_ELEMENTWISE_OP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OA_CORE_ELEMENTWISE_OP_INL_H_
#undef OA_CORE_ELEMENTWISE_OP_INL_H_
#else
#define OA_CORE_ELEMENTWISE_OP_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>

#include "core/convert_simd-inl.h"
#include "core/elementwise_op.h"
#include "core/map_dense-inl.h"
#include "core/reduce-inl.h"

HWY_BEFORE_NAMESPACE();
namespace oa::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class Formula>
struct Elementwise {
  using D = hn::ScalableTag<float>;
  static constexpr int kInputs = Formula::kInputs;

  struct Vectors {
    hn::Vec<D> v[4];
    Vectors(D df, const ElementwiseParams& params) {
      for (int j = 0; j < 4; ++j) {
        v[j] = hn::Set(df, params.v[j]);
      }
    }
  };

  static void Dense(const ElementwiseParams& params, const aclDataType* dtype, char* const* ptr,
                    const int64_t* stride, int64_t n, bool stream) {
    const D df;
    const Vectors p(df, params);
    MapDense<kInputs>(
        df, dtype, ptr, stride, n, stream,
        [&](const auto& in) { return Formula::Vector(df, p.v, in); },
        [&](const auto& in) {
          float x[kInputs];
          for (int k = 0; k < kInputs; ++k) {
            x[k] = in(k);
          }
          return Formula::Scalar(params, x);
        });
  }

  // Contiguous float32 arrays; with stream the output is written with streaming stores and the
  // inputs are prefetched (operands far larger than the caches).
  static void Blocks(const ElementwiseParams& params, const float* const* in, float* out, int64_t n,
                     bool stream) {
    const D df;
    const Vectors p(df, params);
    const auto lanes = static_cast<int64_t>(hn::Lanes(df));
    const auto element = [&](int64_t i) {
      float x[kInputs];
      for (int k = 0; k < kInputs; ++k) {
        x[k] = in[k][i];
      }
      out[i] = Formula::Scalar(params, x);
    };
    const bool prefetch = stream;
    const int64_t head = stream ? StreamHead(df, out, n) : 0;
    int64_t i = 0;
    for (; i < head; ++i) {
      element(i);
    }
    stream = stream && (head > 0 || reinterpret_cast<uintptr_t>(out) % (lanes * 4) == 0);
    for (; i + lanes <= n; i += lanes) {
      if (prefetch) {
        for (int k = 0; k < kInputs; ++k) {
          PrefetchAhead(in[k], i, 4, kBlockPrefetchBytes);
        }
      }
      const auto v = Formula::Vector(df, p.v, [&](int k) { return hn::LoadU(df, in[k] + i); });
      if (stream) {
        hn::Stream(v, df, out + i);
      } else {
        hn::StoreU(v, df, out + i);
      }
    }
    for (; i < n; ++i) {
      element(i);
    }
  }

  template <aclDataType kAll>
  HWY_FLATTEN static double SumAs(const ElementwiseParams& params, const aclDataType* dtype,
                                  const char* const* ptr, int64_t n, double acc) {
    const D df;
    const Vectors p(df, params);
    const auto type = [&](int k) { return kAll == ACL_DT_UNDEFINED ? dtype[k] : kAll; };
    return AccumulateValues(
        df, n, acc,
        [&](int64_t i) {
          return Formula::Vector(df, p.v,
                                 [&](int k) { return LoadAsFloat(df, type(k), ptr[k], i); });
        },
        [&](int64_t i) {
          float x[kInputs];
          for (int k = 0; k < kInputs; ++k) {
            x[k] = load_float(type(k), ptr[k], i);
          }
          return Formula::Scalar(params, x);
        });
  }

  static double Sum(const ElementwiseParams& params, const aclDataType* dtype,
                    const char* const* ptr, int64_t n, double acc) {
    return WithCommonDtype(dtype, kInputs, [&](auto all) {
      return SumAs<decltype(all)::value>(params, dtype, ptr, n, acc);
    });
  }
};

}  // namespace HWY_NAMESPACE
}  // namespace oa::simd
HWY_AFTER_NAMESPACE();

// The per-target functions of formula F, named Name##Dense and so on (inside HWY_NAMESPACE).
#define OA_ELEMENTWISE_TARGET(Name, F)                                                           \
  void Name##Dense(const ::oa::ElementwiseParams& p, const aclDataType* dtype, char* const* ptr, \
                   const int64_t* stride, int64_t n, bool stream) {                              \
    ::oa::simd::HWY_NAMESPACE::Elementwise<F>::Dense(p, dtype, ptr, stride, n, stream);          \
  }                                                                                              \
  void Name##Blocks(const ::oa::ElementwiseParams& p, const float* const* in, float* out,        \
                    int64_t n, bool stream) {                                                    \
    ::oa::simd::HWY_NAMESPACE::Elementwise<F>::Blocks(p, in, out, n, stream);                    \
  }                                                                                              \
  double Name##Sum(const ::oa::ElementwiseParams& p, const aclDataType* dtype,                   \
                   const char* const* ptr, int64_t n, double acc) {                              \
    return ::oa::simd::HWY_NAMESPACE::Elementwise<F>::Sum(p, dtype, ptr, n, acc);                \
  }

// Under HWY_ONCE, in the namespace of the OA_ELEMENTWISE_TARGET functions: defines
// `const ::oa::ElementwiseKernels& Name()`, each entry dispatched at its call.
#define OA_ELEMENTWISE_EXPORT(Name)                                                            \
  HWY_EXPORT(Name##Dense);                                                                     \
  HWY_EXPORT(Name##Blocks);                                                                    \
  HWY_EXPORT(Name##Sum);                                                                       \
  const ::oa::ElementwiseKernels& Name() {                                                     \
    static const ::oa::ElementwiseKernels kernels{                                             \
        [](const ::oa::ElementwiseParams& p, const aclDataType* dtype, char* const* ptr,       \
           const int64_t* stride, int64_t n, bool stream) {                                    \
          HWY_DYNAMIC_DISPATCH(Name##Dense)(p, dtype, ptr, stride, n, stream);                 \
        },                                                                                     \
        [](const ::oa::ElementwiseParams& p, const float* const* in, float* out, int64_t n,    \
           bool stream) { HWY_DYNAMIC_DISPATCH(Name##Blocks)                                   \
                          (p, in, out, n, stream); },        \
        [](const ::oa::ElementwiseParams& p, const aclDataType* dtype, const char* const* ptr, \
           int64_t n,                                                                          \
           double acc) { return HWY_DYNAMIC_DISPATCH(Name##Sum)(p, dtype, ptr, n, acc); }};    \
    return kernels;                                                                            \
  }

#endif
