// The shared check helpers: each failure returns its code and a message naming the operator, the
// parameter and the value seen.
#include "core/checks.h"

#include <vector>

#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::expect_error;
using oa_test::make_tensor;

constexpr const char* kOp = "aclnnTestOp";

TEST(CheckNotNull, PassesWhenAllAreSet) {
  int a = 0;
  int b = 0;
  EXPECT_EQ(oa::check_not_null(kOp, {{&a, "self"}, {&b, "target"}}), ACLNN_SUCCESS);
}

TEST(CheckNotNull, NamesTheFirstNullOne) {
  int a = 0;
  expect_error(oa::check_not_null(kOp, {{&a, "self"}, {nullptr, "target"}, {nullptr, "out"}}),
               ACLNN_ERR_PARAM_NULLPTR, {kOp, "target must not be null"});
}

TEST(CheckDtype, AcceptsListedDtypes) {
  auto t = make_tensor({2}, ACL_FLOAT16, nullptr);
  EXPECT_EQ(oa::check_dtype(kOp, {t.get(), "self"}, {ACL_FLOAT, ACL_FLOAT16}), ACLNN_SUCCESS);
}

TEST(CheckDtype, RejectsOthers) {
  auto t = make_tensor({2}, ACL_INT32, nullptr);
  expect_error(oa::check_dtype(kOp, {t.get(), "self"}, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}),
               ACLNN_ERR_PARAM_INVALID,
               {kOp, "self dtype must be one of {FLOAT, FLOAT16, BF16}", "got INT32"});
}

TEST(CheckSameDtype, ComparesWithTheReference) {
  auto self = make_tensor({2}, ACL_FLOAT, nullptr);
  auto same = make_tensor({3}, ACL_FLOAT, nullptr);
  auto other = make_tensor({2}, ACL_BF16, nullptr);
  EXPECT_EQ(oa::check_same_dtype(kOp, {same.get(), "target"}, {self.get(), "self"}), ACLNN_SUCCESS);
  expect_error(oa::check_same_dtype(kOp, {other.get(), "target"}, {self.get(), "self"}),
               ACLNN_ERR_PARAM_INVALID,
               {kOp, "target dtype must equal self dtype (FLOAT)", "got BF16"});
}

TEST(CheckFormat, AcceptsListedFormats) {
  auto t = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, ACL_FORMAT_NCHW);
  EXPECT_EQ(oa::check_format(kOp, {t.get(), "self"}, {ACL_FORMAT_ND, ACL_FORMAT_NCHW}),
            ACLNN_SUCCESS);
}

TEST(CheckFormat, RejectsOthers) {
  auto nhwc = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, ACL_FORMAT_NHWC);
  expect_error(oa::check_format(kOp, {nhwc.get(), "self"}, {ACL_FORMAT_ND, ACL_FORMAT_NCHW}),
               ACLNN_ERR_PARAM_INVALID, {kOp, "self format must be one of {ND, NCHW}", "got NHWC"});
}

TEST(CheckSamePublicFormat, PassesForOnePublicFormat) {
  auto a = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, ACL_FORMAT_NCL);
  auto b = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, ACL_FORMAT_NCL);
  EXPECT_EQ(oa::check_same_public_format(kOp, {{a.get(), "self"}, {b.get(), "weight"}}),
            ACLNN_SUCCESS);
}

TEST(CheckSamePublicFormat, RejectsAMismatch) {
  auto a = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, ACL_FORMAT_ND);
  auto b = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, ACL_FORMAT_ND);
  auto c = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, ACL_FORMAT_NCHW);
  expect_error(oa::check_same_public_format(
                   kOp, {{a.get(), "self"}, {b.get(), "weight"}, {c.get(), "bias"}}),
               ACLNN_ERR_PARAM_INVALID,
               {kOp, "bias format must equal self format (ND)", "got NCHW"});
}

TEST(CheckSamePublicFormat, RejectsPrivateFormats) {
  for (aclFormat format : {ACL_FORMAT_NC1HWC0, ACL_FORMAT_FRACTAL_Z, ACL_FORMAT_FRACTAL_NZ,
                           ACL_FRACTAL_Z_3D, ACL_FORMAT_FRACTAL_NZ_C0_16}) {
    auto a = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, format);
    auto b = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, format);
    expect_error(oa::check_same_public_format(kOp, {{a.get(), "self"}, {b.get(), "weight"}}),
                 ACLNN_ERR_PARAM_INVALID, {kOp, "self format", "private hardware format"});
  }
  auto nz = make_tensor({2}, ACL_FLOAT, nullptr, {}, 0, ACL_FORMAT_FRACTAL_NZ);
  expect_error(oa::check_same_public_format(kOp, {{nz.get(), "self"}}), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self format FRACTAL_NZ", "private"});
}

