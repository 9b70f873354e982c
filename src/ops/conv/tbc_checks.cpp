#include "ops/conv/tbc_checks.h"

#include <cstdint>
#include <limits>
#include <utility>

#include "base/dtype.h"
#include "core/checks.h"
#include "ops/conv/tbc_params.h"
#include "runtime/error.h"

namespace oa::conv {
namespace {

long long ll(int64_t value) { return static_cast<long long>(value); }

// A violation that sets dim `dim` of tensor `name` to value(old size, the call).
Violation with_dim(std::string what, std::string name, size_t dim,
                   std::function<int64_t(int64_t, const OpDef&, const CallSpec&)> value,
                   std::vector<std::string> message) {
  return {std::move(what),
          [name, dim, value](const OpDef& def, CallSpec* spec) {
            TensorSpec& t = arg_of(def, spec, name).tensor;
            t.shape[dim] = value(t.shape[dim], def, *spec);
            t.strides.clear();
            return true;
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

// A violation that sets the integer attribute `name` to value.
Violation with_integer(std::string what, std::string name, int64_t value,
                       std::vector<std::string> message) {
  return {std::move(what),
          [name, value](const OpDef& def, CallSpec* spec) {
            arg_of(def, spec, name).integer = value;
            return true;
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

std::string joined(const rules::Names& names) {
  std::string text;
  for (const std::string& name : names) {
    text += (text.empty() ? "" : ", ") + name;
  }
  return text;
}

int64_t plus_one(int64_t size, const OpDef&, const CallSpec&) { return size + 1; }

}  // namespace

const std::vector<aclFormat>& tbc_formats() {
  static const std::vector<aclFormat> formats = {ACL_FORMAT_ND, ACL_FORMAT_NCL};
  return formats;
}

Check tbc_channels(std::string x) {
  return rules::custom(
      x + " dim 2 (Cin) equal to weight dim 1, bias dim 0 (Cout) equal to weight dim 2",
      [x](const Call& call) {
        const Named xn = call.named(x.c_str());
        const Shape& xs = xn.tensor->shape;
        const Shape& ws = call.tensor("weight")->shape;
        if (xs[2] != ws[1]) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s dim 2 (Cin=%lld) must equal weight dim 1 (Cin=%lld); %s shape %s, "
                       "weight shape %s",
                       call.op(), xn.name, ll(xs[2]), ll(ws[1]), xn.name, shape_string(xs).c_str(),
                       shape_string(ws).c_str());
        }
        const int64_t cout = call.tensor("bias")->shape[0];
        if (cout != ws[2]) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: bias dim 0 (Cout=%lld) must equal weight dim 2 (Cout=%lld); weight "
                       "shape %s",
                       call.op(), ll(cout), ll(ws[2]), shape_string(ws).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {with_dim(x + " with one more channel", x, 2, plus_one,
                {x + " dim 2 (Cin=", "must equal weight dim 1 (Cin="}),
       with_dim("bias with one more channel", "bias", 0, plus_one,
                {"bias dim 0 (Cout=", "must equal weight dim 2 (Cout="})});
}

Check tbc_kernel_size() {
  return rules::custom(
      "weight dim 0 (K) >= 1",
      [](const Call& call) {
        const Shape& ws = call.tensor("weight")->shape;
        if (ws[0] < 1) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: weight dim 0 (the kernel size K) must be >= 1, got %lld; weight shape "
                       "%s",
                       call.op(), ll(ws[0]), shape_string(ws).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {with_dim("weight with K = 0", "weight", 0,
                [](int64_t, const OpDef&, const CallSpec&) { return 0; },
                {"weight dim 0 (the kernel size K) must be >= 1, got 0"})});
}

Check tbc_pad() {
  return rules::custom("pad >= 0",
                       [](const Call& call) {
                         const int64_t pad = call.integer("pad");
                         if (pad < 0) {
                           return failf(ACLNN_ERR_PARAM_INVALID, "%s: pad must be >= 0, got %lld",
                                        call.op(), ll(pad));
                         }
                         return ACLNN_SUCCESS;
                       },
                       {with_integer("pad -1", "pad", -1, {"pad must be >= 0, got -1"})});
}

Check tbc_output_length(std::string t, std::string x) {
  const std::string shape = t + " shape must be (T + 2*pad - K + 1, B, Cout)";
  return rules::custom(
      t + " shape (T + 2*pad - K + 1, B, Cout) with T + 2*pad - K + 1 >= 1",
      [t, x](const Call& call) {
        const Named tn = call.named(t.c_str());
        const Named xn = call.named(x.c_str());
        const Shape& xs = xn.tensor->shape;
        const Shape& ws = call.tensor("weight")->shape;
        const int64_t pad = call.integer("pad");
        int64_t tout = 0;
        if (__builtin_mul_overflow(pad, 2, &tout) || __builtin_add_overflow(tout, xs[0], &tout)) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s length T + 2*pad - K + 1 does not fit in 64 bits: T=%lld, pad=%lld",
                       call.op(), tn.name, ll(xs[0]), ll(pad));
        }
        tout = tout - ws[0] + 1;
        if (tout < 1) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s shape must be (T + 2*pad - K + 1, B, Cout), but T + 2*pad - K + 1 = "
                       "%lld + 2*%lld - %lld + 1 = %lld is below 1 (%s shape %s, weight shape %s); "
                       "got %s shape %s",
                       call.op(), tn.name, ll(xs[0]), ll(pad), ll(ws[0]), ll(tout), xn.name,
                       shape_string(xs).c_str(), shape_string(ws).c_str(), tn.name,
                       shape_string(tn.tensor->shape).c_str());
        }
        const Shape expected = {tout, xs[1], ws[2]};
        if (tn.tensor->shape == expected) {
          return ACLNN_SUCCESS;
        }
        const std::string what = "(T + 2*pad - K + 1, B, Cout) with T=" + std::to_string(xs[0]) +
                                 ", pad=" + std::to_string(pad) + ", K=" + std::to_string(ws[0]) +
                                 ":";
        return check_shape(call.op(), tn, expected, what.c_str());
      },
      {with_dim(t + " one time longer", t, 0, plus_one, {shape + " with T="}),
       with_dim("weight longer than the padded sequence", "weight", 0,
                [x](int64_t, const OpDef& def, const CallSpec& spec) {
                  return arg_of(def, spec, x).tensor.shape[0] +
                         2 * arg_of(def, spec, "pad").integer + 1;
                },
                {shape, "is below 1"}),
       with_integer("pad overflowing", "pad", std::numeric_limits<int64_t>::max(),
                    {t + " length T + 2*pad - K + 1 does not fit in 64 bits"})});
}

Check cube_math_type(rules::Names operands, rules::Names bf16_together) {
  return rules::custom(
      "cubeMathType 0..3, and not 2 (USE_FP16) when one of " + joined(operands) + " is BF16",
      [operands](const Call& call) {
        const int64_t mode = call.integer("cubeMathType");
        if (mode < 0 || mode > 3) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: cubeMathType must be 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 "
                       "(USE_FP16) or 3 (USE_HF32), got %lld",
                       call.op(), ll(mode));
        }
        if (mode == 2) {
          for (const std::string& name : operands) {
            if (call.tensor(name.c_str())->dtype == ACL_BF16) {
              return failf(ACLNN_ERR_PARAM_INVALID,
                           "%s: cubeMathType 2 (USE_FP16) cannot be used with BF16 inputs, got %s "
                           "dtype BF16",
                           call.op(), name.c_str());
            }
          }
        }
        return ACLNN_SUCCESS;
      },
      {with_integer("cubeMathType 4", "cubeMathType", 4,
                    {"cubeMathType must be 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 "
                     "(USE_FP16) or 3 (USE_HF32), got 4"}),
       with_integer("cubeMathType -1", "cubeMathType", -1, {"got -1"}),
       {"USE_FP16 with a BF16 " + bf16_together[0],
        [bf16_together](const OpDef& def, CallSpec* spec) {
          for (const std::string& name : bf16_together) {
            arg_of(def, spec, name).tensor.dtype = ACL_BF16;
          }
          arg_of(def, spec, "cubeMathType").integer = 2;
          return true;
        },
        ACLNN_ERR_PARAM_INVALID,
        {"cubeMathType 2 (USE_FP16) cannot be used with BF16 inputs, got " + operands[0] +
         " dtype BF16"}}});
}

Check grad_weight_dtype() {
  return rules::custom(
      "gradWeight dtype equal to weight's, or HIFLOAT8 or FLOAT8_E4M3FN",
      [](const Call& call) {
        const aclDataType dtype = call.tensor("gradWeight")->dtype;
        const aclDataType weight = call.tensor("weight")->dtype;
        if (dtype == weight || dtype == ACL_HIFLOAT8 || dtype == ACL_FLOAT8_E4M3FN) {
          return ACLNN_SUCCESS;
        }
        return failf(ACLNN_ERR_PARAM_INVALID,
                     "%s: gradWeight dtype must equal weight dtype (%s) or be HIFLOAT8 or "
                     "FLOAT8_E4M3FN, got %s",
                     call.op(), dtype_name(weight).c_str(), dtype_name(dtype).c_str());
      },
      {{"gradWeight of another float dtype than weight",
        [](const OpDef& def, CallSpec* spec) {
          const aclDataType weight = arg_of(def, spec, "weight").tensor.dtype;
          arg_of(def, spec, "gradWeight").tensor.dtype =
              weight == ACL_FLOAT ? ACL_FLOAT16 : ACL_FLOAT;
          return true;
        },
        ACLNN_ERR_PARAM_INVALID,
        {"gradWeight dtype must equal weight dtype", "or be HIFLOAT8 or FLOAT8_E4M3FN"}}});
}

Check not_empty(std::string name) {
  return rules::custom(name + " not empty",
                       [name](const Call& call) {
                         const Named t = call.named(name.c_str());
                         if (numel(*t.tensor) == 0) {
                           return failf(ACLNN_ERR_PARAM_INVALID,
                                        "%s: %s must not be empty, got shape %s", call.op(), t.name,
                                        shape_string(t.tensor->shape).c_str());
                         }
                         return ACLNN_SUCCESS;
                       },
                       {with_dim(name + " with no batch", name, 1,
                                 [](int64_t, const OpDef&, const CallSpec&) { return 0; },
                                 {name + " must not be empty, got shape"})});
}

}  // namespace oa::conv
