// What CANN's Python test kit (hicann/ops-test-kit) does, in C++: load libruntime.so (global),
// then libascendcl.so and libnnopbase.so and the operator library, all by plain name; find every
// function with dlsym; run an operator on memory from rtMalloc, written through a 512-byte
// aligned pointer inside the block as the kit does, synchronize with rtStreamSynchronize, copy
// the result out with rtMemcpy and free the blocks. Checks the values and that every link name is
// the one library object (one registry).
#include <dlfcn.h>
#include <link.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "runtime/rt.h"

namespace {

// A library opened by name, closed when done.
class Library {
 public:
  Library(const char* name, int mode) : name_(name), handle_(dlopen(name, mode)) {}
  ~Library() {
    if (handle_ != nullptr) {
      dlclose(handle_);
    }
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  void* handle() const { return handle_; }
  const char* name() const { return name_; }

  // The file the dynamic linker loaded.
  std::string path() const {
    link_map* map = nullptr;
    return dlinfo(handle_, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr ? map->l_name : "";
  }

  // The function `symbol`, typed as its declaration in the headers (Function is its type). A
  // symbol not found is remembered in missing().
  template <typename Function>
  Function* find(const char* symbol) {
    void* address = dlsym(handle_, symbol);
    if (address == nullptr) {
      missing_ += std::string(" ") + symbol;
    }
    return reinterpret_cast<Function*>(address);
  }
  const std::string& missing() const { return missing_; }

 private:
  const char* name_;
  void* handle_;
  std::string missing_;
};

// decltype keeps the declaration unevaluated: nothing here links against the library.
#define FIND(library, function) library.find<decltype(function)>(#function)

// The kit's device memory: the block rtMalloc gives, 512 bytes longer than asked, and the first
// 512-byte boundary inside it, where the data goes.
struct KitBlock {
  void* block = nullptr;
  unsigned char* aligned = nullptr;
};

class LoadByName : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const Library* library : {&runtime_, &ascendcl_, &nnopbase_, &opapi_}) {
      ASSERT_NE(library->handle(), nullptr) << library->name() << ": " << dlerror();
    }
  }

  // The kit's order and modes: libruntime.so global, the others as ctypes.CDLL loads them.
  Library runtime_{"libruntime.so", RTLD_NOW | RTLD_GLOBAL};
  Library ascendcl_{"libascendcl.so", RTLD_NOW};
  Library nnopbase_{"libnnopbase.so", RTLD_NOW};
  Library opapi_{"libopapi_nn.so", RTLD_NOW};
};

TEST_F(LoadByName, EveryNameIsTheOneLibraryFromTheBuildTree) {
  const std::string directory = OPENACLNN_LIBRARY_DIR;
  for (const Library* library : {&runtime_, &ascendcl_, &nnopbase_, &opapi_}) {
    EXPECT_EQ(library->path().rfind(directory + "/", 0), 0u)
        << library->name() << " was loaded from " << library->path();
  }
  void* from_runtime = dlsym(runtime_.handle(), "aclrtMalloc");
  ASSERT_NE(from_runtime, nullptr);
  EXPECT_EQ(dlsym(ascendcl_.handle(), "aclrtMalloc"), from_runtime);
  EXPECT_EQ(dlsym(nnopbase_.handle(), "aclCreateTensor"),
            dlsym(runtime_.handle(), "aclCreateTensor"));
  EXPECT_EQ(dlsym(opapi_.handle(), "rtMalloc"), dlsym(runtime_.handle(), "rtMalloc"));
}

