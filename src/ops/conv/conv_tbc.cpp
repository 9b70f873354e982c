// aclnnConvTbc (SPEC section 11): output[t, b, :] = bias + sum over k of self[t + k - pad, b, :] .
// weight[k], with zero padding; the format, pad and cubeMathType rules of section 8. self, weight
// and output share one dtype; bias may have any float dtype (it is converted), as in CANN.
#include "aclnnop/aclnn_convolution.h"

#include "core/op/build.h"
#include "core/op/rules.h"
#include "ops/conv/impls.h"
#include "ops/conv/tbc_checks.h"
#include "ops/conv/tbc_params.h"

namespace oa::conv {
namespace {

// output: (T + 2 pad - K + 1, B, Cout) in self's dtype and format.
bool infer(const OpDef& def, CallSpec* spec) {
  const ArgSpec& self = arg_of(def, *spec, "self");
  const ArgSpec& weight = arg_of(def, *spec, "weight");
  if (self.null || weight.null || self.tensor.shape.size() != 3 ||
      weight.tensor.shape.size() != 3) {
    return false;
  }
  const int64_t tout =
      tbc_tout(self.tensor.shape[0], arg_of(def, *spec, "pad").integer, weight.tensor.shape[0]);
  if (tout < 1) {
    return false;
  }
  arg_of(def, spec, "output") = build::tensor({tout, self.tensor.shape[1], weight.tensor.shape[2]},
                                              self.tensor.dtype, self.tensor.format);
  return true;
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("ConvTbc", "aclnnop/aclnn_convolution.h",
            "1-D convolution over time of a (time, batch, channel) sequence");
    d.params = {input("self", kFloatDtypes, "(T, B, Cin)"),
                input("weight", kFloatDtypes, "(K, Cin, Cout), K >= 1, self's dtype"),
                input("bias", kFloatDtypes, "(Cout), any of the float dtypes (converted)"),
                pad_param(),
                output("output", kFloatDtypes, "(T + 2 pad - K + 1, B, Cout), self's dtype"),
                cube_math_type_param()};
    const rules::Names tensors = {"self", "weight", "bias", "output"};
    d.checks = {
        rules::not_null({"self", "weight", "bias", "output", "workspaceSize", "executor"}),
        rules::dtype_in({"bias", "self"}, kFloatDtypes),
        rules::same_dtype({"weight", "output"}, "self"),
        rules::format_in(tensors, tbc_formats()),
        rules::rank_in({"self", "weight", "output"}, 3, 3),
        rules::rank_in({"bias"}, 1, 1),
        tbc_channels("self"),
        tbc_kernel_size(),
        tbc_pad(),
        tbc_output_length("output", "self"),
        cube_math_type({"self", "weight"}, {"self", "weight", "output"}),
        rules::in_device_memory(tensors),
        rules::disjoint_output("output", {"self", "weight", "bias"}, false),
    };
    d.infer = infer;
    d.impls = {tbc_forward_onednn(), tbc_forward_reference()};
    auto call = [&d](Shape self, Shape weight, int64_t pad, aclDataType dtype, aclDataType bias,
                     int64_t cube_math_type, aclFormat format = ACL_FORMAT_ND) {
      return sample(d, {{"self", tensor(self, dtype, format)},
                        {"weight", tensor(weight, dtype, format)},
                        {"bias", tensor({weight[2]}, bias, format)},
                        {"pad", integer(pad)},
                        {"cubeMathType", integer(cube_math_type)}});
    };
    d.samples = {
        call({6, 2, 3}, {3, 3, 4}, 1, ACL_FLOAT, ACL_FLOAT, 0),
        // Every tensor NCL and a bias of another dtype, as in CANN's system tests.
        call({9, 3, 5}, {4, 5, 7}, 2, ACL_BF16, ACL_FLOAT16, 1, ACL_FORMAT_NCL),
        call({12, 2, 6}, {5, 6, 3}, 2, ACL_FLOAT16, ACL_BF16, 3, ACL_FORMAT_NCL),
        // FLOAT operands rounded to float16 and to HF32; a kernel whose classes fold across the
        // batches.
        call({20, 3, 8}, {7, 8, 5}, 3, ACL_FLOAT, ACL_FLOAT16, 2),
        call({17, 2, 4}, {2, 4, 9}, 0, ACL_FLOAT, ACL_BF16, 3),
        // A pad far beyond the kernel: most rows see only padding.
        call({3, 2, 4}, {3, 4, 4}, 40, ACL_FLOAT, ACL_FLOAT, 1),
        // No batch (nothing to write), no time (every row the bias), no input channels.
        call({4, 0, 3}, {2, 3, 5}, 1, ACL_FLOAT, ACL_FLOAT, 0),
        call({0, 2, 3}, {2, 3, 4}, 1, ACL_BF16, ACL_FLOAT, 0),
        call({5, 2, 0}, {3, 0, 4}, 1, ACL_FLOAT16, ACL_FLOAT16, 0),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::conv

extern "C" aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor* self, const aclTensor* weight,
                                                    const aclTensor* bias, const int64_t pad,
                                                    aclTensor* output, int8_t cubeMathType,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return oa::plan_op(oa::conv::definition(), {self, weight, bias, pad, output, cubeMathType},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnConvTbc(void* workspace, const uint64_t workspaceSize,
                                    aclOpExecutor* executor, const aclrtStream stream) {
  return oa::launch_op(oa::conv::definition(), workspace, workspaceSize, executor, stream);
}
