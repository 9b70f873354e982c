#include "kernels/conv_tbc/weight_grad.h"

#include <algorithm>

namespace oa::tbc {

bool run_weight_grad_task(const WeightGrad& p, int64_t k, int slot, const WeightGradOperands& o,
                          bool exact_edges, void* scratch) {
  float* c = o.gw + k * p.gw_k;
  const int64_t rows_per_time = p.batches;
  // The x row of time t at tap k is t + k - pad; the middle starts at time lead = pad.
  if (p.middle && !p.middle->run(slot, o.x + k * rows_per_time * p.ci,
                                 o.g + p.lead * rows_per_time * p.co, c, nullptr, scratch)) {
    return false;
  }
  if (!exact_edges) {
    if (p.lead_product && !p.lead_product->run(slot, o.lead_x + k * rows_per_time * p.ci, o.g, c,
                                               nullptr, scratch)) {
      return false;
    }
    return !p.trail_product ||
           p.trail_product->run(slot, o.trail_x + k * rows_per_time * p.ci,
                                o.g + p.trail_begin * rows_per_time * p.co, c, nullptr, scratch);
  }
  if (!p.middle) {
    std::fill(c, c + p.ci * p.co, 0.0f);
  }
  auto edge = [&](int64_t t_begin, int64_t t_end) {
    for (int64_t t = t_begin; t < t_end; ++t) {
      const int64_t row = t + k - p.pad;
      if (row >= 0 && row < p.t_in &&
          !p.time->run(slot, o.x + row * rows_per_time * p.ci, o.g + t * rows_per_time * p.co,
                       c, nullptr, scratch)) {
        return false;
      }
    }
    return true;
  };
  return edge(0, p.lead) && edge(p.trail_begin, p.tout);
}

}  // namespace oa::tbc
