// The references of aclnnConvolution, aclnnConvDepthwise2d and aclnnConvolutionBackward: every
// pass of job.h as the plain sum over the convolution's taps. Each operand of a product is
// widened by the core's conversion and rounded as cubeMathType says (job.h) into a float64 array
// in the workspace; every sum is float64 over exactly the taps that fall inside the input (the
// padding contributes no term); bias is added in float64, and each result is rounded once to its
// output's dtype (round_once.h). Any dtype the checks admit, any strides, empty tensors, on one
// thread.
#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "core/convert.h"
#include "ops/conv/impls.h"
#include "ops/conv/job.h"
#include "ops/conv/round_once.h"

namespace oa::conv {
namespace {

// f(x index, w index, y index) for every tap of the convolution: y[n, o, j...] takes
// x[n, g cx/groups + i, j stride - pad_l + t dilation...] w[o, i, t...] for the group g of o.
// Indices are into dense row-major arrays of the three shapes.
template <typename F>
void for_each_tap(const ConvProblem& p, F f) {
  const int64_t cig = p.cx / p.groups;
  const int64_t cog = p.cy / p.groups;
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t o = 0; o < p.cy; ++o) {
      const int64_t g = o / cog;
      for (int64_t j0 = 0; j0 < p.y[0]; ++j0) {
        for (int64_t j1 = 0; j1 < p.y[1]; ++j1) {
          for (int64_t j2 = 0; j2 < p.y[2]; ++j2) {
            const int64_t yi = (((n * p.cy + o) * p.y[0] + j0) * p.y[1] + j1) * p.y[2] + j2;
            for (int64_t i = 0; i < cig; ++i) {
              const int64_t c = g * cig + i;
              for (int64_t t0 = 0; t0 < p.k[0]; ++t0) {
                const int64_t s0 = j0 * p.stride[0] - p.pad_l[0] + t0 * p.dilation[0];
                if (s0 < 0 || s0 >= p.x[0]) {
                  continue;
                }
                for (int64_t t1 = 0; t1 < p.k[1]; ++t1) {
                  const int64_t s1 = j1 * p.stride[1] - p.pad_l[1] + t1 * p.dilation[1];
                  if (s1 < 0 || s1 >= p.x[1]) {
                    continue;
                  }
                  for (int64_t t2 = 0; t2 < p.k[2]; ++t2) {
                    const int64_t s2 = j2 * p.stride[2] - p.pad_l[2] + t2 * p.dilation[2];
                    if (s2 < 0 || s2 >= p.x[2]) {
                      continue;
                    }
                    const int64_t xi = (((n * p.cx + c) * p.x[0] + s0) * p.x[1] + s1) * p.x[2] + s2;
                    const int64_t wi = (((o * cig + i) * p.k[0] + t0) * p.k[1] + t1) * p.k[2] + t2;
                    f(xi, wi, yi);
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

// f(dense index, view offset) over a view's elements in row-major order.
template <typename F>
void for_each_element(const View5& v, F f) {
  int64_t index = 0;
  for (int64_t i0 = 0; i0 < v.dims[0]; ++i0) {
    for (int64_t i1 = 0; i1 < v.dims[1]; ++i1) {
      for (int64_t i2 = 0; i2 < v.dims[2]; ++i2) {
        for (int64_t i3 = 0; i3 < v.dims[3]; ++i3) {
          for (int64_t i4 = 0; i4 < v.dims[4]; ++i4) {
            f(index++, v.offset(i0, i1, i2, i3, i4), i1);
          }
        }
      }
    }
  }
}

void stage(const View5& v, CubeRounding rounding, double* dst) {
  for_each_element(v, [&](int64_t index, int64_t offset, int64_t) {
    dst[index] = cube_round(rounding, load_float(v.dtype, v.data, offset));
  });
}

class Reference final : public Plan {
 public:
  explicit Reference(ConvJob job) : job_(std::move(job)) {
    for (const ConvStep& s : job_.steps) {
      const int64_t elements = s.a.numel() + s.b.numel() + s.out.numel();
      workspace_bytes_ =
          std::max(workspace_bytes_, elements * static_cast<int64_t>(sizeof(double)));
    }
  }

  int64_t workspace_bytes() const { return workspace_bytes_; }

  aclnnStatus run(void* workspace) const override {
    for (const ConvStep& s : job_.steps) {
      double* a = static_cast<double*>(workspace);
      double* b = a + s.a.numel();
      double* out = b + s.b.numel();
      stage(s.a, s.a_rounding, a);
      stage(s.b, s.b_rounding, b);
      std::memset(out, 0, static_cast<size_t>(s.out.numel()) * sizeof(double));
      switch (s.pass) {
        case Pass::forward:
          for_each_tap(job_.problem,
                       [&](int64_t xi, int64_t wi, int64_t yi) { out[yi] += a[xi] * b[wi]; });
          break;
        case Pass::backward_data:
          for_each_tap(job_.problem,
                       [&](int64_t xi, int64_t wi, int64_t yi) { out[xi] += a[yi] * b[wi]; });
          break;
        case Pass::backward_weights:
          for_each_tap(job_.problem,
                       [&](int64_t xi, int64_t wi, int64_t yi) { out[wi] += a[xi] * b[yi]; });
          break;
      }
      for_each_element(s.out, [&](int64_t index, int64_t offset, int64_t channel) {
        double value = out[index];
        if (s.has_bias) {
          value += cube_round(s.bias_rounding,
                              load_float(s.bias.dtype, s.bias.data, channel * s.bias.strides[1]));
        }
        store_result(s.out.dtype, value, s.out.data, offset);
      });
    }
    if (job_.has_grad_bias) {
      store_grad_bias(job_);
    }
    return ACLNN_SUCCESS;
  }

 private:
  ConvJob job_;
  int64_t workspace_bytes_ = 0;
};

Impl reference(ConvJob (*job)(const Call&)) {
  Impl impl;
  impl.name = "reference";
  impl.plan = [job](const Call& call, Planned* planned) {
    auto plan = std::make_unique<Reference>(job(call));
    planned->workspace_bytes = static_cast<uint64_t>(plan->workspace_bytes());
    planned->plan = std::move(plan);
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace

Impl conv_forward_reference() { return reference(forward_job); }

Impl conv_backward_reference() { return reference(backward_job); }

}  // namespace oa::conv
