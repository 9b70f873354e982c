// The references of the NLL losses (nll.h): plain loops over the rows in order, every target
// checked before anything is written, sums in double in row order.
#include <memory>
#include <utility>

#include "core/convert.h"
#include "ops/loss/nll.h"

namespace oa::loss::nll {
namespace {

// Calls body(r, n, h, w) for every row in row-major order.
template <typename Body>
void for_each_row(const Problem& p, const Body& body) {
  int64_t r = 0;
  for (int64_t n = 0; n < p.batch; ++n) {
    for (int64_t h = 0; h < p.height; ++h) {
      for (int64_t w = 0; w < p.width; ++w) {
        body(r++, n, h, w);
      }
    }
  }
}

// The first row whose target is bad, or -1.
int64_t first_bad_row(const Problem& p) {
  for (int64_t r = 0; r < p.rows(); ++r) {
    if (bad_target(p, target_of(p, r))) {
      return r;
    }
  }
  return -1;
}

class ForwardPlan final : public Plan {
 public:
  explicit ForwardPlan(Problem p) : p_(std::move(p)) {}

  aclnnStatus run(void*) const override {
    const int64_t bad = first_bad_row(p_);
    if (bad >= 0) {
      return bad_target_error(p_, bad, target_of(p_, bad), true);
    }
    double loss_sum = 0.0;
    double weight_sum = 0.0;
    for_each_row(p_, [&](int64_t r, int64_t n, int64_t h, int64_t w) {
      const int64_t t = target_of(p_, r);
      float loss = 0.0f;
      if (t != p_.ignore_index) {
        const float weight = load_float(p_.weight.dtype, p_.weight.data, t * p_.weight.c);
        const float score = load_float(p_.scores.dtype, p_.scores.data, p_.scores.at(n, h, w, t));
        loss = row_loss(weight, score);
        loss_sum += static_cast<double>(loss);
        weight_sum += static_cast<double>(weight);
      }
      if (p_.reduction == 0) {
        store_float(p_.out.dtype, loss, p_.out.data, p_.out.at(n, h, w, 0));
      }
    });
    if (p_.reduction != 0) {
      store_double(p_.out, p_.reduction == 1 ? loss_sum / weight_sum : loss_sum);
    }
    store_double(p_.total_weight_out, weight_sum);
    return ACLNN_SUCCESS;
  }

 private:
  Problem p_;
};

class BackwardPlan final : public Plan {
 public:
  explicit BackwardPlan(Problem p) : p_(std::move(p)) {}

  aclnnStatus run(void*) const override {
    const int64_t bad = first_bad_row(p_);
    if (bad >= 0) {
      return bad_target_error(p_, bad, target_of(p_, bad), false);
    }
    const float reduced = p_.reduction == 0 ? 0.0f : reduced_scale(p_);
    const View& g = p_.grad_output;
    const View& out = p_.grad_input;
    for_each_row(p_, [&](int64_t r, int64_t n, int64_t h, int64_t w) {
      const int64_t t = target_of(p_, r);
      for (int64_t c = 0; c < p_.classes; ++c) {
        float value = 0.0f;
        if (c == t && t != p_.ignore_index) {
          const float scale =
              p_.reduction == 0 ? load_float(g.dtype, g.data, g.at(n, h, w, 0)) : reduced;
          value = row_loss(load_float(p_.weight.dtype, p_.weight.data, t * p_.weight.c), scale);
        }
        store_float(out.dtype, value, out.data, out.at(n, h, w, c));
      }
    });
    return ACLNN_SUCCESS;
  }

 private:
  Problem p_;
};

}  // namespace

Impl forward_reference(bool two_d) {
  Impl impl;
  impl.name = "reference";
  impl.plan = [two_d](const Call& call, Planned* planned) {
    planned->plan = std::make_unique<ForwardPlan>(forward_problem(call, two_d));
    return ACLNN_SUCCESS;
  };
  return impl;
}

Impl backward_reference(bool two_d) {
  Impl impl;
  impl.name = "reference";
  impl.plan = [two_d](const Call& call, Planned* planned) {
    planned->plan = std::make_unique<BackwardPlan>(backward_problem(call, two_d));
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace oa::loss::nll
