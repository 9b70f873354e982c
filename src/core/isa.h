// Which implementation of the vector kernels runs: the SIMD one (Highway, the best target the CPU
// supports, chosen at run time) or the plain scalar one. OPENACLNN_CPU_ISA=scalar forces scalar;
// unset or "simd" selects SIMD. Operators read it in phase 1 and keep it in their plan.
#pragma once

#include <string>

namespace oa {

enum class Isa { scalar, simd };

Isa selected_isa();

// Orders the calling thread's non-temporal stores before its later stores (x86 sfence), so that
// whoever synchronizes with this thread afterwards sees them.
void store_fence();

// The Highway target the SIMD kernels dispatch to on this CPU ("AVX3", "AVX2", ...).
std::string simd_target_name();

}  // namespace oa
