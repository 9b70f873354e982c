#include "kernels/conv_tbc/convert.h"

#include <algorithm>
#include <cstring>

#include "core/float_convert.h"
#include "kernels/conv_tbc/half_rows.h"

namespace oa::tbc {
namespace {

uint32_t bits_of(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

float float_of(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

template <typename T>
const T* typed(const char* p) {
  return reinterpret_cast<const T*>(p);
}

template <typename T>
T* typed(char* p) {
  return reinterpret_cast<T*>(p);
}

// Branch-free (so that the compiler vectorises the loops below), and equal to the core's
// float_to_bf16 for every input: round to nearest-even on the low 16 bits, NaN -> 0x7FC0 | sign.
uint16_t bf16_bits(float x) {
  const uint32_t bits = bits_of(x);
  const uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
  const uint32_t nan = ((bits >> 16) & 0x8000u) | 0x7FC0u;
  return static_cast<uint16_t>((bits & 0x7FFFFFFFu) > 0x7F800000u ? nan : rounded);
}

// round_hf32, inlined into the row loops.
float hf32(float x) {
  const uint32_t bits = bits_of(x);
  const uint32_t rounded = (bits + 0x7FFu + ((bits >> 12) & 1u)) & ~0xFFFu;
  return (bits & 0x7FFFFFFFu) > 0x7F800000u ? x : float_of(rounded);
}

OA_TBC_ROW_LOOP void round_row(Rounding rounding, int64_t n, float* row) {
  if (rounding == Rounding::hf32) {
    for (int64_t i = 0; i < n; ++i) {
      row[i] = hf32(row[i]);
    }
  } else if (rounding == Rounding::fp16) {
    round_row_to_half(row, n);
  }
}

}  // namespace

float round_hf32(float x) { return hf32(x); }

OA_TBC_ROW_LOOP void load_row(const char* src, aclDataType dtype, int64_t stride, int64_t n,
                              Rounding rounding, float* dst) {
  switch (dtype) {
    case ACL_FLOAT16: {
      const auto* s = typed<uint16_t>(src);
      if (stride == 1) {
        half_row_to_float(s, n, dst);
      } else {
        for (int64_t i = 0; i < n; ++i) {
          dst[i] = half_to_float(s[i * stride]);
        }
      }
      break;
    }
    case ACL_BF16: {
      const auto* s = typed<uint16_t>(src);
      for (int64_t i = 0; i < n; ++i) {
        dst[i] = float_of(static_cast<uint32_t>(s[i * stride]) << 16);
      }
      break;
    }
    default: {
      const auto* s = typed<float>(src);
      if (stride == 1) {
        std::memcpy(dst, s, static_cast<size_t>(n) * sizeof(float));
      } else {
        for (int64_t i = 0; i < n; ++i) {
          dst[i] = s[i * stride];
        }
      }
      break;
    }
  }
  round_row(rounding, n, dst);
}

OA_TBC_ROW_LOOP void store_row(const float* src, int64_t n, aclDataType dtype, char* dst,
                               int64_t stride) {
  switch (dtype) {
    case ACL_FLOAT16: {
      auto* d = typed<uint16_t>(dst);
      if (stride == 1) {
        float_row_to_half(src, n, d);
      } else {
        for (int64_t i = 0; i < n; ++i) {
          d[i * stride] = float_to_half(src[i]);
        }
      }
      break;
    }
    case ACL_BF16: {
      auto* d = typed<uint16_t>(dst);
      for (int64_t i = 0; i < n; ++i) {
        d[i * stride] = bf16_bits(src[i]);
      }
      break;
    }
    case ACL_HIFLOAT8: {
      auto* d = typed<uint8_t>(dst);
      for (int64_t i = 0; i < n; ++i) {
        d[i * stride] = float_to_hif8(src[i]);
      }
      break;
    }
    case ACL_FLOAT8_E4M3FN: {
      auto* d = typed<uint8_t>(dst);
      for (int64_t i = 0; i < n; ++i) {
        d[i * stride] = float_to_e4m3fn(src[i]);
      }
      break;
    }
    default: {
      auto* d = typed<float>(dst);
      if (stride == 1) {
        std::memcpy(d, src, static_cast<size_t>(n) * sizeof(float));
      } else {
        for (int64_t i = 0; i < n; ++i) {
          d[i * stride] = src[i];
        }
      }
      break;
    }
  }
}

OA_TBC_ROW_LOOP void add_row(const char* src, aclDataType dtype, int64_t stride, int64_t n,
                             double* sums) {
  switch (dtype) {
    case ACL_FLOAT16: {
      const auto* s = typed<uint16_t>(src);
      if (stride != 1) {
        for (int64_t i = 0; i < n; ++i) {
          sums[i] += half_to_float(s[i * stride]);
        }
        break;
      }
      constexpr int64_t kBlock = 256;
      float values[kBlock];
      for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
        const int64_t count = std::min(kBlock, n - i0);
        half_row_to_float(s + i0, count, values);
        for (int64_t i = 0; i < count; ++i) {
          sums[i0 + i] += values[i];
        }
      }
      break;
    }
    case ACL_BF16: {
      const auto* s = typed<uint16_t>(src);
      for (int64_t i = 0; i < n; ++i) {
        sums[i] += float_of(static_cast<uint32_t>(s[i * stride]) << 16);
      }
      break;
    }
    default: {
      const auto* s = typed<float>(src);
      for (int64_t i = 0; i < n; ++i) {
        sums[i] += s[i * stride];
      }
      break;
    }
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

OA_TBC_ROW_LOOP bool all_finite(const float* row, int64_t n) {
  uint32_t non_finite = 0;
  for (int64_t i = 0; i < n; ++i) {
    non_finite |= static_cast<uint32_t>((bits_of(row[i]) & 0x7F800000u) == 0x7F800000u);
  }
  return non_finite == 0;
}

}  // namespace oa::tbc
