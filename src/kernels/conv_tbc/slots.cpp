#include "kernels/conv_tbc/slots.h"

#include "runtime/error.h"

namespace oa::tbc {

aclnnStatus gemm_failure(const char* op) {
  return failf(ACLNN_ERR_INNER,
               "%s: oneDNN failed to run a matrix product planned by GetWorkspaceSize", op);
}

}  // namespace oa::tbc
