// Exhaustive tests of the scalar float conversions (SPEC section 4).
//
// Every decoder is checked against an independent decoder written here from the field
// definitions (std::ldexp on the fields, or a bit-by-bit prefix reader for HiFloat8). Every
// encoder is checked against a brute-force oracle: the nearest entry of the sorted list of all
// representable values, with the format's tie rule. For half, GCC's _Float16 conversion (RNE in
// libgcc) is a second reference where the compiler provides it.

#include "base/float_convert.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

float up(float f) { return std::nextafter(f, std::numeric_limits<float>::infinity()); }
float down(float f) { return std::nextafter(f, -std::numeric_limits<float>::infinity()); }

const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

// Expects bit-identical floats, or NaN against NaN.
::testing::AssertionResult same_float(float actual, double expected) {
  if (std::isnan(expected)) {
    if (std::isnan(actual)) {
      return ::testing::AssertionSuccess();
    }
  } else if (bits_of(actual) == bits_of(static_cast<float>(expected)) &&
             static_cast<double>(static_cast<float>(expected)) == expected) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "got " << actual << " (0x" << std::hex << bits_of(actual) << "), expected " << expected;
}

enum class Tie { kEvenCode, kAwayFromZero };

struct Entry {
  double value;
  uint32_t code;
};

// Rounds a magnitude to the nearest entry of a list of non-negative representable values.
// A magnitude above the largest entry maps to it (used for saturation, or for an Inf entry placed
// at the value the next code would have had).
class NearestOracle {
 public:
  NearestOracle(std::vector<Entry> entries, Tie tie) : entries_(std::move(entries)), tie_(tie) {
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.value < b.value; });
  }

  uint32_t round(double mag) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), mag,
                               [](const Entry& e, double v) { return e.value < v; });
    if (it == entries_.end()) {
      return entries_.back().code;
    }
    if (it->value == mag || it == entries_.begin()) {
      return it->code;
    }
    const Entry& lo = *(it - 1);
    const Entry& hi = *it;
    const double mid = (lo.value + hi.value) / 2;  // exact: neighbours have close exponents
    if (mag < mid) {
      return lo.code;
    }
    if (mag > mid) {
      return hi.code;
    }
    if (tie_ == Tie::kAwayFromZero) {
      return hi.code;
    }
    return (lo.code & 1u) == 0 ? lo.code : hi.code;
  }

  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
  Tie tie_;
};

// Compares an encoder with its oracle on inputs that stress it: a stride over every bit
// pattern, a dense stride over the binades [2^lo_exp, 2^hi_exp) of both signs, and random
// patterns. Stops at the first mismatch.
template <typename Got, typename Expected>
void sweep_floats(int lo_exp, int hi_exp, Got got, Expected expected) {
  auto check = [&](float x) {
    const uint32_t g = got(x);
    const uint32_t e = expected(x);
    if (g == e) {
      return true;
    }
    ADD_FAILURE() << "x=" << x << " (bits 0x" << std::hex << bits_of(x) << "): got 0x" << g
                  << ", expected 0x" << e;
    return false;
  };
  for (uint64_t u = 0; u <= 0xFFFFFFFFull; u += 1021) {
    if (!check(float_of(static_cast<uint32_t>(u)))) {
      return;
    }
  }
  const uint32_t lo = static_cast<uint32_t>(127 + lo_exp) << 23;
  const uint32_t hi = static_cast<uint32_t>(127 + hi_exp) << 23;
  for (uint32_t u = lo; u < hi; u += 37) {
    if (!check(float_of(u)) || !check(float_of(u | 0x80000000u))) {
      return;
    }
  }
  std::mt19937 rng(12345);
  std::uniform_int_distribution<uint32_t> any;
  std::uniform_int_distribution<uint32_t> in_range(lo, hi);
  for (int i = 0; i < 1000000; ++i) {
    if (!check(float_of(any(rng)))) {
      return;
    }
    if (!check(float_of(in_range(rng) | (any(rng) & 0x80000000u)))) {
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// IEEE binary16

double half_reference(uint16_t h) {
  const int sign = h >> 15;
  const int exp = (h >> 10) & 0x1F;
  const int mant = h & 0x3FF;
  double v;
  if (exp == 31) {
    v = mant == 0 ? std::numeric_limits<double>::infinity() : std::nan("");
  } else if (exp == 0) {
    v = std::ldexp(mant, -24);
  } else {
    v = std::ldexp(1024 + mant, exp - 25);
  }
  return sign ? -v : v;
}

bool half_is_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; }

const NearestOracle& half_oracle() {
  static const NearestOracle oracle = [] {
    std::vector<Entry> e;
    for (uint32_t c = 0; c < 0x7C00; ++c) {
      e.push_back({half_reference(static_cast<uint16_t>(c)), c});
    }
    e.push_back({65536.0, 0x7C00});  // Inf takes the slot of 2^16
    return NearestOracle(std::move(e), Tie::kEvenCode);
  }();
  return oracle;
}

uint16_t half_expected(float x) {
  const uint32_t sign = (bits_of(x) >> 16) & 0x8000u;
  if (std::isnan(x)) {
    return static_cast<uint16_t>(sign | 0x7E00u);
  }
  return static_cast<uint16_t>(sign | half_oracle().round(std::fabs(static_cast<double>(x))));
}

TEST(FloatConvertHalf, DecodesAllPatterns) {
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const uint16_t h = static_cast<uint16_t>(c);
    const float f = oa::half_to_float(h);
    ASSERT_TRUE(same_float(f, half_reference(h))) << "half 0x" << std::hex << c;
    ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << std::hex << c;
    if (half_is_nan(h)) {
      // Contract: sign and payload kept, result quiet.
      ASSERT_EQ(bits_of(f), (static_cast<uint32_t>(h & 0x8000) << 16) | 0x7FC00000u |
                                (static_cast<uint32_t>(h & 0x3FF) << 13))
          << std::hex << c;
    }
#ifdef __FLT16_MAX__
    _Float16 g;
    std::memcpy(&g, &h, sizeof(g));
    if (!half_is_nan(h)) {
      ASSERT_EQ(bits_of(f), bits_of(static_cast<float>(g))) << std::hex << c;
    }
#endif
  }
}

TEST(FloatConvertHalf, RoundTripsAllPatterns) {
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const uint16_t h = static_cast<uint16_t>(c);
    const uint16_t back = oa::float_to_half(oa::half_to_float(h));
    if (half_is_nan(h)) {
      ASSERT_EQ(back, (h & 0x8000) | 0x7E00) << std::hex << c;
    } else {
      ASSERT_EQ(back, h) << std::hex << c;
    }
  }
}

