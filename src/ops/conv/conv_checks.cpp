// The checks of aclnnConvolution and aclnnConvDepthwise2d (conv_checks.h), and the violation
// builders all three definitions use.
#include "ops/conv/conv_checks.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "base/dtype.h"
#include "ops/conv/geometry.h"
#include "ops/conv/tbc_params.h"
#include "runtime/error.h"

namespace oa::conv {
namespace {

long long ll(int64_t value) { return static_cast<long long>(value); }

bool transposed(const Call& call) {
  return call.def().param_index("transposed") >= 0 && call.flag("transposed");
}

// Fails naming array `name` when value k of it breaks `rule` (its words: "> 0").
template <typename Ok>
aclnnStatus each_value(const Call& call, const char* name, const char* rule, Ok ok) {
  const std::vector<int64_t>& values = *array_values(call, name);
  for (size_t k = 0; k < values.size(); ++k) {
    if (!ok(values[k])) {
      return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s values must be %s, got %s[%zu] = %lld in %s",
                   call.op(), name, rule, name, k, ll(values[k]), shape_string(values).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus length_is(const Call& call, const char* name, size_t expected, const char* what) {
  const std::vector<int64_t>& values = *array_values(call, name);
  if (values.size() != expected) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: %s must have %s, got %zu values %s", call.op(), name,
                 what, values.size(), shape_string(values).c_str());
  }
  return ACLNN_SUCCESS;
}

}  // namespace

aclFormat format_for_rank(size_t rank) {
  return rank == 3 ? ACL_FORMAT_NCL : rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
}

Violation edit(std::string what, std::function<bool(const OpDef&, CallSpec*)> change,
               std::vector<std::string> message, int code) {
  return {std::move(what),
          [change](const OpDef& def, CallSpec* spec) {
            if (!change(def, spec)) {
              return false;
            }
            if (def.infer) {
              def.infer(def, spec);
            }
            return true;
          },
          code, std::move(message)};
}

Violation with_dim(std::string what, std::string name, int dim,
                   std::function<int64_t(int64_t)> value, std::vector<std::string> message) {
  return {std::move(what),
          [name, dim, value](const OpDef& def, CallSpec* spec) {
            ArgSpec& arg = arg_of(def, spec, name);
            if (arg.null || static_cast<int>(arg.tensor.shape.size()) <= dim) {
              return false;
            }
            arg.tensor.shape[static_cast<size_t>(dim)] =
                value(arg.tensor.shape[static_cast<size_t>(dim)]);
            arg.tensor.strides.clear();
            return true;
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

Violation with_ints(std::string what, std::string name,
                    std::function<void(std::vector<int64_t>*)> change,
                    std::vector<std::string> message) {
  return {std::move(what),
          [name, change](const OpDef& def, CallSpec* spec) {
            ArgSpec& arg = arg_of(def, spec, name);
            if (arg.null || arg.ints.empty()) {
              return false;
            }
            change(&arg.ints);
            return true;
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

bool spec_transposed(const OpDef& def, const CallSpec& spec) {
  return def.param_index("transposed") >= 0 && arg_of(def, spec, "transposed").integer != 0;
}

Violation with_output_padding(std::string what, bool transposed,
                              std::function<int64_t(const OpDef&, const CallSpec&)> value,
                              std::vector<std::string> message) {
  return {std::move(what),
          [transposed, value](const OpDef& def, CallSpec* spec) {
            ArgSpec& op = arg_of(def, spec, "outputPadding");
            if (spec_transposed(def, *spec) != transposed || op.null || op.ints.empty()) {
              return false;
            }
            op.ints[0] = value(def, *spec);
            return true;
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

int64_t at_stride_and_dilation(const OpDef& def, const CallSpec& spec) {
  return std::max(arg_of(def, spec, "stride").ints[0], arg_of(def, spec, "dilation").ints[0]);
}

Violation with_integer(std::string what, std::string name, int64_t value,
                       std::vector<std::string> message) {
  return {std::move(what),
          [name, value](const OpDef& def, CallSpec* spec) {
            arg_of(def, spec, name).integer = value;
            return true;
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

Check output_padding_present() {
  return rules::custom(
      "outputPadding not null when transposed",
      [](const Call& call) {
        if (call.flag("transposed") && call.handle("outputPadding") == nullptr) {
          return failf(ACLNN_ERR_PARAM_NULLPTR,
                       "%s: outputPadding must not be null when transposed is true", call.op());
        }
        return ACLNN_SUCCESS;
      },
      {{"outputPadding null when transposed",
        [](const OpDef& def, CallSpec* spec) {
          if (!spec_transposed(def, *spec)) {
            return false;
          }
          arg_of(def, spec, "outputPadding").null = true;
          return true;
        },
        ACLNN_ERR_PARAM_NULLPTR,
        {"outputPadding must not be null when transposed is true"}}});
}

Check conv_bias_shape() {
  return rules::custom(
      "bias rank 1 with (transposed ? weight dim 1 x groups : weight dim 0) elements",
      [](const Call& call) {
        const aclTensor* bias = call.tensor("bias");
        if (bias == nullptr) {
          return ACLNN_SUCCESS;
        }
        const Shape& ws = call.tensor("weight")->shape;
        const int64_t groups = call.integer("groups");
        if (call.flag("transposed") &&
            (bias->shape.size() != 1 || bias->shape[0] != times_groups(ws[1], groups))) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: bias must be 1-D with weight dim 1 x groups (%lld x %lld) elements "
                       "when transposed, got shape %s; weight shape %s",
                       call.op(), ll(ws[1]), ll(groups), shape_string(bias->shape).c_str(),
                       shape_string(ws).c_str());
        }
        if (!call.flag("transposed") && (bias->shape.size() != 1 || bias->shape[0] != ws[0])) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: bias must be 1-D with %lld elements (weight dim 0), got shape %s; "
                       "weight shape %s",
                       call.op(), ll(ws[0]), shape_string(bias->shape).c_str(),
                       shape_string(ws).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {with_dim("bias one element longer", "bias", 0, [](int64_t c) { return c + 1; },
                {"bias must be 1-D with", "got shape"}),
       {"bias of rank 2",
        [](const OpDef& def, CallSpec* spec) {
          ArgSpec& bias = arg_of(def, spec, "bias");
          if (bias.null) {
            return false;
          }
          bias.tensor.shape.insert(bias.tensor.shape.begin(), 1);
          bias.tensor.strides.clear();
          return true;
        },
        ACLNN_ERR_PARAM_INVALID,
        {"bias must be 1-D with"}}});
}

Check conv_array_lengths() {
  return rules::custom(
      "stride, dilation rank - 2 values; padding rank - 2 (or two per dim: 1-D not transposed, "
      "2-D); outputPadding rank - 2 when transposed",
      [](const Call& call) {
        const size_t spatial = call.tensor("input")->shape.size() - 2;
        const std::string dims = std::to_string(spatial) + " values (one per spatial dim)";
        OA_TRY(length_is(call, "stride", spatial, dims.c_str()));
        OA_TRY(length_is(call, "dilation", spatial, dims.c_str()));
        const bool t = call.flag("transposed");
        const std::vector<int64_t>& padding = *array_values(call, "padding");
        if (!padding_length_ok(static_cast<int>(spatial), t, padding.size())) {
          const bool two = spatial == 2 || (spatial == 1 && !t);
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: padding must have %zu%s values for a %zu-D%s convolution, got %zu "
                       "values %s",
                       call.op(), spatial, two ? (spatial == 1 ? " or 2" : " or 4") : "", spatial,
                       t ? " transposed" : "", padding.size(), shape_string(padding).c_str());
        }
        if (t) {
          OA_TRY(length_is(call, "outputPadding", spatial, dims.c_str()));
        }
        return ACLNN_SUCCESS;
      },
      {with_ints("stride one value longer", "stride", [](auto* v) { v->push_back(1); },
                 {"stride must have", "values (one per spatial dim)"}),
       with_ints("dilation one value longer", "dilation", [](auto* v) { v->push_back(1); },
                 {"dilation must have"}),
       with_ints("padding of 2 x dims + 1 values", "padding",
                 [](auto* v) { v->resize(2 * v->size() + 1, 0); }, {"padding must have"}),
       {"outputPadding one value longer",
        [](const OpDef& def, CallSpec* spec) {
          if (!spec_transposed(def, *spec)) {
            return false;
          }
          arg_of(def, spec, "outputPadding").ints.push_back(0);
          return true;
        },
        ACLNN_ERR_PARAM_INVALID,
        {"outputPadding must have"}}});
}

Check conv_formats(rules::Names names) {
  std::vector<Violation> violations;
  for (const std::string& name : names) {
    violations.push_back({name + " format ND",
                          [name](const OpDef& def, CallSpec* spec) {
                            arg_of(def, spec, name).tensor.format = ACL_FORMAT_ND;
                            return true;
                          },
                          ACLNN_ERR_PARAM_INVALID,
                          {name + " format must be", "for a rank", "got ND"}});
  }
  return rules::custom(
      "input, weight and output NCL (rank 3), NCHW (rank 4) or NCDHW (rank 5)",
      [names](const Call& call) {
        for (const std::string& name : names) {
          const aclTensor& t = *call.tensor(name.c_str());
          const aclFormat expected = format_for_rank(t.shape.size());
          if (t.format != expected) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: %s format must be %s for a rank %zu tensor, got %s", call.op(),
                         name.c_str(), format_name(expected).c_str(), t.shape.size(),
                         format_name(t.format).c_str());
          }
        }
        return ACLNN_SUCCESS;
      },
      std::move(violations));
}

Check conv_values() {
  return rules::custom(
      "weight spatial dims > 0, stride > 0, dilation > 0, padding >= 0",
      [](const Call& call) {
        const Shape& ws = call.tensor("weight")->shape;
        for (size_t d = 2; d < ws.size(); ++d) {
          if (ws[d] <= 0) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: weight spatial dims must be > 0, got dim %zu = %lld in shape %s",
                         call.op(), d, ll(ws[d]), shape_string(ws).c_str());
          }
        }
        OA_TRY(each_value(call, "stride", "> 0", [](int64_t v) { return v > 0; }));
        OA_TRY(each_value(call, "dilation", "> 0", [](int64_t v) { return v > 0; }));
        return each_value(call, "padding", ">= 0", [](int64_t v) { return v >= 0; });
      },
      {with_dim("weight with a spatial dim 0", "weight", 2, [](int64_t) { return 0; },
                {"weight spatial dims must be > 0, got dim 2 = 0"}),
       with_ints("stride 0", "stride", [](auto* v) { (*v)[0] = 0; },
                 {"stride values must be > 0, got stride[0] = 0"}),
       with_ints("dilation 0", "dilation", [](auto* v) { (*v)[0] = 0; },
                 {"dilation values must be > 0, got dilation[0] = 0"}),
       with_ints("padding -1", "padding", [](auto* v) { (*v)[0] = -1; },
                 {"padding values must be >= 0, got padding[0] = -1"})});
}

namespace {

std::string wide_string(__int128 value) {
  std::string digits;
  for (unsigned __int128 v = value < 0 ? -static_cast<unsigned __int128>(value) : value;
       v != 0 || digits.empty(); v /= 10) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  }
  return value < 0 ? "-" + digits : digits;
}

}  // namespace

Check conv_extents(std::string input) {
  return rules::custom(
      "every spatial dim's extent below 2^63: in + padding and dilation (k - 1) + 1, or "
      "transposed (in - 1) stride + dilation (k - 1) + outputPadding + 1",
      [input](const Call& call) {
        const Shape& xs = call.tensor(input.c_str())->shape;
        const Shape& ws = call.tensor("weight")->shape;
        const ConvAttrs a = conv_attrs(call);
        for (int d = 0; d < a.spatial; ++d) {
          const auto i = static_cast<size_t>(d + 2);
          const __int128 extent = spatial_extent(a, d, xs[i], ws[i]);
          if (extent > std::numeric_limits<int64_t>::max()) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: spatial dim %d reaches %s, past 2^63 - 1 (%s %lld, padding %lld + "
                         "%lld, stride %lld, dilation %lld, kernel %lld%s)",
                         call.op(), d, wide_string(extent).c_str(), input.c_str(), ll(xs[i]),
                         ll(a.pad_l[d]), ll(a.pad_r[d]), ll(a.stride[d]), ll(a.dilation[d]),
                         ll(ws[i]), a.transposed ? ", transposed" : "");
          }
        }
        return ACLNN_SUCCESS;
      },
      {{"padding 2^62 in every dim, or transposed a stride of 2^63 - 1",
        [input](const OpDef& def, CallSpec* spec) {
          if (!spec_transposed(def, *spec)) {
            std::vector<int64_t>& padding = arg_of(def, spec, "padding").ints;
            std::fill(padding.begin(), padding.end(), int64_t{1} << 62);
            return !padding.empty();
          }
          // (in - 1) stride passes 2^63 only where in > 1.
          if (arg_of(def, *spec, input).tensor.shape.at(2) < 2) {
            return false;
          }
          std::vector<int64_t>& stride = arg_of(def, spec, "stride").ints;
          std::fill(stride.begin(), stride.end(), std::numeric_limits<int64_t>::max());
          return true;
        },
        ACLNN_ERR_PARAM_INVALID,
        {"past 2^63 - 1"}}});
}

Check conv_kernel_fits(std::string input) {
  return rules::custom(
      "not transposed, " + input +
          " not empty: in + padding - dilation (k - 1) - 1 >= 0 in every spatial dim",
      [input](const Call& call) {
        const aclTensor& x = *call.tensor(input.c_str());
        if (transposed(call) || numel(x) == 0) {
          return ACLNN_SUCCESS;
        }
        const Shape& ws = call.tensor("weight")->shape;
        const ConvAttrs a = conv_attrs(call);
        for (int d = 0; d < a.spatial; ++d) {
          const auto i = static_cast<size_t>(d + 2);
          // Both below 2^63 (conv_extents).
          const int64_t padded = x.shape[i] + a.pad_l[d] + a.pad_r[d];
          const int64_t span = a.dilation[d] * (ws[i] - 1) + 1;
          if (padded < span) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: the padded %s (%lld + %lld + %lld = %lld in spatial dim %d) must be "
                         "at least the dilated kernel (%lld x (%lld - 1) + 1 = %lld); %s shape %s, "
                         "weight shape %s",
                         call.op(), input.c_str(), ll(x.shape[i]), ll(a.pad_l[d]), ll(a.pad_r[d]),
                         ll(padded), d, ll(a.dilation[d]), ll(ws[i]), ll(span), input.c_str(),
                         shape_string(x.shape).c_str(), shape_string(ws).c_str());
          }
        }
        return ACLNN_SUCCESS;
      },
      {edit("a kernel longer than the padded " + input,
            [input](const OpDef& def, CallSpec* spec) {
              TensorSpec& x = arg_of(def, spec, input).tensor;
              TensorSpec& w = arg_of(def, spec, "weight").tensor;
              if (spec_transposed(def, *spec) || numel(x.shape) == 0) {
                return false;
              }
              const std::vector<int64_t>& padding = arg_of(def, *spec, "padding").ints;
              int64_t pads = 0;
              for (int64_t p : padding) {
                pads += p;
              }
              w.shape.back() = x.shape.back() + 2 * pads + 2;
              w.strides.clear();
              if (def.param_index("kernelSize") >= 0) {
                arg_of(def, spec, "kernelSize").ints.back() = w.shape.back();
              }
              return true;
            },
            {"must be at least the dilated kernel"})});
}

Check conv_groups() {
  return rules::custom("groups > 0",
                       [](const Call& call) {
                         const int64_t groups = call.integer("groups");
                         if (groups <= 0) {
                           return failf(ACLNN_ERR_PARAM_INVALID, "%s: groups must be > 0, got %lld",
                                        call.op(), ll(groups));
                         }
                         return ACLNN_SUCCESS;
                       },
                       {with_integer("groups 0", "groups", 0, {"groups must be > 0, got 0"})});
}

Check conv_channels() {
  return rules::custom(
      "transposed: weight dim 0 = input channels, outputPadding >= 0 and below stride or "
      "dilation, input channels > 0; else weight dim 1 x groups = input channels; weight dim 0 a "
      "multiple of groups",
      [](const Call& call) {
        const Shape& xs = call.tensor("input")->shape;
        const Shape& ws = call.tensor("weight")->shape;
        const int64_t groups = call.integer("groups");
        if (call.flag("transposed")) {
          if (ws[0] != xs[1]) {
            return failf(ACLNN_ERR_PARAM_INVALID,
                         "%s: weight dim 0 (%lld) must equal input channels (%lld) when "
                         "transposed; weight shape %s, input shape %s",
                         call.op(), ll(ws[0]), ll(xs[1]), shape_string(ws).c_str(),
                         shape_string(xs).c_str());
          }
          const std::vector<int64_t>& op = *array_values(call, "outputPadding");
          const std::vector<int64_t>& stride = *array_values(call, "stride");
          const std::vector<int64_t>& dilation = *array_values(call, "dilation");
          for (size_t d = 0; d < op.size(); ++d) {
            if (op[d] >= stride[d] && op[d] >= dilation[d]) {
              return failf(ACLNN_ERR_PARAM_INVALID,
                           "%s: outputPadding must be below stride or dilation, got "
                           "outputPadding[%zu] = %lld, stride %lld, dilation %lld",
                           call.op(), d, ll(op[d]), ll(stride[d]), ll(dilation[d]));
            }
            if (op[d] < 0) {
              return failf(ACLNN_ERR_PARAM_INVALID,
                           "%s: outputPadding must be >= 0, got outputPadding[%zu] = %lld",
                           call.op(), d, ll(op[d]));
            }
          }
        } else if (times_groups(ws[1], groups) != xs[1]) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: input channels (%lld) must equal weight dim 1 (%lld) x groups (%lld); "
                       "input shape %s, weight shape %s",
                       call.op(), ll(xs[1]), ll(ws[1]), ll(groups), shape_string(xs).c_str(),
                       shape_string(ws).c_str());
        }
        if (ws[0] % groups != 0) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: weight dim 0 (%lld) must be a multiple of groups (%lld)", call.op(),
                       ll(ws[0]), ll(groups));
        }
        if (call.flag("transposed") && xs[1] == 0) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: input channels must not be 0 when transposed; input shape %s",
                       call.op(), shape_string(xs).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {edit("input with one more channel",
            [](const OpDef& def, CallSpec* spec) {
              arg_of(def, spec, "input").tensor.shape[1] += 1;
              arg_of(def, spec, "input").tensor.strides.clear();
              return true;
            },
            {"input channels"}),
       with_output_padding(
           "outputPadding at stride and dilation", true, at_stride_and_dilation,
           {"outputPadding must be below stride or dilation, got outputPadding[0] ="}),
       with_output_padding("outputPadding -1", true,
                           [](const OpDef&, const CallSpec&) { return -1; },
                           {"outputPadding must be >= 0, got outputPadding[0] = -1"}),
       {"groups not dividing weight dim 0",
        [](const OpDef& def, CallSpec* spec) {
          // weight (Cout, Cin, ...) with groups Cin... needs a call without bias and with Cout
          // not a multiple of the new groups: groups 2 over a doubled weight dim 1 count.
          ArgSpec& bias = arg_of(def, spec, "bias");
          TensorSpec& x = arg_of(def, spec, "input").tensor;
          TensorSpec& w = arg_of(def, spec, "weight").tensor;
          if (spec_transposed(def, *spec) || !bias.null ||
              arg_of(def, *spec, "groups").integer != 1 || w.shape[0] % 2 == 0) {
            return false;
          }
          x.shape[1] = 2 * w.shape[1];
          x.strides.clear();
          arg_of(def, spec, "groups").integer = 2;
          return true;
        },
        ACLNN_ERR_PARAM_INVALID,
        {"weight dim 0", "must be a multiple of groups (2)"}},
       edit("transposed with no input channels",
            [](const OpDef& def, CallSpec* spec) {
              if (!spec_transposed(def, *spec)) {
                return false;
              }
              arg_of(def, spec, "input").tensor.shape[1] = 0;
              arg_of(def, spec, "input").tensor.strides.clear();
              arg_of(def, spec, "weight").tensor.shape[0] = 0;
              arg_of(def, spec, "weight").tensor.strides.clear();
              return true;
            },
            {"input channels must not be 0 when transposed"})});
}

Check conv_output_shape(std::string input, std::string output) {
  std::vector<Violation> violations = {with_dim(output + " one element longer in its last dim",
                                                output, 2, [](int64_t v) { return v + 1; },
                                                {output + " shape must be"})};
  if (input == "input") {  // aclnnConvolution: a transposed call may infer from an empty input
    violations.push_back(edit("a transposed " + input + " with no elements in its last dim",
                              [input](const OpDef& def, CallSpec* spec) {
                                if (!spec_transposed(def, *spec)) {
                                  return false;
                                }
                                TensorSpec& x = arg_of(def, spec, input).tensor;
                                x.shape.back() = 0;
                                x.strides.clear();
                                return true;
                              },
                              {output + " must be empty when " + input + " or weight is"}));
  }
  return rules::custom(
      output + " shape (N, Cout, the inferred spatial sizes); empty when " + input +
          " or weight is",
      [input, output](const Call& call) {
        const aclTensor& x = *call.tensor(input.c_str());
        const aclTensor& w = *call.tensor("weight");
        const Named out = call.named(output.c_str());
        const ConvAttrs a = conv_attrs(call);
        const bool depthwise = call.def().param_index("groups") < 0;
        // A transposed output's channels beyond int64 match no output: refused as a shape.
        const __int128 channels = depthwise || !a.transposed
                                      ? w.shape[0]
                                      : times_groups(w.shape[1], call.integer("groups"));
        if (channels > INT64_MAX) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s channels, weight dim 1 x groups (%lld x %lld), exceed int64",
                       call.op(), output.c_str(), ll(w.shape[1]), ll(call.integer("groups")));
        }
        Shape expected = {x.shape[0], static_cast<int64_t>(channels)};
        for (int d = 0; d < a.spatial; ++d) {
          const auto i = static_cast<size_t>(d + 2);
          expected.push_back(output_size(a, d, x.shape[i], w.shape[i]));
        }
        OA_TRY(check_shape(call.op(), out, expected, "the convolution's output shape"));
        if ((numel(x) == 0 || numel(w) == 0) && numel(*out.tensor) != 0) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s must be empty when %s or weight is, got %s shape %s; %s shape %s, "
                       "weight shape %s",
                       call.op(), output.c_str(), input.c_str(), output.c_str(),
                       shape_string(out.tensor->shape).c_str(), input.c_str(),
                       shape_string(x.shape).c_str(), shape_string(w.shape).c_str());
        }
        return ACLNN_SUCCESS;
      },
      violations);
}

