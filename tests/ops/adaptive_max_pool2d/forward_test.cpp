// aclnnAdaptiveMaxPool2d against the float64 reference: windows, the NaN and tie rules, every
// dtype, index dtype and memory layout, empty inputs, and the same bits for any thread count.
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ops/adaptive_max_pool2d/pool_cases.h"
#include "reference/adaptive_max_pool2d.h"
#include "test_env.h"

namespace amp_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct ForwardResult {
  std::vector<double> values;
  std::vector<int64_t> indices;
};

// Runs the case on `x` and checks it against the reference; returns what came out.
ForwardResult check_forward(const PoolCase& c, const std::vector<double>& x) {
  SCOPED_TRACE(c.describe());
  TestTensor self(pool_tensor(c.shape, c.dtype, c.input_layout));
  TestTensor out(pool_tensor(c.output_shape(), c.dtype, c.output_layout));
  TestTensor indices(pool_tensor(c.output_shape(), c.index_dtype, c.index_layout));
  self.write(x);
  const std::vector<uint64_t> input_bits = self.read_bits();
  EXPECT_EQ(run_forward(self.get(), {c.ho, c.wo}, out.get(), indices.get()), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(self.read_bits(), input_bits);
  const std::vector<double> stored = self.read();  // x as the dtype holds it
  const oa_ref::PoolResult ref = oa_ref::adaptive_max_pool2d(stored, c.ref_shape());
  ForwardResult got{out.read(), indices.read_ints()};
  EXPECT_EQ(got.indices, ref.indices);
  int mismatches = 0;
  for (size_t k = 0; k < ref.values.size() && mismatches < 5; ++k) {
    if (!same_value(got.values[k], ref.values[k])) {
      ADD_FAILURE() << "output " << k << ": got " << got.values[k] << ", expected "
                    << ref.values[k];
      ++mismatches;
    }
  }
  EXPECT_TRUE(out.only_view_written());
  EXPECT_TRUE(indices.only_view_written());
  EXPECT_TRUE(self.only_view_written());
  return got;
}

PoolCase simple_case(std::vector<int64_t> shape, int64_t ho, int64_t wo) {
  PoolCase c;
  c.shape = std::move(shape);
  c.ho = ho;
  c.wo = wo;
  return c;
}

TEST(AdaptiveMaxPool2d, DivisibleWindows) {
  std::vector<double> x(16);
  for (int k = 0; k < 16; ++k) {
    x[k] = k;
  }
  ForwardResult r = check_forward(simple_case({1, 1, 4, 4}, 2, 2), x);
  EXPECT_EQ(r.indices, (std::vector<int64_t>{5, 7, 13, 15}));
  EXPECT_EQ(r.values, (std::vector<double>{5, 7, 13, 15}));
}

// H = 5 into 3 rows: windows [0, 2), [1, 4), [3, 5), so rows 1 and 3 belong to two windows each.
TEST(AdaptiveMaxPool2d, OverlappingWindowsFollowTheSpecFormula) {
  const std::vector<double> x = {9, 1, 8, 7, 2};  // one column
  ForwardResult r = check_forward(simple_case({1, 5, 1}, 3, 1), x);
  EXPECT_EQ(r.indices, (std::vector<int64_t>{0, 2, 3}));
  EXPECT_EQ(r.values, (std::vector<double>{9, 8, 7}));
}

TEST(AdaptiveMaxPool2d, MoreOutputsThanInputs) {
  const std::vector<double> x = {1, 3, 2};  // one row of 3 into 7 outputs
  ForwardResult r = check_forward(simple_case({1, 1, 3}, 1, 7), x);
  // Windows: [0,1) [0,1) [0,2) [1,2) [1,3) [2,3) [2,3).
  EXPECT_EQ(r.indices, (std::vector<int64_t>{0, 0, 1, 1, 1, 2, 2}));
}

TEST(AdaptiveMaxPool2d, TheLastNaNWins) {
  const double nan = std::nan("");
  ForwardResult r = check_forward(simple_case({1, 2, 2}, 1, 1), {5, nan, 7, nan});
  EXPECT_EQ(r.indices, (std::vector<int64_t>{3}));
  EXPECT_TRUE(std::isnan(r.values[0]));
}

TEST(AdaptiveMaxPool2d, ANumberAfterANaNDoesNotReplaceIt) {
  const double nan = std::nan("");
  ForwardResult r = check_forward(simple_case({1, 2, 2}, 1, 1), {1, nan, kInf, 2});
  EXPECT_EQ(r.indices, (std::vector<int64_t>{1}));
}

TEST(AdaptiveMaxPool2d, TheFirstOfEqualMaximaWins) {
  // Row-major first, not column-major: (0, 2) comes before (1, 0).
  ForwardResult r = check_forward(simple_case({1, 2, 3}, 1, 1), {1, 0, 4, 4, 2, 4});
  EXPECT_EQ(r.indices, (std::vector<int64_t>{2}));
  r = check_forward(simple_case({1, 2, 2}, 1, 1), {-0.0, 0.0, -1, -1});
  EXPECT_EQ(r.indices, (std::vector<int64_t>{0}));
  EXPECT_TRUE(std::signbit(r.values[0]));
}

// Windows of 6 columns and more are merged in two passes (greatest value, then the smallest index
// holding it), with the one-by-one merge kept for a NaN: the same rules must come out. Each plane
// is 2 x 8, pooled to 1 x 1.
TEST(AdaptiveMaxPool2d, WideWindowsKeepTheScanRules) {
  const double nan = std::nan("");
  struct Plane {
    std::vector<double> x;
    int64_t index;
  };
  const Plane planes[] = {
      // Equal maxima: row-major first, so (0, 7) before (1, 0), and (0, 3) before (0, 5).
      {{1, 1, 1, 1, 1, 1, 1, 4, 4, 1, 1, 1, 1, 1, 1, 1}, 7},
      {{0, 0, 0, 4, 0, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0}, 3},
      // +0 and -0 are equal: the first of them, with its sign.
      {{-1, -1, -1, -1, -1, 0.0, -1, -1, -0.0, -1, -1, -1, -1, -1, -1, -1}, 5},
      {{-1, -1, -1, -1, -1, -0.0, -1, -1, 0.0, -1, -1, -1, -1, -1, -1, -1}, 5},
      // A NaN anywhere: the last NaN, even with greater numbers after it.
      {{1, nan, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, nan, kInf}, 14},
      {{1, nan, kInf, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, 1},
      {{-kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf,
        -kInf, -kInf, -kInf},
       0},
  };
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    for (const Plane& plane : planes) {
      PoolCase c = simple_case({1, 2, 8}, 1, 1);
      c.dtype = dtype;
      const ForwardResult r = check_forward(c, plane.x);
      EXPECT_EQ(r.indices, (std::vector<int64_t>{plane.index}));
      EXPECT_TRUE(same_value(r.values[0], plane.x[static_cast<size_t>(plane.index)]))
          << r.values[0];
    }
  }
}

TEST(AdaptiveMaxPool2d, AllMinusInfinityGivesTheFirstPosition) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    PoolCase c = simple_case({1, 4, 4}, 2, 2);
    c.dtype = dtype;
    ForwardResult r = check_forward(c, std::vector<double>(16, -kInf));
    EXPECT_EQ(r.indices, (std::vector<int64_t>{0, 2, 8, 10}));
    EXPECT_EQ(r.values, std::vector<double>(4, -kInf));
  }
}

