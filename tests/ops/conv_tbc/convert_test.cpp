// The ConvTbc kernels' row conversions: on every SIMD target and on the scalar path, the rows
// equal the core's scalar conversions bit for bit, cubeMathType's operand rounding
// (core/cube_math.h) follows its definition, the scans find what they look for, and the reference's
// results are rounded once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "base/float_convert.h"
#include "core/cube_math.h"
#include "ops/conv/round_once.h"
#include "ops/conv/rows.h"
#include "ops/conv/rows_simd.h"
#include "ops/conv_tbc/tbc_call.h"
#include "simd_targets.h"

namespace tbc_test {
namespace {

using oa::Isa;

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
  oa_test::for_each_simd_target([&] {
    for (Isa isa : {Isa::simd, Isa::scalar}) {
      std::vector<float> row(all.size());
      oa::conv::load_row(isa, reinterpret_cast<const char*>(all.data()), ACL_FLOAT16, 1,
                         static_cast<int64_t>(all.size()), oa::CubeRounding::none, row.data());
      for (size_t i = 0; i < all.size(); ++i) {
        ASSERT_EQ(bits_of(row[i]), bits_of(oa::half_to_float(all[i])))
            << "half 0x" << std::hex << i;
      }
    }
  });
}

TEST(ConvTbcConvert, HalfNarrowingAndRoundingMatchTheCore) {
  const std::vector<float> samples = float_samples();
  const auto n = static_cast<int64_t>(samples.size());
  oa_test::for_each_simd_target([&] {
    for (Isa isa : {Isa::simd, Isa::scalar}) {
      std::vector<uint16_t> narrowed(samples.size());
      oa::conv::store_row(isa, samples.data(), n, ACL_FLOAT16,
                          reinterpret_cast<char*>(narrowed.data()), 1);
      std::vector<float> rounded(samples.size());
      oa::conv::load_row(isa, reinterpret_cast<const char*>(samples.data()), ACL_FLOAT, 1, n,
                         oa::CubeRounding::fp16, rounded.data());
      for (size_t i = 0; i < samples.size(); ++i) {
        const uint16_t expected = oa::float_to_half(samples[i]);
        ASSERT_EQ(narrowed[i], expected) << "float bits 0x" << std::hex << bits_of(samples[i]);
        ASSERT_EQ(bits_of(rounded[i]), bits_of(oa::half_to_float(expected)));
        ASSERT_EQ(bits_of(oa::cube_round(oa::CubeRounding::fp16, samples[i])), bits_of(rounded[i]));
      }
    }
  });
}

TEST(ConvTbcConvert, Bf16NarrowingMatchesTheCore) {
  const std::vector<float> samples = float_samples();
  oa_test::for_each_simd_target([&] {
    for (Isa isa : {Isa::simd, Isa::scalar}) {
      std::vector<uint16_t> out(samples.size());
      oa::conv::store_row(isa, samples.data(), static_cast<int64_t>(samples.size()), ACL_BF16,
                          reinterpret_cast<char*>(out.data()), 1);
      for (size_t i = 0; i < samples.size(); ++i) {
        ASSERT_EQ(out[i], oa::float_to_bf16(samples[i]))
            << "float bits 0x" << std::hex << bits_of(samples[i]);
      }
    }
  });
}

TEST(ConvTbcConvert, Hf32RoundingFollowsItsDefinition) {
  // Normal values: 12 significant bits, nearest-even (the test's frexp-based definition).
  for (uint64_t bits = 0x00800000u; bits < 0x7F800000u; bits += 997) {
    const float x = float_of(static_cast<uint32_t>(bits));
    for (float v : {x, -x}) {
      ASSERT_EQ(static_cast<double>(oa::round_hf32(v)), round_hf32_reference(v))
          << "float bits 0x" << std::hex << bits_of(v);
    }
  }
  EXPECT_EQ(oa::round_hf32(1.0f + 0x1p-12f), 1.0f);                 // tie to even (down)
  EXPECT_EQ(oa::round_hf32(1.0f + 3 * 0x1p-12f), 1.0f + 0x1p-10f);  // tie to even (up)
  EXPECT_EQ(oa::round_hf32(1.0f + 0x1p-11f), 1.0f + 0x1p-11f);      // representable
  EXPECT_TRUE(std::isinf(oa::round_hf32(std::numeric_limits<float>::max())));
  EXPECT_TRUE(std::isnan(oa::round_hf32(std::nanf(""))));
  EXPECT_TRUE(std::isnan(oa::round_hf32(float_of(0x7F800001u))));  // not rounded into Inf
  EXPECT_EQ(oa::round_hf32(-INFINITY), -INFINITY);
  // The rows give the scalar rounding's bits on every target.
  const std::vector<float> samples = float_samples();
  oa_test::for_each_simd_target([&] {
    std::vector<float> row = samples;
    oa::round_floats(oa::CubeRounding::hf32, row.data(), static_cast<int64_t>(row.size()));
    for (size_t i = 0; i < samples.size(); ++i) {
      ASSERT_EQ(bits_of(row[i]), bits_of(oa::round_hf32(samples[i])))
          << "float bits 0x" << std::hex << bits_of(samples[i]);
    }
  });
}

TEST(ConvTbcConvert, CubeMathTypeRoundsOnlyFloatOperands) {
  EXPECT_EQ(oa::cube_rounding(ACL_FLOAT, 0), oa::CubeRounding::none);
  EXPECT_EQ(oa::cube_rounding(ACL_FLOAT, 1), oa::CubeRounding::hf32);
  EXPECT_EQ(oa::cube_rounding(ACL_FLOAT, 2), oa::CubeRounding::fp16);
  EXPECT_EQ(oa::cube_rounding(ACL_FLOAT, 3), oa::CubeRounding::hf32);
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    for (int mode = 0; mode <= 3; ++mode) {
      EXPECT_EQ(oa::cube_rounding(dtype, mode), oa::CubeRounding::none);
    }
  }
}

