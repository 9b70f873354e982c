// The two passes of a backward read one operand alike (gradOutput; transposed: x), and where both
// primitives copy it into the same layout the second pass reads the first's copy, slice by slice
// (conv_onednn.cpp). Asked for together, the gradients have the bits each has when asked for
// alone (no copy shared): for a plain, a depthwise and a transposed convolution large enough for
// oneDNN's own layouts and cut into several batch slices, in FLOAT and BF16, and with BF16 passes
// that read operands of different precisions.
#include <gtest/gtest.h>

#include "reference/convolution.h"

namespace conv_test {
namespace {

constexpr char kShared[] = "pass's copy of an operand";

// 2-D, kernel 3, padding 1, over n samples of `size` squared. The sizes below give two slices of
// at least 1e7 FLOPs a pass each (conv_onednn.cpp), where oneDNN chooses the layouts.
Geometry geometry(int64_t n, int64_t channels, int64_t groups, int64_t size, bool transposed) {
  Geometry g;
  g.n = n;
  g.cin = g.cout = channels;
  g.groups = groups;
  g.transposed = transposed;
  for (int d = 0; d < 2; ++d) {
    g.in[d] = size;
    g.k[d] = 3;
    g.pad[d] = 1;
    g.stride[d] = transposed ? 2 : 1;
    g.output_padding[d] = transposed ? 1 : 0;
  }
  return g;
}

struct Result {
  std::vector<std::vector<uint64_t>> bits;
  std::string log;
};

// The gradients `mask` asks for (the others null) through the oneDNN implementation, on random
// normals from a fixed seed; with `tiny_input`, input is small integers times 2^-64: the BF16
// pass of gradWeight then reads float32 operands, that of gradInput (which does not read input)
// bfloat16 ones.
Result run(const Geometry& g, aclDataType dtype, const std::vector<bool>& mask, bool tiny_input) {
  const oa::OpDef& def = *oa::find_definition("ConvolutionBackward");
  const oa_test::ScopedEnv forced("OPENACLNN_IMPL", std::string("onednn"));
  const Dtypes t{dtype, dtype, dtype, dtype};
  oa_test::TestCall call(def, backward_spec(g, t, mask, 0, true));
  std::mt19937_64 rng(26201);
  call.fill_inputs([&](aclDataType d) { return oa_test::random_value(rng, d, false); });
  if (tiny_input) {
    oa_test::TestTensor& x = *call.tensor("input");
    std::vector<double> values;
    for (int64_t i = 0; i < x.numel(); ++i) {
      values.push_back(oa_test::random_integer(rng, dtype) * 0x1p-64);
    }
    x.write(values);
  }
  Result r;
  const oa_test::ScopedEnv level("ASCEND_GLOBAL_LOG_LEVEL", std::string("0"));
  ::testing::internal::CaptureStderr();
  const aclnnStatus status = call.run();
  r.log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(oa::last_chosen_impl(), "onednn");
  r.bits = call.output_bits();
  return r;
}

// Checks that the gradients asked for together have the bits of each asked for alone; returns the
// debug log of the call that asked for both.
std::string expect_same_bits_alone(const Geometry& g, aclDataType dtype, bool tiny_input) {
  const Result both = run(g, dtype, {true, true, false}, tiny_input);
  const Result data = run(g, dtype, {true, false, false}, tiny_input);
  const Result weights = run(g, dtype, {false, true, false}, tiny_input);
  EXPECT_EQ(data.log.find(kShared), std::string::npos);
  EXPECT_EQ(weights.log.find(kShared), std::string::npos);
  if (both.bits.size() != 2 || data.bits.size() != 1 || weights.bits.size() != 1) {
    ADD_FAILURE() << "the outputs asked for";
    return both.log;
  }
  EXPECT_EQ(both.bits[0], data.bits[0]) << "gradInput";
  EXPECT_EQ(both.bits[1], weights.bits[0]) << "gradWeight";
  return both.log;
}

TEST(ConvolutionSharedOperand, GradientsTogetherHaveTheBitsOfEachAlone) {
  const Geometry plain = geometry(2, 16, 1, 48, false);
  const Geometry depthwise = geometry(2, 32, 32, 144, false);
  const Geometry transposed = geometry(2, 16, 1, 48, true);
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    for (const Geometry* g : {&plain, &depthwise, &transposed}) {
      SCOPED_TRACE(std::string(oa::dtype_name(dtype)) + " " + g->describe());
      const std::string log = expect_same_bits_alone(*g, dtype, false);
      // The depthwise passes get channel-blocked activations from both primitives on any CPU.
      if (g == &depthwise && dtype == ACL_FLOAT) {
        EXPECT_NE(log.find(kShared), std::string::npos) << log;
      }
    }
  }
}

TEST(ConvolutionSharedOperand, PassesOfDifferentPrecisionsHaveTheBitsOfEachAlone) {
  for (bool transposed : {false, true}) {
    const Geometry g = geometry(2, 16, 1, 48, transposed);
    SCOPED_TRACE(g.describe());
    const std::string log = expect_same_bits_alone(g, ACL_BF16, true);
    if (onednn_native_bf16()) {
      // Planned to share the bfloat16 copy, which the passes then do not read alike.
      EXPECT_NE(log.find(kShared), std::string::npos) << log;
      EXPECT_NE(log.find("reads bfloat16 operands"), std::string::npos) << log;
      EXPECT_NE(log.find("reads float32 operands"), std::string::npos) << log;
    }
  }
}

}  // namespace
}  // namespace conv_test
