#include "ops/conv/precision.h"

#include <cstring>

#include "ops/conv/rows.h"
#include "ops/conv/rows_simd.h"

namespace oa::conv {
bool copy_bf16_row(const char* src, int64_t stride, int64_t n, uint16_t* dst) {
  const auto* s = reinterpret_cast<const uint16_t*>(src);
  if (stride == 1) {
    std::memcpy(dst, s, static_cast<size_t>(n) * sizeof(uint16_t));
  } else {
    for (int64_t i = 0; i < n; ++i) {
      dst[i] = s[i * stride];
    }
  }
  return bf16_all_wide(dst, n);
}

PackedRow pack_operand_row(Isa isa, const char* src, aclDataType dtype, int64_t stride, int64_t n,
                           CubeRounding rounding, Precision precision, void* dst,
                           bool check_finite) {
  PackedRow facts;
  if (precision == Precision::bf16) {
    auto* row = static_cast<uint16_t*>(dst);
    facts.wide = copy_bf16_row(src, stride, n, row);
    facts.finite = !check_finite || bf16_all_finite(row, n);
  } else {
    auto* row = static_cast<float*>(dst);
    load_row(isa, src, dtype, stride, n, rounding, row);
    facts.finite = !check_finite || all_finite(row, n);
  }
  return facts;
}

void zero_operand_row(Precision precision, void* dst, int64_t n) {
  std::memset(dst, 0, static_cast<size_t>(n * operand_bytes(precision)));
}

}  // namespace oa::conv
