// What the fuzz targets (tests/fuzz/*_fuzz.cpp) found, each as the call that crashed or tripped a
// sanitizer, now refused with a code and a message (docs/testing.md lists them).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "core/op/definition.h"
#include "support/call.h"
#include "test_env.h"

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

oa::ArgSpec& arg(const oa::OpDef& def, oa::CallSpec* spec, const char* name) {
  return spec->args[static_cast<size_t>(def.param_index(name))];
}

// A phase-2 workspace of `size` bytes from aclrtMalloc (none for 0), freed with the object.
class Workspace {
 public:
  explicit Workspace(uint64_t size) {
    ok_ = size == 0 || aclrtMalloc(&data_, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
  }
  ~Workspace() {
    if (data_ != nullptr) {
      EXPECT_EQ(aclrtFree(data_), ACL_SUCCESS);
    }
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  bool ok() const { return ok_; }
  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
  bool ok_ = false;
};

// Destroys each tensor, expecting success.
void destroy(std::initializer_list<aclTensor*> tensors) {
  for (aclTensor* t : tensors) {
    EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
  }
}

// Dim `dim` of tensor `name` set to `value`, every stride 0 (a huge view in a few bytes).
void set_dim(const oa::OpDef& def, oa::CallSpec* spec, const char* name, size_t dim,
             int64_t value) {
  oa::TensorSpec& t = arg(def, spec, name).tensor;
  t.shape[dim] = value;
  t.strides.assign(t.shape.size(), 0);
}

// Phase 1 of the first sample of `op` that `change` accepts (returns true for), changed so:
// refused with `code` and a message with every part of `message`.
void expect_refused(const char* op,
                    const std::function<bool(const oa::OpDef&, oa::CallSpec*)>& change, int code,
                    std::initializer_list<std::string> message) {
  const oa::OpDef* def = oa::find_definition(op);
  ASSERT_NE(def, nullptr) << op;
  for (oa::CallSpec spec : def->samples) {
    if (change(*def, &spec)) {
      oa_test::expect_error(oa_test::plan_status(*def, spec), code, message);
      return;
    }
  }
  ADD_FAILURE() << "no sample of " << op << " fits the change";
}

// op_fuzz: weight dim 1 x groups overflowed int64 (UBSan: signed overflow) in the convolution
// checks: the bias check of a transposed call with a groups not yet checked, the channel checks
// with a huge groups, the output shape of a transposed call with a huge weight dim 1.
TEST(FuzzFound, ConvolutionBiasWithHugeGroups) {
  expect_refused("Convolution",
                 [](const oa::OpDef& def, oa::CallSpec* spec) {
                   if (arg(def, spec, "bias").null || arg(def, spec, "transposed").integer == 0) {
                     return false;
                   }
                   arg(def, spec, "groups").integer = std::numeric_limits<int64_t>::min();
                   return true;
                 },
                 ACLNN_ERR_PARAM_INVALID, {"bias must be 1-D with weight dim 1 x groups"});
}

TEST(FuzzFound, ConvolutionChannelsWithHugeGroups) {
  expect_refused("Convolution",
                 [](const oa::OpDef& def, oa::CallSpec* spec) {
                   if (!arg(def, spec, "bias").null || arg(def, spec, "transposed").integer != 0 ||
                       arg(def, spec, "weight").tensor.shape[1] < 2) {
                     return false;
                   }
                   arg(def, spec, "groups").integer = kMax;
                   return true;
                 },
                 ACLNN_ERR_PARAM_INVALID, {"must equal weight dim 1", "x groups"});
}

TEST(FuzzFound, TransposedConvolutionOutputChannelsBeyondInt64) {
  expect_refused("Convolution",
                 [](const oa::OpDef& def, oa::CallSpec* spec) {
                   if (!arg(def, spec, "bias").null || arg(def, spec, "transposed").integer == 0 ||
                       arg(def, spec, "weight").tensor.shape[0] % 2 != 0) {
                     return false;
                   }
                   arg(def, spec, "groups").integer = 2;
                   set_dim(def, spec, "weight", 1, int64_t{1} << 62);
                   return true;
                 },
                 ACLNN_ERR_PARAM_INVALID, {"output channels", "exceed int64"});
}

TEST(FuzzFound, ConvolutionBackwardChannelsWithHugeGroups) {
  expect_refused("ConvolutionBackward",
                 [](const oa::OpDef& def, oa::CallSpec* spec) {
                   if (arg(def, spec, "weight").tensor.shape[1] < 2) {
                     return false;
                   }
                   arg(def, spec, "groups").integer = kMax;
                   return true;
                 },
                 ACLNN_ERR_PARAM_INVALID, {"must equal weight dim 1", "x groups"});
}

// Contiguous strides of a view of more than 2^63 elements overflowed int64 in aclCreateTensor
// (UBSan: signed overflow): they saturate, and an operator refuses the view.
TEST(FuzzFound, ContiguousStridesOfAHugeView) {
  const int64_t dims[] = {int64_t{1} << 33, int64_t{1} << 33, int64_t{1} << 33};
  aclTensor* huge =
      aclCreateTensor(dims, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 3, nullptr);
  ASSERT_NE(huge, nullptr) << aclGetRecentErrMsg();
  int64_t* strides = nullptr;
  uint64_t count = 0;
  ASSERT_EQ(aclGetViewStrides(huge, &strides, &count), ACLNN_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(strides, strides + count),
            (std::vector<int64_t>{kMax, int64_t{1} << 33, 1}));
  delete[] strides;
  EXPECT_EQ(aclDestroyTensor(huge), ACLNN_SUCCESS);
}

// The byte range of a view reaching more than 2^126 elements back overflowed __int128 in the
// memory check (UBSan: signed overflow): it spans more than 2^63 bytes, 161002.
TEST(FuzzFound, ViewReachingFarBelowItsData) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t dims[] = {int64_t{1} << 62};
  const int64_t strides[] = {std::numeric_limits<int64_t>::min()};
  const int64_t storage[] = {16};
  aclTensor* self =
      aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, memory);
  aclTensor* target =
      aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, memory);
  aclTensor* out = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1,
                                   static_cast<char*>(memory) + 32);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  oa_test::expect_error(
      aclnnMseLossGetWorkspaceSize(self, target, 1, out, &workspace_size, &executor),
      ACLNN_ERR_PARAM_INVALID, {"aclnnMseLoss", "self", "spans more than 2^63 bytes"});
  destroy({self, target, out});
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}

