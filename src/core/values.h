// aclScalar and aclIntArray: host values passed to operators.
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclScalar {
  aclDataType dtype = ACL_FLOAT;
  alignas(16) unsigned char bytes[16] = {};  // the value, as dtype's host representation
};

struct aclIntArray {
  std::vector<int64_t> values;
};
