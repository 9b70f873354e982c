// Cases with small integer data, where every sum is exact in float32: the outputs must equal the
// float64 reference exactly (rounded once to their dtype), whatever the summation order. Sizes are
// chosen to reach each way the work is cut: several row blocks per residue class, several blocks
// of Cin in gradWeight, kernels longer than the padding (border rows), padding longer than the
// kernel (rows with no tap inside the data), no middle range in gradWeight, no padding at all.
#include <gtest/gtest.h>

#include <iterator>

#include "ops/conv_tbc/tbc_call.h"

namespace tbc_test {
namespace {

// T, B, Cin, Cout, K, pad
const TbcSizes kSizes[] = {
    {300, 2, 70, 90, 3, 1},  // row blocks and Cin blocks
    {500, 1, 16, 24, 1, 0},  // one residue class, many row blocks, no edges
    {120, 3, 5, 9, 40, 25},  // long kernel: border rows, lead and trail edges
    {3, 2, 4, 5, 9, 6},      // Tout <= 2 pad: no middle range
    {2, 2, 3, 3, 2, 5},      // pad > K: rows without any tap inside the data
    {64, 5, 33, 17, 7, 0},   // no padding
};

struct Mix {
  aclDataType x;
  aclDataType w;
  aclDataType g;
  aclDataType grad_weight;
  Layout layout;
};

const Mix kMixes[] = {
    {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, Layout::contiguous},
    {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_HIFLOAT8, Layout::permuted},
    {ACL_BF16, ACL_FLOAT, ACL_BF16, ACL_FLOAT8_E4M3FN, Layout::permuted},
    {ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_BF16, Layout::contiguous},
    {ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16, Layout::contiguous},  // bfloat16 products
    {ACL_BF16, ACL_BF16, ACL_BF16, ACL_HIFLOAT8, Layout::permuted},
};

// Whether size case `size` runs dtype mix `mix`: all of them, or under the sanitizers (whose build
// runs the float64 reference several times slower) half of them, rotating, so that every mix still
// meets several sizes.
bool runs(size_t size, size_t mix) {
#if defined(__SANITIZE_ADDRESS__)
  return (mix + size) % 2 == 0;
#else
  (void)size;
  (void)mix;
  return true;
#endif
}

TEST(ConvTbcExact, ForwardIntegersAreExact) {
  std::mt19937_64 rng(7);
  for (size_t i = 0; i < std::size(kSizes); ++i) {
    const TbcSizes& s = kSizes[i];
    for (size_t j = 0; j < std::size(kMixes); ++j) {
      if (!runs(i, j)) {
        continue;
      }
      const Mix& m = kMixes[j];
      ForwardCase c;
      c.s = s;
      c.x = m.x;
      c.bias = m.g;
      c.x_layout = m.layout;
      c.out_layout = m.layout;
      c.data = Data::integers;
      SCOPED_TRACE(sizes_string(s));
      run_forward_case(c, &rng);
    }
  }
}

TEST(ConvTbcExact, BackwardIntegersAreExact) {
  std::mt19937_64 rng(8);
  for (size_t i = 0; i < std::size(kSizes); ++i) {
    const TbcSizes& s = kSizes[i];
    for (size_t j = 0; j < std::size(kMixes); ++j) {
      if (!runs(i, j)) {
        continue;
      }
      const Mix& m = kMixes[j];
      BackwardCase c;
      c.s = s;
      c.x = m.x;
      c.w = m.w;
      c.g = m.g;
      c.bias = m.g;
      c.grad_weight = m.grad_weight == ACL_BF16 ? m.w : m.grad_weight;
      c.g_layout = m.layout;
      c.x_layout = m.layout;
      c.grad_input_layout = m.layout;
      c.grad_weight_layout = m.layout;
      c.data = Data::integers;
      SCOPED_TRACE(sizes_string(s));
      run_backward_case(c, &rng);
    }
  }
}

// Every cubeMathType on integer data: the roundings leave small integers as they are, so the
// results stay exact (the modes' effect on other values is checked by the random cases).
TEST(ConvTbcExact, EveryCubeMathTypeOnIntegers) {
  std::mt19937_64 rng(9);
  for (int8_t mode = 0; mode <= 3; ++mode) {
    BackwardCase c;
    c.s = kSizes[2];
    c.cube_math_type = mode;
    c.data = Data::integers;
    run_backward_case(c, &rng);
    ForwardCase f;
    f.s = kSizes[2];
    f.cube_math_type = mode;
    f.data = Data::integers;
    run_forward_case(f, &rng);
  }
}

}  // namespace
}  // namespace tbc_test
