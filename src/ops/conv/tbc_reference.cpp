// The references of aclnnConvTbc and aclnnConvTbcBackward: the formulas of SPEC sections 11 and 8
// as plain loops over the tensors' views. Each operand of a product is widened by the core's
// conversion and rounded as cubeMathType says (core/cube_math.h); bias and gradBias's terms are
// not operands of a product and are used as they are. The inputs are first widened (and rounded)
// into float64 arrays in the workspace; every sum is then float64 over exactly the formula's
// terms (a term whose time falls outside its tensor is absent, not a zero that multiplies), and
// each result is rounded once to its output's dtype (round_once.h). Any dtype the checks admit,
// any strides, empty tensors, on one thread.
#include <memory>
#include <utility>

#include "core/convert.h"
#include "core/cube_math.h"
#include "ops/conv/impls.h"
#include "ops/conv/round_once.h"
#include "ops/conv/tbc_view.h"

namespace oa::conv {
namespace {

// An input as the formulas read it: its elements widened by the core's conversion and, for an
// operand of a product, rounded as cubeMathType says, into float64 at its place in the workspace,
// row-major (a rank-1 tensor as (1, 1, n)).
class Input {
 public:
  Input(const Call& call, const char* name, bool operand, int64_t* workspace_bytes) {
    const aclTensor& t = *call.tensor(name);
    view_ = view_of(t);
    rounding_ = operand ? cube_rounding(t.dtype, call.integer("cubeMathType")) : CubeRounding::none;
    const size_t rank = t.shape.size();
    for (size_t i = 0; i < rank; ++i) {
      dims_[3 - rank + i] = t.shape[i];
    }
    offset_ = *workspace_bytes;
    *workspace_bytes += dims_[0] * dims_[1] * dims_[2] * static_cast<int64_t>(sizeof(double));
  }

  // Widens (and rounds) every element into the workspace.
  void stage(void* workspace) const {
    double* data = at(workspace);
    for (int64_t i0 = 0; i0 < dims_[0]; ++i0) {
      for (int64_t i1 = 0; i1 < dims_[1]; ++i1) {
        for (int64_t i2 = 0; i2 < dims_[2]; ++i2) {
          data[(i0 * dims_[1] + i1) * dims_[2] + i2] =
              cube_round(rounding_, load_float(view_.dtype, view_.data, view_.offset(i0, i1, i2)));
        }
      }
    }
  }

  // The staged elements, read as element (i0, i1, i2).
  struct Values {
    const double* data;
    int64_t d1;
    int64_t d2;
    double operator()(int64_t i0, int64_t i1, int64_t i2) const {
      return data[(i0 * d1 + i1) * d2 + i2];
    }
  };
  Values values(void* workspace) const { return {at(workspace), dims_[1], dims_[2]}; }

 private:
  double* at(void* workspace) const {
    return reinterpret_cast<double*>(static_cast<char*>(workspace) + offset_);
  }

  TbcView view_;
  CubeRounding rounding_ = CubeRounding::none;
  int64_t dims_[3] = {1, 1, 1};
  int64_t offset_ = 0;
};

// An output: each result rounded once to its dtype (round_once.h) at its place in the view.
class Output {
 public:
  Output(const Call& call, const char* name) : view_(view_of(*call.tensor(name))) {}
  void store(int64_t i0, int64_t i1, int64_t i2, double value) const {
    store_result(view_.dtype, value, view_.data, view_.offset(i0, i1, i2));
  }

 private:
  TbcView view_;
};

// output[t, b, o] = bias[o] + sum over k, i with 0 <= t + k - pad < T of
// self[t + k - pad, b, i] * weight[k, i, o].
class ForwardReference final : public Plan {
 public:
  explicit ForwardReference(const Call& call)
      : x_(call, "self", true, &workspace_bytes_),
        w_(call, "weight", true, &workspace_bytes_),
        bias_(call, "bias", false, &workspace_bytes_),
        out_(call, "output"),
        t_(call.tensor("self")->shape[0]),
        ci_(call.tensor("self")->shape[2]),
        k_(call.tensor("weight")->shape[0]),
        pad_(call.integer("pad")),
        shape_(call.tensor("output")->shape) {}

  int64_t workspace_bytes() const { return workspace_bytes_; }

