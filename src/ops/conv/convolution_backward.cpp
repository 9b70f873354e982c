// aclnnConvolutionBackward (SPEC section 12): the gradients of aclnnConvolution with respect to
// its input, weight and bias, from gradOutput, as outputMask asks: gradInput (input's shape),
// gradWeight (weight's), gradBias (gradOutput dim 1). An output whose mask entry is false may be
// null; when given it is checked but never written.
#include "aclnnop/aclnn_convolution_backward.h"

#include "core/op/build.h"
#include "core/op/rules.h"
#include "ops/conv/conv_checks.h"
#include "ops/conv/conv_params.h"
#include "ops/conv/impls.h"
#include "ops/conv/tbc_params.h"

namespace oa::conv {
namespace {

// The outputs outputMask asks for (and those given anyway, with a shape): gradInput as input,
// gradWeight as weight, gradBias (gradOutput dim 1) in gradOutput's dtype, ND; the others none.
bool infer(const OpDef& def, CallSpec* spec) {
  const ArgSpec& grad_output = arg_of(def, *spec, "gradOutput");
  const ArgSpec& input = arg_of(def, *spec, "input");
  const ArgSpec& weight = arg_of(def, *spec, "weight");
  const ArgSpec& mask = arg_of(def, *spec, "outputMask");
  if (grad_output.null || input.null || weight.null || mask.null || mask.bools.size() != 3 ||
      grad_output.tensor.shape.size() < 2) {
    return false;
  }
  const TensorSpec bias_like(Shape{}, grad_output.tensor.dtype, ACL_FORMAT_ND);
  const std::pair<const char*, std::pair<Shape, const TensorSpec*>> outputs[3] = {
      {"gradInput", {input.tensor.shape, &input.tensor}},
      {"gradWeight", {weight.tensor.shape, &weight.tensor}},
      {"gradBias", {{grad_output.tensor.shape[1]}, &bias_like}}};
  for (size_t i = 0; i < 3; ++i) {
    ArgSpec& out = arg_of(def, spec, outputs[i].first);
    if (mask.bools[i] || (!out.null && !out.tensor.shape.empty())) {
      set_output(&out, outputs[i].second.first, *outputs[i].second.second);
    } else {
      out.null = true;  // not asked for and not given: none
    }
  }
  return true;
}

// gradOutput, input, weight.
struct Dtypes {
  aclDataType grad_output;
  aclDataType input;
  aclDataType weight;
};

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("ConvolutionBackward", "aclnnop/aclnn_convolution_backward.h",
            "gradients of aclnnConvolution with respect to its input, weight and bias");
    Param bias_sizes = int_array(
        "biasSizes", "[Cout]: the forward bias's shape; read only when a tensor is empty");
    bias_sizes.optional = true;
    d.params = {input("gradOutput", kFloatDtypes, "the forward output's shape"),
                input("input", kFloatDtypes, "(N, Cin, spatial...)"),
                input("weight", kFloatDtypes,
                      "(Cout, Cin / groups, k...); transposed (Cin, Cout / groups, k...)"),
                bias_sizes,
                stride_param(),
                padding_param("one value per spatial dim (2-D: or [top, bottom, left, right])"),
                dilation_param(),
                flag("transposed", "the transposed convolution", false),
                int_array("outputPadding", "one value per spatial dim; all 0 unless transposed"),
                integer("groups", "int32 >= 1", {}, 1),
                bool_array("outputMask", "[gradInput, gradWeight, gradBias]: which to compute"),
                conv_cube_math_type_param(3),
                optional_output("gradInput", kFloatDtypes, "input's shape"),
                optional_output("gradWeight", kFloatDtypes, "weight's shape"),
                optional_output("gradBias", kFloatDtypes, "(gradOutput dim 1), ND")};
    const rules::Names inputs = {"gradOutput", "input", "weight"};
    d.checks = {
        rules::not_null({"gradOutput", "input", "weight", "stride", "padding", "dilation",
                         "outputPadding", "outputMask", "workspaceSize", "executor"}),
        backward_mask(),
        rules::dtype_in({"gradOutput", "input", "weight", "gradInput", "gradWeight", "gradBias"},
                        kFloatDtypes),
        backward_formats(),
        backward_values(),
        conv_cube_math_type(3),
        backward_ranks(),
        backward_grad_output_not_empty(),
        backward_output_shapes(),
        backward_array_lengths(),
        backward_channels(),
        conv_extents("input"),
        backward_spatial(),
        backward_empty(),
        rules::in_device_memory(
            {"gradOutput", "input", "weight", "gradInput", "gradWeight", "gradBias"}),
        rules::disjoint_output("gradInput", inputs, false),
        rules::disjoint_output("gradWeight", {"gradOutput", "input", "weight", "gradInput"}, false),
        rules::disjoint_output("gradBias",
                               {"gradOutput", "input", "weight", "gradInput", "gradWeight"}, false),
    };
    d.infer = infer;
    d.impls = {conv_backward_onednn(), conv_backward_reference()};
    auto call = [&d](Shape x, Shape w, const Geometry& g, const Dtypes& t, std::vector<bool> mask,
                     int64_t cube, aclFormat format = ACL_FORMAT_UNDEFINED) {
      if (format == ACL_FORMAT_UNDEFINED) {
        format = format_for_rank(x.size());
      }
      ConvAttrs attrs = make_attrs(static_cast<int>(x.size() - 2), g.stride, g.padding, g.dilation,
                                   g.transposed, g.output_padding);
      Shape y;
      conv_output(attrs, g.groups, x, w, &y);
      const std::vector<int64_t> op =
          g.transposed ? g.output_padding : std::vector<int64_t>(x.size() - 2, 0);
      return sample(d, {{"gradOutput", tensor(y, t.grad_output, format)},
                        {"input", tensor(x, t.input, format)},
                        {"weight", tensor(w, t.weight, format)},
                        {"biasSizes", ints({y[1]})},
                        {"stride", ints(g.stride)},
                        {"padding", ints(g.padding)},
                        {"dilation", ints(g.dilation)},
                        {"transposed", flag(g.transposed)},
                        {"outputPadding", ints(op)},
                        {"groups", integer(g.groups)},
                        {"outputMask", bools(mask)},
                        {"cubeMathType", integer(cube)}});
    };
    const Dtypes f32{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT};
    const std::vector<bool> all = {true, true, true};
    d.samples = {
        call({2, 4, 6, 5}, {6, 4, 3, 3}, {{1, 2}, {1, 1}, {1, 1}, false, {}, 1}, f32, all, 0),
        // Mixed dtypes, groups 2, [top, bottom, left, right] padding, no gradBias.
        call({1, 4, 7, 7}, {4, 2, 3, 3}, {{2, 1}, {1, 0, 1, 1}, {2, 1}, false, {}, 2},
             {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, {true, true, false}, 1),
        // 1-D BF16 tensors labelled ND under USE_FP16; gradWeight alone.
        call({2, 3, 9}, {4, 3, 3}, {{2}, {1}, {2}, false, {}, 1}, {ACL_BF16, ACL_BF16, ACL_BF16},
             {false, true, false}, 2, ACL_FORMAT_ND),
        // 3-D, groups 2, HF32 operands; gradInput and gradBias.
        call({1, 2, 4, 4, 3}, {4, 1, 2, 2, 2}, {{1, 2, 1}, {1, 0, 1}, {1, 1, 2}, false, {}, 2}, f32,
             {true, false, true}, 3),
        // Transposed 2-D, 1-D (groups 2, outputPadding below the dilation only) and 3-D.
        call({2, 4, 4, 3}, {4, 3, 3, 3}, {{2, 1}, {1, 0}, {1, 1}, true, {1, 0}, 1}, f32, all, 1),
        call({2, 6, 5}, {6, 2, 3}, {{1}, {0}, {2}, true, {1}, 2},
             {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16}, all, 0),
        call({1, 2, 2, 3, 2}, {2, 2, 2, 2, 2},
             {{2, 1, 1}, {0, 1, 0}, {1, 1, 1}, true, {1, 0, 0}, 1}, {ACL_BF16, ACL_BF16, ACL_BF16},
             {true, true, false}, 0),
        // Depthwise with a channel multiplier of 2.
        call({2, 4, 5, 5}, {8, 1, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, false, {}, 4}, f32, all, 0),
        // No batch (gradWeight and gradBias zeros), also transposed.
        call({0, 3, 5, 5}, {4, 3, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, false, {}, 1}, f32, all, 0),
        call({0, 4, 3, 3}, {4, 2, 3, 3}, {{2, 2}, {1, 1}, {1, 1}, true, {0, 0}, 1}, f32, all, 0),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::conv

extern "C" aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight,
    const aclIntArray* biasSizes, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, int groups,
    const aclBoolArray* outputMask, int8_t cubeMathType, aclTensor* gradInput,
    aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(
      oa::conv::definition(),
      {gradOutput, input, weight, biasSizes, stride, padding, dilation, transposed, outputPadding,
       groups, static_cast<const void*>(outputMask), cubeMathType, gradInput, gradWeight, gradBias},
      workspaceSize, executor);
}

extern "C" aclnnStatus aclnnConvolutionBackward(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, const aclrtStream stream) {
  return oa::launch_op(oa::conv::definition(), workspace, workspaceSize, executor, stream);
}
