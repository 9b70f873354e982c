// The checks of aclnnConvolutionBackward (conv_checks.h), in CANN's order.
#include <algorithm>
#include <utility>

#include "base/dtype.h"
#include "core/lists.h"
#include "ops/conv/conv_checks.h"
#include "ops/conv/geometry.h"
#include "ops/conv/tbc_params.h"
#include "runtime/error.h"

namespace oa::conv {
namespace {

long long ll(int64_t value) { return static_cast<long long>(value); }

const std::vector<bool>& mask_of(const Call& call) {
  return static_cast<const aclBoolArray*>(call.handle("outputMask"))->values;
}

const char* const kOutputs[3] = {"gradInput", "gradWeight", "gradBias"};

bool empty_call(const Call& call) {
  return numel(*call.tensor("input")) == 0 || numel(*call.tensor("weight")) == 0 ||
         numel(*call.tensor("gradOutput")) == 0;
}

// The convolution's x and y channels (transposed: gradOutput is its x, input its y).
int64_t x_channels(const Call& call) {
  return call.tensor(call.flag("transposed") ? "gradOutput" : "input")->shape[1];
}
int64_t y_channels(const Call& call) {
  return call.tensor(call.flag("transposed") ? "input" : "gradOutput")->shape[1];
}

aclnnStatus length_in(const Call& call, const char* name, size_t spatial, bool or_four) {
  const std::vector<int64_t>& v = *array_values(call, name);
  if (v.size() == spatial || (or_four && spatial == 2 && v.size() == 4)) {
    return ACLNN_SUCCESS;
  }
  return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s must have %zu values%s, got %zu values %s",
               call.op(), name, spatial, or_four && spatial == 2 ? " (or 4)" : "", v.size(),
               shape_string(v).c_str());
}

}  // namespace

Check backward_mask() {
  std::vector<Violation> violations = {
      {"outputMask of 2 values",
       [](const OpDef& def, CallSpec* spec) {
         arg_of(def, spec, "outputMask").bools.resize(2);
         return true;
       },
       ACLNN_ERR_PARAM_NULLPTR,
       {"outputMask must have 3 values (gradInput, gradWeight, gradBias), got 2"}}};
  for (int i = 0; i < 3; ++i) {
    const std::string name = kOutputs[i];
    violations.push_back(
        {name + " null while outputMask asks for it",
         [i, name](const OpDef& def, CallSpec* spec) {
           if (!arg_of(def, *spec, "outputMask").bools[static_cast<size_t>(i)]) {
             return false;
           }
           arg_of(def, spec, name).null = true;
           return true;
         },
         ACLNN_ERR_PARAM_NULLPTR,
         {name + " must not be null when outputMask[" + std::to_string(i) + "] is true"}});
  }
  return rules::custom(
      "outputMask 3 values; each output it asks for not null (161001)",
      [](const Call& call) {
        const std::vector<bool>& mask = mask_of(call);
        if (mask.size() != 3) {
          return failf(ACLNN_ERR_PARAM_NULLPTR,
                       "%s: outputMask must have 3 values (gradInput, gradWeight, gradBias), got "
                       "%zu",
                       call.op(), mask.size());
        }
        for (int i = 0; i < 3; ++i) {
          if (mask[static_cast<size_t>(i)] && call.tensor(kOutputs[i]) == nullptr) {
            return failf(ACLNN_ERR_PARAM_NULLPTR,
                         "%s: %s must not be null when outputMask[%d] is true", call.op(),
                         kOutputs[i], i);
          }
        }
        return ACLNN_SUCCESS;
      },
      std::move(violations));
}

