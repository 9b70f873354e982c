// The reference of aclnnAdaptiveMaxPool2d (SPEC section 11): every window scanned in row-major
// order in float64, an element replacing the current maximum when it is greater or NaN; the
// maximum found is stored back from self in its own dtype, with its index h * W + w. Any dtype the
// checks admit (DOUBLE too), any strides, one (n, c) plane at a time.
#include <memory>
#include <utility>

#include "base/parallel.h"
#include "core/convert.h"
#include "core/values.h"
#include "ops/pooling/impls.h"
#include "ops/pooling/pool_plan.h"

namespace oa::pooling {
namespace {

// Element k of a FLOAT, FLOAT16, BF16 or DOUBLE array, as a double (exactly).
double load_double(aclDataType dtype, const void* base, int64_t k) {
  if (dtype == ACL_DOUBLE) {
    return static_cast<const double*>(base)[k];
  }
  return load_float(dtype, base, k);
}

// Element k of `from` copied to element m of `to`, both of dtype: exact, as both conversions are.
void copy_element(aclDataType dtype, const void* from, int64_t k, void* to, int64_t m) {
  if (dtype == ACL_DOUBLE) {
    static_cast<double*>(to)[m] = static_cast<const double*>(from)[k];
    return;
  }
  store_float(dtype, load_float(dtype, from, k), to, m);
}

class ForwardReference final : public Plan {
 public:
  ForwardReference(const aclTensor& self, int64_t ho, int64_t wo, const aclTensor& out,
                   const aclTensor& indices)
      : dtype_(self.dtype),
        dims_(dims_of(self, ho, wo)),
        self_(view_of(self)),
        out_(view_of(out)),
        indices_(view_of(indices)) {}

  aclnnStatus run(void*) const override {
    parallel_for(dims_.n * dims_.c,
                 [&](int64_t plane) { scan_plane(plane / dims_.c, plane % dims_.c); });
    return ACLNN_SUCCESS;
  }

 private:
  void scan_plane(int64_t n, int64_t c) const {
    const Dims& d = dims_;
    const int64_t x = n * self_.sn + c * self_.sc;
    const int64_t o = n * out_.sn + c * out_.sc;
    const int64_t p = n * indices_.sn + c * indices_.sc;
    auto* indices = static_cast<int64_t*>(indices_.data);
    for (int64_t i = 0; i < d.ho; ++i) {
      for (int64_t j = 0; j < d.wo; ++j) {
        double best = 0.0;
        int64_t best_h = -1;
        int64_t best_w = -1;
        for (int64_t h = window_begin(i, d.h, d.ho); h < window_end(i, d.h, d.ho); ++h) {
          for (int64_t w = window_begin(j, d.w, d.wo); w < window_end(j, d.w, d.wo); ++w) {
            const double v = load_double(dtype_, self_.data, x + h * self_.sh + w * self_.sw);
            if (best_h < 0 || v > best || v != v) {
              best = v;
              best_h = h;
              best_w = w;
            }
          }
        }
        copy_element(dtype_, self_.data, x + best_h * self_.sh + best_w * self_.sw, out_.data,
                     o + i * out_.sh + j * out_.sw);
        indices[p + i * indices_.sh + j * indices_.sw] = best_h * d.w + best_w;
      }
    }
  }

  aclDataType dtype_;
  Dims dims_;
  View self_;
  View out_;
  View indices_;  // INT64, the only index dtype the checks admit
};

}  // namespace

Impl forward_reference() {
  Impl impl;
  impl.name = "reference";
  impl.plan = [](const Call& call, Planned* planned) {
    const auto* output_size = static_cast<const aclIntArray*>(call.handle("outputSize"));
    planned->plan = std::make_unique<ForwardReference>(
        *call.tensor("self"), output_size->values[0], output_size->values[1],
        *call.tensor("outputOut"), *call.tensor("indicesOut"));
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace oa::pooling
