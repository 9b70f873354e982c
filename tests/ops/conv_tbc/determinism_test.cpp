// Bitwise the same outputs for any thread count: the work is cut from the problem alone and every
// product runs whole on one thread (core/gemm.h). Random float data, so that a change
// of summation order would show in the last bits.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/conv_tbc/tbc_run.h"

namespace tbc_test {
namespace {

using oa_test::ScopedEnv;

constexpr int kThreadCounts[] = {1, 2, 3, 5, 8};

// Large enough to be cut into many items and packed by several threads.
const TbcSizes kSizes[] = {{260, 3, 96, 80, 5, 2}, {150, 2, 12, 20, 31, 15}};

TEST(ConvTbcDeterminism, BackwardIsTheSameForAnyThreadCount) {
  for (const TbcSizes& s : kSizes) {
    for (Layout layout : {Layout::contiguous, Layout::permuted}) {
      std::vector<unsigned char> first[3];
      for (int threads : kThreadCounts) {
        ScopedEnv env("OPENACLNN_NUM_THREADS", std::to_string(threads));
        std::mt19937 rng(11);  // the same data every time
        BackwardCase c;
        c.s = s;
        c.g_layout = c.x_layout = c.grad_input_layout = c.grad_weight_layout = layout;
        BackwardTensors t(c, &rng);
        t.fill_all(Data::normal, &rng);
        call_backward(&t, s.pad, 0);
        TestTensor* outputs[3] = {&t.grad_input, &t.grad_weight, &t.grad_bias};
        for (int i = 0; i < 3; ++i) {
          ASSERT_TRUE(outputs[i]->read());
          if (threads == kThreadCounts[0]) {
            first[i] = outputs[i]->bytes();
          } else {
            EXPECT_EQ(outputs[i]->bytes(), first[i])
                << sizes_string(s) << ": output " << i << " differs with " << threads << " threads";
          }
        }
      }
    }
  }
}

TEST(ConvTbcDeterminism, ForwardIsTheSameForAnyThreadCount) {
  for (const TbcSizes& s : kSizes) {
    std::vector<unsigned char> first;
    for (int threads : kThreadCounts) {
      ScopedEnv env("OPENACLNN_NUM_THREADS", std::to_string(threads));
      std::mt19937 rng(12);
      ForwardCase c;
      c.s = s;
      TestTensor x({s.t, s.b, s.ci}, ACL_FLOAT, Layout::contiguous, &rng);
      TestTensor w({s.k, s.ci, s.co}, ACL_FLOAT, Layout::contiguous, &rng);
      TestTensor bias({s.co}, ACL_FLOAT, Layout::contiguous, &rng);
      TestTensor out({s.tout(), s.b, s.co}, ACL_FLOAT, Layout::contiguous, &rng);
      fill(&x, Data::normal, &rng);
      fill(&w, Data::normal, &rng);
      fill(&bias, Data::normal, &rng);
      call_forward(&x, &w, &bias, &out, s.pad, 0);
      ASSERT_TRUE(out.read());
      if (threads == kThreadCounts[0]) {
        first = out.bytes();
      } else {
        EXPECT_EQ(out.bytes(), first)
            << sizes_string(s) << ": differs with " << threads << " threads";
      }
    }
  }
}

// The thread count may change between the phases of a repeatable executor.
TEST(ConvTbcDeterminism, ThreadCountChangedAfterPlanning) {
  const TbcSizes s = kSizes[0];
  std::mt19937 rng(13);
  BackwardCase c;
  c.s = s;
  BackwardTensors t(c, &rng);
  t.fill_all(Data::normal, &rng);
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  {
    ScopedEnv env("OPENACLNN_NUM_THREADS", "1");
    ASSERT_EQ(aclnnConvTbcBackwardGetWorkspaceSize(
                  t.g.get(), t.x.get(), t.w.get(), t.bias.get(), s.pad, 0, t.grad_input.get(),
                  t.grad_weight.get(), t.grad_bias.get(), &size, &executor),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
  }
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  DeviceBuffer workspace(size > 0 ? size : 1);
  std::vector<unsigned char> first;
  for (const char* threads : {"1", "4"}) {
    ScopedEnv env("OPENACLNN_NUM_THREADS", threads);
    ASSERT_EQ(aclnnConvTbcBackward(workspace.get(), size, executor, nullptr), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_TRUE(t.grad_weight.read());
    if (first.empty()) {
      first = t.grad_weight.bytes();
    } else {
      EXPECT_EQ(t.grad_weight.bytes(), first);
    }
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  expect_backward(s, &t, 0, false);
}

}  // namespace
}  // namespace tbc_test