Check backward_formats() {
  const rules::Names names = {"gradOutput", "input", "weight", "gradInput", "gradWeight"};
  std::vector<Violation> violations;
  for (const std::string& name : names) {
    violations.push_back({name + " format NHWC",
                          [name](const OpDef& def, CallSpec* spec) {
                            ArgSpec& arg = arg_of(def, spec, name);
                            if (arg.null) {
                              return false;
                            }
                            arg.tensor.format = ACL_FORMAT_NHWC;
                            return true;
                          },
                          ACLNN_ERR_PARAM_INVALID,
                          {name + " format must be", "got NHWC"}});
  }
  violations.push_back({"input of rank 2",
                        [](const OpDef& def, CallSpec* spec) {
                          TensorSpec& x = arg_of(def, spec, "input").tensor;
                          x.shape.resize(2);
                          x.strides.clear();
                          return true;
                        },
                        ACLNN_ERR_PARAM_INVALID,
                        {"input rank must be 3, 4 or 5, got 2"}});
  violations.push_back({"gradBias NCHW, not transposed",
                        [](const OpDef& def, CallSpec* spec) {
                          ArgSpec& bias = arg_of(def, spec, "gradBias");
                          if (bias.null || spec_transposed(def, *spec)) {
                            return false;
                          }
                          bias.tensor.format = ACL_FORMAT_NCHW;
                          return true;
                        },
                        ACLNN_ERR_PARAM_INVALID,
                        {"gradBias format must be ND when transposed is false, got NCHW"}});
  return rules::custom(
      "gradOutput, input, weight, gradInput, gradWeight: rank 3 ND or NCL, rank 4 NCHW, rank 5 "
      "NCDHW; gradBias ND when not transposed",
      [names](const Call& call) {
        for (const std::string& name : names) {
          const aclTensor* t = call.tensor(name.c_str());
          if (t == nullptr) {
            continue;
          }
          const size_t rank = t->shape.size();
          if (rank < 3 || rank > 5) {
            return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s rank must be 3, 4 or 5, got %zu",
                         call.op(), name.c_str(), rank);
          }
          const aclFormat expected = format_for_rank(rank);
          if (t->format != expected && !(rank == 3 && t->format == ACL_FORMAT_ND)) {
            return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s format must be %s%s for rank %zu, got %s",
                         call.op(), name.c_str(), format_name(expected).c_str(),
                         rank == 3 ? " or ND" : "", rank, format_name(t->format).c_str());
          }
        }
        const aclTensor* bias = call.tensor("gradBias");
        if (bias != nullptr && !call.flag("transposed") && bias->format != ACL_FORMAT_ND) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: gradBias format must be ND when transposed is false, got %s", call.op(),
                       format_name(bias->format).c_str());
        }
        return ACLNN_SUCCESS;
      },
      std::move(violations));
}

Check backward_values() {
  return rules::custom(
      "stride >= 1, padding >= 0, dilation >= 1; outputPadding >= 0 and below stride or "
      "dilation (transposed), all 0 (not transposed); groups >= 1",
      [](const Call& call) {
        struct Rule {
          const char* name;
          int64_t min;
        };
        for (const Rule& r : {Rule{"stride", 1}, Rule{"padding", 0}, Rule{"dilation", 1}}) {
          const std::vector<int64_t>& v = *array_values(call, r.name);
          for (size_t k = 0; k < v.size(); ++k) {
            if (v[k] < r.min) {
              return failf(ACLNN_ERR_PARAM_INVALID,
                           "%s: %s values must be >= %lld, got %s[%zu] = %lld", call.op(), r.name,
                           ll(r.min), r.name, k, ll(v[k]));
            }
          }
        }
        const std::vector<int64_t>& op = *array_values(call, "outputPadding");
        const std::vector<int64_t>& stride = *array_values(call, "stride");
        const std::vector<int64_t>& dilation = *array_values(call, "dilation");
        for (size_t k = 0; k < op.size(); ++k) {
          if (!call.flag("transposed")) {
            if (op[k] != 0) {
              return failf(ACLNN_ERR_PARAM_INVALID,
                           "%s: outputPadding must be all 0 when transposed is false, got "
                           "outputPadding[%zu] = %lld",
                           call.op(), k, ll(op[k]));
            }
            continue;
          }
          if (op[k] < 0) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: outputPadding values must be >= 0, got outputPadding[%zu] = %lld",
                         call.op(), k, ll(op[k]));
          }
          if (k < stride.size() && k < dilation.size() && op[k] >= stride[k] &&
              op[k] >= dilation[k]) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: outputPadding must be below stride or dilation, got "
                         "outputPadding[%zu] = %lld, stride %lld, dilation %lld",
                         call.op(), k, ll(op[k]), ll(stride[k]), ll(dilation[k]));
          }
        }
        const int64_t groups = call.integer("groups");
        if (groups < 1) {
          return failf(ACLNN_ERR_PARAM_INVALID, "%s: groups must be >= 1, got %lld", call.op(),
                       ll(groups));
        }
        return ACLNN_SUCCESS;
      },
      {with_ints("stride 0", "stride", [](auto* v) { (*v)[0] = 0; },
                 {"stride values must be >= 1, got stride[0] = 0"}),
       with_ints("padding -1", "padding", [](auto* v) { (*v)[0] = -1; },
                 {"padding values must be >= 0, got padding[0] = -1"}),
       with_ints("dilation 0", "dilation", [](auto* v) { (*v)[0] = 0; },
                 {"dilation values must be >= 1"}),
       with_output_padding("outputPadding 1 when not transposed", false,
                           [](const OpDef&, const CallSpec&) { return 1; },
                           {"outputPadding must be all 0 when transposed is false"}),
       with_output_padding("outputPadding -1 when transposed", true,
                           [](const OpDef&, const CallSpec&) { return -1; },
                           {"outputPadding values must be >= 0"}),
       with_output_padding("outputPadding at stride and dilation", true, at_stride_and_dilation,
                           {"outputPadding must be below stride or dilation"}),
       with_integer("groups 0", "groups", 0, {"groups must be >= 1, got 0"})});
}

