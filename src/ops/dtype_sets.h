// The dtype sets the operators' checks accept. `openaclnn list` prints the same sets (through
// ops/catalog.h), so the documentation of the tool cannot drift from the checks.
#pragma once

#include "core/dtype.h"

namespace oa::ops {

// AdaptiveMaxPool2d's self and output.
inline const DtypeSet kPoolForwardDtypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
// Pooling indices (the backward's; the forward writes INT64 only).
inline const DtypeSet kIndexDtypes{ACL_INT32, ACL_INT64};
// ConvTbcBackward's gradWeight: the float types or one of the two 8-bit types.
inline const DtypeSet kGradWeightDtypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_HIFLOAT8,
                                        ACL_FLOAT8_E4M3FN};

}  // namespace oa::ops
