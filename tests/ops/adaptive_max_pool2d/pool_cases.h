// Random problems for the adaptive max pooling tests: shapes (3-D and 4-D, divisible and not,
// Ho > H, 1x1 outputs), dtypes, memory layouts and input values with ties and specials; and the
// two-phase calls of both operators through their C entry points, on the tests' tensors
// (support/tensor.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "base/dtype.h"
#include "core/shape.h"
#include "reference/adaptive_max_pool2d.h"
#include "support/tensor.h"

namespace amp_test {

using oa_test::channels_last;
using oa_test::Layout;
using oa_test::TestTensor;

// A tensor of `shape` and `dtype` laid out as `layout` says.
inline oa::TensorSpec pool_tensor(std::vector<int64_t> shape, aclDataType dtype,
                                  const Layout& layout = {}) {
  return oa_test::laid_out(oa::TensorSpec(std::move(shape), dtype), layout);
}

struct PoolCase {
  std::vector<int64_t> shape;  // self: [N, C, H, W] or [C, H, W]
  int64_t ho = 1;
  int64_t wo = 1;
  aclDataType dtype = ACL_FLOAT;
  aclDataType index_dtype = ACL_INT64;
  Layout input_layout;   // self (forward) or gradInput (backward)
  Layout output_layout;  // output (forward) or gradOutput (backward)
  Layout index_layout;

  std::vector<int64_t> output_shape() const {
    std::vector<int64_t> s = shape;
    s[s.size() - 2] = ho;
    s[s.size() - 1] = wo;
    return s;
  }
  oa_ref::PoolShape ref_shape() const {
    const size_t r = shape.size();
    return {r == 4 ? shape[0] * shape[1] : shape[0], shape[r - 2], shape[r - 1], ho, wo};
  }
  std::string describe() const {
    std::string text = "self " + oa::shape_string(shape) + " -> " + std::to_string(ho) + "x" +
                       std::to_string(wo) + ", " + oa::dtype_name(dtype) + ", indices " +
                       oa::dtype_name(index_dtype) + ", layouts";
    for (const Layout* l : {&input_layout, &output_layout, &index_layout}) {
      text += " {order " + oa::shape_string({l->order.begin(), l->order.end()}) + " inner " +
              std::to_string(l->inner_stride) + " gap " + std::to_string(l->gap) + " offset " +
              std::to_string(l->offset) + "}";
    }
    return text;
  }
};

// Contiguous, channels-last, padded rows with an offset, a non-unit innermost stride, or H and W
// swapped in memory.
inline Layout random_layout(std::mt19937_64& rng, size_t rank) {
  switch (rng() % 5) {
    case 0:
      return {};
    case 1:
      return channels_last(rank);
    case 2:
      return {{}, 1, static_cast<int64_t>(1 + rng() % 3), static_cast<int64_t>(rng() % 7)};
    case 3:
      return {{}, 2, 0, 3};
    default:
      return rank == 4 ? Layout{{0, 1, 3, 2}} : Layout{{0, 2, 1}};
  }
}

inline PoolCase random_case(std::mt19937_64& rng) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(rng() % (hi - lo + 1));
  };
  PoolCase c;
  const bool four = rng() % 3 != 0;
  const int64_t channels = rng() % 6 == 0 ? pick(17, 40) : pick(1, 5);
  const int64_t h = pick(1, 13);
  const int64_t w = pick(1, 13);
  c.shape = four ? std::vector<int64_t>{pick(1, 3), channels, h, w}
                 : std::vector<int64_t>{channels, h, w};
  // Divisible, non-divisible, 1x1 and Ho > H all come up.
  switch (rng() % 4) {
    case 0:
      c.ho = 1;
      c.wo = 1;
      break;
    case 1:
      c.ho = pick(1, h + 4);
      c.wo = pick(1, w + 4);
      break;
    default:
      c.ho = pick(1, h);
      c.wo = pick(1, w);
  }
  const aclDataType dtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  c.dtype = dtypes[rng() % 3];
  c.index_dtype = rng() % 2 == 0 ? ACL_INT32 : ACL_INT64;
  const size_t rank = c.shape.size();
  c.input_layout = random_layout(rng, rank);
  c.output_layout = rng() % 2 == 0 ? c.input_layout : random_layout(rng, rank);
  c.index_layout = rng() % 2 == 0 ? c.output_layout : random_layout(rng, rank);
  return c;
}

enum class Values { spread, ties, specials };

// count values of one kind: spread (mostly distinct), ties (a few small integers, so equal
// maxima are common), specials (ties mixed with inf, -inf, NaN and -0).
inline std::vector<double> random_values(std::mt19937_64& rng, int64_t count, Values kind) {
  std::normal_distribution<double> normal(0.0, 3.0);
  std::vector<double> v(count);
  for (double& x : v) {
    switch (kind) {
      case Values::spread:
        x = normal(rng);
        break;
      case Values::ties:
        x = static_cast<double>(rng() % 5) - 2.0;
        break;
      case Values::specials: {
        const double inf = std::numeric_limits<double>::infinity();
        const double specials[] = {inf, -inf, std::nan(""), -0.0, 0.0};
        x = rng() % 4 == 0 ? specials[rng() % 5] : static_cast<double>(rng() % 5) - 2.0;
        break;
      }
    }
  }
  return v;
}

// Whether a and b are the same value: both NaN, or equal with the same sign (so -0 != +0).
inline bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) {
    return std::isnan(a) && std::isnan(b);
  }
  return a == b && std::signbit(a) == std::signbit(b);
}

// Both phases of aclnnAdaptiveMaxPool2d; returns the first failing status.
inline aclnnStatus run_forward(const aclTensor* self, std::vector<int64_t> output_size,
                               const aclTensor* out, const aclTensor* indices) {
  aclIntArray* size = aclCreateIntArray(output_size.data(), output_size.size());
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status =
      aclnnAdaptiveMaxPool2dGetWorkspaceSize(self, size, out, indices, &workspace_size, &executor);
  aclDestroyIntArray(size);
  if (status != ACLNN_SUCCESS) {
    return status;
  }
  std::unique_ptr<oa_test::DeviceBuffer> workspace;
  if (workspace_size > 0) {
    workspace = std::make_unique<oa_test::DeviceBuffer>(workspace_size);
  }
  return aclnnAdaptiveMaxPool2d(workspace ? workspace->get() : nullptr, workspace_size, executor,
                                nullptr);
}

// Both phases of aclnnAdaptiveMaxPool2dBackward; returns the first failing status.
inline aclnnStatus run_backward(const aclTensor* grad_output, const aclTensor* self,
                                const aclTensor* indices, aclTensor* grad_input) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status = aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
      grad_output, self, indices, grad_input, &workspace_size, &executor);
  if (status != ACLNN_SUCCESS) {
    return status;
  }
  std::unique_ptr<oa_test::DeviceBuffer> workspace;
  if (workspace_size > 0) {
    workspace = std::make_unique<oa_test::DeviceBuffer>(workspace_size);
  }
  return aclnnAdaptiveMaxPool2dBackward(workspace ? workspace->get() : nullptr, workspace_size,
                                        executor, nullptr);
}

}  // namespace amp_test
