// The fast NLL losses (nll.h): rows in fixed chunks run in parallel (boundaries fixed by the
// shape, so results never depend on the thread count). Every chunk checks its targets before
// anything is written; the first bad one in row order is reported.
#include <algorithm>
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

// Calls body(r, n, h, w) for the rows of chunk `chunk`, in order.
template <typename Body>
void for_chunk_rows(const Problem& p, int64_t chunk, const Body& body) {
  const int64_t end = std::min(p.rows(), (chunk + 1) * kRows);
  const int64_t hw = p.height * p.width;
  for (int64_t r = chunk * kRows; r < end; ++r) {
    body(r, r / hw, r % hw / p.width, r % p.width);
  }
}

// Each chunk's first bad row (or -1) into bad[chunk]; the first bad row overall, or -1.
int64_t first_bad_row(const Problem& p, int64_t* bad, bool parallel) {
  const int64_t chunks = chunks_of(p);
  parallel_for(
      chunks,
      [&](int64_t chunk) {
        bad[chunk] = -1;
        const int64_t end = std::min(p.rows(), (chunk + 1) * kRows);
        for (int64_t r = chunk * kRows; r < end; ++r) {
          if (bad_target(p, target_of(p, r))) {
            bad[chunk] = r;
            return;
          }
        }
      },
      parallel);
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    if (bad[chunk] >= 0) {
      return bad[chunk];
    }
  }
  return -1;
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
          for_chunk_rows(p_, chunk, [&](int64_t r, int64_t n, int64_t h, int64_t w) {
            const int64_t t = target_of(p_, r);
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

// Workspace: per chunk the first bad row. gradInput is zeroed (as one run of memory where it is
// one, with streaming stores when the launch is too large for the cache to keep it), then each
// row's one nonzero element is written.
class BackwardPlan final : public Plan {
 public:
  explicit BackwardPlan(Problem p) : p_(std::move(p)) {}

  uint64_t workspace_bytes() const { return static_cast<uint64_t>(chunks_of(p_)) * 8; }

  aclnnStatus run(void* workspace) const override {
    const bool parallel = worth_threads(p_) || p_.grad_input_bytes > kFillBytes;
    const int64_t first = first_bad_row(p_, static_cast<int64_t*>(workspace), parallel);
    if (first >= 0) {
      return bad_target_error(p_, first, target_of(p_, first), false);
    }
    zero_grad_input(parallel);
    const float reduced = p_.reduction == 0 ? 0.0f : reduced_scale(p_);
    const View& g = p_.grad_output;
    const View& out = p_.grad_input;
    parallel_for(
        chunks_of(p_),
        [&](int64_t chunk) {
          for_chunk_rows(p_, chunk, [&](int64_t r, int64_t n, int64_t h, int64_t w) {
            const int64_t t = target_of(p_, r);
            if (t == p_.ignore_index) {
              return;
            }
            const float scale =
                p_.reduction == 0 ? load_float(g.dtype, g.data, g.at(n, h, w, 0)) : reduced;
            const float weight = load_float(p_.weight.dtype, p_.weight.data, t * p_.weight.c);
            store_float(out.dtype, row_loss(weight, scale), out.data, out.at(n, h, w, t));
          });
        },
        parallel);
    return ACLNN_SUCCESS;
  }

 private:
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
