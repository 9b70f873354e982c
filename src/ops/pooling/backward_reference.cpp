// The reference of aclnnAdaptiveMaxPool2dBackward (SPEC section 7): every index checked first
// (nothing is written when one is out of range), then per (n, c) plane float32 sums, zero to start,
// that take gradOutput's values in row-major output order at the positions their indices name, and
// are rounded once into gradInput. Any dtype the checks admit, any strides, on one thread, with one
// plane of sums in the workspace.
#include <memory>
#include <utility>

#include "core/convert.h"
#include "ops/pooling/bad_index.h"
#include "ops/pooling/impls.h"
#include "ops/pooling/pool_plan.h"

namespace oa::pooling {
namespace {

class BackwardReference final : public Plan {
 public:
  BackwardReference(const char* op, const aclTensor& grad_output, const aclTensor& indices,
                    const aclTensor& grad_input)
      : op_(op),
        dtype_(grad_input.dtype),
        index_dtype_(indices.dtype),
        rank_(static_cast<int>(grad_input.shape.size())),
        dims_(dims_of(grad_input, grad_output.shape[grad_output.shape.size() - 2],
                      grad_output.shape[grad_output.shape.size() - 1])),
        grad_output_(view_of(grad_output)),
        indices_(view_of(indices)),
        grad_input_(view_of(grad_input)) {}

  // The workspace: one plane of float32 sums.
  int64_t workspace_bytes() const {
    return numel_of_planes() == 0 ? 0 : dims_.h * dims_.w * static_cast<int64_t>(sizeof(float));
  }

  aclnnStatus run(void* workspace) const override {
    if (numel_of_planes() == 0) {
      return ACLNN_SUCCESS;
    }
    const BadIndex bad = find_bad_index(indices_, dims_, index_dtype_);
    if (bad.found) {
      return bad_index_error(op_, bad, rank_, dims_);
    }
    auto* sums = static_cast<float*>(workspace);
    const Dims& d = dims_;
    for (int64_t n = 0; n < d.n; ++n) {
      for (int64_t c = 0; c < d.c; ++c) {
        for (int64_t p = 0; p < d.h * d.w; ++p) {
          sums[p] = 0.0f;
        }
        const int64_t g = n * grad_output_.sn + c * grad_output_.sc;
        const int64_t k = n * indices_.sn + c * indices_.sc;
        for (int64_t i = 0; i < d.ho; ++i) {
          for (int64_t j = 0; j < d.wo; ++j) {
            const int64_t p = index(k + i * indices_.sh + j * indices_.sw);
            sums[p] += load_float(dtype_, grad_output_.data,
                                  g + i * grad_output_.sh + j * grad_output_.sw);
          }
        }
        const int64_t x = n * grad_input_.sn + c * grad_input_.sc;
        for (int64_t h = 0; h < d.h; ++h) {
          for (int64_t w = 0; w < d.w; ++w) {
            store_float(dtype_, sums[h * d.w + w], grad_input_.data,
                        x + h * grad_input_.sh + w * grad_input_.sw);
          }
        }
      }
    }
    return ACLNN_SUCCESS;
  }

 private:
  // gradInput's elements (when there are none, nothing is read or written).
  int64_t numel_of_planes() const { return dims_.n * dims_.c * dims_.h * dims_.w; }

  int64_t index(int64_t k) const {
    if (index_dtype_ == ACL_INT32) {
      return static_cast<const int32_t*>(indices_.data)[k];
    }
    return static_cast<const int64_t*>(indices_.data)[k];
  }

  const char* op_;
  aclDataType dtype_;
  aclDataType index_dtype_;
  int rank_;
  Dims dims_;
  View grad_output_;
  View indices_;
  View grad_input_;
};

}  // namespace

Impl backward_reference() {
  Impl impl;
  impl.name = "reference";
  impl.plan = [](const Call& call, Planned* planned) {
    auto plan = std::make_unique<BackwardReference>(
        call.op(), *call.tensor("gradOutput"), *call.tensor("indices"), *call.tensor("gradInput"));
    planned->workspace_bytes = static_cast<uint64_t>(plan->workspace_bytes());
    planned->plan = std::move(plan);
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace oa::pooling
