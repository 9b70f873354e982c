// What each operator takes: its tensors (with the dtype sets its checks accept) and its scalar
// attributes. `openaclnn list` prints it and `openaclnn run` is driven by the names in it.
#pragma once

#include <string>
#include <vector>

#include "core/dtype.h"

namespace oa::ops {

enum class ParamKind { input, output, attribute };

struct OpParam {
  std::string name;  // the CANN parameter name: "gradOutput", "reduction", ...
  ParamKind kind;
  DtypeSet dtypes;   // tensors: the dtypes the checks accept; attributes: empty
  std::string rule;  // shape, dtype relation or value range, in words
};

struct OpInfo {
  std::string name;    // "SmoothL1LossBackward": the API is aclnn<name>GetWorkspaceSize/aclnn<name>
  std::string header;  // "aclnnop/aclnn_smooth_l1_loss_backward.h"
  std::string summary;          // one line
  std::vector<OpParam> params;  // in the order of the GetWorkspaceSize prototype
};

// Every operator of the library, in a fixed order.
const std::vector<OpInfo>& operator_catalog();

}  // namespace oa::ops
