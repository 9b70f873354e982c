#include "ops/loss/first_dim_sum.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "base/parallel.h"
#include "core/convert.h"
#include "core/elementwise.h"
#include "core/isa.h"

namespace oa::loss {
namespace {

// A tensor read at [i, j]: its element offset at row 0 of each j (broadcast dims step 0), and its
// step from row to row.
struct Operand {
  aclTensor view;
  Shape strides;  // over the broadcast shape [rows, rest...]: 0 where the tensor is broadcast
};

struct Problem {
  int64_t rows = 1;
  Shape rest;  // the broadcast shape without its first dim
  std::vector<Operand> inputs;
  aclTensor out;
  Shape out_strides;  // over rest
  double divisor = 1;
  ScalarFormula scalar = nullptr;
  const ElementwiseKernels* kernels = nullptr;
  ElementwiseParams params;
};

// t's strides over `shape` (t's dims aligned at the last one; 0 on the dims it is broadcast along).
Shape broadcast_strides(const aclTensor& t, const Shape& shape) {
  Shape strides(shape.size(), 0);
  const size_t skip = shape.size() - t.shape.size();
  for (size_t d = 0; d < t.shape.size(); ++d) {
    strides[skip + d] = t.shape[d] == 1 ? 0 : t.strides[d];
  }
  return strides;
}

Problem problem_of(const Call& call, const ElementwiseOp& op) {
  Problem p;
  Shape shape;
  for (const std::string& name : op.inputs) {
    Shape next;
    broadcast_shapes(shape, call.tensor(name.c_str())->shape, &next);
    shape = std::move(next);
  }
  if (shape.empty()) {
    shape = {1};  // one row of one element
  }
  p.rows = shape[0];
  p.rest.assign(shape.begin() + 1, shape.end());
  for (const std::string& name : op.inputs) {
    const aclTensor& t = *call.tensor(name.c_str());
    p.inputs.push_back({t, broadcast_strides(t, shape)});
  }
  p.out = *call.tensor(op.output.c_str());
  p.out_strides = broadcast_strides(p.out, p.rest);
  p.divisor = call.integer("reduction") == 1 ? static_cast<double>(p.rows) : 1.0;
  p.scalar = op.scalar;
  p.kernels = &op.kernels();
  p.params = op.params(call, shape);
  return p;
}

// The element offset at row 0 of position j (row-major over rest) for strides over [rows, rest].
int64_t offset_at(const Shape& rest, const Shape& strides, size_t skip, int64_t offset, int64_t j) {
  for (size_t d = rest.size(); d-- > 0;) {
    offset += j % rest[d] * strides[skip + d];
    j /= rest[d];
  }
  return offset;
}

void store_sum(const Problem& p, int64_t j, double sum) {
  double value = sum / p.divisor;
  if (std::isnan(value)) {
    value = std::numeric_limits<double>::quiet_NaN();
  }
  store_float(p.out.dtype, static_cast<float>(value), p.out.data,
              offset_at(p.rest, p.out_strides, 0, p.out.offset, j));
}

// Positions j per chunk of the fast walk.
constexpr int64_t kChunk = 512;

class FastPlan final : public Plan {
 public:
  explicit FastPlan(Problem p) : p_(std::move(p)), isa_(selected_isa()) {}

  aclnnStatus run(void*) const override {
    const int64_t positions = numel(p_.rest);
    const int64_t chunks = (positions + kChunk - 1) / kChunk;
    parallel_for(
        chunks,
        [&](int64_t chunk) {
          run_chunk(chunk * kChunk, std::min(kChunk, positions - chunk * kChunk));
        },
        positions * p_.rows > kElementwiseChunk);
    return ACLNN_SUCCESS;
  }

 private:
  void run_chunk(int64_t first, int64_t n) const {
    const auto inputs = static_cast<int>(p_.inputs.size());
    int64_t offsets[kMaxOperands][kChunk];
    alignas(64) float values[kMaxOperands][kChunk];
    alignas(64) float results[kChunk];
    double sums[kChunk] = {};
    const float* in[kMaxOperands];
    for (int k = 0; k < inputs; ++k) {
      const Operand& o = p_.inputs[static_cast<size_t>(k)];
      for (int64_t t = 0; t < n; ++t) {
        offsets[k][t] = offset_at(p_.rest, o.strides, 1, o.view.offset, first + t);
      }
      in[k] = values[k];
    }
    for (int64_t i = 0; i < p_.rows; ++i) {
      for (int k = 0; k < inputs; ++k) {
        const Operand& o = p_.inputs[static_cast<size_t>(k)];
        const int64_t row = i * o.strides[0];
        for (int64_t t = 0; t < n; ++t) {
          values[k][t] = load_float(o.view.dtype, o.view.data, offsets[k][t] + row);
        }
      }
      if (isa_ == Isa::simd) {
        p_.kernels->blocks(p_.params, in, results, n, false);
      } else {
        float x[kMaxOperands];
        for (int64_t t = 0; t < n; ++t) {
          for (int k = 0; k < inputs; ++k) {
            x[k] = values[k][t];
          }
          results[t] = p_.scalar(p_.params, x);
        }
      }
      for (int64_t t = 0; t < n; ++t) {
        sums[t] += static_cast<double>(results[t]);
      }
    }
    for (int64_t t = 0; t < n; ++t) {
      store_sum(p_, first + t, sums[t]);
    }
  }

  Problem p_;
  Isa isa_;
};

class ReferencePlan final : public Plan {
 public:
  explicit ReferencePlan(Problem p) : p_(std::move(p)) {}

  aclnnStatus run(void*) const override {
    float x[kMaxOperands];
    for (int64_t j = 0; j < numel(p_.rest); ++j) {
      double sum = 0.0;
      for (int64_t i = 0; i < p_.rows; ++i) {
        for (size_t k = 0; k < p_.inputs.size(); ++k) {
          const Operand& o = p_.inputs[k];
          const int64_t at = offset_at(p_.rest, o.strides, 1, o.view.offset, j) + i * o.strides[0];
          x[k] = load_float(o.view.dtype, o.view.data, at);
        }
        sum += static_cast<double>(p_.scalar(p_.params, x));
      }
      store_sum(p_, j, sum);
    }
    return ACLNN_SUCCESS;
  }

 private:
  Problem p_;
};

}  // namespace

Impl first_dim_sum_fast(const ElementwiseOp& op) {
  Impl impl;
  impl.name = "rows";
  impl.plan = [op](const Call& call, Planned* planned) {
    planned->plan = std::make_unique<FastPlan>(problem_of(call, op));
    return ACLNN_SUCCESS;
  };
  return impl;
}

Impl first_dim_sum_reference(const ElementwiseOp& op) {
  Impl impl;
  impl.name = "reference";
  impl.plan = [op](const Call& call, Planned* planned) {
    planned->plan = std::make_unique<ReferencePlan>(problem_of(call, op));
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace oa::loss
