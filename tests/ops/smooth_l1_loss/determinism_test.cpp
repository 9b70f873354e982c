// Determinism (SPEC section 6): bitwise-equal outputs for any thread count (OPENACLNN_NUM_THREADS,
// read at launch) on cases spanning several 65536-element chunks, and for the SIMD and the scalar
// kernels (OPENACLNN_CPU_ISA=scalar, read in phase 1) for every dtype mix, with infinities, NaN
// and float16/bfloat16 rounding ties among the values.
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ops/smooth_l1_loss/sl1_call.h"
#include "simd_targets.h"

namespace {

using namespace sl1_test;

// The output's bits after both phases of the case's call with the variable set (or unset); nothing
// written outside the views.
template <typename Case>
std::vector<uint64_t> output_bits(const Case& c, const char* variable,
                                  std::optional<std::string> value) {
  const auto call = make_call(c);
  {
    oa_test::ScopedEnv scoped(variable, value);
    EXPECT_EQ(call->run(), ACLNN_SUCCESS) << aclGetRecentErrMsg() << "\n" << describe(c);
  }
  EXPECT_TRUE(call->only_views_written()) << describe(c);
  return call->tensor(c.output().name)->read_bits();
}

// Index of the first differing element, or -1.
int64_t first_difference(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) {
      return static_cast<int64_t>(i);
    }
  }
  return a.size() == b.size() ? -1 : static_cast<int64_t>(std::min(a.size(), b.size()));
}

// Runs the case with the SIMD and with the scalar kernels, expects the same output bits (what names
// the case in a failure) and returns the SIMD run's.
template <typename Case>
std::vector<uint64_t> simd_bits_equal_to_scalar(const Case& c, const std::string& what) {
  std::vector<uint64_t> simd = output_bits(c, "OPENACLNN_CPU_ISA", std::nullopt);
  const std::vector<uint64_t> scalar = output_bits(c, "OPENACLNN_CPU_ISA", std::string("scalar"));
  const int64_t at = first_difference(simd, scalar);
  EXPECT_EQ(at, -1) << what << ": SIMD and scalar differ at element " << at << "\n  "
                    << describe(c);
  return simd;
}

// ~300000-element broadcast cases with every reduction: the same bits for 1, 2 and 3 threads.
TEST(SmoothL1LossDeterminism, ThreadCount) {
  std::mt19937 rng(3001);
  const std::optional<std::string> counts[] = {std::string("1"), std::string("2"),
                                               std::string("3")};
  for (int64_t reduction = 0; reduction < 3; ++reduction) {
    BackwardCase b;
    b.reduction = reduction;
    b.beta = 0.5f;
    b.grad_output =
        random_operand(rng, "gradOutput", {600, 1}, ACL_BF16, ViewStyle(), true, b.beta);
    // self transposed against gradInput: the engine walks it in tiles of rows.
    b.self =
        random_operand(rng, "self", {600, 500}, ACL_FLOAT, ViewStyle::contiguous(), true, b.beta);
    b.self.strides = {1, 600};
    b.target = random_operand(rng, "target", {500}, ACL_FLOAT16, ViewStyle(), true, b.beta);
    b.grad_input = random_operand(rng, "gradInput", {600, 500}, kFloatTypes[reduction], ViewStyle(),
                                  false, b.beta);
    std::vector<uint64_t> first;
    for (const auto& count : counts) {
      std::vector<uint64_t> bytes = output_bits(b, "OPENACLNN_NUM_THREADS", count);
      if (first.empty()) {
        first = bytes;
      } else {
        EXPECT_EQ(first_difference(first, bytes), -1)
            << "backward, " << *count << " threads\n  " << describe(b);
      }
    }

    ForwardCase f;
    f.reduction = reduction;
    f.beta = 1.0f;
    f.self = random_operand(rng, "self", {3, 1, 400}, ACL_FLOAT16, ViewStyle(), true, f.beta);
    f.target = random_operand(rng, "target", {250, 1}, ACL_FLOAT, ViewStyle(), true, f.beta);
    f.result = random_operand(rng, "result", reduction == 0 ? Dims{3, 250, 400} : Dims{},
                              kFloatTypes[reduction], ViewStyle(), false, f.beta);
    first.clear();
    for (const auto& count : counts) {
      std::vector<uint64_t> bytes = output_bits(f, "OPENACLNN_NUM_THREADS", count);
      if (first.empty()) {
        first = bytes;
      } else {
        EXPECT_EQ(first_difference(first, bytes), -1)
            << "forward, " << *count << " threads\n  " << describe(f);
      }
    }
  }
}

