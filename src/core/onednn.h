// What the oneDNN wrappers share (core/gemm.h's matrix products, the convolution family's
// convolution primitives): the process's CPU engine, owning handles of oneDNN's C API, and the
// guard that keeps a primitive on one thread. Included only by .cpp files (oneDNN's headers are
// private to the library).
#pragma once

#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include <utility>

namespace oa {

// The CPU engine, made on first use and kept for the life of the process; null when oneDNN
// cannot make one.
dnnl_engine_t onednn_engine();

// oneDNN sizes a plan by omp_get_max_threads() (which also keys its primitive cache), and its
// gemm-based implementations read it again when they run. Holding it at 1 on this thread while
// planning and running keeps every primitive on one thread, so that its result does not depend on
// the thread count. Restores the caller's value.
class OneThread {
 public:
  OneThread() : saved_(omp_get_max_threads()) { omp_set_num_threads(1); }
  ~OneThread() { omp_set_num_threads(saved_); }
  OneThread(const OneThread&) = delete;
  OneThread& operator=(const OneThread&) = delete;

 private:
  int saved_;
};

// A oneDNN handle destroyed with its owner.
template <typename T, dnnl_status_t (*destroy)(T)>
struct Owned {
  T handle = nullptr;
  Owned() = default;
  ~Owned() {
    if (handle != nullptr) {
      destroy(handle);
    }
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned(Owned&& other) noexcept : handle(std::exchange(other.handle, nullptr)) {}
};

using OnednnMemory = Owned<dnnl_memory_t, dnnl_memory_destroy>;
using OnednnStream = Owned<dnnl_stream_t, dnnl_stream_destroy>;
using OnednnPrimitive = Owned<dnnl_primitive_t, dnnl_primitive_destroy>;
using OnednnPrimitiveDesc = Owned<dnnl_primitive_desc_t, dnnl_primitive_desc_destroy>;
using OnednnAttr = Owned<dnnl_primitive_attr_t, dnnl_primitive_attr_destroy>;
using OnednnPostOps = Owned<dnnl_post_ops_t, dnnl_post_ops_destroy>;

}  // namespace oa
