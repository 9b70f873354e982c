// The checks aclnnConvTbc and aclnnConvTbcBackward share (SPEC sections 8 and 11), each producing
// its code and a message naming the operator, the parameter, the rule and the values.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "aclnn/aclnn_base.h"
#include "core/checks.h"

namespace oa::tbc {

// Each tensor's dtype is FLOAT, FLOAT16 or BF16.
aclnnStatus check_float_dtypes(const char* op, std::initializer_list<Named> tensors);

// gradWeight's dtype equals weight's, or is HIFLOAT8 or FLOAT8_E4M3FN.
aclnnStatus check_grad_weight_dtype(const char* op, Named grad_weight, Named weight);

// Each tensor's format is ND or NCL (`sequences`, which include bias: CANN's system tests pass an
// NCL bias), or ND (`vectors`).
aclnnStatus check_formats(const char* op, std::initializer_list<Named> sequences,
                          std::initializer_list<Named> vectors);

// Each of `sequences` has rank 3, each of `vectors` rank 1.
aclnnStatus check_ranks(const char* op, std::initializer_list<Named> sequences,
                        std::initializer_list<Named> vectors);

// The sizes shared by the forward and the backward: x (T, B, Cin) and weight (K, Cin, Cout) agree
// on Cin, bias (Cout) on Cout, K >= 1, pad >= 0 (no upper cap: CANN's system tests use pad 1037).
aclnnStatus check_channels_and_pad(const char* op, Named x, Named weight, Named bias, int64_t pad);

// t (T + 2 pad - K + 1, B, Cout) has that shape, which needs T + 2 pad - K + 1 >= 1 (and to fit in
// 64 bits).
aclnnStatus check_output_shape(const char* op, Named t, Named x, Named weight, int64_t pad);

// cubeMathType is 0..3, and not USE_FP16 (2) when one of the products' operands is BF16 (bias is
// converted, not multiplied, so it is not one of them).
aclnnStatus check_cube_math_type(const char* op, int8_t cube_math_type,
                                 std::initializer_list<Named> inputs);

}  // namespace oa::tbc
