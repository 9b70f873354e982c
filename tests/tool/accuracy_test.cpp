// The compare command's statistics on small arrays whose answers are known by hand.
#include "openaclnn/accuracy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "base/float_convert.h"

namespace oa::tool {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

template <typename T>
Array array_of(aclDataType dtype, const std::vector<T>& values) {
  Array array;
  array.dtype = dtype;
  array.shape = {static_cast<int64_t>(values.size())};
  const auto* bytes = reinterpret_cast<const uint8_t*>(values.data());
  array.bytes.assign(bytes, bytes + values.size() * sizeof(T));
  return array;
}

TEST(AccuracyTest, DefaultTolerancesFollowCannsStandards) {
  EXPECT_EQ(default_rtol(ACL_FLOAT), 1e-4);
  EXPECT_EQ(default_rtol(ACL_FLOAT16), 1e-3);
  EXPECT_EQ(default_rtol(ACL_BF16), 4e-3);
  EXPECT_EQ(default_rtol(ACL_HIFLOAT8), 0.125);
  EXPECT_EQ(default_rtol(ACL_FLOAT8_E4M3FN), 0.125);
  EXPECT_EQ(default_rtol(ACL_INT32), 0);
  EXPECT_EQ(default_rtol(ACL_INT64), 0);

  const Tolerance same = default_tolerance(ACL_FLOAT, ACL_FLOAT);
  EXPECT_EQ(same.rtol, 1e-4);
  EXPECT_EQ(same.atol, 1e-4);
  // A float16 result against a float32 golden is held to the float16 standard.
  const Tolerance mixed = default_tolerance(ACL_FLOAT, ACL_FLOAT16);
  EXPECT_EQ(mixed.rtol, 1e-3);
  EXPECT_EQ(mixed.atol, 1e-3);
  const Tolerance exact = default_tolerance(ACL_INT32, ACL_INT64);
  EXPECT_EQ(exact.rtol, 0);
  EXPECT_EQ(exact.atol, 0);
}

TEST(AccuracyTest, ConvertsEveryDtypeToDouble) {
  EXPECT_EQ(to_doubles(array_of<float>(ACL_FLOAT, {1.5f, -0.25f})),
            (std::vector<double>{1.5, -0.25}));
  EXPECT_EQ(to_doubles(array_of<uint16_t>(ACL_FLOAT16, {0x3C00, 0xC000})),
            (std::vector<double>{1, -2}));
  EXPECT_EQ(to_doubles(array_of<uint16_t>(ACL_BF16, {0x3F80, 0x4040})),
            (std::vector<double>{1, 3}));
  EXPECT_EQ(to_doubles(array_of<int32_t>(ACL_INT32, {-7, 2147483647})),
            (std::vector<double>{-7, 2147483647}));
  EXPECT_EQ(to_doubles(array_of<int64_t>(ACL_INT64, {-5, int64_t{1} << 40})),
            (std::vector<double>{-5, 1099511627776.0}));
  EXPECT_EQ(to_doubles(array_of<uint8_t>(ACL_FLOAT8_E4M3FN, {0x38, 0xC0})),
            (std::vector<double>{1, -2}));
  EXPECT_EQ(to_doubles(array_of<uint8_t>(ACL_HIFLOAT8, {oa::float_to_hif8(1.5f)})),
            std::vector<double>{1.5});

  Array scalar = array_of<float>(ACL_FLOAT, {4.0f});
  scalar.shape = {};
  EXPECT_EQ(to_doubles(scalar), std::vector<double>{4});
}

TEST(AccuracyTest, MeasuresErrorsAndCosineSimilarity) {
  const Accuracy r = measure_accuracy({1, 2, 4}, {1, 2.5, 3}, {0.1, 0}, 10);
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(r.finite_count, 3);
  EXPECT_EQ(r.max_abs_error, 1);
  EXPECT_EQ(r.max_abs_index, 2);
  EXPECT_EQ(r.relative_count, 3);
  EXPECT_EQ(r.max_rel_error, 0.25);
  EXPECT_EQ(r.max_rel_index, 1);  // the first of the two largest
  EXPECT_DOUBLE_EQ(r.mean_rel_error, 0.5 / 3);
  EXPECT_DOUBLE_EQ(r.cosine_similarity, 18 / std::sqrt(21 * 16.25));
  EXPECT_EQ(r.nan_mismatches, 0);
  EXPECT_EQ(r.inf_mismatches, 0);
  EXPECT_EQ(r.outside, 2);
  ASSERT_EQ(r.first_outside.size(), 2u);
  EXPECT_EQ(r.first_outside[0].index, 1);
  EXPECT_EQ(r.first_outside[0].expected, 2);
  EXPECT_EQ(r.first_outside[0].actual, 2.5);
  EXPECT_EQ(r.first_outside[1].index, 2);
}

TEST(AccuracyTest, TheToleranceBoundIsInclusive) {
  // |2.5 - 2| = 0.5 = 0.1 + 0.2 * 2: inside. Every value is exact in binary.
  EXPECT_EQ(measure_accuracy({2}, {2.5}, {0.25, 0}, 10).outside, 0);
  EXPECT_EQ(measure_accuracy({2}, {2.5}, {0.125, 0.25}, 10).outside, 0);
  EXPECT_EQ(measure_accuracy({2}, {2.5}, {0.125, 0.125}, 10).outside, 1);
  EXPECT_EQ(measure_accuracy({-2}, {-2.5}, {0.25, 0}, 10).outside, 0);
  // Exact tolerance, as for integers.
  EXPECT_EQ(measure_accuracy({7, 8}, {7, 9}, {0, 0}, 10).outside, 1);
}

TEST(AccuracyTest, ZeroExpectedValuesAreLeftOutOfRelativeStatistics) {
  const Accuracy r = measure_accuracy({0, 1}, {0.5, 1}, {0, 0.25}, 10);
  EXPECT_EQ(r.relative_count, 1);
  EXPECT_EQ(r.max_rel_error, 0);
  EXPECT_EQ(r.max_rel_index, 1);
  EXPECT_EQ(r.max_abs_error, 0.5);
  EXPECT_EQ(r.max_abs_index, 0);
  EXPECT_EQ(r.outside, 1);  // the tolerance still covers the zero

  const Accuracy zeros = measure_accuracy({0, 0}, {0, 0}, {0, 0}, 10);
  EXPECT_EQ(zeros.relative_count, 0);
  EXPECT_EQ(zeros.max_rel_index, -1);
  EXPECT_EQ(zeros.mean_rel_error, 0);
  EXPECT_EQ(zeros.cosine_similarity, 1);
  EXPECT_EQ(zeros.outside, 0);
}

TEST(AccuracyTest, NanAndInfinityRules) {
  const std::vector<double> expected = {kNan, kNan, 1, kInf, kInf, -kInf, 1, -kInf, 3};
  const std::vector<double> actual = {kNan, 1, kNan, kInf, -kInf, 5, kInf, -kInf, 3};
  const Accuracy r = measure_accuracy(expected, actual, {0, 0}, 10);
  EXPECT_EQ(r.nan_mismatches, 2);
  EXPECT_EQ(r.inf_mismatches, 3);
  EXPECT_EQ(r.outside, 5);
  EXPECT_EQ(r.finite_count, 1);
  EXPECT_EQ(r.max_abs_error, 0);
  EXPECT_EQ(r.max_abs_index, 8);
  std::vector<int64_t> indices;
  for (const Mismatch& m : r.first_outside) {
    indices.push_back(m.index);
  }
  EXPECT_EQ(indices, (std::vector<int64_t>{1, 2, 4, 5, 6}));

  const Accuracy none_finite = measure_accuracy({kNan, kInf}, {kNan, kInf}, {0, 0}, 10);
  EXPECT_EQ(none_finite.outside, 0);
  EXPECT_EQ(none_finite.finite_count, 0);
  EXPECT_EQ(none_finite.max_abs_index, -1);
}

TEST(AccuracyTest, ListsOnlyTheFirstOutsideElements) {
  const std::vector<double> expected(20, 1.0);
  const std::vector<double> actual(20, 2.0);
  const Accuracy r = measure_accuracy(expected, actual, {0, 0}, 10);
  EXPECT_EQ(r.outside, 20);
  ASSERT_EQ(r.first_outside.size(), 10u);
  EXPECT_EQ(r.first_outside.front().index, 0);
  EXPECT_EQ(r.first_outside.back().index, 9);
}

TEST(AccuracyTest, CosineSimilarityEdgeCases) {
  EXPECT_DOUBLE_EQ(measure_accuracy({1, 2}, {-1, -2}, {0, 0}, 0).cosine_similarity, -1);
  EXPECT_DOUBLE_EQ(measure_accuracy({1, 0}, {0, 1}, {0, 0}, 0).cosine_similarity, 0);
  EXPECT_EQ(measure_accuracy({0, 0}, {1, 0}, {0, 0}, 0).cosine_similarity, 0);
  EXPECT_EQ(measure_accuracy({}, {}, {0, 0}, 0).cosine_similarity, 1);
  EXPECT_EQ(measure_accuracy({}, {}, {0, 0}, 0).count, 0);
}

TEST(AccuracyTest, UnravelsCOrderIndices) {
  EXPECT_EQ(unravel_index(23, {2, 3, 4}), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(unravel_index(5, {2, 3, 4}), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(unravel_index(4, {5}), std::vector<int64_t>{4});
  EXPECT_EQ(unravel_index(0, {}), std::vector<int64_t>{});
}

}  // namespace
}  // namespace oa::tool
