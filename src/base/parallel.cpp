#include "base/parallel.h"

#include <omp.h>

#include <cstdlib>

namespace oa {

int num_threads() {
  const char* text = std::getenv("OPENACLNN_NUM_THREADS");
  if (text != nullptr) {
    char* end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (end != text && *end == '\0' && value > 0 && value <= 4096) {
      return static_cast<int>(value);
    }
  }
  // omp_get_num_procs() asks the kernel every time; the answer does not change while we run.
  static const int processors = omp_get_num_procs();
  return processors;
}

}  // namespace oa
