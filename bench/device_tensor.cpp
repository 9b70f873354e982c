#include "device_tensor.h"

#include <cstring>

#include "base/float_convert.h"

namespace oa::bench {
namespace {

int64_t size_of(aclDataType dtype) {
  switch (dtype) {
    case ACL_INT64:
      return 8;
    case ACL_FLOAT:
    case ACL_INT32:
      return 4;
    default:
      return 2;
  }
}

void store(aclDataType dtype, double value, unsigned char* out) {
  const auto f = static_cast<float>(value);
  if (dtype == ACL_FLOAT) {
    std::memcpy(out, &f, 4);
  } else if (dtype == ACL_BF16) {
    const uint16_t bits = float_to_bf16(f);
    std::memcpy(out, &bits, 2);
  } else if (dtype == ACL_FLOAT16) {
    const uint16_t bits = float_to_half(f);
    std::memcpy(out, &bits, 2);
  } else if (dtype == ACL_INT64) {
    const auto v = static_cast<int64_t>(value);
    std::memcpy(out, &v, 8);
  } else {
    const auto v = static_cast<int32_t>(value);
    std::memcpy(out, &v, 4);
  }
}

}  // namespace

DeviceTensor device_tensor(const std::vector<int64_t>& shape, aclDataType dtype,
                           const std::function<double(int64_t)>& value) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    count *= dim;
  }
  const int64_t size = size_of(dtype);
  const auto bytes = static_cast<size_t>(count * size);
  DeviceTensor result{device_alloc(bytes), nullptr};
  std::vector<unsigned char> host(bytes);
  for (int64_t i = 0; i < count; ++i) {
    store(dtype, value(i), &host[static_cast<size_t>(i * size)]);
  }
  check(aclrtMemcpy(result.memory.get(), bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
        "aclrtMemcpy");
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) {
    strides[i - 1] = strides[i] * shape[i];
  }
  aclTensor* tensor =
      aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND,
                      shape.data(), shape.size(), result.memory.get());
  check(tensor == nullptr ? 1 : 0, "aclCreateTensor");
  result.tensor.reset(tensor, aclDestroyTensor);
  return result;
}

void* Workspace::get(uint64_t size) {
  if (size > size_) {
    memory_ = device_alloc(static_cast<size_t>(size));
    size_ = size;
  }
  return size == 0 ? nullptr : memory_.get();
}

}  // namespace oa::bench
