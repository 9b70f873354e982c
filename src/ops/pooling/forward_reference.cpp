#include "kernels/adaptive_max_pool2d/forward_reference.h"

#include "core/float_convert.h"

namespace oa::amp {
namespace {

double to_double(float v) { return v; }
double to_double(double v) { return v; }
double to_double(Half v) { return half_to_float(v.bits); }
double to_double(Bf16 v) { return bf16_to_float(v.bits); }

// The maximum is one of the inputs, so storing it back in the input's type is exact.
template <typename T>
T from_double(double v);
template <>
double from_double<double>(double v) {
  return v;
}
template <>
float from_double<float>(double v) {
  return static_cast<float>(v);
}
template <>
Half from_double<Half>(double v) {
  return {float_to_half(static_cast<float>(v))};
}
template <>
Bf16 from_double<Bf16>(double v) {
  return {float_to_bf16(static_cast<float>(v))};
}

template <typename T>
void scan_planes(const ForwardPlan& plan, int64_t chunk) {
  const Dims& d = plan.dims;
  const Range range = chunk_range(plan.split, chunk);
  for (int64_t unit = range.begin; unit < range.end; ++unit) {
    const int64_t n = unit / d.c;
    const int64_t c = unit % d.c;
    const T* x = static_cast<const T*>(plan.self.data) + n * plan.self.sn + c * plan.self.sc;
    T* out = static_cast<T*>(plan.out.data) + n * plan.out.sn + c * plan.out.sc;
    int64_t* indices =
        static_cast<int64_t*>(plan.indices.data) + n * plan.indices.sn + c * plan.indices.sc;
    for (int64_t i = 0; i < d.ho; ++i) {
      for (int64_t j = 0; j < d.wo; ++j) {
        double best = 0.0;
        int64_t best_index = -1;
        for (int64_t h = plan.row_begin[i]; h < plan.row_end[i]; ++h) {
          for (int64_t w = plan.col_begin[j]; w < plan.col_end[j]; ++w) {
            const double v = to_double(x[h * plan.self.sh + w * plan.self.sw]);
            if (best_index < 0 || v > best || v != v) {
              best = v;
              best_index = h * d.w + w;
            }
          }
        }
        out[i * plan.out.sh + j * plan.out.sw] = from_double<T>(best);
        indices[i * plan.indices.sh + j * plan.indices.sw] = best_index;
      }
    }
  }
}

}  // namespace

ForwardKernel forward_reference(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return [](const ForwardPlan& plan, int64_t chunk, void*) { scan_planes<float>(plan, chunk); };
    case ACL_FLOAT16:
      return [](const ForwardPlan& plan, int64_t chunk, void*) { scan_planes<Half>(plan, chunk); };
    case ACL_BF16:
      return [](const ForwardPlan& plan, int64_t chunk, void*) { scan_planes<Bf16>(plan, chunk); };
    case ACL_DOUBLE:
      return
          [](const ForwardPlan& plan, int64_t chunk, void*) { scan_planes<double>(plan, chunk); };
    default:
      return nullptr;
  }
}

}  // namespace oa::amp
