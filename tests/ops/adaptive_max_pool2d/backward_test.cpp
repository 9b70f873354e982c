// aclnnAdaptiveMaxPool2dBackward against the float64 reference and against the float32 order SPEC
// section 7 fixes: overlapping windows, arbitrary indices, every dtype, index dtype and memory
// layout, empty tensors, out-of-range indices, and the same bits for any thread count.
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/fill_simd.h"
#include "base/float_convert.h"
#include "ops/adaptive_max_pool2d/pool_cases.h"
#include "reference/adaptive_max_pool2d.h"
#include "simd_targets.h"
#include "test_env.h"

namespace amp_test {
namespace {

constexpr double kFill = 123.0;  // gradInput's content before a launch

// float32 rounded once to dtype, as a double.
double round_to(aclDataType dtype, float v) {
  switch (dtype) {
    case ACL_FLOAT16:
      return oa::half_to_float(oa::float_to_half(v));
    case ACL_BF16:
      return oa::bf16_to_float(oa::float_to_bf16(v));
    default:
      return v;
  }
}

double epsilon(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT16:
      return std::ldexp(1.0, -11);
    case ACL_BF16:
      return std::ldexp(1.0, -8);
    default:
      return std::ldexp(1.0, -24);
  }
}

// Expects gradInput to hold the same bits as float32 accumulation in row-major output order
// rounded once, within rounding of the float64 reference.
void expect_float32_order(const PoolCase& c, const std::vector<double>& g,
                          const std::vector<int64_t>& index_values, const TestTensor& grad_input) {
  const oa_ref::PoolShape s = c.ref_shape();
  const std::vector<double> ref = oa_ref::adaptive_max_pool2d_backward(g, index_values, s);
  const std::vector<double> magnitude =
      oa_ref::adaptive_max_pool2d_backward_magnitude(g, index_values, s);
  const std::vector<float> ordered =
      oa_ref::adaptive_max_pool2d_backward_float32_order(g, index_values, s);
  const std::vector<double> got = grad_input.read();
  int mismatches = 0;
  for (size_t k = 0; k < ref.size() && mismatches < 5; ++k) {
    const double expected = round_to(c.dtype, ordered[k]);
    const double tolerance =
        magnitude[k] * std::ldexp(1.0, -20) + epsilon(c.dtype) * std::fabs(ref[k]);
    if (!same_value(got[k], expected) || std::fabs(got[k] - ref[k]) > tolerance) {
      ADD_FAILURE() << "gradInput element " << k << ": got " << got[k] << ", float32 order gives "
                    << expected << ", float64 reference " << ref[k];
      ++mismatches;
    }
  }
}

enum class Indices { from_forward, arbitrary };

// Runs the case and checks gradInput: the same bits as float32 accumulation in row-major output
// order rounded once, within rounding of the float64 reference, and nothing written outside it.
std::vector<uint64_t> check_backward(const PoolCase& c, Indices kind, std::mt19937_64& rng) {
  SCOPED_TRACE(c.describe() + (kind == Indices::arbitrary ? ", arbitrary indices" : ""));
  const oa_ref::PoolShape s = c.ref_shape();
  std::vector<int64_t> index_values;
  if (kind == Indices::from_forward) {
    const std::vector<double> x = random_values(rng, s.planes * s.h * s.w, Values::ties);
    index_values = oa_ref::adaptive_max_pool2d(x, s).indices;
  } else {
    for (int64_t k = 0; k < s.planes * s.ho * s.wo; ++k) {
      index_values.push_back(static_cast<int64_t>(rng() % (s.h * s.w)));
    }
  }
  TestTensor grad_output(pool_tensor(c.output_shape(), c.dtype, c.output_layout));
  TestTensor self(pool_tensor(c.shape, c.dtype));
  TestTensor indices(pool_tensor(c.output_shape(), c.index_dtype, c.index_layout));
  TestTensor grad_input(pool_tensor(c.shape, c.dtype, c.input_layout));
  grad_output.write(random_values(rng, s.planes * s.ho * s.wo, Values::spread));
  indices.write_ints(index_values);
  grad_input.write(std::vector<double>(s.planes * s.h * s.w, kFill));
  EXPECT_EQ(run_backward(grad_output.get(), self.get(), indices.get(), grad_input.get()),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();

  expect_float32_order(c, grad_output.read(), index_values, grad_input);
  EXPECT_TRUE(grad_input.only_view_written());
  return grad_input.read_bits();
}

PoolCase simple_case(std::vector<int64_t> shape, int64_t ho, int64_t wo,
                     aclDataType dtype = ACL_FLOAT) {
  PoolCase c;
  c.shape = std::move(shape);
  c.ho = ho;
  c.wo = wo;
  c.dtype = dtype;
  return c;
}

// The tensors of one hand-written problem, gradInput pre-filled with kFill.
struct Problem {
  Problem(const PoolCase& c, const std::vector<double>& grad, const std::vector<int64_t>& index)
      : grad_output(pool_tensor(c.output_shape(), c.dtype, c.output_layout)),
        self(pool_tensor(c.shape, c.dtype)),
        indices(pool_tensor(c.output_shape(), c.index_dtype, c.index_layout)),
        grad_input(pool_tensor(c.shape, c.dtype, c.input_layout)) {
    grad_output.write(grad);
    indices.write_ints(index);
    grad_input.write(std::vector<double>(grad_input.numel(), kFill));
  }
  aclnnStatus run() {
    return run_backward(grad_output.get(), self.get(), indices.get(), grad_input.get());
  }
  // Phase 1 alone.
  aclnnStatus plan(uint64_t* workspace_size, aclOpExecutor** executor) {
    return aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
        grad_output.get(), self.get(), indices.get(), grad_input.get(), workspace_size, executor);
  }
  TestTensor grad_output;
  TestTensor self;
  TestTensor indices;
  TestTensor grad_input;
};

TEST(AdaptiveMaxPool2dBackward, SeedExampleWithAValidIndex) {
  PoolCase c = simple_case({1, 1, 2, 2}, 1, 1);
  c.index_dtype = ACL_INT32;
  Problem p(c, {0.4757}, {3});
  ASSERT_EQ(p.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(p.grad_input.read(), (std::vector<double>{0, 0, 0, static_cast<float>(0.4757)}));
}

// H = 5 into 3 rows: windows [0, 2), [1, 4), [3, 5) share rows 1 and 3.
TEST(AdaptiveMaxPool2dBackward, OverlappingWindowsAccumulate) {
  Problem p(simple_case({1, 5, 1}, 3, 1), {1, 2, 4}, {1, 1, 3});
  ASSERT_EQ(p.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(p.grad_input.read(), (std::vector<double>{0, 3, 0, 4, 0}));
}

TEST(AdaptiveMaxPool2dBackward, AccumulatesInFloat32InRowMajorOutputOrder) {
  // Row-major: (1 + 1e8) rounds to 1e8 in float32, then - 1e8 gives 0; the reverse order gives
  // the exact sum, 1.
  Problem p(simple_case({1, 1, 2}, 1, 3), {1, 1e8, -1e8}, {1, 1, 1});
  ASSERT_EQ(p.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(p.grad_input.read(), (std::vector<double>{0, 0}));
}

TEST(AdaptiveMaxPool2dBackward, SixteenBitResultsAreRoundedOnce) {
  // 1 + 2^-8 + 2^-8 = 1 + 2^-7 in float32, a bfloat16 value; rounding after each addition would
  // give 1 (1 + 2^-8 is a tie that rounds to even).
  const double tiny = std::ldexp(1.0, -8);
  Problem p(simple_case({1, 1, 1}, 1, 3, ACL_BF16), {1, tiny, tiny}, {0, 0, 0});
  ASSERT_EQ(p.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(p.grad_input.read(), (std::vector<double>{1 + 2 * tiny}));
}

TEST(AdaptiveMaxPool2dBackward, RandomCasesWithForwardIndices) {
  std::mt19937_64 rng(31337);
  for (int k = 0; k < 200 && !HasFailure(); ++k) {
    // Every other case on the baseline loops.
    oa_test::ScopedEnv isa("OPENACLNN_CPU_ISA", k % 2 == 0 ? "simd" : "scalar");
    check_backward(random_case(rng), Indices::from_forward, rng);
  }
}

// Indices need not lie in their own window (as in PyTorch); many name the same position.
TEST(AdaptiveMaxPool2dBackward, RandomCasesWithArbitraryIndices) {
  std::mt19937_64 rng(4242);
  for (int k = 0; k < 200 && !HasFailure(); ++k) {
    oa_test::ScopedEnv isa("OPENACLNN_CPU_ISA", k % 2 == 0 ? "simd" : "scalar");
    check_backward(random_case(rng), Indices::arbitrary, rng);
  }
}

// Runs the case with these indices and random gradOutput values, checks gradInput as
// check_backward does, and sets *workspace_size to what phase 1 of the fast implementation asked
// for (whatever OPENACLNN_IMPL says: the workspace tells which of its paths the case takes).
void run_with_indices(const PoolCase& c, const std::vector<int64_t>& index, std::mt19937_64& rng,
                      uint64_t* workspace_size) {
  Problem p(c, random_values(rng, static_cast<int64_t>(index.size()), Values::spread), index);
  {
    oa_test::ScopedEnv impl("OPENACLNN_IMPL", "simd");
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(p.plan(workspace_size, &executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  }
  ASSERT_EQ(p.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  expect_float32_order(c, p.grad_output.read(), index, p.grad_input);
  EXPECT_TRUE(p.grad_input.only_view_written());
}

// The fewest samples of [C, H, W] pooled to [Ho, Wo] (INT64 indices) for which a launch touches
// more than kCachedBytes.
int64_t samples_beyond_cache(int64_t c, int64_t h, int64_t w, int64_t ho, int64_t wo,
                             aclDataType dtype) {
  const int64_t element = dtype == ACL_FLOAT ? 4 : 2;
  return oa::simd::kCachedBytes / (c * h * w * element + c * ho * wo * (element + 8)) + 1;
}

// Several chunks, more channels than one channels-last block, every dtype and layout kind.
TEST(AdaptiveMaxPool2dBackward, LargerCasesInEveryLayout) {
  std::mt19937_64 rng(5);
  for (const Layout& layout : {Layout{}, channels_last(4), Layout{{}, 1, 3, 5}, Layout{{}, 2}}) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      PoolCase c = simple_case({3, 40, 17, 23}, 5, 7, dtype);
      c.input_layout = c.output_layout = c.index_layout = layout;
      check_backward(c, Indices::from_forward, rng);
      check_backward(c, Indices::arbitrary, rng);
    }
  }
}

// A channels-last plane too large for per-chunk scratch of 32 channels (4 MiB) takes the plane
// loop nest.
TEST(AdaptiveMaxPool2dBackward, LargeChannelsLastPlane) {
  std::mt19937_64 rng(6);
  PoolCase c = simple_case({1, 32, 182, 182}, 3, 5, ACL_BF16);
  c.input_layout = c.output_layout = c.index_layout = channels_last(4);
  check_backward(c, Indices::arbitrary, rng);
}

// A channels-last gradInput whose samples are dense blocks, in a launch that streams its output:
// a sample's float32 sums (all channels interleaved, 295 KiB here) are formed in the workspace and
// the sample is written whole from them with streaming stores, where with 16 positions an output
// the sums would otherwise be formed in gradInput itself (float32) or on the stack (16-bit), with
// no workspace.
TEST(AdaptiveMaxPool2dBackward, ChannelsLastSamplesStreamedFromTheirSums) {
  std::mt19937_64 rng(15);
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    const int64_t samples = samples_beyond_cache(32, 48, 48, 12, 12, dtype);
    PoolCase c = simple_case({samples, 32, 48, 48}, 12, 12, dtype);
    c.input_layout = c.output_layout = c.index_layout = channels_last(4);
    SCOPED_TRACE(c.describe());
    const oa_ref::PoolShape s = c.ref_shape();
    std::vector<int64_t> index;
    if (dtype == ACL_FLOAT) {
      const std::vector<double> x = random_values(rng, s.planes * s.h * s.w, Values::ties);
      index = oa_ref::adaptive_max_pool2d(x, s).indices;
    } else {
      for (int64_t k = 0; k < s.planes * s.ho * s.wo; ++k) {
        index.push_back(static_cast<int64_t>(rng() % (s.h * s.w)));
      }
    }
    uint64_t workspace_size = 0;
    run_with_indices(c, index, rng, &workspace_size);
    EXPECT_GE(workspace_size, uint64_t{48 * 48 * 32 * 4});
  }
}

// Sparse sums (few outputs per unit, 16-bit gradInput) are formed on the stack when a unit's sums
// fit in 8192 floats, needing no workspace, and in the workspace otherwise; both in the float32
// order, with many repeated indices.
TEST(AdaptiveMaxPool2dBackward, SparseSumsOnTheStackOrInTheWorkspace) {
  std::mt19937_64 rng(9);
  struct Shape {
    std::vector<int64_t> dims;
    Layout layout;
    bool on_stack;
  };
  // Sparse sums are formed one channel at a time: a plane of them, whatever the layout.
  const Shape shapes[] = {{{2, 3, 90, 91}, Layout{}, true},  // 8190 floats per plane
                          {{2, 3, 91, 91}, Layout{}, false},
                          {{2, 5, 90, 91}, channels_last(4), true},
                          {{2, 5, 91, 91}, channels_last(4), false}};
  for (const Shape& shape : shapes) {
    PoolCase c = simple_case(shape.dims, 3, 5, ACL_BF16);
    c.input_layout = c.output_layout = c.index_layout = shape.layout;
    SCOPED_TRACE(c.describe());
    const oa_ref::PoolShape s = c.ref_shape();
    std::vector<int64_t> index;
    for (int64_t k = 0; k < s.planes * s.ho * s.wo; ++k) {
      index.push_back(static_cast<int64_t>(rng() % 6) * 700);
    }
    uint64_t workspace_size = 0;
    run_with_indices(c, index, rng, &workspace_size);
    EXPECT_EQ(workspace_size == 0, shape.on_stack) << workspace_size;
  }
}

// A gradInput larger than base/fill_simd.h counts as cache-resident is zeroed with streaming
// stores.
TEST(AdaptiveMaxPool2dBackward, OutputBeyondTheCacheSize) {
  std::mt19937_64 rng(8);
  const int64_t planes = oa::simd::kCachedBytes / (int64_t{4} << 20) + 1;
  ASSERT_GT(planes * (int64_t{4} << 20), oa::simd::kCachedBytes);
  check_backward(simple_case({1, planes, 1024, 1024}, 3, 5), Indices::arbitrary, rng);
}

// What decides streaming stores (base/fill_simd.h's size rule) is every byte the launch reads and
// writes, not gradInput's alone: float32 32x30 planes to 16x10 (2x3 windows) with just enough
// planes that gradInput, gradOutput and INT64 indices pass base/fill_simd.h's cache size, with
// INT32 indices stay under it. Streamed, the plane is written
// from float32 sums with streaming stores and the workspace holds only their slots; cached, the
// windows tile the plane and the workspace also holds the narrowed indices. (2x2 windows tile the
// plane streamed too: PairWindowsStreamed.)
TEST(AdaptiveMaxPool2dBackward, StreamingDecidedByAllBytesTouched) {
  std::mt19937_64 rng(14);
  const int64_t outputs_per_plane = 16 * 10;
  const int64_t plane_bytes = 32 * 30 * 4 + outputs_per_plane * 4;
  const int64_t planes = oa::simd::kCachedBytes / (plane_bytes + outputs_per_plane * 8) + 1;
  ASSERT_LE(planes * (plane_bytes + outputs_per_plane * 4), oa::simd::kCachedBytes);
  for (aclDataType index_dtype : {ACL_INT64, ACL_INT32}) {
    PoolCase c = simple_case({1, planes, 32, 30}, 16, 10);
    c.index_dtype = index_dtype;
    SCOPED_TRACE(c.describe());
    const std::vector<double> x = random_values(rng, planes * 32 * 30, Values::ties);
    const std::vector<int64_t> index = oa_ref::adaptive_max_pool2d(x, c.ref_shape()).indices;
    uint64_t workspace_size = 0;
    run_with_indices(c, index, rng, &workspace_size);
    const auto narrowed = static_cast<uint64_t>(planes * outputs_per_plane * 2);
    if (index_dtype == ACL_INT64) {
      EXPECT_LT(workspace_size, narrowed);
    } else {
      EXPECT_GE(workspace_size, narrowed);
    }
  }
}

// The same with many outputs per plane: the sums are formed in float32 planes in the workspace
// and each plane is written whole with streaming stores. Planes of 500x501 elements (just under
// 1 MiB of float32 sums, 14 positions an output) start at every alignment, so most have an
// unaligned head and tail. (Float32 needs a workspace only on this path; 16-bit sparse sums of
// such planes need one too.)
TEST(AdaptiveMaxPool2dBackward, LargeOutputWrittenPlaneByPlane) {
  std::mt19937_64 rng(10);
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const int64_t plane = 500 * 501;
    const int64_t planes = oa::simd::kCachedBytes / (plane * (dtype == ACL_FLOAT ? 4 : 2)) + 1;
    const PoolCase c = simple_case({1, planes, 500, 501}, 125, 143, dtype);
    SCOPED_TRACE(c.describe());
    const int64_t outputs = planes * 125 * 143;
    std::vector<int64_t> index;
    index.reserve(outputs);
    for (int64_t k = 0; k < outputs; ++k) {
      index.push_back(static_cast<int64_t>(rng() % plane));
    }
    uint64_t workspace_size = 0;
    run_with_indices(c, index, rng, &workspace_size);
    EXPECT_GE(workspace_size, plane * sizeof(float));
  }
}

// Runs a problem whose windows tile gradInput's contiguous planes (or, channels-last, its dense
// samples), and the same problem with padded rows in gradInput, in the same order (never tiled):
// the same bits, the float32 order, and, when `tiled` (planes: every case but float32 with windows
// of 8 positions or more, whose sums are formed in gradInput itself), more workspace than the
// padded one in the fast implementation (whatever OPENACLNN_IMPL says), for the narrowed indices.
void check_tiled_against_padded(const PoolCase& c, const std::vector<int64_t>& index,
                                const std::vector<double>& grad, bool tiled) {
  Problem problem(c, grad, index);
  PoolCase padded_case = c;
  padded_case.input_layout = Layout{c.input_layout.order, 1, 1, 0};
  Problem padded(padded_case, grad, index);
  for (const char* isa : {"simd", "scalar"}) {
    oa_test::ScopedEnv isa_env("OPENACLNN_CPU_ISA", isa);
    ASSERT_EQ(problem.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(padded.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    expect_float32_order(c, problem.grad_output.read(), index, problem.grad_input);
    EXPECT_TRUE(problem.grad_input.only_view_written());
    EXPECT_EQ(problem.grad_input.read_bits(), padded.grad_input.read_bits()) << isa;
  }
  oa_test::ScopedEnv impl("OPENACLNN_IMPL", "simd");
  uint64_t workspace = 0;
  uint64_t padded_workspace = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(problem.plan(&workspace, &executor), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  ASSERT_EQ(padded.plan(&padded_workspace, &executor), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  if (tiled) {
    EXPECT_GE(workspace, padded_workspace + index.size() * 2);
  }
}

// Whether a tiled plan with narrowed indices is expected for the case (see
// check_tiled_against_padded).
bool expect_narrowed(const PoolCase& c) {
  const oa_ref::PoolShape s = c.ref_shape();
  return c.input_layout.order.empty() && (c.dtype != ACL_FLOAT || s.h * s.w < 8 * s.ho * s.wo);
}

enum class Kind { own_windows, one_outside, arbitrary };

// Runs a case of tiled windows with indices of the kind given, from the forward or arbitrary, with
// special gradients, against the same case in padded memory.
void check_tiling_kind(const PoolCase& c, Kind kind, std::mt19937_64& rng) {
  SCOPED_TRACE(c.describe() + ", kind " + std::to_string(static_cast<int>(kind)));
  const oa_ref::PoolShape s = c.ref_shape();
  std::vector<int64_t> index;
  if (kind == Kind::arbitrary) {
    for (int64_t k = 0; k < s.planes * s.ho * s.wo; ++k) {
      index.push_back(static_cast<int64_t>(rng() % (s.h * s.w)));
    }
  } else {
    const std::vector<double> x = random_values(rng, s.planes * s.h * s.w, Values::ties);
    index = oa_ref::adaptive_max_pool2d(x, s).indices;
  }
  if (kind == Kind::one_outside) {
    index[0] = index[s.ho * s.wo - 1];  // the last window's index, named twice
  }
  check_tiled_against_padded(c, index, random_values(rng, s.planes * s.ho * s.wo, Values::specials),
                             expect_narrowed(c));
}

// Windows that tile contiguous planes (H % Ho == 0, W % Wo == 0), or channels-last samples that
// are dense blocks: the check notes per chunk whether every index lies in its own window (and
// narrows the indices of planes); such chunks are written by stores (a -0 gradient gives +0, a NaN
// the canonical quiet NaN), the others by sums. Channels-last gradOutput and indices are read
// channels-last or row-major with padded rows.
TEST(AdaptiveMaxPool2dBackward, WindowsThatTileThePlane) {
  struct Shape {
    std::vector<int64_t> dims;
    int64_t ho;
    int64_t wo;
  };
  const Shape shapes[] = {{{2, 40, 32, 32}, 16, 16},  // 2x2 windows, several chunks
                          {{3, 8, 28, 28}, 14, 14},  {{64, 12, 12}, 6, 6},
                          {{2, 3, 64, 64}, 32, 32},  {{1, 4, 8, 8}, 8, 8},  // 1x1 windows
                          {{2, 3, 9, 9}, 3, 9},                             // 3x1 windows
                          {{2, 3, 56, 56}, 7, 7},  // 8x8 windows: sparse sums
                          {{2, 4, 30, 40}, 1, 1}};
  std::mt19937_64 rng(12);
  for (const Shape& shape : shapes) {
    for (bool nhwc : {false, true}) {
      for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (aclDataType index_dtype : {ACL_INT32, ACL_INT64}) {
          for (int variant = 0; variant < 6; ++variant) {
            // gradOutput and indices contiguous (channels-last with gradInput), or with padded
            // rows and an offset.
            const Kind kind = static_cast<Kind>(variant / 2);
            PoolCase c = simple_case(shape.dims, shape.ho, shape.wo, dtype);
            c.index_dtype = index_dtype;
            if (nhwc) {
              c.input_layout = c.output_layout = c.index_layout = channels_last(shape.dims.size());
            }
            if (variant % 2 == 1) {
              c.output_layout = c.index_layout = Layout{{}, 1, 2, 3};
            }
            check_tiling_kind(c, kind, rng);
          }
        }
      }
    }
  }
}

// 2x2 windows over planes whose indices all lie in their own windows are written whole, a window
// row at a time, by vectors of outputs (ops/pooling/pair_windows_simd.h): on every
// SIMD target, with rows of fewer outputs than a vector holds (written one output at a time),
// exactly a vector's worth, and with a last vector that overlaps the one before, gradOutput
// contiguous or with padded rows and special gradients, the same bits as the sums in padded memory.
TEST(AdaptiveMaxPool2dBackward, PairWindowsOnEverySimdTarget) {
  std::mt19937_64 rng(17);
  oa_test::for_each_simd_target([&] {
    for (int64_t wo : {1, 3, 4, 7, 8, 9, 16, 17, 33}) {
      for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (bool padded : {false, true}) {
          PoolCase c = simple_case({2, 3, 6, 2 * wo}, 3, wo, dtype);
          if (padded) {
            c.output_layout = c.index_layout = Layout{{}, 1, 2, 3};
          }
          check_tiling_kind(c, Kind::own_windows, rng);
          check_tiling_kind(c, Kind::one_outside, rng);
        }
      }
    }
  });
}

// The same in a launch that streams its output (tests/ops/adaptive_max_pool2d/pair_windows_test.cpp
// has the kernel's streaming stores on every SIMD target): rows of 17 outputs, whose vectors do
// not all start on a vector boundary. With one index outside its window, the first chunk forms
// sums and streams them out.
TEST(AdaptiveMaxPool2dBackward, PairWindowsStreamed) {
  std::mt19937_64 rng(18);
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    PoolCase c =
        simple_case({samples_beyond_cache(8, 4, 34, 2, 17, dtype), 8, 4, 34}, 2, 17, dtype);
    check_tiling_kind(c, dtype == ACL_FLOAT ? Kind::own_windows : Kind::one_outside, rng);
  }
}

// Channels-last 16-bit samples that are dense blocks, in a launch that streams its output: with
// every index in its own window, each row of windows is built in the workspace and streamed into
// gradInput (at an odd offset here, so that the bands start and end off the vector boundaries).
// With one index outside its window, the first chunk forms sums and the others stream bands.
TEST(AdaptiveMaxPool2dBackward, ChannelsLastBandsStreamed) {
  std::mt19937_64 rng(16);
  const int64_t samples = samples_beyond_cache(32, 48, 48, 12, 12, ACL_BF16);
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    PoolCase c = simple_case({samples, 32, 48, 48}, 12, 12, dtype);
    c.output_layout = c.index_layout = channels_last(4);
    c.input_layout = Layout{channels_last(4).order, 1, 0, 3};
    SCOPED_TRACE(c.describe());
    const oa_ref::PoolShape s = c.ref_shape();
    const std::vector<double> x = random_values(rng, s.planes * s.h * s.w, Values::ties);
    std::vector<int64_t> index = oa_ref::adaptive_max_pool2d(x, s).indices;
    if (dtype == ACL_BF16) {
      index[0] = index[s.ho * s.wo - 1];
    }
    uint64_t workspace_size = 0;
    run_with_indices(c, index, rng, &workspace_size);
  }
}

TEST(AdaptiveMaxPool2dBackward, TiledWindowEdges) {
  struct Shape {
    std::vector<int64_t> dims;
    int64_t ho;
    int64_t wo;
  };
  const Shape shapes[] = {{{1, 1, 2, 32768}, 1, 16384}, {{1, 2, 256, 256}, 128, 128},
                          {{2, 3, 30, 30}, 10, 15},     {{1, 1, 64, 1024}, 32, 512},
                          {{1, 2, 255, 257}, 85, 257},  {{1, 1, 168, 390}, 24, 30}};
  struct EdgeCase {
    Shape shape;
    aclDataType dtype;
    bool nhwc;
  };
  std::vector<EdgeCase> edge_cases;
  for (const Shape& shape : shapes) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
      for (bool nhwc : {false, true}) {
        if (!nhwc || shape.dims[1] > 1) {
          edge_cases.push_back({shape, dtype, nhwc});
        }
      }
    }
  }
  std::mt19937_64 rng(13);
  for (const auto& [shape, dtype, nhwc] : edge_cases) {
    PoolCase c = simple_case(shape.dims, shape.ho, shape.wo, dtype);
    if (nhwc) {
      c.input_layout = c.output_layout = c.index_layout = channels_last(4);
    }
    const oa_ref::PoolShape s = c.ref_shape();
    const int64_t kh = s.h / s.ho;
    const int64_t kw = s.w / s.wo;
    auto first = [&](int64_t i, int64_t j) { return i * kh * s.w + j * kw; };
    // An interior output, so that each neighbour exists (or the first row of a one-row plane).
    const int64_t i = s.ho / 2;
    const int64_t j = s.wo / 2;
    for (int edge = 0; edge < 3; ++edge) {
      SCOPED_TRACE(c.describe() + ", edge " + std::to_string(edge));
      int64_t ni = i;  // the neighbour whose window holds the index
      int64_t nj = j;
      int64_t position = 0;
      if (edge == 0) {
        nj = j + 1;
        position = first(i, j + 1);
      } else if (edge == 1) {
        if (i + 1 == s.ho) {
          continue;
        }
        ni = i + 1;
        position = first(i + 1, j);
      } else {
        nj = j - 1;
        position = first(i, j) - 1;  // the last column of the first row of the window before
      }
      std::vector<int64_t> index;
      for (int64_t p = 0; p < s.planes; ++p) {
        for (int64_t a = 0; a < s.ho; ++a) {
          for (int64_t b = 0; b < s.wo; ++b) {
            index.push_back(first(a, b));
          }
        }
      }
      index[i * s.wo + j] = position;
      index[ni * s.wo + nj] = position;
      check_tiled_against_padded(
          c, index, random_values(rng, s.planes * s.ho * s.wo, Values::spread), expect_narrowed(c));
    }
  }
}

TEST(AdaptiveMaxPool2dBackward, EmptySelfDoesNothing) {
  // The indices would be out of range for any plane: with no gradInput element nothing is read.
  Problem p(simple_case({2, 0, 4}, 3, 3), std::vector<double>(18, 1.0),
            std::vector<int64_t>(18, 99));
  EXPECT_EQ(p.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_TRUE(p.grad_input.only_view_written());
  Problem batch(simple_case({0, 2, 4, 4}, 2, 2), {}, {});
  EXPECT_EQ(batch.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

TEST(AdaptiveMaxPool2dBackward, EmptyGradOutputZeroesGradInput) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    PoolCase c = simple_case({2, 3, 4, 4}, 0, 2, dtype);
    c.input_layout = Layout{{}, 1, 2, 1};
    Problem p(c, {}, {});
    ASSERT_EQ(p.run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(p.grad_input.read(), std::vector<double>(2 * 3 * 4 * 4, 0.0));
    EXPECT_TRUE(p.grad_input.only_view_written());
  }
}

// The seed's example passes index 6 for a 2x2 plane.
TEST(AdaptiveMaxPool2dBackward, OutOfRangeIndexIsADataError) {
  PoolCase c = simple_case({1, 1, 2, 2}, 1, 1);
  c.index_dtype = ACL_INT32;
  Problem p(c, {0.4757}, {6});
  oa_test::expect_error(p.run(), ACLNN_ERR_RUNTIME_ERROR,
                        {"aclnnAdaptiveMaxPool2dBackward", "indices[0, 0, 0, 0] = 6",
                         "out of range", "[0, 4)", "gradInput was not written"});
  EXPECT_EQ(p.grad_input.read(), std::vector<double>(4, kFill));
  EXPECT_TRUE(p.grad_input.only_view_written());
}

TEST(AdaptiveMaxPool2dBackward, NegativeIndexIsADataError) {
  std::vector<int64_t> index(3 * 2 * 2, 0);
  index[1 * 4 + 0 * 2 + 1] = -1;
  Problem p(simple_case({3, 4, 4}, 2, 2, ACL_BF16), std::vector<double>(12, 1.0), index);
  oa_test::expect_error(p.run(), ACLNN_ERR_RUNTIME_ERROR, {"indices[1, 0, 1] = -1", "[0, 16)"});
  EXPECT_EQ(p.grad_input.read(), std::vector<double>(48, kFill));
}

// With many chunks and threads, the first bad index in row-major order is named and no element of
// gradInput is written, in both loop nests.
TEST(AdaptiveMaxPool2dBackward, FirstBadIndexIsNamedAndNothingIsWritten) {
  for (const Layout& layout : {Layout{}, channels_last(4)}) {
    for (aclDataType index_dtype : {ACL_INT32, ACL_INT64}) {
      // Eight chunks of planes; 40 KiB of INT32 indices are checked on one thread, 80 KiB of INT64
      // on all.
      PoolCase c = simple_case({4, 40, 64, 64}, 8, 8);
      c.index_dtype = index_dtype;
      c.input_layout = c.output_layout = c.index_layout = layout;
      std::vector<int64_t> index(4 * 40 * 64, 17);
      index[((3 * 40 + 39) * 8 + 7) * 8 + 7] = 4096;
      index[((2 * 40 + 5) * 8 + 1) * 8 + 3] = 5000;
      Problem p(c, std::vector<double>(index.size(), 1.0), index);
      oa_test::expect_error(p.run(), ACLNN_ERR_RUNTIME_ERROR, {"indices[2, 5, 1, 3] = 5000"});
      EXPECT_EQ(p.grad_input.read(), std::vector<double>(4 * 40 * 4096, kFill));
      EXPECT_TRUE(p.grad_input.only_view_written());
    }
  }
}

// Also the same bits from the baseline loops (OPENACLNN_CPU_ISA=scalar) and the vector ones.
TEST(AdaptiveMaxPool2dBackward, SameBitsForAnyThreadCountAndInstructionSet) {
  for (const Layout& layout : {Layout{}, channels_last(4)}) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
      PoolCase c = simple_case({2, 40, 23, 19}, 9, 7, dtype);
      c.input_layout = c.output_layout = c.index_layout = layout;
      std::vector<uint64_t> first;
      for (const char* isa : {"simd", "scalar"}) {
        oa_test::ScopedEnv isa_env("OPENACLNN_CPU_ISA", isa);
        for (const char* threads : {"1", "2", "3"}) {
          oa_test::ScopedEnv threads_env("OPENACLNN_NUM_THREADS", threads);
          std::mt19937_64 rng(11);  // the same problem each time
          const std::vector<uint64_t> bits = check_backward(c, Indices::arbitrary, rng);
          if (first.empty()) {
            first = bits;
          } else {
            EXPECT_EQ(bits, first) << isa << ", " << threads << " threads";
          }
        }
      }
    }
  }
}

// self's data is never read, so gradInput may be the very same view.
TEST(AdaptiveMaxPool2dBackward, GradInputMayShareSelfMemory) {
  Problem p(simple_case({1, 2, 2}, 1, 1), {2.5}, {2});
  ASSERT_EQ(
      run_backward(p.grad_output.get(), p.grad_input.get(), p.indices.get(), p.grad_input.get()),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(p.grad_input.read(), (std::vector<double>{0, 0, 2.5, 0}));
}

// A repeatable executor runs twice over a workspace full of garbage and gives the same bits.
TEST(AdaptiveMaxPool2dBackward, ResultsDoNotDependOnTheWorkspace) {
  std::mt19937_64 rng(3);
  PoolCase c = simple_case({2, 3, 9, 9}, 4, 4, ACL_BF16);
  const oa_ref::PoolShape s = c.ref_shape();
  std::vector<int64_t> index;
  for (int64_t k = 0; k < s.planes * 16; ++k) {
    index.push_back(static_cast<int64_t>(rng() % 81));
  }
  Problem p(c, random_values(rng, s.planes * 16, Values::spread), index);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(p.plan(&workspace_size, &executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_GT(workspace_size, 0u);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  oa_test::DeviceBuffer workspace(workspace_size);
  std::vector<uint64_t> first;
  for (unsigned char garbage : {0xFF, 0x7F}) {
    workspace.write(std::vector<unsigned char>(workspace_size, garbage));
    ASSERT_EQ(aclnnAdaptiveMaxPool2dBackward(workspace.get(), workspace_size, executor, nullptr),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    if (first.empty()) {
      first = p.grad_input.read_bits();
    } else {
      EXPECT_EQ(p.grad_input.read_bits(), first);
    }
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  const std::vector<double> ref =
      oa_ref::adaptive_max_pool2d_backward(p.grad_output.read(), index, s);
  const std::vector<double> got = p.grad_input.read();
  for (size_t k = 0; k < ref.size(); ++k) {
    EXPECT_NEAR(got[k], ref[k], std::fabs(ref[k]) * epsilon(ACL_BF16) + 1e-6) << k;
  }
}

// Positions past 2^24 are exact (CANN's kernel has a 2^24 limit when windows overlap).
TEST(AdaptiveMaxPool2dBackward, PlanesLargerThan2To24) {
  const int64_t w = (int64_t{1} << 24) + 3;
  const int64_t last = (int64_t{1} << 24) + 1;  // no float32 names it
  oa_test::DeviceBuffer grad_buffer(3 * sizeof(float));
  oa_test::DeviceBuffer index_buffer(3 * sizeof(int64_t));
  oa_test::DeviceBuffer out_buffer(w * sizeof(float));
  grad_buffer.write(std::vector<float>{1, 2, 3});
  index_buffer.write(std::vector<int64_t>{0, w / 3, last});
  auto grad = oa_test::make_tensor({1, 1, 3}, ACL_FLOAT, grad_buffer.get());
  auto index = oa_test::make_tensor({1, 1, 3}, ACL_INT64, index_buffer.get());
  auto out = oa_test::make_tensor({1, 1, w}, ACL_FLOAT, out_buffer.get());
  ASSERT_EQ(run_backward(grad.get(), out.get(), index.get(), out.get()), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  // The nonzero elements: exactly the three scattered.
  const std::vector<float> got = out_buffer.read<float>();
  std::vector<std::pair<int64_t, float>> nonzero;
  for (int64_t k = 0; k < w; ++k) {
    if (got[k] != 0) {
      nonzero.emplace_back(k, got[k]);
    }
  }
  EXPECT_EQ(nonzero, (std::vector<std::pair<int64_t, float>>{{0, 1}, {w / 3, 2}, {last, 3}}));
}

}  // namespace
}  // namespace amp_test
