// The fast NLL losses (nll.h): rows in fixed chunks run in parallel (boundaries fixed by the
// shape, so results never depend on the thread count). Every chunk checks its targets before
// anything is written; the first bad one in row order is reported.
#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "base/fill_simd.h"
#include "base/parallel.h"
#include "core/convert.h"
#include "core/elementwise.h"
#include "ops/loss/nll.h"

namespace oa::loss::nll {
namespace {

// Rows per chunk.
constexpr int64_t kRows = 4096;
// Bytes of gradInput zeroed per parallel piece.
constexpr int64_t kFillBytes = int64_t{1} << 20;

int64_t chunks_of(const Problem& p) { return (p.rows() + kRows - 1) / kRows; }

// Calls body(r, n, h, w) for the rows of chunk `chunk`, in order (the position counted, not
// divided out of r for each row).
template <typename Body>
void for_chunk_rows(const Problem& p, int64_t chunk, const Body& body) {
  const int64_t begin = chunk * kRows;
  const int64_t end = std::min(p.rows(), begin + kRows);
  const int64_t hw = p.height * p.width;
  int64_t n = begin / hw;
  int64_t h = begin % hw / p.width;
  int64_t w = begin % p.width;
  for (int64_t r = begin; r < end; ++r) {
    body(r, n, h, w);
    if (++w == p.width) {
      w = 0;
      if (++h == p.height) {
        h = 0;
        ++n;
      }
    }
  }
}

// The first of the chunks' first bad rows (each -1 when it has none), or -1.
int64_t first_of(const int64_t* bad, int64_t chunks) {
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    if (bad[chunk] >= 0) {
      return bad[chunk];
    }
  }
  return -1;
}

// Each chunk's first bad row (or -1) into bad[chunk]; the first bad row overall, or -1.
int64_t first_bad_row(const Problem& p, int64_t* bad, bool parallel) {
  const int64_t chunks = chunks_of(p);
  parallel_for(
      chunks,
      [&](int64_t chunk) {
        int64_t first = -1;
        for_chunk_rows(p, chunk, [&](int64_t r, int64_t n, int64_t h, int64_t w) {
          if (first < 0 && bad_target(p, target_at(p, n, h, w))) {
            first = r;
          }
        });
        bad[chunk] = first;
      },
      parallel);
  return first_of(bad, chunks);
}

// Threads pay for themselves only on enough rows.
bool worth_threads(const Problem& p) { return p.rows() > 4 * kRows; }

// Workspace: per chunk the first bad row, the loss sum and the weight sum.
class ForwardPlan final : public Plan {
 public:
  explicit ForwardPlan(Problem p) : p_(std::move(p)) {}

  uint64_t workspace_bytes() const { return static_cast<uint64_t>(chunks_of(p_)) * 3 * 8; }

  aclnnStatus run(void* workspace) const override {
    const int64_t chunks = chunks_of(p_);
    auto* bad = static_cast<int64_t*>(workspace);
    auto* loss_sums = reinterpret_cast<double*>(bad + chunks);
    double* weight_sums = loss_sums + chunks;
    const bool parallel = worth_threads(p_);
    const int64_t first = first_bad_row(p_, bad, parallel);
    if (first >= 0) {
      return bad_target_error(p_, first, target_of(p_, first), true);
    }
    parallel_for(
        chunks,
        [&](int64_t chunk) {
          double loss_sum = 0.0;
          double weight_sum = 0.0;
          for_chunk_rows(p_, chunk, [&](int64_t, int64_t n, int64_t h, int64_t w) {
            const int64_t t = target_at(p_, n, h, w);
            float loss = 0.0f;
            if (t != p_.ignore_index) {
              const float weight = load_float(p_.weight.dtype, p_.weight.data, t * p_.weight.c);
              loss = row_loss(
                  weight, load_float(p_.scores.dtype, p_.scores.data, p_.scores.at(n, h, w, t)));
              loss_sum += static_cast<double>(loss);
              weight_sum += static_cast<double>(weight);
            }
            if (p_.reduction == 0) {
              store_float(p_.out.dtype, loss, p_.out.data, p_.out.at(n, h, w, 0));
            }
          });
          loss_sums[chunk] = loss_sum;
          weight_sums[chunk] = weight_sum;
        },
        parallel);
    double loss = 0.0;
    double weight = 0.0;
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      loss += loss_sums[chunk];
      weight += weight_sums[chunk];
    }
    if (p_.reduction != 0) {
      store_double(p_.out, p_.reduction == 1 ? loss / weight : loss);
    }
    store_double(p_.total_weight_out, weight);
    return ACLNN_SUCCESS;
  }

