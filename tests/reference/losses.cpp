#include "reference/losses.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace oa_ref {
namespace {

// PyTorch's clamp of BinaryCrossEntropy's logs (a NaN stays NaN).
double clamp_log(double v) { return v < -100.0 ? -100.0 : v; }

// The float32 value of 1e-12, BinaryCrossEntropyBackward's floor of x (1 - x).
const double kBceEpsilon = static_cast<double>(1e-12f);

double sigmoid(double x) {
  const double e = std::exp(-std::fabs(x));
  return x >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

double sign(double d) { return d > 0 ? 1.0 : d < 0 ? -1.0 : d; }

Term product(double value) { return {value, std::fabs(value)}; }

// How far sigma moves when its argument z is off by |z| eps: sigma (1 - sigma) |z| (0 for an
// infinite z, where sigma is flat).
double sigmoid_slope(double s, double z) {
  return std::isinf(z) ? 0.0 : s * (1.0 - s) * std::fabs(z);
}

}  // namespace

Term mse_term(double x, double y) { return product((x - y) * (x - y)); }

Term l1_term(double x, double y) { return product(std::fabs(x - y)); }

Term soft_margin_term(double x, double y) {
  const double z = y * x;
  // log(1 + exp(-z)) = max(-z, 0) + log1p(exp(-|z|)); z's rounding moves it by up to |z| eps.
  const double value = std::max(-z, 0.0) + std::log1p(std::exp(-std::fabs(z)));
  return {value, std::fabs(value) + std::fabs(z)};
}

Term bce_term(double x, double y, double w) {
  const double log_x = clamp_log(std::log(x));
  const double log_complement = clamp_log(std::log1p(-x));
  const double value = ((y - 1.0) * log_complement - y * log_x) * w;
  return {value, std::fabs(w) * (std::fabs((y - 1.0) * log_complement) + std::fabs(y * log_x))};
}

Term bce_logits_term(double x, double y, double w, double pos_weight, bool has_pos_weight) {
  // (1 - y) x - (1 + (pw - 1) y) log sigma(x), with log sigma(x) = min(x, 0) - L, as the sum of
  // two terms of one sign (the difference of PyTorch's form cancels in double too).
  const double pw = has_pos_weight ? pos_weight : 1.0;
  const double factor = has_pos_weight ? (pos_weight - 1.0) * y + 1.0 : 1.0;
  const double softplus = std::log1p(std::exp(-std::fabs(x)));
  const double lead = x >= 0 ? (1.0 - y) * x : -(pw * y) * x;
  const double tail = factor * softplus;
  return {(lead + tail) * w, std::fabs(w) * (std::fabs(lead) + std::fabs(tail) +
                                             (std::fabs((pw - 1.0) * y) + 1.0) * softplus)};
}

Term kl_div_term(double x, double y, bool log_target) {
  if (log_target) {
    const double e = std::exp(y);
    return {e * (y - x), e * (std::fabs(y) + std::fabs(x))};
  }
  const double xlogy = y == 0.0 ? 0.0 : y * std::log(y);
  return {xlogy - y * x, std::fabs(xlogy) + std::fabs(y * x)};
}

Term mse_grad(double g, double x, double y, double scale) {
  return product(2.0 * scale * (x - y) * g);
}

Term l1_grad(double g, double x, double y, double scale) {
  return product(sign(x - y) * g * scale);
}

Term soft_margin_grad(double g, double x, double y, double scale) {
  const double z = y * x;
  const double s = sigmoid(-z);
  const double value = -y * s * g * scale;
  return {value, std::fabs(value) + std::fabs(y * g * scale) * sigmoid_slope(s, z)};
}

Term bce_grad(double g, double x, double y, double w, double scale) {
  const double denominator = std::max((1.0 - x) * x, kBceEpsilon);
  return product(g * (x - y) / denominator * w * scale);
}

Term bce_logits_grad(double g, double x, double y, double w, double pos_weight, bool has_pos_weight,
                     double scale) {
  // (pw y + 1 - y) sigma(x) - pw y = (1 - y) sigma(x) - pw y sigma(-x).
  const double pw = has_pos_weight ? pos_weight : 1.0;
  const double s = sigmoid(x);
  const double complement = sigmoid(-x);
  const double factor = g * w * scale;
  const double slope = sigmoid_slope(s, x);
  const double grad = (1.0 - y) * s - pw * y * complement;
  return {grad * factor,
          std::fabs(factor) * (std::fabs((1.0 - y) * s) + std::fabs(pw * y * complement) +
                               (std::fabs(1.0 - y) + std::fabs(pw * y)) * slope)};
}

Term kl_div_grad(double g, double y, bool log_target, double scale) {
  return product(-(log_target ? std::exp(y) : y) * g * scale);
}

std::vector<Term> map_broadcast(const std::vector<const Array*>& inputs,
                                const std::function<Term(const double*)>& f,
                                std::vector<int64_t>* shape) {
  std::vector<std::vector<int64_t>> shapes;
  for (const Array* a : inputs) {
    shapes.push_back(a->shape);
  }
  if (!broadcast_shapes(shapes, shape)) {
    std::abort();  // a test asked for inputs that do not broadcast
  }
  const int64_t count = element_count(*shape);
  std::vector<Term> result;
  std::vector<int64_t> index(shape->size(), 0);
  std::vector<double> x(inputs.size());
  for (int64_t k = 0; k < count; ++k) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Array& a = *inputs[i];
      const size_t lead = shape->size() - a.shape.size();
      int64_t linear = 0;
      for (size_t d = 0; d < a.shape.size(); ++d) {
        linear = linear * a.shape[d] + (a.shape[d] == 1 ? 0 : index[lead + d]);
      }
      x[i] = a.values[static_cast<size_t>(linear)];
    }
    result.push_back(f(x.data()));
    for (size_t d = shape->size(); d-- > 0;) {
      if (++index[d] < (*shape)[d]) {
        break;
      }
      index[d] = 0;
    }
  }
  return result;
}

