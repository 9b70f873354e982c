#include "core/elementwise_op.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>

#include "core/convert.h"
#include "core/elementwise.h"
#include "core/reduce.h"

namespace oa {
namespace {

// The broadcast shape of the op's inputs in a call (the checks have made sure there is one).
Shape broadcast_of(const Call& call, const ElementwiseOp& op) {
  Shape shape;
  for (const std::string& name : op.inputs) {
    Shape next;
    broadcast_shapes(shape, call.tensor(name.c_str())->shape, &next);
    shape = std::move(next);
  }
  return shape;
}

// f(std::integral_constant<int, n>) for the op's input count n (1 to kMaxOperands - 1).
template <typename F>
void with_inputs(int n, const F& f) {
  switch (n) {
    case 1:
      return f(std::integral_constant<int, 1>());
    case 2:
      return f(std::integral_constant<int, 2>());
    case 3:
      return f(std::integral_constant<int, 3>());
    case 4:
      return f(std::integral_constant<int, 4>());
    default:
      return f(std::integral_constant<int, 5>());
  }
}

// What a reduced result's sum is divided by (ElementwiseOp::divisor).
double divisor_of(const Call& call, const ElementwiseOp& op, const Shape& shape) {
  if (op.divisor) {
    return op.divisor(call, shape);
  }
  const bool mean = static_cast<Reduction>(call.integer(op.reduction.c_str())) == Reduction::mean;
  return mean ? static_cast<double>(numel(shape)) : 1.0;
}

bool reduces(const Call& call, const ElementwiseOp& op) {
  return !op.reduction.empty() &&
         static_cast<Reduction>(call.integer(op.reduction.c_str())) != Reduction::none;
}

std::vector<const aclTensor*> inputs_of(const Call& call, const ElementwiseOp& op) {
  std::vector<const aclTensor*> inputs;
  for (const std::string& name : op.inputs) {
    inputs.push_back(call.tensor(name.c_str()));
  }
  return inputs;
}

// The sum divided by `divisor`: a mean of no terms is 0/0 = NaN. Which NaN a sum of NaNs ends as
// depends on the order of each addition's operands, and 0/0 is x86's negative default NaN: a NaN
// result is the canonical quiet NaN.
void store_reduced(double total, double divisor, const aclTensor& result) {
  double value = total / divisor;
  if (std::isnan(value)) {
    value = std::numeric_limits<double>::quiet_NaN();
  }
  char* out = static_cast<char*>(result.data) +
              result.offset * static_cast<int64_t>(dtype_bits(result.dtype) / 8);
  store_float(result.dtype, static_cast<float>(value), out, 0);
}

class SimdPlan final : public Plan {
 public:
  SimdPlan(ElementwiseLoop loop, const ElementwiseOp& op, ElementwiseParams params)
      : loop_(loop),
        isa_(selected_isa()),
        params_(params),
        scalar_(op.scalar),
        kernels_(op.kernels()),
        inputs_(static_cast<int>(op.inputs.size())),
        stream_(worth_streaming(loop)),
        dtypes_(operand_dtypes(loop)) {}

  aclnnStatus run(void*) const override {
    for_each_strip(loop_, [&](int64_t, const Strip& strip) {
      if (isa_ == Isa::simd && dense_strip(loop_, strip)) {
        kernels_.dense(params_, dtypes_.dtype, strip.ptr, strip.stride, strip.n, stream_);
        return;
      }
      const auto kernel = [&](float* out, const float* const* in, int64_t n, bool in_memory) {
        compute(in, out, n, stream_ && in_memory);
      };
      with_inputs(inputs_,
                  [&](auto n) { map_floats<decltype(n)::value>(isa_, loop_, strip, kernel); });
    });
    return ACLNN_SUCCESS;
  }

 private:
  void compute(const float* const* in, float* out, int64_t n, bool stream) const {
    if (isa_ == Isa::simd) {
      kernels_.blocks(params_, in, out, n, stream);
      return;
    }
    float x[kMaxOperands];
    for (int64_t i = 0; i < n; ++i) {
      for (int k = 0; k < inputs_; ++k) {
        x[k] = in[k][i];
      }
      out[i] = scalar_(params_, x);
    }
  }

