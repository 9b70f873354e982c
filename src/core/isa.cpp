#include "core/isa.h"

#include <hwy/cache_control.h>
#include <hwy/highway.h>
#include <hwy/targets.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "runtime/error.h"

namespace oa {
namespace {

constexpr int64_t kAvx3AndAbove = HWY_AVX3 | HWY_AVX3_DL;
struct Choice {
  const char* name;
  int64_t disabled;  // the Highway targets it turns off
};
constexpr Choice kChoices[] = {
    {"avx3", 0},
    {"avx512", 0},
    {"avx2", kAvx3AndAbove},
    {"sse4", kAvx3AndAbove | HWY_AVX2},
    {"ssse3", kAvx3AndAbove | HWY_AVX2 | HWY_SSE4},
    {"scalar", ~(HWY_SCALAR | HWY_EMU128)},
};

// The targets turned off now (-1: none applied yet).
std::atomic<int64_t> g_disabled{-1};

void apply(int64_t disabled) {
  if (g_disabled.load(std::memory_order_acquire) == disabled) {
    return;
  }
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (g_disabled.load(std::memory_order_relaxed) != disabled) {
    hwy::DisableTargets(disabled);
    g_disabled.store(disabled, std::memory_order_release);
  }
}

}  // namespace

Isa selected_isa() {
  const char* text = std::getenv("OPENACLNN_CPU_ISA");
  int64_t disabled = 0;
  bool scalar = false;
  if (text != nullptr && *text != '\0' && std::strcmp(text, "simd") != 0 &&
      std::strcmp(text, "best") != 0) {
    bool known = false;
    for (const Choice& choice : kChoices) {
      if (std::strcmp(text, choice.name) == 0) {
        disabled = choice.disabled;
        scalar = std::strcmp(text, "scalar") == 0;
        known = true;
      }
    }
    if (!known) {
      logf(LogLevel::warning,
           "OPENACLNN_CPU_ISA=%s is not one of avx3, avx512, avx2, sse4, ssse3, scalar, simd: "
           "using the best target",
           text);
    }
  }
  apply(disabled);
  return scalar ? Isa::scalar : Isa::simd;
}

void store_fence() { hwy::FlushStream(); }

std::string simd_target_name() {
  int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
  // The best target is the lowest set bit (Highway orders targets from best to worst).
  return hwy::TargetName(targets & -targets);
}

}  // namespace oa
