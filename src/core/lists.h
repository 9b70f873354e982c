// aclTensorList, aclScalarList, aclFloatArray and aclBoolArray: what their C API (meta_lists.cpp)
// creates. Lists own their elements. Every live list and array is in a registry, so that a
// destroyed or foreign handle is reported instead of dereferenced.
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclTensorList {
  std::vector<aclTensor*> tensors;  // null entries are absent optional tensors
};

struct aclScalarList {
  std::vector<aclScalar*> scalars;
};

struct aclFloatArray {
  std::vector<float> values;
};

struct aclBoolArray {
  std::vector<bool> values;
};

namespace oa {

// Whether each handle is live (made by its aclCreate* and not yet destroyed). Null is not.
bool is_live(const aclTensorList* list);
bool is_live(const aclScalarList* list);
bool is_live(const aclFloatArray* array);
bool is_live(const aclBoolArray* array);

// The live list that owns tensor (or scalar), or null when none does.
const aclTensorList* owning_list(const aclTensor* tensor);
const aclScalarList* owning_list(const aclScalar* scalar);

}  // namespace oa