Check conv_cube_math_type(int64_t max) {
  std::string names = "0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16), 3 (USE_HF32)";
  if (max == 4) {
    names += ", 4 (USE_FP32_ADD)";
  }
  return rules::custom(
      "cubeMathType 0.." + std::to_string(max),
      [max, names](const Call& call) {
        const int64_t mode = call.integer("cubeMathType");
        if (mode < 0 || mode > max) {
          return failf(ACLNN_ERR_PARAM_INVALID, "%s: cubeMathType must be one of %s, got %lld",
                       call.op(), names.c_str(), ll(mode));
        }
        return ACLNN_SUCCESS;
      },
      {with_integer("cubeMathType past the last", "cubeMathType", max + 1,
                    {"cubeMathType must be one of", "got " + std::to_string(max + 1)}),
       with_integer("cubeMathType -1", "cubeMathType", -1, {"got -1"})});
}

Check depthwise_kernel_size() {
  return rules::custom(
      "kernelSize two values equal to weight's last two dims",
      [](const Call& call) {
        const std::vector<int64_t>& ks = *array_values(call, "kernelSize");
        OA_TRY(length_is(call, "kernelSize", 2, "2 values (kH, kW)"));
        const Shape& ws = call.tensor("weight")->shape;
        if (ws.size() >= 2 && (ks[0] != ws[ws.size() - 2] || ks[1] != ws.back())) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: kernelSize %s must equal weight's kernel dims [%lld, %lld]; weight "
                       "shape %s",
                       call.op(), shape_string(ks).c_str(), ll(ws[ws.size() - 2]), ll(ws.back()),
                       shape_string(ws).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {with_ints("kernelSize one larger", "kernelSize", [](auto* v) { (*v)[0] += 1; },
                 {"must equal weight's kernel dims"}),
       with_ints("kernelSize of 3 values", "kernelSize", [](auto* v) { v->push_back(1); },
                 {"kernelSize must have 2 values (kH, kW), got 3 values"})});
}

Check depthwise_array_lengths() {
  return rules::custom(
      "stride, dilation and padding two values each",
      [](const Call& call) {
        for (const char* name : {"stride", "dilation", "padding"}) {
          OA_TRY(length_is(call, name, 2, "2 values (H, W)"));
        }
        return ACLNN_SUCCESS;
      },
      {with_ints("stride of 3 values", "stride", [](auto* v) { v->push_back(1); },
                 {"stride must have 2 values (H, W), got 3"}),
       with_ints("dilation of 1 value", "dilation", [](auto* v) { v->resize(1); },
                 {"dilation must have 2 values (H, W), got 1"}),
       with_ints("padding of 4 values", "padding", [](auto* v) { v->resize(4, 0); },
                 {"padding must have 2 values (H, W), got 4"})});
}

Check depthwise_values() {
  return rules::custom(
      "weight dim 0 > 0, kernel > 0, stride > 0, dilation > 0, padding >= 0, kernel fits (self "
      "not empty), weight dim 1 0 or 1, weight dim 0 a multiple of self's channels, bias weight "
      "dim 0 long",
      [](const Call& call) {
        const Shape& xs = call.tensor("self")->shape;
        const Shape& ws = call.tensor("weight")->shape;
        if (ws[0] <= 0) {
          return failf(ACLNN_ERR_PARAM_INVALID, "%s: weight dim 0 must be > 0, got shape %s",
                       call.op(), shape_string(ws).c_str());
        }
        if (ws[2] <= 0 || ws[3] <= 0) {
          return failf(ACLNN_ERR_PARAM_INVALID, "%s: weight spatial dims must be > 0, got shape %s",
                       call.op(), shape_string(ws).c_str());
        }
        OA_TRY(each_value(call, "stride", "> 0", [](int64_t v) { return v > 0; }));
        OA_TRY(each_value(call, "dilation", "> 0", [](int64_t v) { return v > 0; }));
        OA_TRY(each_value(call, "padding", ">= 0", [](int64_t v) { return v >= 0; }));
        if (ws[1] != 0 && ws[1] != 1) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: weight dim 1 must be 1 (one input channel per filter), got shape %s",
                       call.op(), shape_string(ws).c_str());
        }
        if (xs[1] != 0 && ws[0] % xs[1] != 0) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: weight dim 0 (%lld output channels) must be a multiple of self's "
                       "channels (%lld)",
                       call.op(), ll(ws[0]), ll(xs[1]));
        }
        const aclTensor* bias = call.tensor("bias");
        if (bias != nullptr && bias->shape[0] != ws[0]) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: bias must have weight dim 0 (%lld) elements, got shape %s", call.op(),
                       ll(ws[0]), shape_string(bias->shape).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {with_dim("weight with no filters", "weight", 0, [](int64_t) { return 0; },
                {"weight dim 0 must be > 0"}),
       with_ints("stride 0", "stride", [](auto* v) { (*v)[0] = 0; },
                 {"stride values must be > 0, got stride[0] = 0"}),
       with_ints("dilation 0", "dilation", [](auto* v) { (*v)[1] = 0; },
                 {"dilation values must be > 0, got dilation[1] = 0"}),
       with_ints("padding -1", "padding", [](auto* v) { (*v)[0] = -1; },
                 {"padding values must be >= 0"}),
       with_dim("weight with 2 input channels", "weight", 1, [](int64_t) { return 2; },
                {"weight dim 1 must be 1"}),
       edit("weight dim 0 not a multiple of the channels",
            [](const OpDef& def, CallSpec* spec) {
              TensorSpec& w = arg_of(def, spec, "weight").tensor;
              if (arg_of(def, *spec, "self").tensor.shape[1] < 2) {
                return false;
              }
              w.shape[0] += 1;
              w.strides.clear();
              arg_of(def, spec, "bias").null = true;
              return true;
            },
            {"must be a multiple of self's channels"}),
       with_dim("bias one element longer", "bias", 0, [](int64_t v) { return v + 1; },
                {"bias must have weight dim 0"})});
}

}  // namespace oa::conv