TEST(FloatConvertHalf, TiesToEvenBetweenEveryAdjacentPair) {
  for (uint32_t c = 0; c < 0x7BFF; ++c) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const uint16_t lo = static_cast<uint16_t>(sign | c);
      const uint16_t hi = static_cast<uint16_t>(sign | (c + 1));
      const float mid = static_cast<float>((half_reference(lo) + half_reference(hi)) / 2);
      ASSERT_EQ(oa::float_to_half(mid), (c & 1u) ? hi : lo) << std::hex << c;
      const bool positive = sign == 0;
      ASSERT_EQ(oa::float_to_half(positive ? up(mid) : down(mid)), hi) << std::hex << c;
      ASSERT_EQ(oa::float_to_half(positive ? down(mid) : up(mid)), lo) << std::hex << c;
    }
  }
}

TEST(FloatConvertHalf, RoundingExamples) {
  EXPECT_EQ(oa::float_to_half(1.0f + 0x1p-11f), 0x3C00);      // tie, 1.0 is even
  EXPECT_EQ(oa::float_to_half(1.0f + 3 * 0x1p-11f), 0x3C02);  // tie, up to even
  EXPECT_EQ(oa::float_to_half(2049.0f), 0x6800);              // step 2 at 2048: tie to 2048
  EXPECT_EQ(oa::float_to_half(2051.0f), 0x6802);              // tie to 2052
  EXPECT_EQ(oa::float_to_half(-2051.0f), 0xE802);
  EXPECT_EQ(oa::float_to_half(0.1f), 0x2E66);
  EXPECT_EQ(oa::float_to_half(3.14159265f), 0x4248);
}

