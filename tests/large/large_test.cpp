// Tensors of more than 2^31 elements (run by scripts/run_large_tests.sh, not by ctest: they need
// about 9 GiB of memory each and minutes of a 2-core machine). Every index, offset and byte count
// of a launch must be 64-bit: each test puts distinct values at the far end of a huge tensor, past
// element 2^31, and checks the results there and around 2^31 against values computed here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "base/float_convert.h"
#include "test_env.h"

namespace {

using oa_test::DeviceBuffer;
using oa_test::make_tensor;

constexpr int64_t kTwo31 = int64_t{1} << 31;

uint16_t bf16(float value) { return oa::float_to_bf16(value); }
float from_bf16(uint16_t bits) { return oa::bf16_to_float(bits); }

// Host-to-device copy of `values` to element `at` of a buffer of T.
template <typename T>
void put(const DeviceBuffer& buffer, int64_t at, const std::vector<T>& values) {
  const size_t bytes = values.size() * sizeof(T);
  ASSERT_EQ(
      aclrtMemcpy(buffer.as<T>() + at, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
}

// Device-to-host copy of `count` elements of T from element `at`.
template <typename T>
std::vector<T> get(const DeviceBuffer& buffer, int64_t at, int64_t count) {
  std::vector<T> values(static_cast<size_t>(count));
  const size_t bytes = values.size() * sizeof(T);
  EXPECT_EQ(
      aclrtMemcpy(values.data(), bytes, buffer.as<T>() + at, bytes, ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  return values;
}

void fill(const DeviceBuffer& buffer, int byte) {
  ASSERT_EQ(aclrtMemset(buffer.get(), buffer.size(), byte, buffer.size()), ACL_SUCCESS);
}

// Runs phase 2 with a workspace of the size phase 1 asked for.
template <typename Run>
void launch(uint64_t workspace_size, aclOpExecutor* executor, Run run) {
  std::unique_ptr<DeviceBuffer> workspace;
  if (workspace_size > 0) {
    workspace = std::make_unique<DeviceBuffer>(workspace_size);
  }
  ASSERT_EQ(run(workspace ? workspace->get() : nullptr, workspace_size, executor, nullptr),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
}

// SmoothL1LossBackward over self [2049, 2^20] bf16 (2^31 + 2^20 elements), target broadcast
// along the rows, gradOutput a scalar.
TEST(LargeSizes, ElementwiseOverMoreThan2To31Elements) {
  constexpr int64_t kRows = 2049;
  constexpr int64_t kCols = int64_t{1} << 20;
  constexpr int64_t kCount = kRows * kCols;
  DeviceBuffer self(static_cast<size_t>(kCount) * 2);
  DeviceBuffer out(static_cast<size_t>(kCount) * 2);
  DeviceBuffer target(static_cast<size_t>(kCols) * 2);
  DeviceBuffer grad(2);
  fill(self, 0);    // +0 everywhere but the far end
  fill(out, 0xFF);  // NaN codes: an element never written stays one
  std::vector<uint16_t> row(static_cast<size_t>(kCols));
  for (int64_t i = 0; i < kCols; ++i) {
    row[static_cast<size_t>(i)] = bf16(static_cast<float>(i % 7) - 3.0f);
  }
  put(target, 0, row);
  put(grad, 0, std::vector<uint16_t>{bf16(2.0f)});
  constexpr int64_t kTail = 4096;
  std::vector<uint16_t> tail(kTail);
  for (int64_t i = 0; i < kTail; ++i) {
    tail[static_cast<size_t>(i)] = bf16(static_cast<float>(i % 11) * 0.25f - 1.0f);
  }
  put(self, kCount - kTail, tail);

  auto g = make_tensor({}, ACL_BF16, grad.get());
  auto x = make_tensor({kRows, kCols}, ACL_BF16, self.get());
  auto y = make_tensor({1, kCols}, ACL_BF16, target.get());
  auto o = make_tensor({kRows, kCols}, ACL_BF16, out.get());
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnSmoothL1LossBackwardGetWorkspaceSize(g.get(), x.get(), y.get(), 0, 1.0f, o.get(),
                                                      &workspace_size, &executor),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  launch(workspace_size, executor, aclnnSmoothL1LossBackward);

  // d = x - y; grad = d inside (-1, 1), else sign(d); times gradOutput 2.
  const auto expected = [&](int64_t i, float x_value) {
    const float d = x_value - from_bf16(row[static_cast<size_t>(i % kCols)]);
    const float grad_d = std::fabs(d) < 1.0f ? d : (d > 0 ? 1.0f : (d < 0 ? -1.0f : d));
    return bf16(grad_d * 2.0f);
  };
  const std::vector<uint16_t> end = get<uint16_t>(out, kCount - kTail, kTail);
  for (int64_t i = 0; i < kTail; ++i) {
    ASSERT_EQ(end[static_cast<size_t>(i)],
              expected(kCount - kTail + i, from_bf16(tail[static_cast<size_t>(i)])))
        << "element " << kCount - kTail + i;
  }
  const std::vector<uint16_t> middle = get<uint16_t>(out, kTwo31 - 8, 16);
  for (int64_t i = 0; i < 16; ++i) {
    ASSERT_EQ(middle[static_cast<size_t>(i)], expected(kTwo31 - 8 + i, 0.0f))
        << "element " << kTwo31 - 8 + i;
  }
}

// AdaptiveMaxPool2dBackward into two FLOAT16 planes of 46340 x 46340 positions (the largest square
// plane whose positions an index can name: 2^31 - 88048), 2^32 - 176096 elements in all: indices at
// each plane's far end and, in the second plane, at element 2^31 of gradInput.
TEST(LargeSizes, PoolingBackwardIntoPlanesNear2To31Positions) {
  constexpr int64_t kSide = 46340;
  constexpr int64_t kPositions = kSide * kSide;
  constexpr int64_t kPlanes = 2;
  DeviceBuffer grad_input(static_cast<size_t>(kPlanes * kPositions) * 2);
  DeviceBuffer self(static_cast<size_t>(kPlanes * kPositions) * 2);
  DeviceBuffer grad_output(kPlanes * 4 * 2);
  DeviceBuffer indices(kPlanes * 4 * 8);
  fill(grad_input, 0x7E);  // NaN codes: every position must be written
  const std::vector<float> values = {1.5f, -2.0f, 3.0f, 0.5f, -1.0f, 2.5f, -0.75f, 4.0f};
  std::vector<uint16_t> codes;
  for (float v : values) {
    codes.push_back(oa::float_to_half(v));
  }
  put(grad_output, 0, codes);
  // The 2x2 outputs' windows are each plane's quarters; every index lies in its own window.
  const int64_t half = kSide / 2;
  const std::vector<int64_t> where = {0,
                                      half + 1,
                                      (kSide - 1) * kSide + 3,
                                      kPositions - 1,
                                      0,
                                      kTwo31 - kPositions,
                                      half * kSide + 5,
                                      kPositions - 1};
  put(indices, 0, where);

  auto go = make_tensor({1, kPlanes, 2, 2}, ACL_FLOAT16, grad_output.get());
  auto x = make_tensor({1, kPlanes, kSide, kSide}, ACL_FLOAT16, self.get());
  auto idx = make_tensor({1, kPlanes, 2, 2}, ACL_INT64, indices.get());
  auto gi = make_tensor({1, kPlanes, kSide, kSide}, ACL_FLOAT16, grad_input.get());
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(go.get(), x.get(), idx.get(), gi.get(),
                                                           &workspace_size, &executor),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  launch(workspace_size, executor, aclnnAdaptiveMaxPool2dBackward);

  for (size_t k = 0; k < where.size(); ++k) {
    const int64_t plane = static_cast<int64_t>(k / 4) * kPositions;
    const int64_t from = plane + std::max<int64_t>(0, where[k] - 2);
    const int64_t to = plane + std::min<int64_t>(kPositions, where[k] + 3);
    const std::vector<uint16_t> got = get<uint16_t>(grad_input, from, to - from);
    for (int64_t p = from; p < to; ++p) {
      const float want = p == plane + where[k] ? values[k] : 0.0f;
      ASSERT_EQ(got[static_cast<size_t>(p - from)], oa::float_to_half(want)) << "element " << p;
    }
  }
}

// ConvTbc over self [2^21 + 1, 1, 1024] BF16 (2^31 + 1024 elements; the last time step starts at
// element 2^31): the last time steps' outputs are the dot products of the values written there.
TEST(LargeSizes, ConvolutionOverAnInputOfMoreThan2To31Elements) {
  constexpr int64_t kTime = (int64_t{1} << 21) + 1;
  constexpr int64_t kChannels = 1024;
  constexpr int64_t kCount = kTime * kChannels;
  DeviceBuffer self(static_cast<size_t>(kCount) * 2);
  DeviceBuffer weight(static_cast<size_t>(kChannels) * 2);
  DeviceBuffer bias(2);
  DeviceBuffer output(static_cast<size_t>(kTime) * 2);
  fill(self, 0);
  fill(output, 0xFF);
  std::vector<uint16_t> w(kChannels);
  for (int64_t c = 0; c < kChannels; ++c) {
    w[static_cast<size_t>(c)] = bf16(static_cast<float>(c % 5) - 2.0f);
  }
  put(weight, 0, w);
  put(bias, 0, std::vector<uint16_t>{bf16(0.5f)});
  constexpr int64_t kSteps = 3;
  std::vector<uint16_t> tail(kSteps * kChannels);
  for (int64_t i = 0; i < kSteps * kChannels; ++i) {
    tail[static_cast<size_t>(i)] = bf16(static_cast<float>(i % 3));
  }
  put(self, kCount - kSteps * kChannels, tail);

  auto x = make_tensor({kTime, 1, kChannels}, ACL_BF16, self.get());
  auto wt = make_tensor({1, kChannels, 1}, ACL_BF16, weight.get());
  auto b = make_tensor({1}, ACL_BF16, bias.get());
  auto o = make_tensor({kTime, 1, 1}, ACL_BF16, output.get());
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnConvTbcGetWorkspaceSize(x.get(), wt.get(), b.get(), 0, o.get(), 0, &workspace_size,
                                         &executor),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  launch(workspace_size, executor, aclnnConvTbc);

  const std::vector<uint16_t> got = get<uint16_t>(output, kTime - kSteps - 2, kSteps + 2);
  for (int64_t k = 0; k < kSteps + 2; ++k) {
    double sum = 0.5;
    const int64_t step = kSteps + 2 - k;  // steps from the end, 1 = the last
    if (step <= kSteps) {
      for (int64_t c = 0; c < kChannels; ++c) {
        sum += static_cast<double>(
                   from_bf16(tail[static_cast<size_t>((kSteps - step) * kChannels + c)])) *
               from_bf16(w[static_cast<size_t>(c)]);
      }
    }
    ASSERT_EQ(got[static_cast<size_t>(k)], bf16(static_cast<float>(sum)))
        << "time step " << kTime - step;
  }
}

}  // namespace
