// The checks definitions list, built once: each runs one rule of the contract through the shared
// helpers of core/checks.h (so the messages are alike everywhere) and knows how to violate itself
// on a valid call, for the conformance test. Optional tensors that are null are skipped by every
// rule but not_null (which is not given them).
#pragma once

#include <string>
#include <vector>

#include "core/op/definition.h"

namespace oa::rules {

using Names = std::vector<std::string>;

// Each named parameter is not null; "workspaceSize" and "executor" name the two out-parameters.
Check not_null(Names names);

// Each named tensor's dtype is one of `allowed`.
Check dtype_in(Names names, DtypeSet allowed);

// Each named tensor's dtype equals reference's.
Check same_dtype(Names names, std::string reference);

// Each named tensor's format is one of `allowed`.
Check format_in(Names names, std::vector<aclFormat> allowed);

// The named tensors share the first one's format, and it is not a private hardware format.
Check same_public_format(Names names);

// Each named tensor's rank is in [min_rank, max_rank].
Check rank_in(Names names, int min_rank, int max_rank);

// The named tensors have the first one's rank.
Check same_rank(Names names);

// The integer attribute is one of its parameter's named values.
Check named_value(std::string name);

// The real attribute is >= min (NaN fails).
Check at_least(std::string name, double min);

// The inputs broadcast (numpy rules) and output's shape is their broadcast.
Check broadcast_to(Names inputs, std::string output);

// Each named tensor's shape equals reference's.
Check same_shape(Names names, std::string reference);

// Each named tensor's view lies inside one live device allocation (SPEC section 2).
Check in_device_memory(Names names);

// output writes no element twice and overlaps none of `inputs` (with allow_in_place, an input that
// is exactly output's view is accepted).
Check disjoint_output(std::string output, Names inputs, bool allow_in_place);

// Anything else: the rule in words, the check, and how to violate it.
Check custom(std::string rule, std::function<aclnnStatus(const Call&)> run,
             std::vector<Violation> violations);

}  // namespace oa::rules
