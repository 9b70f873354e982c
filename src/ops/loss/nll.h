// NLLLoss, NLLLoss2d and their gradients as rows of class scores: self [N, C] (rows n), [C] (one
// row) or NLLLoss2d's [N, C, H, W] (rows (n, h, w)), one target class per row. A row whose target
// is ignoreIndex contributes nothing; any other target outside [0, C) is a data error (SPEC
// section 5): the launch fails naming the target's position and value, and writes nothing.
//
// Forward: loss_r = -weight[t] self[r, t]; none keeps them, sum adds them, mean divides the sum by
// the total weight (the sum of weight[t] over the rows not ignored: all ignored gives 0/0 = NaN).
// Backward: gradInput is 0 except at [r, t], -weight[t] s_r, with s_r = gradOutput[r] (none),
// gradOutput (sum) or gradOutput / totalWeight (mean).
// Terms are float32, sums double in a fixed order, each result rounded once.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/op/definition.h"

namespace oa::loss::nll {

// The target dtypes the NLL losses take.
inline const DtypeSet kTargetDtypes = {ACL_INT64, ACL_UINT8, ACL_INT32};

// A tensor's elements by row index (n, h, w) and class c: strides in elements, 0 on a dim the
// tensor does not have (a one-element tensor has all four 0).
struct View {
  char* data = nullptr;  // the view's first element
  aclDataType dtype = ACL_FLOAT;
  int64_t n = 0;
  int64_t c = 0;
  int64_t h = 0;
  int64_t w = 0;

  int64_t at(int64_t row_n, int64_t row_h, int64_t row_w, int64_t cls) const {
    return row_n * n + row_h * h + row_w * w + cls * c;
  }
};

struct Problem {
  const char* op = "";
  bool two_d = false;  // NLLLoss2d: target positions are [n, h, w]
  bool target_0d = false;
  int64_t batch = 1;
  int64_t height = 1;
  int64_t width = 1;
  int64_t classes = 0;
  int64_t reduction = 1;
  int64_t ignore_index = -100;
  View target;
  View weight;
  // Forward: self's scores, the loss per row (none) or its one element, the total weight.
  View scores;
  View out;
  View total_weight_out;
  // Backward: gradOutput per row (none) or its one element, the given total weight, gradInput.
  View grad_output;
  View total_weight;
  View grad_input;
  int64_t grad_input_bytes = 0;
  bool grad_input_dense = false;  // its elements fill one run of memory, in some order

  int64_t rows() const { return batch * height * width; }
};

Problem forward_problem(const Call& call, bool two_d);
Problem backward_problem(const Call& call, bool two_d);

// The target class of row (n, h, w).
inline int64_t target_at(const Problem& p, int64_t n, int64_t h, int64_t w) {
  const int64_t at = p.target.at(n, h, w, 0);
  switch (p.target.dtype) {
    case ACL_UINT8:
      return reinterpret_cast<const uint8_t*>(p.target.data)[at];
    case ACL_INT32:
      return reinterpret_cast<const int32_t*>(p.target.data)[at];
    default:
      return reinterpret_cast<const int64_t*>(p.target.data)[at];
  }
}

// The target class of row r (row-major over [N, H, W]).
int64_t target_of(const Problem& p, int64_t r);

// Whether a target value is neither ignoreIndex nor a class.
inline bool bad_target(const Problem& p, int64_t t) {
  return t != p.ignore_index && (t < 0 || t >= p.classes);
}

// Records the data error for row r's target (value t) and returns ACLNN_ERR_RUNTIME_ERROR.
aclnnStatus bad_target_error(const Problem& p, int64_t r, int64_t t, bool forward);

// -weight self and -weight s as the kernels and the references compute them, a NaN result the
// canonical one (a product of two NaNs may keep either).
inline float row_loss(float weight, float score) {
  const float loss = -(weight * score);
  return std::isnan(loss) ? NAN : loss;
}

// The scale s of every row for sum and mean (for none each row's gradOutput).
float reduced_scale(const Problem& p);

// A double result rounded once into one element of v (NaN canonical).
void store_double(const View& v, double value);

Impl forward_fast(bool two_d);
Impl forward_reference(bool two_d);
Impl backward_fast(bool two_d);
Impl backward_reference(bool two_d);

// OpDef::input_values of def: targets cycling through the classes [0, C), every seventh
// ignoreIndex where the target's dtype can hold it.
std::function<void(const CallSpec&, int, std::vector<double>*)> target_values(const OpDef& def);

}  // namespace oa::loss::nll
