// The float64 reference itself, on values worked out by hand: a wrong reference would make every
// randomized comparison meaningless.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "reference/smooth_l1_loss.h"

namespace {

using oa_ref::decode;
using oa_ref::encode;
using oa_ref::HostView;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(SmoothL1Reference, EncodesFloat16NearestEven) {
  EXPECT_EQ(encode(ACL_FLOAT16, 1.0), 0x3C00u);
  EXPECT_EQ(encode(ACL_FLOAT16, -2.0), 0xC000u);
  EXPECT_EQ(encode(ACL_FLOAT16, 1.0 + std::ldexp(1.0, -11)), 0x3C00u);      // tie, to even
  EXPECT_EQ(encode(ACL_FLOAT16, 1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02u);  // tie, to even
  EXPECT_EQ(encode(ACL_FLOAT16, 1.0 + std::ldexp(1.0, -11) + 1e-9), 0x3C01u);
  EXPECT_EQ(encode(ACL_FLOAT16, 65504.0), 0x7BFFu);
  EXPECT_EQ(encode(ACL_FLOAT16, 65519.99), 0x7BFFu);
  EXPECT_EQ(encode(ACL_FLOAT16, 65520.0), 0x7C00u);  // the tie past the largest value overflows
  EXPECT_EQ(encode(ACL_FLOAT16, 1e10), 0x7C00u);
  EXPECT_EQ(encode(ACL_FLOAT16, -kInf), 0xFC00u);
  EXPECT_EQ(encode(ACL_FLOAT16, std::ldexp(1.0, -14)), 0x0400u);  // smallest normal
  EXPECT_EQ(encode(ACL_FLOAT16, std::ldexp(1.0, -24)), 0x0001u);  // smallest subnormal
  EXPECT_EQ(encode(ACL_FLOAT16, std::ldexp(1.0, -25)), 0x0000u);  // tie, to even (zero)
  EXPECT_EQ(encode(ACL_FLOAT16, 3 * std::ldexp(1.0, -25)), 0x0002u);
  EXPECT_EQ(encode(ACL_FLOAT16, std::ldexp(1023.5, -24)), 0x0400u);  // carries into the normals
  EXPECT_EQ(encode(ACL_FLOAT16, -0.0), 0x8000u);
  EXPECT_TRUE(oa_ref::is_nan_code(ACL_FLOAT16, encode(ACL_FLOAT16, kNaN)));
}

TEST(SmoothL1Reference, EncodesBf16AndFloatNearestEven) {
  EXPECT_EQ(encode(ACL_BF16, 1.0), 0x3F80u);
  EXPECT_EQ(encode(ACL_BF16, 1.0 + std::ldexp(1.0, -8)), 0x3F80u);
  EXPECT_EQ(encode(ACL_BF16, 1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82u);
  EXPECT_EQ(encode(ACL_BF16, -3.0), 0xC040u);
  EXPECT_EQ(encode(ACL_BF16, 3.4e38), 0x7F80u);  // rounds past the largest bf16, 3.3895e38
  EXPECT_EQ(encode(ACL_BF16, std::ldexp(1.0, -133)), 0x0001u);
  EXPECT_EQ(encode(ACL_FLOAT, 1.0), 0x3F800000u);
  EXPECT_EQ(encode(ACL_FLOAT, 1.0 + std::ldexp(1.0, -24)), 0x3F800000u);
  EXPECT_EQ(encode(ACL_FLOAT, 1.0 + 3 * std::ldexp(1.0, -24)), 0x3F800002u);
  EXPECT_EQ(encode(ACL_FLOAT, 0.1), 0x3DCCCCCDu);
  EXPECT_EQ(encode(ACL_FLOAT, std::ldexp(1.0, -149)), 0x00000001u);
  EXPECT_EQ(encode(ACL_FLOAT, static_cast<double>(std::numeric_limits<float>::max())), 0x7F7FFFFFu);
  EXPECT_EQ(encode(ACL_FLOAT, 1e39), 0x7F800000u);
  // Agrees with the hardware's double -> float conversion on a spread of values.
  for (double v = 1e-44; v < 1e38; v *= 1.37) {
    float f = static_cast<float>(v);
    uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    ASSERT_EQ(encode(ACL_FLOAT, v), bits) << v;
  }
}

TEST(SmoothL1Reference, DecodesExactly) {
  EXPECT_EQ(decode(ACL_FLOAT16, 0x3C01), 1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(decode(ACL_FLOAT16, 0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(decode(ACL_FLOAT16, 0xFBFF), -65504.0);
  EXPECT_EQ(decode(ACL_FLOAT16, 0x7C00), kInf);
  EXPECT_TRUE(std::isnan(decode(ACL_FLOAT16, 0x7C01)));
  EXPECT_EQ(decode(ACL_BF16, 0x3F81), 1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(decode(ACL_BF16, 0x0001), std::ldexp(1.0, -133));
  EXPECT_EQ(decode(ACL_FLOAT, 0x3DCCCCCD), static_cast<double>(0.1f));
  EXPECT_EQ(decode(ACL_FLOAT, 0xFF800000u), -kInf);
  for (uint32_t code = 0; code < 0x10000; ++code) {
    if (!oa_ref::is_nan_code(ACL_FLOAT16, code)) {
      ASSERT_EQ(encode(ACL_FLOAT16, decode(ACL_FLOAT16, code)), code);
    }
    if (!oa_ref::is_nan_code(ACL_BF16, code)) {
      ASSERT_EQ(encode(ACL_BF16, decode(ACL_BF16, code)), code);
    }
  }
}

TEST(SmoothL1Reference, CountsUlps) {
  EXPECT_EQ(oa_ref::ulp_distance(ACL_FLOAT16, 0x3C00, 0x3C01), 1);
  EXPECT_EQ(oa_ref::ulp_distance(ACL_FLOAT16, 0x8000, 0x0000), 0);
  EXPECT_EQ(oa_ref::ulp_distance(ACL_FLOAT16, 0x8001, 0x0001), 2);
  EXPECT_EQ(oa_ref::ulp_distance(ACL_FLOAT16, 0x7BFF, 0x7C00), 1);
  EXPECT_EQ(oa_ref::ulp_distance(ACL_BF16, 0xBF80, 0xBF84), 4);
  EXPECT_EQ(oa_ref::ulp_distance(ACL_FLOAT, 0x3F800000u, 0x3F7FFFFFu), 1);
  EXPECT_EQ(oa_ref::ulp_distance(ACL_FLOAT, 0x80000001u, 0x00000002u), 3);
}

TEST(SmoothL1Reference, Broadcasts) {
  oa_ref::Dims shape;
  ASSERT_TRUE(oa_ref::broadcast_shapes({{2, 1, 3}, {4, 1}, {}}, &shape));
  EXPECT_EQ(shape, (oa_ref::Dims{2, 4, 3}));
  ASSERT_TRUE(oa_ref::broadcast_shapes({{0, 1}, {1, 5}}, &shape));
  EXPECT_EQ(shape, (oa_ref::Dims{0, 5}));
  EXPECT_FALSE(oa_ref::broadcast_shapes({{2, 3}, {3, 3}}, &shape));
}

// The seed's example: self 0..7, target 1, gradOutput 1, beta 1.
TEST(SmoothL1Reference, BackwardSeedExample) {
  std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<float> ones(8, 1.0f);
  auto as_bytes = [](const std::vector<float>& v) {
    return reinterpret_cast<const unsigned char*>(v.data());
  };
  HostView g{{4, 2}, {2, 1}, 0, ACL_FLOAT, as_bytes(ones)};
  HostView self{{4, 2}, {2, 1}, 0, ACL_FLOAT, as_bytes(x)};
  HostView target{{4, 2}, {2, 1}, 0, ACL_FLOAT, as_bytes(ones)};
  EXPECT_EQ(oa_ref::smooth_l1_loss_backward(g, self, target, 0, 1.0f),
            (std::vector<double>{-1, 0, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(oa_ref::smooth_l1_loss_backward(g, self, target, 1, 1.0f),
            (std::vector<double>{-0.125, 0, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125}));
  // beta 4: d / 4 inside (-4, 4).
  EXPECT_EQ(oa_ref::smooth_l1_loss_backward(g, self, target, 2, 4.0f),
            (std::vector<double>{-0.25, 0, 0.25, 0.5, 0.75, 1, 1, 1}));
}

// Strided and broadcast reads: self is column 1 of a 3x2 buffer read backwards (stride -2),
// target a [1] scalar, gradOutput a [2, 1] column, so the broadcast shape is [2, 3].
TEST(SmoothL1Reference, BackwardReadsStridedBroadcastViews) {
  std::vector<float> buffer = {9, 1, 9, 2, 9, 3};
  std::vector<float> scalar = {2};
  std::vector<float> column = {1, -2};
  auto as_bytes = [](const std::vector<float>& v) {
    return reinterpret_cast<const unsigned char*>(v.data());
  };
  HostView self{{3}, {-2}, 5, ACL_FLOAT, as_bytes(buffer)};  // 3, 2, 1
  HostView target{{1}, {1}, 0, ACL_FLOAT, as_bytes(scalar)};
  HostView g{{2, 1}, {1, 1}, 0, ACL_FLOAT, as_bytes(column)};
  EXPECT_EQ(oa_ref::smooth_l1_loss_backward(g, self, target, 0, 0.0f),
            (std::vector<double>{1, 0, -1, -2, 0, 2}));
  EXPECT_EQ(oa_ref::smooth_l1_loss_terms(self, target, 2.0f), (std::vector<double>{0.25, 0, 0.25}));
  EXPECT_EQ(oa_ref::smooth_l1_loss_reduced(self, target, 2, 0.0f), 2.0);
  EXPECT_EQ(oa_ref::smooth_l1_loss_reduced(self, target, 1, 0.5f), 0.5);  // (0.75 + 0 + 0.75) / 3
}

TEST(SmoothL1Reference, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {1, 0, inf, std::nanf(""), 5, -inf};
  std::vector<float> y = {1, 0, 0, 0, 4, -inf};
  std::vector<float> g = {2, std::nanf(""), 3, 1, inf, 1};
  auto view = [](const std::vector<float>& v) {
    return HostView{{6}, {1}, 0, ACL_FLOAT, reinterpret_cast<const unsigned char*>(v.data())};
  };
  std::vector<double> grad = oa_ref::smooth_l1_loss_backward(view(g), view(x), view(y), 0, 0.0f);
  EXPECT_EQ(grad[0], 0.0);  // sign(0) = 0, never NaN for beta = 0
  EXPECT_TRUE(std::isnan(grad[1]));
  EXPECT_EQ(grad[2], 3.0);
  EXPECT_TRUE(std::isnan(grad[3]));
  EXPECT_EQ(grad[4], kInf);
  EXPECT_TRUE(std::isnan(grad[5]));  // inf - inf
  std::vector<double> terms = oa_ref::smooth_l1_loss_terms(view(x), view(y), inf);
  EXPECT_EQ(terms[0], 0.0);
  EXPECT_TRUE(std::isnan(terms[2]));  // |d| = beta = inf: inf - 0.5 * inf
  EXPECT_EQ(terms[4], 0.0);           // 0.5 * 1 / inf
  HostView empty{{0, 3}, {3, 1}, 0, ACL_FLOAT, nullptr};
  EXPECT_TRUE(std::isnan(oa_ref::smooth_l1_loss_reduced(empty, empty, 1, 1.0f)));
  EXPECT_EQ(oa_ref::smooth_l1_loss_reduced(empty, empty, 2, 1.0f), 0.0);
}

}  // namespace
