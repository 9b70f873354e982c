// The loss family through its C entry points (CANN's prototypes, argument for argument): each
// gives the bits its definition gives, and the rules where openaclnn follows CANN's code or
// decides against it (docs/compatibility.md, "The loss family") answer as documented.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_kl_div.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_mse_loss_out.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "ops/loss/check.h"
#include "test_env.h"

namespace loss_test {
namespace {

using oa::build::flag;
using oa::build::integer;
using oa::build::sample;
using oa::build::tensor;

// A call's tensors by name, for the C entry point.
using Tensors = std::function<aclTensor*(const char*)>;
using Phase1 = std::function<aclnnStatus(const Tensors&, uint64_t*, aclOpExecutor**)>;
using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// Runs spec through the definition and through the C entry points, on the same inputs (random,
// then changed by `prepare` where given): the same status and output bits.
void expect_same_as_definition(const char* op, const oa::CallSpec& spec, const Phase1& phase1,
                               Phase2 phase2,
                               const std::function<void(oa_test::TestCall*)>& prepare = nullptr) {
  const oa::OpDef& def = def_of(op);
  std::vector<std::vector<uint64_t>> bits[2];
  for (int route = 0; route < 2; ++route) {
    oa_test::TestCall call(def, spec);
    std::mt19937_64 rng(9);
    call.fill_inputs([&](aclDataType dtype) { return normal_value(rng, dtype, false); });
    if (prepare) {
      prepare(&call);
    }
    if (route == 0) {
      ASSERT_EQ(call.run(), ACLNN_SUCCESS) << op << ": " << aclGetRecentErrMsg();
    } else {
      uint64_t size = 0;
      aclOpExecutor* executor = nullptr;
      const Tensors tensors = [&](const char* name) { return call.tensor(name)->get(); };
      ASSERT_EQ(phase1(tensors, &size, &executor), ACLNN_SUCCESS)
          << op << ": " << aclGetRecentErrMsg();
      oa_test::DeviceBuffer workspace(std::max<uint64_t>(size, 1));
      ASSERT_EQ(phase2(size > 0 ? workspace.get() : nullptr, size, executor, nullptr),
                ACLNN_SUCCESS)
          << op << ": " << aclGetRecentErrMsg();
    }
    bits[route] = call.output_bits();
  }
  EXPECT_EQ(bits[0], bits[1]) << op;
}

TEST(LossApi, EveryEntryPointMatchesItsDefinition) {
  using T = const Tensors&;
  expect_same_as_definition(
      "MseLoss",
      sample(def_of("MseLoss"),
             {{"self", tensor({3, 40})}, {"target", tensor({40})}, {"reduction", integer(0)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMseLossGetWorkspaceSize(t("self"), t("target"), 0, t("out"), ws, ex);
      },
      aclnnMseLoss);
  expect_same_as_definition(
      "MseLossOut",
      sample(def_of("MseLossOut"),
             {{"self", tensor({3, 40})}, {"target", tensor({40})}, {"reduction", integer(1)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMseLossOutGetWorkspaceSize(t("self"), t("target"), 1, t("out"), ws, ex);
      },
      aclnnMseLossOut);
  const auto grad_spec = [](const char* op, int64_t reduction) {
    return sample(def_of(op), {{"gradOutput", tensor({})},
                               {"self", tensor({3, 40})},
                               {"target", tensor({40})},
                               {"reduction", integer(reduction)}});
  };
  expect_same_as_definition(
      "MseLossBackward", grad_spec("MseLossBackward", 1),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMseLossBackwardGetWorkspaceSize(t("gradOutput"), t("self"), t("target"), 1,
                                                    t("out"), ws, ex);
      },
      aclnnMseLossBackward);
  expect_same_as_definition(
      "L1Loss",
      sample(def_of("L1Loss"),
             {{"self", tensor({3, 40})}, {"target", tensor({40})}, {"reduction", integer(2)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnL1LossGetWorkspaceSize(t("self"), t("target"), 2, t("out"), ws, ex);
      },
      aclnnL1Loss);
  expect_same_as_definition(
      "L1LossBackward", grad_spec("L1LossBackward", 2),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnL1LossBackwardGetWorkspaceSize(t("gradOutput"), t("self"), t("target"), 2,
                                                   t("gradInput"), ws, ex);
      },
      aclnnL1LossBackward);
  expect_same_as_definition(
      "SoftMarginLoss",
      sample(def_of("SoftMarginLoss"),
             {{"self", tensor({3, 40})}, {"target", tensor({40})}, {"reduction", integer(1)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSoftMarginLossGetWorkspaceSize(t("self"), t("target"), 1, t("out"), ws, ex);
      },
      aclnnSoftMarginLoss);
  expect_same_as_definition(
      "SoftMarginLossBackward", grad_spec("SoftMarginLossBackward", 1),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSoftMarginLossBackwardGetWorkspaceSize(t("gradOutput"), t("self"), t("target"),
                                                           1, t("out"), ws, ex);
      },
      aclnnSoftMarginLossBackward);
  expect_same_as_definition(
      "BinaryCrossEntropy",
      sample(def_of("BinaryCrossEntropy"), {{"self", tensor({3, 40})},
                                            {"target", tensor({3, 40})},
                                            {"weight", tensor({40})},
                                            {"reduction", integer(0)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnBinaryCrossEntropyGetWorkspaceSize(t("self"), t("target"), t("weight"), 0,
                                                       t("out"), ws, ex);
      },
      aclnnBinaryCrossEntropy);
  expect_same_as_definition(
      "BinaryCrossEntropyBackward",
      sample(def_of("BinaryCrossEntropyBackward"), {{"gradOutput", tensor({})},
                                                    {"self", tensor({3, 40})},
                                                    {"target", tensor({3, 40})},
                                                    {"weightOptional", tensor({40})},
                                                    {"reduction", integer(1)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(
            t("gradOutput"), t("self"), t("target"), t("weightOptional"), 1, t("out"), ws, ex);
      },
      aclnnBinaryCrossEntropyBackward);
  expect_same_as_definition(
      "BinaryCrossEntropyWithLogits",
      sample(def_of("BinaryCrossEntropyWithLogits"), {{"self", tensor({3, 40})},
                                                      {"target", tensor({3, 40})},
                                                      {"weightOptional", tensor({40})},
                                                      {"posWeightOptional", tensor({3, 1})},
                                                      {"reduction", integer(2)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
            t("self"), t("target"), t("weightOptional"), t("posWeightOptional"), 2, t("out"), ws,
            ex);
      },
      aclnnBinaryCrossEntropyWithLogits);
  expect_same_as_definition(
      "BinaryCrossEntropyWithLogitsBackward",
      sample(def_of("BinaryCrossEntropyWithLogitsBackward"), {{"gradOutput", tensor({3, 40})},
                                                              {"self", tensor({3, 40})},
                                                              {"target", tensor({3, 40})},
                                                              {"weightOptional", tensor({40})},
                                                              {"posWeightOptional", tensor({3, 1})},
                                                              {"reduction", integer(0)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
            t("gradOutput"), t("self"), t("target"), t("weightOptional"), t("posWeightOptional"), 0,
            t("out"), ws, ex);
      },
      aclnnBinaryCrossEntropyWithLogitsBackward);
  expect_same_as_definition(
      "KlDiv",
      sample(def_of("KlDiv"), {{"self", tensor({3, 40})},
                               {"target", tensor({40})},
                               {"reduction", integer(3)},
                               {"logTarget", flag(true)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnKlDivGetWorkspaceSize(t("self"), t("target"), 3, true, t("out"), ws, ex);
      },
      aclnnKlDiv);
  expect_same_as_definition(
      "KlDivBackward",
      sample(def_of("KlDivBackward"), {{"gradOutput", tensor({})},
                                       {"self", tensor({3, 40})},
                                       {"target", tensor({40})},
                                       {"reduction", integer(1)},
                                       {"logTarget", flag(true)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnKlDivBackwardGetWorkspaceSize(t("gradOutput"), t("self"), t("target"), 1, true,
                                                  t("out"), ws, ex);
      },
      aclnnKlDivBackward);
}

// The NLL losses' targets must be classes: 0, 1, 2, ... cycling.
void classes(oa_test::TestCall* call) {
  std::vector<double> targets(static_cast<size_t>(call->tensor("target")->numel()));
  for (size_t k = 0; k < targets.size(); ++k) {
    targets[k] = static_cast<double>(k % 3);
  }
  call->tensor("target")->write(targets);
}

TEST(LossApi, NllEntryPointsMatchTheirDefinitions) {
  using T = const Tensors&;
  expect_same_as_definition(
      "NLLLoss",
      sample(def_of("NLLLoss"), {{"self", tensor({6, 40})},
                                 {"target", tensor({6}, ACL_INT64)},
                                 {"weight", tensor({40})},
                                 {"reduction", integer(1)},
                                 {"ignoreIndex", integer(2)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnNLLLossGetWorkspaceSize(t("self"), t("target"), t("weight"), 1, 2, t("out"),
                                            t("totalWeightOut"), ws, ex);
      },
      aclnnNLLLoss, classes);
  expect_same_as_definition(
      "NLLLossBackward",
      sample(def_of("NLLLossBackward"), {{"gradOutput", tensor({6})},
                                         {"self", tensor({6, 40})},
                                         {"target", tensor({6}, ACL_INT32)},
                                         {"weight", tensor({40})},
                                         {"reduction", integer(0)},
                                         {"ignoreIndex", integer(2)},
                                         {"totalWeight", tensor({})}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnNLLLossBackwardGetWorkspaceSize(t("gradOutput"), t("self"), t("target"),
                                                    t("weight"), 0, 2, t("totalWeight"), t("out"),
                                                    ws, ex);
      },
      aclnnNLLLossBackward, classes);
  expect_same_as_definition(
      "NLLLoss2d",
      sample(def_of("NLLLoss2d"), {{"self", tensor({2, 4, 3, 5})},
                                   {"target", tensor({2, 3, 5}, ACL_UINT8)},
                                   {"weight", tensor({4})},
                                   {"reduction", integer(0)},
                                   {"ignoreIndex", integer(1)}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnNLLLoss2dGetWorkspaceSize(t("self"), t("target"), t("weight"), 0, 1, t("out"),
                                              t("totalWeightOut"), ws, ex);
      },
      aclnnNLLLoss2d, classes);
  expect_same_as_definition(
      "NLLLoss2dBackward",
      sample(def_of("NLLLoss2dBackward"), {{"gradOutput", tensor({})},
                                           {"self", tensor({2, 4, 3, 5})},
                                           {"target", tensor({2, 3, 5}, ACL_INT64)},
                                           {"weight", tensor({4})},
                                           {"reduction", integer(2)},
                                           {"ignoreIndex", integer(1)},
                                           {"totalWeight", tensor({})}}),
      [](T t, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnNLLLoss2dBackwardGetWorkspaceSize(t("gradOutput"), t("self"), t("target"),
                                                      t("weight"), 2, 1, t("totalWeight"), t("out"),
                                                      ws, ex);
      },
      aclnnNLLLoss2dBackward, classes);
}

// Phase 1 of spec: its status and message.
aclnnStatus plan(const char* op, const oa::CallSpec& spec) {
  oa_test::TestCall call(def_of(op), spec);
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = call.plan(&size, &executor);
  if (status == ACLNN_SUCCESS) {
    aclDestroyAclOpExecutor(executor);
  }
  return status;
}

// CANN's BinaryCrossEntropy returns 561103 for a null tensor; openaclnn 161001, as CANN's
// document and every other operator.
TEST(LossApi, BinaryCrossEntropyNullIsAParameterError) {
  oa_test::expect_error(aclnnBinaryCrossEntropyGetWorkspaceSize(nullptr, nullptr, nullptr, 1,
                                                                nullptr, nullptr, nullptr),
                        ACLNN_ERR_PARAM_NULLPTR,
                        {"aclnnBinaryCrossEntropy: self must not be null"});
}

TEST(LossApi, ReducedResultShapes) {
  const auto with_out = [](const char* op, Shape out) {
    oa::CallSpec spec =
        sample(def_of(op),
               {{"self", tensor({3, 40})}, {"target", tensor({3, 40})}, {"reduction", integer(1)}});
    spec.args[3].tensor.shape = out;
    return spec;
  };
  // MseLoss, L1Loss, SoftMarginLoss: 0-d only (CANN rejects [1]).
  for (const char* op : {"MseLoss", "L1Loss", "SoftMarginLoss"}) {
    EXPECT_EQ(plan(op, with_out(op, {})), ACLNN_SUCCESS) << op;
    oa_test::expect_error(plan(op, with_out(op, {1})), ACLNN_ERR_PARAM_INVALID,
                          {"out shape must be [] for reduction mean, got [1]"});
  }
  // BinaryCrossEntropy and KlDiv: any one-element shape (CANN's CheckReduceOutShape).
  for (const char* op : {"BinaryCrossEntropy", "KlDiv"}) {
    const int out = def_of(op).param_index("out");
    for (const Shape& shape : {Shape{}, Shape{1}, Shape{1, 1}}) {
      oa::CallSpec spec = with_out(op, {});
      spec.args[static_cast<size_t>(out)].tensor.shape = shape;
      EXPECT_EQ(plan(op, spec), ACLNN_SUCCESS) << op << " " << oa::shape_string(shape);
    }
  }
}

// SoftMarginLoss takes any reduction as CANN does (3 and -4 are sums); its gradient rejects what
// CANN's would index a table of three names with.
TEST(LossApi, SoftMarginReductions) {
  const oa::CallSpec spec = sample(def_of("SoftMarginLossBackward"), {{"gradOutput", tensor({})},
                                                                      {"self", tensor({2, 40})},
                                                                      {"target", tensor({2, 40})},
                                                                      {"reduction", integer(3)}});
  oa_test::expect_error(plan("SoftMarginLossBackward", spec), ACLNN_ERR_PARAM_INVALID,
                        {"reduction must be 0 (none), 1 (mean), 2 (sum), got 3"});
}

// L1Loss's INT64 computation (CANN's promotion list) is not implemented: rejected, saying so.
TEST(LossApi, L1LossInt64IsNotComputed) {
  const oa::CallSpec spec = sample(def_of("L1Loss"), {{"self", tensor({2, 40}, ACL_INT64)},
                                                      {"target", tensor({2, 40}, ACL_INT64)},
                                                      {"reduction", integer(2)}});
  oa_test::expect_error(
      plan("L1Loss", spec), ACLNN_ERR_PARAM_INVALID,
      {"self dtype must be one of {FLOAT, FLOAT16, BF16}, got INT64", "CANN also takes"});
}

// KlDiv checks its reduction (0..3, batchmean 3); its gradient does not (as CANN).
TEST(LossApi, KlDivReductions) {
  const oa::CallSpec forward =
      sample(def_of("KlDiv"),
             {{"self", tensor({2, 40})}, {"target", tensor({2, 40})}, {"reduction", integer(4)}});
  oa_test::expect_error(plan("KlDiv", forward), ACLNN_ERR_PARAM_INVALID,
                        {"reduction must be", "3 (batchmean), got 4"});
}

// BinaryCrossEntropyWithLogits: out has target's dtype.
TEST(LossApi, WithLogitsOutHasTargetsDtype) {
  oa::CallSpec spec = sample(def_of("BinaryCrossEntropyWithLogits"),
                             {{"self", tensor({2, 40})}, {"target", tensor({2, 40})}});
  spec.args[5].tensor.dtype = ACL_FLOAT16;
  oa_test::expect_error(plan("BinaryCrossEntropyWithLogits", spec), ACLNN_ERR_PARAM_INVALID,
                        {"out dtype must equal target dtype (FLOAT), got FLOAT16"});
}

// The NLL losses' weight is [C] (CANN compares only its first dim or its element count).
TEST(LossApi, NllWeightIsOneDimensional) {
  const oa::CallSpec spec = sample(def_of("NLLLoss2d"), {{"self", tensor({2, 4, 3, 5})},
                                                         {"target", tensor({2, 3, 5}, ACL_INT64)},
                                                         {"weight", tensor({4, 1})}});
  oa_test::expect_error(plan("NLLLoss2d", spec), ACLNN_ERR_PARAM_INVALID,
                        {"weight shape must be [C] of self [4], got [4, 1]"});
}

}  // namespace
}  // namespace loss_test
