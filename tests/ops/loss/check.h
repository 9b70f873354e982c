// What the loss tests share: a call of a definition on chosen or random data (the shared tensor
// builder and call runner of tests/support), its inputs read back as the float64 references take
// them, and the comparison of outputs with reference terms (reference/losses.h): within one
// rounding to the output's dtype plus a few float32 roundings of the terms' magnitude.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/op/build.h"
#include "core/op/definition.h"
#include "reference/losses.h"
#include "support/call.h"

namespace loss_test {

using oa_ref::Array;
using oa_ref::Term;
using Shape = std::vector<int64_t>;

inline const oa::OpDef& def_of(const char* name) { return *oa::find_definition(name); }

// The unit roundoff of a floating dtype, and its smallest subnormal.
inline double unit_roundoff(aclDataType dtype) {
  return dtype == ACL_BF16      ? std::ldexp(1.0, -8)
         : dtype == ACL_FLOAT16 ? std::ldexp(1.0, -11)
                                : std::ldexp(1.0, -24);
}
inline double smallest(aclDataType dtype) {
  return dtype == ACL_BF16      ? std::ldexp(1.0, -133)
         : dtype == ACL_FLOAT16 ? std::ldexp(1.0, -24)
                                : std::ldexp(1.0, -149);
}

// Whether an output element of `dtype` holding `got` matches the reference term: NaN for NaN; the
// same infinity where the value rounds to one (or the largest finite value, a rounding apart);
// NaN or an infinity where an infinite factor met one that float32 may round to 0 and double not
// (or the reverse: an infinite magnitude);
// else within one rounding to dtype of the value, plus `roundings` float32 roundings of the
// terms' magnitude.
inline bool close_to(aclDataType dtype, double got, const Term& expected, double roundings = 16) {
  if (std::isinf(expected.magnitude) && !std::isfinite(got)) {
    return true;  // an infinite factor: whether its partner rounds to 0 decides NaN or infinity
  }
  if (std::isnan(expected.value)) {
    return std::isnan(got);
  }
  const double rounded = oa_test::round_to(dtype, expected.value);
  if (std::isinf(rounded)) {
    return got == rounded ||
           (std::isfinite(got) && std::signbit(got) == std::signbit(rounded) &&
            std::fabs(got) >= std::fabs(oa_test::round_to(dtype, 0.999 * expected.value)));
  }
  if (std::isnan(got) || std::isinf(got)) {
    return false;
  }
  const double tolerance = unit_roundoff(dtype) * std::fabs(expected.value) +
                           roundings * std::ldexp(1.0, -24) * expected.magnitude + smallest(dtype);
  return std::fabs(got - expected.value) <= tolerance;
}

// Expects every output element close to its term; names at most a few failures.
inline void expect_close(aclDataType dtype, const std::vector<double>& got,
                         const std::vector<Term>& expected, const std::string& what,
                         double roundings = 16) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  int reported = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!close_to(dtype, got[i], expected[i], roundings) && reported++ < 5) {
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", expected "
                    << expected[i].value << " (magnitude " << expected[i].magnitude << ")";
    }
  }
}

inline const aclDataType kFloatTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

inline aclDataType random_float_type(std::mt19937_64& rng) { return kFloatTypes[rng() % 3]; }

// A random shape of rank in [min_rank, max_rank], dims in [1, max_dim] but now and then a last dim
// of 37 to 86 (so that the SIMD paths run, not only their scalar tails), and with `empty` a chance
// of a 0 dim.
inline Shape random_shape(std::mt19937_64& rng, int min_rank, int max_rank, int64_t max_dim,
                          bool empty = false) {
  const int rank =
      min_rank + static_cast<int>(rng() % static_cast<uint64_t>(max_rank - min_rank + 1));
  Shape shape;
  for (int d = 0; d < rank; ++d) {
    shape.push_back(1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_dim)));
  }
  if (rank > 0 && rng() % 4 == 0) {
    shape.back() = 37 + static_cast<int64_t>(rng() % 50);
  }
  if (empty && rank > 0 && rng() % 4 == 0) {
    shape[rng() % shape.size()] = 0;
  }
  return shape;
}

// A shape that broadcasts to `shape`: some leading dims dropped, some dims 1.
inline Shape broadcast_part(std::mt19937_64& rng, const Shape& shape) {
  Shape part(shape.begin() + static_cast<int64_t>(rng() % (shape.size() + 1)), shape.end());
  for (int64_t& d : part) {
    if (rng() % 3 == 0) {
      d = 1;
    }
  }
  return part;
}