// op_fuzz: the backward of adaptive max pooling formed plane addresses from an empty gradOutput's
// strides (here INT64_MIN; no memory check bounds an empty view's), overflowing the pointer
// (UBSan: pointer overflow). The call runs and gradInput is zeros.
TEST(FuzzFound, PoolingBackwardWithAnEmptyGradOutputOfHugeStrides) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(memory, 1024, 0x5A, 1024), ACL_SUCCESS);
  const int64_t empty[] = {2, 3, 0, 2};
  const int64_t huge_strides[] = {7, std::numeric_limits<int64_t>::min(), 7, 0};
  const int64_t planes[] = {2, 3, 4, 4};
  const int64_t storage[] = {96};
  auto* bytes = static_cast<char*>(memory);
  aclTensor* grad_output =
      aclCreateTensor(empty, 4, ACL_FLOAT, huge_strides, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* indices =
      aclCreateTensor(empty, 4, ACL_INT64, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* self =
      aclCreateTensor(planes, 4, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* grad_input =
      aclCreateTensor(planes, 4, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes + 512);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(grad_output, self, indices, grad_input,
                                                           &workspace_size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const Workspace workspace(workspace_size);
  ASSERT_TRUE(workspace.ok());
  EXPECT_EQ(aclnnAdaptiveMaxPool2dBackward(workspace.data(), workspace_size, executor, nullptr),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> result(96, 1.0f);
  ASSERT_EQ(aclrtMemcpy(result.data(), 384, bytes + 512, 384, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(result, std::vector<float>(96, 0.0f));
  destroy({grad_output, indices, self, grad_input});
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}

// op_fuzz: the elementwise engine's dim merging multiplied an empty self's INT64_MIN stride by a
// dim (UBSan: signed overflow). A product that overflows merges nothing; the call runs.
TEST(FuzzFound, ElementwiseMergeOfAnEmptyViewOfHugeStrides) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(memory, 256, 0, 256), ACL_SUCCESS);
  const int64_t empty[] = {0, 3};
  const int64_t huge_strides[] = {-1, std::numeric_limits<int64_t>::min()};
  const int64_t three[] = {3};
  const int64_t storage[] = {16};
  auto* bytes = static_cast<char*>(memory);
  aclTensor* self =
      aclCreateTensor(empty, 2, ACL_FLOAT, huge_strides, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* target =
      aclCreateTensor(three, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* out =
      aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes + 128);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnMseLossGetWorkspaceSize(self, target, 1, out, &workspace_size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const Workspace workspace(workspace_size);
  ASSERT_TRUE(workspace.ok());
  EXPECT_EQ(aclnnMseLoss(workspace.data(), workspace_size, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  destroy({self, target, out});
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}

// op_fuzz: NLLLossBackward's view of an empty self multiplied its huge offset by the element size
// (UBSan: signed overflow). An empty view's offset and strides are not used; the call runs.
TEST(FuzzFound, NllBackwardOfAnEmptyViewAtAHugeOffset) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(memory, 256, 0, 256), ACL_SUCCESS);
  const int64_t empty[] = {0, 3};
  const int64_t no_rows[] = {0};
  const int64_t storage[] = {16};
  auto* bytes = static_cast<char*>(memory);
  aclTensor* grad_output =
      aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* self =
      aclCreateTensor(empty, 2, ACL_FLOAT, nullptr, kMax / 2, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* target =
      aclCreateTensor(no_rows, 1, ACL_INT64, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes + 64);
  const int64_t classes[] = {3};
  aclTensor* weight =
      aclCreateTensor(classes, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes + 96);
  aclTensor* total =
      aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes + 128);
  aclTensor* out = aclCreateTensor(empty, 2, ACL_FLOAT, nullptr, kMax / 2, ACL_FORMAT_ND, storage,
                                   1, bytes + 192);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnNLLLossBackwardGetWorkspaceSize(grad_output, self, target, weight, 1, -100, total,
                                                 out, &workspace_size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const Workspace workspace(workspace_size);
  ASSERT_TRUE(workspace.ok());
  EXPECT_EQ(aclnnNLLLossBackward(workspace.data(), workspace_size, executor, nullptr),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  destroy({grad_output, self, target, weight, total, out});
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}

// op_fuzz: the elementwise engine took |stride| of an empty view's INT64_MIN stride with llabs
// (UBSan: negation overflow) when ordering and tiling the dims. Magnitudes are unsigned now.
TEST(FuzzFound, ElementwiseOrderOfAnEmptyViewOfInt64MinStrides) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t empty[] = {0, 3, 2};
  const int64_t huge_strides[] = {std::numeric_limits<int64_t>::min(), -1,
                                  std::numeric_limits<int64_t>::min()};
  const int64_t storage[] = {16};
  auto* bytes = static_cast<char*>(memory);
  aclTensor* self =
      aclCreateTensor(empty, 3, ACL_FLOAT, huge_strides, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* target =
      aclCreateTensor(empty, 3, ACL_FLOAT, huge_strides, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* out =
      aclCreateTensor(empty, 3, ACL_FLOAT, huge_strides, 0, ACL_FORMAT_ND, storage, 1, bytes + 128);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnMseLossGetWorkspaceSize(self, target, 0, out, &workspace_size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnMseLoss(nullptr, workspace_size, executor, nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  destroy({self, target, out});
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}

// op_fuzz: the elementwise engine's chunk count rounded numel up by adding the chunk size first
// (UBSan: signed overflow) for a broadcast view of 2^63 - 1 elements. Its sum plans; the workspace
// it asks for (one partial per chunk) is simply too large to allocate.
TEST(FuzzFound, ChunkCountOfABroadcastViewOfInt64MaxElements) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t huge[] = {kMax};
  const int64_t zero_stride[] = {0};
  const int64_t storage[] = {16};
  auto* bytes = static_cast<char*>(memory);
  aclTensor* self =
      aclCreateTensor(nullptr, 0, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* target =
      aclCreateTensor(huge, 1, ACL_FLOAT16, zero_stride, 0, ACL_FORMAT_ND, storage, 1, bytes + 64);
  aclTensor* out =
      aclCreateTensor(nullptr, 0, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes + 128);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnL1LossGetWorkspaceSize(self, target, 2, out, &workspace_size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_GT(workspace_size, uint64_t{1} << 40);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  destroy({self, target, out});
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}

// op_fuzz: the elementwise engine multiplied an empty self's huge offset by the element size
// (UBSan: signed overflow) in a BinaryCrossEntropyWithLogits sum. No kernel forms an empty view's
// address from its offset any more (first_element); the sum of nothing is 0.
TEST(FuzzFound, ElementwiseOperandOfAnEmptyViewAtAHugeOffset) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(memory, 256, 0xff, 256), ACL_SUCCESS);
  const int64_t empty[] = {5, 0, 3};
  const int64_t classes[] = {3};
  const int64_t storage[] = {16};
  auto* bytes = static_cast<char*>(memory);
  aclTensor* self =
      aclCreateTensor(empty, 3, ACL_FLOAT, nullptr, kMax - 9, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* target =
      aclCreateTensor(empty, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes);
  aclTensor* weight =
      aclCreateTensor(classes, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes + 64);
  aclTensor* out =
      aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, bytes + 128);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(self, target, weight, nullptr, 2, out,
                                                              &workspace_size, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const Workspace workspace(workspace_size);
  ASSERT_TRUE(workspace.ok());
  EXPECT_EQ(aclnnBinaryCrossEntropyWithLogits(workspace.data(), workspace_size, executor, nullptr),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  float sum = -1;
  ASSERT_EQ(aclrtMemcpy(&sum, 4, bytes + 128, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(sum, 0.0f);
  destroy({self, target, weight, out});
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}

// runtime_fuzz: aclrtMemcpy read and wrote past the end of aclrtMallocHost memory on its host side
// (ASan: heap-buffer-overflow), where aclrtMemset refused the same range.
TEST(FuzzFound, MemcpyPastTheEndOfMallocHostMemory) {
  void* host = nullptr;
  void* device = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 16), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  oa_test::expect_error(aclrtMemcpy(device, 64, host, 32, ACL_MEMCPY_HOST_TO_DEVICE),
                        ACL_ERROR_RT_PARAM_INVALID,
                        {"aclrtMemcpy", "src", "runs past the end of its 16-byte allocation"});
  oa_test::expect_error(
      aclrtMemcpy(static_cast<char*>(host) + 8, 64, device, 16, ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst", "runs past the end"});
  oa_test::expect_error(aclrtMemcpy(host, 64, device, 17, ACL_MEMCPY_DEFAULT),
                        ACL_ERROR_RT_PARAM_INVALID, {"aclrtMemcpy", "dst", "runs past the end"});
  EXPECT_EQ(aclrtMemcpy(host, 16, device, 16, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

}  // namespace
