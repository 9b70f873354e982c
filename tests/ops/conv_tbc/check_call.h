// What the ConvTbc check tests' calls share: each tensor in its own device allocation, and the
// two out-parameters of phase 1, which a test may replace by nulls.
#pragma once

#include <memory>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "test_env.h"

namespace oa_test {

struct CheckCall {
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;  // in creation order
  std::vector<TensorPtr> tensors;
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  uint64_t* workspace_size_arg = &workspace_size;
  aclOpExecutor** executor_arg = &executor;

  // A contiguous tensor in a fresh allocation (4 bytes an element, whatever the dtype, plus slack).
  aclTensor* create(const std::vector<int64_t>& shape, aclDataType dtype, aclFormat format) {
    int64_t count = 1;
    for (int64_t d : shape) {
      count *= d;
    }
    buffers.push_back(std::make_unique<DeviceBuffer>(static_cast<size_t>(count * 4 + 64)));
    tensors.push_back(make_tensor(shape, dtype, buffers.back()->get(), {}, 0, format));
    return tensors.back().get();
  }

  // Phase 1 returned status: releases the executor it made, and returns status.
  int finish(int status) {
    if (status == ACLNN_SUCCESS) {
      aclDestroyAclOpExecutor(executor);
    }
    return status;
  }
};

}  // namespace oa_test
