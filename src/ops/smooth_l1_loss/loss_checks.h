// The checks the smooth L1 loss and its gradient share (SPEC sections 9 and 11).
#pragma once

#include <cstdint>

#include "aclnn/aclnn_base.h"

namespace oa {

enum class Reduction : int64_t { none = 0, mean = 1, sum = 2 };

// reduction is 0 (none), 1 (mean) or 2 (sum).
aclnnStatus check_reduction(const char* op, int64_t reduction);

// beta >= 0 (NaN fails).
aclnnStatus check_beta(const char* op, float beta);

}  // namespace oa
