// The rules the losses share (CANN's loss checks, docs/compatibility.md "The loss family"). Like
// core/op/rules.h, each knows how to violate itself on a valid call; optional tensors that are
// null are skipped.
#pragma once

#include <string>
#include <vector>

#include "core/op/rules.h"

namespace oa::loss {

// How a loss's result is shaped for a reduction other than none.
enum class ReducedShape {
  scalar,          // 0-d (CANN rejects [1]: MseLoss, L1Loss, SoftMarginLoss)
  scalar_or_one,   // [] or [1] (SmoothL1Loss)
  one_element,     // any shape of one element (CANN's CheckReduceOutShape: BCE, KlDiv)
  first_dim_gone,  // the broadcast shape without its first dim (MseLossOut; 0-d stays 0-d)
};

// A loss's result: the broadcast of the (present) `inputs` for reduction 0, else shaped as
// `reduced`. Fails first when the inputs do not broadcast; with broadcast_checked an earlier check
// has made sure they do, and this one has no violation for it.
Check loss_result(rules::Names inputs, std::string result,
                  ReducedShape reduced = ReducedShape::scalar_or_one,
                  bool broadcast_checked = false);

// The promotion (PyTorch's table) of the present inputs' dtypes exists and is one of `allowed`.
Check promoted_in(rules::Names inputs, DtypeSet allowed);

// The promotion of the present `from` tensors' dtypes can be cast to `to`'s dtype (PyTorch's
// canCast: not from a floating type to an integral one or bool, not from complex to real).
Check can_cast(rules::Names from, std::string to);

// What openaclnn computes on, where CANN also takes integral or DOUBLE tensors: each present tensor
// is FLOAT, FLOAT16 or BF16. `what` names the operator's CANN-only dtypes in the message.
Check computed_dtypes(rules::Names inputs, rules::Names outputs, std::string what);

// Each present tensor's shape broadcasts to reference's (their broadcast is reference's shape).
Check broadcasts_to(rules::Names names, std::string reference);

// Each present tensor's shape broadcasts with reference's (either way).
Check broadcasts_with(rules::Names names, std::string reference);

// The present tensors share the first one's format (any format, as CANN: an elementwise kernel
// does not depend on it).
Check same_format(rules::Names names);

// rules::disjoint_output without in-place (output overlaps none of `inputs`, nor itself), for
// outputs of other sizes than their inputs: each overlap violation puts the smaller of the two
// tensors at the start of the larger one's memory. With one_element (the output always has one
// element), no violation of writing an element twice.
Check disjoint_output(std::string output, rules::Names inputs, bool one_element = false);

// `check` with its violations replaced by one that gives every tensor of `tensors` the dtype
// INT16 (a dtype check that an earlier same-dtype check would otherwise catch first).
Check violated_together(Check check, rules::Names tensors, std::vector<std::string> message);

// A violation giving tensor `name` the dtype `dtype` (where a check's own choice would fail an
// earlier check).
Violation dtype_violation(std::string name, aclDataType dtype);

// `check` for the calls where the optional tensor `optional` is present (a rule CANN applies only
// then); its violations apply to samples that have it.
Check only_with(Check check, std::string optional);

// OpDef::input_values of def: probabilities (a fixed pattern in [0, 1], 0 and 1 among them) for
// the named inputs, where the conformance test's random data would not be valid; with `unless`,
// only in the calls whose flag of that name is false.
std::function<void(const CallSpec&, int, std::vector<double>*)> probability_inputs(
    const OpDef& def, const rules::Names& names, const std::string& unless = "");

// ArgSpec of parameter `name` in a call of def.
ArgSpec* arg_of(const OpDef& def, CallSpec* spec, const std::string& name);
const ArgSpec& arg_of(const OpDef& def, const CallSpec& spec, const std::string& name);

// The reduction attribute of a call spec (0 when the definition has none).
int64_t reduction_of(const OpDef& def, const CallSpec& spec);

// A sample with tensor `name` of another dtype (an output dtype other than the one inferred).
CallSpec with_dtype(const OpDef& def, CallSpec spec, const std::string& name, aclDataType dtype);

}  // namespace oa::loss
