#include "core/gemm.h"

#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "core/onednn.h"
#include "runtime/error.h"

namespace oa {
namespace {

// A 2-D float32 descriptor. The stride of a dim of size 1 is never used; it is set to the dense
// value, which oneDNN's layout checks expect.
bool matrix_md(dnnl_memory_desc_t* md, int64_t rows, int64_t cols, int64_t row_stride,
               int64_t col_stride, dnnl_data_type_t type = dnnl_f32) {
  if (rows == 1) {
    row_stride = col_stride == 1 ? cols : 1;
  }
  if (cols == 1) {
    col_stride = row_stride == 1 ? rows : 1;
  }
  const dnnl_dims_t dims = {rows, cols};
  const dnnl_dims_t strides = {row_stride, col_stride};
  return dnnl_memory_desc_init_by_strides(md, 2, dims, type, strides) == dnnl_success;
}

using Memory = OnednnMemory;
using Stream = OnednnStream;
using Primitive = OnednnPrimitive;
using PrimitiveDesc = OnednnPrimitiveDesc;
using Attr = OnednnAttr;
using PostOps = OnednnPostOps;

}  // namespace

// One caller's memory objects (their data pointers are set at each run) and stream.
struct Gemm::Handles {
  struct Slot {
    std::mutex lock;
    Memory a;
    Memory b;
    Memory c;
    Memory bias;
    Memory scratch;
    Stream stream;
  };
  Primitive primitive;
  std::vector<Slot> slots;
};

Gemm::Gemm(Key, const GemmShape& shape) : shape_(shape), handles_(std::make_unique<Handles>()) {}

Gemm::~Gemm() = default;

std::unique_ptr<Gemm> Gemm::plan(const GemmShape& s, int slots, std::string* error) {
  auto fail = [error](const char* what) {
    *error = std::string("oneDNN could not ") + what;
    return nullptr;
  };
  dnnl_engine_t eng = onednn_engine();
  if (eng == nullptr) {
    return fail("create its CPU engine");
  }
  dnnl_memory_desc_t a_md;
  dnnl_memory_desc_t b_md;
  dnnl_memory_desc_t c_md;
  dnnl_memory_desc_t bias_md;
  const dnnl_data_type_t operands = s.precision == Precision::bf16 ? dnnl_bf16 : dnnl_f32;
  if (!matrix_md(&a_md, s.m, s.k, s.a_row, s.a_col, operands) ||
      !matrix_md(&b_md, s.k, s.n, s.ldb, s.b_col, operands) ||
      !matrix_md(&c_md, s.m, s.n, s.ldc, 1) || !matrix_md(&bias_md, 1, s.n, s.n, 1)) {
    return fail("describe the matrices of a product");
  }
  dnnl_matmul_desc_t desc;
  if (dnnl_matmul_desc_init(&desc, &a_md, &b_md, s.bias ? &bias_md : nullptr, &c_md) !=
      dnnl_success) {
    return fail("describe a matrix product");
  }
  Attr attr;
  PostOps post_ops;
  if (dnnl_primitive_attr_create(&attr.handle) != dnnl_success ||
      dnnl_primitive_attr_set_scratchpad_mode(attr.handle, dnnl_scratchpad_mode_user) !=
          dnnl_success) {
    return fail("set up a user-managed scratchpad");
  }
  if (s.accumulate &&
      (dnnl_post_ops_create(&post_ops.handle) != dnnl_success ||
       dnnl_post_ops_append_sum(post_ops.handle, 1.0f) != dnnl_success ||
       dnnl_primitive_attr_set_post_ops(attr.handle, post_ops.handle) != dnnl_success)) {
    return fail("set up an accumulating product");
  }

  auto gemm = std::make_unique<Gemm>(Key{}, s);
  PrimitiveDesc pd;
  {
    OneThread one_thread;
    if (dnnl_primitive_desc_create(&pd.handle, &desc, attr.handle, eng, nullptr) != dnnl_success ||
        dnnl_primitive_create(&gemm->handles_->primitive.handle, pd.handle) != dnnl_success) {
      return fail("plan a matrix product");
    }
  }
  const char* impl = nullptr;
  if (dnnl_primitive_desc_query(pd.handle, dnnl_query_impl_info_str, 0, &impl) == dnnl_success &&
      impl != nullptr) {
    gemm->implementation_ = impl;
  }
  const dnnl_memory_desc_t* scratch_md =
      dnnl_primitive_desc_query_md(pd.handle, dnnl_query_scratchpad_md, 0);
  gemm->scratch_bytes_ = scratch_md == nullptr ? 0 : dnnl_memory_desc_get_size(scratch_md);

  gemm->handles_->slots = std::vector<Handles::Slot>(static_cast<size_t>(slots));
  for (Handles::Slot& slot : gemm->handles_->slots) {
    bool ok =
        dnnl_memory_create(&slot.a.handle, &a_md, eng, DNNL_MEMORY_NONE) == dnnl_success &&
        dnnl_memory_create(&slot.b.handle, &b_md, eng, DNNL_MEMORY_NONE) == dnnl_success &&
        dnnl_memory_create(&slot.c.handle, &c_md, eng, DNNL_MEMORY_NONE) == dnnl_success &&
        dnnl_stream_create(&slot.stream.handle, eng, dnnl_stream_default_flags) == dnnl_success;
    if (ok && s.bias) {
      ok = dnnl_memory_create(&slot.bias.handle, &bias_md, eng, DNNL_MEMORY_NONE) == dnnl_success;
    }
    if (ok && gemm->scratch_bytes_ > 0) {
      ok = dnnl_memory_create(&slot.scratch.handle, scratch_md, eng, DNNL_MEMORY_NONE) ==
           dnnl_success;
    }
    if (!ok) {
      return fail("create the memory objects of a matrix product");
    }
  }
  return gemm;
}

std::shared_ptr<const Gemm> Gemm::get(const GemmShape& s, int slots, std::string* error) {
  using Key = std::tuple<Precision, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                         int64_t, bool, bool, int>;
  // The engine first, so that it outlives the kept products (statics die in reverse order).
  if (onednn_engine() == nullptr) {
    *error = "oneDNN could not create its CPU engine";
    return nullptr;
  }
  // Bounded: past kKept products, those no plan holds any more are dropped.
  constexpr size_t kKept = 512;
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<const Gemm>> kept;
  const Key key{s.precision, s.m,     s.n,   s.k,    s.a_row,      s.a_col,
                s.ldb,       s.b_col, s.ldc, s.bias, s.accumulate, slots};
  std::lock_guard<std::mutex> hold(mutex);
  auto found = kept.find(key);
  if (found != kept.end()) {
    return found->second;
  }
  std::shared_ptr<const Gemm> gemm = plan(s, slots, error);
  if (!gemm) {
    return nullptr;
  }
  if (kept.size() >= kKept) {
    for (auto it = kept.begin(); it != kept.end();) {
      it = it->second.use_count() == 1 ? kept.erase(it) : std::next(it);
    }
  }
  kept.emplace(key, gemm);
  return gemm;
}

bool Gemm::bf16_products() {
  static const bool available = [] {
    GemmShape shape;
    shape.precision = Precision::bf16;
    shape.m = shape.n = shape.k = 16;
    shape.a_row = shape.ldb = shape.ldc = 16;
    std::string error;
    return plan(shape, 1, &error) != nullptr;
  }();
  return available;
}

bool Gemm::run(int slot_index, const void* a, const void* b, float* c, const float* bias,
               void* scratch) const {
  Handles::Slot& slot = handles_->slots[static_cast<size_t>(slot_index)];
  std::lock_guard<std::mutex> hold(slot.lock);
  dnnl_exec_arg_t args[5];
  int count = 0;
  auto bind = [&](int arg, dnnl_memory_t memory, const void* data) {
    args[count++] = {arg, memory};
    return dnnl_memory_set_data_handle(memory, const_cast<void*>(data)) == dnnl_success;
  };
  bool ok = bind(DNNL_ARG_SRC, slot.a.handle, a) && bind(DNNL_ARG_WEIGHTS, slot.b.handle, b) &&
            bind(DNNL_ARG_DST, slot.c.handle, c);
  if (ok && shape_.bias) {
    ok = bind(DNNL_ARG_BIAS, slot.bias.handle, bias);
  }
  if (ok && scratch_bytes_ > 0) {
    ok = bind(DNNL_ARG_SCRATCHPAD, slot.scratch.handle, scratch);
  }
  OneThread one_thread;
  return ok &&
         dnnl_primitive_execute(handles_->primitive.handle, slot.stream.handle, count, args) ==
             dnnl_success &&
         dnnl_stream_wait(slot.stream.handle) == dnnl_success;
}

aclnnStatus plan_gemm(const char* op, const GemmShape& shape, int slots,
                      std::shared_ptr<const Gemm>* out) {
  std::string error;
  *out = Gemm::get(shape, slots, &error);
  if (!*out) {
    return failf(ACLNN_ERR_INNER, "%s: %s (m=%lld, n=%lld, k=%lld)", op, error.c_str(),
                 static_cast<long long>(shape.m), static_cast<long long>(shape.n),
                 static_cast<long long>(shape.k));
  }
  if (log_level() <= LogLevel::debug) {
    logf(LogLevel::debug, "%s: product m=%lld n=%lld k=%lld runs on oneDNN %s", op,
         static_cast<long long>(shape.m), static_cast<long long>(shape.n),
         static_cast<long long>(shape.k), (*out)->implementation().c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus gemm_failure(const char* op) {
  return failf(ACLNN_ERR_INNER,
               "%s: oneDNN failed to run a matrix product planned by GetWorkspaceSize", op);
}

}  // namespace oa
