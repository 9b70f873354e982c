// The loss formulas' own log, log1p and exp (src/ops/loss/generic_math-inl.h) against double's,
// over float32 inputs spread across every binade: within 2 units in the last place of the
// correctly rounded result everywhere (1 measured), and the special values exact.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ops/loss/formulas.h"

namespace {

float from_bits(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof(v));
  return v;
}

// Ordered integer keys: adjacent floats differ by 1, +0 and -0 are equal.
int64_t key(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  const auto magnitude = static_cast<int64_t>(bits & 0x7FFFFFFFu);
  return (bits & 0x80000000u) != 0 ? -magnitude : magnitude;
}

// The largest distance in units in the last place between f and the correctly rounded reference
// over every 257th float32 bit pattern for which the reference is finite (and both NaN or both
// equal elsewhere).
template <typename F, typename R>
int64_t worst_ulps(F f, R reference) {
  int64_t worst = 0;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 257) {
    const float x = from_bits(static_cast<uint32_t>(bits));
    const float got = f(x);
    const auto expected = static_cast<float>(reference(static_cast<double>(x)));
    if (std::isnan(expected) || std::isinf(expected)) {
      EXPECT_TRUE(std::isnan(expected) ? std::isnan(got) : got == expected) << "x = " << x;
      continue;
    }
    EXPECT_FALSE(std::isnan(got)) << "x = " << x;
    worst = std::max<int64_t>(worst, std::llabs(key(got) - key(expected)));
  }
  return worst;
}

TEST(LossMath, LogWithinTwoUlps) {
  EXPECT_LE(worst_ulps(oa::loss::math_log, [](double x) { return std::log(x); }), 2);
}

TEST(LossMath, Log1pWithinTwoUlps) {
  EXPECT_LE(worst_ulps(oa::loss::math_log1p, [](double x) { return std::log1p(x); }), 2);
}

TEST(LossMath, ExpWithinTwoUlps) {
  EXPECT_LE(worst_ulps(oa::loss::math_exp, [](double x) { return std::exp(x); }), 2);
}

TEST(LossMath, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  using oa::loss::math_exp;
  using oa::loss::math_log;
  using oa::loss::math_log1p;
  EXPECT_EQ(math_log(1.0f), 0.0f);
  EXPECT_EQ(math_log(0.0f), -inf);
  EXPECT_EQ(math_log(-0.0f), -inf);
  EXPECT_EQ(math_log(inf), inf);
  EXPECT_TRUE(std::isnan(math_log(-1.0f)));
  EXPECT_TRUE(std::isnan(math_log(NAN)));
  EXPECT_EQ(math_log1p(0.0f), 0.0f);
  EXPECT_EQ(math_log1p(-1.0f), -inf);
  EXPECT_EQ(math_log1p(inf), inf);
  EXPECT_EQ(math_log1p(1e-30f), 1e-30f);
  EXPECT_TRUE(std::isnan(math_log1p(-2.0f)));
  EXPECT_EQ(math_exp(0.0f), 1.0f);
  EXPECT_EQ(math_exp(-inf), 0.0f);
  EXPECT_EQ(math_exp(inf), inf);
  EXPECT_EQ(math_exp(89.0f), inf);
  EXPECT_EQ(math_exp(-104.0f), 0.0f);
  EXPECT_GT(math_exp(-103.0f), 0.0f);  // a subnormal
  EXPECT_TRUE(std::isnan(math_exp(NAN)));
}

}  // namespace
