#include "ops/conv/weight_grad.h"

#include <algorithm>

namespace oa::conv {

bool run_weight_grad_task(const WeightGrad& p, int64_t k, int slot, const WeightGradOperands& o,
                          bool exact_edges, void* scratch) {
  const WeightGradProducts& v = p.products_for(o.precision);
  float* c = o.gw + k * p.gw_k;
  const int64_t element = operand_bytes(o.precision);
  // Bytes of the x and g rows of one time (all batches).
  const int64_t x_time = p.batches * p.ci * element;
  const int64_t g_time = p.batches * p.co * element;
  // The x row of time t at tap k is t + k - pad; the middle starts at time lead = pad.
  if (v.middle &&
      !v.middle->run(slot, o.x + k * x_time, o.g + p.lead * g_time, c, nullptr, scratch)) {
    return false;
  }
  if (!exact_edges) {
    if (v.lead && !v.lead->run(slot, o.lead_x + k * x_time, o.g, c, nullptr, scratch)) {
      return false;
    }
    return !v.trail || v.trail->run(slot, o.trail_x + k * x_time, o.g + p.trail_begin * g_time, c,
                                    nullptr, scratch);
  }
  if (!v.middle) {
    std::fill(c, c + p.ci * p.co, 0.0f);
  }
  auto edge = [&](int64_t t_begin, int64_t t_end) {
    for (int64_t t = t_begin; t < t_end; ++t) {
      const int64_t row = t + k - p.pad;
      if (row >= 0 && row < p.t_in &&
          !v.time->run(slot, o.x + row * x_time, o.g + t * g_time, c, nullptr, scratch)) {
        return false;
      }
    }
    return true;
  };
  return edge(0, p.lead) && edge(p.trail_begin, p.tout);
}

}  // namespace oa::conv