Check backward_ranks() {
  auto lower = [](std::string name) {
    return edit(name + " one rank lower",
                [name](const OpDef& def, CallSpec* spec) {
                  TensorSpec& t = arg_of(def, spec, name).tensor;
                  if (t.shape.size() < 4) {
                    return false;
                  }
                  t.shape.pop_back();
                  t.strides.clear();
                  t.format = format_for_rank(t.shape.size());
                  return true;
                },
                {name + " rank must equal input rank"});
  };
  return rules::custom("gradOutput and weight of input's rank",
                       [](const Call& call) {
                         const size_t rank = call.tensor("input")->shape.size();
                         for (const char* name : {"gradOutput", "weight"}) {
                           const size_t own = call.tensor(name)->shape.size();
                           if (own != rank) {
                             return failf(ACLNN_ERR_PARAM_INVALID,
                                          "%s: %s rank must equal input rank (%zu), got %zu",
                                          call.op(), name, rank, own);
                           }
                         }
                         return ACLNN_SUCCESS;
                       },
                       {lower("gradOutput"), lower("weight")});
}

Check backward_grad_output_not_empty() {
  return rules::custom(
      "gradOutput not empty when input and weight are not",
      [](const Call& call) {
        const aclTensor& g = *call.tensor("gradOutput");
        if (numel(*call.tensor("input")) != 0 && numel(*call.tensor("weight")) != 0 &&
            numel(g) == 0) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: gradOutput must not be empty when input and weight are not, got shape "
                       "%s",
                       call.op(), shape_string(g.shape).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {edit("gradOutput with no batch",
            [](const OpDef& def, CallSpec* spec) {
              TensorSpec& g = arg_of(def, spec, "gradOutput").tensor;
              if (numel(arg_of(def, *spec, "input").tensor.shape) == 0 ||
                  numel(arg_of(def, *spec, "weight").tensor.shape) == 0) {
                return false;
              }
              g.shape[0] = 0;
              g.strides.clear();
              return true;
            },
            {"gradOutput must not be empty when input and weight are not"})});
}

Check backward_output_shapes() {
  return rules::custom(
      "gradInput input's shape, gradWeight weight's, gradBias (gradOutput dim 1)",
      [](const Call& call) {
        const aclTensor* gi = call.tensor("gradInput");
        if (gi != nullptr) {
          OA_TRY(check_same_shape(call.op(), {gi, "gradInput"}, call.named("input")));
        }
        const aclTensor* gw = call.tensor("gradWeight");
        if (gw != nullptr) {
          OA_TRY(check_same_shape(call.op(), {gw, "gradWeight"}, call.named("weight")));
        }
        const aclTensor* gb = call.tensor("gradBias");
        if (gb != nullptr) {
          const Shape expected = {call.tensor("gradOutput")->shape[1]};
          OA_TRY(check_shape(call.op(), {gb, "gradBias"}, expected, "(gradOutput dim 1)"));
        }
        return ACLNN_SUCCESS;
      },
      {with_dim("gradInput one longer", "gradInput", 0, [](int64_t v) { return v + 1; },
                {"gradInput"}),
       with_dim("gradWeight one longer", "gradWeight", 0, [](int64_t v) { return v + 1; },
                {"gradWeight"}),
       with_dim("gradBias one longer", "gradBias", 0, [](int64_t v) { return v + 1; },
                {"gradBias shape must be (gradOutput dim 1)"})});
}

Check backward_array_lengths() {
  return rules::custom(
      "stride and dilation rank - 2 values; padding and outputPadding rank - 2 (or 4 for 2-D)",
      [](const Call& call) {
        const size_t spatial = call.tensor("input")->shape.size() - 2;
        OA_TRY(length_in(call, "stride", spatial, false));
        OA_TRY(length_in(call, "dilation", spatial, false));
        OA_TRY(length_in(call, "padding", spatial, true));
        return length_in(call, "outputPadding", spatial, true);
      },
      {with_ints("stride one longer", "stride", [](auto* v) { v->push_back(1); },
                 {"stride must have"}),
       with_ints("dilation one longer", "dilation", [](auto* v) { v->push_back(1); },
                 {"dilation must have"}),
       with_ints("padding of 2 x dims + 1 values", "padding",
                 [](auto* v) { v->resize(2 * v->size() + 1, 0); }, {"padding must have"}),
       with_ints("outputPadding of 2 x dims + 1 values", "outputPadding",
                 [](auto* v) { v->resize(2 * v->size() + 1, 0); }, {"outputPadding must have"})});
}

Check backward_channels() {
  return rules::custom(
      "with x, y the convolution's input and output (transposed: gradOutput, input): y channels "
      "= weight dim 0, x channels = weight dim 1 x groups (unless both 0), weight dim 0 a "
      "multiple of groups",
      [](const Call& call) {
        const Shape& ws = call.tensor("weight")->shape;
        const int64_t groups = call.integer("groups");
        const int64_t cx = x_channels(call);
        const int64_t cy = y_channels(call);
        const char* x = call.flag("transposed") ? "gradOutput" : "input";
        const char* y = call.flag("transposed") ? "input" : "gradOutput";
        if (cy != ws[0]) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s channels (%lld) must equal weight dim 0 (%lld); weight shape %s",
                       call.op(), y, ll(cy), ll(ws[0]), shape_string(ws).c_str());
        }
        if ((cx != 0 || ws[1] != 0) && times_groups(ws[1], groups) != cx) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s channels (%lld) must equal weight dim 1 (%lld) x groups (%lld)",
                       call.op(), x, ll(cx), ll(ws[1]), ll(groups));
        }
        if (ws[0] % groups != 0) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: weight dim 0 (%lld) must be a multiple of groups (%lld)", call.op(),
                       ll(ws[0]), ll(groups));
        }
        return ACLNN_SUCCESS;
      },
      {edit("weight with one more filter",
            [](const OpDef& def, CallSpec* spec) {
              arg_of(def, spec, "weight").tensor.shape[0] += 1;
              arg_of(def, spec, "weight").tensor.strides.clear();
              return true;
            },
            {"channels", "must equal weight dim 0"}),
       with_integer("groups 2 over the same weight", "groups", 2,
                    {"must equal weight dim 1", "x groups (2)"})});
}

