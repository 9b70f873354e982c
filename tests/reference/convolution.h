// Random calls of aclnnConvolution and aclnnConvolutionBackward for the conv tests: geometry the
// checks admit (1-D to 3-D, stride 1-3, padding 0-3, dilation 1-3, groups 1, 2 or depthwise,
// transposed with outputPadding, empty batches), dtype mixes, cubeMathType, outputMask, and
// non-contiguous views; and the tests' own float64 reference, written as gathers (each result
// the sum over the terms that reach it), independent of the library's.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/op/definition.h"
#include "support/call.h"

namespace conv_test {

struct Geometry {
  int spatial = 2;
  int64_t n = 1;
  int64_t cin = 1;   // input channels
  int64_t cout = 1;  // output channels
  int64_t groups = 1;
  bool transposed = false;
  int64_t in[3] = {1, 1, 1};
  int64_t k[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};  // both sides
  int64_t dilation[3] = {1, 1, 1};
  int64_t output_padding[3] = {0, 0, 0};

  int64_t out(int d) const;  // the output size of spatial dim d
  Shape input_shape() const;
  Shape weight_shape() const;
  Shape output_shape() const;
  std::string describe() const;
};

// A random geometry the checks admit, with small sizes.
Geometry random_geometry(std::mt19937_64* rng);

struct Dtypes {
  aclDataType input = ACL_FLOAT;
  aclDataType weight = ACL_FLOAT;
  aclDataType bias = ACL_FLOAT;  // forward: ACL_DT_UNDEFINED for none
  aclDataType output = ACL_FLOAT;
};

oa::CallSpec forward_spec(const Geometry& g, const Dtypes& t, int64_t cube_math_type);
// gradOutput has t.output's dtype; gradInput, gradWeight and gradBias those of input, weight and
// bias. An output the mask does not ask for is null when `null_unasked`.
oa::CallSpec backward_spec(const Geometry& g, const Dtypes& t, const std::vector<bool>& mask,
                           int64_t cube_math_type, bool null_unasked);

// Every tensor of spec given a random layout (inputs may be expanded).
void randomize_layouts(const oa::OpDef& def, oa::CallSpec* spec, std::mt19937_64* rng);

// The expected result of each output of a call that has run, from the inputs it holds: value and
// magnitude (the sum of the terms' absolute values) per element, row-major; and the most terms
// any element sums.
struct Expected {
  std::vector<double> value;
  std::vector<double> magnitude;
};
struct Reference {
  std::vector<Expected> outputs;  // one per output parameter, in order (empty when null)
  int64_t terms = 0;
};
Reference reference(const oa::OpDef& def, const oa::CallSpec& spec, const oa_test::TestCall& call);

// Runs spec through the oneDNN implementation (named, so that it runs on the small problems it
// would leave to the library's reference) on random normals and on small integers, checking both
// against the reference (exactly on the integers, whose sums float32 holds exactly); with log,
// each launch runs at debug log level and its log is appended to *log.
void run_onednn_case(const oa::OpDef& def, const oa::CallSpec& spec, std::mt19937_64* rng,
                     const std::string& what, std::string* log = nullptr);

// Whether oneDNN, as this process runs it, multiplies bfloat16 natively (AVX512-BF16 in its
// effective ISA, which DNNL_MAX_CPU_ISA can hold below the CPU's): where the library's BF16
// passes read bfloat16 operands.
bool onednn_native_bf16();

// Compares the outputs of call with the reference: each within float32 accumulation error over
// `terms` terms plus one rounding to its dtype, or (exact) equal to the reference rounded once.
void expect_matches(const oa::OpDef& def, const oa::CallSpec& spec, const oa_test::TestCall& call,
                    bool exact, const std::string& what);

}  // namespace conv_test
