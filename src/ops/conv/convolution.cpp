// aclnnConvolution (SPEC section 12): the 1-D, 2-D and 3-D convolution of input (N, Cin, ...)
// with weight (Cout, Cin / groups, k...) plus an optional bias (Cout), or with transposed the
// transposed convolution (the data gradient of that convolution) with weight (Cin, Cout / groups,
// k...) and bias (Cout). Any mix of FLOAT, FLOAT16 and BF16 tensors, as CANN's code admits on A2.
#include "aclnnop/aclnn_convolution.h"

#include "core/op/build.h"
#include "core/op/rules.h"
#include "ops/conv/conv_checks.h"
#include "ops/conv/conv_params.h"
#include "ops/conv/impls.h"
#include "ops/conv/tbc_params.h"

namespace oa::conv {
namespace {

const std::vector<aclFormat> kBiasFormats = {ACL_FORMAT_ND, ACL_FORMAT_NCL, ACL_FORMAT_NCHW,
                                             ACL_FORMAT_NCDHW};

bool infer(const OpDef& def, CallSpec* spec) {
  const ArgSpec& input = arg_of(def, *spec, "input");
  const ArgSpec& weight = arg_of(def, *spec, "weight");
  if (input.null || weight.null) {
    return false;
  }
  const size_t rank = input.tensor.shape.size();
  ConvAttrs attrs;
  Shape out;
  if (rank < 3 || rank > 5 || weight.tensor.shape.size() != rank ||
      !spec_attrs(def, *spec, static_cast<int>(rank - 2), true, &attrs) ||
      !conv_output(attrs, arg_of(def, *spec, "groups").integer, input.tensor.shape,
                   weight.tensor.shape, &out)) {
    return false;
  }
  set_output(&arg_of(def, spec, "output"), out, input.tensor);
  return true;
}

// The dtypes of one sample: input, weight, bias (ACL_DT_UNDEFINED: none), output.
struct Dtypes {
  aclDataType input;
  aclDataType weight;
  aclDataType bias;
  aclDataType output;
};

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("Convolution", "aclnnop/aclnn_convolution.h",
            "1-D, 2-D or 3-D convolution, grouped, dilated, strided or transposed, with an "
            "optional bias");
    Param output_padding = int_array(
        "outputPadding", "transposed: one value per spatial dim, >= 0, below stride or dilation");
    output_padding.optional = true;
    d.params = {
        input("input", kFloatDtypes, "(N, Cin, spatial...): NCL, NCHW or NCDHW"),
        input("weight", kFloatDtypes,
              "(Cout, Cin / groups, k...); transposed (Cin, Cout / groups, k...)"),
        optional_input("bias", kFloatDtypes, "(Cout), any of the float dtypes"),
        stride_param(),
        padding_param("one value per spatial dim, or two (1-D [left, right] not transposed; "
                      "2-D [top, bottom, left, right])"),
        dilation_param(),
        flag("transposed", "the transposed convolution", false),
        output_padding,
        integer("groups", "int64 >= 1", {}, 1),
        output("output", kFloatDtypes, "(N, Cout, inferred spatial sizes)"),
        conv_cube_math_type_param(4)};
    const rules::Names tensors = {"input", "weight", "bias", "output"};
    d.checks = {
        rules::not_null({"input", "weight", "stride", "padding", "dilation", "output",
                         "workspaceSize", "executor"}),
        output_padding_present(),
        rules::dtype_in({"bias", "input", "weight", "output"}, kFloatDtypes),
        rules::rank_in({"input", "weight", "output"}, 3, 5),
        rules::same_rank({"input", "weight", "output"}),
        conv_bias_shape(),
        conv_array_lengths(),
        conv_formats({"input", "weight", "output"}),
        rules::format_in({"bias"}, kBiasFormats),
        conv_values(),
        conv_extents("input"),
        conv_kernel_fits("input"),
        conv_groups(),
        conv_channels(),
        conv_output_shape("input", "output"),
        conv_cube_math_type(4),
        rules::in_device_memory(tensors),
        rules::disjoint_output("output", {"input", "weight", "bias"}, false),
    };
    d.infer = infer;
    d.impls = {conv_forward_onednn(), conv_forward_reference()};
    auto call = [&d](Shape x, Shape w, const Geometry& g, const Dtypes& t, int64_t cube) {
      const aclFormat format = format_for_rank(x.size());
      const int64_t cout = g.transposed ? w[1] * g.groups : w[0];
      CallSpec spec =
          sample(d, {{"input", tensor(x, t.input, format)},
                     {"weight", tensor(w, t.weight, format)},
                     {"bias", t.bias == ACL_DT_UNDEFINED ? null() : tensor({cout}, t.bias)},
                     {"stride", ints(g.stride)},
                     {"padding", ints(g.padding)},
                     {"dilation", ints(g.dilation)},
                     {"transposed", flag(g.transposed)},
                     {"outputPadding", g.transposed ? ints(g.output_padding) : null()},
                     {"groups", integer(g.groups)},
                     {"output", tensor({1, 1, 1}, t.output, format)},
                     {"cubeMathType", integer(cube)}});
      return spec;
    };
    const Dtypes f32{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT};
    const Dtypes f32_plain{ACL_FLOAT, ACL_FLOAT, ACL_DT_UNDEFINED, ACL_FLOAT};
    d.samples = {
        call({2, 4, 7, 6}, {6, 4, 3, 3}, {{1, 2}, {1, 1}, {1, 1}, false, {}, 1}, f32, 0),
        // float16 operands with a FLOAT bias (converted to float16) and output; groups 2;
        // [top, bottom, left, right] padding; dilation.
        call({1, 4, 7, 7}, {6, 2, 3, 2}, {{2, 1}, {0, 1, 2, 1}, {2, 1}, false, {}, 2},
             {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT}, 1),
        // 1-D BF16 under USE_FP16, [left, right] padding, an odd Cout and no bias.
        call({3, 4, 10}, {5, 4, 3}, {{2}, {2, 1}, {2}, false, {}, 1},
             {ACL_BF16, ACL_BF16, ACL_DT_UNDEFINED, ACL_BF16}, 2),
        // 3-D, groups 2, a BF16 bias, HF32 operands.
        call({1, 2, 4, 5, 4}, {4, 1, 2, 3, 2}, {{1, 2, 1}, {1, 0, 1}, {1, 1, 2}, false, {}, 2},
             {ACL_FLOAT, ACL_FLOAT, ACL_BF16, ACL_FLOAT}, 3),
        // Transposed 2-D with outputPadding; mixed operand dtypes and a FLOAT16 output.
        call({2, 4, 5, 4}, {4, 3, 3, 3}, {{2, 2}, {1, 0}, {1, 1}, true, {1, 0}, 1},
             {ACL_FLOAT, ACL_BF16, ACL_FLOAT, ACL_FLOAT16}, 1),
        // Transposed 1-D, groups 2, outputPadding past the stride but below the dilation.
        call({2, 6, 5}, {6, 2, 3}, {{1}, {0}, {2}, true, {1}, 2}, f32_plain, 0),
        // Transposed 3-D.
        call({1, 2, 3, 3, 2}, {2, 2, 2, 2, 2},
             {{2, 1, 2}, {0, 1, 0}, {1, 1, 1}, true, {1, 0, 0}, 1}, f32, 4),
        // Depthwise with a channel multiplier of 2.
        call({2, 4, 6, 6}, {8, 1, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, false, {}, 4}, f32, 0),
        // One tap over two channels: an output small enough to lie inside bias's storage (where
        // the conformance test puts it to overlap bias).
        call({1, 2, 1}, {4, 2, 1}, {{1}, {0}, {1}, false, {}, 1}, f32, 1),
        // No batch; a zero spatial dim (the padding still gives an output size); transposed
        // without batch.
        call({0, 3, 5, 5}, {4, 3, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, false, {}, 1}, f32, 0),
        call({0, 2, 1, 0}, {3, 2, 1, 1}, {{1, 1}, {2, 2}, {1, 1}, false, {}, 1}, f32_plain, 0),
        call({0, 4, 3, 3}, {4, 2, 3, 3}, {{2, 2}, {1, 1}, {1, 1}, true, {0, 0}, 1}, f32, 0),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::conv

extern "C" aclnnStatus aclnnConvolutionGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
    bool transposed, const aclIntArray* outputPadding, const int64_t groups, aclTensor* output,
    int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::conv::definition(),
                     {input, weight, bias, stride, padding, dilation, transposed, outputPadding,
                      groups, output, cubeMathType},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnConvolution(void* workspace, const uint64_t workspaceSize,
                                        aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::conv::definition(), workspace, workspaceSize, executor, stream);
}