TEST(FloatConvertHalf, Boundaries) {
  EXPECT_EQ(oa::float_to_half(65504.0f), 0x7BFF);
  EXPECT_EQ(oa::float_to_half(65519.99f), 0x7BFF);
  EXPECT_EQ(oa::float_to_half(down(65520.0f)), 0x7BFF);
  EXPECT_EQ(oa::float_to_half(65520.0f), 0x7C00);  // tie between 0x7BFF (odd) and Inf
  EXPECT_EQ(oa::float_to_half(-65520.0f), 0xFC00);
  EXPECT_EQ(oa::float_to_half(FLT_MAX), 0x7C00);
  EXPECT_EQ(oa::float_to_half(kInf), 0x7C00);
  EXPECT_EQ(oa::float_to_half(-kInf), 0xFC00);
  EXPECT_EQ(oa::float_to_half(kNan), 0x7E00);
  EXPECT_EQ(oa::float_to_half(-kNan), 0xFE00);
  EXPECT_EQ(oa::float_to_half(float_of(0x7F800001u)), 0x7E00);  // signalling NaN
  EXPECT_EQ(oa::float_to_half(float_of(0xFFFFFFFFu)), 0xFE00);
  EXPECT_EQ(oa::float_to_half(0.0f), 0x0000);
  EXPECT_EQ(oa::float_to_half(-0.0f), 0x8000);
  // Subnormal range.
  EXPECT_EQ(oa::float_to_half(0x1p-24f), 0x0001);
  EXPECT_EQ(oa::float_to_half(0x1p-25f), 0x0000);  // tie to even zero
  EXPECT_EQ(oa::float_to_half(-0x1p-25f), 0x8000);
  EXPECT_EQ(oa::float_to_half(up(0x1p-25f)), 0x0001);
  EXPECT_EQ(oa::float_to_half(-up(0x1p-25f)), 0x8001);
  EXPECT_EQ(oa::float_to_half(down(0x1p-25f)), 0x0000);
  EXPECT_EQ(oa::float_to_half(3 * 0x1p-25f), 0x0002);
  EXPECT_EQ(oa::float_to_half(5 * 0x1p-25f), 0x0002);
  EXPECT_EQ(oa::float_to_half(1023 * 0x1p-24f), 0x03FF);
  EXPECT_EQ(oa::float_to_half(1023.5f * 0x1p-24f), 0x0400);  // tie into the smallest normal
  EXPECT_EQ(oa::float_to_half(down(1023.5f * 0x1p-24f)), 0x03FF);
  EXPECT_EQ(oa::float_to_half(0x1p-14f), 0x0400);
  EXPECT_EQ(oa::float_to_half(1e-30f), 0x0000);
  EXPECT_EQ(oa::float_to_half(-1e-30f), 0x8000);
  EXPECT_EQ(oa::float_to_half(float_of(1)), 0x0000);  // float subnormal
  EXPECT_EQ(oa::half_to_float(0x0001), 0x1p-24f);
  EXPECT_EQ(oa::half_to_float(0x7BFF), 65504.0f);
}

TEST(FloatConvertHalf, EncodesLikeTheOracle) {
  sweep_floats(
      -26, 17, [](float x) { return oa::float_to_half(x); },
      [](float x) { return half_expected(x); });
#ifdef __FLT16_MAX__
  // Second reference: GCC's conversion (libgcc, round to nearest even).
  sweep_floats(
      -26, 17, [](float x) { return oa::float_to_half(x); },
      [](float x) -> uint16_t {
        if (std::isnan(x)) return (bits_of(x) >> 16 & 0x8000u) | 0x7E00u;
        const _Float16 g = static_cast<_Float16>(x);
        uint16_t ref;
        std::memcpy(&ref, &g, sizeof(ref));
        return ref;
      });
#endif
}

// ---------------------------------------------------------------------------------------------
// bfloat16

double bf16_reference(uint16_t h) {
  const int sign = h >> 15;
  const int exp = (h >> 7) & 0xFF;
  const int mant = h & 0x7F;
  double v;
  if (exp == 255) {
    v = mant == 0 ? std::numeric_limits<double>::infinity() : std::nan("");
  } else if (exp == 0) {
    v = std::ldexp(mant, -133);
  } else {
    v = std::ldexp(128 + mant, exp - 134);
  }
  return sign ? -v : v;
}

bool bf16_is_nan(uint16_t h) { return (h & 0x7F80) == 0x7F80 && (h & 0x7F) != 0; }

const NearestOracle& bf16_oracle() {
  static const NearestOracle oracle = [] {
    std::vector<Entry> e;
    for (uint32_t c = 0; c < 0x7F80; ++c) {
      e.push_back({bf16_reference(static_cast<uint16_t>(c)), c});
    }
    e.push_back({std::ldexp(1.0, 128), 0x7F80});  // Inf takes the slot of 2^128
    return NearestOracle(std::move(e), Tie::kEvenCode);
  }();
  return oracle;
}

uint16_t bf16_expected(float x) {
  const uint32_t sign = (bits_of(x) >> 16) & 0x8000u;
  if (std::isnan(x)) {
    return static_cast<uint16_t>(sign | 0x7FC0u);
  }
  return static_cast<uint16_t>(sign | bf16_oracle().round(std::fabs(static_cast<double>(x))));
}

TEST(FloatConvertBf16, DecodesAllPatterns) {
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const uint16_t h = static_cast<uint16_t>(c);
    const float f = oa::bf16_to_float(h);
    ASSERT_TRUE(same_float(f, bf16_reference(h))) << "bf16 0x" << std::hex << c;
    ASSERT_EQ(bits_of(f), c << 16) << std::hex << c;  // exact, NaN payload included
  }
}

