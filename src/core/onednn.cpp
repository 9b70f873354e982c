#include "core/onednn.h"

namespace oa {
namespace {

class Engine {
 public:
  Engine() { ok_ = dnnl_engine_create(&engine_, dnnl_cpu, 0) == dnnl_success; }
  ~Engine() {
    if (ok_) {
      dnnl_engine_destroy(engine_);
    }
  }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  dnnl_engine_t get() const { return ok_ ? engine_ : nullptr; }

 private:
  dnnl_engine_t engine_ = nullptr;
  bool ok_ = false;
};

}  // namespace

dnnl_engine_t onednn_engine() {
  static const Engine instance;
  return instance.get();
}

}  // namespace oa