// A value drawn for an input: normals (scale 2) with infinities, NaNs and signed zeros now and
// then where `specials`.
inline double normal_value(std::mt19937_64& rng, aclDataType dtype, bool specials) {
  return oa_test::random_value(rng, dtype, specials);
}

// A probability in [0, 1], 0 and 1 among them.
inline double probability(std::mt19937_64& rng, aclDataType dtype) {
  const uint64_t kind = rng() % 10;
  if (kind == 0) {
    return 0.0;
  }
  if (kind == 1) {
    return 1.0;
  }
  return oa_test::round_to(dtype, std::uniform_real_distribution<double>(0.0, 1.0)(rng));
}

// One call of a definition: the tensors (with random layouts where `layouts`), inputs filled by
// value(name, dtype), both phases run.
struct Called {
  Called(const oa::OpDef& d, oa::CallSpec s) : def(d), spec(std::move(s)) {}

  const oa::OpDef& def;
  oa::CallSpec spec;
  std::unique_ptr<oa_test::TestCall> call;
  aclnnStatus status = ACLNN_SUCCESS;

  oa_test::TestTensor* tensor(const std::string& name) const { return call->tensor(name); }
  Array input(const std::string& name) const {
    const oa_test::TestTensor* t = tensor(name);
    return {t->spec().shape, t->read()};
  }
  aclDataType dtype(const std::string& name) const { return tensor(name)->spec().dtype; }
  int64_t integer(const std::string& name) const {
    return spec.args[static_cast<size_t>(def.param_index(name))].integer;
  }
};

using ValueOf = std::function<double(const std::string& name, aclDataType dtype)>;

inline std::unique_ptr<Called> call_op(const oa::OpDef& def, oa::CallSpec spec,
                                       const ValueOf& value, std::mt19937_64* layouts = nullptr) {
  if (layouts != nullptr) {
    for (size_t i = 0; i < def.params.size(); ++i) {
      if (oa::is_tensor(def.params[i].kind) && !spec.args[i].null) {
        spec.args[i].tensor = oa_test::random_layout(spec.args[i].tensor, *layouts,
                                                     def.params[i].kind == oa::ParamKind::input);
      }
    }
  }
  auto r = std::make_unique<Called>(def, spec);
  r->call = std::make_unique<oa_test::TestCall>(def, spec);
  for (size_t i = 0; i < def.params.size(); ++i) {
    oa_test::TestTensor* t = r->call->tensor(static_cast<int>(i));
    if (t == nullptr || def.params[i].kind != oa::ParamKind::input) {
      continue;
    }
    std::vector<double> values;
    for (int64_t k = 0; k < t->numel(); ++k) {
      values.push_back(value(def.params[i].name, t->spec().dtype));
    }
    t->write(values);
  }
  r->status = r->call->run();
  return r;
}

// The description of a call for failure messages.
inline std::string describe(const Called& r) {
  std::string text = r.def.name + "(";
  for (size_t i = 0; i < r.def.params.size(); ++i) {
    const oa::ArgSpec& a = r.spec.args[i];
    text += (i == 0 ? "" : ", ") + r.def.params[i].name + "=";
    if (a.null) {
      text += "null";
    } else if (oa::is_tensor(r.def.params[i].kind)) {
      text += oa::dtype_name(a.tensor.dtype) + oa::shape_string(a.tensor.shape) +
              (a.tensor.strides.empty() ? "" : " strides " + oa::shape_string(a.tensor.strides));
    } else {
      text += std::to_string(a.integer);
    }
  }
  return text + ")";
}

// Expects the call to have succeeded, written only its outputs' views, and its output `name`
// close to the terms.
inline void expect_output(const Called& r, const std::string& name, const std::vector<Term>& terms,
                          double roundings = 16) {
  const std::string what = describe(r) + " " + name;
  ASSERT_EQ(r.status, ACLNN_SUCCESS) << what << ": " << aclGetRecentErrMsg();
  EXPECT_TRUE(r.call->only_views_written()) << what;
  expect_close(r.dtype(name), r.tensor(name)->read(), terms, what, roundings);
}

inline int64_t count_of(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    n *= d;
  }
  return n;
}

}  // namespace loss_test
