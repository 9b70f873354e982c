// The smooth L1 loss cases on the tests' tensor builder and call runner (support/call.h): operands
// (a view and, for an input, the codes of its elements), the random shapes, views (permuted,
// stepped, flipped, expanded, offset) and values the randomized tests draw, the calls of both
// operators through their definitions, and the comparison with the float64 reference (float32
// outputs within 4 ulp, float16/bfloat16 within 1 ulp of the reference rounded to the output type;
// NaN exactly where the reference is NaN; nothing written outside the output's view, no input
// changed).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/op/definition.h"
#include "reference/smooth_l1_loss.h"
#include "support/call.h"

namespace sl1_test {

using oa_ref::Dims;

inline std::string dtype_text(aclDataType dtype) { return oa::dtype_name(dtype); }

// A number as printf's %g writes it (std::to_string writes 1e-30 as 0.000000).
inline std::string number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

constexpr aclDataType kFloatTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr float kBetas[] = {0.0f, 1e-30f, 0.5f, 1.0f, 3.0f, std::numeric_limits<float>::infinity()};

// Calls f(dtypes), dtypes a const aclDataType[N], for each of the mixes of N kFloatTypes, in the
// order of N nested loops with the first operand outermost.
template <size_t N, typename F>
void for_each_dtype_mix(F f) {
  constexpr size_t kTypes = std::size(kFloatTypes);
  size_t mixes = 1;
  for (size_t k = 0; k < N; ++k) {
    mixes *= kTypes;
  }
  for (size_t mix = 0; mix < mixes; ++mix) {
    aclDataType dtypes[N];
    size_t rest = mix;
    for (size_t k = N; k-- > 0;) {
      dtypes[k] = kFloatTypes[rest % kTypes];
      rest /= kTypes;
    }
    f(static_cast<const aclDataType*>(dtypes));
  }
}

// A tensor of a case: its parameter's name, its view, and for an input the code of each view
// element (row-major). `shares` names the operand whose storage it lies in (in place), if any.
struct Operand {
  std::string name;
  Dims shape;
  Dims strides;
  int64_t offset = 0;
  aclDataType dtype = ACL_FLOAT;
  std::vector<uint64_t> codes;
  std::string shares;

  oa::TensorSpec spec() const {
    oa::TensorSpec t(shape, dtype);
    t.strides = strides;
    t.offset = offset;
    return t;
  }
  std::string describe() const {
    return name + " " + dtype_text(dtype) + " " + oa::shape_string(shape) + " strides " +
           oa::shape_string(strides) + " offset " + std::to_string(offset) +
           (shares.empty() ? "" : " in " + shares + "'s storage");
  }
};

// The same view as `other`, in its storage (in-place use).
inline Operand alias_of(const Operand& other, const std::string& name) {
  Operand alias = other;
  alias.name = name;
  alias.codes.clear();
  alias.shares = other.name;
  return alias;
}

// How often a random view has each kind of non-contiguity (probabilities).
struct ViewStyle {
  double permute = 0.35;  // dims laid out in memory in a random order (transposes)
  double step = 0.35;     // slices with steps 2 or 3 and padding between rows
  double flip = 0.2;      // negative strides (reversed dims)
  double expand = 0.0;    // zero strides on dims of size > 1 (inputs only)
  double offset = 0.35;   // views starting past the start of their buffer, with slack after

  static ViewStyle contiguous() { return {0.0, 0.0, 0.0, 0.0, 0.0}; }
  static ViewStyle input() { return {0.35, 0.35, 0.2, 0.3, 0.35}; }
};

inline int64_t draw(std::mt19937& rng, int64_t low, int64_t high) {
  return std::uniform_int_distribution<int64_t>(low, high)(rng);
}

inline bool chance(std::mt19937& rng, double p) {
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng) < p;
}

