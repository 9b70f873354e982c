#include "ops/conv/rows.h"

#include <algorithm>
#include <cstring>

#include "ops/conv/rows_simd.h"

namespace oa::conv {

void load_row(Isa isa, const char* src, aclDataType dtype, int64_t stride, int64_t n,
              CubeRounding rounding, float* dst) {
  load_floats(isa, dtype, src, stride, n, dst);
  round_floats(rounding, dst, n);
}

void store_row(Isa isa, const float* src, int64_t n, aclDataType dtype, char* dst, int64_t stride) {
  if (is_float_dtype(dtype)) {
    store_floats(isa, dtype, src, n, dst, stride);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    store_value(dtype, src[i], dst, i * stride);
  }
}

void add_row(Isa isa, const char* src, aclDataType dtype, int64_t stride, int64_t n, double* sums) {
  if (dtype == ACL_FLOAT && stride == 1) {
    add_floats(reinterpret_cast<const float*>(src), n, sums);
    return;
  }
  constexpr int64_t kBlock = 256;
  const int64_t element = dtype == ACL_FLOAT ? 4 : 2;
  float values[kBlock];
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t count = std::min(kBlock, n - i0);
    load_floats(isa, dtype, src + i0 * stride * element, stride, count, values);
    add_floats(values, count, sums + i0);
  }
}

void zero_row(char* dst, int64_t n, int64_t stride, int64_t element_bytes) {
  if (stride == 1) {
    std::memset(dst, 0, static_cast<size_t>(n * element_bytes));
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    std::memset(dst + i * stride * element_bytes, 0, static_cast<size_t>(element_bytes));
  }
}

}  // namespace oa::conv