TEST(FloatConvertBf16, RoundTripsAllPatterns) {
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const uint16_t h = static_cast<uint16_t>(c);
    const uint16_t back = oa::float_to_bf16(oa::bf16_to_float(h));
    if (bf16_is_nan(h)) {
      ASSERT_EQ(back, (h & 0x8000) | 0x7FC0) << std::hex << c;
    } else {
      ASSERT_EQ(back, h) << std::hex << c;
    }
  }
}

TEST(FloatConvertBf16, TiesToEvenBetweenEveryAdjacentPair) {
  for (uint32_t c = 0; c < 0x7F7F; ++c) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const uint16_t lo = static_cast<uint16_t>(sign | c);
      const uint16_t hi = static_cast<uint16_t>(sign | (c + 1));
      const float mid = static_cast<float>((bf16_reference(lo) + bf16_reference(hi)) / 2);
      ASSERT_EQ(oa::float_to_bf16(mid), (c & 1u) ? hi : lo) << std::hex << c;
      const bool positive = sign == 0;
      ASSERT_EQ(oa::float_to_bf16(positive ? up(mid) : down(mid)), hi) << std::hex << c;
      ASSERT_EQ(oa::float_to_bf16(positive ? down(mid) : up(mid)), lo) << std::hex << c;
    }
  }
}

TEST(FloatConvertBf16, Boundaries) {
  EXPECT_EQ(oa::float_to_bf16(1.0f), 0x3F80);
  EXPECT_EQ(oa::float_to_bf16(float_of(0x3F808000u)), 0x3F80);  // tie, even
  EXPECT_EQ(oa::float_to_bf16(float_of(0x3F818000u)), 0x3F82);  // tie, up to even
  EXPECT_EQ(oa::float_to_bf16(float_of(0x7F7F7FFFu)), 0x7F7F);
  EXPECT_EQ(oa::float_to_bf16(float_of(0x7F7F8000u)), 0x7F80);  // tie past max finite: Inf
  EXPECT_EQ(oa::float_to_bf16(FLT_MAX), 0x7F80);
  EXPECT_EQ(oa::float_to_bf16(-FLT_MAX), 0xFF80);
  EXPECT_EQ(oa::float_to_bf16(kInf), 0x7F80);
  EXPECT_EQ(oa::float_to_bf16(-kInf), 0xFF80);
  EXPECT_EQ(oa::float_to_bf16(kNan), 0x7FC0);
  EXPECT_EQ(oa::float_to_bf16(-kNan), 0xFFC0);
  EXPECT_EQ(oa::float_to_bf16(float_of(0x7F800001u)), 0x7FC0);  // NaN must not become Inf
  EXPECT_EQ(oa::float_to_bf16(float_of(0x7FFFFFFFu)), 0x7FC0);  // NaN must not wrap
  EXPECT_EQ(oa::float_to_bf16(0.0f), 0x0000);
  EXPECT_EQ(oa::float_to_bf16(-0.0f), 0x8000);
  EXPECT_EQ(oa::float_to_bf16(float_of(0x00008000u)), 0x0000);  // subnormal tie to even zero
  EXPECT_EQ(oa::float_to_bf16(float_of(0x00008001u)), 0x0001);
  EXPECT_EQ(oa::float_to_bf16(float_of(0x007FFFFFu)), 0x0080);  // into the smallest normal
}

TEST(FloatConvertBf16, EncodesLikeTheOracle) {
  sweep_floats(
      -20, 20, [](float x) { return oa::float_to_bf16(x); },
      [](float x) { return bf16_expected(x); });
}

// ---------------------------------------------------------------------------------------------
// FLOAT8_E4M3FN: 1 sign, 4 exponent bits (bias 7), 3 mantissa bits; exponent 0 is subnormal;
// 0x7F/0xFF are NaN; no infinities.

double e4m3fn_reference(uint8_t c) {
  const int sign = c >> 7;
  const int exp = (c >> 3) & 0xF;
  const int mant = c & 0x7;
  double v;
  if (exp == 15 && mant == 7) {
    v = std::nan("");
  } else if (exp == 0) {
    v = std::ldexp(mant / 8.0, 1 - 7);
  } else {
    v = std::ldexp(1 + mant / 8.0, exp - 7);
  }
  return sign ? -v : v;
}

