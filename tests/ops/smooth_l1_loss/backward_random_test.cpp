// aclnnSmoothL1LossBackward against the float64 reference on random cases: every dtype mix of the
// four tensors, ranks 0-8, broadcasting on each input (and on all three at once), transposed,
// stepped, reversed, offset and zero-stride views, empty shapes, every beta and reduction.
#include <random>
#include <string>

#include "ops/smooth_l1_loss/sl1_call.h"

namespace {

using namespace sl1_test;

// Stops a loop of random cases after a few failures, so that one bug does not print hundreds.
constexpr int kMaxFailedCases = 3;

std::string label(const char* test, int index, uint32_t seed) {
  return std::string(test) + " case " + std::to_string(index) + " (seed " + std::to_string(seed) +
         ")";
}

TEST(SmoothL1LossBackwardRandom, MixedDtypesRanksAndViews) {
  const uint32_t seed = 1001;
  std::mt19937 rng(seed);
  int failed = 0;
  for (int i = 0; i < 600 && failed < kMaxFailedCases; ++i) {
    BackwardCase c = random_backward(rng, RandomOptions());
    failed += check_backward(c, label("MixedDtypesRanksAndViews", i, seed)) ? 0 : 1;
  }
}

TEST(SmoothL1LossBackwardRandom, EveryDtypeMixAndReduction) {
  const uint32_t seed = 1002;
  std::mt19937 rng(seed);
  RandomOptions options;
  options.max_rank = 4;
  options.max_elements = 200;
  int failed = 0;
  int index = 0;
  for_each_dtype_mix<4>([&](const aclDataType* dtypes) {
    for (int64_t reduction = 0; reduction < 3 && failed < kMaxFailedCases; ++reduction) {
      BackwardCase c = random_backward(rng, options, dtypes, reduction, random_beta(rng));
      failed += check_backward(c, label("EveryDtypeMixAndReduction", index++, seed)) ? 0 : 1;
    }
  });
}

// Contiguous operands of the full shape for every dtype mix, beta and reduction: the path that
// converts in registers, with vector tails and unaligned starts.
TEST(SmoothL1LossBackwardRandom, ContiguousOperandsOfEveryMix) {
  const uint32_t seed = 1010;
  std::mt19937 rng(seed);
  const RandomOptions options = contiguous_options();
  int failed = 0;
  int index = 0;
  for_each_dtype_mix<4>([&](const aclDataType* dtypes) {
    for (float beta : kBetas) {
      if (failed >= kMaxFailedCases) {
        return;
      }
      BackwardCase c = random_backward(rng, options, dtypes, index % 3, beta);
      failed += check_backward(c, label("ContiguousOperandsOfEveryMix", index++, seed)) ? 0 : 1;
    }
  });
}

TEST(SmoothL1LossBackwardRandom, EveryBetaOnEveryRank) {
  const uint32_t seed = 1003;
  std::mt19937 rng(seed);
  int failed = 0;
  int index = 0;
  for (float beta : kBetas) {
    for (int rank = 0; rank <= 8 && failed < kMaxFailedCases; ++rank) {
      RandomOptions options;
      options.min_rank = rank;
      options.max_rank = rank;
      options.max_elements = 300;
      const aclDataType dtypes[4] = {random_dtype(rng), random_dtype(rng), random_dtype(rng),
                                     random_dtype(rng)};
      BackwardCase c = random_backward(rng, options, dtypes, draw(rng, 0, 2), beta);
      failed += check_backward(c, label("EveryBetaOnEveryRank", index++, seed)) ? 0 : 1;
    }
  }
}

// Each of gradOutput, self and target is broadcast at once: every dim of the result comes from
// one input only, and each input drops or flattens at least one dim.
TEST(SmoothL1LossBackwardRandom, AllThreeInputsBroadcast) {
  const uint32_t seed = 1004;
  std::mt19937 rng(seed);
  int failed = 0;
  for (int i = 0; i < 120 && failed < kMaxFailedCases; ++i) {
    const int rank = static_cast<int>(draw(rng, 2, 6));
    Dims full(static_cast<size_t>(rank));
    for (int64_t& dim : full) {
      dim = draw(rng, 2, rank <= 3 ? 6 : 3);
    }
    // owner[d]: which input keeps dim d; the other two have 1 there (or drop it if leading).
    Dims shapes[3] = {full, full, full};
    for (int d = 0; d < rank; ++d) {
      const int64_t owner = draw(rng, 0, 2);
      for (int k = 0; k < 3; ++k) {
        if (k != owner) {
          shapes[k][static_cast<size_t>(d)] = 1;
        }
      }
    }
    for (Dims& shape : shapes) {
      while (shape.size() > 1 && shape.front() == 1 && chance(rng, 0.5)) {
        shape.erase(shape.begin());
      }
    }
    BackwardCase c;
    c.reduction = draw(rng, 0, 2);
    c.beta = random_beta(rng);
    const ViewStyle style = ViewStyle::input();
    c.grad_output =
        random_operand(rng, "gradOutput", shapes[0], random_dtype(rng), style, true, c.beta);
    c.self = random_operand(rng, "self", shapes[1], random_dtype(rng), style, true, c.beta);
    c.target = random_operand(rng, "target", shapes[2], random_dtype(rng), style, true, c.beta);
    c.grad_input =
        random_operand(rng, "gradInput", full, random_dtype(rng), ViewStyle(), false, c.beta);
    failed += check_backward(c, label("AllThreeInputsBroadcast", i, seed)) ? 0 : 1;
  }
}

// Inputs given as expanded views (stride 0 on dims of size > 1), every other view contiguous, so
// the engine sees zero strides in its innermost and outer dims.
TEST(SmoothL1LossBackwardRandom, ZeroStrideExpandedInputs) {
  const uint32_t seed = 1005;
  std::mt19937 rng(seed);
  RandomOptions options;
  options.min_rank = 1;
  options.p_broadcast = 0.2;
  options.input_style = ViewStyle::contiguous();
  options.input_style.expand = 1.0;
  options.output_style = ViewStyle::contiguous();
  int failed = 0;
  for (int i = 0; i < 150 && failed < kMaxFailedCases; ++i) {
    BackwardCase c = random_backward(rng, options);
    failed += check_backward(c, label("ZeroStrideExpandedInputs", i, seed)) ? 0 : 1;
  }
}

// Every view non-contiguous (permuted, stepped, reversed, offset), inputs also expanded.
TEST(SmoothL1LossBackwardRandom, NonContiguousEverywhere) {
  const uint32_t seed = 1006;
  std::mt19937 rng(seed);
  RandomOptions options;
  options.min_rank = 2;
  options.input_style = {0.8, 0.8, 0.5, 0.3, 0.8};
  options.output_style = {0.8, 0.8, 0.5, 0.0, 0.8};
  int failed = 0;
  for (int i = 0; i < 150 && failed < kMaxFailedCases; ++i) {
    BackwardCase c = random_backward(rng, options);
    failed += check_backward(c, label("NonContiguousEverywhere", i, seed)) ? 0 : 1;
  }
}

// A zero dim anywhere, in the result or only in one input (broadcast against 1 produces empty):
// success, and nothing written.
TEST(SmoothL1LossBackwardRandom, EmptyShapes) {
  const uint32_t seed = 1007;
  std::mt19937 rng(seed);
  RandomOptions options;
  options.min_rank = 1;
  options.empty = true;
  int failed = 0;
  for (int i = 0; i < 100 && failed < kMaxFailedCases; ++i) {
    BackwardCase c = random_backward(rng, options);
    while (oa_ref::element_count(c.grad_input.shape) != 0) {  // every input broadcast the 0 away
      c = random_backward(rng, options);
    }
    failed += check_backward(c, label("EmptyShapes", i, seed)) ? 0 : 1;
  }
}

// Large cases spanning several 65536-element chunks of the engine, with broadcasting and views.
TEST(SmoothL1LossBackwardRandom, LargeBroadcastStrided) {
  const uint32_t seed = 1008;
  std::mt19937 rng(seed);
  struct Large {
    Dims g, x, y;
    aclDataType dtypes[4];
    int64_t reduction;
    float beta;
    ViewStyle style;
  };
  const Large cases[] = {
      {{600, 1},
       {600, 500},
       {500},
       {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_FLOAT},
       1,
       1.0f,
       {1.0, 0.0, 0.0, 0.0, 0.5}},
      {{300000},
       {300000},
       {300000},
       {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
       0,
       0.5f,
       ViewStyle::contiguous()},
      {{1},
       {3, 1, 400, 1},
       {1, 250, 1, 1},
       {ACL_BF16, ACL_BF16, ACL_FLOAT16, ACL_FLOAT16},
       2,
       0.0f,
       {0.0, 1.0, 0.0, 0.0, 1.0}},
  };
  int index = 0;
  for (const Large& large : cases) {
    BackwardCase c;
    c.reduction = large.reduction;
    c.beta = large.beta;
    c.grad_output =
        random_operand(rng, "gradOutput", large.g, large.dtypes[0], large.style, true, c.beta);
    c.self = random_operand(rng, "self", large.x, large.dtypes[1], large.style, true, c.beta);
    c.target = random_operand(rng, "target", large.y, large.dtypes[2], large.style, true, c.beta);
    Dims shape;
    ASSERT_TRUE(oa_ref::broadcast_shapes({large.g, large.x, large.y}, &shape));
    c.grad_input =
        random_operand(rng, "gradInput", shape, large.dtypes[3], large.style, false, c.beta);
    check_backward(c, label("LargeBroadcastStrided", index++, seed));
  }
}

// Inputs transposed against gradInput, in every dtype: the engine copies them through row-major
// tiles of 16 x 256; full and partial tiles in both directions, one or two staged inputs.
TEST(SmoothL1LossBackwardRandom, TransposedInputsInTiles) {
  const uint32_t seed = 1009;
  std::mt19937 rng(seed);
  const Dims shapes[] = {{37, 300}, {16, 256}, {48, 700}, {3, 2, 33, 260}};
  int index = 0;
  for (const Dims& shape : shapes) {
    for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      for (const bool both : {false, true}) {
        BackwardCase c;
        c.reduction = index % 3;
        c.beta = 0.5f;
        // A transposed view of the last two dims: stride 1 along the rows.
        auto transposed = [&](const char* name, aclDataType type) {
          Operand t = random_operand(rng, name, shape, type, ViewStyle::contiguous(), true, c.beta);
          const size_t rank = shape.size();
          t.strides[rank - 2] = 1;
          t.strides[rank - 1] = shape[rank - 2];
          return t;
        };
        c.grad_output = random_operand(rng, "gradOutput", shape, ACL_FLOAT, ViewStyle::contiguous(),
                                       true, c.beta);
        c.self = transposed("self", dtype);
        c.target = both ? transposed("target", dtype)
                        : random_operand(rng, "target", shape, ACL_FLOAT16, ViewStyle::contiguous(),
                                         true, c.beta);
        c.grad_input =
            random_operand(rng, "gradInput", shape, dtype, ViewStyle::contiguous(), false, c.beta);
        check_backward(c, label("TransposedInputsInTiles", index++, seed));
      }
    }
  }
}

}  // namespace