Check backward_spatial() {
  return rules::custom(
      "input not empty and not transposed: the kernel fits the padded input; gradOutput's "
      "spatial dims the forward's output sizes for input's",
      [](const Call& call) {
        const aclTensor& x = *call.tensor("input");
        const Shape& ws = call.tensor("weight")->shape;
        const Shape& gs = call.tensor("gradOutput")->shape;
        const ConvAttrs a = conv_attrs(call);
        for (int d = 0; d < a.spatial; ++d) {
          const auto i = static_cast<size_t>(d + 2);
          const int64_t span = a.dilation[d] * (ws[i] - 1) + 1;
          if (!a.transposed && numel(x) != 0 && x.shape[i] + a.pad_l[d] + a.pad_r[d] < span) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: the padded input (%lld in spatial dim %d, padding %lld + %lld) must "
                         "be at least the dilated kernel (%lld)",
                         call.op(), ll(x.shape[i]), d, ll(a.pad_l[d]), ll(a.pad_r[d]), ll(span));
          }
          const int64_t expected = output_size(a, d, x.shape[i], ws[i]);
          if (gs[i] != expected) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: gradOutput spatial dim %d must be %lld (the %sconvolution's output "
                         "size for input %s, weight %s), got shape %s",
                         call.op(), d, ll(expected), a.transposed ? "transposed " : "",
                         shape_string(x.shape).c_str(), shape_string(ws).c_str(),
                         shape_string(gs).c_str());
          }
        }
        return ACLNN_SUCCESS;
      },
      {with_dim("gradOutput one longer in its last dim", "gradOutput", 2,
                [](int64_t v) { return v + 1; }, {"gradOutput spatial dim 0 must be"})});
}

