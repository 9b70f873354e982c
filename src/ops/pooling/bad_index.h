// The data error of aclnnAdaptiveMaxPool2dBackward (SPEC sections 5 and 7): an index outside
// [0, H * W). Every implementation checks all indices before it writes anything and reports the
// first bad one in the row-major order of indices' [N, C, Ho, Wo], in these words.
#pragma once

#include <cstdint>

#include "aclnn/aclnn_base.h"
#include "ops/pooling/pool_views.h"

namespace oa::pooling {

struct BadIndex {
  bool found = false;
  int64_t n = 0;
  int64_t c = 0;
  int64_t i = 0;
  int64_t j = 0;
  int64_t value = 0;
};

// The first element of `indices` ([N, C, Ho, Wo] of dims, INT32 or INT64) outside
// [0, H * W); found is false when there is none.
BadIndex find_bad_index(const View& indices, const Dims& dims, aclDataType index_dtype);

// Records the message for `bad` (indices of rank 3 or 4) and returns ACLNN_ERR_RUNTIME_ERROR.
aclnnStatus bad_index_error(const char* op, const BadIndex& bad, int rank, const Dims& dims);

}  // namespace oa::pooling
