// The SIMD conversions, on every SIMD target the CPU has. Narrowing: the same codes as the scalar
// conversions of float_convert.h, written exactly where asked for every length and alignment
// around one and two vector widths (bfloat16 is narrowed two vectors at a time), and
// stream_and_clear's source zeroed. Widening: the same bits for every code.
#include "core/convert_simd.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "base/float_convert.h"
#include "core/convert.h"
#include "simd_targets.h"

namespace {

constexpr uint8_t kGuard = 0xA5;
constexpr int64_t kMargin = 64;

float float_of(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Values that stress rounding: specials, NaNs with payloads, ties for both 16-bit formats,
// subnormals, and random bit patterns.
std::vector<float> test_values(int64_t n, std::mt19937& rng) {
  const std::vector<float> specials = {0.0f,
                                       -0.0f,
                                       std::numeric_limits<float>::infinity(),
                                       -std::numeric_limits<float>::infinity(),
                                       float_of(0x7FC00000u),
                                       float_of(0xFF812345u),
                                       float_of(0x7F800001u),
                                       float_of(0x3F808000u),  // a bfloat16 tie, to even (down)
                                       float_of(0x3F818000u),  // a bfloat16 tie, to even (up)
                                       float_of(0x3F801000u),  // a float16 tie
                                       1e-40f,
                                       -3e-39f,
                                       65520.0f,
                                       3.4e38f};
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    values[i] = i % 3 == 0 ? specials[(i / 3) % specials.size()] : float_of(rng());
  }
  return values;
}

void check_stream(aclDataType dtype, int64_t offset, int64_t n, std::mt19937& rng) {
  SCOPED_TRACE("dtype " + std::to_string(dtype) + ", offset " + std::to_string(offset) +
               " elements, n " + std::to_string(n));
  const int64_t size = dtype == ACL_FLOAT ? 4 : 2;
  std::vector<uint8_t> buffer(static_cast<size_t>(2 * kMargin + (offset + n) * size), kGuard);
  const auto base = reinterpret_cast<uintptr_t>(buffer.data());
  // offset elements past a 64-byte boundary.
  uint8_t* dst = buffer.data() + (64 - base % 64) % 64 + kMargin / 2 + offset * size;
  const std::vector<float> values = test_values(n, rng);
  std::vector<float> src = values;
  oa::simd::stream_and_clear(src.data(), n, dtype, dst);

  std::vector<uint8_t> expected(static_cast<size_t>(n * size));
  for (int64_t i = 0; i < n; ++i) {
    oa::store_float(dtype, values[i], expected.data(), i);
  }
  for (int64_t i = 0; i < static_cast<int64_t>(buffer.size()); ++i) {
    const int64_t at = i - (dst - buffer.data());
    const bool inside = at >= 0 && at < n * size;
    ASSERT_EQ(buffer[i], inside ? expected[at] : kGuard) << "byte " << at << " from dst";
  }
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(src[i], 0.0f) << "src element " << i;
    ASSERT_FALSE(std::signbit(src[i])) << "src element " << i;
  }
}

TEST(StreamAndClear, SameCodesAsTheScalarConversions) {
  std::mt19937 rng(3);
  oa_test::for_each_simd_target([&] {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      for (int64_t offset : {0, 1, 2, 5, 7, 8, 15, 16, 17}) {
        for (int64_t n : {0, 1, 7, 15, 16, 17, 31, 32, 33, 47, 100, 1000}) {
          check_stream(dtype, offset, n, rng);
        }
      }
    }
  });
}

// float_to_half and float_to_bf16 over n values into codes that start offset codes past a 64-byte
// boundary, against float_convert.h's scalar conversions; the codes around them stay untouched.
void check_narrow(aclDataType dtype, int64_t offset, int64_t n, std::mt19937& rng) {
  SCOPED_TRACE("dtype " + std::to_string(dtype) + ", offset " + std::to_string(offset) +
               " codes, n " + std::to_string(n));
  std::vector<uint16_t> buffer(static_cast<size_t>(2 * kMargin + offset + n), 0xA5A5);
  const auto misalignment = reinterpret_cast<uintptr_t>(buffer.data()) % 64 / sizeof(uint16_t);
  uint16_t* dst = buffer.data() + (32 - misalignment) % 32 + offset;
  const std::vector<float> values = test_values(n, rng);
  if (dtype == ACL_FLOAT16) {
    oa::simd::float_to_half(values.data(), n, dst);
  } else {
    oa::simd::float_to_bf16(values.data(), n, dst);
  }
  for (int64_t i = 0; i < static_cast<int64_t>(buffer.size()); ++i) {
    const int64_t at = i - (dst - buffer.data());
    uint16_t expected = 0xA5A5;
    if (at >= 0 && at < n) {
      expected =
          dtype == ACL_FLOAT16 ? oa::float_to_half(values[at]) : oa::float_to_bf16(values[at]);
    }
    ASSERT_EQ(buffer[i], expected) << "code " << at << " from dst";
  }
}

TEST(Narrowing, SameCodesAsTheScalarConversions) {
  std::mt19937 rng(5);
  oa_test::for_each_simd_target([&] {
    for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
      for (int64_t offset : {0, 1, 3, 16, 31}) {
        for (int64_t n : {0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 1000}) {
          check_narrow(dtype, offset, n, rng);
        }
      }
    }
  });
}

// half_to_float and bf16_to_float: every 16-bit code, at every start around the vector width,
// widened to the same float32 bits as the scalar conversions.
TEST(Widening, SameBitsAsTheScalarConversions) {
  std::vector<uint16_t> codes(65536 + 64);
  for (size_t i = 0; i < codes.size(); ++i) {
    codes[i] = static_cast<uint16_t>(i);
  }
  oa_test::for_each_simd_target([&] {
    for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
      for (int64_t start : {0, 1, 7, 33}) {
        SCOPED_TRACE("dtype " + std::to_string(dtype) + ", start " + std::to_string(start));
        const int64_t n = 65536;
        std::vector<float> out(static_cast<size_t>(n));
        if (dtype == ACL_FLOAT16) {
          oa::simd::half_to_float(codes.data() + start, n, out.data());
        } else {
          oa::simd::bf16_to_float(codes.data() + start, n, out.data());
        }
        for (int64_t i = 0; i < n; ++i) {
          const uint16_t code = codes[start + i];
          const float expected =
              dtype == ACL_FLOAT16 ? oa::half_to_float(code) : oa::bf16_to_float(code);
          uint32_t got_bits;
          uint32_t expected_bits;
          std::memcpy(&got_bits, &out[i], 4);
          std::memcpy(&expected_bits, &expected, 4);
          ASSERT_EQ(got_bits, expected_bits) << "code " << code;
        }
      }
    }
  });
}

}  // namespace
