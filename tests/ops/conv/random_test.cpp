// aclnnConvolution and aclnnConvolutionBackward on random geometry, dtype mixes, cubeMathType,
// outputMask and non-contiguous views, against the tests' float64 reference
// (reference/convolution.h): within float32 accumulation error on random normals, and exactly on
// small integers (where every sum is exact in float32).
#include <gtest/gtest.h>

#include "reference/convolution.h"

namespace conv_test {
namespace {

constexpr int kCases = 80;

aclDataType random_dtype(std::mt19937_64* rng) {
  constexpr aclDataType kDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  return kDtypes[std::uniform_int_distribution<int>(0, 2)(*rng)];
}

TEST(ConvolutionRandom, ForwardMatchesReference) {
  const oa::OpDef& def = *oa::find_definition("Convolution");
  std::mt19937_64 rng(26001);
  for (int i = 0; i < kCases; ++i) {
    const Geometry g = random_geometry(&rng);
    Dtypes t{random_dtype(&rng), random_dtype(&rng), random_dtype(&rng), random_dtype(&rng)};
    if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
      t.bias = ACL_DT_UNDEFINED;
    }
    const int64_t cube = std::uniform_int_distribution<int64_t>(0, 4)(rng);
    oa::CallSpec spec = forward_spec(g, t, cube);
    randomize_layouts(def, &spec, &rng);
    run_onednn_case(def, spec, &rng,
                    "case " + std::to_string(i) + ": " + g.describe() + " cubeMathType " +
                        std::to_string(cube));
  }
}

TEST(ConvolutionRandom, BackwardMatchesReference) {
  const oa::OpDef& def = *oa::find_definition("ConvolutionBackward");
  std::mt19937_64 rng(26002);
  for (int i = 0; i < kCases; ++i) {
    const Geometry g = random_geometry(&rng);
    const Dtypes t{random_dtype(&rng), random_dtype(&rng), random_dtype(&rng), random_dtype(&rng)};
    const int mask_bits = i % 8;  // every outputMask in turn
    const std::vector<bool> mask = {(mask_bits & 1) != 0, (mask_bits & 2) != 0,
                                    (mask_bits & 4) != 0};
    const int64_t cube = std::uniform_int_distribution<int64_t>(0, 3)(rng);
    const bool null_unasked = std::uniform_int_distribution<int>(0, 1)(rng) == 0;
    oa::CallSpec spec = backward_spec(g, t, mask, cube, null_unasked);
    randomize_layouts(def, &spec, &rng);
    run_onednn_case(def, spec, &rng,
                    "case " + std::to_string(i) + ": " + g.describe() + " mask " +
                        std::to_string(mask_bits) + " cubeMathType " + std::to_string(cube));
  }
}

// Depthwise calls of a single batch slice of at least 1e7 FLOPs, which oneDNN runs on
// channel-blocked activations in 2-D (conv_primitive.cpp) and in its own choice of layouts in 1-D
// and 3-D, with 20 channels: not a multiple of any block, so the blocks are padded. 1-D (dilated),
// 2-D and 3-D, forward and every gradient, in FLOAT (the 16-bit dtypes reach the same primitives
// widened).
TEST(ConvolutionRandom, LargeDepthwiseMatchesReference) {
  const oa::OpDef& forward = *oa::find_definition("Convolution");
  const oa::OpDef& backward = *oa::find_definition("ConvolutionBackward");
  std::mt19937_64 rng(26003);
  for (int spatial : {1, 2, 3}) {
    Geometry g;
    g.spatial = spatial;
    g.cin = g.cout = g.groups = 20;
    const int64_t size = spatial == 1 ? 100000 : spatial == 2 ? 172 : 24;
    for (int d = 0; d < spatial; ++d) {
      g.in[d] = size;
      g.k[d] = 3;
      g.pad[d] = spatial == 1 ? 2 : 1;
      g.dilation[d] = spatial == 1 ? 2 : 1;
    }
    const Dtypes t;
    run_onednn_case(forward, forward_spec(g, t, 0), &rng, "forward " + g.describe());
    run_onednn_case(backward, backward_spec(g, t, {true, true, true}, 0, false), &rng,
                    "backward " + g.describe());
  }
}

// Strides that leave the last elements of x to no tap (28 into 14 at stride 2, 1x1 kernel: case b
// of the bench), which oneDNN gets as a right padding below zero, and a transposed outputPadding
// of stride or more (allowed by the dilation), for which the primitive's x is cropped instead.
// Forward and every gradient, float32 and bfloat16.
TEST(ConvolutionRandom, RightPaddingBelowZeroMatchesReference) {
  const oa::OpDef& forward = *oa::find_definition("Convolution");
  const oa::OpDef& backward = *oa::find_definition("ConvolutionBackward");
  std::mt19937_64 rng(26004);
  std::vector<Geometry> geometries;
  for (int64_t stride : {2, 3}) {
    Geometry g;
    g.n = 3;
    g.cin = 8;
    g.cout = 16;
    for (int d = 0; d < 2; ++d) {
      g.in[d] = 28;
      g.k[d] = d == 0 ? 1 : 2;
      g.stride[d] = stride;
    }
    geometries.push_back(g);
  }
  Geometry t;
  t.transposed = true;
  t.n = 2;
  t.cin = 8;
  t.cout = 4;
  for (int d = 0; d < 2; ++d) {
    t.in[d] = 9;
    t.k[d] = 3;
    t.stride[d] = 2;
    t.dilation[d] = 3;
    t.output_padding[d] = 2;
  }
  geometries.push_back(t);
  for (const Geometry& g : geometries) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
      const Dtypes types{dtype, dtype, dtype, dtype};
      run_onednn_case(forward, forward_spec(g, types, 0), &rng, "forward " + g.describe());
      run_onednn_case(backward, backward_spec(g, types, {true, true, true}, 0, false), &rng,
                      "backward " + g.describe());
    }
  }
}

