#include "core/isa.h"

#include <hwy/cache_control.h>
#include <hwy/highway.h>
#include <hwy/targets.h>

#include <cstdlib>
#include <cstring>

namespace oa {

Isa selected_isa() {
  const char* text = std::getenv("OPENACLNN_CPU_ISA");
  return text != nullptr && std::strcmp(text, "scalar") == 0 ? Isa::scalar : Isa::simd;
}

void store_fence() { hwy::FlushStream(); }

std::string simd_target_name() {
  int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
  // The best target is the lowest set bit (Highway orders targets from best to worst).
  return hwy::TargetName(targets & -targets);
}

}  // namespace oa
