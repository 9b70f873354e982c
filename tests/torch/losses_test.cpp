// The loss family against PyTorch's CPU kernels (ATen's loss functions and their backward
// functions; autograd where ATen 1.13 has no explicit backward), on random shapes, FLOAT and
// BF16 (PyTorch computing in float32 on the BF16 values: its own BF16 kernels round after each
// operation, and some have none), every reduction. self is given at the full shape (PyTorch's
// losses shape their results like self), and the data stays where PyTorch's forms are exact enough
// to compare with: margins of the soft margin loss below 20 (PyTorch's gradient is NaN where exp(-y
// x) overflows), probabilities inside (0, 1) for BinaryCrossEntropy (PyTorch rejects others). Where
// openaclnn's form differs (BinaryCrossEntropyWithLogits keeps what PyTorch's cancels) the two
// agree within the absolute tolerance.
#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/op/build.h"
#include "core/op/definition.h"
#include "support/call.h"

namespace {

using oa::build::flag;
using oa::build::integer;
using oa::build::sample;
using oa::build::tensor;

const oa::OpDef& def_of(const char* name) { return *oa::find_definition(name); }

std::vector<double> values_of(const at::Tensor& t) {
  const at::Tensor c = t.to(at::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

aclDataType acl_type(at::ScalarType type) { return type == at::kBFloat16 ? ACL_BF16 : ACL_FLOAT; }

// Runs `op` with the tensors given by name (the rest inferred by the definition) and returns the
// output `output`.
std::vector<double> ours(const char* op, const std::vector<std::pair<std::string, at::Tensor>>& in,
                         const std::vector<std::pair<std::string, int64_t>>& attributes,
                         const char* output) {
  const oa::OpDef& def = def_of(op);
  std::vector<std::pair<std::string, oa::ArgSpec>> given;
  for (const auto& [name, t] : in) {
    const aclDataType dtype = t.scalar_type() == at::kLong ? ACL_INT64 : acl_type(t.scalar_type());
    given.emplace_back(name, tensor(t.sizes().vec(), dtype));
  }
  for (const auto& [name, value] : attributes) {
    given.emplace_back(
        name, def.params[static_cast<size_t>(def.param_index(name))].kind == oa::ParamKind::flag
                  ? flag(value != 0)
                  : integer(value));
  }
  oa_test::TestCall call(def, sample(def, given));
  for (const auto& [name, t] : in) {
    call.tensor(name)->write(values_of(t));
  }
  EXPECT_EQ(call.run(), ACLNN_SUCCESS) << op << ": " << aclGetRecentErrMsg();
  return call.tensor(output)->read();
}

// Within rtol of PyTorch's value plus atol; NaN where PyTorch has NaN.
void expect_near(const std::vector<double>& got, const at::Tensor& expected, double rtol,
                 double atol, const std::string& what) {
  const std::vector<double> want = values_of(expected);
  ASSERT_EQ(got.size(), want.size()) << what;
  int reported = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const bool ok = std::isnan(want[i])
                        ? std::isnan(got[i])
                        : std::fabs(got[i] - want[i]) <= atol + rtol * std::fabs(want[i]);
    if (!ok && reported++ < 5) {
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", PyTorch " << want[i];
    }
  }
}

std::vector<int64_t> random_shape(std::mt19937& rng) {
  const int rank = 1 + static_cast<int>(rng() % 3);
  std::vector<int64_t> shape;
  for (int d = 0; d < rank; ++d) {
    shape.push_back(1 + static_cast<int64_t>(rng() % (d == rank - 1 ? 70 : 6)));
  }
  return shape;
}

at::Tensor uniform(std::mt19937& rng, const std::vector<int64_t>& shape, double low, double high,
                   at::ScalarType type) {
  at::Tensor t = at::empty(shape, at::kDouble);
  std::uniform_real_distribution<double> draw(low, high);
  double* data = t.data_ptr<double>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    data[i] = draw(rng);
  }
  return t.to(type);
}

at::Tensor signs(std::mt19937& rng, const std::vector<int64_t>& shape, at::ScalarType type) {
  return uniform(rng, shape, -1, 1, at::kDouble).sign().to(type);
}

// Tolerances: elementwise within a few roundings of the output's dtype, sums within 1e-5 (float)
// relative, plus an absolute slack for values near 0 (the logits loss's covers PyTorch's
// cancellation of terms up to 24).
double rtol_of(at::ScalarType type, int64_t reduction) {
  if (type == at::kBFloat16) {
    return 3 * std::ldexp(1.0, -8);
  }
  return reduction == 0 ? 8 * std::ldexp(1.0, -24) : 1e-5;
}
double atol_of(at::ScalarType type) { return type == at::kBFloat16 ? 1e-3 : 1e-6; }

// PyTorch's operand: float32 (the value of a BF16 input).
at::Tensor f32(const at::Tensor& t) { return t.to(at::kFloat); }

// The gradient PyTorch's autograd gives of loss(self) with respect to self.
at::Tensor autograd(const at::Tensor& self, const at::Tensor& grad,
                    const std::function<at::Tensor(const at::Tensor&)>& loss) {
  at::Tensor x = self.detach().clone().requires_grad_(true);
  loss(x).backward(grad);
  return x.grad();
}

struct Case {
  at::ScalarType type;
  int64_t reduction;
  std::vector<int64_t> shape;
  std::string what;
};

void for_cases(uint64_t seed, int count, const std::function<void(std::mt19937&, const Case&)>& f) {
  std::mt19937 rng(static_cast<std::mt19937::result_type>(seed));
  for (int i = 0; i < count && !::testing::Test::HasFailure(); ++i) {
    const at::ScalarType type = i % 4 == 3 ? at::kBFloat16 : at::kFloat;
    const int64_t reduction = i % 3;
    const std::vector<int64_t> shape = random_shape(rng);
    f(rng, {type, reduction, shape,
            "case " + std::to_string(i) + (type == at::kBFloat16 ? " bf16" : " float") +
                " reduction " + std::to_string(reduction)});
  }
}

at::Tensor grad_for(std::mt19937& rng, const Case& c) {
  return uniform(rng, c.reduction == 0 ? c.shape : std::vector<int64_t>{}, -2, 2, c.type);
}

TEST(LossesTorch, MseLoss) {
  for_cases(6001, 120, [](std::mt19937& rng, const Case& c) {
    const at::Tensor x = uniform(rng, c.shape, -3, 3, c.type);
    const at::Tensor y = uniform(rng, c.shape, -3, 3, c.type);
    const at::Tensor g = grad_for(rng, c);
    expect_near(ours("MseLoss", {{"self", x}, {"target", y}}, {{"reduction", c.reduction}}, "out"),
                at::mse_loss(f32(x), f32(y), c.reduction), rtol_of(c.type, c.reduction),
                atol_of(c.type), "MseLoss " + c.what);
    expect_near(ours("MseLossBackward", {{"gradOutput", g}, {"self", x}, {"target", y}},
                     {{"reduction", c.reduction}}, "out"),
                at::mse_loss_backward(f32(g), f32(x), f32(y), c.reduction), rtol_of(c.type, 0),
                atol_of(c.type), "MseLossBackward " + c.what);
  });
}

TEST(LossesTorch, L1Loss) {
  for_cases(6002, 120, [](std::mt19937& rng, const Case& c) {
    const at::Tensor x = uniform(rng, c.shape, -3, 3, c.type);
    const at::Tensor y = uniform(rng, c.shape, -3, 3, c.type);
    const at::Tensor g = grad_for(rng, c);
    expect_near(ours("L1Loss", {{"self", x}, {"target", y}}, {{"reduction", c.reduction}}, "out"),
                at::l1_loss(f32(x), f32(y), c.reduction), rtol_of(c.type, c.reduction),
                atol_of(c.type), "L1Loss " + c.what);
    const at::Tensor expected = autograd(
        f32(x), f32(g), [&](const at::Tensor& v) { return at::l1_loss(v, f32(y), c.reduction); });
    expect_near(ours("L1LossBackward", {{"gradOutput", g}, {"self", x}, {"target", y}},
                     {{"reduction", c.reduction}}, "gradInput"),
                expected, rtol_of(c.type, 0), atol_of(c.type), "L1LossBackward " + c.what);
  });
}

TEST(LossesTorch, SoftMarginLoss) {
  for_cases(6003, 120, [](std::mt19937& rng, const Case& c) {
    const at::Tensor x = uniform(rng, c.shape, -8, 8, c.type);
    const at::Tensor y = signs(rng, c.shape, c.type);
    const at::Tensor g = grad_for(rng, c);
    expect_near(
        ours("SoftMarginLoss", {{"self", x}, {"target", y}}, {{"reduction", c.reduction}}, "out"),
        at::soft_margin_loss(f32(x), f32(y), c.reduction), rtol_of(c.type, c.reduction),
        atol_of(c.type), "SoftMarginLoss " + c.what);
    expect_near(ours("SoftMarginLossBackward", {{"gradOutput", g}, {"self", x}, {"target", y}},
                     {{"reduction", c.reduction}}, "out"),
                at::soft_margin_loss_backward(f32(g), f32(x), f32(y), c.reduction),
                rtol_of(c.type, 0), atol_of(c.type), "SoftMarginLossBackward " + c.what);
  });
}

TEST(LossesTorch, BinaryCrossEntropy) {
  for_cases(6004, 120, [](std::mt19937& rng, const Case& c) {
    const at::Tensor x = uniform(rng, c.shape, 0.01, 0.99, c.type);
    const at::Tensor y = uniform(rng, c.shape, 0, 1, c.type);
    const at::Tensor w = uniform(rng, {c.shape.back()}, 0, 2, c.type);
    const at::Tensor g = grad_for(rng, c);
    expect_near(ours("BinaryCrossEntropy", {{"self", x}, {"target", y}, {"weight", w}},
                     {{"reduction", c.reduction}}, "out"),
                at::binary_cross_entropy(f32(x), f32(y), f32(w).expand(x.sizes()), c.reduction),
                rtol_of(c.type, c.reduction), atol_of(c.type), "BinaryCrossEntropy " + c.what);
    expect_near(ours("BinaryCrossEntropyBackward",
                     {{"gradOutput", g}, {"self", x}, {"target", y}, {"weightOptional", w}},
                     {{"reduction", c.reduction}}, "out"),
                at::binary_cross_entropy_backward(f32(g), f32(x), f32(y), f32(w).expand(x.sizes()),
                                                  c.reduction),
                rtol_of(c.type, 0), atol_of(c.type), "BinaryCrossEntropyBackward " + c.what);
  });
}

TEST(LossesTorch, BinaryCrossEntropyWithLogits) {
  for_cases(6005, 120, [](std::mt19937& rng, const Case& c) {
    const at::Tensor x = uniform(rng, c.shape, -12, 12, c.type);
    const at::Tensor y = uniform(rng, c.shape, 0, 1, c.type);
    const at::Tensor w = uniform(rng, {c.shape.back()}, 0, 2, c.type);
    const at::Tensor pw = uniform(rng, {c.shape.back()}, 0.5, 3, c.type);
    const at::Tensor g = grad_for(rng, c);
    const auto loss = [&](const at::Tensor& v) {
      return at::binary_cross_entropy_with_logits(v, f32(y), f32(w), f32(pw), c.reduction);
    };
    expect_near(ours("BinaryCrossEntropyWithLogits",
                     {{"self", x}, {"target", y}, {"weightOptional", w}, {"posWeightOptional", pw}},
                     {{"reduction", c.reduction}}, "out"),
                loss(f32(x)), rtol_of(c.type, c.reduction), 1e-4,
                "BinaryCrossEntropyWithLogits " + c.what);
    expect_near(ours("BinaryCrossEntropyWithLogitsBackward",
                     {{"gradOutput", g},
                      {"self", x},
                      {"target", y},
                      {"weightOptional", w},
                      {"posWeightOptional", pw}},
                     {{"reduction", c.reduction}}, "out"),
                autograd(f32(x), f32(g), loss), rtol_of(c.type, 0), atol_of(c.type),
                "BinaryCrossEntropyWithLogitsBackward " + c.what);
  });
}

TEST(LossesTorch, KlDiv) {
  for_cases(6006, 160, [](std::mt19937& rng, const Case& c) {
    const bool log_target = rng() % 2 == 0;
    const at::Tensor x = uniform(rng, c.shape, -4, 0, c.type);
    const at::Tensor y =
        log_target ? uniform(rng, c.shape, -4, 0, c.type) : uniform(rng, c.shape, 0, 1, c.type);
    const at::Tensor g = grad_for(rng, c);
    const auto loss = [&](const at::Tensor& v) {
      return at::kl_div(v, f32(y), c.reduction, log_target);
    };
    const std::vector<std::pair<std::string, int64_t>> attributes = {{"reduction", c.reduction},
                                                                     {"logTarget", log_target}};
    expect_near(ours("KlDiv", {{"self", x}, {"target", y}}, attributes, "out"), loss(f32(x)),
                rtol_of(c.type, c.reduction), atol_of(c.type), "KlDiv " + c.what);
    expect_near(
        ours("KlDivBackward", {{"gradOutput", g}, {"self", x}, {"target", y}}, attributes, "out"),
        autograd(f32(x), f32(g), loss), rtol_of(c.type, 0), atol_of(c.type),
        "KlDivBackward " + c.what);
  });
}

// batchmean: PyTorch's Python layer divides the sum by self.size(0).
TEST(LossesTorch, KlDivBatchmean) {
  std::mt19937 rng(6007);
  const at::Tensor x = uniform(rng, {5, 41}, -4, 0, at::kFloat);
  const at::Tensor y = uniform(rng, {5, 41}, 0, 1, at::kFloat);
  expect_near(ours("KlDiv", {{"self", x}, {"target", y}}, {{"reduction", 3}}, "out"),
              at::kl_div(x, y, 2, false) / 5, 1e-5, 1e-6, "KlDiv batchmean");
}

TEST(LossesTorch, NLLLoss) {
  std::mt19937 rng(6008);
  for (int i = 0; i < 120 && !HasFailure(); ++i) {
    const int64_t reduction = i % 3;
    const at::ScalarType type = i % 4 == 3 ? at::kBFloat16 : at::kFloat;
    const int64_t n = static_cast<int64_t>(rng() % 40);
    const int64_t classes = 1 + static_cast<int64_t>(rng() % 50);
    const int64_t ignore = i % 2 == 0 ? -100 : static_cast<int64_t>(rng() % classes);
    const at::Tensor x = uniform(rng, {n, classes}, -5, 0, type);
    const at::Tensor t = at::randint(classes, {n}, at::kLong);
    const at::Tensor w = uniform(rng, {classes}, 0, 2, type);
    const auto [loss, total] = at::nll_loss_forward(f32(x), t, f32(w), reduction, ignore);
    const std::vector<std::pair<std::string, at::Tensor>> in = {
        {"self", x}, {"target", t}, {"weight", w}};
    const std::vector<std::pair<std::string, int64_t>> attributes = {{"reduction", reduction},
                                                                     {"ignoreIndex", ignore}};
    const std::string what = "case " + std::to_string(i);
    expect_near(ours("NLLLoss", in, attributes, "out"), loss, rtol_of(type, reduction),
                atol_of(type), "NLLLoss " + what);
    if (reduction != 0) {
      expect_near(ours("NLLLoss", in, attributes, "totalWeightOut"), total, rtol_of(type, 1),
                  atol_of(type), "NLLLoss total weight " + what);
    }
    const at::Tensor g = uniform(
        rng, reduction == 0 ? std::vector<int64_t>{n} : std::vector<int64_t>{}, -2, 2, type);
    const at::Tensor tw = at::full({}, 3.5, type);
    expect_near(
        ours("NLLLossBackward",
             {{"gradOutput", g}, {"self", x}, {"target", t}, {"weight", w}, {"totalWeight", tw}},
             attributes, "out"),
        at::nll_loss_backward(f32(g), f32(x), t, f32(w), reduction, ignore, f32(tw)),
        rtol_of(type, 0), atol_of(type), "NLLLossBackward " + what);
  }
}

TEST(LossesTorch, NLLLoss2d) {
  std::mt19937 rng(6009);
  for (int i = 0; i < 60 && !HasFailure(); ++i) {
    const int64_t reduction = i % 3;
    const std::vector<int64_t> shape = {
        1 + static_cast<int64_t>(rng() % 3), 1 + static_cast<int64_t>(rng() % 6),
        1 + static_cast<int64_t>(rng() % 5), 1 + static_cast<int64_t>(rng() % 40)};
    const at::Tensor x = uniform(rng, shape, -5, 0, at::kFloat);
    const at::Tensor t = at::randint(shape[1], {shape[0], shape[2], shape[3]}, at::kLong);
    const at::Tensor w = uniform(rng, {shape[1]}, 0, 2, at::kFloat);
    const int64_t ignore = i % 2 == 0 ? -100 : 0;
    const auto [loss, total] = at::nll_loss2d_forward(x, t, w, reduction, ignore);
    const std::vector<std::pair<std::string, int64_t>> attributes = {{"reduction", reduction},
                                                                     {"ignoreIndex", ignore}};
    const std::string what = "case " + std::to_string(i);
    expect_near(ours("NLLLoss2d", {{"self", x}, {"target", t}, {"weight", w}}, attributes, "out"),
                loss, rtol_of(at::kFloat, reduction), atol_of(at::kFloat), "NLLLoss2d " + what);
    const at::Tensor g =
        uniform(rng, reduction == 0 ? t.sizes().vec() : std::vector<int64_t>{}, -2, 2, at::kFloat);
    expect_near(
        ours("NLLLoss2dBackward",
             {{"gradOutput", g}, {"self", x}, {"target", t}, {"weight", w}, {"totalWeight", total}},
             attributes, "out"),
        at::nll_loss2d_backward(g, x, t, w, reduction, ignore, total), rtol_of(at::kFloat, 0),
        atol_of(at::kFloat), "NLLLoss2dBackward " + what);
  }
}

}  // namespace
