// The calls at the edges of the smooth L1 losses' contracts (SPEC sections 9 and 11) that phase 1
// accepts. What each check rejects, the conformance test triggers from the definitions.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/op/build.h"
#include "support/call.h"

namespace {

using oa::build::integer;
using oa::build::real;
using oa::build::sample;
using oa::build::tensor;

using Given = std::vector<std::pair<std::string, oa::ArgSpec>>;

const oa::OpDef& def_of(const char* name) { return *oa::find_definition(name); }

// Any input of rank 0 or 8 (gradInput then of the broadcast's rank 8).
TEST(SmoothL1LossAccepted, InputsOfRankZeroAndEight) {
  const oa::OpDef& def = def_of("SmoothL1LossBackward");
  for (size_t k = 0; k < 3; ++k) {
    for (const Shape& shape : {Shape{}, Shape{1, 1, 1, 1, 1, 1, 2, 3}}) {
      Given given = {
          {"gradOutput", tensor({2, 3})}, {"self", tensor({2, 3})}, {"target", tensor({2, 3})}};
      given[k].second = tensor(shape);
      EXPECT_EQ(oa_test::plan_status(def, sample(def, given)), ACLNN_SUCCESS)
          << given[k].first << " " << oa::shape_string(shape) << ": " << aclGetRecentErrMsg();
    }
  }
}

// beta >= 0 with its boundary: 0 and -0 (the L1 loss), the tiniest and the infinite beta.
TEST(SmoothL1LossAccepted, EveryNonNegativeBeta) {
  for (const char* op : {"SmoothL1Loss", "SmoothL1LossBackward"}) {
    const oa::OpDef& def = def_of(op);
    for (double beta : {0.0, -0.0, 1e-30, std::numeric_limits<double>::infinity()}) {
      Given given = {{"self", tensor({2, 3})}, {"target", tensor({2, 3})}, {"beta", real(beta)}};
      if (def.param_index("gradOutput") >= 0) {
        given.emplace_back("gradOutput", tensor({2, 3}));
      }
      EXPECT_EQ(oa_test::plan_status(def, sample(def, given)), ACLNN_SUCCESS)
          << op << " beta " << beta << ": " << aclGetRecentErrMsg();
    }
  }
}

// A mean or a sum may be written to a result of shape [1] as well as [].
TEST(SmoothL1LossAccepted, ReducedResultOfShapeOne) {
  const oa::OpDef& def = def_of("SmoothL1Loss");
  for (int64_t reduction : {1, 2}) {
    oa::CallSpec spec = sample(
        def,
        {{"self", tensor({2, 3})}, {"target", tensor({3})}, {"reduction", integer(reduction)}});
    spec.args[static_cast<size_t>(def.param_index("result"))].tensor.shape = {1};
    EXPECT_EQ(oa_test::plan_status(def, spec), ACLNN_SUCCESS)
        << "reduction " << reduction << ": " << aclGetRecentErrMsg();
  }
}

}  // namespace