const NearestOracle& e4m3fn_oracle() {
  static const NearestOracle oracle = [] {
    std::vector<Entry> e;
    for (uint32_t c = 0; c <= 0x7E; ++c) {
      e.push_back({e4m3fn_reference(static_cast<uint8_t>(c)), c});
    }
    return NearestOracle(std::move(e), Tie::kEvenCode);  // above 448: saturates to 0x7E
  }();
  return oracle;
}

uint8_t e4m3fn_expected(float x) {
  if (std::isnan(x)) {
    return 0x7F;
  }
  const uint32_t sign = (bits_of(x) >> 24) & 0x80u;
  return static_cast<uint8_t>(sign | e4m3fn_oracle().round(std::fabs(static_cast<double>(x))));
}

TEST(FloatConvertE4m3fn, DecodesAllCodes) {
  for (uint32_t c = 0; c < 256; ++c) {
    const uint8_t code = static_cast<uint8_t>(c);
    const float f = oa::e4m3fn_to_float(code);
    ASSERT_TRUE(same_float(f, e4m3fn_reference(code))) << "code 0x" << std::hex << c;
    ASSERT_FALSE(std::isinf(f)) << std::hex << c;
    ASSERT_EQ(std::isnan(f), (c & 0x7F) == 0x7F) << std::hex << c;
    if (!std::isnan(f)) {
      ASSERT_EQ(std::signbit(f), c >= 0x80) << std::hex << c;
    }
  }
  EXPECT_EQ(oa::e4m3fn_to_float(0x7E), 448.0f);
  EXPECT_EQ(oa::e4m3fn_to_float(0xFE), -448.0f);
  EXPECT_EQ(oa::e4m3fn_to_float(0x01), 0x1p-9f);
  EXPECT_EQ(oa::e4m3fn_to_float(0x07), 7 * 0x1p-9f);
  EXPECT_EQ(oa::e4m3fn_to_float(0x08), 0x1p-6f);
  EXPECT_EQ(oa::e4m3fn_to_float(0x38), 1.0f);
  EXPECT_EQ(bits_of(oa::e4m3fn_to_float(0x80)), 0x80000000u);  // -0
}

TEST(FloatConvertE4m3fn, RoundTripsAllCodes) {
  for (uint32_t c = 0; c < 256; ++c) {
    const uint8_t code = static_cast<uint8_t>(c);
    const uint8_t back = oa::float_to_e4m3fn(oa::e4m3fn_to_float(code));
    ASSERT_EQ(back, (c & 0x7F) == 0x7F ? 0x7F : code) << std::hex << c;
  }
}

TEST(FloatConvertE4m3fn, TiesToEvenBetweenEveryAdjacentPair) {
  for (uint32_t c = 0; c < 0x7E; ++c) {
    for (uint32_t sign : {0u, 0x80u}) {
      const uint8_t lo = static_cast<uint8_t>(sign | c);
      const uint8_t hi = static_cast<uint8_t>(sign | (c + 1));
      const float mid = static_cast<float>((e4m3fn_reference(lo) + e4m3fn_reference(hi)) / 2);
      ASSERT_EQ(oa::float_to_e4m3fn(mid), (c & 1u) ? hi : lo) << std::hex << c;
      const bool positive = sign == 0;
      ASSERT_EQ(oa::float_to_e4m3fn(positive ? up(mid) : down(mid)), hi) << std::hex << c;
      ASSERT_EQ(oa::float_to_e4m3fn(positive ? down(mid) : up(mid)), lo) << std::hex << c;
    }
  }
}

TEST(FloatConvertE4m3fn, SaturationNanAndZeros) {
  for (float x : {448.0f, up(448.0f), 449.0f, 464.0f, 465.0f, 480.0f, 1e30f, FLT_MAX, kInf}) {
    EXPECT_EQ(oa::float_to_e4m3fn(x), 0x7E) << x;
    EXPECT_EQ(oa::float_to_e4m3fn(-x), 0xFE) << x;
  }
  EXPECT_EQ(oa::float_to_e4m3fn(432.0f), 0x7E);  // tie between 416 (0x7D) and 448 (0x7E)
  EXPECT_EQ(oa::float_to_e4m3fn(down(432.0f)), 0x7D);
  EXPECT_EQ(oa::float_to_e4m3fn(kNan), 0x7F);
  EXPECT_EQ(oa::float_to_e4m3fn(-kNan), 0x7F);
  EXPECT_EQ(oa::float_to_e4m3fn(float_of(0xFF800001u)), 0x7F);
  EXPECT_EQ(oa::float_to_e4m3fn(0.0f), 0x00);
  EXPECT_EQ(oa::float_to_e4m3fn(-0.0f), 0x80);
  EXPECT_EQ(oa::float_to_e4m3fn(0x1p-10f), 0x00);  // half the smallest subnormal: tie to zero
  EXPECT_EQ(oa::float_to_e4m3fn(-0x1p-10f), 0x80);
  EXPECT_EQ(oa::float_to_e4m3fn(down(0x1p-10f)), 0x00);
  EXPECT_EQ(oa::float_to_e4m3fn(up(0x1p-10f)), 0x01);
  EXPECT_EQ(oa::float_to_e4m3fn(-up(0x1p-10f)), 0x81);
  EXPECT_EQ(oa::float_to_e4m3fn(1e-30f), 0x00);
  EXPECT_EQ(oa::float_to_e4m3fn(-1e-30f), 0x80);
  EXPECT_EQ(oa::float_to_e4m3fn(float_of(1)), 0x00);
  EXPECT_EQ(oa::float_to_e4m3fn(float_of(0x80000001u)), 0x80);
  EXPECT_EQ(oa::float_to_e4m3fn(7.5f * 0x1p-9f), 0x08);  // tie into the smallest normal (even)
  EXPECT_EQ(oa::float_to_e4m3fn(1.0f), 0x38);
}