TEST(ConvTbcConvert, LoadAndStoreEveryDtypeWithStrides) {
  const float values[] = {1.5f, -2.25f, 3.0e-3f, 65504.0f, -0.0f};
  for (Isa isa : {Isa::simd, Isa::scalar}) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      for (int64_t stride : {1, 3}) {
        std::vector<unsigned char> storage(5 * 3 * 4, 0);
        oa::conv::store_row(isa, values, 5, dtype, reinterpret_cast<char*>(storage.data()), stride);
        float back[5];
        oa::conv::load_row(isa, reinterpret_cast<const char*>(storage.data()), dtype, stride, 5,
                           oa::CubeRounding::none, back);
        for (int i = 0; i < 5; ++i) {
          EXPECT_EQ(back[i], static_cast<float>(oa_test::round_to(dtype, values[i])))
              << "dtype " << dtype << " stride " << stride << " element " << i;
        }
        std::vector<double> sums(5, 1.0);
        oa::conv::add_row(isa, reinterpret_cast<const char*>(storage.data()), dtype, stride, 5,
                          sums.data());
        for (int i = 0; i < 5; ++i) {
          EXPECT_EQ(sums[static_cast<size_t>(i)], 1.0 + back[i]);
        }
      }
    }
    for (aclDataType dtype : {ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN}) {
      unsigned char out[5 * 2];
      oa::conv::store_row(isa, values, 5, dtype, reinterpret_cast<char*>(out), 2);
      for (int i = 0; i < 5; ++i) {
        const unsigned char expected =
            dtype == ACL_HIFLOAT8 ? oa::float_to_hif8(values[i]) : oa::float_to_e4m3fn(values[i]);
        EXPECT_EQ(out[2 * i], expected);
      }
    }
  }
}

TEST(ConvTbcConvert, AddRowAddsEveryElementOnEveryTarget) {
  std::vector<float> values(1000);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<float>(i) * 0.75f - 300.0f;
  }
  oa_test::for_each_simd_target([&] {
    for (int64_t n : {1, 7, 257, 1000}) {
      std::vector<double> sums(values.size(), 0.5);
      oa::conv::add_row(Isa::simd, reinterpret_cast<const char*>(values.data()), ACL_FLOAT, 1, n,
                        sums.data());
      for (int64_t i = 0; i < 1000; ++i) {
        ASSERT_EQ(sums[static_cast<size_t>(i)],
                  i < n ? 0.5 + static_cast<double>(values[static_cast<size_t>(i)]) : 0.5)
            << "n " << n << " element " << i;
      }
    }
  });
}

