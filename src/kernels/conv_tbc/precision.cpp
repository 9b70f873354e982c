#include "kernels/conv_tbc/precision.h"

#include <cstring>

#include "kernels/conv_tbc/convert.h"

namespace oa::tbc {
namespace {

// The biased exponent of 2^-56: a nonzero value with a smaller exponent field is too small.
constexpr uint32_t kSmallestExponent = 127 - 56;

}  // namespace

OA_TBC_ROW_LOOP bool copy_bf16_row(const char* src, int64_t stride, int64_t n, uint16_t* dst) {
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

OA_TBC_ROW_LOOP bool bf16_all_wide(const uint16_t* row, int64_t n) {
  // A magnitude m (the bits without the sign) is too small when 0 < m < kSmallestExponent << 7,
  // that is when m - 1 (unsigned: m = 0 wraps) is below (kSmallestExponent << 7) - 1.
  uint16_t too_small = 0;
  for (int64_t i = 0; i < n; ++i) {
    const auto magnitude = static_cast<uint16_t>(row[i] & 0x7FFFu);
    too_small |= static_cast<uint16_t>(static_cast<uint16_t>(magnitude - 1) <
                                       static_cast<uint16_t>((kSmallestExponent << 7) - 1));
  }
  return too_small == 0;
}

OA_TBC_ROW_LOOP bool bf16_all_finite(const uint16_t* row, int64_t n) {
  uint16_t non_finite = 0;
  for (int64_t i = 0; i < n; ++i) {
    non_finite |= static_cast<uint16_t>((row[i] & 0x7F80u) == 0x7F80u);
  }
  return non_finite == 0;
}

PackedRow pack_operand_row(const char* src, aclDataType dtype, int64_t stride, int64_t n,
                           Rounding rounding, Precision precision, void* dst, bool check_finite) {
  PackedRow facts;
  if (precision == Precision::bf16) {
    auto* row = static_cast<uint16_t*>(dst);
    facts.wide = copy_bf16_row(src, stride, n, row);
    facts.finite = !check_finite || bf16_all_finite(row, n);
  } else {
    auto* row = static_cast<float*>(dst);
    load_row(src, dtype, stride, n, rounding, row);
    facts.finite = !check_finite || all_finite(row, n);
  }
  return facts;
}

void zero_operand_row(Precision precision, void* dst, int64_t n) {
  std::memset(dst, 0, static_cast<size_t>(n * operand_bytes(precision)));
}

}  // namespace oa::tbc
