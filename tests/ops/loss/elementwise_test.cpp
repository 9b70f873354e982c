// The elementwise losses (MseLoss, L1Loss, SoftMarginLoss, BinaryCrossEntropy with and without
// logits, KlDiv; forward and backward) against the float64 references of reference/losses.h on
// random calls: every dtype and mix the checks admit, broadcasting, random views (strided,
// expanded, offset), every reduction, empty and 0-d tensors, infinities and NaNs among the data.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ops/loss/check.h"

namespace loss_test {
namespace {

using oa::build::flag;
using oa::build::integer;
using oa::build::null;
using oa::build::sample;
using oa::build::tensor;

// How an elementwise loss is checked: its inputs in the formula's order (the optional ones where
// present), its output, and its term.
struct Case {
  const char* op;
  std::vector<std::string> inputs;
  const char* output;
  bool gradient;
  // x: the inputs' values in `inputs` order (absent optional ones 1); scale for a gradient.
  std::function<Term(const double* x, double scale, const Called& r)> term;
  // For a loss: what a reduction divides the sum by (the term count for mean, 1 for sum).
  std::function<double(const Shape& shape, int64_t reduction)> divisor;
};

double mean_divisor(const Shape& shape, int64_t reduction) {
  return reduction == 1 ? static_cast<double>(count_of(shape)) : 1.0;
}

double gradient_scale(const Shape& shape, int64_t reduction) {
  return reduction == 1 ? 1.0 / static_cast<double>(count_of(shape)) : 1.0;
}

// The output expected of a call of c.
std::vector<Term> expected(const Case& c, const Called& r) {
  std::vector<Array> arrays;
  std::vector<const Array*> present;
  std::vector<int> position;  // of each present input in c.inputs
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    if (r.tensor(c.inputs[k]) != nullptr) {
      arrays.push_back(r.input(c.inputs[k]));
      position.push_back(static_cast<int>(k));
    }
  }
  for (const Array& a : arrays) {
    present.push_back(&a);
  }
  std::vector<std::vector<int64_t>> shapes;
  for (const Array* a : present) {
    shapes.push_back(a->shape);
  }
  Shape shape;
  oa_ref::broadcast_shapes(shapes, &shape);
  const int64_t reduction = r.integer("reduction");
  const double scale = c.gradient ? gradient_scale(shape, reduction) : 1.0;
  const auto f = [&](const double* in) {
    std::vector<double> x(c.inputs.size(), 1.0);
    for (size_t k = 0; k < position.size(); ++k) {
      x[static_cast<size_t>(position[k])] = in[k];
    }
    return c.term(x.data(), scale, r);
  };
  std::vector<Term> terms = oa_ref::map_broadcast(present, f, &shape);
  if (c.gradient || reduction == 0) {
    return terms;
  }
  return {oa_ref::reduce(terms, c.divisor(shape, reduction))};
}

void check(const Case& c, const Called& r) { expect_output(r, c.output, expected(c, r)); }

// Two shapes that broadcast to a random one (either may be it, or a part of it).
std::pair<Shape, Shape> two_shapes(std::mt19937_64& rng, bool empty) {
  const Shape shape = random_shape(rng, 0, 4, 6, empty);
  return {rng() % 2 == 0 ? shape : broadcast_part(rng, shape),
          rng() % 2 == 0 ? shape : broadcast_part(rng, shape)};
}

// Runs `count` random calls of c, each spec from make(rng), inputs from value(name, dtype).
void run_random(const Case& c, int count, uint64_t seed,
                const std::function<oa::CallSpec(const oa::OpDef&, std::mt19937_64&)>& make,
                const std::function<double(std::mt19937_64&, const std::string&, aclDataType,
                                           const oa::CallSpec&)>& value) {
  const oa::OpDef& def = def_of(c.op);
  std::mt19937_64 rng(seed);
  for (int i = 0; i < count && !::testing::Test::HasFailure(); ++i) {
    const oa::CallSpec spec = make(def, rng);
    std::mt19937_64 layouts(rng());
    const auto r = call_op(
        def, spec,
        [&](const std::string& name, aclDataType dtype) { return value(rng, name, dtype, spec); },
        i % 2 == 0 ? &layouts : nullptr);
    SCOPED_TRACE("case " + std::to_string(i) + " of seed " + std::to_string(seed));
    check(c, *r);
  }
}

oa::CallSpec with_dtype(const oa::OpDef& def, oa::CallSpec spec, const char* name,
                        aclDataType dtype) {
  spec.args[static_cast<size_t>(def.param_index(name))].tensor.dtype = dtype;
  return spec;
}

double normals(std::mt19937_64& rng, const std::string&, aclDataType dtype, const oa::CallSpec&) {
  return normal_value(rng, dtype, true);
}

// A forward loss of self and target: random dtypes (each its own), shapes, reductions.
oa::CallSpec forward_spec(const oa::OpDef& def, std::mt19937_64& rng,
                          const std::vector<int64_t>& reductions) {
  const auto [x, y] = two_shapes(rng, true);
  const int64_t reduction = reductions[rng() % reductions.size()];
  oa::CallSpec spec = sample(def, {{"self", tensor(x, random_float_type(rng))},
                                   {"target", tensor(y, random_float_type(rng))},
                                   {"reduction", integer(reduction)}});
  return with_dtype(def, spec, "out", random_float_type(rng));
}

// A gradient of gradOutput, self and target (one dtype for all where `same`).
oa::CallSpec backward_spec(const oa::OpDef& def, std::mt19937_64& rng, bool same,
                           const char* output) {
  const auto [x, y] = two_shapes(rng, true);
  Shape shape;
  oa_ref::broadcast_shapes({x, y}, &shape);
  const int64_t reduction = static_cast<int64_t>(rng() % 3);
  const Shape g = reduction == 0 ? broadcast_part(rng, shape) : Shape{};
  const aclDataType dtype = random_float_type(rng);
  const auto pick = [&] { return same ? dtype : random_float_type(rng); };
  oa::CallSpec spec = sample(def, {{"gradOutput", tensor(g, pick())},
                                   {"self", tensor(x, pick())},
                                   {"target", tensor(y, pick())},
                                   {"reduction", integer(reduction)}});
  return with_dtype(def, spec, output, random_float_type(rng));
}

TEST(LossElementwise, MseLoss) {
  const Case c{"MseLoss",
               {"self", "target"},
               "out",
               false,
               [](const double* x, double, const Called&) { return oa_ref::mse_term(x[0], x[1]); },
               mean_divisor};
  run_random(
      c, 1000, 101,
      [](const oa::OpDef& d, std::mt19937_64& rng) {
        return forward_spec(d, rng, {0, 1, 2});
      },
      normals);
}

TEST(LossElementwise, MseLossBackward) {
  const Case c{"MseLossBackward",
               {"gradOutput", "self", "target"},
               "out",
               true,
               [](const double* x, double scale, const Called&) {
                 return oa_ref::mse_grad(x[0], x[1], x[2], scale);
               },
               nullptr};
  run_random(
      c, 1000, 102,
      [](const oa::OpDef& d, std::mt19937_64& rng) { return backward_spec(d, rng, true, "out"); },
      normals);
}

TEST(LossElementwise, L1Loss) {
  const Case c{"L1Loss",
               {"self", "target"},
               "out",
               false,
               [](const double* x, double, const Called&) { return oa_ref::l1_term(x[0], x[1]); },
               mean_divisor};
  run_random(
      c, 1000, 103,
      [](const oa::OpDef& d, std::mt19937_64& rng) {
        return forward_spec(d, rng, {0, 1, 2});
      },
      normals);
}

TEST(LossElementwise, L1LossBackward) {
  const Case c{"L1LossBackward",
               {"gradOutput", "self", "target"},
               "gradInput",
               true,
               [](const double* x, double scale, const Called&) {
                 return oa_ref::l1_grad(x[0], x[1], x[2], scale);
               },
               nullptr};
  run_random(
      c, 1000, 104,
      [](const oa::OpDef& d, std::mt19937_64& rng) {
        return backward_spec(d, rng, false, "gradInput");
      },
      normals);
}

// Targets of +-1 mostly (the loss's use), other values now and then.
double margin_values(std::mt19937_64& rng, const std::string& name, aclDataType dtype,
                     const oa::CallSpec&) {
  if (name == "target" && rng() % 4 != 0) {
    return rng() % 2 == 0 ? 1.0 : -1.0;
  }
  return normal_value(rng, dtype, true);
}

TEST(LossElementwise, SoftMarginLoss) {
  const Case c{
      "SoftMarginLoss",
      {"self", "target"},
      "out",
      false,
      [](const double* x, double, const Called&) { return oa_ref::soft_margin_term(x[0], x[1]); },
      mean_divisor};
  run_random(
      c, 1000, 105,
      [](const oa::OpDef& d, std::mt19937_64& rng) {
        return forward_spec(d, rng, {0, 1, 2, 3, -4});
      },
      margin_values);
}

TEST(LossElementwise, SoftMarginLossBackward) {
  const Case c{"SoftMarginLossBackward",
               {"gradOutput", "self", "target"},
               "out",
               true,
               [](const double* x, double scale, const Called&) {
                 return oa_ref::soft_margin_grad(x[0], x[1], x[2], scale);
               },
               nullptr};
  run_random(
      c, 1000, 106,
      [](const oa::OpDef& d, std::mt19937_64& rng) { return backward_spec(d, rng, false, "out"); },
      margin_values);
}

// Probabilities for self and target, normals for the rest.
double bce_values(std::mt19937_64& rng, const std::string& name, aclDataType dtype,
                  const oa::CallSpec&) {
  if (name == "self" || name == "target") {
    return probability(rng, dtype);
  }
  return normal_value(rng, dtype, true);
}

TEST(LossElementwise, BinaryCrossEntropy) {
  const Case c{
      "BinaryCrossEntropy",
      {"self", "target", "weight"},
      "out",
      false,
      [](const double* x, double, const Called&) { return oa_ref::bce_term(x[0], x[1], x[2]); },
      mean_divisor};
  run_random(
      c, 1000, 107,
      [](const oa::OpDef& d, std::mt19937_64& rng) {
        const Shape shape = random_shape(rng, 0, 4, 6, true);
        const int64_t reduction = static_cast<int64_t>(rng() % 3);
        if (rng() % 2 == 0) {  // with a weight, one dtype for all
          const aclDataType dtype = random_float_type(rng);
          return sample(d, {{"self", tensor(shape, dtype)},
                            {"target", tensor(shape, dtype)},
                            {"weight", tensor(broadcast_part(rng, shape), dtype)},
                            {"reduction", integer(reduction)}});
        }
        oa::CallSpec spec = sample(d, {{"self", tensor(shape, random_float_type(rng))},
                                       {"target", tensor(shape, random_float_type(rng))},
                                       {"reduction", integer(reduction)}});
        return with_dtype(d, spec, "out", random_float_type(rng));
      },
      bce_values);
}

TEST(LossElementwise, BinaryCrossEntropyBackward) {
  const Case c{"BinaryCrossEntropyBackward",
               {"gradOutput", "self", "target", "weightOptional"},
               "out",
               true,
               [](const double* x, double scale, const Called&) {
                 return oa_ref::bce_grad(x[0], x[1], x[2], x[3], scale);
               },
               nullptr};
  run_random(
      c, 1000, 108,
      [](const oa::OpDef& d, std::mt19937_64& rng) {
        const Shape shape = random_shape(rng, 0, 4, 6, true);
        const int64_t reduction = static_cast<int64_t>(rng() % 3);
        oa::CallSpec spec = sample(
            d,
            {{"gradOutput", tensor(reduction == 0 ? broadcast_part(rng, shape) : Shape{},
                                   random_float_type(rng))},
             {"self", tensor(shape, random_float_type(rng))},
             {"target", tensor(broadcast_part(rng, shape), random_float_type(rng))},
             {"weightOptional",
              rng() % 2 == 0 ? null() : tensor(broadcast_part(rng, shape), random_float_type(rng))},
             {"reduction", integer(reduction)}});
        return with_dtype(d, spec, "out", random_float_type(rng));
      },
      bce_values);
}

// Logits of both signs, some far out; targets in [0, 1]; weights and posWeights normals.
double logits_values(std::mt19937_64& rng, const std::string& name, aclDataType dtype,
                     const oa::CallSpec&) {
  if (name == "target") {
    return probability(rng, dtype);
  }
  if (name == "self" && rng() % 8 == 0) {
    return oa_test::round_to(dtype, std::uniform_real_distribution<double>(-60, 60)(rng));
  }
  return normal_value(rng, dtype, true);
}

TEST(LossElementwise, BinaryCrossEntropyWithLogits) {
  const Case c{"BinaryCrossEntropyWithLogits",
               {"self", "target", "weightOptional", "posWeightOptional"},
               "out",
               false,
               [](const double* x, double, const Called& r) {
                 return oa_ref::bce_logits_term(x[0], x[1], x[2], x[3],
                                                r.tensor("posWeightOptional") != nullptr);
               },
               mean_divisor};
  run_random(
      c, 1000, 109,
      [](const oa::OpDef& d, std::mt19937_64& rng) {
        const Shape shape = random_shape(rng, 0, 4, 6, true);
        const aclDataType target = random_float_type(rng);
        const auto optional = [&] {
          return rng() % 2 == 0 ? null()
                                : tensor(broadcast_part(rng, shape), random_float_type(rng));
        };
        return sample(d, {{"self", tensor(shape, random_float_type(rng))},
                          {"target", tensor(shape, target)},
                          {"weightOptional", optional()},
                          {"posWeightOptional", optional()},
                          {"reduction", integer(static_cast<int64_t>(rng() % 3))}});
      },
      logits_values);
}

TEST(LossElementwise, BinaryCrossEntropyWithLogitsBackward) {
  const Case c{"BinaryCrossEntropyWithLogitsBackward",
               {"gradOutput", "self", "target", "weightOptional", "posWeightOptional"},
               "out",
               true,
               [](const double* x, double scale, const Called& r) {
                 return oa_ref::bce_logits_grad(x[0], x[1], x[2], x[3], x[4],
                                                r.tensor("posWeightOptional") != nullptr, scale);
               },
               nullptr};
  run_random(
      c, 1000, 110,
      [](const oa::OpDef& d, std::mt19937_64& rng) {
        const Shape shape = random_shape(rng, 0, 4, 6, true);
        const int64_t reduction = static_cast<int64_t>(rng() % 3);
        const auto optional = [&] {
          return rng() % 2 == 0 ? null()
                                : tensor(broadcast_part(rng, shape), random_float_type(rng));
        };
        return sample(d,
                      {{"gradOutput", tensor(reduction == 0 ? broadcast_part(rng, shape) : Shape{},
                                             random_float_type(rng))},
                       {"self", tensor(shape, random_float_type(rng))},
                       {"target", tensor(shape, random_float_type(rng))},
                       {"weightOptional", optional()},
                       {"posWeightOptional", optional()},
                       {"reduction", integer(reduction)}});
      },
      logits_values);
}

// Targets: probabilities (zeros among them, a negative now and then) unless logTarget.
double kl_values(std::mt19937_64& rng, const std::string& name, aclDataType dtype,
                 const oa::CallSpec& spec) {
  const oa::OpDef& def = def_of(spec.args.size() == 5 ? "KlDiv" : "KlDivBackward");
  const bool log_target = spec.args[static_cast<size_t>(def.param_index("logTarget"))].integer;
  if (name == "target" && !log_target && rng() % 10 != 0) {
    return probability(rng, dtype);
  }
  return normal_value(rng, dtype, true);
}

TEST(LossElementwise, KlDiv) {
  const Case c{"KlDiv",
               {"self", "target"},
               "out",
               false,
               [](const double* x, double, const Called& r) {
                 return oa_ref::kl_div_term(x[0], x[1], r.integer("logTarget") != 0);
               },
               [](const Shape& shape, int64_t reduction) {
                 if (reduction == 3) {
                   return shape.empty() ? 1.0 : static_cast<double>(shape[0]);
                 }
                 return mean_divisor(shape, reduction);
               }};
  run_random(
      c, 1000, 111,
      [](const oa::OpDef& d, std::mt19937_64& rng) {
        oa::CallSpec spec = forward_spec(d, rng, {0, 1, 2, 3});
        spec.args[static_cast<size_t>(d.param_index("logTarget"))] = flag(rng() % 2 == 0);
        return spec;
      },
      kl_values);
}

// The gradient of KlDiv with respect to self: per element of the broadcast of self and target,
// summed over the dims self is broadcast along.
std::vector<Term> kl_div_backward_expected(const Called& r) {
  const Array g = r.input("gradOutput");
  const Array x = r.input("self");
  const Array y = r.input("target");
  Shape shape;
  oa_ref::broadcast_shapes({x.shape, y.shape}, &shape);
  const int64_t reduction = r.integer("reduction");
  double scale = 1.0;
  if (reduction == 1) {
    scale = 1.0 / static_cast<double>(count_of(shape));
  } else if (reduction == 3 && !shape.empty()) {
    scale = 1.0 / static_cast<double>(shape[0]);
  }
  const bool log_target = r.integer("logTarget") != 0;
  // The term of each broadcast element, with self's index alongside (self's values are unused).
  Array self_index{x.shape, {}};
  for (int64_t k = 0; k < count_of(x.shape); ++k) {
    self_index.values.push_back(static_cast<double>(k));
  }
  std::vector<Term> sums(static_cast<size_t>(count_of(x.shape)));
  Shape full;
  oa_ref::map_broadcast(
      {&g, &self_index, &y},
      [&](const double* in) {
        Term t = oa_ref::kl_div_grad(in[0], in[2], log_target, scale);
        Term& sum = sums[static_cast<size_t>(in[1])];
        sum.value += t.value;
        sum.magnitude += t.magnitude;
        return t;
      },
      &full);
  return sums;
}

TEST(LossElementwise, KlDivBackward) {
  const oa::OpDef& def = def_of("KlDivBackward");
  std::mt19937_64 rng(112);
  for (int i = 0; i < 1000 && !HasFailure(); ++i) {
    const auto [x, y] = two_shapes(rng, true);
    Shape shape;
    oa_ref::broadcast_shapes({x, y}, &shape);
    const int64_t reductions[] = {0, 1, 2, 3, 6};
    const int64_t reduction = reductions[rng() % 5];
    oa::CallSpec spec = sample(
        def, {{"gradOutput",
               tensor(reduction == 0 || reduction == 6 ? broadcast_part(rng, shape) : Shape{},
                      random_float_type(rng))},
              {"self", tensor(x, random_float_type(rng))},
              {"target", tensor(y, random_float_type(rng))},
              {"reduction", integer(reduction)},
              {"logTarget", flag(rng() % 2 == 0)}});
    spec = with_dtype(def, spec, "out", random_float_type(rng));
    std::mt19937_64 layouts(rng());
    const auto r = call_op(
        def, spec,
        [&](const std::string& name, aclDataType dtype) {
          return kl_values(rng, name, dtype, spec);
        },
        i % 2 == 0 ? &layouts : nullptr);
    SCOPED_TRACE("case " + std::to_string(i));
    expect_output(*r, "out", kl_div_backward_expected(*r));
  }
}

}  // namespace
}  // namespace loss_test
