// The executors of every operator definition (SPEC section 6), on each sample: a repeatable
// executor runs again on new data written into the same tensors, whatever its workspace held, and
// a plan needs none of the aclTensors once phase 1 returned; both give the bits of a fresh call.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/op/definition.h"
#include "support/call.h"

namespace oa_test {
namespace {

// Fills call's inputs with the values of seed (random_value with specials).
void fill(TestCall* call, uint64_t seed) {
  std::mt19937_64 rng(seed);
  call->fill_inputs([&](aclDataType dtype) { return random_value(rng, dtype, true); });
}

// The output bits of a fresh call of spec on the inputs of seed.
std::vector<std::vector<uint64_t>> fresh_bits(const oa::OpDef& def, const oa::CallSpec& spec,
                                              uint64_t seed) {
  TestCall call(def, spec);
  fill(&call, seed);
  EXPECT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  return call.output_bits();
}

class Executors : public ::testing::TestWithParam<std::string> {
 protected:
  const oa::OpDef& def() const { return *oa::find_definition(GetParam()); }
};

TEST_P(Executors, RepeatableRunsAgainOnNewData) {
  const oa::OpDef& d = def();
  for (size_t s = 0; s < d.samples.size(); ++s) {
    SCOPED_TRACE("sample " + std::to_string(s));
    TestCall call(d, d.samples[s]);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(call.plan(&workspace_size, &executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    for (uint64_t run = 0; run < 3; ++run) {
      fill(&call, 20 + run);
      const unsigned char workspace_fill[] = {0xFF, 0x00, 0x7F};
      ASSERT_EQ(call.launch(workspace_size, executor, workspace_fill[run]), ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
      EXPECT_EQ(call.output_bits(), fresh_bits(d, d.samples[s], 20 + run)) << "run " << run;
    }
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  }
}

TEST_P(Executors, TensorsDestroyedAfterPhaseOne) {
  const oa::OpDef& d = def();
  for (size_t s = 0; s < d.samples.size(); ++s) {
    SCOPED_TRACE("sample " + std::to_string(s));
    TestCall call(d, d.samples[s]);
    fill(&call, 30);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(call.plan(&workspace_size, &executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (size_t i = 0; i < d.params.size(); ++i) {
      if (call.tensor(static_cast<int>(i)) != nullptr) {
        call.tensor(static_cast<int>(i))->destroy_handle();
      }
    }
    ASSERT_EQ(call.launch(workspace_size, executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(call.output_bits(), fresh_bits(d, d.samples[s], 30));
  }
}

// The thread count is read at launch: a repeatable executor planned with one thread runs with any.
TEST_P(Executors, ThreadCountChangedAfterPlanning) {
  const oa::OpDef& d = def();
  for (size_t s = 0; s < d.samples.size(); ++s) {
    SCOPED_TRACE("sample " + std::to_string(s));
    TestCall call(d, d.samples[s]);
    fill(&call, 40);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    {
      ScopedEnv one("OPENACLNN_NUM_THREADS", "1");
      ASSERT_EQ(call.plan(&workspace_size, &executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    }
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
    const auto expected = fresh_bits(d, d.samples[s], 40);
    for (const char* threads : {"1", "4"}) {
      ScopedEnv env("OPENACLNN_NUM_THREADS", threads);
      ASSERT_EQ(call.launch(workspace_size, executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
      EXPECT_EQ(call.output_bits(), expected) << threads << " threads";
    }
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  }
}

INSTANTIATE_TEST_SUITE_P(Definitions, Executors, ::testing::ValuesIn(definition_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace oa_test