// Draws strides and an offset for shape.
inline void random_view(std::mt19937& rng, const Dims& shape, const ViewStyle& style, Dims* strides,
                        int64_t* offset) {
  const size_t rank = shape.size();
  std::vector<size_t> order(rank);
  std::iota(order.begin(), order.end(), size_t{0});
  if (rank >= 2 && chance(rng, style.permute)) {
    std::shuffle(order.begin(), order.end(), rng);
  }
  const bool stepped = chance(rng, style.step);
  // Steps and padding go on dims of size > 1 while the buffer stays within 16x the view.
  const int64_t budget = 16 * std::max<int64_t>(oa_ref::element_count(shape), 1);
  strides->assign(rank, 0);
  int64_t extent = 1;  // elements spanned by the dims laid out so far (innermost first)
  for (size_t k = rank; k-- > 0;) {
    const size_t d = order[k];
    const bool here = stepped && shape[d] > 1 && extent < budget && chance(rng, 0.6);
    const int64_t step = here ? draw(rng, 2, 3) : 1;
    (*strides)[d] = extent * step;
    extent = extent * step * std::max<int64_t>(shape[d], 1) + (here ? draw(rng, 0, 2) : 0);
  }
  if (chance(rng, style.expand)) {
    for (size_t d = 0; d < rank; ++d) {
      if (shape[d] > 1 && chance(rng, 0.5)) {
        (*strides)[d] = 0;
      }
    }
  }
  if (chance(rng, style.flip)) {
    for (size_t d = 0; d < rank; ++d) {
      if (chance(rng, 0.5)) {
        (*strides)[d] = -(*strides)[d];
      }
    }
  }
  int64_t low = 0;
  for (size_t d = 0; d < rank && oa_ref::element_count(shape) > 0; ++d) {
    low += std::min<int64_t>((*strides)[d] * (shape[d] - 1), 0);
  }
  *offset = (chance(rng, style.offset) ? draw(rng, 1, 9) : 0) - low;
}

// A random value for an input element: mostly a grid of quarters (so that x - y often equals 0,
// +-0.5, +-1 or +-3 exactly) and uniform values, some specials (zeros, +-beta, infinities, NaN),
// some large values and, for a tiny beta, values small enough to fall inside (-beta, beta).
inline double random_value(std::mt19937& rng, float beta, bool specials) {
  const double beta_value = beta;
  const double p = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  if (beta_value > 0.0 && beta_value < 1e-20 && p < 0.35) {
    return std::ldexp(static_cast<double>(draw(rng, -12, 12)), -103);
  }
  if (p < 0.40) {
    return static_cast<double>(draw(rng, -24, 24)) / 4.0;
  }
  if (p < 0.85 || !specials) {
    return std::uniform_real_distribution<double>(-6.0, 6.0)(rng);
  }
  if (p < 0.90) {
    return std::uniform_real_distribution<double>(-3e4, 3e4)(rng);
  }
  const double inf = std::numeric_limits<double>::infinity();
  const double special[] = {
      0.0, -0.0, beta_value, -beta_value, inf, -inf, std::numeric_limits<double>::quiet_NaN()};
  return special[draw(rng, 0, 6)];
}

// An operand of a random view of shape; an input gets a random value for every element.
inline Operand random_operand(std::mt19937& rng, const std::string& name, const Dims& shape,
                              aclDataType dtype, const ViewStyle& style, bool input, float beta,
                              bool specials = true) {
  Operand operand;
  operand.name = name;
  operand.shape = shape;
  operand.dtype = dtype;
  random_view(rng, shape, style, &operand.strides, &operand.offset);
  if (input) {
    // Large operands draw from a table of 1021 random values (drawing each is slow under ASan).
    const int64_t count = oa_ref::element_count(shape);
    std::vector<uint64_t> table;
    const size_t table_size = count > 65536 ? 1021 : 0;
    while (table.size() < table_size) {
      table.push_back(oa_ref::encode(dtype, random_value(rng, beta, specials)));
    }
    for (int64_t i = 0; i < count; ++i) {
      operand.codes.push_back(table.empty()
                                  ? oa_ref::encode(dtype, random_value(rng, beta, specials))
                                  : table[rng() % table.size()]);
    }
  }
  return operand;
}

// A contiguous operand holding the given values (rounded to dtype).
inline Operand filled_operand(const std::string& name, const Dims& shape, aclDataType dtype,
                              const std::vector<double>& values) {
  Operand operand;
  operand.name = name;
  operand.shape = shape;
  operand.dtype = dtype;
  operand.strides = oa::contiguous_strides(shape);
  for (double v : values) {
    operand.codes.push_back(oa_ref::encode(dtype, v));
  }
  return operand;
}

// A random shape of the given rank with at most about max_elements elements.
inline Dims random_shape(std::mt19937& rng, int rank, int64_t max_elements) {
  Dims shape(static_cast<size_t>(rank), 1);
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    const int64_t room = std::max<int64_t>(max_elements / count, 1);
    shape[static_cast<size_t>(d)] = draw(rng, 1, std::min<int64_t>(room, 7));
    count *= shape[static_cast<size_t>(d)];
  }
  std::shuffle(shape.begin(), shape.end(), rng);
  return shape;
}

