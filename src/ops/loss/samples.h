// The samples the elementwise losses share (their conformance seeds): every dtype and mixes,
// broadcasting, an output dtype of its own, 0-d and empty tensors, rows of 37 or more elements
// so that the SIMD paths run, and each reduction.
#pragma once

#include <string>
#include <vector>

#include "core/op/definition.h"

namespace oa::loss {

// Calls of a loss of self and target with result `output`.
std::vector<CallSpec> pair_samples(const OpDef& def, const std::string& output);

// Calls of a gradient of gradOutput, self and target with result `output`; with one_dtype the
// three inputs of a call share one dtype.
std::vector<CallSpec> gradient_samples(const OpDef& def, const std::string& output, bool one_dtype);

}  // namespace oa::loss