// 3-D weight gradients with depth padding, large enough for blocked layouts: on a CPU without
// AVX512-BF16 oneDNN's direct kernel takes them only with the padding as planes of zeros in x
// (conv_onednn.cpp). Depth padding 1 on both ends, 2 in front and 1 behind (stride 2), 1 in front
// and none behind (stride 3, whose last plane no tap reaches), and 3 input channels; every
// gradient, and gradWeight alone.
TEST(ConvolutionRandom, DepthPaddedWeightGradientMatchesReference) {
  const oa::OpDef& backward = *oa::find_definition("ConvolutionBackward");
  std::mt19937_64 rng(26005);
  struct Depth {
    int64_t in, pad, stride, cin;
  };
  for (const Depth& depth :
       {Depth{9, 1, 1, 16}, Depth{10, 2, 2, 16}, Depth{9, 1, 3, 16}, Depth{9, 1, 1, 3}}) {
    Geometry g;
    g.spatial = 3;
    g.n = 2;
    g.cin = depth.cin;
    g.cout = 16;
    for (int d = 0; d < 3; ++d) {
      g.in[d] = d == 0 ? depth.in : 16;
      g.k[d] = 3;
      g.pad[d] = d == 0 ? depth.pad : 1;
    }
    g.stride[0] = depth.stride;
    for (const std::vector<bool>& mask :
         {std::vector<bool>{true, true, true}, std::vector<bool>{false, true, false}}) {
      run_onednn_case(backward, backward_spec(g, Dtypes{}, mask, 0, false), &rng,
                      "backward " + g.describe());
    }
  }
}

// gradBias alone over runs of gradOutput longer than the oneDNN implementation's partial sums
// (job.h: kGradBiasLanes) and not a multiple of them: dense (a sample's plane one run of 740),
// every other element (one run at a stride of 2), and a gap after each row (rows of 37 as runs);
// FLOAT and BF16.
TEST(ConvolutionRandom, GradBiasOverLongRunsMatchesReference) {
  const oa::OpDef& def = *oa::find_definition("ConvolutionBackward");
  std::mt19937_64 rng(26006);
  constexpr int64_t kC = 5;
  constexpr int64_t kH = 20;
  constexpr int64_t kW = 37;
  Geometry g;
  g.n = 3;
  g.cin = 4;
  g.cout = kC;
  g.in[0] = kH;
  g.in[1] = kW;
  const std::vector<Shape> layouts = {{},
                                      {kC * kH * kW * 2, kH * kW * 2, kW * 2, 2},
                                      {kC * kH * (kW + 3), kH * (kW + 3), kW + 3, 1}};
  const int grad_output = def.param_index("gradOutput");
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    for (const Shape& strides : layouts) {
      oa::CallSpec spec =
          backward_spec(g, Dtypes{dtype, dtype, dtype, dtype}, {false, false, true}, 0, false);
      spec.args[static_cast<size_t>(grad_output)].tensor.strides = strides;
      run_onednn_case(def, spec, &rng,
                      "gradBias " + g.describe() + " gradOutput strides " +
                          std::to_string(strides.empty() ? 0 : strides[3]));
    }
  }
}

}  // namespace
}  // namespace conv_test
