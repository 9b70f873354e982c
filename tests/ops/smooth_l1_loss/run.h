// Cases of the two smooth L1 loss operators: running them through both phases, and comparing what
// they wrote with the float64 reference (float32 outputs within 4 ulp, float16/bfloat16 within 1
// ulp of the reference rounded to the output type; NaN exactly where the reference is NaN; every
// byte of the output buffer outside the output view unchanged).
#pragma once

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "ops/smooth_l1_loss/operand.h"
#include "reference/smooth_l1_loss.h"
#include "test_env.h"

namespace sl1_test {

struct BackwardCase {
  Operand grad_output;
  Operand self;
  Operand target;
  Operand grad_input;
  int64_t reduction = 0;
  float beta = 1.0f;

  std::string describe() const {
    std::ostringstream text;
    text << "reduction " << reduction << ", beta " << beta << "\n  " << grad_output.describe()
         << "\n  " << self.describe() << "\n  " << target.describe() << "\n  "
         << grad_input.describe();
    return text.str();
  }
};

struct ForwardCase {
  Operand self;
  Operand target;
  Operand result;
  int64_t reduction = 0;
  float beta = 1.0f;

  std::string describe() const {
    std::ostringstream text;
    text << "reduction " << reduction << ", beta " << beta << "\n  " << self.describe() << "\n  "
         << target.describe() << "\n  " << result.describe();
    return text.str();
  }
};

// Phase 2 with a workspace of the size phase 1 asked for, then a stream synchronization.
inline aclnnStatus launch(aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream),
                          uint64_t workspace_size, aclOpExecutor* executor) {
  std::unique_ptr<oa_test::DeviceBuffer> workspace;
  if (workspace_size > 0) {
    workspace = std::make_unique<oa_test::DeviceBuffer>(workspace_size);
  }
  aclnnStatus status =
      phase2(workspace ? workspace->get() : nullptr, workspace_size, executor, nullptr);
  if (status != ACLNN_SUCCESS) {
    return status;
  }
  return aclrtSynchronizeStream(nullptr);
}

inline aclnnStatus run_backward(const BackwardCase& c) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status = aclnnSmoothL1LossBackwardGetWorkspaceSize(
      c.grad_output.tensor.get(), c.self.tensor.get(), c.target.tensor.get(), c.reduction, c.beta,
      c.grad_input.tensor.get(), &workspace_size, &executor);
  if (status != ACLNN_SUCCESS) {
    return status;
  }
  return launch(aclnnSmoothL1LossBackward, workspace_size, executor);
}

inline aclnnStatus run_forward(const ForwardCase& c) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status =
      aclnnSmoothL1LossGetWorkspaceSize(c.self.tensor.get(), c.target.tensor.get(), c.reduction,
                                        c.beta, c.result.tensor.get(), &workspace_size, &executor);
  if (status != ACLNN_SUCCESS) {
    return status;
  }
  return launch(aclnnSmoothL1Loss, workspace_size, executor);
}

