#include "core/convert.h"

#include <algorithm>
#include <cstring>

#include "base/float_convert.h"
#include "core/convert_simd.h"

namespace oa {
namespace {

template <typename T, typename Widen>
void gather(const void* src, int64_t stride, int64_t n, float* dst, Widen widen) {
  const T* in = static_cast<const T*>(src);
  if (stride == 0) {
    std::fill(dst, dst + n, widen(in[0]));
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = widen(in[i * stride]);
  }
}

template <typename T, typename Narrow>
void scatter(const float* src, int64_t n, void* dst, int64_t stride, Narrow narrow) {
  T* out = static_cast<T*>(dst);
  for (int64_t i = 0; i < n; ++i) {
    out[i * stride] = narrow(src[i]);
  }
}

float identity(float value) { return value; }
float widen_half(uint16_t bits) { return half_to_float(bits); }
float widen_bf16(uint16_t bits) { return bf16_to_float(bits); }
uint16_t narrow_half(float value) { return float_to_half(value); }
uint16_t narrow_bf16(float value) { return float_to_bf16(value); }

}  // namespace

bool is_float_dtype(aclDataType dtype) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
}

void load_floats(Isa isa, aclDataType dtype, const void* src, int64_t stride, int64_t n,
                 float* dst) {
  bool vector = isa == Isa::simd && stride == 1;
  switch (dtype) {
    case ACL_FLOAT16:
      if (vector) {
        simd::half_to_float(static_cast<const uint16_t*>(src), n, dst);
      } else {
        gather<uint16_t>(src, stride, n, dst, widen_half);
      }
      return;
    case ACL_BF16:
      if (vector) {
        simd::bf16_to_float(static_cast<const uint16_t*>(src), n, dst);
      } else {
        gather<uint16_t>(src, stride, n, dst, widen_bf16);
      }
      return;
    default:
      if (stride == 1) {
        std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(float));
      } else {
        gather<float>(src, stride, n, dst, identity);
      }
      return;
  }
}

void store_floats(Isa isa, aclDataType dtype, const float* src, int64_t n, void* dst,
                  int64_t stride) {
  bool vector = isa == Isa::simd && stride == 1;
  switch (dtype) {
    case ACL_FLOAT16:
      if (vector) {
        simd::float_to_half(src, n, static_cast<uint16_t*>(dst));
      } else {
        scatter<uint16_t>(src, n, dst, stride, narrow_half);
      }
      return;
    case ACL_BF16:
      if (vector) {
        simd::float_to_bf16(src, n, static_cast<uint16_t*>(dst));
      } else {
        scatter<uint16_t>(src, n, dst, stride, narrow_bf16);
      }
      return;
    default:
      if (stride == 1) {
        std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(float));
      } else {
        scatter<float>(src, n, dst, stride, identity);
      }
      return;
  }
}

}  // namespace oa
