#include "ops/conv/conv_product.h"

#include <algorithm>
#include <cstring>

namespace oa::conv {
namespace {

// The elements of one sample's x that a kernel of size 1 reads (every stride-th in each dim) into
// xs, densely.
template <typename T>
void subsample(const ConvPrimitive::Product& q, const void* x, void* xs) {
  const auto* from = static_cast<const T*>(x);
  auto* to = static_cast<T*>(xs);
  for (int64_t c = 0; c < q.cx; ++c) {
    for (int64_t i0 = 0; i0 < q.y[0]; ++i0) {
      for (int64_t i1 = 0; i1 < q.y[1]; ++i1) {
        const T* row =
            from + ((c * q.x[0] + i0 * q.stride[0]) * q.x[1] + i1 * q.stride[1]) * q.x[2];
        for (int64_t i2 = 0; i2 < q.y[2]; ++i2) {
          *to++ = row[i2 * q.stride[2]];
        }
      }
    }
  }
}

// dx of one sample from the product dxs over the elements a tap reaches, zeros where the stride
// skips elements: each row of dx written once to memory.
void scatter(const ConvPrimitive::Product& q, const float* dxs, float* dx) {
  const int64_t step = q.stride[2];
  const size_t row_bytes = static_cast<size_t>(q.x[2]) * 4;
  for (int64_t c = 0; c < q.cx; ++c) {
    for (int64_t j0 = 0; j0 < q.x[0]; ++j0) {
      for (int64_t j1 = 0; j1 < q.x[1]; ++j1) {
        float* row = dx + ((c * q.x[0] + j0) * q.x[1] + j1) * q.x[2];
        const int64_t i0 = j0 / q.stride[0];
        const int64_t i1 = j1 / q.stride[1];
        if (j0 % q.stride[0] != 0 || j1 % q.stride[1] != 0 || i0 >= q.y[0] || i1 >= q.y[1]) {
          std::memset(row, 0, row_bytes);
          continue;
        }
        const float* in = dxs + ((c * q.y[0] + i0) * q.y[1] + i1) * q.y[2];
        if (step > 1) {
          std::memset(row, 0, row_bytes);
        }
        for (int64_t i2 = 0; i2 < q.y[2]; ++i2) {
          row[i2 * step] = in[i2];
        }
      }
    }
  }
}

}  // namespace

std::unique_ptr<ConvPrimitive> ConvPrimitive::make_product(const ConvProblem& p, Pass pass,
                                                           Precision operands, int slots) {
  if (!p.k_is_one() || p.groups != 1) {
    return nullptr;
  }
  auto q = std::make_unique<Product>();
  for (int d = 0; d < 3; ++d) {
    if (p.pad_l[d] != 0 || p.pad_r(d) > 0) {
      return nullptr;
    }
    q->x[d] = p.x[d];
    q->y[d] = p.y[d];
    q->stride[d] = p.stride[d];
    q->strided = q->strided || p.x[d] != p.y[d];
  }
  q->pass = pass;
  q->n = p.n;
  q->cx = p.cx;
  q->cy = p.cy;
  q->bytes = operand_bytes(operands);
  const int64_t spatial = p.y[0] * p.y[1] * p.y[2];
  GemmShape shape;
  shape.precision = operands;
  shape.n = spatial;
  shape.ldb = spatial;
  shape.ldc = spatial;
  switch (pass) {
    case Pass::forward:  // y (cy x spatial) = w (cy x cx) . x
      shape.m = p.cy;
      shape.k = p.cx;
      shape.a_row = p.cx;
      break;
    case Pass::backward_data:  // dx (cx x spatial) = w^T . dy (cy x spatial)
      shape.m = p.cx;
      shape.k = p.cy;
      shape.a_row = 1;
      shape.a_col = p.cx;
      break;
    default:  // dw (cy x cx) = dy (cy x spatial) . x^T
      shape.m = p.cy;
      shape.n = p.cx;
      shape.k = spatial;
      shape.a_row = spatial;
      shape.ldb = 1;
      shape.b_col = spatial;
      shape.ldc = p.cx;
      break;
  }
  std::string error;
  q->gemm = Gemm::get(shape, slots, &error);
  if (q->gemm == nullptr) {
    return nullptr;
  }
  if (pass == Pass::backward_weights && p.n > 1) {
    shape.accumulate = true;
    q->accumulating = Gemm::get(shape, slots, &error);
    if (q->accumulating == nullptr) {
      return nullptr;
    }
  }
  std::unique_ptr<ConvPrimitive> conv(new ConvPrimitive());
  conv->pass_ = pass;
  conv->implementation_ = "matmul:" + q->gemm->implementation();
  q->staged_offset = aligned(static_cast<int64_t>(
      std::max(q->gemm->scratch_bytes(),
               q->accumulating == nullptr ? size_t{0} : q->accumulating->scratch_bytes())));
  const int64_t staged =
      q->strided ? p.cx * spatial * (pass == Pass::backward_data ? 4 : q->bytes) : 0;
  conv->scratch_bytes_ = q->staged_offset + staged;
  conv->product_ = std::move(q);
  return conv;
}

bool ConvPrimitive::run_product(int slot, const void* a, const void* b, float* out,
                                void* scratch) const {
  const Product& q = *product_;
  char* staged = static_cast<char*>(scratch) + q.staged_offset;
  const int64_t x_each = q.cx * q.x[0] * q.x[1] * q.x[2];
  const int64_t y_each = q.cy * q.y[0] * q.y[1] * q.y[2];
  const auto* first = static_cast<const char*>(a);
  // x of sample s as the product reads it.
  auto x_of = [&](int64_t s) -> const void* {
    const char* x = first + s * x_each * q.bytes;
    if (!q.strided) {
      return x;
    }
    (q.bytes == 2 ? subsample<uint16_t> : subsample<float>)(q, x, staged);
    return staged;
  };
  for (int64_t s = 0; s < q.n; ++s) {
    bool ok;
    switch (q.pass) {
      case Pass::forward:
        ok = q.gemm->run(slot, b, x_of(s), out + s * y_each, nullptr, scratch);
        break;
      case Pass::backward_data: {
        float* dx = out + s * x_each;
        ok = q.gemm->run(slot, b, first + s * y_each * q.bytes,
                         q.strided ? reinterpret_cast<float*>(staged) : dx, nullptr, scratch);
        if (ok && q.strided) {
          scatter(q, reinterpret_cast<const float*>(staged), dx);
        }
        break;
      }
      default: {
        const void* x = x_of(s);
        ok = (s == 0 ? q.gemm : q.accumulating)
                 ->run(slot, static_cast<const char*>(b) + s * y_each * q.bytes, x, out, nullptr,
                       scratch);
        break;
      }
    }
    if (!ok) {
      return false;
    }
  }
  return true;
}

}  // namespace oa::conv
