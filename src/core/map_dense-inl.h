// The elementwise engine's register path for Highway kernels, included once per target (the
// usual Highway toggle guard): a strip whose operands are contiguous (or, for an input, one value
// along the strip), of any FLOAT, FLOAT16 and BF16 mix, is widened and narrowed a vector at a
// time, with no float32 blocks in between.
#if defined(OA_CORE_MAP_DENSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef OA_CORE_MAP_DENSE_INL_H_
#undef OA_CORE_MAP_DENSE_INL_H_
#else
#define OA_CORE_MAP_DENSE_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>
#include <cstring>

#include "acl/acl_base.h"
#include "core/convert.h"
#include "core/convert_simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace oa::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// MapDense with every operand's dtype known at compile time (kAll), or read from dtype at run time
// (kAll = ACL_DT_UNDEFINED: a switch per vector and operand, which goes the same way every time),
// and with kBroadcast when some input may be one value (stride 0): such an input is read from a
// vector's worth of copies of its element, at index i & 0, so that the loop has no branch on it.
// Flattened: GCC otherwise left the kernel's vector_op out of line, a call per vector that reloads
// its constants (SmoothL1 backward, 16M elements, 2 threads, in-process A/B: 1.12-1.13x on mixed
// dtypes, 1.03-1.07x on bfloat16, 1.02-1.04x on float32, float16 unchanged).
template <int Inputs, aclDataType kAll, bool kBroadcast, class D, class VectorOp, class ScalarOp>
HWY_FLATTEN void MapDenseAs(D df, const aclDataType* dtype, char* const* ptr, const int64_t* stride,
                            int64_t n, bool stream, const VectorOp& vector_op,
                            const ScalarOp& scalar_op) {
  const auto lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto type = [&](int o) { return kAll == ACL_DT_UNDEFINED ? dtype[o] : kAll; };
  // Input k's elements and the mask its indices are taken with.
  const char* input[Inputs];
  int64_t mask[Inputs];
  alignas(HWY_MAX_BYTES) char copies[Inputs][HWY_MAX_BYTES];
  for (int k = 0; k < Inputs; ++k) {
    input[k] = ptr[k + 1];
    mask[k] = -1;
    if (kBroadcast && stride[k + 1] == 0) {
      const int64_t size = type(k + 1) == ACL_FLOAT ? 4 : 2;
      for (int64_t at = 0; at < HWY_MAX_BYTES; at += size) {
        std::memcpy(copies[k] + at, ptr[k + 1], static_cast<size_t>(size));
      }
      input[k] = copies[k];
      mask[k] = 0;
    }
  }
  const auto index = [&](int k, int64_t i) { return kBroadcast ? i & mask[k] : i; };
  const auto element = [&](int64_t i) {
    const auto in = [&](int k) { return load_float(type(k + 1), input[k], index(k, i)); };
    store_float(type(0), scalar_op(in), ptr[0], i);
  };
  // Operands far larger than the caches: the inputs are prefetched (a one-value input's prefetch
  // lands in this thread's stack: harmless, and cheaper than a branch).
  const bool prefetch = stream;
  const auto prefetch_inputs = [&](int64_t at) {
    for (int k = 0; k < Inputs; ++k) {
      PrefetchAhead(input[k], index(k, at), type(k + 1) == ACL_FLOAT ? 4 : 2);
    }
  };
  float* out = reinterpret_cast<float*>(ptr[0]);
  stream = stream && type(0) == ACL_FLOAT;
  const int64_t head = stream ? StreamHead(df, out, n) : 0;
  int64_t i = 0;
  for (; i < head; ++i) {
    element(i);
  }
  stream = stream && reinterpret_cast<uintptr_t>(out + i) % (lanes * sizeof(float)) == 0;
  // Input k widened from element `at`, and the vector stored at element `at`.
  const auto inputs_at = [&](int64_t at) {
    return [&, at](int k) { return LoadAsFloat(df, type(k + 1), input[k], index(k, at)); };
  };
  const auto put = [&](hn::Vec<D> v, int64_t at) {
    if (stream) {
      hn::Stream(v, df, out + at);
    } else {
      StoreFromFloat(df, v, type(0), ptr[0], at);
    }
  };
  // Stored normally, two vectors a step, so that the second's loads start before the first is
  // stored: 1.03-1.10x on all-bfloat16 in 8 of 9 side-by-side runs (0.98x in the ninth).
  // Streamed (float32), two a step was 0.92-0.98x, so it keeps one.
  for (; !stream && i + 2 * lanes <= n; i += 2 * lanes) {
    if (prefetch) {
      prefetch_inputs(i);
    }
    const auto first = vector_op(inputs_at(i));
    const auto second = vector_op(inputs_at(i + lanes));
    StorePairFromFloat(df, first, second, type(0), ptr[0], i);
  }
  for (; i + lanes <= n; i += lanes) {
    if (prefetch) {
      prefetch_inputs(i);
    }
    put(vector_op(inputs_at(i)), i);
  }
  for (; i < n; ++i) {
    element(i);
  }
}

// ptr[0][i] = op(ptr[1][i], ..., ptr[Inputs][i]) for i < n, the output contiguous, each input
// contiguous (stride[k] 1) or one value for every i (stride[k] 0), of dtype[o].
// vector_op(in) and scalar_op(in) compute one vector or one element from in(k), input k widened;
// they must round alike. stream says the operands are far larger than the caches: the inputs are
// then prefetched, and a FLOAT output is written with streaming stores (a 16-bit one never: on
// this project's machines that was slower than storing it normally).
template <int Inputs, class D, class VectorOp, class ScalarOp>
void MapDense(D df, const aclDataType* dtype, char* const* ptr, const int64_t* stride, int64_t n,
              bool stream, const VectorOp& vector_op, const ScalarOp& scalar_op) {
  bool broadcast = false;
  for (int k = 1; k <= Inputs; ++k) {
    broadcast = broadcast || stride[k] == 0;
  }
  WithCommonDtype(dtype, Inputs + 1, [&](auto all) {
    constexpr aclDataType kAll = decltype(all)::value;
    if (broadcast) {
      MapDenseAs<Inputs, kAll, true>(df, dtype, ptr, stride, n, stream, vector_op, scalar_op);
    } else {
      MapDenseAs<Inputs, kAll, false>(df, dtype, ptr, stride, n, stream, vector_op, scalar_op);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace oa::simd
HWY_AFTER_NAMESPACE();

#endif
