// aclnnSmoothL1Loss (the forward companion, SPEC section 11) against the float64 reference: random
// cases over dtypes, ranks, broadcasting and views for the three reductions (result shape [] or [1]
// for mean and sum), empty inputs (mean NaN, sum 0), chosen values, in-place, and large reductions.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ops/smooth_l1_loss/sl1_call.h"

namespace {

using namespace sl1_test;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string label(const char* test, int index, uint32_t seed) {
  return std::string(test) + " case " + std::to_string(index) + " (seed " + std::to_string(seed) +
         ")";
}

TEST(SmoothL1LossForward, RandomDtypesRanksViewsReductions) {
  const uint32_t seed = 2001;
  std::mt19937 rng(seed);
  int failed = 0;
  for (int i = 0; i < 500 && failed < 3; ++i) {
    ForwardCase c = random_forward(rng, RandomOptions());
    failed += check_forward(c, label("RandomDtypesRanksViewsReductions", i, seed)) ? 0 : 1;
  }
}

TEST(SmoothL1LossForward, EveryDtypeMixAndReduction) {
  const uint32_t seed = 2002;
  std::mt19937 rng(seed);
  RandomOptions options;
  options.max_rank = 4;
  int index = 0;
  for_each_dtype_mix<3>([&](const aclDataType* dtypes) {
    for (int64_t reduction = 0; reduction < 3; ++reduction) {
      for (float beta : kBetas) {
        ForwardCase c = random_forward(rng, options, dtypes, reduction, beta);
        check_forward(c, label("EveryDtypeMixAndReduction", index++, seed));
      }
    }
  });
}

// Contiguous operands of the full shape for every dtype mix and beta, reduction none: the path
// that converts in registers, with vector tails and unaligned starts.
TEST(SmoothL1LossForward, ContiguousOperandsOfEveryMix) {
  const uint32_t seed = 2010;
  std::mt19937 rng(seed);
  const RandomOptions options = contiguous_options();
  int index = 0;
  for_each_dtype_mix<3>([&](const aclDataType* dtypes) {
    for (float beta : kBetas) {
      ForwardCase c = random_forward(rng, options, dtypes, 0, beta);
      check_forward(c, label("ContiguousOperandsOfEveryMix", index++, seed));
    }
  });
}

// Empty inputs (a zero dim anywhere, or produced by broadcasting against 1): none writes nothing,
// mean writes NaN and sum writes 0, into a result of shape [] or [1].
TEST(SmoothL1LossForward, EmptyInputs) {
  const uint32_t seed = 2003;
  std::mt19937 rng(seed);
  RandomOptions options;
  options.min_rank = 1;
  options.empty = true;
  for (int i = 0; i < 90; ++i) {
    const aclDataType dtypes[3] = {random_dtype(rng), random_dtype(rng), random_dtype(rng)};
    const int64_t reduction = i % 3;
    ForwardCase c = random_forward(rng, options, dtypes, reduction, random_beta(rng));
    while (oa_ref::element_count(c.self.shape) * oa_ref::element_count(c.target.shape) != 0) {
      c = random_forward(rng, options, dtypes, reduction, random_beta(rng));
    }
    const std::vector<double> expected = forward_expected(c);
    if (reduction == 1) {
      ASSERT_TRUE(std::isnan(expected[0]));
    } else if (reduction == 2) {
      ASSERT_EQ(expected[0], 0.0);
    }
    check_forward(c, label("EmptyInputs", i, seed));
  }
}

// Runs the forward op on contiguous [n] inputs and returns the result's codes.
std::vector<uint32_t> forward_codes(const std::vector<double>& x, const std::vector<double>& y,
                                    aclDataType tx, aclDataType ty, aclDataType tout,
                                    int64_t reduction, float beta,
                                    std::optional<std::string> isa = std::nullopt) {
  const Dims shape = {static_cast<int64_t>(x.size())};
  ForwardCase c;
  c.reduction = reduction;
  c.beta = beta;
  c.self = filled_operand("self", shape, tx, x);
  c.target = filled_operand("target", shape, ty, y);
  c.result = filled_operand("result", reduction == 0 ? shape : Dims{}, tout, {});
  return output_codes(c, isa);
}

void expect_codes(const std::vector<uint32_t>& codes, aclDataType dtype,
                  const std::vector<double>& expected, int64_t tolerance, const std::string& what) {
  ASSERT_EQ(codes.size(), expected.size()) << what;
  int reported = 0;
  for (size_t i = 0; i < codes.size(); ++i) {
    if (!close_to(dtype, codes[i], expected[i], tolerance) && reported++ < 6) {
      ADD_FAILURE() << what << ": element " << i << " is " << oa_ref::decode(dtype, codes[i])
                    << ", expected " << expected[i];
    }
  }
}

TEST(SmoothL1LossForward, SeedExampleValues) {
  const std::vector<double> x = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<double> y(8, 1.0);
  for (aclDataType dtype : kFloatTypes) {
    expect_codes(forward_codes(x, y, dtype, dtype, dtype, 0, 1.0f), dtype,
                 {0.5, 0, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5}, 0, dtype_text(dtype));
    expect_codes(forward_codes(x, y, dtype, dtype, dtype, 1, 1.0f), dtype, {2.3125}, 0,
                 dtype_text(dtype));
    expect_codes(forward_codes(x, y, dtype, dtype, dtype, 2, 1.0f), dtype, {18.5}, 0,
                 dtype_text(dtype));
    expect_codes(forward_codes(x, y, dtype, dtype, dtype, 2, 0.0f), dtype, {22}, 0,
                 dtype_text(dtype));
  }
}

// |d| exactly beta gives beta - beta/2 = beta/2 (both branches agree there), 2 beta gives 1.5 beta,
// beta/2 gives beta/8; all exact, so the outputs must be exactly right, on both paths.
TEST(SmoothL1LossForward, DifferencesAtPlusMinusBeta) {
  for (float beta : {0.5f, 1.0f, 3.0f}) {
    const double b = beta;
    const double offsets[] = {b, -b, 2 * b, -2 * b, b / 2, -b / 2, 0.0};
    const double terms[] = {b / 2, b / 2, 1.5 * b, 1.5 * b, b / 8, b / 8, 0.0};
    std::vector<double> x;
    std::vector<double> y;
    std::vector<double> expected;
    double sum = 0;
    for (int i = 0; i < 35; ++i) {
      x.push_back(-0.75 + offsets[i % 7]);
      y.push_back(-0.75);
      expected.push_back(terms[i % 7]);
      sum += terms[i % 7];
    }
    for (aclDataType tx : kFloatTypes) {
      for (aclDataType ty : kFloatTypes) {
        for (aclDataType tout : kFloatTypes) {
          for (const char* isa : {"simd", "scalar"}) {
            const std::string what = std::string(isa) + " beta " + number_text(b) + " " +
                                     dtype_text(tx) + "/" + dtype_text(ty) + "->" +
                                     dtype_text(tout);
            expect_codes(forward_codes(x, y, tx, ty, tout, 0, beta, isa), tout, expected, 0, what);
            expect_codes(forward_codes(x, y, tx, ty, tout, 2, beta, isa), tout, {sum}, 0, what);
            expect_codes(forward_codes(x, y, tx, ty, tout, 1, beta, isa), tout, {sum / 35},
                         default_tolerance(tout), what);
          }
        }
      }
    }
  }
}

TEST(SmoothL1LossForward, InfinitiesAndNaN) {
  const std::vector<double> x = {kInf, 1.0, kNaN, 0.0, -kInf, kInf};
  const std::vector<double> y = {0.0, 1.0, 0.0, kNaN, 0.0, kInf};
  for (aclDataType dtype : kFloatTypes) {
    expect_codes(forward_codes(x, y, dtype, dtype, dtype, 0, 1.0f), dtype,
                 {kInf, 0, kNaN, kNaN, kInf, kNaN}, 0, dtype_text(dtype));
    expect_codes(forward_codes({kInf, 1.0, 2.0}, {0.0, 0.0, 0.0}, dtype, dtype, dtype, 2, 1.0f),
                 dtype, {kInf}, 0, dtype_text(dtype));
    expect_codes(forward_codes({kInf, kNaN, 2.0}, {0.0, 0.0, 0.0}, dtype, dtype, dtype, 1, 1.0f),
                 dtype, {kNaN}, 0, dtype_text(dtype));
    // beta = inf: a finite d is inside (0.5 d^2 / inf = 0); an infinite d gives inf - inf = NaN.
    const float inf = std::numeric_limits<float>::infinity();
    expect_codes(forward_codes({3.0, -kInf, 0.0}, {1.0, 0.0, 0.0}, dtype, dtype, dtype, 0, inf),
                 dtype, {0.0, kNaN, 0.0}, 0, dtype_text(dtype));
  }
}

// A mean or sum with NaN terms is the canonical quiet NaN (positive, no payload) in the result's
// dtype, whatever NaNs the inputs hold and on both paths: which NaN a sum of NaNs keeps depends on
// the order of each addition's operands. So is the mean of no terms (0/0).
TEST(SmoothL1LossForward, NaNReductionsAreTheCanonicalNaN) {
  struct Codes {
    aclDataType dtype;
    uint32_t negative_payload;
    uint32_t payload;
    uint32_t canonical;
  };
  const Codes table[] = {{ACL_FLOAT, 0xFFE00000u, 0x7FD00000u, 0x7FC00000u},
                         {ACL_FLOAT16, 0xFF00u, 0x7E80u, 0x7E00u},
                         {ACL_BF16, 0xFFE0u, 0x7FD0u, 0x7FC0u}};
  for (const Codes& codes : table) {
    for (int64_t reduction : {1, 2}) {
      for (const char* isa : {"simd", "scalar"}) {
        ForwardCase c;
        c.reduction = reduction;
        c.beta = 1.0f;
        c.self = filled_operand("self", {100}, codes.dtype, std::vector<double>(100, 1.5));
        c.self.codes[3] = codes.negative_payload;
        c.self.codes[40] = codes.payload;
        c.target = filled_operand("target", {100}, codes.dtype, std::vector<double>(100, 0.25));
        c.result = filled_operand("result", {}, codes.dtype, {});
        EXPECT_EQ(output_codes(c, std::string(isa)), std::vector<uint32_t>{codes.canonical})
            << dtype_text(codes.dtype) << ", reduction " << reduction << ", " << isa;
      }
    }
    ForwardCase empty;
    empty.reduction = 1;
    empty.beta = 1.0f;
    empty.self = filled_operand("self", {0}, codes.dtype, {});
    empty.target = filled_operand("target", {0}, codes.dtype, {});
    empty.result = filled_operand("result", {}, codes.dtype, {});
    EXPECT_EQ(output_codes(empty), std::vector<uint32_t>{codes.canonical})
        << dtype_text(codes.dtype) << ", mean of no terms";
  }
}

// The inside branch 0.5 d^2 / beta for extreme but representable operands: the result is a normal
// float32 number while d^2 itself underflows (tiny beta) or overflows (huge or infinite beta).
TEST(SmoothL1LossForward, InsideBranchNeitherUnderflowsNorOverflows) {
  struct Row {
    double x, y;
    float beta;
  };
  const Row rows[] = {
      {1e-31, 0.0, 1e-30f},
      {-3e-31, 4e-31, 1e-30f},
      {5e-32, -5e-32, 1e-30f},
      {1e20, 0.0, 1e30f},
      {-3e25, 1e25, 1e30f},
      {1e20, -1e20, 3e38f},
      {1e20, 0.0, std::numeric_limits<float>::infinity()},
  };
  for (const Row& row : rows) {
    for (const char* isa : {"simd", "scalar"}) {
      std::vector<double> x(19, row.x);
      std::vector<double> y(19, row.y);
      const double d = static_cast<double>(static_cast<float>(row.x)) -
                       static_cast<double>(static_cast<float>(row.y));
      const double expected = 0.5 * d * d / static_cast<double>(row.beta);
      std::ostringstream text;
      text << isa << " x " << row.x << " y " << row.y << " beta " << row.beta;
      const std::string what = text.str();
      expect_codes(forward_codes(x, y, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 0, row.beta, isa),
                   ACL_FLOAT, std::vector<double>(19, expected), 4, what);
      expect_codes(forward_codes(x, y, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 2, row.beta, isa),
                   ACL_FLOAT, {19 * expected}, 4, what);
    }
  }
}

// result exactly the same view as self or target (reduction none).
TEST(SmoothL1LossForward, InPlace) {
  const uint32_t seed = 2004;
  std::mt19937 rng(seed);
  for (int i = 0; i < 60; ++i) {
    const bool on_self = i % 2 == 0;
    RandomOptions options;
    options.min_rank = 1;
    options.max_rank = 5;
    const Dims full = random_full_shape(rng, options);
    ForwardCase c;
    c.beta = random_beta(rng);
    const Dims other = broadcast_source(rng, full, 0.5);
    c.self = random_operand(rng, "self", on_self ? full : other, random_dtype(rng),
                            on_self ? ViewStyle() : ViewStyle::input(), true, c.beta);
    c.target = random_operand(rng, "target", on_self ? other : full, random_dtype(rng),
                              on_self ? ViewStyle::input() : ViewStyle(), true, c.beta);
    c.result = alias_of(on_self ? c.self : c.target, "result");
    check_forward(c, label(on_self ? "InPlace on self" : "InPlace on target", i, seed));
  }
}

// Mean and sum over more than 65536 elements (several chunk partials), broadcast and strided.
TEST(SmoothL1LossForward, LargeReductions) {
  const uint32_t seed = 2005;
  std::mt19937 rng(seed);
  const ViewStyle styles[] = {ViewStyle::contiguous(), {1.0, 1.0, 0.5, 0.0, 1.0}};
  int index = 0;
  for (int64_t reduction = 0; reduction < 3; ++reduction) {
    for (const ViewStyle& style : styles) {
      const aclDataType dtypes[3] = {kFloatTypes[index % 3], kFloatTypes[(index + 1) % 3],
                                     kFloatTypes[index / 2 % 3]};
      ForwardCase c;
      c.reduction = reduction;
      c.beta = kBetas[index % 6];
      c.self = random_operand(rng, "self", {400, 1, 250}, dtypes[0], style, true, c.beta);
      c.target = random_operand(rng, "target", {3, 250}, dtypes[1], style, true, c.beta, false);
      c.result = random_operand(rng, "result", reduction == 0 ? Dims{400, 3, 250} : Dims{1},
                                dtypes[2], ViewStyle(), false, c.beta);
      check_forward(c, label("LargeReductions", index++, seed));
    }
  }
}

}  // namespace