  ElementwiseLoop loop_;
  Isa isa_;
  ElementwiseParams params_;
  ScalarFormula scalar_;
  const ElementwiseKernels& kernels_;
  int inputs_;
  bool stream_;
  OperandDtypes dtypes_;
};

// Mean or sum: one double partial per chunk of the walk (in the workspace), each the chunk's
// results added block by block of kFloatBlock as accumulate adds them, combined in chunk order.
class SimdReducePlan final : public Plan {
 public:
  SimdReducePlan(ElementwiseLoop loop, const ElementwiseOp& op, ElementwiseParams params,
                 double divisor, const aclTensor& result)
      : loop_(loop),
        isa_(selected_isa()),
        params_(params),
        scalar_(op.scalar),
        kernels_(op.kernels()),
        inputs_(static_cast<int>(op.inputs.size())),
        divisor_(divisor),
        result_(result) {}

  uint64_t workspace_bytes() const {
    return static_cast<uint64_t>(loop_.chunks()) * sizeof(double);
  }

  aclnnStatus run(void* workspace) const override {
    auto* partials = static_cast<double*>(workspace);
    std::fill(partials, partials + loop_.chunks(), 0.0);
    for_each_strip(loop_, [&](int64_t chunk, const Strip& strip) {
      bool dense = isa_ == Isa::simd;
      for (int k = 1; k <= inputs_; ++k) {
        dense = dense && strip.stride[k] == 1;
      }
      if (dense) {
        dense_partial(strip, &partials[chunk]);
      } else {
        block_partial(strip, &partials[chunk]);
      }
    });
    store_reduced(combine_partials(partials, loop_.chunks()), divisor_, result_);
    return ACLNN_SUCCESS;
  }

 private:
  void dense_partial(const Strip& strip, double* partial) const {
    aclDataType dtype[kMaxOperands];
    const char* ptr[kMaxOperands];
    for (int64_t done = 0; done < strip.n; done += kFloatBlock) {
      const int64_t n = std::min(kFloatBlock, strip.n - done);
      for (int k = 0; k < inputs_; ++k) {
        dtype[k] = loop_.operands[k + 1].dtype;
        ptr[k] = strip.ptr[k + 1] + done * loop_.operands[k + 1].element_size;
      }
      *partial = kernels_.sum(params_, dtype, ptr, n, *partial);
    }
  }

  template <int Inputs>
  void blocks_of(const Strip& strip, double* partial) const {
    FloatInputs<Inputs> inputs(isa_, loop_, strip);
    alignas(64) float results[kFloatBlock];
    const float* in[Inputs];
    for (int64_t done = 0; done < strip.n; done += kFloatBlock) {
      const int64_t n = std::min(kFloatBlock, strip.n - done);
      for (int k = 0; k < Inputs; ++k) {
        in[k] = inputs.block(k, done, n);
      }
      if (isa_ == Isa::simd) {
        kernels_.blocks(params_, in, results, n, false);
      } else {
        float x[Inputs];
        for (int64_t i = 0; i < n; ++i) {
          for (int k = 0; k < Inputs; ++k) {
            x[k] = in[k][i];
          }
          results[i] = scalar_(params_, x);
        }
      }
      *partial = accumulate(results, n, *partial);
    }
  }

  void block_partial(const Strip& strip, double* partial) const {
    with_inputs(inputs_, [&](auto n) { blocks_of<decltype(n)::value>(strip, partial); });
  }

  ElementwiseLoop loop_;
  Isa isa_;
  ElementwiseParams params_;
  ScalarFormula scalar_;
  const ElementwiseKernels& kernels_;
  int inputs_;
  double divisor_;
  aclTensor result_;  // a copy of the view: the caller may destroy its aclTensor after phase 1
};

// The reference: every result of the broadcast shape in row-major order, each input element found
// from its own view (a dim of size 1, or missing, is broadcast), converted by the core's
// conversions, the formula applied, the result rounded once; a mean or sum adds the results in
// double in that order.
class ReferencePlan final : public Plan {
 public:
  // reduce: a loss's mean or sum (or other reduction), the sum of the terms divided by divisor.
  ReferencePlan(const Call& call, const ElementwiseOp& op, Shape shape, ElementwiseParams params,
                bool reduce, double divisor)
      : shape_(std::move(shape)),
        output_(*call.tensor(op.output.c_str())),
        scalar_(op.scalar),
        params_(params),
        reduce_(reduce),
        divisor_(divisor) {
    for (const aclTensor* input : inputs_of(call, op)) {
      inputs_.push_back(*input);
    }
  }

