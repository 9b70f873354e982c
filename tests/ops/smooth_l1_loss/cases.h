// Random cases of the two smooth L1 loss operators: ranks 0-8, broadcasting on every input, mixed
// dtypes, random views and values, every beta of the contract's interesting set.
#pragma once

#include <limits>
#include <random>
#include <string>

#include "ops/smooth_l1_loss/operand.h"
#include "ops/smooth_l1_loss/run.h"

namespace sl1_test {

constexpr float kBetas[] = {0.0f, 1e-30f, 0.5f, 1.0f, 3.0f, std::numeric_limits<float>::infinity()};

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
