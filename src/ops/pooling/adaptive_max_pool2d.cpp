// aclnnAdaptiveMaxPool2d (SPEC section 11): adaptive 2-D max pooling with the argmax indices the
// backward operator consumes.
#include "aclnnop/aclnn_adaptive_max_pool2d.h"

#include "core/op/build.h"
#include "core/op/rules.h"
#include "core/values.h"
#include "ops/pooling/impls.h"
#include "ops/pooling/pool_spec.h"
#include "runtime/error.h"

namespace oa::pooling {
namespace {

const DtypeSet kSelfDtypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const char* const kOutputShape = "self's leading dims followed by outputSize";

const std::vector<int64_t>& output_size(const Call& call) {
  return static_cast<const aclIntArray*>(call.handle("outputSize"))->values;
}

Check output_size_values() {
  return rules::custom("outputSize: two values (Ho, Wo), each >= 1",
                       [](const Call& call) {
                         const std::vector<int64_t>& v = output_size(call);
                         if (v.size() != 2) {
                           return failf(ACLNN_ERR_PARAM_INVALID,
                                        "%s: outputSize must have 2 values (Ho, Wo), got %zu %s",
                                        call.op(), v.size(), shape_string(v).c_str());
                         }
                         if (v[0] < 1 || v[1] < 1) {
                           return failf(ACLNN_ERR_PARAM_INVALID,
                                        "%s: outputSize values must be >= 1, got %s", call.op(),
                                        shape_string(v).c_str());
                         }
                         return ACLNN_SUCCESS;
                       },
                       {{"outputSize of one value",
                         [](const OpDef& def, CallSpec* spec) {
                           std::vector<int64_t>& v = arg_of(def, spec, "outputSize").ints;
                           v.resize(1);
                           return true;
                         },
                         ACLNN_ERR_PARAM_INVALID,
                         {"outputSize must have 2 values (Ho, Wo)", "got 1"}},
                        {"outputSize of three values",
                         [](const OpDef& def, CallSpec* spec) {
                           arg_of(def, spec, "outputSize").ints.push_back(1);
                           return true;
                         },
                         ACLNN_ERR_PARAM_INVALID,
                         {"outputSize must have 2 values (Ho, Wo)", "got 3 ["}},
                        {"outputSize value 0",
                         [](const OpDef& def, CallSpec* spec) {
                           arg_of(def, spec, "outputSize").ints[1] = 0;
                           return true;
                         },
                         ACLNN_ERR_PARAM_INVALID,
                         {"outputSize values must be >= 1"}},
                        {"outputSize value -3",
                         [](const OpDef& def, CallSpec* spec) {
                           arg_of(def, spec, "outputSize").ints[0] = -3;
                           return true;
                         },
                         ACLNN_ERR_PARAM_INVALID,
                         {"outputSize values must be >= 1", "got [-3, "}}});
}

// A violation changing tensor `name` in a way CANN rejects that the rule's own violation does not
// try.
Violation tensor_violation(std::string what, std::string name,
                           std::function<void(TensorSpec*)> change,
                           std::vector<std::string> message) {
  return {std::move(what),
          [name, change](const OpDef& def, CallSpec* spec) {
            change(&arg_of(def, spec, name).tensor);
            return true;
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

// outputOut has self's dtype: no widening either (a FLOAT16 self with a FLOAT outputOut fails).
Check output_dtype() {
  Check check = rules::same_dtype({"outputOut"}, "self");
  check.violations.push_back({"outputOut FLOAT for a FLOAT16 self",
                              [](const OpDef& def, CallSpec* spec) {
                                if (arg_of(def, *spec, "self").tensor.dtype != ACL_FLOAT16) {
                                  return false;
                                }
                                arg_of(def, spec, "outputOut").tensor.dtype = ACL_FLOAT;
                                return true;
                              },
                              ACLNN_ERR_PARAM_INVALID,
                              {"outputOut dtype must equal self dtype (FLOAT16)", "got FLOAT"}});
  return check;
}

// INT64 indices only (CANN's forward writes no INT32 ones; the backward reads both).
Check indices_dtype() {
  Check check = rules::dtype_in({"indicesOut"}, {ACL_INT64});
  check.violations.push_back(tensor_violation(
      "indicesOut INT32", "indicesOut", [](TensorSpec* t) { t->dtype = ACL_INT32; },
      {"indicesOut dtype must be one of {INT64}", "got INT32"}));
  return check;
}

// ND or NCHW: NHWC (the rule's own violation) is rejected, as read as NCHW its axes would be pooled
// wrongly; so are the private formats.
Check formats(const rules::Names& tensors) {
  Check check = rules::format_in(tensors, {ACL_FORMAT_ND, ACL_FORMAT_NCHW});
  check.violations.push_back(tensor_violation(
      "self format FRACTAL_Z", "self", [](TensorSpec* t) { t->format = ACL_FORMAT_FRACTAL_Z; },
      {"self format must be one of {ND, NCHW}", "got FRACTAL_Z"}));
  return check;
}

Check plane_not_empty() {
  return rules::custom("self H, W >= 1",
                       [](const Call& call) {
                         const Shape& s = call.tensor("self")->shape;
                         if (s[s.size() - 2] < 1 || s[s.size() - 1] < 1) {
                           return failf(
                               ACLNN_ERR_PARAM_INVALID,
                               "%s: self H and W (its last two dims) must be >= 1, got shape %s",
                               call.op(), shape_string(s).c_str());
                         }
                         return ACLNN_SUCCESS;
                       },
                       {{"self H 0",
                         [](const OpDef& def, CallSpec* spec) {
                           TensorSpec& self = arg_of(def, spec, "self").tensor;
                           self.shape[self.shape.size() - 2] = 0;
                           self.strides.clear();
                           return true;
                         },
                         ACLNN_ERR_PARAM_INVALID,
                         {"self H and W (its last two dims) must be >= 1"}}});
}

// A violation that makes output `name`'s last dim one longer than outputSize says.
Violation longer_output(const std::string& name) {
  return {name + " wider than outputSize",
          [name](const OpDef& def, CallSpec* spec) {
            TensorSpec& t = arg_of(def, spec, name).tensor;
            t.shape.back() += 1;
            t.strides.clear();
            return true;
          },
          ACLNN_ERR_PARAM_INVALID,
          {name + " shape must be " + kOutputShape}};
}

Check output_shapes() {
  return rules::custom(std::string("outputOut, indicesOut shape: ") + kOutputShape,
                       [](const Call& call) {
                         Shape expected = call.tensor("self")->shape;
                         expected[expected.size() - 2] = output_size(call)[0];
                         expected[expected.size() - 1] = output_size(call)[1];
                         for (const char* name : {"outputOut", "indicesOut"}) {
                           OA_TRY(check_shape(call.op(), call.named(name), expected, kOutputShape));
                         }
                         return ACLNN_SUCCESS;
                       },
                       {longer_output("outputOut"), longer_output("indicesOut")});
}

// outputOut: self's dtype and format; indicesOut INT64; both self's leading dims then outputSize.
bool infer(const OpDef& def, CallSpec* spec) {
  const ArgSpec& self = arg_of(def, *spec, "self");
  const ArgSpec& size = arg_of(def, *spec, "outputSize");
  const size_t rank = self.tensor.shape.size();
  if (self.null || size.null || size.ints.size() != 2 || size.ints[0] < 1 || size.ints[1] < 1 ||
      (rank != 3 && rank != 4)) {
    return false;
  }
  Shape shape = self.tensor.shape;
  shape[rank - 2] = size.ints[0];
  shape[rank - 1] = size.ints[1];
  arg_of(def, spec, "outputOut") = build::tensor(shape, self.tensor.dtype, self.tensor.format);
  arg_of(def, spec, "indicesOut") = build::tensor(shape, ACL_INT64, self.tensor.format);
  return true;
}

// A sample whose tensors are all channels-last in memory.
CallSpec channels_last_sample(const OpDef& def, CallSpec spec) {
  for (const char* name : {"self", "outputOut", "indicesOut"}) {
    make_channels_last(&arg_of(def, &spec, name).tensor);
  }
  return spec;
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("AdaptiveMaxPool2d", "aclnnop/aclnn_adaptive_max_pool2d.h",
            "adaptive 2-D max pooling, with the index of each maximum within its plane");
    d.params = {
        input("self", kSelfDtypes, "[N, C, H, W] or [C, H, W], H and W >= 1"),
        int_array("outputSize", "(Ho, Wo), each >= 1"),
        output("outputOut", kSelfDtypes, "self's dtype, shape [..., Ho, Wo]"),
        output("indicesOut", {ACL_INT64}, "shape [..., Ho, Wo]: h * W + w of each maximum")};
    const rules::Names tensors = {"self", "outputOut", "indicesOut"};
    d.checks = {
        rules::not_null(
            {"self", "outputSize", "outputOut", "indicesOut", "workspaceSize", "executor"}),
        rules::dtype_in({"self"}, kSelfDtypes),
        output_dtype(),
        indices_dtype(),
        formats(tensors),
        rules::rank_in({"self"}, 3, 4),
        rules::same_rank(tensors),
        output_size_values(),
        plane_not_empty(),
        output_shapes(),
        rules::in_device_memory(tensors),
        rules::disjoint_output("outputOut", {"self", "indicesOut"}, false),
        rules::disjoint_output("indicesOut", {"self"}, false),
    };
    d.infer = infer;
    d.impls = {forward_simd(), forward_reference()};
    d.samples = {
        // Windows that overlap (7 rows into 3, 9 columns into 4).
        sample(d, {{"self", tensor({2, 3, 7, 9})}, {"outputSize", ints({3, 4})}}),
        sample(d, {{"self", tensor({5, 8, 8}, ACL_FLOAT16)}, {"outputSize", ints({4, 4})}}),
        // More outputs than inputs.
        sample(d, {{"self", tensor({1, 2, 5, 5}, ACL_DOUBLE)}, {"outputSize", ints({7, 3})}}),
        // Channels-last memory: short windows, then tall ones (scanned a row of self at a time).
        channels_last_sample(d,
                             sample(d, {{"self", tensor({2, 16, 6, 6}, ACL_BF16, ACL_FORMAT_NCHW)},
                                        {"outputSize", ints({2, 3})}})),
        channels_last_sample(
            d, sample(d, {{"self", tensor({1, 8, 32, 32})}, {"outputSize", ints({2, 2})}})),
        sample(d, {{"self", tensor({0, 3, 4, 4})}, {"outputSize", ints({2, 2})}}),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::pooling

extern "C" aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* outputSize, const aclTensor* outputOut,
    const aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::pooling::definition(), {self, outputSize, outputOut, indicesOut},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAdaptiveMaxPool2d(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::pooling::definition(), workspace, workspaceSize, executor, stream);
}
