// The oneDNN implementation's bfloat16 operands (conv_onednn.cpp). Where the CPU multiplies
// bfloat16 natively, a pass whose two operands are BF16 reads them as bfloat16 (the debug log says
// which operands a pass read) and gives what float32 operands give; an operand value under 2^-56,
// whose products the CPU would flush to zero, sends the pass back to float32 operands.
#include <gtest/gtest.h>

#include "reference/convolution.h"

namespace conv_test {
namespace {

// N2 C64 -> 16, 8x8, k3 p1: every output element sums 576 products.
Geometry geometry() {
  Geometry g;
  g.n = 2;
  g.cin = 64;
  g.cout = 16;
  for (int d = 0; d < 2; ++d) {
    g.in[d] = 8;
    g.k[d] = 3;
    g.pad[d] = 1;
  }
  return g;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// Runs spec through the oneDNN implementation on inputs from `value`, checks it against the
// reference (exactly when `exact`), and returns the debug log of the launch.
template <typename Value>
std::string run_logged(const oa::OpDef& def, const oa::CallSpec& spec, const Value& value,
                       bool exact) {
  const oa_test::ScopedEnv forced("OPENACLNN_IMPL", std::string("onednn"));
  oa_test::TestCall call(def, spec);
  call.fill_inputs(value);
  std::string log;
  {
    const oa_test::ScopedEnv level("ASCEND_GLOBAL_LOG_LEVEL", std::string("0"));
    ::testing::internal::CaptureStderr();
    const aclnnStatus status = call.run();
    log = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
  EXPECT_EQ(oa::last_chosen_impl(), "onednn");
  expect_matches(def, spec, call, exact, def.api);
  return log;
}

const char kBf16[] = "reads bfloat16 operands";
const char kTooSmall[] = "reads float32 operands: a BF16 value is under 2^-56";

TEST(ConvolutionBf16, BothOperandsBf16ReadAsBfloat16) {
  const oa::OpDef& forward = *oa::find_definition("Convolution");
  const oa::OpDef& backward = *oa::find_definition("ConvolutionBackward");
  std::mt19937_64 rng(26101);
  const Dtypes t{ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16};
  auto normals = [&](aclDataType dtype) { return oa_test::random_value(rng, dtype, false); };
  auto integers = [&](aclDataType dtype) { return oa_test::random_integer(rng, dtype); };
  // One pass forward, two (backward-data and backward-weights) backward.
  const int passes[] = {1, 2};
  int i = 0;
  for (const oa::CallSpec& spec : {forward_spec(geometry(), t, 0),
                                   backward_spec(geometry(), t, {true, true, true}, 0, false)}) {
    const oa::OpDef& def = i == 0 ? forward : backward;
    const int want = onednn_native_bf16() ? passes[i] : 0;
    EXPECT_EQ(count(run_logged(def, spec, normals, false), kBf16), want) << def.api;
    EXPECT_EQ(count(run_logged(def, spec, integers, true), kBf16), want) << def.api;
    ++i;
  }
}

TEST(ConvolutionBf16, OperandsWithAFloat32DtypeOrRoundingStayFloat32) {
  const oa::OpDef& forward = *oa::find_definition("Convolution");
  std::mt19937_64 rng(26102);
  auto integers = [&](aclDataType dtype) { return oa_test::random_integer(rng, dtype); };
  // A FLOAT weight, and cubeMathType 2 (USE_FP16: BF16 operands rounded to float16).
  EXPECT_EQ(count(run_logged(forward,
                             forward_spec(geometry(), {ACL_BF16, ACL_FLOAT, ACL_BF16, ACL_BF16}, 0),
                             integers, true),
                  "bfloat16"),
            0);
  EXPECT_EQ(count(run_logged(forward,
                             forward_spec(geometry(), {ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16}, 2),
                             integers, true),
                  "bfloat16"),
            0);
}

// Small integers times 2^-64: products of two of them are multiples of 2^-128, the smallest ones
// subnormal in float32, so bfloat16 products would flush them; every sum stays exact in float32.
// The forward with a BF16 and a FLOAT output.
TEST(ConvolutionBf16, ValuesUnder2ToMinus56UseFloat32Operands) {
  const oa::OpDef& forward = *oa::find_definition("Convolution");
  const oa::OpDef& backward = *oa::find_definition("ConvolutionBackward");
  std::mt19937_64 rng(26103);
  auto tiny = [&](aclDataType dtype) { return oa_test::random_integer(rng, dtype) * 0x1p-64; };
  for (aclDataType out : {ACL_FLOAT, ACL_BF16}) {
    SCOPED_TRACE(oa::dtype_name(out));
    const Dtypes t{ACL_BF16, ACL_BF16, ACL_BF16, out};
    const int want = onednn_native_bf16() ? 1 : 0;
    EXPECT_EQ(count(run_logged(forward, forward_spec(geometry(), t, 0), tiny, true), kTooSmall),
              want);
  }
  // gradOutput BF16 as well: both gradient passes.
  const Dtypes t{ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16};
  EXPECT_EQ(count(run_logged(backward, backward_spec(geometry(), t, {true, true, false}, 0, true),
                             tiny, true),
                  kTooSmall),
            onednn_native_bf16() ? 2 : 0);
}

}  // namespace
}  // namespace conv_test