TEST(FloatConvertE4m3fn, EncodesLikeTheOracle) {
  sweep_floats(
      -12, 10, [](float x) { return oa::float_to_e4m3fn(x); },
      [](float x) { return e4m3fn_expected(x); });
}

// ---------------------------------------------------------------------------------------------
// HiFloat8, decoded here by reading the code bit by bit as SPEC section 4 describes it:
// sign, dot prefix (0001 -> exponent width 0, 001 -> 1, 01 -> 2, 10 -> 3, 11 -> 4,
// 0000 -> denormal 2^(m-23)), sign-magnitude exponent with implicit leading 1, mantissa
// (3, 3, 3, 2, 1 bits for widths 0..4). Specials: 0x00 = 0, 0x80 = NaN, 0x6F/0xEF = +-Inf.

class BitReader {
 public:
  explicit BitReader(uint8_t code) : code_(code) {}
  int read(int n) {
    int v = 0;
    for (int i = 0; i < n; ++i) {
      v = (v << 1) | ((code_ >> --left_) & 1);
    }
    return v;
  }
  int left() const { return left_; }

 private:
  uint8_t code_;
  int left_ = 8;
};

double hif8_reference(uint8_t code) {
  if (code == 0x00) {
    return 0.0;
  }
  if (code == 0x80) {
    return std::nan("");
  }
  if (code == 0x6F) {
    return std::numeric_limits<double>::infinity();
  }
  if (code == 0xEF) {
    return -std::numeric_limits<double>::infinity();
  }
  BitReader r(code);
  const int sign = r.read(1);
  int width = -1;  // exponent width, -1 = denormal
  if (r.read(1) == 1) {
    width = r.read(1) == 1 ? 4 : 3;
  } else if (r.read(1) == 1) {
    width = 2;
  } else if (r.read(1) == 1) {
    width = 1;
  } else if (r.read(1) == 1) {
    width = 0;
  }
  double v;
  if (width < 0) {
    v = std::ldexp(1.0, r.read(3) - 23);
  } else {
    int e = 0;
    if (width > 0) {
      const int negative = r.read(1);
      const int magnitude = (1 << (width - 1)) | r.read(width - 1);
      e = negative ? -magnitude : magnitude;
    }
    const int mant_width[] = {3, 3, 3, 2, 1};
    const int w = mant_width[width];
    const int m = r.read(w);
    v = std::ldexp(1.0 + m / static_cast<double>(1 << w), e);
  }
  EXPECT_EQ(r.left(), 0) << "code 0x" << std::hex << int{code};
  return sign ? -v : v;
}

const NearestOracle& hif8_oracle() {
  static const NearestOracle oracle = [] {
    std::vector<Entry> e;
    for (uint32_t c = 0; c < 0x80; ++c) {
      const double v = hif8_reference(static_cast<uint8_t>(c));
      if (std::isfinite(v)) {
        e.push_back({v, c});
      }
    }
    e.push_back({49152.0, 0x6F});  // Inf takes the slot of 1.5 * 2^15 (code 0x6F's layout)
    return NearestOracle(std::move(e), Tie::kAwayFromZero);
  }();
  return oracle;
}

uint8_t hif8_expected(float x) {
  if (std::isnan(x)) {
    return 0x80;
  }
  const uint32_t code = hif8_oracle().round(std::fabs(static_cast<double>(x)));
  if (code == 0) {
    return 0x00;
  }
  return static_cast<uint8_t>(((bits_of(x) >> 24) & 0x80u) | code);
}

