// Runs a test body once for every SIMD target that this CPU supports and the library was compiled
// for, with Highway's run-time dispatch restricted to that target: the kernels of the targets below
// the best one (AVX2, SSE4, ...) are checked on a machine that would otherwise never run them.
#pragma once

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>

namespace oa_test {

template <typename Body>
void for_each_simd_target(const Body& body) {
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(std::string("SIMD target ") + hwy::TargetName(target));
    body();
  }
  hwy::SetSupportedTargetsForTest(0);
}

}  // namespace oa_test