  aclnnStatus run(void* workspace) const override {
    for (const Input* in : {&x_, &w_, &bias_}) {
      in->stage(workspace);
    }
    const Input::Values x = x_.values(workspace);
    const Input::Values w = w_.values(workspace);
    const Input::Values bias = bias_.values(workspace);
    for (int64_t t = 0; t < shape_[0]; ++t) {
      for (int64_t b = 0; b < shape_[1]; ++b) {
        for (int64_t o = 0; o < shape_[2]; ++o) {
          double sum = bias(0, 0, o);
          for (int64_t k = 0; k < k_; ++k) {
            const int64_t row = t + k - pad_;
            if (row < 0 || row >= t_) {
              continue;
            }
            for (int64_t i = 0; i < ci_; ++i) {
              sum += x(row, b, i) * w(k, i, o);
            }
          }
          out_.store(t, b, o, sum);
        }
      }
    }
    return ACLNN_SUCCESS;
  }

 private:
  int64_t workspace_bytes_ = 0;
  Input x_, w_, bias_;
  Output out_;
  int64_t t_, ci_, k_, pad_;
  Shape shape_;  // (Tout, B, Cout)
};

// With g = self (Tout, B, Cout), x = input (T, B, Cin), w = weight (K, Cin, Cout):
//   gradInput[s, b, i] = sum over k, o with 0 <= s + pad - k < Tout of g[s + pad - k, b, o] *
//                        w[k, i, o]
//   gradWeight[k, i, o] = sum over b, t with 0 <= t + k - pad < T of x[t + k - pad, b, i] *
//                         g[t, b, o]
//   gradBias[o] = sum over t, b of g[t, b, o], g as it is (the terms are not products).
class BackwardReference final : public Plan {
 public:
  explicit BackwardReference(const Call& call)
      : g_(call, "self", true, &workspace_bytes_),
        x_(call, "input", true, &workspace_bytes_),
        w_(call, "weight", true, &workspace_bytes_),
        g_terms_(call, "self", false, &workspace_bytes_),
        grad_input_(call, "gradInput"),
        grad_weight_(call, "gradWeight"),
        grad_bias_(call, "gradBias"),
        t_(call.tensor("input")->shape[0]),
        b_(call.tensor("input")->shape[1]),
        ci_(call.tensor("input")->shape[2]),
        co_(call.tensor("weight")->shape[2]),
        k_(call.tensor("weight")->shape[0]),
        pad_(call.integer("pad")),
        tout_(call.tensor("self")->shape[0]) {}

  int64_t workspace_bytes() const { return workspace_bytes_; }

  aclnnStatus run(void* workspace) const override {
    for (const Input* in : {&g_, &x_, &w_, &g_terms_}) {
      in->stage(workspace);
    }
    const Input::Values g = g_.values(workspace);
    const Input::Values x = x_.values(workspace);
    const Input::Values w = w_.values(workspace);
    const Input::Values g_terms = g_terms_.values(workspace);
    for (int64_t s = 0; s < t_; ++s) {
      for (int64_t b = 0; b < b_; ++b) {
        for (int64_t i = 0; i < ci_; ++i) {
          double sum = 0;
          for (int64_t k = 0; k < k_; ++k) {
            const int64_t time = s + pad_ - k;
            if (time < 0 || time >= tout_) {
              continue;
            }
            for (int64_t o = 0; o < co_; ++o) {
              sum += g(time, b, o) * w(k, i, o);
            }
          }
          grad_input_.store(s, b, i, sum);
        }
      }
    }
    for (int64_t k = 0; k < k_; ++k) {
      for (int64_t i = 0; i < ci_; ++i) {
        for (int64_t o = 0; o < co_; ++o) {
          double sum = 0;
          for (int64_t b = 0; b < b_; ++b) {
            for (int64_t t = 0; t < tout_; ++t) {
              const int64_t row = t + k - pad_;
              if (row >= 0 && row < t_) {
                sum += x(row, b, i) * g(t, b, o);
              }
            }
          }
          grad_weight_.store(k, i, o, sum);
        }
      }
    }
    for (int64_t o = 0; o < co_; ++o) {
      double sum = 0;
      for (int64_t t = 0; t < tout_; ++t) {
        for (int64_t b = 0; b < b_; ++b) {
          sum += g_terms(t, b, o);
        }
      }
      grad_bias_.store(0, 0, o, sum);
    }
    return ACLNN_SUCCESS;
  }

 private:
  int64_t workspace_bytes_ = 0;
  Input g_, x_, w_, g_terms_;
  Output grad_input_, grad_weight_, grad_bias_;
  int64_t t_, b_, ci_, co_, k_, pad_, tout_;
};

template <typename Reference>
Impl reference() {
  Impl impl;
  impl.name = "reference";
  impl.plan = [](const Call& call, Planned* planned) {
    auto plan = std::make_unique<Reference>(call);
    planned->workspace_bytes = static_cast<uint64_t>(plan->workspace_bytes());
    planned->plan = std::move(plan);
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace

Impl tbc_forward_reference() { return reference<ForwardReference>(); }

Impl tbc_backward_reference() { return reference<BackwardReference>(); }

}  // namespace oa::conv
