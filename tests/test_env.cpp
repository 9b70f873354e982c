#include "test_env.h"

#include <algorithm>
#include <cstdlib>

#include "core/shape.h"

namespace oa_test {
namespace {

class DeviceEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
};

::testing::Environment* const g_device_environment =
    ::testing::AddGlobalTestEnvironment(new DeviceEnvironment);

}  // namespace

DeviceBuffer::DeviceBuffer(size_t bytes) : size_(bytes) {
  aclError status = aclrtMalloc(&data_, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  if (status != ACL_SUCCESS) {
    ADD_FAILURE() << "aclrtMalloc(" << bytes << ") failed with " << status << ": "
                  << aclGetRecentErrMsg();
    data_ = nullptr;
    size_ = 0;
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (data_ != nullptr) {
    EXPECT_EQ(aclrtFree(data_), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
}

void DeviceBuffer::write_bytes(const void* host, size_t bytes) {
  ASSERT_EQ(aclrtMemcpy(data_, size_, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
      << aclGetRecentErrMsg();
}

void DeviceBuffer::read_bytes(void* host, size_t bytes) const {
  if (bytes == 0) {
    return;
  }
  ASSERT_EQ(aclrtMemcpy(host, bytes, data_, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
      << aclGetRecentErrMsg();
}

TensorPtr make_tensor(const std::vector<int64_t>& shape, aclDataType dtype, void* data,
                      const std::vector<int64_t>& strides, int64_t offset, aclFormat format) {
  std::vector<int64_t> storage = shape;
  if (!strides.empty() || offset != 0) {
    // In 128 bits, saturated: tests build absurd views on purpose.
    std::vector<int64_t> steps = strides.empty() ? oa::contiguous_strides(shape) : strides;
    __int128 reach = static_cast<__int128>(offset) + 1;
    bool empty = false;
    for (size_t i = 0; i < shape.size(); ++i) {
      empty = empty || shape[i] == 0;
      reach += steps[i] > 0 ? static_cast<__int128>(steps[i]) * (shape[i] - 1) : 0;
    }
    storage = {empty ? 0 : static_cast<int64_t>(std::min<__int128>(reach, INT64_MAX))};
  }
  aclTensor* tensor =
      aclCreateTensor(shape.data(), shape.size(), dtype, strides.empty() ? nullptr : strides.data(),
                      offset, format, storage.data(), storage.size(), data);
  EXPECT_NE(tensor, nullptr) << aclGetRecentErrMsg();
  return TensorPtr(tensor, aclDestroyTensor);
}

void expect_message(std::initializer_list<std::string> parts, const char* file, int line) {
  std::string message = aclGetRecentErrMsg();
  if (message.empty()) {
    ADD_FAILURE_AT(file, line) << "aclGetRecentErrMsg() is empty";
    return;
  }
  for (const std::string& part : parts) {
    if (message.find(part) == std::string::npos) {
      ADD_FAILURE_AT(file, line) << "aclGetRecentErrMsg() lacks \"" << part << "\": " << message;
    }
  }
}

void expect_error(int returned, int expected, std::initializer_list<std::string> parts,
                  const char* file, int line) {
  if (returned != expected) {
    ADD_FAILURE_AT(file, line) << "returned " << returned << ", expected " << expected
                               << "; aclGetRecentErrMsg(): " << aclGetRecentErrMsg();
  }
  expect_message(parts, file, line);
}

void ensure_live_device() {
  int32_t device = -1;
  bool initialized_now = aclInit(nullptr) == ACL_SUCCESS;
  bool device_was_set = !initialized_now && aclrtGetDevice(&device) == ACL_SUCCESS;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
  if (device_was_set) {
    // Only the default context had to be made current again: drop the extra reference.
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
}

ScopedEnv::ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
  if (const char* old = std::getenv(name)) {
    saved_ = old;
  }
  if (value) {
    setenv(name, value->c_str(), 1);
  } else {
    unsetenv(name);
  }
}

ScopedEnv::~ScopedEnv() {
  if (saved_) {
    setenv(name_.c_str(), saved_->c_str(), 1);
  } else {
    unsetenv(name_.c_str());
  }
}

}  // namespace oa_test
