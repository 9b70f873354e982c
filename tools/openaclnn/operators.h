// Runs one operator of the catalog (src/ops/catalog.h) on host arrays through the public two-phase
// API, with output shapes and dtypes defaulting to what the operator implies.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "array.h"
#include "ops/catalog.h"

namespace oa::tool {

// The scalar attributes; an unset one takes the default that `openaclnn list` shows.
struct Attributes {
  std::optional<int64_t> reduction;                 // default 1 (mean), as PyTorch's
  std::optional<float> beta;                        // default 1.0
  std::optional<int64_t> pad;                       // default 0
  std::optional<int64_t> cube_math_type;            // default 0 (KEEP_DTYPE)
  std::optional<std::vector<int64_t>> output_size;  // required by AdaptiveMaxPool2d
};

struct OpCall {
  std::map<std::string, Array> inputs;            // by parameter name; every input of the op
  std::map<std::string, aclDataType> out_dtypes;  // overrides of the default output dtypes
  Attributes attributes;
};

// Every output of the op by parameter name. Throws UsageError when the library rejects the call
// (with the API's name, the code and the library's message).
std::map<std::string, Array> run_operator(const ops::OpInfo& op, const OpCall& call);

// The catalog operator named `name`, matched loosely: "SmoothL1LossBackward",
// "smooth_l1_loss_backward" and "aclnnSmoothL1LossBackward" are the same. UsageError listing the
// operators when there is none.
const ops::OpInfo& find_operator(const std::string& name);

// The command-line option of an attribute ("--cube-math-type") and the value run_operator uses
// when it is not given ("mean"; "required" when there is none).
std::string attribute_option(const std::string& name);
std::string attribute_default(const std::string& name);

}  // namespace oa::tool
