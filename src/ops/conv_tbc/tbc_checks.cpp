#include "ops/conv_tbc/tbc_checks.h"

#include <string>

#include "core/dtype.h"
#include "core/executor.h"
#include "ops/dtype_sets.h"
#include "runtime/error.h"

namespace oa::tbc {
namespace {

long long ll(int64_t value) { return static_cast<long long>(value); }

}  // namespace

aclnnStatus check_float_dtypes(const char* op, std::initializer_list<Named> tensors) {
  for (const Named& t : tensors) {
    OA_TRY(check_dtype(op, t, kFloatDtypes));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_grad_weight_dtype(const char* op, Named grad_weight, Named weight) {
  const aclDataType dtype = grad_weight.tensor->dtype;
  if (dtype == weight.tensor->dtype || dtype == ACL_HIFLOAT8 || dtype == ACL_FLOAT8_E4M3FN) {
    return ACLNN_SUCCESS;
  }
  return failf(ACLNN_ERR_PARAM_INVALID,
               "%s: %s dtype must equal %s dtype (%s) or be HIFLOAT8 or FLOAT8_E4M3FN, got %s", op,
               grad_weight.name, weight.name, dtype_name(weight.tensor->dtype).c_str(),
               dtype_name(dtype).c_str());
}

aclnnStatus check_formats(const char* op, std::initializer_list<Named> sequences,
                          std::initializer_list<Named> vectors) {
  for (const Named& t : sequences) {
    OA_TRY(check_format(op, t, {ACL_FORMAT_ND, ACL_FORMAT_NCL}));
  }
  for (const Named& t : vectors) {
    OA_TRY(check_format(op, t, {ACL_FORMAT_ND}));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_ranks(const char* op, std::initializer_list<Named> sequences,
                        std::initializer_list<Named> vectors) {
  for (const Named& t : sequences) {
    OA_TRY(check_rank(op, t, 3, 3));
  }
  for (const Named& t : vectors) {
    OA_TRY(check_rank(op, t, 1, 1));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_channels_and_pad(const char* op, Named x, Named weight, Named bias, int64_t pad) {
  const Shape& xs = x.tensor->shape;
  const Shape& ws = weight.tensor->shape;
  if (xs[2] != ws[1]) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: %s dim 2 (Cin=%lld) must equal %s dim 1 (Cin=%lld); %s shape %s, %s shape %s",
                 op, x.name, ll(xs[2]), weight.name, ll(ws[1]), x.name, shape_string(xs).c_str(),
                 weight.name, shape_string(ws).c_str());
  }
  const int64_t cout = bias.tensor->shape[0];
  if (cout != ws[2]) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: %s dim 0 (Cout=%lld) must equal %s dim 2 (Cout=%lld); %s shape %s", op,
                 bias.name, ll(cout), weight.name, ll(ws[2]), weight.name,
                 shape_string(ws).c_str());
  }
  if (ws[0] < 1) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: %s dim 0 (the kernel size K) must be >= 1, got %lld; %s shape %s", op,
                 weight.name, ll(ws[0]), weight.name, shape_string(ws).c_str());
  }
  if (pad < 0) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: pad must be >= 0, got %lld", op, ll(pad));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_output_shape(const char* op, Named t, Named x, Named weight, int64_t pad) {
  const Shape& xs = x.tensor->shape;
  const Shape& ws = weight.tensor->shape;
  int64_t tout = 0;
  if (__builtin_mul_overflow(pad, 2, &tout) || __builtin_add_overflow(tout, xs[0], &tout)) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: %s length T + 2*pad - K + 1 does not fit in 64 bits: T=%lld, pad=%lld", op,
                 t.name, ll(xs[0]), ll(pad));
  }
  tout = tout - ws[0] + 1;
  if (tout < 1) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: %s shape must be (T + 2*pad - K + 1, B, Cout), but T + 2*pad - K + 1 = %lld "
                 "+ 2*%lld - %lld + 1 = %lld is below 1 (%s shape %s, %s shape %s); got %s shape "
                 "%s",
                 op, t.name, ll(xs[0]), ll(pad), ll(ws[0]), ll(tout), x.name,
                 shape_string(xs).c_str(), weight.name, shape_string(ws).c_str(), t.name,
                 shape_string(t.tensor->shape).c_str());
  }
  const Shape expected = {tout, xs[1], ws[2]};
  if (t.tensor->shape == expected) {
    return ACLNN_SUCCESS;
  }
  const std::string what = "(T + 2*pad - K + 1, B, Cout) with T=" + std::to_string(xs[0]) +
                           ", pad=" + std::to_string(pad) + ", K=" + std::to_string(ws[0]) + ":";
  return check_shape(op, t, expected, what.c_str());
}

aclnnStatus check_cube_math_type(const char* op, int8_t cube_math_type,
                                 std::initializer_list<Named> inputs) {
  if (cube_math_type < 0 || cube_math_type > 3) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: cubeMathType must be 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 "
                 "(USE_FP16) or 3 (USE_HF32), got %d",
                 op, static_cast<int>(cube_math_type));
  }
  if (cube_math_type == 2) {
    for (const Named& t : inputs) {
      if (t.tensor->dtype == ACL_BF16) {
        return failf(ACLNN_ERR_PARAM_INVALID,
                     "%s: cubeMathType 2 (USE_FP16) cannot be used with BF16 inputs, got %s dtype "
                     "BF16",
                     op, t.name);
      }
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace oa::tbc