// Values that make the conversions and kernels take every branch: the random mix (zeros, +-beta,
// infinities, NaN, large values) plus float32 values exactly between two float16 or bfloat16
// values, and NaNs of either sign with random payloads, written over FLOAT input buffers.
void add_ties(std::mt19937& rng, Operand* operand) {
  if (operand->dtype != ACL_FLOAT) {
    return;
  }
  for (uint64_t& code : operand->codes) {
    if (chance(rng, 0.03)) {
      const auto payload = static_cast<uint32_t>(draw(rng, 1, 0x7FFFFF));
      code = (chance(rng, 0.5) ? 0xFF800000u : 0x7F800000u) | payload;
    } else if (chance(rng, 0.3)) {
      const aclDataType narrow = chance(rng, 0.5) ? ACL_FLOAT16 : ACL_BF16;
      const auto bits = static_cast<uint32_t>(draw(rng, 0, 0x7BFE));
      const double tie = (oa_ref::decode(narrow, bits) + oa_ref::decode(narrow, bits + 1)) / 2;
      code = oa_ref::encode(ACL_FLOAT, chance(rng, 0.5) ? tie : -tie);
    }
  }
}

// The scalar and SIMD kernels and conversions give the same bits for every dtype mix, contiguous
// (the vector conversions) and strided, for all reductions, on every SIMD target the CPU has.
TEST(SmoothL1LossDeterminism, SimdAndScalarPaths) {
  std::mt19937 rng(3002);
  oa_test::for_each_simd_target([&] {
    const ViewStyle styles[] = {ViewStyle::contiguous(), ViewStyle::input()};
    int index = 0;
    for_each_dtype_mix<4>([&](const aclDataType* dtypes) {
      const ViewStyle& style = styles[index % 2];
      BackwardCase b;
      b.reduction = index % 3;
      b.beta = kBetas[index % 6];
      ++index;
      const Dims shape = {draw(rng, 1, 40), draw(rng, 30, 70)};
      b.grad_output = random_operand(rng, "gradOutput", shape, dtypes[0], style, true, b.beta);
      b.self = random_operand(rng, "self", shape, dtypes[1], style, true, b.beta);
      b.target = random_operand(rng, "target", {shape[1]}, dtypes[2], ViewStyle::contiguous(), true,
                                b.beta);
      b.grad_input =
          random_operand(rng, "gradInput", shape, dtypes[3],
                         index % 2 == 0 ? ViewStyle::contiguous() : ViewStyle(), false, b.beta);
      add_ties(rng, &b.grad_output);
      add_ties(rng, &b.self);
      simd_bits_equal_to_scalar(b, "backward");
    });
    index = 0;
    for_each_dtype_mix<3>([&](const aclDataType* dtypes) {
      for (int64_t reduction = 0; reduction < 3; ++reduction) {
        const ViewStyle& style = styles[index % 2];
        ForwardCase f;
        f.reduction = reduction;
        f.beta = kBetas[index % 6];
        ++index;
        const Dims shape = {draw(rng, 1, 40), draw(rng, 30, 70)};
        f.self = random_operand(rng, "self", shape, dtypes[0], style, true, f.beta);
        f.target = random_operand(rng, "target", shape, dtypes[1], style, true, f.beta);
        f.result = random_operand(rng, "result", reduction == 0 ? shape : Dims{1}, dtypes[2],
                                  ViewStyle::contiguous(), false, f.beta);
        add_ties(rng, &f.self);
        simd_bits_equal_to_scalar(f, "forward");
      }
    });
  });
}

