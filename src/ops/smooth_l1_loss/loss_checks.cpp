#include "ops/smooth_l1_loss/loss_checks.h"

#include "runtime/error.h"

namespace oa {

aclnnStatus check_reduction(const char* op, int64_t reduction) {
  if (reduction < 0 || reduction > 2) {
    return failf(ACLNN_ERR_PARAM_INVALID,
                 "%s: reduction must be 0 (none), 1 (mean) or 2 (sum), got %lld", op,
                 static_cast<long long>(reduction));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus check_beta(const char* op, float beta) {
  if (!(beta >= 0.0f)) {
    return failf(ACLNN_ERR_PARAM_INVALID, "%s: beta must be >= 0, got %g", op,
                 static_cast<double>(beta));
  }
  return ACLNN_SUCCESS;
}

}  // namespace oa
