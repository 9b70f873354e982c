#include "ops/loss/sum_to_output.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "core/convert.h"
#include "core/elementwise.h"

namespace oa::loss {
namespace {

class SumToOutputPlan final : public Plan {
 public:
  SumToOutputPlan(const Call& call, const ElementwiseOp& op, Shape shape)
      : shape_(std::move(shape)),
        output_(*call.tensor(op.output.c_str())),
        scalar_(op.scalar),
        params_(op.params(call, shape_)) {
    for (const std::string& name : op.inputs) {
      inputs_.push_back(*call.tensor(name.c_str()));
    }
  }

  uint64_t workspace_bytes() const {
    return static_cast<uint64_t>(numel(output_.shape)) * sizeof(double);
  }

  aclnnStatus run(void* workspace) const override {
    auto* sums = static_cast<double*>(workspace);
    const int64_t outputs = numel(output_.shape);
    std::fill(sums, sums + outputs, 0.0);
    const int64_t count = numel(shape_);
    const auto rank = static_cast<int64_t>(shape_.size());
    std::vector<int64_t> index(static_cast<size_t>(rank), 0);
    float x[kMaxOperands];
    for (int64_t position = 0; position < count; ++position) {
      for (size_t k = 0; k < inputs_.size(); ++k) {
        x[k] = load_float(inputs_[k].dtype, inputs_[k].data, element(inputs_[k], index));
      }
      sums[output_index(index)] += static_cast<double>(scalar_(params_, x));
      for (int64_t d = rank - 1;
           d >= 0 && ++index[static_cast<size_t>(d)] == shape_[static_cast<size_t>(d)]; --d) {
        index[static_cast<size_t>(d)] = 0;
      }
    }
    // The output's elements in row-major order.
    const auto out_rank = static_cast<int64_t>(output_.shape.size());
    std::vector<int64_t> at(static_cast<size_t>(out_rank), 0);
    for (int64_t i = 0; i < outputs; ++i) {
      int64_t offset = output_.offset;
      for (int64_t d = 0; d < out_rank; ++d) {
        offset += at[static_cast<size_t>(d)] * output_.strides[static_cast<size_t>(d)];
      }
      const double sum = std::isnan(sums[i]) ? std::numeric_limits<double>::quiet_NaN() : sums[i];
      store_float(output_.dtype, static_cast<float>(sum), output_.data, offset);
      for (int64_t d = out_rank - 1;
           d >= 0 && ++at[static_cast<size_t>(d)] == output_.shape[static_cast<size_t>(d)]; --d) {
        at[static_cast<size_t>(d)] = 0;
      }
    }
    return ACLNN_SUCCESS;
  }

 private:
  // The element of t at the broadcast multi-index (t's dims aligned at the last one).
  static int64_t element(const aclTensor& t, const std::vector<int64_t>& index) {
    int64_t at = t.offset;
    const size_t skip = index.size() - t.shape.size();
    for (size_t d = 0; d < t.shape.size(); ++d) {
      if (t.shape[d] != 1) {
        at += index[skip + d] * t.strides[d];
      }
    }
    return at;
  }

  // The row-major position in the output of the broadcast multi-index.
  int64_t output_index(const std::vector<int64_t>& index) const {
    int64_t at = 0;
    const size_t skip = index.size() - output_.shape.size();
    for (size_t d = 0; d < output_.shape.size(); ++d) {
      at = at * output_.shape[d] + (output_.shape[d] == 1 ? 0 : index[skip + d]);
    }
    return at;
  }

  Shape shape_;
  aclTensor output_;
  std::vector<aclTensor> inputs_;
  ScalarFormula scalar_;
  ElementwiseParams params_;
};

}  // namespace

Impl sum_to_output_reference(const ElementwiseOp& op) {
  Impl impl;
  impl.name = "reference";
  impl.plan = [op](const Call& call, Planned* planned) {
    Shape shape;
    for (const std::string& name : op.inputs) {
      Shape next;
      broadcast_shapes(shape, call.tensor(name.c_str())->shape, &next);
      shape = std::move(next);
    }
    auto plan = std::make_unique<SumToOutputPlan>(call, op, std::move(shape));
    planned->workspace_bytes = plan->workspace_bytes();
    planned->plan = std::move(plan);
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace oa::loss