// The same for contiguous operands of the full shape, which SIMD converts in registers (one dtype
// switch per vector for a mix): every mix, unaligned starts, vector tails, every forward reduction,
// on every SIMD target the CPU has.
TEST(SmoothL1LossDeterminism, ContiguousOperandsSimdAndScalar) {
  std::mt19937 rng(3004);
  const RandomOptions options = contiguous_options();
  int index = 0;
  oa_test::for_each_simd_target([&] {
    // Each backward mix {a, b, c, out}, then the forward mix {a, b, c}.
    for_each_dtype_mix<3>([&](const aclDataType* mix) {
      for (aclDataType out : kFloatTypes) {
        const aclDataType dtypes[4] = {mix[0], mix[1], mix[2], out};
        BackwardCase b = random_backward(rng, options, dtypes, index % 3, kBetas[index % 6]);
        ++index;
        add_ties(rng, &b.grad_output);
        add_ties(rng, &b.self);
        add_ties(rng, &b.target);
        simd_bits_equal_to_scalar(b, "backward");
      }
      // Every reduction: the mean and sum add blocks of terms computed in registers.
      for (int64_t reduction = 0; reduction < 3; ++reduction) {
        ForwardCase f = random_forward(rng, options, mix, reduction, kBetas[index % 6]);
        add_ties(rng, &f.self);
        add_ties(rng, &f.target);
        simd_bits_equal_to_scalar(f, "forward");
      }
    });
  });
}

// Operands of one dtype where one input holds a single value along each row ([R, 1]) or for all
// (0-d): FLOAT16 and BF16 strips go to the register kernels with that input widened once, FLOAT to
// the block kernels. Against the float64 reference and bit for bit against the scalar path, with
// unaligned row lengths, on every SIMD target the CPU has.
TEST(SmoothL1LossDeterminism, OneValueInputsOfOneDtype) {
  std::mt19937 rng(3005);
  int index = 0;
  oa_test::for_each_simd_target([&] {
    for (aclDataType dtype : kFloatTypes) {
      for (int broadcast = 0; broadcast < 3; ++broadcast) {
        for (const bool scalar : {false, true}) {
          BackwardCase b;
          b.reduction = index % 3;
          b.beta = kBetas[index % 6];
          ++index;
          const Dims shape = {draw(rng, 2, 5), draw(rng, 40, 300)};
          const Dims one = scalar ? Dims{} : Dims{shape[0], 1};
          const ViewStyle style = ViewStyle::contiguous();
          b.grad_output = random_operand(rng, "gradOutput", broadcast == 0 ? one : shape, dtype,
                                         style, true, b.beta);
          b.self =
              random_operand(rng, "self", broadcast == 1 ? one : shape, dtype, style, true, b.beta);
          b.target = random_operand(rng, "target", broadcast == 2 ? one : shape, dtype, style, true,
                                    b.beta);
          b.grad_input = random_operand(rng, "gradInput", shape, dtype, style, false, b.beta);
          add_ties(rng, &b.self);
          check_backward(b, "OneValueInputsOfOneDtype " + std::to_string(index));
          simd_bits_equal_to_scalar(b, "backward");
        }
      }
      for (const bool scalar : {false, true}) {
        ForwardCase f;
        f.reduction = 0;
        f.beta = kBetas[index % 6];
        ++index;
        const Dims shape = {draw(rng, 2, 5), draw(rng, 40, 300)};
        const ViewStyle style = ViewStyle::contiguous();
        f.self = random_operand(rng, "self", shape, dtype, style, true, f.beta);
        f.target = random_operand(rng, "target", scalar ? Dims{} : Dims{shape[0], 1}, dtype, style,
                                  true, f.beta);
        f.result = random_operand(rng, "result", shape, dtype, style, false, f.beta);
        add_ties(rng, &f.self);
        check_forward(f, "OneValueInputsOfOneDtype forward " + std::to_string(index));
        simd_bits_equal_to_scalar(f, "forward");
      }
    }
  });
}