TEST_F(LoadByName, SmoothL1LossBackwardThroughTheRtLayer) {
  auto acl_init = FIND(ascendcl_, aclInit);
  auto acl_finalize = FIND(ascendcl_, aclFinalize);
  auto set_device = FIND(ascendcl_, aclrtSetDevice);
  auto reset_device = FIND(ascendcl_, aclrtResetDevice);
  auto set_sys_param = FIND(ascendcl_, aclrtCtxSetSysParamOpt);
  auto recent_error = FIND(ascendcl_, aclGetRecentErrMsg);
  auto ctx_create = FIND(runtime_, rtCtxCreate);
  auto ctx_destroy = FIND(runtime_, rtCtxDestroy);
  auto ctx_set_current = FIND(runtime_, rtCtxSetCurrent);
  auto stream_create = FIND(runtime_, rtStreamCreate);
  auto stream_destroy = FIND(runtime_, rtStreamDestroy);
  auto stream_synchronize = FIND(runtime_, rtStreamSynchronize);
  auto stream_synchronize_timeout = FIND(runtime_, rtStreamSynchronizeWithTimeout);
  auto sat_mode = FIND(runtime_, rtSetDeviceSatMode);
  auto rt_malloc = FIND(runtime_, rtMalloc);
  auto rt_free = FIND(runtime_, rtFree);
  auto rt_memcpy = FIND(runtime_, rtMemcpy);
  auto create_tensor = FIND(nnopbase_, aclCreateTensor);
  auto destroy_tensor = FIND(nnopbase_, aclDestroyTensor);
  auto view_shape = FIND(nnopbase_, aclGetViewShape);
  // The kit frees aclGetViewShape's array with operator delete[] found in libnnopbase.so.
  auto delete_array = reinterpret_cast<void (*)(void*)>(dlsym(nnopbase_.handle(), "_ZdaPv"));
  ASSERT_NE(delete_array, nullptr) << dlerror();
  auto get_workspace = FIND(opapi_, aclnnSmoothL1LossBackwardGetWorkspaceSize);
  auto launch = FIND(opapi_, aclnnSmoothL1LossBackward);
  for (const Library* library : {&runtime_, &ascendcl_, &nnopbase_, &opapi_}) {
    ASSERT_EQ(library->missing(), "") << library->name() << " lacks these symbols";
  }

  // The kit's set-up: acl initializes and sets the device, rt makes the context and stream.
  ASSERT_EQ(acl_init(nullptr), 0) << recent_error();
  ASSERT_EQ(set_device(0), 0) << recent_error();
  rtContext_t context = nullptr;
  ASSERT_EQ(ctx_create(&context, RT_CTX_NORMAL_MODE, 0), RT_ERROR_NONE) << recent_error();
  ASSERT_EQ(ctx_set_current(context), RT_ERROR_NONE) << recent_error();
  ASSERT_EQ(sat_mode(RT_OVERFLOW_MODE_INFNAN), RT_ERROR_NONE) << recent_error();
  ASSERT_EQ(set_sys_param(ACL_OPT_DETERMINISTIC, 1), 0) << recent_error();
  rtStream_t stream = nullptr;
  ASSERT_EQ(stream_create(&stream, 0), RT_ERROR_NONE) << recent_error();

  constexpr int64_t kCount = 6;
  const std::vector<int64_t> shape = {2, 3};
  const std::vector<float> grad_output = {1.0f, -2.0f, 0.5f, 3.0f, 1.0f, -1.0f};
  const std::vector<float> self = {0.0f, 2.0f, -1.5f, 0.25f, 4.0f, -3.0f};
  const std::vector<float> target = {0.5f, -1.0f, -1.0f, 0.0f, 1.0f, -3.25f};
  const float beta = 1.0f;

  // Memory as the kit makes it: rtMalloc of the size plus 512 (huge pages above 2048 bytes),
  // data at the first 512-byte boundary, the aligned size's tail filled with padding.
  auto kit_malloc = [&](size_t bytes) {
    KitBlock memory;
    const rtMemType_t policy =
        bytes > 2048 ? RT_MEMORY_POLICY_HUGE_PAGE_ONLY : RT_MEMORY_POLICY_NONE;
    EXPECT_EQ(rt_malloc(&memory.block, bytes + 512, RT_MEMORY_HBM | policy, 58), RT_ERROR_NONE)
        << recent_error();
    const auto base = reinterpret_cast<uintptr_t>(memory.block);
    memory.aligned = reinterpret_cast<unsigned char*>((base + 511) / 512 * 512);
    return memory;
  };
  auto kit_upload = [&](const std::vector<float>& values) {
    const size_t bytes = values.size() * sizeof(float);
    const size_t aligned_bytes = (bytes + 31) / 32 * 32 + 32;  // the kit's device alignment
    KitBlock memory = kit_malloc(aligned_bytes);
    std::vector<unsigned char> padding(aligned_bytes - bytes, 2);
    EXPECT_EQ(rt_memcpy(memory.aligned + bytes, padding.size(), padding.data(), padding.size(),
                        RT_MEMCPY_HOST_TO_DEVICE),
              RT_ERROR_NONE)
        << recent_error();
    EXPECT_EQ(rt_memcpy(memory.aligned, bytes, values.data(), bytes, RT_MEMCPY_HOST_TO_DEVICE),
              RT_ERROR_NONE)
        << recent_error();
    return memory;
  };
  KitBlock grad_output_memory = kit_upload(grad_output);
  KitBlock self_memory = kit_upload(self);
  KitBlock target_memory = kit_upload(target);
  KitBlock grad_input_memory = kit_upload(std::vector<float>(kCount, 99.0f));

  auto tensor = [&](const KitBlock& memory) {
    return create_tensor(shape.data(), shape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                         shape.data(), shape.size(), memory.aligned);
  };
  aclTensor* grad_output_tensor = tensor(grad_output_memory);
  aclTensor* self_tensor = tensor(self_memory);
  aclTensor* target_tensor = tensor(target_memory);
  aclTensor* grad_input_tensor = tensor(grad_input_memory);
  ASSERT_NE(grad_output_tensor, nullptr) << recent_error();
  ASSERT_NE(self_tensor, nullptr);
  ASSERT_NE(target_tensor, nullptr);
  ASSERT_NE(grad_input_tensor, nullptr);

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(get_workspace(grad_output_tensor, self_tensor, target_tensor, /*reduction none*/ 0,
                          beta, grad_input_tensor, &workspace_size, &executor),
            0)
      << recent_error();
  KitBlock workspace;
  if (workspace_size > 0) {
    workspace = kit_malloc(workspace_size);
  }
  ASSERT_EQ(launch(workspace.aligned, workspace_size, executor, stream), 0) << recent_error();
  ASSERT_EQ(stream_synchronize(stream), RT_ERROR_NONE) << recent_error();
  ASSERT_EQ(stream_synchronize_timeout(stream, 1000), RT_ERROR_NONE) << recent_error();

  std::vector<float> grad_input(kCount, 0.0f);
  ASSERT_EQ(rt_memcpy(grad_input.data(), kCount * sizeof(float), grad_input_memory.aligned,
                      kCount * sizeof(float), RT_MEMCPY_DEVICE_TO_HOST),
            RT_ERROR_NONE)
      << recent_error();
  for (int64_t i = 0; i < kCount; ++i) {
    const float diff = self[i] - target[i];
    const float slope = std::fabs(diff) < beta ? diff / beta : (diff > 0 ? 1.0f : -1.0f);
    EXPECT_FLOAT_EQ(grad_input[i], grad_output[i] * slope) << i;
  }

  // A mistake comes back as a code and a message, through the same library.
  EXPECT_EQ(rt_free(grad_input_memory.aligned + 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::strstr(recent_error(), "rtFree"), nullptr) << recent_error();

  int64_t* dims = nullptr;
  uint64_t dims_num = 0;
  ASSERT_EQ(view_shape(grad_input_tensor, &dims, &dims_num), 0) << recent_error();
  ASSERT_EQ(dims_num, 2u);
  EXPECT_EQ(dims[0], 2);
  EXPECT_EQ(dims[1], 3);
  delete_array(dims);

  for (aclTensor* t : {grad_output_tensor, self_tensor, target_tensor, grad_input_tensor}) {
    EXPECT_EQ(destroy_tensor(t), 0);
  }
  for (const KitBlock& memory :
       {grad_output_memory, self_memory, target_memory, grad_input_memory, workspace}) {
    if (memory.block != nullptr) {
      EXPECT_EQ(rt_free(memory.block), RT_ERROR_NONE) << recent_error();
    }
  }
  EXPECT_EQ(stream_destroy(stream), RT_ERROR_NONE) << recent_error();
  EXPECT_EQ(ctx_destroy(context), RT_ERROR_NONE) << recent_error();
  EXPECT_EQ(reset_device(0), 0) << recent_error();
  EXPECT_EQ(acl_finalize(), 0) << recent_error();
}

}  // namespace