 private:
  Problem p_;
};

// Workspace: per chunk the first bad row (and, for write_rows, what it gathers). Where gradInput's
// rows lie one after the other in memory, the targets are checked while the nonzero elements are
// gathered, and then each chunk of rows is written in one pass of zeros with its nonzero elements
// in them (simd::fill_sparse, with streaming stores when the launch is too large for the cache to
// keep it), so that no line is written twice. Otherwise the targets are checked, gradInput is
// zeroed (as one run of memory where it is one), and then each row's one nonzero element is
// written.
class BackwardPlan final : public Plan {
 public:
  explicit BackwardPlan(Problem p) : p_(std::move(p)) {
    const View& out = p_.grad_input;
    const int64_t bytes = dtype_bits(out.dtype) / 8;
    rows_in_place_ = p_.grad_input_dense && p_.height * p_.width == 1 && out.c == 1 &&
                     (p_.batch == 1 || out.n == p_.classes) && (bytes == 2 || bytes == 4);
  }

  uint64_t workspace_bytes() const {
    const int64_t gathered = rows_in_place_ ? chunks_of(p_) * 8 + p_.rows() * (8 + 4) : 0;
    return static_cast<uint64_t>(chunks_of(p_) * 8 + gathered);
  }

  aclnnStatus run(void* workspace) const override {
    const bool parallel = worth_threads(p_) || p_.grad_input_bytes > kFillBytes;
    auto* bad = static_cast<int64_t*>(workspace);
    const float reduced = p_.reduction == 0 ? 0.0f : reduced_scale(p_);
    if (rows_in_place_) {
      return write_rows(reduced, bad, parallel);
    }
    const int64_t first = first_bad_row(p_, bad, parallel);
    if (first >= 0) {
      return bad_target_error(p_, first, target_of(p_, first), false);
    }
    zero_grad_input(parallel);
    const View& out = p_.grad_input;
    parallel_for(
        chunks_of(p_),
        [&](int64_t chunk) {
          for_chunk_rows(p_, chunk, [&](int64_t, int64_t n, int64_t h, int64_t w) {
            const int64_t t = target_at(p_, n, h, w);
            if (t == p_.ignore_index) {
              return;
            }
            store_float(out.dtype, row_gradient(reduced, n, h, w, t), out.data, out.at(n, h, w, t));
          });
        },
        parallel);
    return ACLNN_SUCCESS;
  }

 private:
  // Row (n, h, w)'s gradient at its target class t; `reduced` the scale of a reduction.
  float row_gradient(float reduced, int64_t n, int64_t h, int64_t w, int64_t t) const {
    const View& g = p_.grad_output;
    const float scale = p_.reduction == 0 ? load_float(g.dtype, g.data, g.at(n, h, w, 0)) : reduced;
    return row_loss(load_float(p_.weight.dtype, p_.weight.data, t * p_.weight.c), scale);
  }