// Launches that read and write more than base/fill_simd.h's cache size write their output with
// streaming stores (after a head of normal stores up to the vector alignment): a FLOAT gradInput in
// place on self, one element past a 64-byte boundary, and a FLOAT forward result at offset 1 (whose
// inputs are small: the result alone passes that size); the same bits as the scalar path, nothing
// written outside the view.
TEST(SmoothL1LossDeterminism, LargeOutputsWithStreamingStores) {
  std::mt19937 rng(3003);
  const int64_t rows = 2300;
  const int64_t columns = 2000;  // 4.6 million floats, 18.4 MB
  auto contiguous_at = [&](Operand* operand, int64_t offset) {
    operand->strides = {columns, 1};
    operand->offset = offset;
  };
  BackwardCase b;
  b.reduction = 1;
  b.beta = 1.0f;
  b.grad_output =
      random_operand(rng, "gradOutput", {rows, 1}, ACL_FLOAT16, ViewStyle(), true, b.beta);
  b.target = random_operand(rng, "target", {columns}, ACL_BF16, ViewStyle(), true, b.beta);
  b.self = random_operand(rng, "self", {rows, columns}, ACL_FLOAT, ViewStyle::contiguous(), true,
                          b.beta);
  contiguous_at(&b.self, 1);
  b.grad_input = alias_of(b.self, "gradInput");
  EXPECT_NE(simd_bits_equal_to_scalar(b, "backward"), b.self.codes) << "gradInput not written";

  ForwardCase f;
  f.beta = 0.5f;
  f.self = random_operand(rng, "self", {rows, 1}, ACL_FLOAT, ViewStyle(), true, f.beta);
  f.target = random_operand(rng, "target", {columns}, ACL_FLOAT16, ViewStyle(), true, f.beta);
  f.result = random_operand(rng, "result", {rows, columns}, ACL_FLOAT, ViewStyle::contiguous(),
                            false, f.beta);
  contiguous_at(&f.result, 1);
  simd_bits_equal_to_scalar(f, "forward");
}

// Contiguous operands converted in registers: a streamed FLOAT gradInput one element past a
// 64-byte boundary from FLOAT, BF16 and FLOAT16 inputs, and BF16 and FLOAT16 gradInputs in place
// on self (16-bit outputs are stored normally); the same bits as the scalar path, nothing written
// outside the view.
TEST(SmoothL1LossDeterminism, LargeContiguousMixesAndInPlace) {
  std::mt19937 rng(3005);
  const int64_t count = 4200000;  // 16.8 MB of float32
  BackwardCase b;
  b.reduction = 0;
  b.beta = 0.5f;
  b.grad_output =
      random_operand(rng, "gradOutput", {count}, ACL_FLOAT, ViewStyle::contiguous(), true, b.beta);
  b.self = random_operand(rng, "self", {count}, ACL_BF16, ViewStyle::contiguous(), true, b.beta);
  b.target =
      random_operand(rng, "target", {count}, ACL_FLOAT16, ViewStyle::contiguous(), true, b.beta);
  b.grad_input =
      random_operand(rng, "gradInput", {count}, ACL_FLOAT, ViewStyle::contiguous(), false, b.beta);
  b.grad_input.offset = 1;
  simd_bits_equal_to_scalar(b, "mixed");

  for (aclDataType dtype : {ACL_BF16, ACL_FLOAT16}) {
    BackwardCase p;
    p.reduction = 2;
    p.beta = 1.0f;
    p.grad_output =
        random_operand(rng, "gradOutput", {count}, dtype, ViewStyle::contiguous(), true, p.beta);
    p.target = random_operand(rng, "target", {count}, dtype, ViewStyle::contiguous(), true, p.beta);
    p.self = random_operand(rng, "self", {count}, dtype, ViewStyle::contiguous(), true, p.beta);
    p.self.offset = 1;
    p.grad_input = alias_of(p.self, "gradInput");
    EXPECT_NE(simd_bits_equal_to_scalar(p, "in place"), p.self.codes) << "gradInput not written";
  }
}

}  // namespace