// An input shape that broadcasts to full: some leading dims dropped, some dims set to 1.
inline Dims broadcast_source(std::mt19937& rng, const Dims& full, double p_broadcast) {
  size_t drop = 0;
  if (!full.empty() && chance(rng, p_broadcast)) {
    drop = static_cast<size_t>(draw(rng, 0, static_cast<int64_t>(full.size())));
  }
  Dims shape(full.begin() + static_cast<std::ptrdiff_t>(drop), full.end());
  for (int64_t& dim : shape) {
    if (chance(rng, p_broadcast * 0.6)) {
      dim = 1;
    }
  }
  return shape;
}

struct BackwardCase {
  Operand grad_output;
  Operand self;
  Operand target;
  Operand grad_input;
  int64_t reduction = 0;
  float beta = 1.0f;

  static constexpr const char* kOp = "SmoothL1LossBackward";
  std::vector<const Operand*> operands() const {
    return {&grad_output, &self, &target, &grad_input};
  }
  const Operand& output() const { return grad_input; }
};

struct ForwardCase {
  Operand self;
  Operand target;
  Operand result;
  int64_t reduction = 0;
  float beta = 1.0f;

  static constexpr const char* kOp = "SmoothL1Loss";
  std::vector<const Operand*> operands() const { return {&self, &target, &result}; }
  const Operand& output() const { return result; }
};

template <typename Case>
std::string describe(const Case& c) {
  std::string text = "reduction " + std::to_string(c.reduction) + ", beta " + number_text(c.beta);
  for (const Operand* o : c.operands()) {
    text += "\n  " + o->describe();
  }
  return text;
}

// The call of a case, its inputs written.
template <typename Case>
std::unique_ptr<oa_test::TestCall> make_call(const Case& c) {
  const oa::OpDef& def = *oa::find_definition(Case::kOp);
  oa::CallSpec spec;
  spec.args.resize(def.params.size());
  for (const Operand* o : c.operands()) {
    oa::ArgSpec& arg = spec.args[static_cast<size_t>(def.param_index(o->name))];
    arg.tensor = o->spec();
    arg.alias_of = o->shares.empty() ? -1 : def.param_index(o->shares);
  }
  spec.args[static_cast<size_t>(def.param_index("reduction"))].integer = c.reduction;
  spec.args[static_cast<size_t>(def.param_index("beta"))].real = c.beta;
  auto call = std::make_unique<oa_test::TestCall>(def, spec);
  for (const Operand* o : c.operands()) {
    if (!o->codes.empty()) {
      call->tensor(o->name)->write_bits(o->codes);
    }
  }
  return call;
}

// What a tensor holds, row-major over its view, as the reference reads it: a contiguous host copy.
struct HostCopy {
  Dims shape;
  aclDataType dtype = ACL_FLOAT;
  std::vector<unsigned char> bytes;

  explicit HostCopy(const oa_test::TestTensor& t) : shape(t.spec().shape), dtype(t.spec().dtype) {
    const auto size = static_cast<size_t>(oa_ref::element_size(dtype));
    for (uint64_t code : t.read_bits()) {
      const size_t at = bytes.size();
      bytes.resize(at + size);
      std::memcpy(&bytes[at], &code, size);
    }
  }
  oa_ref::HostView view() const {
    return {shape, oa::contiguous_strides(shape), 0, dtype, bytes.data()};
  }
};