TEST(ConvTbcConvert, ScansFindEveryNonFiniteOrTinyValue) {
  oa_test::for_each_simd_target([] {
    for (int64_t n : {1, 5, 37, 64}) {
      const auto at_list = {int64_t{0}, n / 2, n - 1};
      std::vector<float> row(static_cast<size_t>(n), 1.0f);
      row[0] = std::numeric_limits<float>::max();
      row[static_cast<size_t>(n - 1)] = std::numeric_limits<float>::denorm_min();
      EXPECT_TRUE(oa::conv::all_finite(row.data(), n));
      for (float special : {INFINITY, -INFINITY, std::nanf("")}) {
        for (int64_t at : at_list) {
          std::vector<float> r = row;
          r[static_cast<size_t>(at)] = special;
          EXPECT_FALSE(oa::conv::all_finite(r.data(), n)) << "n " << n << " at " << at;
        }
      }
      // bfloat16: 2^-56 (0x2380) is the smallest magnitude that counts as wide; zeros are wide.
      std::vector<uint16_t> codes(static_cast<size_t>(n), oa::float_to_bf16(1.0f));
      codes[0] = 0x8000;                           // -0
      codes[static_cast<size_t>(n - 1)] = 0xA380;  // -2^-56
      EXPECT_TRUE(oa::conv::bf16_all_wide(codes.data(), n));
      EXPECT_TRUE(oa::conv::bf16_all_finite(codes.data(), n));
      for (int64_t at : at_list) {
        for (uint16_t tiny : {0x0001, 0x237F, 0x8001, 0xA37F}) {
          std::vector<uint16_t> c = codes;
          c[static_cast<size_t>(at)] = tiny;
          EXPECT_FALSE(oa::conv::bf16_all_wide(c.data(), n)) << std::hex << tiny;
          EXPECT_TRUE(oa::conv::bf16_all_finite(c.data(), n));
        }
        for (uint16_t special : {0x7F80, 0xFF80, 0x7FC0, 0x7F81}) {
          std::vector<uint16_t> c = codes;
          c[static_cast<size_t>(at)] = special;
          EXPECT_FALSE(oa::conv::bf16_all_finite(c.data(), n)) << std::hex << special;
          EXPECT_TRUE(oa::conv::bf16_all_wide(c.data(), n));
        }
      }
    }
  });
}

// The reference's results are rounded once from float64: where the float64 result is a hair
// above a tie of the narrow type, rounding it to float32 first would land on the tie.
TEST(ConvTbcConvert, ReferenceResultsRoundOnce) {
  uint16_t bf16 = 0;
  oa::conv::store_result(ACL_BF16, 1.0 + 0x1p-8 + 0x1p-40, &bf16, 0);
  EXPECT_EQ(oa::bf16_to_float(bf16), 1.0f + 0x1p-7f);
  oa::conv::store_result(ACL_BF16, 1.0 + 0x1p-8, &bf16, 0);  // the tie itself: to even
  EXPECT_EQ(oa::bf16_to_float(bf16), 1.0f);
  uint16_t half = 0;
  oa::conv::store_result(ACL_FLOAT16, 1.0 + 0x1p-11 + 0x1p-45, &half, 0);
  EXPECT_EQ(oa::half_to_float(half), 1.0f + 0x1p-10f);
  uint8_t hif8 = 0;
  oa::conv::store_result(ACL_HIFLOAT8, 1.0 + 0x1p-4 - 0x1p-40, &hif8, 0);  // below the tie
  EXPECT_EQ(oa::hif8_to_float(hif8), 1.0f);
  oa::conv::store_result(ACL_HIFLOAT8, 1.0 + 0x1p-4, &hif8, 0);  // the tie: away from zero
  EXPECT_EQ(oa::hif8_to_float(hif8), 1.125f);
  float f = 0;
  oa::conv::store_result(ACL_FLOAT, 1.0 + 0x1p-24 + 0x1p-40, &f, 0);
  EXPECT_EQ(f, 1.0f + 0x1p-23f);
  EXPECT_EQ(oa::conv::round_to_odd(1e300), std::numeric_limits<float>::max());
  EXPECT_TRUE(std::isinf(oa::conv::round_to_odd(-INFINITY)));
  EXPECT_TRUE(std::isnan(oa::conv::round_to_odd(std::nan(""))));
}

}  // namespace
}  // namespace tbc_test
