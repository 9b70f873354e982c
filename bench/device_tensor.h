// Device tensors for openaclnn setups: fresh device memory holding given values, described by an
// aclTensor that is destroyed with its owner.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "acl_support.h"
#include "aclnn/aclnn_base.h"

namespace oa::bench {

struct DeviceTensor {
  DeviceBuffer memory;
  std::shared_ptr<aclTensor> tensor;
  aclTensor* get() const { return tensor.get(); }
};

// A contiguous tensor of `shape` whose element i holds value(i), stored in `dtype` (FLOAT, BF16,
// FLOAT16 rounded to nearest even; INT64 and INT32 truncated).
DeviceTensor device_tensor(const std::vector<int64_t>& shape, aclDataType dtype,
                           const std::function<double(int64_t)>& value);

// Device memory for a workspace of `size` bytes, grown by need: phase 1 tells a step the size,
// and the first (untimed warm-up) step allocates it.
class Workspace {
 public:
  void* get(uint64_t size);

 private:
  DeviceBuffer memory_;
  uint64_t size_ = 0;
};

}  // namespace oa::bench
