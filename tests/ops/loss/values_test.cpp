// The loss family on chosen values, for every dtype and on both the fast and the reference
// implementation: probabilities at 0 and 1 (BinaryCrossEntropy's logs clamped at -100), logits far
// out (the stable forms stay finite), gradients at the kinks (sign(0) = 0), the mean's divisor for
// a broadcast self, KlDiv at zero and negative targets and its batchmean, CANN's reduction
// leniencies, empty and 0-d tensors, in-place.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "ops/loss/check.h"
#include "test_env.h"

namespace loss_test {
namespace {

using oa::build::flag;
using oa::build::integer;
using oa::build::null;
using oa::build::sample;
using oa::build::tensor;

const double kInf = std::numeric_limits<double>::infinity();

using Values = std::map<std::string, std::vector<double>>;

// Runs spec with the given input values under each implementation and expects `name` to hold
// `expected` (within one rounding to its dtype and `roundings` float32 roundings of |expected|).
void expect_values(const char* op, const oa::CallSpec& spec, const Values& inputs,
                   const std::string& name, const std::vector<double>& expected,
                   double roundings = 16) {
  const oa::OpDef& def = def_of(op);
  for (const oa::Impl& impl : def.impls) {
    oa_test::ScopedEnv forced("OPENACLNN_IMPL", impl.name);
    std::map<std::string, size_t> next;
    const auto r = call_op(def, spec, [&](const std::string& input, aclDataType) {
      return inputs.at(input)[next[input]++ % inputs.at(input).size()];
    });
    std::vector<Term> terms;
    for (double v : expected) {
      terms.push_back({v, std::fabs(v)});
    }
    SCOPED_TRACE(std::string(op) + " impl " + impl.name);
    expect_output(*r, name, terms, roundings);
  }
}

TEST(LossValues, BinaryCrossEntropyAtZeroAndOne) {
  for (aclDataType dtype : kFloatTypes) {
    // log(0) is clamped at -100: a certain wrong prediction costs 100.
    const Values in = {{"self", {0, 1, 0, 1, 0.5}}, {"target", {0, 1, 1, 0, 0.5}}};
    const auto spec = [&](int64_t reduction) {
      return sample(def_of("BinaryCrossEntropy"), {{"self", tensor({5}, dtype)},
                                                   {"target", tensor({5}, dtype)},
                                                   {"reduction", integer(reduction)}});
    };
    expect_values("BinaryCrossEntropy", spec(0), in, "out", {0, 0, 100, 100, std::log(2.0)});
    expect_values("BinaryCrossEntropy", spec(2), in, "out", {200 + std::log(2.0)});
    expect_values("BinaryCrossEntropy", spec(1), in, "out", {(200 + std::log(2.0)) / 5});
    // The gradient divides by max(x (1 - x), 1e-12).
    const oa::CallSpec grad =
        sample(def_of("BinaryCrossEntropyBackward"), {{"gradOutput", tensor({5}, dtype)},
                                                      {"self", tensor({5}, dtype)},
                                                      {"target", tensor({5}, dtype)},
                                                      {"reduction", integer(0)}});
    const double floor = static_cast<double>(1e-12f);
    expect_values("BinaryCrossEntropyBackward", grad,
                  {{"gradOutput", {1}}, {"self", {0, 1, 0, 1, 0.5}}, {"target", {0, 1, 1, 0, 0}}},
                  "out", {0, 0, -1 / floor, 1 / floor, 2});
  }
}

TEST(LossValues, WithLogitsFarOutStaysFinite) {
  const Values in = {{"self", {100, -100, 100, -100, 0}}, {"target", {1, 0, 0, 1, 0.5}}};
  const oa::CallSpec spec =
      sample(def_of("BinaryCrossEntropyWithLogits"),
             {{"self", tensor({5})}, {"target", tensor({5})}, {"reduction", integer(0)}});
  // log1p(exp(-100)) = 3.7e-44 where the prediction is right, kept (no cancellation of 100s).
  expect_values("BinaryCrossEntropyWithLogits", spec, in, "out",
                {std::exp(-100.0), std::exp(-100.0), 100, 100, std::log(2.0)}, 0);
  // posWeight multiplies the positive term only.
  const oa::CallSpec weighted =
      sample(def_of("BinaryCrossEntropyWithLogits"), {{"self", tensor({2})},
                                                      {"target", tensor({2})},
                                                      {"posWeightOptional", tensor({})},
                                                      {"reduction", integer(0)}});
  expect_values("BinaryCrossEntropyWithLogits", weighted,
                {{"self", {0, 0}}, {"target", {1, 0}}, {"posWeightOptional", {3}}}, "out",
                {3 * std::log(2.0), std::log(2.0)});
  const oa::CallSpec grad =
      sample(def_of("BinaryCrossEntropyWithLogitsBackward"), {{"gradOutput", tensor({})},
                                                              {"self", tensor({4})},
                                                              {"target", tensor({4})},
                                                              {"posWeightOptional", tensor({4})},
                                                              {"reduction", integer(2)}});
  // (pw y + 1 - y) sigma(x) - pw y, times gradOutput 2: at x = 0, y = 1, pw = 3: 3/2 - 3; at
  // x = 60, y = 1: -3 sigma(-60) (not the 0 of 3 sigma(60) - 3 in float).
  const double tiny = 1.0 / (1.0 + std::exp(60.0));  // sigma(-60), normal in float32
  expect_values("BinaryCrossEntropyWithLogitsBackward", grad,
                {{"gradOutput", {2}},
                 {"self", {0, 60, -60, 0}},
                 {"target", {1, 1, 0, 0}},
                 {"posWeightOptional", {3, 3, 3, 3}}},
                "out", {-3, 2 * 3 * -tiny, 2 * tiny, 1}, 0);
}

TEST(LossValues, SoftMarginFarOutStaysFinite) {
  const oa::CallSpec spec =
      sample(def_of("SoftMarginLoss"),
             {{"self", tensor({3})}, {"target", tensor({3})}, {"reduction", integer(0)}});
  expect_values("SoftMarginLoss", spec, {{"self", {100, -100, 0}}, {"target", {-1, -1, 1}}}, "out",
                {100, std::exp(-100.0), std::log(2.0)});
  // -y sigma(-y x): -(-1) sigma(100) = 1 (PyTorch's exp(100) / (1 + exp(100)) is NaN in float).
  const oa::CallSpec grad = sample(def_of("SoftMarginLossBackward"), {{"gradOutput", tensor({})},
                                                                      {"self", tensor({3})},
                                                                      {"target", tensor({3})},
                                                                      {"reduction", integer(2)}});
  expect_values("SoftMarginLossBackward", grad,
                {{"gradOutput", {1}}, {"self", {100, -100, 0}}, {"target", {-1, 1, 1}}}, "out",
                {1, -1, -0.5});
}

TEST(LossValues, GradientsAtTheKinks) {
  for (aclDataType dtype : kFloatTypes) {
    const oa::CallSpec spec = sample(def_of("L1LossBackward"), {{"gradOutput", tensor({}, dtype)},
                                                                {"self", tensor({4}, dtype)},
                                                                {"target", tensor({4}, dtype)},
                                                                {"reduction", integer(1)}});
    expect_values("L1LossBackward", spec,
                  {{"gradOutput", {2}}, {"self", {1, 2, 3, -0.0}}, {"target", {1, 1, 4, 0}}},
                  "gradInput", {0, 0.5, -0.5, 0});
  }
}

// The mean's derivative divides by the number of loss terms, 12 here (CANN's kernel divides by
// self's 3 elements).
TEST(LossValues, MeanOfABroadcastSelfDividesByTheTermCount) {
  const oa::CallSpec spec = sample(def_of("MseLossBackward"), {{"gradOutput", tensor({})},
                                                               {"self", tensor({1, 3})},
                                                               {"target", tensor({4, 3})},
                                                               {"reduction", integer(1)}});
  std::vector<double> expected;
  for (int i = 0; i < 12; ++i) {
    expected.push_back(2.0 * (3.0 - i) / 12.0);
  }
  std::vector<double> target;
  for (int i = 0; i < 12; ++i) {
    target.push_back(i);
  }
  expect_values("MseLossBackward", spec,
                {{"gradOutput", {1}}, {"self", {3, 3, 3}}, {"target", target}}, "out", expected);
}

TEST(LossValues, KlDivAtZeroAndNegativeTargets) {
  const oa::CallSpec spec = sample(def_of("KlDiv"), {{"self", tensor({4})},
                                                     {"target", tensor({4})},
                                                     {"reduction", integer(0)},
                                                     {"logTarget", flag(false)}});
  expect_values("KlDiv", spec, {{"self", {-1, 5, -2, 0}}, {"target", {0, 0, -1, 1}}}, "out",
                {0, 0, std::nan(""), 0});
  // x = -inf with target 0: 0 * inf, NaN (as PyTorch's xlogy(0, 0) - 0 * x).
  expect_values("KlDiv", spec, {{"self", {-kInf}}, {"target", {0}}}, "out",
                {std::nan(""), std::nan(""), std::nan(""), std::nan("")});
}

TEST(LossValues, KlDivBatchmean) {
  // Divided by the broadcast shape's first dim: 4, also for a self of one row.
  const oa::CallSpec spec = sample(def_of("KlDiv"), {{"self", tensor({1, 3})},
                                                     {"target", tensor({4, 3})},
                                                     {"reduction", integer(3)},
                                                     {"logTarget", flag(true)}});
  // exp(0) (0 - x) summed: 12 terms of -x for x = 1, 2, 3.
  expect_values("KlDiv", spec, {{"self", {1, 2, 3}}, {"target", {0}}}, "out", {-24.0 / 4});
  const oa::CallSpec scalar = sample(def_of("KlDiv"), {{"self", tensor({})},
                                                       {"target", tensor({})},
                                                       {"reduction", integer(3)},
                                                       {"logTarget", flag(true)}});
  expect_values("KlDiv", scalar, {{"self", {2}}, {"target", {0}}}, "out", {-2});
  // The gradient: -exp(t) g / 4, summed over the broadcast rows for self [1, 3].
  const oa::CallSpec grad = sample(def_of("KlDivBackward"), {{"gradOutput", tensor({})},
                                                             {"self", tensor({1, 3})},
                                                             {"target", tensor({4, 3})},
                                                             {"reduction", integer(3)},
                                                             {"logTarget", flag(true)}});
  expect_values("KlDivBackward", grad, {{"gradOutput", {2}}, {"self", {0}}, {"target", {0}}}, "out",
                {-2, -2, -2});
}

// CANN's tests call SoftMarginLoss with reductions 3 and -4 (sums) and KlDivBackward with 6
// (c = 1): accepted alike.
TEST(LossValues, ReductionsCannAccepts) {
  for (int64_t reduction : {3, -4}) {
    const oa::CallSpec spec =
        sample(def_of("SoftMarginLoss"),
               {{"self", tensor({2})}, {"target", tensor({2})}, {"reduction", integer(reduction)}});
    expect_values("SoftMarginLoss", spec, {{"self", {0, 0}}, {"target", {1, -1}}}, "out",
                  {2 * std::log(2.0)});
  }
  const oa::CallSpec grad = sample(def_of("KlDivBackward"), {{"gradOutput", tensor({2})},
                                                             {"self", tensor({2})},
                                                             {"target", tensor({2})},
                                                             {"reduction", integer(6)},
                                                             {"logTarget", flag(false)}});
  expect_values("KlDivBackward", grad, {{"gradOutput", {3}}, {"self", {0}}, {"target", {1, 2}}},
                "out", {-3, -6});
}

// Empty inputs: mean NaN, sum 0, batchmean NaN for an empty first dim and 0 otherwise.
TEST(LossValues, EmptyInputs) {
  for (const char* op : {"MseLoss", "L1Loss", "SoftMarginLoss", "KlDiv"}) {
    for (int64_t reduction : {1, 2}) {
      const oa::CallSpec spec = sample(
          def_of(op),
          {{"self", tensor({0, 3})}, {"target", tensor({3})}, {"reduction", integer(reduction)}});
      expect_values(op, spec, {{"self", {1}}, {"target", {1}}}, "out",
                    {reduction == 1 ? std::nan("") : 0.0});
    }
  }
  const auto batchmean = [](Shape shape) {
    return sample(def_of("KlDiv"),
                  {{"self", tensor(shape)}, {"target", tensor(shape)}, {"reduction", integer(3)}});
  };
  expect_values("KlDiv", batchmean({0, 3}), {{"self", {1}}, {"target", {1}}}, "out",
                {std::nan("")});
  expect_values("KlDiv", batchmean({3, 0}), {{"self", {1}}, {"target", {1}}}, "out", {0});
  const oa::CallSpec bce =
      sample(def_of("BinaryCrossEntropy"), {{"self", tensor({0, 5}, ACL_FLOAT16)},
                                            {"target", tensor({0, 5}, ACL_FLOAT16)},
                                            {"reduction", integer(1)}});
  expect_values("BinaryCrossEntropy", bce, {{"self", {0.5}}, {"target", {0.5}}}, "out",
                {std::nan("")});
}

// 0-d tensors everywhere: a loss of one term.
TEST(LossValues, ZeroDimensional) {
  for (int64_t reduction : {0, 1, 2}) {
    const oa::CallSpec spec = sample(def_of("MseLoss"), {{"self", tensor({}, ACL_BF16)},
                                                         {"target", tensor({}, ACL_FLOAT16)},
                                                         {"reduction", integer(reduction)}});
    expect_values("MseLoss", spec, {{"self", {3}}, {"target", {1}}}, "out", {4});
    const oa::CallSpec grad =
        sample(def_of("MseLossBackward"), {{"gradOutput", tensor({})},
                                           {"self", tensor({})},
                                           {"target", tensor({})},
                                           {"reduction", integer(reduction)}});
    expect_values("MseLossBackward", grad, {{"gradOutput", {0.5}}, {"self", {3}}, {"target", {1}}},
                  "out", {2});
  }
}

// out exactly gradOutput's view: computed in place.
TEST(LossValues, InPlace) {
  const oa::OpDef& def = def_of("MseLossBackward");
  oa::CallSpec spec = sample(def, {{"gradOutput", tensor({2, 40})},
                                   {"self", tensor({2, 40})},
                                   {"target", tensor({40})},
                                   {"reduction", integer(0)}});
  spec.args[static_cast<size_t>(def.param_index("out"))].alias_of = def.param_index("gradOutput");
  oa_test::TestCall call(def, spec);
  std::vector<double> ones(80, 1.0);
  std::vector<double> x(80);
  for (int i = 0; i < 80; ++i) {
    x[static_cast<size_t>(i)] = i;
  }
  call.tensor("gradOutput")->write(ones);
  call.tensor("self")->write(x);
  call.tensor("target")->write(std::vector<double>(40, 1.0));
  ASSERT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<double> out = call.tensor("out")->read();
  for (int i = 0; i < 80; ++i) {
    EXPECT_EQ(out[static_cast<size_t>(i)], 2.0 * (i - 1)) << i;
  }
}

}  // namespace
}  // namespace loss_test
