// aclnnSmoothL1LossBackward on chosen values: the seed's example, differences exactly at +-beta,
// beta 0 (the L1 gradient, never NaN), a tiny and an infinite beta, infinities and NaN, float16
// and bfloat16 rounding ties, and in-place outputs. Where the float32 result is exact the output
// must be exactly the correctly rounded value, on the SIMD and on the scalar path.
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ops/smooth_l1_loss/sl1_call.h"

namespace {

using namespace sl1_test;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Dtypes {
  aclDataType g, x, y, out;
};

std::string dtypes_text(const Dtypes& t) {
  return std::string("gradOutput ") + dtype_text(t.g) + ", self " + dtype_text(t.x) + ", target " +
         dtype_text(t.y) + ", gradInput " + dtype_text(t.out);
}

// Runs the backward op on contiguous [n] tensors holding the values (rounded to their dtypes) and
// returns gradInput's codes; isa "scalar" forces the scalar path.
std::vector<uint32_t> backward_codes(const std::vector<double>& g, const std::vector<double>& x,
                                     const std::vector<double>& y, const Dtypes& dtypes,
                                     int64_t reduction, float beta,
                                     std::optional<std::string> isa = std::nullopt) {
  const Dims shape = {static_cast<int64_t>(x.size())};
  BackwardCase c;
  c.reduction = reduction;
  c.beta = beta;
  c.grad_output = filled_operand("gradOutput", shape, dtypes.g, g);
  c.self = filled_operand("self", shape, dtypes.x, x);
  c.target = filled_operand("target", shape, dtypes.y, y);
  c.grad_input = filled_operand("gradInput", shape, dtypes.out, {});
  return output_codes(c, isa);
}

// Expects every code to be exactly encode(dtype, expected[i]) (any NaN for a NaN; +0 and -0 equal).
void expect_exact(const std::vector<uint32_t>& codes, aclDataType dtype,
                  const std::vector<double>& expected, const std::string& what) {
  ASSERT_EQ(codes.size(), expected.size());
  int reported = 0;
  for (size_t i = 0; i < codes.size(); ++i) {
    if (!close_to(dtype, codes[i], expected[i], 0) && reported++ < 6) {
      ADD_FAILURE() << what << ": element " << i << " is " << oa_ref::decode(dtype, codes[i])
                    << " (0x" << std::hex << codes[i] << "), expected " << std::dec << expected[i]
                    << " (0x" << std::hex << oa_ref::encode(dtype, expected[i]) << ")";
    }
  }
}

const char* const kIsas[] = {"simd", "scalar"};

TEST(SmoothL1LossBackwardValues, SeedExample) {
  const std::vector<double> x = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<double> ones(8, 1.0);
  const Dtypes f = {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT};
  expect_exact(backward_codes(ones, x, ones, f, 0, 1.0f), ACL_FLOAT, {-1, 0, 1, 1, 1, 1, 1, 1},
               "none");
  expect_exact(backward_codes(ones, x, ones, f, 1, 1.0f), ACL_FLOAT,
               {-0.125, 0, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125}, "mean");
  expect_exact(backward_codes(ones, x, ones, f, 2, 1.0f), ACL_FLOAT, {-1, 0, 1, 1, 1, 1, 1, 1},
               "sum");
}

// d = x - y exactly +-beta (the L1 branch: sign), +-2 beta, +-beta / 2 (d / beta = +-0.5) and 0,
// for every dtype mix where beta is representable. 32 elements (a power of two, so mean's 1/32 is
// exact), repeated so that the SIMD body and its tail both see every kind.
TEST(SmoothL1LossBackwardValues, DifferencesAtPlusMinusBeta) {
  const float betas[] = {0.5f, 1.0f, 3.0f, 1e-30f};
  const double gs[] = {0.75, -1.5, 2.0, 1.0};
  for (float beta : betas) {
    const double b = beta;
    const double base = b > 1e-20 ? 1.25 : 0.0;
    const double offsets[] = {b, -b, 2 * b, -2 * b, b / 2, -b / 2, 0.0, b};
    const double signs[] = {1, -1, 1, -1, 0.5, -0.5, 0, 1};
    std::vector<double> g;
    std::vector<double> x;
    std::vector<double> y;
    std::vector<double> factor;
    for (int i = 0; i < 32; ++i) {
      g.push_back(gs[i % 4]);
      x.push_back(base + offsets[i % 8]);
      y.push_back(base);
      factor.push_back(signs[i % 8] * gs[i % 4]);
    }
    for_each_dtype_mix<4>([&](const aclDataType* mix) {
      const Dtypes dtypes = {mix[0], mix[1], mix[2], mix[3]};
      if (oa_ref::decode(dtypes.x, oa_ref::encode(dtypes.x, b)) != b) {
        return;  // 1e-30 is not a float16 value
      }
      for (int64_t reduction = 0; reduction < 3; ++reduction) {
        std::vector<double> expected = factor;
        for (double& e : expected) {
          e *= reduction == 1 ? 1.0 / 32 : 1.0;
        }
        expect_exact(backward_codes(g, x, y, dtypes, reduction, beta), dtypes.out, expected,
                     "beta " + number_text(b) + ", reduction " + std::to_string(reduction) + ", " +
                         dtypes_text(dtypes));
      }
    });
  }
}

// beta = 0: the L1 gradient sign(d) * g; d = 0 gives 0 (never 0/0 = NaN), on both paths. A beta
// of -0.0 passes the check (it is >= 0) and behaves as 0.
TEST(SmoothL1LossBackwardValues, BetaZeroIsTheL1GradientNeverNaN) {
  std::vector<double> g;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> expected;
  const double xs[] = {0.0, -0.0, 1.5, -2.25, 1e-30, 3.0, 0.0};
  const double ys[] = {0.0, 0.0, 1.5, -2.0, 0.0, 3.0, -0.0};
  const double signs[] = {0, 0, 0, -1, 1, 0, 0};
  for (int i = 0; i < 67; ++i) {
    g.push_back(0.25 * (i % 9) - 1.0);
    x.push_back(xs[i % 7]);
    y.push_back(ys[i % 7]);
    expected.push_back(signs[i % 7] * g.back());
  }
  const Dtypes f = {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT};
  for (const char* isa : kIsas) {
    for (float beta : {0.0f, -0.0f}) {
      expect_exact(backward_codes(g, x, y, f, 0, beta, isa), ACL_FLOAT, expected,
                   std::string(isa) + " beta " + number_text(beta));
    }
  }
}

// beta = +inf: every finite d is inside (-beta, beta), so the gradient is d / inf = 0; an infinite
// d is not (|d| < beta fails) and gives sign(d).
TEST(SmoothL1LossBackwardValues, InfiniteBeta) {
  const float beta = std::numeric_limits<float>::infinity();
  std::vector<double> g;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> expected;
  const double xs[] = {1e30, -3.0, kInf, 0.0, -kInf, 2.0};
  const double ys[] = {-1e30, 5.0, 1.0, kInf, 7.0, 2.0};
  const double signs[] = {0, 0, 1, -1, -1, 0};
  for (int i = 0; i < 40; ++i) {
    g.push_back(1.5 + i % 3);
    x.push_back(xs[i % 6]);
    y.push_back(ys[i % 6]);
    expected.push_back(signs[i % 6] * g.back());
  }
  const Dtypes f = {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT};
  for (const char* isa : kIsas) {
    expect_exact(backward_codes(g, x, y, f, 2, beta, isa), ACL_FLOAT, expected, isa);
  }
}

// beta = 1e-30 (float32, a normal number far below every float16): differences of multiples of
// 2^-103 fall inside (-beta, beta) and give d / beta; against the reference within 4 ulp.
TEST(SmoothL1LossBackwardValues, TinyBeta) {
  const float beta = 1e-30f;
  std::vector<double> g;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> expected;
  for (int i = 0; i < 50; ++i) {
    g.push_back(1.0 + 0.125 * (i % 5));
    x.push_back(std::ldexp(static_cast<double>(i % 23 - 11), -103));
    y.push_back(std::ldexp(static_cast<double>(i % 7 - 3), -103));
    const double d = x.back() - y.back();
    const double b = beta;
    expected.push_back((std::fabs(d) < b ? d / b : (d > 0 ? 1 : (d < 0 ? -1 : 0))) * g.back());
  }
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    const Dtypes dtypes = {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, dtype};
    for (const char* isa : kIsas) {
      std::vector<uint32_t> codes = backward_codes(g, x, y, dtypes, 0, beta, isa);
      for (size_t i = 0; i < codes.size(); ++i) {
        EXPECT_TRUE(close_to(dtype, codes[i], expected[i], default_tolerance(dtype)))
            << isa << " " << dtype_text(dtype) << " element " << i << ": got "
            << oa_ref::decode(dtype, codes[i]) << ", expected " << expected[i];
      }
    }
  }
}