TEST(AdaptiveMaxPool2d, RandomCasesMatchTheReference) {
  std::mt19937_64 rng(20240501);
  for (int k = 0; k < 240; ++k) {
    // Every other case on the baseline loops.
    oa_test::ScopedEnv isa("OPENACLNN_CPU_ISA", k % 2 == 0 ? "simd" : "scalar");
    PoolCase c = random_case(rng);
    c.index_dtype = ACL_INT64;  // the forward writes INT64 indices only (CANN rejects INT32)
    if (k % 5 == 4) {
      c.dtype = ACL_DOUBLE;
    }
    const Values kind = static_cast<Values>(k % 3);
    const oa_ref::PoolShape s = c.ref_shape();
    check_forward(c, random_values(rng, s.planes * s.h * s.w, kind));
    if (HasFailure()) {
      return;
    }
  }
}

// Larger planes and more channels than one block of the channels-last loop, with several chunks.
TEST(AdaptiveMaxPool2d, LargerCasesInEveryLayout) {
  std::mt19937_64 rng(7);
  for (const Layout& layout : {Layout{}, channels_last(4), Layout{{}, 1, 3, 5}}) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
      PoolCase c = simple_case({3, 70, 9, 11}, 4, 5);
      c.dtype = dtype;
      c.input_layout = c.output_layout = c.index_layout = layout;
      check_forward(c, random_values(rng, 3 * 70 * 9 * 11, Values::specials));
    }
  }
}

