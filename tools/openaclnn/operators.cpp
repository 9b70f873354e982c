#include "operators.h"

#include <algorithm>
#include <functional>
#include <sstream>

#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "core/dtype.h"
#include "core/shape.h"
#include "device.h"
#include "names.h"

namespace oa::tool {
namespace {

using Outputs = std::map<std::string, Array>;

// What one runner needs: the call, the device, and the tensors it creates.
struct Context {
  explicit Context(const OpCall& c) : call(c) {}

  const OpCall& call;
  DeviceSession session;
  DeviceTensors tensors;

  const Array& in(const std::string& name) const { return call.inputs.at(name); }
  aclTensor* upload(const std::string& name) { return tensors.upload(in(name)); }
  // An output tensor: the user's dtype for it when given, else `implied`.
  aclTensor* out(const std::string& name, aclDataType implied, const std::vector<int64_t>& shape) {
    const auto given = call.out_dtypes.find(name);
    return tensors.allocate(given == call.out_dtypes.end() ? implied : given->second, shape);
  }
};

using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// Phase 1 has run with `status`; checks it, then runs phase 2.
void finish(Context& ctx, const std::string& name, aclnnStatus status, uint64_t workspace_size,
            aclOpExecutor* executor, Phase2 phase2) {
  check_status("aclnn" + name + "GetWorkspaceSize", status);
  ctx.session.launch("aclnn" + name, workspace_size, executor, phase2);
}

// The numpy broadcast of the shapes; the first shape when they do not broadcast (the operator's
// check then reports it).
std::vector<int64_t> broadcast_or_first(const std::vector<const Array*>& arrays) {
  Shape shape = arrays.front()->shape;
  for (const Array* a : arrays) {
    Shape next;
    if (!broadcast_shapes(shape, a->shape, &next)) {
      return arrays.front()->shape;
    }
    shape = next;
  }
  return shape;
}

aclDataType promoted(const std::vector<const Array*>& arrays) {
  aclDataType dtype = arrays.front()->dtype;
  for (const Array* a : arrays) {
    dtype = promote_float(dtype, a->dtype);
  }
  return dtype;
}

const char* const kReductionNames[] = {"none", "mean", "sum"};
constexpr int64_t kDefaultReduction = 1;  // mean, as PyTorch's default
constexpr float kDefaultBeta = 1.0F;
constexpr int64_t kDefaultPad = 0;
constexpr int64_t kDefaultCubeMathType = 0;  // KEEP_DTYPE

int64_t reduction(const OpCall& call) {
  return call.attributes.reduction.value_or(kDefaultReduction);
}
float beta(const OpCall& call) { return call.attributes.beta.value_or(kDefaultBeta); }
int64_t pad(const OpCall& call) { return call.attributes.pad.value_or(kDefaultPad); }
int8_t cube_math_type(const OpCall& call) {
  return static_cast<int8_t>(call.attributes.cube_math_type.value_or(kDefaultCubeMathType));
}

Outputs smooth_l1_loss(Context& ctx) {
  const Array& x = ctx.in("self");
  const Array& y = ctx.in("target");
  aclTensor* self = ctx.upload("self");
  aclTensor* target = ctx.upload("target");
  const int64_t r = reduction(ctx.call);
  const std::vector<int64_t> shape =
      r == 1 || r == 2 ? std::vector<int64_t>{} : broadcast_or_first({&x, &y});
  aclTensor* result = ctx.out("result", promoted({&x, &y}), shape);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus status =
      aclnnSmoothL1LossGetWorkspaceSize(self, target, r, beta(ctx.call), result, &ws, &exec);
  finish(ctx, "SmoothL1Loss", status, ws, exec, aclnnSmoothL1Loss);
  return {{"result", ctx.tensors.download(result)}};
}

Outputs smooth_l1_loss_backward(Context& ctx) {
  const Array& g = ctx.in("gradOutput");
  const Array& x = ctx.in("self");
  const Array& y = ctx.in("target");
  aclTensor* grad_output = ctx.upload("gradOutput");
  aclTensor* self = ctx.upload("self");
  aclTensor* target = ctx.upload("target");
  aclTensor* grad_input =
      ctx.out("gradInput", promoted({&g, &x, &y}), broadcast_or_first({&g, &x, &y}));
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus status = aclnnSmoothL1LossBackwardGetWorkspaceSize(
      grad_output, self, target, reduction(ctx.call), beta(ctx.call), grad_input, &ws, &exec);
  finish(ctx, "SmoothL1LossBackward", status, ws, exec, aclnnSmoothL1LossBackward);
  return {{"gradInput", ctx.tensors.download(grad_input)}};
}

// (T + 2 pad - K + 1, B, Cout) when self and weight have rank 3; otherwise self's shape (the
// operator's rank check then reports it).
std::vector<int64_t> conv_output_shape(const Array& x, const Array& w, int64_t pad) {
  if (x.shape.size() != 3 || w.shape.size() != 3) {
    return x.shape;
  }
  return {std::max<int64_t>(x.shape[0] + 2 * pad - w.shape[0] + 1, 0), x.shape[1], w.shape[2]};
}

Outputs conv_tbc(Context& ctx) {
  const Array& x = ctx.in("self");
  const Array& w = ctx.in("weight");
  aclTensor* self = ctx.upload("self");
  aclTensor* weight = ctx.upload("weight");
  aclTensor* bias = ctx.upload("bias");
  const int64_t p = pad(ctx.call);
  aclTensor* output = ctx.out("output", x.dtype, conv_output_shape(x, w, p));
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus status = aclnnConvTbcGetWorkspaceSize(self, weight, bias, p, output,
                                                          cube_math_type(ctx.call), &ws, &exec);
  finish(ctx, "ConvTbc", status, ws, exec, aclnnConvTbc);
  return {{"output", ctx.tensors.download(output)}};
}

Outputs conv_tbc_backward(Context& ctx) {
  const Array& x = ctx.in("input");
  const Array& w = ctx.in("weight");
  const Array& b = ctx.in("bias");
  aclTensor* self = ctx.upload("self");
  aclTensor* input = ctx.upload("input");
  aclTensor* weight = ctx.upload("weight");
  aclTensor* bias = ctx.upload("bias");
  aclTensor* grad_input = ctx.out("gradInput", x.dtype, x.shape);
  aclTensor* grad_weight = ctx.out("gradWeight", w.dtype, w.shape);
  aclTensor* grad_bias = ctx.out("gradBias", b.dtype, b.shape);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus status = aclnnConvTbcBackwardGetWorkspaceSize(
      self, input, weight, bias, pad(ctx.call), cube_math_type(ctx.call), grad_input, grad_weight,
      grad_bias, &ws, &exec);
  finish(ctx, "ConvTbcBackward", status, ws, exec, aclnnConvTbcBackward);
  return {{"gradInput", ctx.tensors.download(grad_input)},
          {"gradWeight", ctx.tensors.download(grad_weight)},
          {"gradBias", ctx.tensors.download(grad_bias)}};
}

Outputs adaptive_max_pool2d(Context& ctx) {
  const Array& x = ctx.in("self");
  if (!ctx.call.attributes.output_size) {
    throw UsageError("AdaptiveMaxPool2d needs --output-size H,W");
  }
  const std::vector<int64_t>& size = *ctx.call.attributes.output_size;
  std::vector<int64_t> shape = x.shape;
  if (shape.size() >= 2 && size.size() == 2) {
    shape[shape.size() - 2] = size[0];
    shape[shape.size() - 1] = size[1];
  }
  aclTensor* self = ctx.upload("self");
  aclTensor* out = ctx.out("outputOut", x.dtype, shape);
  aclTensor* indices = ctx.out("indicesOut", ACL_INT64, shape);
  aclIntArray* output_size = aclCreateIntArray(size.data(), size.size());
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus status =
      aclnnAdaptiveMaxPool2dGetWorkspaceSize(self, output_size, out, indices, &ws, &exec);
  aclDestroyIntArray(output_size);
  finish(ctx, "AdaptiveMaxPool2d", status, ws, exec, aclnnAdaptiveMaxPool2d);
  return {{"outputOut", ctx.tensors.download(out)}, {"indicesOut", ctx.tensors.download(indices)}};
}

Outputs adaptive_max_pool2d_backward(Context& ctx) {
  const Array& x = ctx.in("self");
  aclTensor* grad_output = ctx.upload("gradOutput");
  aclTensor* self = ctx.upload("self");
  aclTensor* indices = ctx.upload("indices");
  aclTensor* grad_input = ctx.out("gradInput", x.dtype, x.shape);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus status = aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
      grad_output, self, indices, grad_input, &ws, &exec);
  finish(ctx, "AdaptiveMaxPool2dBackward", status, ws, exec, aclnnAdaptiveMaxPool2dBackward);
  return {{"gradInput", ctx.tensors.download(grad_input)}};
}

using Runner = Outputs (*)(Context&);

Runner runner(const std::string& name) {
  static const std::map<std::string, Runner> runners = {
      {"SmoothL1Loss", smooth_l1_loss},
      {"SmoothL1LossBackward", smooth_l1_loss_backward},
      {"ConvTbc", conv_tbc},
      {"ConvTbcBackward", conv_tbc_backward},
      {"AdaptiveMaxPool2d", adaptive_max_pool2d},
      {"AdaptiveMaxPool2dBackward", adaptive_max_pool2d_backward},
  };
  const auto found = runners.find(name);
  if (found == runners.end()) {
    throw std::logic_error("openaclnn run: no runner for catalog operator " + name);
  }
  return found->second;
}

}  // namespace