TEST(FloatConvertHif8, DecodesAllCodes) {
  for (uint32_t c = 0; c < 256; ++c) {
    const uint8_t code = static_cast<uint8_t>(c);
    const float f = oa::hif8_to_float(code);
    ASSERT_TRUE(same_float(f, hif8_reference(code))) << "code 0x" << std::hex << c;
    ASSERT_EQ(std::isnan(f), c == 0x80) << std::hex << c;
    ASSERT_EQ(std::isinf(f), c == 0x6F || c == 0xEF) << std::hex << c;
    if (c != 0x00 && c != 0x80) {
      ASSERT_EQ(std::signbit(f), c >= 0x80) << std::hex << c;
    }
  }
  EXPECT_EQ(bits_of(oa::hif8_to_float(0x00)), 0u);
  EXPECT_EQ(oa::hif8_to_float(0x6F), kInf);
  EXPECT_EQ(oa::hif8_to_float(0xEF), -kInf);
  EXPECT_EQ(oa::hif8_to_float(0x6E), 32768.0f);
  EXPECT_EQ(oa::hif8_to_float(0xEE), -32768.0f);
  EXPECT_EQ(oa::hif8_to_float(0x7E), 0x1p-15f);
  EXPECT_EQ(oa::hif8_to_float(0x7F), 1.5f * 0x1p-15f);
  EXPECT_EQ(oa::hif8_to_float(0x01), 0x1p-22f);
  EXPECT_EQ(oa::hif8_to_float(0x07), 0x1p-16f);
  EXPECT_EQ(oa::hif8_to_float(0x08), 1.0f);
  EXPECT_EQ(oa::hif8_to_float(0x0F), 1.875f);
  EXPECT_EQ(oa::hif8_to_float(0x10), 2.0f);
  EXPECT_EQ(oa::hif8_to_float(0x18), 0.5f);
  EXPECT_EQ(oa::hif8_to_float(0x20), 4.0f);
  EXPECT_EQ(oa::hif8_to_float(0x28), 8.0f);
  EXPECT_EQ(oa::hif8_to_float(0x30), 0.25f);
  EXPECT_EQ(oa::hif8_to_float(0x40), 16.0f);
  EXPECT_EQ(oa::hif8_to_float(0x43), 28.0f);
  EXPECT_EQ(oa::hif8_to_float(0x60), 256.0f);
  EXPECT_EQ(oa::hif8_to_float(0x61), 384.0f);
}

// The SPEC's layout gives every exponent -15..15 exactly one prefix, and the denormals sit
// below 2^-15, so no two codes share a value: 126 finite non-zero magnitudes per sign.
TEST(FloatConvertHif8, FiniteValuesAreDistinct) {
  std::vector<double> values;
  for (uint32_t c = 0; c < 256; ++c) {
    const double v = hif8_reference(static_cast<uint8_t>(c));
    if (std::isfinite(v)) {
      values.push_back(v);
    }
  }
  ASSERT_EQ(values.size(), 253u);
  std::sort(values.begin(), values.end());
  EXPECT_EQ(std::adjacent_find(values.begin(), values.end()), values.end());
  EXPECT_EQ(values.back(), 32768.0);
  EXPECT_EQ(values.front(), -32768.0);
}

TEST(FloatConvertHif8, RoundTripsAllCodes) {
  for (uint32_t c = 0; c < 256; ++c) {
    if (c == 0x80) {
      continue;
    }
    const uint8_t code = static_cast<uint8_t>(c);
    ASSERT_EQ(oa::float_to_hif8(oa::hif8_to_float(code)), code) << std::hex << c;
  }
  EXPECT_EQ(oa::float_to_hif8(oa::hif8_to_float(0x80)), 0x80);
}

TEST(FloatConvertHif8, KnownValues) {
  EXPECT_EQ(oa::float_to_hif8(1.0f), 0x08);
  EXPECT_EQ(oa::float_to_hif8(2.0f), 0x10);
  EXPECT_EQ(oa::float_to_hif8(0.5f), 0x18);
  EXPECT_EQ(oa::float_to_hif8(28901.0f), 0x6E);
  EXPECT_EQ(oa::float_to_hif8(50000.37f), 0x6F);
  EXPECT_EQ(oa::float_to_hif8(-1.0f), 0x88);
}