  // rows_in_place_: each chunk's targets checked and its nonzero elements gathered (in row order,
  // so at increasing offsets) into the workspace after bad (per chunk the first bad row, the count,
  // then per row an offset and the bits); when no target is bad, each chunk written with its zeros
  // in one pass.
  aclnnStatus write_rows(float reduced, int64_t* bad, bool parallel) const {
    const View& out = p_.grad_input;
    const int element_bytes = dtype_bits(out.dtype) / 8;
    const int64_t row_bytes = p_.classes * element_bytes;
    const int64_t chunks = chunks_of(p_);
    int64_t* counts = bad + chunks;
    int64_t* offsets = counts + chunks;
    auto* bits = reinterpret_cast<uint32_t*>(offsets + p_.rows());
    parallel_for(
        chunks,
        [&](int64_t chunk) {
          const int64_t begin = chunk * kRows;
          const int64_t end = std::min(p_.rows(), begin + kRows);
          int64_t first = -1;
          int64_t count = 0;
          for (int64_t r = begin; r < end; ++r) {
            const int64_t t = target_at(p_, r, 0, 0);  // one row per sample
            if (t == p_.ignore_index) {
              continue;
            }
            if (bad_target(p_, t)) {
              first = first < 0 ? r : first;
              continue;
            }
            unsigned char raw[4] = {};
            store_float(out.dtype, row_gradient(reduced, r, 0, 0, t), raw, 0);
            if (element_bytes == 2) {
              uint16_t half = 0;
              std::memcpy(&half, raw, 2);
              bits[begin + count] = half;
            } else {
              std::memcpy(&bits[begin + count], raw, 4);
            }
            offsets[begin + count] = (r - begin) * row_bytes + t * element_bytes;
            ++count;
          }
          bad[chunk] = first;
          counts[chunk] = count;
        },
        parallel);
    const int64_t first = first_of(bad, chunks);
    if (first >= 0) {
      return bad_target_error(p_, first, target_of(p_, first), false);
    }
    const bool streaming = simd::streams_output(p_.grad_input_bytes);
    parallel_for(
        chunks,
        [&](int64_t chunk) {
          const int64_t begin = chunk * kRows;
          const int64_t end = std::min(p_.rows(), begin + kRows);
          simd::fill_sparse(out.data + begin * row_bytes, (end - begin) * row_bytes,
                            offsets + begin, bits + begin, counts[chunk], element_bytes, streaming);
        },
        parallel);
    return ACLNN_SUCCESS;
  }

  void zero_grad_input(bool parallel) const {
    const View& out = p_.grad_input;
    if (p_.grad_input_dense) {
      // The run starts at the view's first element: every stride is positive.
      const bool streaming = simd::streams_output(p_.grad_input_bytes);
      const int64_t pieces = (p_.grad_input_bytes + kFillBytes - 1) / kFillBytes;
      parallel_for(
          pieces,
          [&](int64_t piece) {
            const int64_t begin = piece * kFillBytes;
            simd::fill_bytes(out.data + begin, 0, std::min(kFillBytes, p_.grad_input_bytes - begin),
                             streaming);
          },
          parallel);
      return;
    }
    parallel_for(
        chunks_of(p_),
        [&](int64_t chunk) {
          for_chunk_rows(p_, chunk, [&](int64_t, int64_t n, int64_t h, int64_t w) {
            for (int64_t c = 0; c < p_.classes; ++c) {
              store_float(out.dtype, 0.0f, out.data, out.at(n, h, w, c));
            }
          });
        },
        parallel);
  }

  Problem p_;
  bool rows_in_place_ = false;
};

}  // namespace

Impl forward_fast(bool two_d) {
  Impl impl;
  impl.name = "rows";
  impl.reference_bits = false;  // the sums add chunk by chunk
  impl.plan = [two_d](const Call& call, Planned* planned) {
    auto plan = std::make_unique<ForwardPlan>(forward_problem(call, two_d));
    planned->workspace_bytes = plan->workspace_bytes();
    planned->plan = std::move(plan);
    return ACLNN_SUCCESS;
  };
  return impl;
}

Impl backward_fast(bool two_d) {
  Impl impl;
  impl.name = "rows";
  impl.plan = [two_d](const Call& call, Planned* planned) {
    auto plan = std::make_unique<BackwardPlan>(backward_problem(call, two_d));
    planned->workspace_bytes = plan->workspace_bytes();
    planned->plan = std::move(plan);
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace oa::loss::nll
