// Elementwise operators as their formulas: an operator gives a scalar formula and a vector formula
// (core/elementwise_op-inl.h makes the SIMD entry points from the latter), and gets from here its
// two implementations: "simd" (the elementwise engine: broadcasting, strides, dtype mixes, the
// register and block paths, streaming output stores) and "reference" (a plain loop over the
// broadcast index). A loss is the same with a reduction attribute: none keeps the terms, mean and
// sum reduce them into a 0-d result, deterministically (core/reduce.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "core/op/definition.h"

namespace oa {

// The attributes a formula reads, as float32 values (beta, a scale, ...).
struct ElementwiseParams {
  float v[4] = {};
};

// One result from inputs in[0..inputs), each widened to float32; computed in float32.
using ScalarFormula = float (*)(const ElementwiseParams& params, const float* in);

// The SIMD entry points of one formula (OA_ELEMENTWISE_EXPORT makes them), each dispatched to the
// best target Highway finds: `dense` over contiguous (or one-value) operands of any FLOAT, FLOAT16
// and BF16 mix, ptr[0] the output; `blocks` over contiguous float32 arrays; `sum` adds the results
// of n contiguous elements to acc as accumulate (core/reduce.h) does.
struct ElementwiseKernels {
  void (*dense)(const ElementwiseParams& params, const aclDataType* dtype, char* const* ptr,
                const int64_t* stride, int64_t n, bool stream);
  void (*blocks)(const ElementwiseParams& params, const float* const* in, float* out, int64_t n,
                 bool stream);
  double (*sum)(const ElementwiseParams& params, const aclDataType* dtype, const char* const* ptr,
                int64_t n, double acc);
};

struct ElementwiseOp {
  std::vector<std::string> inputs;  // broadcast together
  std::string output;
  ScalarFormula scalar = nullptr;
  const ElementwiseKernels& (*kernels)() = nullptr;
  // The formula's parameters for a call whose inputs broadcast to `shape`.
  std::function<ElementwiseParams(const Call& call, const Shape& shape)> params;
  // A loss: the name of its reduction attribute (0 none, 1 mean, 2 sum); empty for plain
  // elementwise operators.
  std::string reduction;
  // A loss whose reduced result is not the mean or the sum (KlDiv's batchmean): what the sum of the
  // terms is divided by, for a call whose inputs broadcast to `shape`. Null: the element count for
  // reduction 1 (mean), 1 for any other reducing value (sum).
  std::function<double(const Call& call, const Shape& shape)> divisor;
};

enum class Reduction : int64_t { none = 0, mean = 1, sum = 2 };

// The two implementations, fastest first.
Impl elementwise_simd(const ElementwiseOp& op);
Impl elementwise_reference(const ElementwiseOp& op);

// OpDef::infer for such an operator: the output has the broadcast shape (or is 0-d for a loss's
// mean or sum) and the promotion of the inputs' dtypes.
std::function<bool(const OpDef&, CallSpec*)> elementwise_infer(const ElementwiseOp& op);

// OpDef::tolerance: the reductions' other order of additions in double.
std::function<Tolerance(const OpDef&, const CallSpec&)> elementwise_tolerance(
    const ElementwiseOp& op);

}  // namespace oa