TEST(FloatConvertHif8, TiesAwayFromZeroBetweenEveryAdjacentPair) {
  const std::vector<Entry>& e = hif8_oracle().entries();  // 0, finite magnitudes, Inf slot
  ASSERT_EQ(e.size(), 128u);
  for (size_t i = 0; i + 1 < e.size(); ++i) {
    const float mid = static_cast<float>((e[i].value + e[i + 1].value) / 2);
    ASSERT_EQ(static_cast<double>(mid), (e[i].value + e[i + 1].value) / 2);
    const uint8_t lo = static_cast<uint8_t>(e[i].code);
    const uint8_t hi = static_cast<uint8_t>(e[i + 1].code);
    const uint8_t neg_lo = lo == 0 ? 0x00 : static_cast<uint8_t>(lo | 0x80);
    const uint8_t neg_hi = static_cast<uint8_t>(hi | 0x80);
    ASSERT_EQ(oa::float_to_hif8(mid), hi) << "mid " << mid;
    ASSERT_EQ(oa::float_to_hif8(up(mid)), hi) << "mid " << mid;
    ASSERT_EQ(oa::float_to_hif8(down(mid)), lo) << "mid " << mid;
    ASSERT_EQ(oa::float_to_hif8(-mid), neg_hi) << "mid " << mid;
    ASSERT_EQ(oa::float_to_hif8(-up(mid)), neg_hi) << "mid " << mid;
    ASSERT_EQ(oa::float_to_hif8(-down(mid)), neg_lo) << "mid " << mid;
  }
}

TEST(FloatConvertHif8, Boundaries) {
  for (float x : {40960.0f, 49152.0f, 65536.0f, 1e30f, FLT_MAX, kInf}) {
    EXPECT_EQ(oa::float_to_hif8(x), 0x6F) << x;
    EXPECT_EQ(oa::float_to_hif8(-x), 0xEF) << x;
  }
  for (float x : {32768.0f, 36000.0f, down(40960.0f)}) {
    EXPECT_EQ(oa::float_to_hif8(x), 0x6E) << x;
    EXPECT_EQ(oa::float_to_hif8(-x), 0xEE) << x;
  }
  EXPECT_EQ(oa::float_to_hif8(down(32768.0f)), 0x6E);  // 24576 < x < 32768, above the midpoint
  EXPECT_EQ(oa::float_to_hif8(kNan), 0x80);
  EXPECT_EQ(oa::float_to_hif8(-kNan), 0x80);
  EXPECT_EQ(oa::float_to_hif8(0.0f), 0x00);
  EXPECT_EQ(oa::float_to_hif8(-0.0f), 0x00);
  for (float x : {float_of(1), 1e-30f, 0x1p-24f, down(0x1p-23f)}) {
    EXPECT_EQ(oa::float_to_hif8(x), 0x00) << x;
    EXPECT_EQ(oa::float_to_hif8(-x), 0x00) << x;
  }
  for (float x : {0x1p-23f, up(0x1p-23f), 1.5f * 0x1p-23f, down(0x1p-22f), 0x1p-22f}) {
    EXPECT_EQ(oa::float_to_hif8(x), 0x01) << x;
    EXPECT_EQ(oa::float_to_hif8(-x), 0x81) << x;
  }
  EXPECT_EQ(oa::float_to_hif8(1.5f * 0x1p-22f), 0x02);  // denormals 2^-22, 2^-21: tie away
  EXPECT_EQ(oa::float_to_hif8(down(1.5f * 0x1p-22f)), 0x01);
  // Largest denormal 2^-16 (0x07) and smallest normal 2^-15 (0x7E): midpoint 1.5 * 2^-16.
  EXPECT_EQ(oa::float_to_hif8(1.5f * 0x1p-16f), 0x7E);
  EXPECT_EQ(oa::float_to_hif8(down(1.5f * 0x1p-16f)), 0x07);
  EXPECT_EQ(oa::float_to_hif8(-1.5f * 0x1p-16f), 0xFE);
  // Mantissa width changes: 15 (3 bits) -> 16 (2 bits); 224 (2 bits) -> 256 (1 bit).
  EXPECT_EQ(oa::float_to_hif8(15.5f), 0x40);
  EXPECT_EQ(oa::float_to_hif8(down(15.5f)), 0x2F);
  EXPECT_EQ(oa::float_to_hif8(240.0f), 0x60);
  EXPECT_EQ(oa::float_to_hif8(down(240.0f)), 0x4F);
  EXPECT_EQ(oa::float_to_hif8(1.875f + 0.0625f), 0x10);  // 1.9375: tie between 1.875 and 2
  EXPECT_EQ(oa::float_to_hif8(1.0625f), 0x09);           // tie between 1 and 1.125: away
}

TEST(FloatConvertHif8, EncodesLikeTheOracle) {
  sweep_floats(
      -25, 17, [](float x) { return oa::float_to_hif8(x); },
      [](float x) { return hif8_expected(x); });
}

}  // namespace