TEST(CheckRank, RangeAndExact) {
  auto t = make_tensor({3}, ACL_FLOAT, nullptr);
  EXPECT_EQ(oa::check_rank(kOp, {t.get(), "self"}, 1, 4), ACLNN_SUCCESS);
  expect_error(oa::check_rank(kOp, {t.get(), "self"}, 2, 4), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self rank must be 2..4", "got 1", "(shape [3])"});
  expect_error(oa::check_rank(kOp, {t.get(), "gradOutput"}, 3, 3), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradOutput rank must be 3,", "got 1"});
  auto rank9 = make_tensor({1, 1, 1, 1, 1, 1, 1, 1, 1}, ACL_FLOAT, nullptr);
  expect_error(oa::check_rank(kOp, {rank9.get(), "self"}, 0, 8), ACLNN_ERR_PARAM_INVALID,
               {kOp, "self rank must be 0..8", "got 9"});
}

TEST(CheckSameRank, NamesTheMismatch) {
  auto a = make_tensor({2, 3}, ACL_FLOAT, nullptr);
  auto b = make_tensor({4, 5}, ACL_FLOAT, nullptr);
  auto c = make_tensor({2, 3, 1}, ACL_FLOAT, nullptr);
  EXPECT_EQ(oa::check_same_rank(kOp, {{a.get(), "self"}, {b.get(), "target"}}), ACLNN_SUCCESS);
  expect_error(oa::check_same_rank(kOp, {{a.get(), "self"}, {b.get(), "target"}, {c.get(), "out"}}),
               ACLNN_ERR_PARAM_INVALID, {kOp, "out rank must equal self rank (2)", "got 3"});
}

TEST(CheckShape, ComparesWithTheExpectedShape) {
  auto t = make_tensor({3, 2}, ACL_FLOAT, nullptr);
  EXPECT_EQ(oa::check_shape(kOp, {t.get(), "out"}, {3, 2}, "the broadcast shape"), ACLNN_SUCCESS);
  expect_error(oa::check_shape(kOp, {t.get(), "out"}, {2, 3}, "the broadcast shape"),
               ACLNN_ERR_PARAM_INVALID,
               {kOp, "out shape must be the broadcast shape [2, 3]", "got [3, 2]"});
}

TEST(CheckSameShape, ComparesWithTheReference) {
  auto self = make_tensor({2, 3}, ACL_FLOAT, nullptr);
  auto same = make_tensor({2, 3}, ACL_FLOAT16, nullptr);
  auto other = make_tensor({3}, ACL_FLOAT, nullptr);
  EXPECT_EQ(oa::check_same_shape(kOp, {same.get(), "gradInput"}, {self.get(), "self"}),
            ACLNN_SUCCESS);
  expect_error(oa::check_same_shape(kOp, {other.get(), "gradInput"}, {self.get(), "self"}),
               ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradInput shape must be equal to self shape [2, 3]", "got [3]"});
}

TEST(CheckBroadcast, BroadcastsAllInputs) {
  auto a = make_tensor({2, 1}, ACL_FLOAT, nullptr);
  auto b = make_tensor({3}, ACL_FLOAT, nullptr);
  auto c = make_tensor({}, ACL_FLOAT, nullptr);
  Shape out;
  ASSERT_EQ(
      oa::check_broadcast(kOp, {{a.get(), "self"}, {b.get(), "target"}, {c.get(), "grad"}}, &out),
      ACLNN_SUCCESS);
  EXPECT_EQ(out, (Shape{2, 3}));
}

TEST(CheckBroadcast, NamesTheInputThatDoesNot) {
  auto a = make_tensor({2, 1}, ACL_FLOAT, nullptr);
  auto b = make_tensor({3}, ACL_FLOAT, nullptr);
  auto c = make_tensor({4}, ACL_FLOAT, nullptr);
  Shape out{7};
  expect_error(
      oa::check_broadcast(kOp, {{a.get(), "self"}, {b.get(), "target"}, {c.get(), "gradOutput"}},
                          &out),
      ACLNN_ERR_PARAM_INVALID,
      {kOp, "gradOutput shape [4] does not broadcast with the shape [2, 3] of self, target"});
  EXPECT_EQ(out, Shape{7});
}

TEST(CheckInDeviceMemory, PassesForDeviceViewsAndEmptyViews) {
  DeviceBuffer buffer(6 * sizeof(float));
  auto a = make_tensor({2, 3}, ACL_FLOAT, buffer.get());
  auto empty = make_tensor({0, 3}, ACL_FLOAT, nullptr);
  EXPECT_EQ(oa::check_in_device_memory(kOp, {{a.get(), "self"}, {empty.get(), "out"}}),
            ACLNN_SUCCESS);
}

TEST(CheckInDeviceMemory, NamesTheTensorAndItsView) {
  DeviceBuffer buffer(6 * sizeof(float));
  std::vector<float> host(6);
  auto device = make_tensor({2, 3}, ACL_FLOAT, buffer.get());
  auto on_host = make_tensor({2, 3}, ACL_FLOAT, host.data());
  expect_error(oa::check_in_device_memory(kOp, {{device.get(), "self"}, {on_host.get(), "target"}}),
               ACLNN_ERR_PARAM_INVALID,
               {kOp, "target (shape [2, 3], strides [3, 1], offset 0", "not inside device memory",
                "is not device memory"});
  auto past_end = make_tensor({2, 3}, ACL_FLOAT, buffer.get(), {}, 2);
  expect_error(oa::check_in_device_memory(kOp, {{past_end.get(), "out"}}), ACLNN_ERR_PARAM_INVALID,
               {kOp, "out (shape [2, 3]", "offset 2", "runs past the end"});
}

TEST(CheckOutput, PassesForADisjointOutput) {
  std::vector<float> host(12);
  auto self = make_tensor({6}, ACL_FLOAT, host.data());
  auto out = make_tensor({6}, ACL_FLOAT, host.data() + 6);
  EXPECT_EQ(oa::check_output(kOp, {out.get(), "out"}, {{self.get(), "self"}}, false),
            ACLNN_SUCCESS);
}

TEST(CheckOutput, RejectsAnOutputThatWritesAnElementTwice) {
  std::vector<float> host(4);
  auto out = make_tensor({3, 4}, ACL_FLOAT, host.data(), {0, 1});
  expect_error(oa::check_output(kOp, {out.get(), "gradInput"}, {}, false), ACLNN_ERR_PARAM_INVALID,
               {kOp, "gradInput (shape [3, 4], strides [0, 1])", "more than once"});
}

TEST(CheckOutput, RejectsAnOverlappingInput) {
  std::vector<float> host(12);
  auto self = make_tensor({6}, ACL_FLOAT, host.data());
  auto target = make_tensor({6}, ACL_FLOAT, host.data() + 6);
  auto out = make_tensor({6}, ACL_FLOAT, host.data() + 3);
  expect_error(oa::check_output(kOp, {out.get(), "out"},
                                {{self.get(), "self"}, {target.get(), "target"}}, false),
               ACLNN_ERR_PARAM_INVALID,
               {kOp, "out overlaps self", "out: shape [6], strides [1], offset 0",
                "self: shape [6], strides [1], offset 0"});
  expect_error(oa::check_output(kOp, {out.get(), "out"}, {{target.get(), "target"}}, true),
               ACLNN_ERR_PARAM_INVALID,
               {kOp, "out overlaps target", "target: shape [6]",
                "only an exactly identical view is allowed"});
}

TEST(CheckOutput, InPlaceOnlyWhenAllowedAndIdentical) {
  std::vector<float> host(6);
  auto self = make_tensor({2, 3}, ACL_FLOAT, host.data());
  auto out = make_tensor({2, 3}, ACL_FLOAT, host.data());
  EXPECT_EQ(oa::check_output(kOp, {out.get(), "out"}, {{self.get(), "self"}}, true), ACLNN_SUCCESS);
  expect_error(oa::check_output(kOp, {out.get(), "out"}, {{self.get(), "self"}}, false),
               ACLNN_ERR_PARAM_INVALID, {kOp, "out overlaps self"});
  // Same bytes, different dtype: not the in-place case.
  auto as_int = make_tensor({2, 3}, ACL_INT32, host.data());
  expect_error(oa::check_output(kOp, {out.get(), "out"}, {{as_int.get(), "self"}}, true),
               ACLNN_ERR_PARAM_INVALID, {kOp, "out overlaps self", "self: shape [2, 3]"});
  // Transposed view of the same bytes: not the in-place case either.
  auto transposed = make_tensor({3, 2}, ACL_FLOAT, host.data(), {1, 3});
  expect_error(oa::check_output(kOp, {out.get(), "out"}, {{transposed.get(), "self"}}, true),
               ACLNN_ERR_PARAM_INVALID,
               {kOp, "out overlaps self", "self: shape [3, 2], strides [1, 3]"});
}

}  // namespace