// The output's codes after both phases of the case's call (isa "scalar" forces the scalar path).
template <typename Case>
std::vector<uint32_t> output_codes(const Case& c, std::optional<std::string> isa = std::nullopt) {
  const auto call = make_call(c);
  {
    oa_test::ScopedEnv scoped("OPENACLNN_CPU_ISA", isa);
    EXPECT_EQ(call->run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
  EXPECT_TRUE(call->only_views_written());
  const std::vector<uint64_t> bits = call->tensor(c.output().name)->read_bits();
  return std::vector<uint32_t>(bits.begin(), bits.end());
}

// Whether an output code matches the reference value: NaN exactly where the reference is NaN, an
// infinite reference exactly, else within `tolerance` representable values of the reference
// rounded to the output type.
inline bool close_to(aclDataType dtype, uint32_t code, double expected, int64_t tolerance) {
  const uint32_t want = oa_ref::encode(dtype, expected);
  if (std::isnan(expected) || oa_ref::is_nan_code(dtype, code)) {
    return std::isnan(expected) && oa_ref::is_nan_code(dtype, code);
  }
  if (std::isinf(expected)) {
    return code == want;
  }
  return oa_ref::ulp_distance(dtype, code, want) <= tolerance;
}

inline int64_t default_tolerance(aclDataType dtype) { return dtype == ACL_FLOAT ? 4 : 1; }

// The reference's values of a case's output, from its inputs as written.
inline std::vector<double> expected_of(const BackwardCase& c, const oa_test::TestCall& call) {
  const HostCopy g(*call.tensor("gradOutput"));
  const HostCopy x(*call.tensor("self"));
  const HostCopy y(*call.tensor("target"));
  return oa_ref::smooth_l1_loss_backward(g.view(), x.view(), y.view(), c.reduction, c.beta);
}

inline std::vector<double> expected_of(const ForwardCase& c, const oa_test::TestCall& call) {
  const HostCopy x(*call.tensor("self"));
  const HostCopy y(*call.tensor("target"));
  if (c.reduction == 0) {
    return oa_ref::smooth_l1_loss_terms(x.view(), y.view(), c.beta);
  }
  return {oa_ref::smooth_l1_loss_reduced(x.view(), y.view(), c.reduction, c.beta)};
}

// Runs a case, with a workspace of NaN bytes, and checks its output against the reference (read
// from the inputs before the launch, for the in-place cases), nothing written outside the views
// and no other input changed. Returns whether everything matched.
template <typename Case>
bool check_case(const Case& c, const std::string& label) {
  const std::string context = label + "\n  " + describe(c);
  const auto call = make_call(c);
  const std::vector<double> expected = expected_of(c, *call);
  std::vector<std::vector<uint64_t>> inputs_before;
  for (const Operand* o : c.operands()) {
    inputs_before.push_back(call->tensor(o->name)->read_bits());
  }
  const aclnnStatus status = call->run(0xFF);
  if (status != ACLNN_SUCCESS) {
    ADD_FAILURE() << context << "\nfailed with " << status << ": " << aclGetRecentErrMsg();
    return false;
  }
  const Operand& out = c.output();
  const std::vector<uint64_t> codes = call->tensor(out.name)->read_bits();
  std::ostringstream failures;
  int64_t mismatches = 0;
  const int64_t tolerance = default_tolerance(out.dtype);
  for (size_t i = 0; i < expected.size() && i < codes.size(); ++i) {
    const auto code = static_cast<uint32_t>(codes[i]);
    if (!close_to(out.dtype, code, expected[i], tolerance) && mismatches++ < 6) {
      failures << "\n  element " << i << ": got " << oa_ref::decode(out.dtype, code) << " (0x"
               << std::hex << code << "), expected " << expected[i] << " (0x"
               << oa_ref::encode(out.dtype, expected[i]) << std::dec << ")";
    }
  }
  bool ok = mismatches == 0 && codes.size() == expected.size();
  if (!ok) {
    ADD_FAILURE() << context << "\n"
                  << mismatches << " of " << expected.size()
                  << " elements differ from the reference (tolerance " << tolerance << " ulp)"
                  << failures.str();
  }
  if (!call->only_views_written()) {
    ADD_FAILURE() << context << "\nbytes outside a view changed";
    ok = false;
  }
  const std::vector<const Operand*> operands = c.operands();
  for (size_t k = 0; k + 1 < operands.size(); ++k) {
    if (out.shares != operands[k]->name &&
        call->tensor(operands[k]->name)->read_bits() != inputs_before[k]) {
      ADD_FAILURE() << context << "\n" << operands[k]->name << " changed";
      ok = false;
    }
  }
  return ok;
}

inline bool check_backward(const BackwardCase& c, const std::string& label) {
  return check_case(c, label);
}
inline bool check_forward(const ForwardCase& c, const std::string& label) {
  return check_case(c, label);
}

// The reference's output of a forward case (its inputs' codes as given, contiguous or not).
inline std::vector<double> forward_expected(const ForwardCase& c) {
  const auto call = make_call(c);
  return expected_of(c, *call);
}

struct RandomOptions {
  int min_rank = 0;
  int max_rank = 8;
  int64_t max_elements = 400;
  double p_broadcast = 0.4;  // how often an input drops leading dims or has dims of 1
  bool empty = false;        // one dim of the full shape is 0
  ViewStyle input_style = ViewStyle::input();
  ViewStyle output_style = ViewStyle();
};

// Every operand of the full shape and contiguous, half of them offset (so that vectors start
// unaligned): the elementwise engine's register path, in SIMD.
inline RandomOptions contiguous_options() {
  RandomOptions options;
  options.min_rank = 1;
  options.max_rank = 3;
  options.max_elements = 300;
  options.p_broadcast = 0.0;
  options.input_style = ViewStyle::contiguous();
  options.input_style.offset = 0.5;
  options.output_style = options.input_style;
  return options;
}

inline aclDataType random_dtype(std::mt19937& rng) { return kFloatTypes[draw(rng, 0, 2)]; }

inline float random_beta(std::mt19937& rng) { return kBetas[draw(rng, 0, 5)]; }

// The full shape, and input shapes that broadcast to it (or to a shape with 1 where no input
// keeps the full dim).
inline Dims random_full_shape(std::mt19937& rng, const RandomOptions& options) {
  const int rank = static_cast<int>(draw(rng, options.min_rank, options.max_rank));
  Dims full = random_shape(rng, rank, options.max_elements);
  if (options.empty && rank > 0) {
    full[static_cast<size_t>(draw(rng, 0, rank - 1))] = 0;
  }
  return full;
}

inline BackwardCase random_backward(std::mt19937& rng, const RandomOptions& options,
                                    const aclDataType dtypes[4], int64_t reduction, float beta) {
  const Dims full = random_full_shape(rng, options);
  const Dims g_shape = broadcast_source(rng, full, options.p_broadcast);
  const Dims x_shape = broadcast_source(rng, full, options.p_broadcast);
  const Dims y_shape = broadcast_source(rng, full, options.p_broadcast);
  Dims shape;
  oa_ref::broadcast_shapes({g_shape, x_shape, y_shape}, &shape);
  BackwardCase c;
  c.reduction = reduction;
  c.beta = beta;
  c.grad_output =
      random_operand(rng, "gradOutput", g_shape, dtypes[0], options.input_style, true, beta);
  c.self = random_operand(rng, "self", x_shape, dtypes[1], options.input_style, true, beta);
  c.target = random_operand(rng, "target", y_shape, dtypes[2], options.input_style, true, beta);
  c.grad_input =
      random_operand(rng, "gradInput", shape, dtypes[3], options.output_style, false, beta);
  return c;
}

inline BackwardCase random_backward(std::mt19937& rng, const RandomOptions& options) {
  const aclDataType dtypes[4] = {random_dtype(rng), random_dtype(rng), random_dtype(rng),
                                 random_dtype(rng)};
  const int64_t reduction = draw(rng, 0, 2);
  const float beta = random_beta(rng);
  return random_backward(rng, options, dtypes, reduction, beta);
}

// result has the broadcast shape (reduction none), or shape [] or [1] (mean, sum).
inline ForwardCase random_forward(std::mt19937& rng, const RandomOptions& options,
                                  const aclDataType dtypes[3], int64_t reduction, float beta) {
  const Dims full = random_full_shape(rng, options);
  const Dims x_shape = broadcast_source(rng, full, options.p_broadcast);
  const Dims y_shape = broadcast_source(rng, full, options.p_broadcast);
  Dims shape;
  oa_ref::broadcast_shapes({x_shape, y_shape}, &shape);
  ForwardCase c;
  c.reduction = reduction;
  c.beta = beta;
  c.self = random_operand(rng, "self", x_shape, dtypes[0], options.input_style, true, beta);
  c.target = random_operand(rng, "target", y_shape, dtypes[1], options.input_style, true, beta);
  const Dims result_shape = reduction == 0 ? shape : (chance(rng, 0.5) ? Dims{} : Dims{1});
  c.result =
      random_operand(rng, "result", result_shape, dtypes[2], options.output_style, false, beta);
  return c;
}

inline ForwardCase random_forward(std::mt19937& rng, const RandomOptions& options) {
  const aclDataType dtypes[3] = {random_dtype(rng), random_dtype(rng), random_dtype(rng)};
  const int64_t reduction = draw(rng, 0, 2);
  const float beta = random_beta(rng);
  return random_forward(rng, options, dtypes, reduction, beta);
}

}  // namespace sl1_test
