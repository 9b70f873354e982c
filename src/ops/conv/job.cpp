#include "ops/conv/job.h"

#include <algorithm>

#include "base/dtype.h"
#include "base/parallel.h"
#include "core/convert.h"
#include "core/lists.h"
#include "core/tensor.h"
#include "ops/conv/round_once.h"
#include "ops/conv/rows_simd.h"

namespace oa::conv {

bool View5::dense() const {
  int64_t expected = 1;
  for (int i = 4; i >= 0; --i) {
    if (dims[i] != 1 && strides[i] != expected) {
      return false;
    }
    expected *= dims[i];
  }
  return true;
}

int View5::trailing_run(int lowest, int64_t* run) const {
  int first = 4;
  *run = dims[4];
  while (first > lowest && (dims[first - 1] == 1 || strides[first - 1] == *run * strides[4])) {
    --first;
    *run *= dims[first];
  }
  return first;
}

View5 view5(const aclTensor& tensor) {
  View5 v;
  v.dtype = tensor.dtype;
  v.data = first_element(tensor);
  const size_t rank = tensor.shape.size();
  if (rank == 1) {
    v.dims[1] = tensor.shape[0];
    v.strides[1] = tensor.strides[0];
    return v;
  }
  for (size_t i = 0; i < 2; ++i) {
    v.dims[i] = tensor.shape[i];
    v.strides[i] = tensor.strides[i];
  }
  for (size_t i = 2; i < rank; ++i) {
    v.dims[5 - rank + i] = tensor.shape[i];
    v.strides[5 - rank + i] = tensor.strides[i];
  }
  return v;
}

CubeRounding operand_rounding(aclDataType dtype, int64_t cube_math_type) {
  if (cube_math_type == 2) {
    return dtype == ACL_FLOAT16 ? CubeRounding::none : CubeRounding::fp16;
  }
  if (cube_math_type == 4) {
    return CubeRounding::none;
  }
  return cube_rounding(dtype, cube_math_type);
}

namespace {

// Below this many gradOutput elements the sums are too short to pay for waking threads.
constexpr int64_t kParallelElements = int64_t{1} << 16;

}  // namespace

void store_grad_bias(const ConvJob& job) {
  const View5& g = job.grad_output;
  // A channel a task: each sum keeps its order, so the threads change no bit.
  parallel_for(
      g.dims[1],
      [&](int64_t c) {
        double sum = 0;
        for (int64_t n = 0; n < g.dims[0]; ++n) {
          for (int64_t i2 = 0; i2 < g.dims[2]; ++i2) {
            for (int64_t i3 = 0; i3 < g.dims[3]; ++i3) {
              for (int64_t i4 = 0; i4 < g.dims[4]; ++i4) {
                sum += load_float(g.dtype, g.data, g.offset(n, c, i2, i3, i4));
              }
            }
          }
        }
        store_result(job.grad_bias.dtype, sum, job.grad_bias.data, c * job.grad_bias.strides[1]);
      },
      g.numel() >= kParallelElements);
}

void store_grad_bias_lanes(const ConvJob& job, Isa isa) {
  const View5& g = job.grad_output;
  int64_t run = 0;
  const int first = g.trailing_run(2, &run);  // runs over dims first..4, within a channel
  int64_t runs = g.dims[0];
  for (int d = 2; d < first; ++d) {
    runs *= g.dims[d];
  }
  const int64_t bytes = dtype_bits(g.dtype) / 8;
  parallel_for(
      g.dims[1],
      [&](int64_t c) {
        double lanes[kGradBiasLanes] = {};
        float values[kGradBiasLanes];
        for (int64_t r = 0; r < runs; ++r) {
          int64_t offset = c * g.strides[1];
          int64_t rest = r;
          for (int d = first - 1; d >= 2; --d) {
            offset += rest % g.dims[d] * g.strides[d];
            rest /= g.dims[d];
          }
          offset += rest * g.strides[0];
          for (int64_t start = 0; start < run; start += kGradBiasLanes) {
            const int64_t count = std::min(kGradBiasLanes, run - start);
            load_floats(isa, g.dtype, g.data + (offset + start * g.strides[4]) * bytes,
                        g.strides[4], count, values);
            add_floats(values, count, lanes);
          }
        }
        double sum = 0;
        for (double lane : lanes) {
          sum += lane;
        }
        store_result(job.grad_bias.dtype, sum, job.grad_bias.data, c * job.grad_bias.strides[1]);
      },
      g.numel() >= kParallelElements);
}

namespace {

int64_t groups_of(const Call& call) {
  if (call.def().param_index("groups") >= 0) {
    return call.integer("groups");
  }
  return call.tensor("self")->shape[1];  // depthwise: one group per input channel
}

ConvStep step(Pass pass, const aclTensor& a, const aclTensor& b, const aclTensor& out,
              int64_t mode) {
  ConvStep s;
  s.pass = pass;
  s.a = view5(a);
  s.b = view5(b);
  s.out = view5(out);
  s.a_rounding = operand_rounding(a.dtype, mode);
  s.b_rounding = operand_rounding(b.dtype, mode);
  return s;
}

}  // namespace

ConvJob forward_job(const Call& call) {
  const bool depthwise = call.def().param_index("self") >= 0;
  const aclTensor& input = *call.tensor(depthwise ? "self" : "input");
  const aclTensor& weight = *call.tensor("weight");
  const aclTensor& output = *call.tensor(depthwise ? "out" : "output");
  const aclTensor* bias = call.tensor("bias");
  const ConvAttrs attrs = conv_attrs(call);
  const int64_t mode = call.integer("cubeMathType");
  ConvJob job;
  if (numel(input) == 0 || numel(weight) == 0 || numel(output) == 0) {
    return job;
  }
  ConvStep s;
  if (attrs.transposed) {
    job.problem = make_problem(attrs, groups_of(call), output.shape, weight.shape, input.shape);
    s = step(Pass::backward_data, input, weight, output, mode);
  } else {
    job.problem = make_problem(attrs, groups_of(call), input.shape, weight.shape, output.shape);
    s = step(Pass::forward, input, weight, output, mode);
  }
  if (bias != nullptr) {
    // CANN converts bias to the compute dtype: float16 when both operands are FLOAT16 or under
    // USE_FP16, else a type that holds every bias value.
    const bool fp16 = (input.dtype == ACL_FLOAT16 && weight.dtype == ACL_FLOAT16) || mode == 2;
    s.has_bias = true;
    s.bias = view5(*bias);
    s.bias_rounding = fp16 && bias->dtype != ACL_FLOAT16 ? CubeRounding::fp16 : CubeRounding::none;
  }
  job.steps.push_back(s);
  return job;
}

ConvJob backward_job(const Call& call) {
  const aclTensor& grad_output = *call.tensor("gradOutput");
  const aclTensor& input = *call.tensor("input");
  const aclTensor& weight = *call.tensor("weight");
  const std::vector<bool>& mask =
      static_cast<const aclBoolArray*>(call.handle("outputMask"))->values;
  const ConvAttrs attrs = conv_attrs(call);
  const int64_t mode = call.integer("cubeMathType");
  const int64_t groups = call.integer("groups");
  ConvJob job;
  // The convolution's x is input (transposed: gradOutput), its y gradOutput (transposed: input).
  const aclTensor& x = attrs.transposed ? grad_output : input;
  const aclTensor& y = attrs.transposed ? input : grad_output;
  job.problem = make_problem(attrs, groups, x.shape, weight.shape, y.shape);
  const aclTensor* grad_input = call.tensor("gradInput");
  if (mask[0] && numel(*grad_input) > 0) {
    job.steps.push_back(attrs.transposed
                            ? step(Pass::forward, grad_output, weight, *grad_input, mode)
                            : step(Pass::backward_data, grad_output, weight, *grad_input, mode));
  }
  const aclTensor* grad_weight = call.tensor("gradWeight");
  if (mask[1] && numel(*grad_weight) > 0) {
    job.steps.push_back(step(Pass::backward_weights, x, y, *grad_weight, mode));
  }
  const aclTensor* grad_bias = call.tensor("gradBias");
  if (mask[2] && numel(*grad_bias) > 0) {
    job.has_grad_bias = true;
    job.grad_output = view5(grad_output);
    job.grad_bias = view5(*grad_bias);
  }
  return job;
}

}  // namespace oa::conv
