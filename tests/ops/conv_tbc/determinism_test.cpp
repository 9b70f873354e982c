// Bitwise the same outputs for any thread count on problems large enough to be cut into many work
// items and packed by several threads (the conformance test's samples are small): the work is cut
// from the problem alone and every product runs whole on one thread (core/gemm.h). Random float
// data, so that a change of summation order would show in the last bits.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/op/build.h"
#include "support/call.h"

namespace {

using oa::build::integer;
using oa::build::sample;
using oa::build::tensor;

struct Sizes {
  int64_t t, b, ci, co, k, pad;
};

const Sizes kSizes[] = {{260, 3, 96, 80, 5, 2}, {150, 2, 12, 20, 31, 15}};

const oa::OpDef& def_of(const char* name) { return *oa::find_definition(name); }

oa::CallSpec forward(const Sizes& s) {
  return sample(def_of("ConvTbc"), {{"self", tensor({s.t, s.b, s.ci})},
                                    {"weight", tensor({s.k, s.ci, s.co})},
                                    {"bias", tensor({s.co})},
                                    {"pad", integer(s.pad)}});
}

// With `permuted`, self, input and the gradients of input and weight in a random memory layout.
oa::CallSpec backward(const Sizes& s, bool permuted) {
  const oa::OpDef& def = def_of("ConvTbcBackward");
  oa::CallSpec spec = sample(def, {{"self", tensor({s.t + 2 * s.pad - s.k + 1, s.b, s.co})},
                                   {"input", tensor({s.t, s.b, s.ci})},
                                   {"weight", tensor({s.k, s.ci, s.co})},
                                   {"bias", tensor({s.co})},
                                   {"pad", integer(s.pad)}});
  if (permuted) {
    std::mt19937_64 rng(5);
    for (const char* name : {"self", "input", "gradInput", "gradWeight"}) {
      oa::TensorSpec& t = spec.args[static_cast<size_t>(def.param_index(name))].tensor;
      t = oa_test::random_layout(t, rng, false);
    }
  }
  return spec;
}

// The outputs' bits of spec on the same normal data, with `threads` threads.
std::vector<std::vector<uint64_t>> bits_with(const oa::OpDef& def, const oa::CallSpec& spec,
                                             const char* threads) {
  oa_test::ScopedEnv env("OPENACLNN_NUM_THREADS", threads);
  oa_test::TestCall call(def, spec);
  std::mt19937_64 rng(11);
  call.fill_inputs([&](aclDataType dtype) { return oa_test::random_value(rng, dtype, false); });
  EXPECT_EQ(call.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_TRUE(call.only_views_written());
  return call.output_bits();
}

TEST(ConvTbcDeterminism, SameBitsForAnyThreadCount) {
  for (const Sizes& s : kSizes) {
    const std::pair<const char*, oa::CallSpec> calls[] = {{"ConvTbc", forward(s)},
                                                          {"ConvTbcBackward", backward(s, false)},
                                                          {"ConvTbcBackward", backward(s, true)}};
    for (const auto& [op, spec] : calls) {
      SCOPED_TRACE(std::string(op) + " T=" + std::to_string(s.t) + " K=" + std::to_string(s.k));
      const auto first = bits_with(def_of(op), spec, "1");
      for (const char* threads : {"2", "3", "5", "8"}) {
        EXPECT_EQ(bits_with(def_of(op), spec, threads), first) << threads << " threads";
      }
    }
  }
}

}  // namespace
