// NLLLoss, NLLLoss2d and their gradients against the float64 references of reference/losses.h:
// random rows of every dtype, target dtype, weight and ignoreIndex (inside and outside the class
// range), views, reductions, empty inputs, all rows ignored; large calls with any thread count; a
// gradInput written with streaming stores; and the data error of a target out of range: the
// launch fails naming the target's position and value and writes nothing, in every
// implementation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ops/loss/check.h"
#include "test_env.h"

namespace loss_test {
namespace {

using oa::build::integer;
using oa::build::sample;
using oa::build::tensor;

const aclDataType kTargetTypes[] = {ACL_INT64, ACL_INT32, ACL_UINT8};

struct Shapes {
  Shape self;
  Shape rows;  // target's shape
  int64_t classes = 0;
};

Shapes random_shapes(std::mt19937_64& rng, bool two_d) {
  Shapes s;
  s.classes = 1 + static_cast<int64_t>(rng() % (rng() % 4 == 0 ? 60 : 8));
  if (two_d) {
    const Shape pixels = {static_cast<int64_t>(rng() % 4), 1 + static_cast<int64_t>(rng() % 5),
                          1 + static_cast<int64_t>(rng() % 41)};
    s.self = {pixels[0], s.classes, pixels[1], pixels[2]};
    s.rows = pixels;
  } else if (rng() % 5 == 0) {
    s.self = {s.classes};
  } else {
    const auto n = static_cast<int64_t>(rng() % 70);
    s.self = {n, s.classes};
    s.rows = {n};
  }
  return s;
}

// ignoreIndex: -100, a class, or (for UINT8 targets) 255.
int64_t random_ignore(std::mt19937_64& rng, int64_t classes, aclDataType target) {
  switch (rng() % 3) {
    case 0:
      return -100;
    case 1:
      return static_cast<int64_t>(rng() % static_cast<uint64_t>(classes));
    default:
      return target == ACL_UINT8 ? 255 : -1;
  }
}

// Targets: classes, and ignoreIndex now and then (where the target's dtype holds it).
ValueOf nll_values(std::mt19937_64& rng, int64_t classes, int64_t ignore) {
  return [&rng, classes, ignore](const std::string& name, aclDataType dtype) {
    if (name == "target") {
      const bool representable = dtype != ACL_UINT8 || (ignore >= 0 && ignore <= 255);
      if (representable && rng() % 6 == 0) {
        return static_cast<double>(ignore);
      }
      return static_cast<double>(rng() % static_cast<uint64_t>(classes));
    }
    if (name == "totalWeight") {
      return oa_test::round_to(dtype, std::uniform_real_distribution<double>(0.5, 40)(rng));
    }
    return normal_value(rng, dtype, name != "weight");
  };
}

oa::CallSpec forward_spec(const oa::OpDef& def, std::mt19937_64& rng, bool two_d, int64_t* ignore) {
  const Shapes s = random_shapes(rng, two_d);
  const aclDataType dtype = random_float_type(rng);
  const aclDataType target = kTargetTypes[rng() % 3];
  *ignore = random_ignore(rng, s.classes, target);
  oa::CallSpec spec = sample(def, {{"self", tensor(s.self, dtype)},
                                   {"target", tensor(s.rows, target)},
                                   {"weight", tensor({s.classes}, dtype)},
                                   {"reduction", integer(static_cast<int64_t>(rng() % 3))},
                                   {"ignoreIndex", integer(*ignore)}});
  spec.args[static_cast<size_t>(def.param_index("out"))].tensor.dtype = random_float_type(rng);
  spec.args[static_cast<size_t>(def.param_index("totalWeightOut"))].tensor.dtype =
      random_float_type(rng);
  return spec;
}

void check_forward(const Called& r, bool two_d) {
  const oa_ref::NllResult expected =
      oa_ref::nll_forward(r.input("self"), r.input("target"), r.input("weight"),
                          r.integer("reduction"), r.integer("ignoreIndex"), two_d);
  if (r.integer("reduction") == 0) {
    expect_output(r, "out", expected.per_row);
  } else {
    expect_output(r, "out", {expected.reduced});
  }
  double magnitude = 0;
  for (double w : r.input("weight").values) {
    magnitude += std::fabs(w);
  }
  expect_output(r, "totalWeightOut", {{expected.total_weight, magnitude}});
}

oa::CallSpec backward_spec(const oa::OpDef& def, std::mt19937_64& rng, bool two_d,
                           int64_t* ignore) {
  const Shapes s = random_shapes(rng, two_d);
  const aclDataType dtype = random_float_type(rng);
  const aclDataType target = kTargetTypes[rng() % 3];
  *ignore = random_ignore(rng, s.classes, target);
  const auto reduction = static_cast<int64_t>(rng() % 3);
  oa::CallSpec spec = sample(def, {{"gradOutput", tensor(reduction == 0 ? s.rows : Shape{}, dtype)},
                                   {"self", tensor(s.self, dtype)},
                                   {"target", tensor(s.rows, target)},
                                   {"weight", tensor({s.classes}, dtype)},
                                   {"reduction", integer(reduction)},
                                   {"ignoreIndex", integer(*ignore)},
                                   {"totalWeight", tensor({}, dtype)}});
  if (!two_d) {  // the 1-d gradient may be of another dtype
    spec.args[static_cast<size_t>(def.param_index("out"))].tensor.dtype = random_float_type(rng);
  }
  return spec;
}

void check_backward(const Called& r, bool two_d) {
  expect_output(r, "out",
                oa_ref::nll_backward(r.input("gradOutput"), r.input("self"), r.input("target"),
                                     r.input("weight"), r.input("totalWeight"),
                                     r.integer("reduction"), r.integer("ignoreIndex"), two_d));
}

void random_calls(const char* op, bool two_d, bool forward, uint64_t seed) {
  const oa::OpDef& def = def_of(op);
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 400 && !::testing::Test::HasFailure(); ++i) {
    int64_t ignore = 0;
    const oa::CallSpec spec =
        forward ? forward_spec(def, rng, two_d, &ignore) : backward_spec(def, rng, two_d, &ignore);
    const Shape& self = spec.args[static_cast<size_t>(def.param_index("self"))].tensor.shape;
    const int64_t classes = self.size() == 1 ? self[0] : self[1];
    std::mt19937_64 layouts(rng());
    const auto r = call_op(def, spec, nll_values(rng, classes, ignore), i % 2 ? &layouts : nullptr);
    SCOPED_TRACE("case " + std::to_string(i));
    if (forward) {
      check_forward(*r, two_d);
    } else {
      check_backward(*r, two_d);
    }
  }
}

TEST(LossNll, NLLLossRandom) { random_calls("NLLLoss", false, true, 301); }
TEST(LossNll, NLLLossBackwardRandom) { random_calls("NLLLossBackward", false, false, 302); }
TEST(LossNll, NLLLoss2dRandom) { random_calls("NLLLoss2d", true, true, 303); }
TEST(LossNll, NLLLoss2dBackwardRandom) { random_calls("NLLLoss2dBackward", true, false, 304); }

// Every row ignored: the mean is 0/0 = NaN and the total weight 0; the sum 0.
TEST(LossNll, AllRowsIgnored) {
  const oa::OpDef& def = def_of("NLLLoss");
  for (int64_t reduction : {1, 2}) {
    const oa::CallSpec spec = sample(def, {{"self", tensor({6, 40})},
                                           {"target", tensor({6}, ACL_INT64)},
                                           {"weight", tensor({40})},
                                           {"reduction", integer(reduction)},
                                           {"ignoreIndex", integer(-100)}});
    std::mt19937_64 rng(5);
    const auto r = call_op(def, spec, [&](const std::string& name, aclDataType dtype) {
      return name == "target" ? -100.0 : normal_value(rng, dtype, false);
    });
    ASSERT_EQ(r->status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const double out = r->tensor("out")->read()[0];
    if (reduction == 1) {
      EXPECT_TRUE(std::isnan(out));
    } else {
      EXPECT_EQ(out, 0.0);
    }
    EXPECT_EQ(r->tensor("totalWeightOut")->read()[0], 0.0);
  }
}

// Empty rows: the mean NaN, the sum 0, the total weight 0; none writes an empty out.
TEST(LossNll, EmptyRows) {
  const oa::OpDef& def = def_of("NLLLoss");
  for (int64_t reduction : {0, 1, 2}) {
    const oa::CallSpec spec = sample(def, {{"self", tensor({0, 4})},
                                           {"target", tensor({0}, ACL_INT64)},
                                           {"weight", tensor({4})},
                                           {"reduction", integer(reduction)}});
    const auto r = call_op(def, spec, [](const std::string&, aclDataType) { return 1.0; });
    ASSERT_EQ(r->status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
    if (reduction == 1) {
      EXPECT_TRUE(std::isnan(r->tensor("out")->read()[0]));
    } else if (reduction == 2) {
      EXPECT_EQ(r->tensor("out")->read()[0], 0.0);
    }
    EXPECT_EQ(r->tensor("totalWeightOut")->read()[0], 0.0);
    EXPECT_TRUE(r->call->only_views_written());
  }
}

// A UINT8 target can never equal a negative ignoreIndex: 255 is then a class index, out of range
// for 10 classes.
TEST(LossNll, Uint8TargetsAreNeverANegativeIgnoreIndex) {
  const oa::OpDef& def = def_of("NLLLoss");
  const oa::CallSpec spec = sample(def, {{"self", tensor({3, 10})},
                                         {"target", tensor({3}, ACL_UINT8)},
                                         {"weight", tensor({10})},
                                         {"ignoreIndex", integer(-1)}});
  const auto r = call_op(def, spec, [](const std::string& name, aclDataType) {
    return name == "target" ? 255.0 : 1.0;
  });
  oa_test::expect_error(r->status, ACLNN_ERR_RUNTIME_ERROR, {"target[0] = 255 is out of range"});
}

// Rows far more than a chunk's: the same bits for any thread count, and the reference's.
TEST(LossNll, LargeCallsAnyThreadCount) {
  for (const char* op : {"NLLLoss", "NLLLossBackward"}) {
    const oa::OpDef& def = def_of(op);
    const bool forward = std::string(op) == "NLLLoss";
    for (int64_t reduction : {0, 1, 2}) {
      const int64_t n = 20011;
      oa::CallSpec spec;
      if (forward) {
        spec = sample(def, {{"self", tensor({n, 37})},
                            {"target", tensor({n}, ACL_INT64)},
                            {"weight", tensor({37})},
                            {"reduction", integer(reduction)},
                            {"ignoreIndex", integer(4)}});
      } else {
        spec = sample(def, {{"gradOutput", tensor(reduction == 0 ? Shape{n} : Shape{})},
                            {"self", tensor({n, 37})},
                            {"target", tensor({n}, ACL_INT32)},
                            {"weight", tensor({37})},
                            {"reduction", integer(reduction)},
                            {"ignoreIndex", integer(4)},
                            {"totalWeight", tensor({})}});
      }
      std::vector<std::vector<uint64_t>> first;
      for (const char* threads : {"1", "3"}) {
        oa_test::ScopedEnv env("OPENACLNN_NUM_THREADS", threads);
        std::mt19937_64 rng(11);
        const auto r = call_op(def, spec, nll_values(rng, 37, 4));
        if (forward) {
          check_forward(*r, false);
        } else {
          check_backward(*r, false);
        }
        if (first.empty()) {
          first = r->call->output_bits();
        } else {
          EXPECT_EQ(r->call->output_bits(), first) << op << " reduction " << reduction;
        }
      }
    }
  }
}

// A target out of range (not ignoreIndex) fails the launch with 361001, a message naming the
// target's position and value, and no output written, whichever implementation runs.
void expect_data_error(const char* op, const oa::CallSpec& spec, int64_t bad_row, double bad,
                       const std::string& message) {
  const oa::OpDef& def = def_of(op);
  for (const oa::Impl& impl : def.impls) {
    oa_test::ScopedEnv forced("OPENACLNN_IMPL", impl.name);
    oa_test::TestCall call(def, spec);
    std::mt19937_64 rng(3);
    int64_t row = 0;
    call.fill_inputs([&](aclDataType dtype) { return normal_value(rng, dtype, false); });
    oa_test::TestTensor* target = call.tensor("target");
    std::vector<double> targets = target->read();
    for (double& t : targets) {
      t = row++ == bad_row ? bad : 1.0;
    }
    target->write(targets);
    const auto before = call.output_bits();
    oa_test::expect_error(call.run(), ACLNN_ERR_RUNTIME_ERROR, {op, message, "not written"});
    EXPECT_EQ(oa::last_chosen_impl(), impl.name);
    EXPECT_EQ(call.output_bits(), before) << op << " impl " << impl.name;
    EXPECT_TRUE(call.only_views_written());
  }
}

TEST(LossNll, TargetOutOfRangeIsADataError) {
  const oa::OpDef& forward = def_of("NLLLoss");
  for (int64_t reduction : {0, 1, 2}) {
    const oa::CallSpec spec = sample(forward, {{"self", tensor({9000, 5})},
                                               {"target", tensor({9000}, ACL_INT64)},
                                               {"weight", tensor({5})},
                                               {"reduction", integer(reduction)}});
    expect_data_error("NLLLoss", spec, 8500, 5, "target[8500] = 5 is out of range");
    expect_data_error("NLLLoss", spec, 3, -2, "target[3] = -2 is out of range");
  }
  const oa::OpDef& backward = def_of("NLLLossBackward");
  const oa::CallSpec one_row = sample(backward, {{"gradOutput", tensor({})},
                                                 {"self", tensor({7})},
                                                 {"target", tensor({}, ACL_INT32)},
                                                 {"weight", tensor({7})},
                                                 {"reduction", integer(0)},
                                                 {"totalWeight", tensor({})}});
  expect_data_error("NLLLossBackward", one_row, 0, 7,
                    "target = 7 is out of range: a class index must lie in [0, C) = [0, 7)");
  // Rows in several chunks, in BF16 (the fast implementation checks while it gathers the rows).
  const oa::CallSpec rows = sample(backward, {{"gradOutput", tensor({9000}, ACL_BF16)},
                                              {"self", tensor({9000, 5}, ACL_BF16)},
                                              {"target", tensor({9000}, ACL_INT64)},
                                              {"weight", tensor({5}, ACL_BF16)},
                                              {"reduction", integer(0)},
                                              {"totalWeight", tensor({}, ACL_BF16)}});
  expect_data_error("NLLLossBackward", rows, 8500, 5, "target[8500] = 5 is out of range");
  expect_data_error("NLLLossBackward", rows, 3, -2, "target[3] = -2 is out of range");
  const oa::OpDef& plane = def_of("NLLLoss2d");
  const oa::CallSpec pixels = sample(plane, {{"self", tensor({2, 3, 4, 5}, ACL_BF16)},
                                             {"target", tensor({2, 4, 5}, ACL_UINT8)},
                                             {"weight", tensor({3}, ACL_BF16)},
                                             {"reduction", integer(1)}});
  expect_data_error("NLLLoss2d", pixels, 27, 200, "target[1, 1, 2] = 200 is out of range");
  const oa::OpDef& plane_backward = def_of("NLLLoss2dBackward");
  const oa::CallSpec grads = sample(plane_backward, {{"gradOutput", tensor({2, 4, 5})},
                                                     {"self", tensor({2, 3, 4, 5})},
                                                     {"target", tensor({2, 4, 5}, ACL_INT64)},
                                                     {"weight", tensor({3})},
                                                     {"reduction", integer(0)},
                                                     {"totalWeight", tensor({})}});
  expect_data_error("NLLLoss2dBackward", grads, 39, 3, "target[1, 3, 4] = 3 is out of range");
}

// A row-major gradInput over the store rule's 32 MiB, written in one pass of streaming stores: the
// reference's values, and on a bad target nothing written.
TEST(LossNll, BackwardRowsStreamed) {
  const oa::OpDef& def = def_of("NLLLossBackward");
  const int64_t n = 8200;
  const int64_t classes = 1030;  // 33.8 MB of FLOAT gradInput
  const oa::CallSpec spec = sample(def, {{"gradOutput", tensor({n})},
                                         {"self", tensor({n, classes})},
                                         {"target", tensor({n}, ACL_INT64)},
                                         {"weight", tensor({classes})},
                                         {"reduction", integer(0)},
                                         {"ignoreIndex", integer(4)},
                                         {"totalWeight", tensor({})}});
  std::mt19937_64 rng(12);
  const auto r = call_op(def, spec, nll_values(rng, classes, 4));
  EXPECT_EQ(oa::last_chosen_impl(), "rows");
  check_backward(*r, false);
  expect_data_error("NLLLossBackward", spec, 8100, classes, "target[8100] = 1030 is out of range");
}

}  // namespace
}  // namespace loss_test
