// aclnnMseLossOut against the float64 reference: reduction none elementwise, mean and sum over the
// broadcast shape's first dim only (out has the rest of it), on random dtypes, broadcasts and
// views, with an empty first dim (NaN means, zero sums), 0-d inputs (one row) and rows long enough
// for the SIMD blocks.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ops/loss/check.h"

namespace loss_test {
namespace {

using oa::build::integer;
using oa::build::sample;
using oa::build::tensor;

// The expected out: the terms (none) or their sums over the first dim, divided by its size (mean).
std::vector<Term> expected(const Called& r) {
  const Array x = r.input("self");
  const Array y = r.input("target");
  Shape shape;
  const std::vector<Term> terms = oa_ref::map_broadcast(
      {&x, &y}, [](const double* in) { return oa_ref::mse_term(in[0], in[1]); }, &shape);
  const int64_t reduction = r.integer("reduction");
  if (reduction == 0) {
    return terms;
  }
  const int64_t rows = shape.empty() ? 1 : shape[0];
  const int64_t per_row = shape.empty() ? 1 : count_of(Shape(shape.begin() + 1, shape.end()));
  std::vector<Term> out;
  for (int64_t j = 0; j < per_row; ++j) {
    std::vector<Term> column;
    for (int64_t i = 0; i < rows; ++i) {
      column.push_back(terms[static_cast<size_t>(i * per_row + j)]);
    }
    out.push_back(oa_ref::reduce(column, reduction == 1 ? static_cast<double>(rows) : 1.0));
  }
  return out;
}

TEST(LossMseLossOut, RandomAgainstTheReference) {
  const oa::OpDef& def = def_of("MseLossOut");
  std::mt19937_64 rng(401);
  for (int i = 0; i < 600 && !HasFailure(); ++i) {
    const Shape shape = random_shape(rng, 0, 4, 6, true);
    const Shape x = rng() % 2 == 0 ? shape : broadcast_part(rng, shape);
    const Shape y = rng() % 2 == 0 ? shape : broadcast_part(rng, shape);
    oa::CallSpec spec = sample(def, {{"self", tensor(x, random_float_type(rng))},
                                     {"target", tensor(y, random_float_type(rng))},
                                     {"reduction", integer(static_cast<int64_t>(rng() % 3))}});
    spec.args[static_cast<size_t>(def.param_index("out"))].tensor.dtype = random_float_type(rng);
    std::mt19937_64 layouts(rng());
    const auto r = call_op(
        def, spec,
        [&](const std::string&, aclDataType dtype) { return normal_value(rng, dtype, true); },
        i % 2 == 0 ? &layouts : nullptr);
    SCOPED_TRACE("case " + std::to_string(i));
    expect_output(*r, "out", expected(*r));
  }
}

// [2, 3, 2] with mean gives out [3, 2], each the mean of two terms (CANN's test case).
TEST(LossMseLossOut, MeanOverTheFirstDim) {
  const oa::OpDef& def = def_of("MseLossOut");
  const oa::CallSpec spec = sample(def, {{"self", tensor({2, 3, 2}, ACL_FLOAT16)},
                                         {"target", tensor({2, 3, 2}, ACL_FLOAT16)},
                                         {"reduction", integer(1)}});
  EXPECT_EQ(spec.args[3].tensor.shape, (Shape{3, 2}));
  int k = 0;
  const auto r = call_op(def, spec, [&](const std::string& name, aclDataType) {
    return name == "self" ? static_cast<double>(k++ % 12) : 0.0;  // self 0..11, target 0
  });
  ASSERT_EQ(r->status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
  std::vector<double> expected;
  for (int j = 0; j < 6; ++j) {
    expected.push_back((j * j + (j + 6) * (j + 6)) / 2.0);
  }
  EXPECT_EQ(r->tensor("out")->read(), expected);
}

// An empty first dim: the means are NaN and the sums 0 (CANN writes nothing there).
TEST(LossMseLossOut, EmptyFirstDim) {
  const oa::OpDef& def = def_of("MseLossOut");
  for (int64_t reduction : {1, 2}) {
    const oa::CallSpec spec = sample(
        def,
        {{"self", tensor({0, 3})}, {"target", tensor({3})}, {"reduction", integer(reduction)}});
    const auto r = call_op(def, spec, [](const std::string&, aclDataType) { return 1.0; });
    ASSERT_EQ(r->status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (double v : r->tensor("out")->read()) {
      if (reduction == 1) {
        EXPECT_TRUE(std::isnan(v));
      } else {
        EXPECT_EQ(v, 0.0);
      }
    }
  }
}

}  // namespace
}  // namespace loss_test
