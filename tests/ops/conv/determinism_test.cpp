// The convolution family gives the same bits for any thread count: calls large enough to be cut
// into several batch slices (conv_onednn.cpp), forward, transposed, a kernel of size 1 and every
// gradient, in FLOAT and BF16.
#include <gtest/gtest.h>

#include "reference/convolution.h"

namespace conv_test {
namespace {

std::vector<std::vector<uint64_t>> run_with_threads(const oa::OpDef& def, const oa::CallSpec& spec,
                                                    const char* threads) {
  oa_test::ScopedEnv env("OPENACLNN_NUM_THREADS", std::string(threads));
  oa_test::TestCall call(def, spec);
  std::mt19937_64 rng(9);
  call.fill_inputs([&](aclDataType dtype) { return oa_test::random_value(rng, dtype, false); });
  EXPECT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  return call.output_bits();
}

void expect_same_bits(const oa::OpDef& def, const oa::CallSpec& spec) {
  const auto one = run_with_threads(def, spec, "1");
  for (const char* threads : {"2", "3"}) {
    EXPECT_EQ(run_with_threads(def, spec, threads), one) << threads << " threads";
  }
}

Geometry large(bool transposed) {
  Geometry g;
  g.spatial = 2;
  g.n = 7;
  g.cin = 16;
  g.cout = 16;
  g.transposed = transposed;
  for (int d = 0; d < 2; ++d) {
    g.in[d] = 20;
    g.k[d] = 3;
    g.pad[d] = 1;
    g.stride[d] = transposed ? 2 : 1;
    g.output_padding[d] = transposed ? 1 : 0;
  }
  return g;
}

// A kernel of size 1 at stride 2, which runs as one matrix product per sample (conv_product.cpp),
// in two batch slices.
Geometry large_kernel_one() {
  Geometry g;
  g.n = 7;
  g.cin = 64;
  g.cout = 64;
  for (int d = 0; d < 2; ++d) {
    g.in[d] = 28;
    g.stride[d] = 2;
  }
  return g;
}

TEST(ConvolutionDeterminism, SameBitsForAnyThreadCount) {
  const oa::OpDef& forward = *oa::find_definition("Convolution");
  const oa::OpDef& backward = *oa::find_definition("ConvolutionBackward");
  for (const Geometry& g : {large(false), large(true), large_kernel_one()}) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
      SCOPED_TRACE(g.describe() + " " + oa::dtype_name(dtype));
      const Dtypes t{dtype, dtype, dtype, dtype};
      expect_same_bits(forward, forward_spec(g, t, 0));
      expect_same_bits(backward, backward_spec(g, t, {true, true, true}, 0, false));
    }
  }
}

}  // namespace
}  // namespace conv_test
