// Runs any operator of the library on host arrays, read from its definition
// (core/op/definition.h): inputs and attributes by their CANN names, outputs shaped as the
// definition infers them, both phases as a CANN program runs them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "array.h"
#include "core/op/definition.h"

namespace oa::tool {

struct OpCall {
  std::map<std::string, Array> inputs;            // by parameter name; optional ones may be absent
  std::map<std::string, aclDataType> out_dtypes;  // overrides of the inferred output dtypes
  std::map<std::string, std::string> attributes;  // given on the command line, as text
  // Tensor formats: by parameter name, and one given for all, which a tensor takes when it has
  // that format's rank (any rank for ND and the private formats) and no format of its own.
  // Tensors with neither are ND, except outputs whose inferred format follows an input's.
  std::map<std::string, aclFormat> formats;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  // Outputs the caller will write (by name): one the call leaves null is a UsageError before
  // anything runs.
  std::vector<std::string> wanted;
};

// Every output of the op by parameter name, but those the call leaves null (an outputMask's false
// entries). Throws UsageError when the library rejects the call
// (with the API's name, the code and the library's message) or an attribute does not parse.
std::map<std::string, Array> run_operator(const OpDef& op, const OpCall& call);

// The operator named `name`, matched loosely: "SmoothL1LossBackward", "smooth_l1_loss_backward"
// and "aclnnSmoothL1LossBackward" are the same. UsageError listing the operators when there is
// none.
const OpDef& find_operator(const std::string& name);

// The command-line option of an attribute ("--cube-math-type" for cubeMathType), and the value
// run_operator uses when it is not given ("mean"; "optional" for an attribute that may be null,
// "required" when there is none).
std::string attribute_option(const Param& param);
std::string attribute_default(const Param& param);

}  // namespace oa::tool
