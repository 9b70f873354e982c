// Kernels of size 1 without padding, in one group, whose forward, data and weight passes run as one
// oneDNN matrix product per sample (conv_product.cpp): strides that subsample x and leave its last
// elements to no tap, a transposed outputPadding below the stride and below the dilation, several
// batch slices with a shorter last one, FLOAT, BF16 and a widened dtype mix with cubeMathType
// rounding, every outputMask, non-contiguous views; against the tests' float64 reference, with the
// debug log saying that every pass ran on the products.
#include <gtest/gtest.h>

#include <sstream>

#include "reference/convolution.h"

namespace conv_test {
namespace {

Geometry kernel_one(int spatial, int64_t n, int64_t cin, int64_t cout, std::vector<int64_t> in,
                    std::vector<int64_t> stride) {
  Geometry g;
  g.spatial = spatial;
  g.n = n;
  g.cin = cin;
  g.cout = cout;
  for (int d = 0; d < spatial; ++d) {
    g.in[d] = in[static_cast<size_t>(d)];
    g.stride[d] = stride[static_cast<size_t>(d)];
  }
  return g;
}

std::vector<Geometry> geometries() {
  std::vector<Geometry> all = {
      kernel_one(1, 3, 5, 7, {11}, {3}),             // element 10 reached by no tap
      kernel_one(2, 1, 8, 16, {28, 9}, {2, 1}),      // case b's stride in one dim
      kernel_one(3, 2, 3, 4, {5, 6, 7}, {1, 2, 3}),  // every stride at once
      kernel_one(2, 2, 6, 5, {7, 8}, {1, 1}),        // x and y alike: no copies
      kernel_one(2, 7, 64, 64, {28, 28}, {2, 2}),    // two slices of 4 and 3 samples
  };
  // Transposed: outputPadding 1 below the stride 2 (dim 0: the plain problem's last x elements
  // reached by no tap) and below the dilation 2 at stride 1 (dim 1: x cropped by the plan).
  Geometry t = kernel_one(2, 2, 6, 4, {5, 6}, {2, 1});
  t.transposed = true;
  t.dilation[1] = 2;
  t.output_padding[0] = 1;
  t.output_padding[1] = 1;
  all.push_back(t);
  return all;
}

// Every line of the debug log that names a pass's oneDNN implementation names the products, and
// there is at least one.
void expect_products(const std::string& log, const std::string& what) {
  std::istringstream lines(log);
  int named = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("runs on oneDNN") != std::string::npos) {
      ++named;
      EXPECT_NE(line.find("runs on oneDNN matmul:"), std::string::npos) << what << ": " << line;
    }
  }
  EXPECT_GT(named, 0) << what << ":\n" << log;
}

// spec through the oneDNN implementation against the reference, every pass on the products.
void run_case(const oa::OpDef& def, const oa::CallSpec& spec, std::mt19937_64* rng,
              const std::string& what) {
  std::string log;
  run_onednn_case(def, spec, rng, what, &log);
  expect_products(log, what);
}

struct Mix {
  Dtypes types;
  int64_t cube_math_type;
};

const Mix kMixes[] = {{{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}, 0},
                      {{ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16}, 0},
                      {{ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_FLOAT}, 2}};

TEST(ConvolutionKernelOne, ForwardMatchesReference) {
  const oa::OpDef& def = *oa::find_definition("Convolution");
  std::mt19937_64 rng(26301);
  for (const Geometry& g : geometries()) {
    for (const Mix& mix : kMixes) {
      for (bool bias : {true, false}) {
        Dtypes t = mix.types;
        if (!bias) {
          t.bias = ACL_DT_UNDEFINED;
        }
        oa::CallSpec spec = forward_spec(g, t, mix.cube_math_type);
        if (!bias) {
          randomize_layouts(def, &spec, &rng);
        }
        run_case(def, spec, &rng,
                 g.describe() + " " + oa::dtype_name(t.input) + (bias ? " with bias" : ""));
      }
    }
  }
}

TEST(ConvolutionKernelOne, BackwardMatchesReference) {
  const oa::OpDef& def = *oa::find_definition("ConvolutionBackward");
  std::mt19937_64 rng(26302);
  for (const Geometry& g : geometries()) {
    for (const Mix& mix : kMixes) {
      for (int mask_bits = 1; mask_bits < 8; ++mask_bits) {
        const std::vector<bool> mask = {(mask_bits & 1) != 0, (mask_bits & 2) != 0,
                                        (mask_bits & 4) != 0};
        // gradBias alone runs no pass; the two-slice geometry (n 7) with every gradient only.
        if (mask_bits == 4 || (g.n == 7 && mask_bits != 7)) {
          continue;
        }
        oa::CallSpec spec = backward_spec(g, mix.types, mask, mix.cube_math_type, mask_bits == 3);
        if (mask_bits == 7) {
          randomize_layouts(def, &spec, &rng);
        }
        run_case(def, spec, &rng,
                 g.describe() + " " + oa::dtype_name(mix.types.input) + " mask " +
                     std::to_string(mask_bits));
      }
    }
  }
}

}  // namespace
}  // namespace conv_test
