// The elementwise losses on the elementwise helper (core/elementwise_op.h): an ElementwiseOp per
// formula, and for losses with optional inputs (BinaryCrossEntropy's weight, ...) one per set of
// present inputs, the call choosing its own.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/elementwise_op.h"
#include "core/op/rules.h"
#include "ops/loss/formulas.h"

namespace oa::loss {

using ParamsOf = std::function<ElementwiseParams(const Call& call, const Shape& shape)>;

ElementwiseOp formula_op(rules::Names inputs, std::string output, Formula formula, ParamsOf params,
                         std::string reduction);

// v[0] = factor / (the number of loss terms, the broadcast element count) for reduction 1 (mean),
// else factor: a gradient's scale.
ParamsOf scale_params(double factor);

// No parameters (the forward terms).
ParamsOf no_params();

// The variants of a loss: one ElementwiseOp per set of present optional inputs (BCE's weight) or
// per value of a flag (KlDiv's logTarget), each call planned with its own.
struct Variants {
  std::vector<ElementwiseOp> ops;
  std::function<size_t(const Call& call)> of_call;
  std::function<size_t(const OpDef& def, const CallSpec& spec)> of_spec;
};

// One op for every call.
Variants single(ElementwiseOp op);

// ops[i] for the calls whose optional[k] is present exactly where bit k of i is set.
Variants by_presence(rules::Names optional, std::vector<ElementwiseOp> ops);

// off or on by the flag attribute `flag`.
Variants by_flag(std::string flag, ElementwiseOp off, ElementwiseOp on);

// The helper's implementations ("simd", then "reference"), each planning the call's variant.
std::vector<Impl> variant_impls(const Variants& variants);

// OpDef::infer: the call's variant's output (core's elementwise_infer).
std::function<bool(const OpDef&, CallSpec*)> variant_infer(const Variants& variants);

// variant_infer with `output` given the dtype of input `source` (BCE with logits: target's).
std::function<bool(const OpDef&, CallSpec*)> variant_infer(const Variants& variants,
                                                           std::string output, std::string source);

}  // namespace oa::loss
