// Which vector code runs. Every SIMD kernel goes through Highway's run-time dispatch, which picks
// the best target the CPU supports; OPENACLNN_CPU_ISA narrows it, for users who want to see what a
// smaller machine gets (and for tests): avx3 (AVX-512), avx2, sse4, ssse3, or scalar (Highway's
// scalar target, and the plain loops where a kernel has them). Unset, empty, "simd" or "best":
// no restriction. Read in phase 1 of every operator, applied to the process's dispatch when it
// changes; the choice never changes results, only speed.
#pragma once

#include <string>

namespace oa {

enum class Isa { scalar, simd };

// Applies OPENACLNN_CPU_ISA to Highway's dispatch and says whether it asks for scalar code.
Isa selected_isa();

// Orders the calling thread's non-temporal stores before its later stores (x86 sfence), so that
// whoever synchronizes with this thread afterwards sees them.
void store_fence();

// The Highway target the SIMD kernels dispatch to now ("AVX3", "AVX2", ...).
std::string simd_target_name();

}  // namespace oa