// Infinite and NaN inputs, for float32 and through float16/bfloat16 storage.
TEST(SmoothL1LossBackwardValues, InfinitiesAndNaN) {
  struct Row {
    double g, x, y, expected;
  };
  const Row rows[] = {
      {1.0, kInf, 0.0, 1.0},  {2.0, -kInf, 0.0, -2.0},    {1.0, kInf, kInf, kNaN},
      {1.0, 0.0, kInf, -1.0}, {kNaN, 1.0, 1.0, kNaN},     {kNaN, 0.0, 5.0, kNaN},
      {1.0, kNaN, 0.0, kNaN}, {1.0, 0.0, kNaN, kNaN},     {kInf, 3.0, 0.0, kInf},
      {kInf, 0.0, 0.0, kNaN}, {-kInf, 0.0, 3.0, kInf},    {kInf, 0.25, 0.0, kInf},
      {0.0, kInf, 0.0, 0.0},  {-kInf, -kInf, kInf, kInf},
  };
  std::vector<double> g;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> expected;
  for (int i = 0; i < 3; ++i) {
    for (const Row& row : rows) {
      g.push_back(row.g);
      x.push_back(row.x);
      y.push_back(row.y);
      expected.push_back(row.expected);
    }
  }
  for (aclDataType tin : kFloatTypes) {
    for (aclDataType tout : kFloatTypes) {
      for (const char* isa : kIsas) {
        const Dtypes dtypes = {tin, tin, tin, tout};
        expect_exact(backward_codes(g, x, y, dtypes, 0, 0.5f, isa), tout, expected,
                     std::string(isa) + " " + dtypes_text(dtypes));
      }
    }
  }
}

