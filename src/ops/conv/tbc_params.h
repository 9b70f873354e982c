// What the ConvTbc definitions share to describe their calls (core/op/definition.h): the pad and
// cubeMathType attributes, a parameter's spec by name, and the output length.
#pragma once

#include <cstdint>
#include <string>

#include "core/op/build.h"
#include "core/op/definition.h"

namespace oa::conv {

inline Param pad_param() {
  return build::integer("pad", "int64 >= 0, zeros on both ends of T", {}, 0);
}

inline Param cube_math_type_param() {
  return build::integer(
      "cubeMathType", "int8: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32",
      {{"KEEP_DTYPE", 0}, {"ALLOW_FP32_DOWN_PRECISION", 1}, {"USE_FP16", 2}, {"USE_HF32", 3}}, 0);
}

inline ArgSpec& arg_of(const OpDef& def, CallSpec* spec, const std::string& name) {
  return spec->args[static_cast<size_t>(def.param_index(name))];
}

inline const ArgSpec& arg_of(const OpDef& def, const CallSpec& spec, const std::string& name) {
  return spec.args[static_cast<size_t>(def.param_index(name))];
}

// Tout = T + 2 pad - K + 1, or 0 when that does not fit in 64 bits.
inline int64_t tbc_tout(int64_t t, int64_t pad, int64_t k) {
  int64_t tout = 0;
  if (__builtin_mul_overflow(pad, 2, &tout) || __builtin_add_overflow(tout, t, &tout) ||
      __builtin_sub_overflow(tout, k - 1, &tout)) {
    return 0;
  }
  return tout;
}

}  // namespace oa::conv