std::map<std::string, Array> run_operator(const ops::OpInfo& op, const OpCall& call) {
  const Runner run = runner(op.name);
  Context ctx(call);
  return run(ctx);
}

const ops::OpInfo& find_operator(const std::string& name) {
  std::string known;
  for (const ops::OpInfo& op : ops::operator_catalog()) {
    if (loose_name(op.name) == loose_name(name) ||
        loose_name("aclnn" + op.name) == loose_name(name)) {
      return op;
    }
    known += (known.empty() ? "" : ", ") + op.name;
  }
  throw UsageError("unknown operator '" + name + "' (operators: " + known + ")");
}

std::string attribute_option(const std::string& name) {
  static const std::map<std::string, std::string> options = {
      {"reduction", "--reduction"},
      {"beta", "--beta"},
      {"pad", "--pad"},
      {"cubeMathType", "--cube-math-type"},
      {"outputSize", "--output-size"},
  };
  return options.at(name);
}

std::string attribute_default(const std::string& name) {
  const std::map<std::string, std::string> defaults = {
      {"reduction", kReductionNames[kDefaultReduction]},
      {"beta", (std::ostringstream() << kDefaultBeta).str()},
      {"pad", std::to_string(kDefaultPad)},
      {"cubeMathType", std::to_string(kDefaultCubeMathType)},
      {"outputSize", "required"},
  };
  return defaults.at(name);
}

}  // namespace oa::tool