  aclnnStatus run(void*) const override {
    const int64_t count = numel(shape_);
    const auto rank = static_cast<int64_t>(shape_.size());
    std::vector<int64_t> index(static_cast<size_t>(rank), 0);
    float x[kMaxOperands];
    double total = 0.0;
    for (int64_t position = 0; position < count; ++position) {
      for (size_t k = 0; k < inputs_.size(); ++k) {
        x[k] = load_float(inputs_[k].dtype, inputs_[k].data, element(inputs_[k], index));
      }
      const float result = scalar_(params_, x);
      if (!reduce_) {
        store_float(output_.dtype, result, output_.data, element(output_, index));
      } else {
        total += static_cast<double>(result);
      }
      for (int64_t d = rank - 1;
           d >= 0 && ++index[static_cast<size_t>(d)] == shape_[static_cast<size_t>(d)]; --d) {
        index[static_cast<size_t>(d)] = 0;
      }
    }
    if (reduce_) {
      store_reduced(total, divisor_, output_);
    }
    return ACLNN_SUCCESS;
  }

 private:
  // The element of t at the broadcast multi-index (t's dims aligned at the last one).
  int64_t element(const aclTensor& t, const std::vector<int64_t>& index) const {
    int64_t at = t.offset;
    const size_t skip = index.size() - t.shape.size();
    for (size_t d = 0; d < t.shape.size(); ++d) {
      if (t.shape[d] != 1) {
        at += index[skip + d] * t.strides[d];
      }
    }
    return at;
  }

  Shape shape_;
  aclTensor output_;
  std::vector<aclTensor> inputs_;
  ScalarFormula scalar_;
  ElementwiseParams params_;
  bool reduce_;
  double divisor_;
};

}  // namespace

Impl elementwise_simd(const ElementwiseOp& op) {
  Impl impl;
  impl.name = "simd";
  impl.reference_bits = op.reduction.empty();
  impl.plan = [op](const Call& call, Planned* planned) {
    const Shape shape = broadcast_of(call, op);
    const std::vector<const aclTensor*> inputs = inputs_of(call, op);
    const ElementwiseParams params = op.params(call, shape);
    if (!reduces(call, op)) {
      const ElementwiseLoop loop = plan_elementwise(shape, call.tensor(op.output.c_str()), inputs);
      planned->plan = std::make_unique<SimdPlan>(loop, op, params);
      return ACLNN_SUCCESS;
    }
    const ElementwiseLoop loop = plan_elementwise(shape, nullptr, inputs);
    auto plan = std::make_unique<SimdReducePlan>(loop, op, params, divisor_of(call, op, shape),
                                                 *call.tensor(op.output.c_str()));
    planned->workspace_bytes = plan->workspace_bytes();
    planned->plan = std::move(plan);
    return ACLNN_SUCCESS;
  };
  return impl;
}

Impl elementwise_reference(const ElementwiseOp& op) {
  Impl impl;
  impl.name = "reference";
  impl.plan = [op](const Call& call, Planned* planned) {
    const Shape shape = broadcast_of(call, op);
    const bool reduce = reduces(call, op);
    planned->plan = std::make_unique<ReferencePlan>(call, op, shape, op.params(call, shape), reduce,
                                                    reduce ? divisor_of(call, op, shape) : 1.0);
    return ACLNN_SUCCESS;
  };
  return impl;
}

std::function<bool(const OpDef&, CallSpec*)> elementwise_infer(const ElementwiseOp& op) {
  return [op](const OpDef& def, CallSpec* spec) {
    Shape shape;
    aclDataType dtype = ACL_DT_UNDEFINED;
    for (const std::string& name : op.inputs) {
      const TensorSpec& t = spec->args[static_cast<size_t>(def.param_index(name))].tensor;
      Shape next;
      if (!broadcast_shapes(shape, t.shape, &next)) {
        return false;
      }
      shape = std::move(next);
      dtype = dtype == ACL_DT_UNDEFINED ? t.dtype : promote_float(dtype, t.dtype);
    }
    if (!op.reduction.empty() &&
        static_cast<Reduction>(
            spec->args[static_cast<size_t>(def.param_index(op.reduction))].integer) !=
            Reduction::none) {
      shape.clear();
    }
    ArgSpec& out = spec->args[static_cast<size_t>(def.param_index(op.output))];
    out.tensor = {shape, dtype};
    return true;
  };
}

std::function<Tolerance(const OpDef&, const CallSpec&)> elementwise_tolerance(
    const ElementwiseOp& op) {
  return [op](const OpDef& def, const CallSpec& spec) {
    // The reductions add in double in another order: at most about one rounding apart in the
    // output's dtype, twice that allowed.
    const aclDataType dtype =
        spec.args[static_cast<size_t>(def.param_index(op.output))].tensor.dtype;
    const double ulp = dtype == ACL_BF16      ? std::ldexp(1.0, -7)
                       : dtype == ACL_FLOAT16 ? std::ldexp(1.0, -10)
                                              : std::ldexp(1.0, -23);
    return Tolerance{2 * ulp, 2 * ulp};
  };
}

}  // namespace oa