Term reduce(const std::vector<Term>& terms, double divisor) {
  Term sum;
  for (const Term& t : terms) {
    sum.value += t.value;
    sum.magnitude += t.magnitude;
  }
  return {sum.value / divisor, sum.magnitude / std::fabs(divisor)};
}

namespace {

// The rows of an NLL call: (row count, classes, element of self for (row, class)).
struct Rows {
  int64_t count = 1;
  int64_t classes = 0;
  int64_t plane = 1;  // H * W for two_d

  // self's row-major element of row r, class c.
  int64_t at(int64_t r, int64_t c) const { return (r / plane * classes + c) * plane + r % plane; }
};

Rows rows_of(const Array& self, bool two_d) {
  Rows rows;
  if (two_d) {
    rows.plane = self.shape[2] * self.shape[3];
    rows.count = self.shape[0] * rows.plane;
    rows.classes = self.shape[1];
  } else if (self.shape.size() == 2) {
    rows.count = self.shape[0];
    rows.classes = self.shape[1];
  } else {
    rows.classes = self.shape[0];
  }
  return rows;
}

}  // namespace

NllResult nll_forward(const Array& self, const Array& target, const Array& weight,
                      int64_t reduction, int64_t ignore_index, bool two_d) {
  const Rows rows = rows_of(self, two_d);
  NllResult result;
  double sum = 0;
  double magnitude = 0;
  for (int64_t r = 0; r < rows.count; ++r) {
    const auto t = static_cast<int64_t>(target.values[static_cast<size_t>(r)]);
    Term loss;
    if (t != ignore_index) {
      const double w = weight.values[static_cast<size_t>(t)];
      loss = product(-w * self.values[static_cast<size_t>(rows.at(r, t))]);
      result.total_weight += w;
      sum += loss.value;
      magnitude += loss.magnitude;
    }
    result.per_row.push_back(loss);
  }
  const double divisor = reduction == 1 ? result.total_weight : 1.0;
  result.reduced = {sum / divisor, magnitude / std::fabs(divisor)};
  return result;
}

std::vector<Term> nll_backward(const Array& grad_output, const Array& self, const Array& target,
                               const Array& weight, const Array& total_weight, int64_t reduction,
                               int64_t ignore_index, bool two_d) {
  const Rows rows = rows_of(self, two_d);
  std::vector<Term> result(self.values.size());
  for (int64_t r = 0; r < rows.count; ++r) {
    const auto t = static_cast<int64_t>(target.values[static_cast<size_t>(r)]);
    if (t == ignore_index) {
      continue;
    }
    const double s = reduction == 0   ? grad_output.values[static_cast<size_t>(r)]
                     : reduction == 1 ? grad_output.values[0] / total_weight.values[0]
                                      : grad_output.values[0];
    result[static_cast<size_t>(rows.at(r, t))] =
        product(-weight.values[static_cast<size_t>(t)] * s);
  }
  return result;
}

}  // namespace oa_ref