// Float32 results exactly halfway between two float16 (or bfloat16) values round to even, once:
// with beta 0 and d > 0 the result is gradOutput itself, a FLOAT tensor holding the ties (and
// their float32 neighbours, which must round toward them).
TEST(SmoothL1LossBackwardValues, Float16AndBf16RoundingTies) {
  std::mt19937 rng(1101);
  for (aclDataType out : {ACL_FLOAT16, ACL_BF16}) {
    std::vector<double> g;
    const uint32_t top = out == ACL_FLOAT16 ? 0x7BFF : 0x7F7F;
    for (int i = 0; i < 300; ++i) {
      const auto code = static_cast<uint32_t>(draw(rng, 0, top - 1));
      const double tie = (oa_ref::decode(out, code) + oa_ref::decode(out, code + 1)) / 2;
      const double sign = i % 2 == 0 ? 1.0 : -1.0;
      const float below = std::nextafter(static_cast<float>(tie), 0.0f);
      const float above = std::nextafter(static_cast<float>(tie), 1e38f);
      g.insert(g.end(), {sign * tie, sign * below, sign * above});
    }
    // The ties at the top: halfway past the largest finite value overflows to infinity.
    const double largest = oa_ref::decode(out, top);
    const double next = largest + (largest - oa_ref::decode(out, top - 1));
    g.insert(g.end(), {(largest + next) / 2, -(largest + next) / 2});
    const std::vector<double> x(g.size(), 2.0);
    const std::vector<double> y(g.size(), 1.0);
    std::vector<double> expected;
    for (double v : g) {
      expected.push_back(static_cast<double>(static_cast<float>(v)));  // gradOutput is FLOAT
    }
    for (const char* isa : kIsas) {
      for (int64_t reduction : {0, 2}) {
        const Dtypes dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, out};
        expect_exact(backward_codes(g, x, y, dtypes, reduction, 0.0f, isa), out, expected,
                     std::string(isa) + " " + dtype_text(out));
      }
    }
  }
}

// gradInput exactly the same view as self, gradOutput or target (same dtype, the broadcast shape,
// any non-overlapping layout); the other inputs are broadcast.
TEST(SmoothL1LossBackwardValues, InPlace) {
  const uint32_t seed = 1102;
  std::mt19937 rng(seed);
  int failed = 0;
  for (int i = 0; i < 120 && failed < 3; ++i) {
    const int which = i % 3;  // 0 gradOutput, 1 self, 2 target
    RandomOptions options;
    options.min_rank = 1;
    options.max_rank = 5;
    const Dims full = random_full_shape(rng, options);
    BackwardCase c;
    c.reduction = draw(rng, 0, 2);
    c.beta = random_beta(rng);
    Operand* inputs[] = {&c.grad_output, &c.self, &c.target};
    const char* names[] = {"gradOutput", "self", "target"};
    for (int k = 0; k < 3; ++k) {
      const bool aliased = k == which;
      const Dims shape = aliased ? full : broadcast_source(rng, full, 0.5);
      *inputs[k] = random_operand(rng, names[k], shape, random_dtype(rng),
                                  aliased ? ViewStyle() : ViewStyle::input(), true, c.beta);
    }
    c.grad_input = alias_of(*inputs[which], "gradInput");
    failed += check_backward(c, "InPlace case " + std::to_string(i) + " (seed " +
                                    std::to_string(seed) + "), gradInput is " + names[which])
                  ? 0
                  : 1;
  }
}

}  // namespace
