// Independent float64 references for the loss family (MseLoss, L1Loss, SoftMarginLoss,
// BinaryCrossEntropy with and without logits, KlDiv, NLLLoss; forward and backward), written from
// the formulas alone: they share no code with the library. Each elementwise formula returns its
// value and a magnitude, the size of the terms it is made of (|value| for a product, the sum of
// the terms' sizes for a sum or difference): a float32 evaluation is within a few units of
// 2^-24 of that magnitude, which the tests' tolerances use.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "reference/smooth_l1_loss.h"  // broadcast_shapes, element_count

namespace oa_ref {

struct Term {
  double value = 0;
  double magnitude = 0;
};

// Forward terms.
Term mse_term(double x, double y);            // (x - y)^2
Term l1_term(double x, double y);             // |x - y|
Term soft_margin_term(double x, double y);    // log(1 + exp(-y x))
Term bce_term(double x, double y, double w);  // -w (y log x + (1 - y) log(1 - x)), logs >= -100
Term bce_logits_term(double x, double y, double w, double pos_weight, bool has_pos_weight);
Term kl_div_term(double x, double y, bool log_target);  // y (log y - x), 0 at y = 0; or e^y (y - x)

// Gradients with respect to self; scale is 1 / (the mean's count), or 1.
Term mse_grad(double g, double x, double y, double scale);  // 2 (x - y) g scale
Term l1_grad(double g, double x, double y, double scale);   // sign(x - y) g scale, sign(0) = 0
Term soft_margin_grad(double g, double x, double y, double scale);
Term bce_grad(double g, double x, double y, double w, double scale);
Term bce_logits_grad(double g, double x, double y, double w, double pos_weight, bool has_pos_weight,
                     double scale);
Term kl_div_grad(double g, double y, bool log_target, double scale);

// An input held as the tests read it back: its shape and its values in row-major order.
struct Array {
  std::vector<int64_t> shape;
  std::vector<double> values;
};

// f over every element of the broadcast of `inputs` (row-major), each input's element found by
// broadcasting (a missing or size-1 dim repeats).
std::vector<Term> map_broadcast(const std::vector<const Array*>& inputs,
                                const std::function<Term(const double*)>& f,
                                std::vector<int64_t>* shape);

// The sum of the terms (and of their magnitudes), divided by divisor.
Term reduce(const std::vector<Term>& terms, double divisor);

// NLLLoss over rows of scores: self [N, C] (or [C], one row) or [N, C, H, W] (two_d), target
// [N] / [] / [N, H, W] of class indices, weight [C]. loss per row for reduction none; the total
// weight of the rows not ignored.
struct NllResult {
  std::vector<Term> per_row;  // reduction none
  Term reduced;               // mean or sum
  double total_weight = 0;
};
NllResult nll_forward(const Array& self, const Array& target, const Array& weight,
                      int64_t reduction, int64_t ignore_index, bool two_d);

// Its gradient: self's shape, 0 except at each row's target, -weight[t] s (s per row for none,
// else gradOutput / totalWeight for mean or gradOutput for sum).
std::vector<Term> nll_backward(const Array& grad_output, const Array& self, const Array& target,
                               const Array& weight, const Array& total_weight, int64_t reduction,
                               int64_t ignore_index, bool two_d);

}  // namespace oa_ref
