// The AdaptiveMaxPool2dBackward calls that phase 1 accepts beyond its samples: NCHW tensors with
// INT32 indices. What each check rejects, the conformance test triggers from the definitions.
#include <gtest/gtest.h>

#include "core/op/build.h"
#include "support/call.h"

namespace {

using oa::build::sample;
using oa::build::tensor;

TEST(AdaptiveMaxPool2dBackwardAccepted, NchwWithInt32Indices) {
  const oa::OpDef& def = *oa::find_definition("AdaptiveMaxPool2dBackward");
  const oa::CallSpec spec =
      sample(def, {{"gradOutput", tensor({2, 3, 2, 2}, ACL_BF16, ACL_FORMAT_NCHW)},
                   {"self", tensor({2, 3, 4, 4}, ACL_BF16, ACL_FORMAT_NCHW)},
                   {"indices", tensor({2, 3, 2, 2}, ACL_INT32, ACL_FORMAT_NCHW)}});
  EXPECT_EQ(oa_test::plan_status(def, spec), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

}  // namespace
