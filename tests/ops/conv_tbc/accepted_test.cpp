// The ConvTbc calls that phase 1 accepts where CANN's system tests go beyond the obvious
// (docs/compatibility.md): a bias of any float dtype, pads far beyond the kernel, USE_FP16 with a
// BF16 bias (bias is converted, no operand of the products). What each check rejects, the
// conformance test triggers from the definitions.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/op/build.h"
#include "support/call.h"

namespace {

using oa::build::integer;
using oa::build::sample;
using oa::build::tensor;

const oa::OpDef& def_of(const char* name) { return *oa::find_definition(name); }

// T=6, B=2, Cin=3, Cout=4, K=3: the forward call with the given pad and cubeMathType, self and
// weight of dtype `dtype`, bias of dtype `bias`.
oa::CallSpec forward(int64_t pad, int64_t cube_math_type, aclDataType dtype, aclDataType bias) {
  const oa::OpDef& def = def_of("ConvTbc");
  return sample(def, {{"self", tensor({6, 2, 3}, dtype)},
                      {"weight", tensor({3, 3, 4}, dtype)},
                      {"bias", tensor({4}, bias)},
                      {"pad", integer(pad)},
                      {"cubeMathType", integer(cube_math_type)}});
}

// The backward call of the same sizes, bias of dtype `bias`, the rest FLOAT.
oa::CallSpec backward(int64_t pad, int64_t cube_math_type, aclDataType bias) {
  const oa::OpDef& def = def_of("ConvTbcBackward");
  return sample(def, {{"self", tensor({6 + 2 * pad - 3 + 1, 2, 4})},
                      {"input", tensor({6, 2, 3})},
                      {"weight", tensor({3, 3, 4})},
                      {"bias", tensor({4}, bias)},
                      {"pad", integer(pad)},
                      {"cubeMathType", integer(cube_math_type)}});
}

TEST(ConvTbcAccepted, BiasOfAnyFloatDtype) {
  const aclDataType dtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (aclDataType dtype : dtypes) {
    for (aclDataType bias : dtypes) {
      EXPECT_EQ(oa_test::plan_status(def_of("ConvTbc"), forward(1, 0, dtype, bias)), ACLNN_SUCCESS)
          << oa::dtype_name(dtype) << " with a " << oa::dtype_name(bias)
          << " bias: " << aclGetRecentErrMsg();
    }
  }
}

// No upper cap on pad: CANN's system tests use 354, 443 and 1037.
TEST(ConvTbcAccepted, LargePads) {
  for (int64_t pad : {354, 443, 1037}) {
    EXPECT_EQ(oa_test::plan_status(def_of("ConvTbc"), forward(pad, 0, ACL_FLOAT, ACL_FLOAT)),
              ACLNN_SUCCESS)
        << "pad " << pad << ": " << aclGetRecentErrMsg();
    EXPECT_EQ(oa_test::plan_status(def_of("ConvTbcBackward"), backward(pad, 0, ACL_FLOAT)),
              ACLNN_SUCCESS)
        << "pad " << pad << ": " << aclGetRecentErrMsg();
  }
}

TEST(ConvTbcAccepted, UseFp16WithABf16Bias) {
  EXPECT_EQ(oa_test::plan_status(def_of("ConvTbc"), forward(1, 2, ACL_FLOAT, ACL_BF16)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(oa_test::plan_status(def_of("ConvTbcBackward"), backward(1, 2, ACL_BF16)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
}

}  // namespace
