// The validation rules operators share. Each helper checks one rule for the named tensors and, on
// failure, records a message "<op>: <parameter> <rule>, got <values>" and returns the code:
// ACLNN_ERR_PARAM_NULLPTR for null pointers, ACLNN_ERR_PARAM_INVALID for everything else.
// An operator lists its checks in the order of its contract, each wrapped in OA_TRY.
#pragma once

#include <initializer_list>
#include <utility>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "base/dtype.h"
#include "core/tensor.h"

namespace oa {

struct Named {
  const aclTensor* tensor;
  const char* name;
};

aclnnStatus check_not_null(const char* op,
                           std::initializer_list<std::pair<const void*, const char*>> args);

aclnnStatus check_dtype(const char* op, Named t, const DtypeSet& allowed);
aclnnStatus check_same_dtype(const char* op, Named t, Named reference);

aclnnStatus check_format(const char* op, Named t, const std::vector<aclFormat>& allowed);
// All share the first one's format, and it is not a private (hardware-internal) format.
aclnnStatus check_same_public_format(const char* op, const std::vector<Named>& tensors);

aclnnStatus check_rank(const char* op, Named t, int min_rank, int max_rank);
aclnnStatus check_same_rank(const char* op, const std::vector<Named>& tensors);

aclnnStatus check_shape(const char* op, Named t, const Shape& expected, const char* expected_what);
aclnnStatus check_same_shape(const char* op, Named t, Named reference);

// numpy-broadcasts the inputs' shapes into *out; fails naming the first pair that does not.
aclnnStatus check_broadcast(const char* op, const std::vector<Named>& inputs, Shape* out);

// Each tensor's whole view lies inside one live device allocation (SPEC section 2).
aclnnStatus check_in_device_memory(const char* op, const std::vector<Named>& tensors);

// output writes no element twice, and overlaps none of inputs; with allow_in_place, an input that
// is exactly the same view as output is accepted.
aclnnStatus check_output(const char* op, Named output, const std::vector<Named>& inputs,
                         bool allow_in_place);

}  // namespace oa