// The value of input `operand` at element `linear` (row-major) of the broadcast shape.
inline double broadcast_value(const Operand& operand, const Dims& shape, int64_t linear) {
  Dims index(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  const size_t lead = shape.size() - operand.shape.size();
  int64_t position = operand.offset;
  for (size_t d = 0; d < operand.shape.size(); ++d) {
    if (operand.shape[d] != 1) {
      position += index[lead + d] * operand.strides[d];
    }
  }
  oa_ref::HostView element{{}, {}, position, operand.dtype, operand.storage->host.data()};
  return oa_ref::decode(operand.dtype, oa_ref::read_code(element, 0));
}

// Whether an output code matches the reference value: NaN exactly where the reference is NaN, an
// infinite reference exactly, else within `tolerance` representable values of the reference
// rounded to the output type.
inline bool close_to(aclDataType dtype, uint32_t code, double expected, int64_t tolerance) {
  const uint32_t want = oa_ref::encode(dtype, expected);
  if (std::isnan(expected) || oa_ref::is_nan_code(dtype, code)) {
    return std::isnan(expected) && oa_ref::is_nan_code(dtype, code);
  }
  if (std::isinf(expected)) {
    return code == want;
  }
  return oa_ref::ulp_distance(dtype, code, want) <= tolerance;
}

inline int64_t default_tolerance(aclDataType dtype) { return dtype == ACL_FLOAT ? 4 : 1; }

// Compares the output view (its storage downloaded) with the expected values, row-major, and every
// element of the storage outside the view with `before`. `inputs_at(i)` describes the inputs of
// element i for the failure message. Returns whether everything matched.
inline bool expect_output(const Operand& out, const std::vector<unsigned char>& before,
                          const std::vector<double>& expected,
                          const std::function<std::string(int64_t)>& inputs_at,
                          const std::string& context, int64_t tolerance = -1) {
  if (tolerance < 0) {
    tolerance = default_tolerance(out.dtype);
  }
  std::ostringstream failures;
  int reported = 0;
  int64_t mismatches = 0;
  const oa_ref::HostView view = out.view();
  for (size_t i = 0; i < expected.size(); ++i) {
    const uint32_t code = oa_ref::read_code(view, static_cast<int64_t>(i));
    if (close_to(out.dtype, code, expected[i], tolerance)) {
      continue;
    }
    ++mismatches;
    if (reported++ < 6) {
      failures << "\n  element " << i << ": got " << oa_ref::decode(out.dtype, code) << " (0x"
               << std::hex << code << "), expected " << expected[i] << " (0x"
               << oa_ref::encode(out.dtype, expected[i]) << std::dec << ") from "
               << inputs_at(static_cast<int64_t>(i));
    }
  }
  const int64_t size = oa_ref::element_size(out.dtype);
  std::vector<bool> inside(out.storage->host.size() / static_cast<size_t>(size), false);
  for (int64_t position : out.positions()) {
    inside[static_cast<size_t>(position)] = true;
  }
  int64_t outside_changed = 0;
  for (size_t e = 0; e < inside.size(); ++e) {
    if (!inside[e] && std::memcmp(out.storage->host.data() + e * size, before.data() + e * size,
                                  static_cast<size_t>(size)) != 0) {
      ++outside_changed;
    }
  }
  if (mismatches == 0 && outside_changed == 0) {
    return true;
  }
  ADD_FAILURE() << context << "\n"
                << mismatches << " of " << expected.size()
                << " elements differ from the reference (tolerance " << tolerance << " ulp), and "
                << outside_changed << " elements outside the output view changed" << failures.str();
  return false;
}

// Runs a backward case and checks gradInput against the reference; the in-place case works
// because the reference reads the inputs before the launch.
inline bool check_backward(BackwardCase& c, const std::string& label) {
  const std::vector<double> expected = oa_ref::smooth_l1_loss_backward(
      c.grad_output.view(), c.self.view(), c.target.view(), c.reduction, c.beta);
  std::vector<std::shared_ptr<Storage>> inputs = {c.grad_output.storage, c.self.storage,
                                                  c.target.storage};
  std::vector<std::vector<unsigned char>> saved;
  for (const auto& storage : inputs) {
    saved.push_back(storage->host);
  }
  const std::vector<unsigned char> before = c.grad_input.storage->host;
  const std::string context = label + "\n  " + c.describe();
  aclnnStatus status = run_backward(c);
  if (status != ACLNN_SUCCESS) {
    ADD_FAILURE() << context << "\nfailed with " << status << ": " << aclGetRecentErrMsg();
    return false;
  }
  c.grad_input.storage->download();
  const Dims shape = c.grad_input.shape;
  // The in-place inputs now hold the result: describe inputs from the saved copies.
  auto inputs_at = [&](int64_t i) {
    std::ostringstream text;
    const Operand* operands[] = {&c.grad_output, &c.self, &c.target};
    const char* names[] = {"g", "x", "y"};
    for (int k = 0; k < 3; ++k) {
      std::vector<unsigned char> now = operands[k]->storage->host;
      operands[k]->storage->host = saved[static_cast<size_t>(k)];
      text << names[k] << "=" << broadcast_value(*operands[k], shape, i) << " ";
      operands[k]->storage->host = now;
    }
    return text.str();
  };
  bool ok = expect_output(c.grad_input, before, expected, inputs_at, context);
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k] != c.grad_input.storage) {
      inputs[k]->download();
      if (inputs[k]->host != saved[k]) {
        ADD_FAILURE() << context << "\nan input buffer changed";
        ok = false;
      }
    }
  }
  return ok;
}

inline std::vector<double> forward_expected(const ForwardCase& c) {
  if (c.reduction == 0) {
    return oa_ref::smooth_l1_loss_terms(c.self.view(), c.target.view(), c.beta);
  }
  return {oa_ref::smooth_l1_loss_reduced(c.self.view(), c.target.view(), c.reduction, c.beta)};
}

inline bool check_forward(ForwardCase& c, const std::string& label) {
  const std::vector<double> expected = forward_expected(c);
  const std::vector<unsigned char> saved_self = c.self.storage->host;
  const std::vector<unsigned char> saved_target = c.target.storage->host;
  const std::vector<unsigned char> before = c.result.storage->host;
  const std::string context = label + "\n  " + c.describe();
  aclnnStatus status = run_forward(c);
  if (status != ACLNN_SUCCESS) {
    ADD_FAILURE() << context << "\nfailed with " << status << ": " << aclGetRecentErrMsg();
    return false;
  }
  c.result.storage->download();
  Dims shape;
  oa_ref::broadcast_shapes({c.self.shape, c.target.shape}, &shape);
  auto inputs_at = [&](int64_t i) {
    if (c.reduction != 0) {
      return std::string("the whole input");
    }
    std::vector<unsigned char> now_self = c.self.storage->host;
    std::vector<unsigned char> now_target = c.target.storage->host;
    c.self.storage->host = saved_self;
    c.target.storage->host = saved_target;
    std::ostringstream text;
    text << "x=" << broadcast_value(c.self, shape, i)
         << " y=" << broadcast_value(c.target, shape, i);
    c.self.storage->host = now_self;
    c.target.storage->host = now_target;
    return text.str();
  };
  return expect_output(c.result, before, expected, inputs_at, context);
}

}  // namespace sl1_test