// Channels-last windows of 8 rows or more are scanned a row of self at a time for all windows of
// an output row: overlapping rows and columns, all channels at once (24) or in blocks of 64 with a
// remainder (100 channels, 30 windows a row), every dtype, with ties, infinities, NaN and -0.
TEST(AdaptiveMaxPool2d, TallWindowsChannelsLast) {
  std::mt19937_64 rng(8);
  const PoolCase shapes[] = {simple_case({1, 24, 24, 16}, 3, 5),
                             simple_case({2, 100, 17, 60}, 2, 30), simple_case({5, 26, 9}, 1, 4)};
  for (const PoolCase& shape : shapes) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      PoolCase c = shape;
      c.dtype = dtype;
      c.input_layout = c.output_layout = c.index_layout = channels_last(c.shape.size());
      const oa_ref::PoolShape s = c.ref_shape();
      check_forward(c, random_values(rng, s.planes * s.h * s.w, Values::specials));
    }
  }
  // All -inf: each window's first position, with windows of 8 rows starting at rows 0 and 8.
  PoolCase c = simple_case({1, 3, 16, 12}, 2, 3);
  c.input_layout = c.output_layout = c.index_layout = channels_last(4);
  const ForwardResult r = check_forward(c, std::vector<double>(3 * 16 * 12, -kInf));
  const std::vector<int64_t> firsts = {0, 4, 8, 96, 100, 104};
  std::vector<int64_t> expected;
  for (int channel = 0; channel < 3; ++channel) {
    expected.insert(expected.end(), firsts.begin(), firsts.end());
  }
  EXPECT_EQ(r.indices, expected);
}

// DOUBLE is compared in float64: values float32 cannot tell apart keep their order, and the
// output is the input's value exactly.
TEST(AdaptiveMaxPool2d, DoubleKeepsFloat64Precision) {
  const double tiny = std::ldexp(1.0, -40);
  PoolCase c = simple_case({1, 1, 2, 2}, 1, 1);
  c.dtype = ACL_DOUBLE;
  const ForwardResult r = check_forward(c, {1.0, 1.0 + tiny, 1.0 + tiny / 2, -3.0});
  EXPECT_EQ(r.values, (std::vector<double>{1.0 + tiny}));
  EXPECT_EQ(r.indices, (std::vector<int64_t>{1}));
  for (const Layout& layout : {Layout{}, channels_last(4), Layout{{}, 1, 3, 5}}) {
    std::mt19937_64 rng(17);
    PoolCase d = simple_case({2, 5, 9, 7}, 4, 3);
    d.dtype = ACL_DOUBLE;
    d.input_layout = d.output_layout = d.index_layout = layout;
    check_forward(d, random_values(rng, 2 * 5 * 9 * 7, Values::specials));
  }
}