Check backward_empty() {
  auto bias_sizes = [](std::string what, std::function<void(ArgSpec*)> change,
                       std::string message) {
    return Violation{what,
                     [change](const OpDef& def, CallSpec* spec) {
                       const bool empty = numel(arg_of(def, *spec, "input").tensor.shape) == 0 ||
                                          numel(arg_of(def, *spec, "weight").tensor.shape) == 0;
                       if (!empty || !arg_of(def, *spec, "outputMask").bools[2]) {
                         return false;
                       }
                       change(&arg_of(def, spec, "biasSizes"));
                       return true;
                     },
                     ACLNN_ERR_PARAM_INVALID,
                     {message}};
  };
  return rules::custom(
      "input, weight or gradOutput empty: biasSizes [gradOutput dim 1] (transposed: [weight dim "
      "1 x groups]) when outputMask[2]; input with no batch or no channels when outputMask[0]",
      [](const Call& call) {
        if (!empty_call(call)) {
          return ACLNN_SUCCESS;
        }
        const std::vector<bool>& mask = mask_of(call);
        if (mask[2]) {
          const std::vector<int64_t>* sizes = array_values(call, "biasSizes");
          if (sizes == nullptr) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: biasSizes must not be null when a tensor is empty and "
                         "outputMask[2] is true",
                         call.op());
          }
          const Shape& ws = call.tensor("weight")->shape;
          const int64_t channels = call.flag("transposed") ? ws[1] * call.integer("groups")
                                                           : call.tensor("gradOutput")->shape[1];
          if (sizes->size() != 1 || (*sizes)[0] != channels) {
            return failf(ACLNN_ERR_PARAM_INVALID, "%s: biasSizes must be [%lld], got %s", call.op(),
                         ll(channels), shape_string(*sizes).c_str());
          }
        }
        const Shape& xs = call.tensor("input")->shape;
        if (mask[0] && numel(xs) == 0 && xs[0] != 0 && xs[1] != 0) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: an empty input must have no batch or no channels when outputMask[0] "
                       "is true, got shape %s",
                       call.op(), shape_string(xs).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {bias_sizes(
           "biasSizes null", [](ArgSpec* a) { a->null = true; },
           "biasSizes must not be null when a tensor is empty"),
       bias_sizes(
           "biasSizes one larger",
           [](ArgSpec* a) { a->ints = {a->ints.empty() ? 1 : a->ints[0] + 1}; },
           "biasSizes must be [")});
}

}  // namespace oa::conv
