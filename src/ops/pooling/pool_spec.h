// What the pooling definitions share to describe calls (core/op/spec.h): a parameter's spec by name
// and the channels-last layout of a sample's tensor.
#pragma once

#include <string>

#include "core/op/definition.h"

namespace oa::pooling {

inline ArgSpec& arg_of(const OpDef& def, CallSpec* spec, const std::string& name) {
  return spec->args[static_cast<size_t>(def.param_index(name))];
}

inline const ArgSpec& arg_of(const OpDef& def, const CallSpec& spec, const std::string& name) {
  return spec.args[static_cast<size_t>(def.param_index(name))];
}

// The strides of an [N, C, H, W] tensor whose channels are innermost in memory (NHWC memory under
// an NCHW view).
inline void make_channels_last(TensorSpec* t) {
  const Shape& s = t->shape;
  t->strides = {s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
}

}  // namespace oa::pooling
