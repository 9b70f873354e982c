// Shapes and rules from CANN's own unit tests (SPEC section 12), and small cases worked by hand.
#include <gtest/gtest.h>

#include "core/op/build.h"
#include "reference/convolution.h"

namespace conv_test {
namespace {

aclnnStatus plan(const oa::OpDef& def, const oa::CallSpec& spec) {
  oa_test::TestCall call(def, spec);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = call.plan(&workspace_size, &executor);
  if (status == ACLNN_SUCCESS) {
    aclDestroyAclOpExecutor(executor);
  }
  return status;
}

oa::ArgSpec& arg(const oa::OpDef& def, oa::CallSpec* spec, const char* name) {
  return spec->args[static_cast<size_t>(def.param_index(name))];
}

// The implementation chosen: the reference below 4096 FLOPs in all passes (CANN's sample size,
// 2 channels of 4 x 4 with a 3 x 3 kernel: 1152), oneDNN from there on, and oneDNN on the small one
// too when OPENACLNN_IMPL names it.
TEST(ConvolutionExact, SmallProblemsGoToTheReference) {
  const oa::OpDef& def = *oa::find_definition("Convolution");
  Geometry g;
  g.cin = g.cout = 2;
  g.in[0] = g.in[1] = 4;
  g.k[0] = g.k[1] = 3;
  g.pad[0] = g.pad[1] = 1;
  const oa::CallSpec small = forward_spec(g, {}, 0);
  ASSERT_EQ(plan(def, small), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(oa::last_chosen_impl(), "reference");
  g.cin = g.cout = 4;  // 4 x 4 x 16 x 9 x 2 = 4608 FLOPs
  ASSERT_EQ(plan(def, forward_spec(g, {}, 0)), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(oa::last_chosen_impl(), "onednn");
  const oa_test::ScopedEnv forced("OPENACLNN_IMPL", std::string("onednn"));
  ASSERT_EQ(plan(def, small), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(oa::last_chosen_impl(), "onednn");
}

// [top, bottom, left, right] padding: 120 x 120 with a 10 x 10 kernel, stride 4, pads
// {2, 4, 4, 6} gives 30 x 31.
TEST(ConvolutionExact, AsymmetricPaddingShape) {
  const oa::OpDef& def = *oa::find_definition("Convolution");
  Geometry g;
  g.in[0] = g.in[1] = 120;
  g.k[0] = g.k[1] = 10;
  g.stride[0] = g.stride[1] = 4;
  oa::CallSpec spec = forward_spec(g, {}, 0);
  arg(def, &spec, "padding").ints = {2, 4, 4, 6};
  arg(def, &spec, "output").tensor.shape = {1, 1, 30, 31};
  EXPECT_EQ(plan(def, spec), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  arg(def, &spec, "output").tensor.shape = {1, 1, 30, 30};
  EXPECT_EQ(plan(def, spec), ACLNN_ERR_PARAM_INVALID);
}

// 1-D transposed, input (2, 16, 32), weight (16, 16, 3), padding 1, dilation 2, outputPadding 1
// (at the stride, below the dilation): output length 35; 36 is rejected.
TEST(ConvolutionExact, TransposedOutputLength) {
  const oa::OpDef& def = *oa::find_definition("Convolution");
  Geometry g;
  g.spatial = 1;
  g.n = 2;
  g.cin = g.cout = 16;
  g.transposed = true;
  g.in[0] = 32;
  g.k[0] = 3;
  g.pad[0] = 1;
  g.dilation[0] = 2;
  g.output_padding[0] = 1;
  oa::CallSpec spec = forward_spec(g, {}, 0);
  EXPECT_EQ(arg(def, &spec, "output").tensor.shape, (Shape{2, 16, 35}));
  EXPECT_EQ(plan(def, spec), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  arg(def, &spec, "output").tensor.shape = {2, 16, 36};
  EXPECT_EQ(plan(def, spec), ACLNN_ERR_PARAM_INVALID);
}

// A 1-D convolution by hand: x = [1, 2, 3, 4], w = [1, 10], stride 2, padding 1, bias 100:
// y = [100 + 10, 100 + 2 + 30, 100 + 4] = [110, 132, 104].
TEST(ConvolutionExact, ByHand) {
  const oa::OpDef& def = *oa::find_definition("Convolution");
  Geometry g;
  g.spatial = 1;
  g.in[0] = 4;
  g.k[0] = 2;
  g.stride[0] = 2;
  g.pad[0] = 1;
  const oa::CallSpec spec = forward_spec(g, {}, 0);
  oa_test::TestCall call(def, spec);
  call.tensor("input")->write({1, 2, 3, 4});
  call.tensor("weight")->write({1, 10});
  call.tensor("bias")->write({100});
  ASSERT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(call.tensor("output")->read(), (std::vector<double>{110, 132, 104}));
}

// The backward of an empty batch: gradWeight and gradBias are zeros, nothing else is written.
TEST(ConvolutionExact, EmptyBatchGradientsAreZero) {
  const oa::OpDef& def = *oa::find_definition("ConvolutionBackward");
  Geometry g;
  g.n = 0;
  g.cin = 3;
  g.cout = 4;
  g.in[0] = g.in[1] = 5;
  g.k[0] = g.k[1] = 3;
  g.pad[0] = g.pad[1] = 1;
  const oa::CallSpec spec = backward_spec(g, {}, {true, true, true}, 0, false);
  oa_test::TestCall call(def, spec);
  ASSERT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (const char* name : {"gradWeight", "gradBias"}) {
    for (double v : call.tensor(name)->read()) {
      EXPECT_EQ(v, 0.0) << name;
    }
  }
  // biasSizes is required there (161002, as CANN's code has it).
  oa::CallSpec no_sizes = spec;
  arg(def, &no_sizes, "biasSizes").null = true;
  EXPECT_EQ(plan(def, no_sizes), ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace conv_test
