// The element-by-element accuracy statistics of an actual array against an expected one, as the
// compare command reports them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "array.h"

namespace oa::tool {

// An element passes when |actual - expected| <= atol + rtol * |expected|.
struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

// CANN's accuracy standards: float32 1e-4, float16 1e-3, bf16 4e-3. The 8-bit floats get 2^-3,
// one step of a 3-bit mantissa (hif8 has fewer mantissa bits far from 1, so this is lenient only
// near 1). Integers: 0, exact.
double default_rtol(aclDataType dtype);

// The default when the user gives neither: the looser rtol of the two dtypes (a float16 output
// checked against a float32 golden is held to the float16 standard), and atol equal to that rtol
// so that elements whose expected value is near zero are not held to a vanishing bound.
Tolerance default_tolerance(aclDataType expected, aclDataType actual);

// The elements as float64, in C order. Exact for every dtype except int64 values beyond 2^53.
std::vector<double> to_doubles(const Array& array);

struct Mismatch {
  int64_t index;  // C-order index
  double expected;
  double actual;
};

// Elements where both values are NaN, or both are the same infinity, match and take no part in
// the error statistics. NaN against a non-NaN, and an infinity against anything but itself, are
// mismatches and count as outside the tolerance.
struct Accuracy {
  int64_t count = 0;  // elements compared
  int64_t finite_count =
      0;  // elements where both values are finite: the error statistics cover these
  double max_abs_error = 0;
  int64_t max_abs_index = -1;  // -1 when finite_count is 0
  // The relative error |actual - expected| / |expected| is undefined where expected is 0, so the
  // relative statistics skip those elements (the absolute error and the tolerance still cover
  // them); relative_count is the number of elements they do cover.
  int64_t relative_count = 0;
  double max_rel_error = 0;
  int64_t max_rel_index = -1;  // -1 when relative_count is 0
  double mean_rel_error = 0;
  // Over the finite elements: 1 when both are all zero, 0 when exactly one is.
  double cosine_similarity = 1;
  int64_t nan_mismatches = 0;
  int64_t inf_mismatches = 0;
  int64_t outside = 0;                  // elements outside the tolerance, mismatches included
  std::vector<Mismatch> first_outside;  // the first of them, up to the number asked for
};

// expected and actual have the same size; keep is how many outside elements to list.
Accuracy measure_accuracy(const std::vector<double>& expected, const std::vector<double>& actual,
                          Tolerance tolerance, size_t keep);

// The multi-dimensional index of C-order index flat in shape ({} for 0-d).
std::vector<int64_t> unravel_index(int64_t flat, const std::vector<int64_t>& shape);

}  // namespace oa::tool
