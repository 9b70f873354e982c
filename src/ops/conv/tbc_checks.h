// The checks aclnnConvTbc and aclnnConvTbcBackward share beyond the core's rules (SPEC sections 8
// and 11), each producing its code and a message naming the operator, the parameter, the rule and
// the values, and each with the violations that make it fail alone on a valid call. `x` names the
// (T, B, Cin) sequence: self in the forward, input in the backward.
#pragma once

#include <string>

#include "core/op/definition.h"
#include "core/op/rules.h"

namespace oa::conv {

// The ND and NCL formats the sequences and weights take (bias too: CANN's system tests pass an
// NCL bias).
// (A function: the definitions are built during static initialisation.)
const std::vector<aclFormat>& tbc_formats();

// x (T, B, Cin) and weight (K, Cin, Cout) agree on Cin, bias (Cout) and weight on Cout.
Check tbc_channels(std::string x);

// K = weight dim 0 >= 1 (CANN rejects K = 0).
Check tbc_kernel_size();

// pad >= 0; no upper cap (CANN's system tests use pad 1037).
Check tbc_pad();

// t has the shape (T + 2 pad - K + 1, B, Cout) of x, weight and pad, which needs
// T + 2 pad - K + 1 >= 1 (and to fit in 64 bits).
Check tbc_output_length(std::string t, std::string x);

// cubeMathType is 0..3, and not USE_FP16 (2) when one of `operands` (the products' operands;
// bias is converted, not multiplied) is BF16. `bf16_together` are the tensors a violation sets to
// BF16 at once: a BF16 operand and those whose dtype must equal it.
Check cube_math_type(rules::Names operands, rules::Names bf16_together);

// gradWeight's dtype equals weight's, or is HIFLOAT8 or FLOAT8_E4M3FN.
Check grad_weight_dtype();

// The named tensor has at least one element.
Check not_empty(std::string name);

}  // namespace oa::conv