TEST(AdaptiveMaxPool2d, EmptyBatchDoesNothing) {
  TestTensor self(pool_tensor({0, 3, 4, 4}, ACL_FLOAT));
  TestTensor out(pool_tensor({0, 3, 2, 2}, ACL_FLOAT));
  TestTensor indices(pool_tensor({0, 3, 2, 2}, ACL_INT64));
  EXPECT_EQ(run_forward(self.get(), {2, 2}, out.get(), indices.get()), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_TRUE(out.only_view_written());
  EXPECT_TRUE(indices.only_view_written());
}

// Also the same bits from the baseline loops (OPENACLNN_CPU_ISA=scalar) and the vector ones, and
// from both loop nests.
TEST(AdaptiveMaxPool2d, SameBitsForAnyThreadCountAndInstructionSet) {
  std::mt19937_64 rng(99);
  PoolCase c = simple_case({2, 40, 29, 31}, 6, 9);
  c.dtype = ACL_BF16;
  const std::vector<double> x = random_values(rng, 2 * 40 * 29 * 31, Values::specials);
  std::vector<uint64_t> first_values;
  std::vector<int64_t> first_indices;
  for (const char* isa : {"simd", "scalar"}) {
    oa_test::ScopedEnv isa_env("OPENACLNN_CPU_ISA", isa);
    for (const char* threads : {"1", "2", "3"}) {
      oa_test::ScopedEnv threads_env("OPENACLNN_NUM_THREADS", threads);
      for (const Layout& layout : {Layout{}, channels_last(4)}) {
        TestTensor self(pool_tensor(c.shape, c.dtype, layout));
        TestTensor out(pool_tensor(c.output_shape(), c.dtype, layout));
        TestTensor indices(pool_tensor(c.output_shape(), ACL_INT64, layout));
        self.write(x);
        ASSERT_EQ(run_forward(self.get(), {c.ho, c.wo}, out.get(), indices.get()), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        if (first_values.empty()) {
          first_values = out.read_bits();
          first_indices = indices.read_ints();
        } else {
          EXPECT_EQ(out.read_bits(), first_values) << isa << ", " << threads << " threads";
          EXPECT_EQ(indices.read_ints(), first_indices) << isa << ", " << threads << " threads";
        }
      }
    }
  }
}

// Positions past 2^24 are exact: the indices are integers, never floats.
TEST(AdaptiveMaxPool2d, PlanesLargerThan2To24) {
  const int64_t w = (int64_t{1} << 24) + 3;
  oa_test::DeviceBuffer x_buffer(w * sizeof(float));
  std::vector<float> x(w, 0.0f);
  x[w - 2] = 1.0f;  // position 2^24 + 1, which no float32 can name
  x_buffer.write(x);
  oa_test::DeviceBuffer out_buffer(3 * sizeof(float));
  oa_test::DeviceBuffer indices_buffer(3 * sizeof(int64_t));
  auto self = oa_test::make_tensor({1, 1, w}, ACL_FLOAT, x_buffer.get());
  auto out = oa_test::make_tensor({1, 1, 3}, ACL_FLOAT, out_buffer.get());
  auto indices = oa_test::make_tensor({1, 1, 3}, ACL_INT64, indices_buffer.get());
  ASSERT_EQ(run_forward(self.get(), {1, 3}, out.get(), indices.get()), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const int64_t third = w / 3;  // windows [0, w/3], ..., each starting at floor(k * w / 3)
  EXPECT_EQ(indices_buffer.read<int64_t>(),
            (std::vector<int64_t>{0, third, (int64_t{1} << 24) + 1}));
  EXPECT_EQ(out_buffer.read<float>(), (std::vector<float>{0, 0, 1}));
}

}  // namespace
}  // namespace amp_test
