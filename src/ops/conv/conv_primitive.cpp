#include <oneapi/dnnl/dnnl.h>

#include "core/onednn.h"
#include "ops/conv/conv_primitive.h"

namespace oa::conv {
namespace {

dnnl_format_tag_t plain_tag(int ndims) {
  switch (ndims) {
    case 3:
      return dnnl_abc;
    case 4:
      return dnnl_abcd;
    case 5:
      return dnnl_abcde;
    default:
      return dnnl_abcdef;
  }
}

bool plain_md(dnnl_memory_desc_t* md, const std::vector<int64_t>& dims) {
  dnnl_dims_t d;
  for (size_t i = 0; i < dims.size(); ++i) {
    d[i] = dims[i];
  }
  const int ndims = static_cast<int>(dims.size());
  return dnnl_memory_desc_init_by_tag(md, ndims, d, dnnl_f32, plain_tag(ndims)) == dnnl_success;
}

}  // namespace

struct ConvPrimitive::Handles {
  struct Slot {
    OnednnMemory a;
    OnednnMemory b;
    OnednnMemory out;
    OnednnMemory scratch;
    OnednnStream stream;
  };
  OnednnPrimitive primitive;
  std::vector<Slot> slots;
};

ConvPrimitive::ConvPrimitive() : handles_(std::make_unique<Handles>()) {}

ConvPrimitive::~ConvPrimitive() = default;

std::unique_ptr<ConvPrimitive> ConvPrimitive::make(const ConvProblem& p, Pass pass, int slots,
                                                   std::string* why) {
  auto fail = [why](const char* what) {
    *why = std::string("oneDNN could not ") + what;
    return nullptr;
  };
  dnnl_engine_t engine = onednn_engine();
  if (engine == nullptr) {
    return fail("create its CPU engine");
  }
  const int lead = 3 - p.spatial;
  std::vector<int64_t> x_dims = {p.n, p.cx};
  std::vector<int64_t> y_dims = {p.n, p.cy};
  std::vector<int64_t> w_dims;
  if (p.groups > 1) {
    w_dims = {p.groups, p.cy / p.groups, p.cx / p.groups};
  } else {
    w_dims = {p.cy, p.cx};
  }
  dnnl_dims_t strides;
  dnnl_dims_t dilates;
  dnnl_dims_t pad_l;
  dnnl_dims_t pad_r;
  for (int d = 0; d < p.spatial; ++d) {
    x_dims.push_back(p.x[lead + d]);
    y_dims.push_back(p.y[lead + d]);
    w_dims.push_back(p.k[lead + d]);
    strides[d] = p.stride[lead + d];
    dilates[d] = p.dilation[lead + d] - 1;  // oneDNN counts the gaps
    pad_l[d] = p.pad_l[lead + d];
    pad_r[d] = p.pad_r(lead + d);
  }
  dnnl_memory_desc_t x_md;
  dnnl_memory_desc_t w_md;
  dnnl_memory_desc_t y_md;
  if (!plain_md(&x_md, x_dims) || !plain_md(&w_md, w_dims) || !plain_md(&y_md, y_dims)) {
    return fail("describe the tensors of a convolution");
  }
  OnednnAttr attr;
  if (dnnl_primitive_attr_create(&attr.handle) != dnnl_success ||
      dnnl_primitive_attr_set_scratchpad_mode(attr.handle, dnnl_scratchpad_mode_user) !=
          dnnl_success) {
    return fail("set up a user-managed scratchpad");
  }
  std::unique_ptr<ConvPrimitive> conv(new ConvPrimitive());
  conv->pass_ = pass;
  OnednnPrimitiveDesc pd;
  {
    OneThread one_thread;
    dnnl_convolution_desc_t forward;
    const dnnl_prop_kind_t kind =
        pass == Pass::forward ? dnnl_forward_inference : dnnl_forward_training;
    if (dnnl_dilated_convolution_forward_desc_init(&forward, kind, dnnl_convolution_direct, &x_md,
                                                   &w_md, nullptr, &y_md, strides, dilates, pad_l,
                                                   pad_r) != dnnl_success) {
      return fail("describe the convolution");
    }
    OnednnPrimitiveDesc hint;
    if (dnnl_primitive_desc_create(pass == Pass::forward ? &pd.handle : &hint.handle, &forward,
                                   attr.handle, engine, nullptr) != dnnl_success) {
      return fail("plan the convolution");
    }
    if (pass != Pass::forward) {
      dnnl_convolution_desc_t backward;
      const dnnl_status_t described = pass == Pass::backward_data
                                          ? dnnl_dilated_convolution_backward_data_desc_init(
                                                &backward, dnnl_convolution_direct, &x_md, &w_md,
                                                &y_md, strides, dilates, pad_l, pad_r)
                                          : dnnl_dilated_convolution_backward_weights_desc_init(
                                                &backward, dnnl_convolution_direct, &x_md, &w_md,
                                                nullptr, &y_md, strides, dilates, pad_l, pad_r);
      if (described != dnnl_success ||
          dnnl_primitive_desc_create(&pd.handle, &backward, attr.handle, engine, hint.handle) !=
              dnnl_success) {
        return fail("plan the convolution's gradient");
      }
    }
    if (dnnl_primitive_create(&conv->handles_->primitive.handle, pd.handle) != dnnl_success) {
      return fail("create the convolution primitive");
    }
  }
  const char* impl = nullptr;
  if (dnnl_primitive_desc_query(pd.handle, dnnl_query_impl_info_str, 0, &impl) == dnnl_success &&
      impl != nullptr) {
    conv->implementation_ = impl;
  }
  const dnnl_memory_desc_t* scratch_md =
      dnnl_primitive_desc_query_md(pd.handle, dnnl_query_scratchpad_md, 0);
  conv->scratch_bytes_ =
      scratch_md == nullptr ? 0 : static_cast<int64_t>(dnnl_memory_desc_get_size(scratch_md));
  // The roles of job.h: forward x, w -> y; backward_data dy, w -> dx; backward_weights x, dy -> dw.
  const dnnl_memory_desc_t* a_md = pass == Pass::backward_data ? &y_md : &x_md;
  const dnnl_memory_desc_t* b_md = pass == Pass::backward_weights ? &y_md : &w_md;
  const dnnl_memory_desc_t* out_md = pass == Pass::forward         ? &y_md
                                     : pass == Pass::backward_data ? &x_md
                                                                   : &w_md;
  conv->handles_->slots = std::vector<Handles::Slot>(static_cast<size_t>(slots));
  for (Handles::Slot& slot : conv->handles_->slots) {
    bool ok =
        dnnl_memory_create(&slot.a.handle, a_md, engine, DNNL_MEMORY_NONE) == dnnl_success &&
        dnnl_memory_create(&slot.b.handle, b_md, engine, DNNL_MEMORY_NONE) == dnnl_success &&
        dnnl_memory_create(&slot.out.handle, out_md, engine, DNNL_MEMORY_NONE) == dnnl_success &&
        dnnl_stream_create(&slot.stream.handle, engine, dnnl_stream_default_flags) == dnnl_success;
    if (ok && conv->scratch_bytes_ > 0) {
      ok = dnnl_memory_create(&slot.scratch.handle, scratch_md, engine, DNNL_MEMORY_NONE) ==
           dnnl_success;
    }
    if (!ok) {
      return fail("create the memory objects of a convolution");
    }
  }
  return conv;
}

bool ConvPrimitive::run(int slot, const float* a, const float* b, float* out, void* scratch) const {
  Handles::Slot& s = handles_->slots[static_cast<size_t>(slot)];
  auto bind = [](dnnl_memory_t memory, const void* data) {
    return dnnl_memory_set_data_handle(memory, const_cast<void*>(data)) == dnnl_success;
  };
  if (!bind(s.a.handle, a) || !bind(s.b.handle, b) || !bind(s.out.handle, out) ||
      (scratch_bytes_ > 0 && !bind(s.scratch.handle, scratch))) {
    return false;
  }
  const int a_arg = pass_ == Pass::backward_data ? DNNL_ARG_DIFF_DST : DNNL_ARG_SRC;
  const int b_arg = pass_ == Pass::backward_weights ? DNNL_ARG_DIFF_DST : DNNL_ARG_WEIGHTS;
  const int out_arg = pass_ == Pass::forward         ? DNNL_ARG_DST
                      : pass_ == Pass::backward_data ? DNNL_ARG_DIFF_SRC
                                                     : DNNL_ARG_DIFF_WEIGHTS;
  dnnl_exec_arg_t args[4] = {{a_arg, s.a.handle},
                             {b_arg, s.b.handle},
                             {out_arg, s.out.handle},
                             {DNNL_ARG_SCRATCHPAD, s.scratch.handle}};
  const int count = scratch_bytes_ > 0 ? 4 : 3;
  OneThread one_thread;
  return dnnl_primitive_execute(handles_->primitive.handle, s.stream.handle, count, args) ==
             dnnl_success &&
         dnnl_stream_wait(s.stream.handle) == dnnl_success;
}

}  // namespace oa::conv
