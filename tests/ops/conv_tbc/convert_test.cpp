// The ConvTbc kernels' row conversions: the F16C rows equal the core's scalar conversions bit for
// bit, bfloat16 narrowing equals the core's, HF32 rounding follows its definition, and the
// operand/output paths of every dtype.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/float_convert.h"
#include "kernels/conv_tbc/convert.h"
#include "kernels/conv_tbc/half_rows.h"
#include "ops/conv_tbc/tbc_run.h"

namespace tbc_test {
namespace {

float float_of(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t bits_of(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

// Samples of every float32 region: a stride through all bit patterns, plus the values next to
// every binary16 and bfloat16 rounding boundary (ties included) and the specials.
std::vector<float> float_samples() {
  std::vector<float> out;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 4099) {
    out.push_back(float_of(static_cast<uint32_t>(bits)));
  }
  for (uint32_t h = 0; h < 0x8000u; h += 3) {
    const uint32_t base = bits_of(oa::half_to_float(static_cast<uint16_t>(h)));
    for (uint32_t delta : {0x0FFFu, 0x1000u, 0x1001u, 0x2000u}) {
      out.push_back(float_of(base + delta));
      out.push_back(-float_of(base + delta));
    }
  }
  for (uint32_t high = 0; high < 0x10000u; high += 7) {
    for (uint32_t low : {0x7FFFu, 0x8000u, 0x8001u}) {
      out.push_back(float_of((high << 16) | low));
    }
  }
  for (uint32_t bits : {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu,
                        0x00000001u, 0x80000001u, 0x477FF000u, 0x477FEFFFu, 0x7F7FFFFFu}) {
    out.push_back(float_of(bits));
  }
  return out;
}

TEST(ConvTbcConvert, HalfWideningMatchesTheCore) {
  std::vector<uint16_t> all(65536);
  for (uint32_t i = 0; i < 65536; ++i) {
    all[i] = static_cast<uint16_t>(i);
  }
  std::vector<float> fast(all.size());
  std::vector<float> portable(all.size());
  oa::tbc::half_row_to_float(all.data(), static_cast<int64_t>(all.size()), fast.data());
  oa::tbc::half_row_to_float_portable(all.data(), static_cast<int64_t>(all.size()),
                                      portable.data());
  for (size_t i = 0; i < all.size(); ++i) {
    ASSERT_EQ(bits_of(fast[i]), bits_of(oa::half_to_float(all[i]))) << "half 0x" << std::hex << i;
    ASSERT_EQ(bits_of(portable[i]), bits_of(fast[i]));
  }
}

TEST(ConvTbcConvert, HalfNarrowingAndRoundingMatchTheCore) {
  const std::vector<float> samples = float_samples();
  const auto n = static_cast<int64_t>(samples.size());
  std::vector<uint16_t> fast(samples.size());
  std::vector<uint16_t> portable(samples.size());
  oa::tbc::float_row_to_half(samples.data(), n, fast.data());
  oa::tbc::float_row_to_half_portable(samples.data(), n, portable.data());
  std::vector<float> rounded = samples;
  oa::tbc::round_row_to_half(rounded.data(), n);
  for (size_t i = 0; i < samples.size(); ++i) {
    const uint16_t expected = oa::float_to_half(samples[i]);
    ASSERT_EQ(fast[i], expected) << "float bits 0x" << std::hex << bits_of(samples[i]);
    ASSERT_EQ(portable[i], expected);
    ASSERT_EQ(bits_of(rounded[i]), bits_of(oa::half_to_float(expected)));
  }
}

TEST(ConvTbcConvert, Bf16NarrowingMatchesTheCore) {
  const std::vector<float> samples = float_samples();
  std::vector<uint16_t> out(samples.size());
  oa::tbc::store_row(samples.data(), static_cast<int64_t>(samples.size()), ACL_BF16,
                     reinterpret_cast<char*>(out.data()), 1);
  for (size_t i = 0; i < samples.size(); ++i) {
    ASSERT_EQ(out[i], oa::float_to_bf16(samples[i]))
        << "float bits 0x" << std::hex << bits_of(samples[i]);
  }
}

TEST(ConvTbcConvert, Hf32RoundingFollowsItsDefinition) {
  // Normal values: 12 significant bits, nearest-even (the test's frexp-based definition).
  for (uint64_t bits = 0x00800000u; bits < 0x7F800000u; bits += 997) {
    const float x = float_of(static_cast<uint32_t>(bits));
    for (float v : {x, -x}) {
      ASSERT_EQ(static_cast<double>(oa::tbc::round_hf32(v)), round_hf32_reference(v))
          << "float bits 0x" << std::hex << bits_of(v);
    }
  }
  EXPECT_EQ(oa::tbc::round_hf32(1.0f + 0x1p-12f), 1.0f);                 // tie to even (down)
  EXPECT_EQ(oa::tbc::round_hf32(1.0f + 3 * 0x1p-12f), 1.0f + 0x1p-10f);  // tie to even (up)
  EXPECT_EQ(oa::tbc::round_hf32(1.0f + 0x1p-11f), 1.0f + 0x1p-11f);      // representable
  EXPECT_TRUE(std::isinf(oa::tbc::round_hf32(std::numeric_limits<float>::max())));
  EXPECT_TRUE(std::isnan(oa::tbc::round_hf32(std::nanf(""))));
  EXPECT_TRUE(std::isnan(oa::tbc::round_hf32(float_of(0x7F800001u))));  // not rounded into Inf
  EXPECT_EQ(oa::tbc::round_hf32(-INFINITY), -INFINITY);
}

TEST(ConvTbcConvert, LoadAndStoreEveryDtypeWithStrides) {
  const float values[] = {1.5f, -2.25f, 3.0e-3f, 65504.0f, -0.0f};
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int64_t stride : {1, 3}) {
      std::vector<unsigned char> storage(5 * 3 * 4, 0);
      oa::tbc::store_row(values, 5, dtype, reinterpret_cast<char*>(storage.data()), stride);
      float back[5];
      oa::tbc::load_row(reinterpret_cast<const char*>(storage.data()), dtype, stride, 5,
                        oa::tbc::Rounding::none, back);
      for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(back[i], static_cast<float>(round_to(dtype, values[i])))
            << "dtype " << dtype << " stride " << stride << " element " << i;
      }
      std::vector<double> sums(5, 1.0);
      oa::tbc::add_row(reinterpret_cast<const char*>(storage.data()), dtype, stride, 5,
                       sums.data());
      for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(sums[static_cast<size_t>(i)], 1.0 + back[i]);
      }
    }
  }
  for (aclDataType dtype : {ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN}) {
    unsigned char out[5 * 2];
    oa::tbc::store_row(values, 5, dtype, reinterpret_cast<char*>(out), 2);
    for (int i = 0; i < 5; ++i) {
      const unsigned char expected =
          dtype == ACL_HIFLOAT8 ? oa::float_to_hif8(values[i]) : oa::float_to_e4m3fn(values[i]);
      EXPECT_EQ(out[2 * i], expected);
    }
  }
}

TEST(ConvTbcConvert, AllFiniteFindsEveryNonFiniteValue) {
  std::vector<float> row(37, 1.0f);
  EXPECT_TRUE(oa::tbc::all_finite(row.data(), 37));
  for (float special : {INFINITY, -INFINITY, std::nanf("")}) {
    for (size_t at : {0u, 17u, 36u}) {
      std::vector<float> r = row;
      r[at] = special;
      EXPECT_FALSE(oa::tbc::all_finite(r.data(), 37));
    }
  }
  row[5] = std::numeric_limits<float>::max();
  row[6] = std::numeric_limits<float>::denorm_min();
  EXPECT_TRUE(oa::tbc::all_finite(row.data(), 37));
}

}  // namespace
}  // namespace tbc_test
