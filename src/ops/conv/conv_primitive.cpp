#include <oneapi/dnnl/dnnl.h>

#include "core/onednn.h"
#include "ops/conv/conv_primitive.h"
#include "ops/conv/conv_product.h"

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

// Channels in blocks of 16 (AVX-512) or 8 (AVX2), the layout of oneDNN's direct depthwise kernel.
dnnl_format_tag_t channel_block_tag(int ndims) {
  const bool avx512 =
      (dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core;
  switch (ndims) {
    case 3:
      return avx512 ? dnnl_aBc16b : dnnl_aBc8b;
    case 4:
      return avx512 ? dnnl_aBcd16b : dnnl_aBcd8b;
    default:
      return avx512 ? dnnl_aBcde16b : dnnl_aBcde8b;
  }
}

// dims of `type` in layout `tag` (dnnl_format_tag_any: the one the primitive chooses).
bool make_md(dnnl_memory_desc_t* md, const std::vector<int64_t>& dims, dnnl_data_type_t type,
             dnnl_format_tag_t tag) {
  dnnl_dims_t d;
  for (size_t i = 0; i < dims.size(); ++i) {
    d[i] = dims[i];
  }
  return dnnl_memory_desc_init_by_tag(md, static_cast<int>(dims.size()), d, type, tag) ==
         dnnl_success;
}

constexpr double kMinBlockedFlops = 1e7;

}  // namespace

struct ConvPrimitive::Handles {
  // One operand or result of the primitive: the caller's plain memory and, where the primitive
  // chose another layout, its copy in that layout (in the run's scratch) and the reorder between
  // them.
  struct Operand {
    dnnl_memory_desc_t user_md;
    dnnl_memory_desc_t inner_md;
    bool reordered = false;
    int64_t inner_offset = 0;  // in the run's scratch
    OnednnPrimitive reorder;   // user -> inner for an operand, inner -> user for the result
  };
  struct Slot {
    OnednnMemory user[3];
    OnednnMemory inner[3];
    OnednnMemory scratch;
    OnednnMemory reorder_scratch;
    OnednnStream stream;
  };
  OnednnPrimitive primitive;
  Operand operands[3];  // a, b, out (job.h's roles)
  int64_t conv_scratch = 0;
  int64_t reorder_scratch = 0;
  int64_t reorder_scratch_offset = 0;
  dnnl_memory_desc_t conv_scratch_md;
  dnnl_memory_desc_t reorder_scratch_md;
  std::vector<Slot> slots;
};

ConvPrimitive::ConvPrimitive() : handles_(std::make_unique<Handles>()) {}

ConvPrimitive::~ConvPrimitive() = default;

std::unique_ptr<ConvPrimitive> ConvPrimitive::make(const ConvProblem& p, Pass pass,
                                                   Precision operands, int slots,
                                                   std::string* why) {
  // The primitive chooses its layouts (oneDNN's blocked ones run its direct kernels, which plain
  // layouts leave to im2col and GEMM); the caller's plain tensors are reordered to and from them.
  // Measured (docs/perf/conv.md): that pays for kernels larger than 1 (a 1x1 kernel is a GEMM on
  // plain layouts already, and the reorders cost more than its direct kernel saves) and for
  // problems of at least kMinBlockedFlops (below, the reorders' own cost per call dominates).
  if (std::unique_ptr<ConvPrimitive> product = make_product(p, pass, operands, slots)) {
    return product;
  }
  const int ndims = 2 + p.spatial;
  if (p.k_is_one() || p.flops() < kMinBlockedFlops) {
    return make_in(p, pass, operands, slots, plain_tag(ndims), why);
  }
  // A 2-D depthwise convolution gets channel-blocked activations instead of oneDNN's choice
  // (channels last, whose transposition from the caller's layout costs more than the kernel;
  // measured), unless no direct kernel takes them there (its reference implementation would; 1-D
  // and 3-D have none).
  const bool depthwise = p.groups > 1 && p.groups == p.cx && p.cy == p.cx && p.spatial == 2;
  if (depthwise || operands == Precision::bf16) {
    std::unique_ptr<ConvPrimitive> blocked =
        make_in(p, pass, operands, slots, channel_block_tag(ndims), why);
    if (blocked != nullptr && blocked->implementation_.rfind("ref", 0) != 0) {
      return blocked;
    }
  }
  return make_in(p, pass, operands, slots, dnnl_format_tag_any, why);
}

std::unique_ptr<ConvPrimitive> ConvPrimitive::make_in(const ConvProblem& p, Pass pass,
                                                      Precision operands, int slots,
                                                      int activations, std::string* why) {
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
  const auto tag = static_cast<dnnl_format_tag_t>(activations);
  const dnnl_format_tag_t plain_weights = plain_tag(static_cast<int>(w_dims.size()));
  const bool plain = tag == plain_tag(static_cast<int>(x_dims.size()));
  const dnnl_format_tag_t w_tag = plain ? plain_weights : dnnl_format_tag_any;
  // The operands in their precision, the result in float32: the forward convolution's tensors
  // (also the hint of a gradient pass) and, for a gradient pass, its own.
  const dnnl_data_type_t low = operands == Precision::bf16 ? dnnl_bf16 : dnnl_f32;
  dnnl_memory_desc_t fx_md;
  dnnl_memory_desc_t fw_md;
  dnnl_memory_desc_t fy_md;
  dnnl_memory_desc_t x_md;
  dnnl_memory_desc_t w_md;
  dnnl_memory_desc_t y_md;
  if (!make_md(&fx_md, x_dims, low, tag) || !make_md(&fw_md, w_dims, low, w_tag) ||
      !make_md(&fy_md, y_dims, dnnl_f32, tag) ||
      !make_md(&x_md, x_dims, pass == Pass::backward_data ? dnnl_f32 : low, tag) ||
      !make_md(&w_md, w_dims, pass == Pass::backward_weights ? dnnl_f32 : low, w_tag) ||
      !make_md(&y_md, y_dims, pass == Pass::forward ? dnnl_f32 : low, tag)) {
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
    if (dnnl_dilated_convolution_forward_desc_init(&forward, kind, dnnl_convolution_direct, &fx_md,
                                                   &fw_md, nullptr, &fy_md, strides, dilates, pad_l,
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
  Handles& h = *conv->handles_;
  const dnnl_memory_desc_t* scratch_md =
      dnnl_primitive_desc_query_md(pd.handle, dnnl_query_scratchpad_md, 0);
  h.conv_scratch =
      scratch_md == nullptr ? 0 : static_cast<int64_t>(dnnl_memory_desc_get_size(scratch_md));
  if (h.conv_scratch > 0) {
    h.conv_scratch_md = *scratch_md;
  }
  // The roles of job.h: forward x, w -> y; backward_data dy, w -> dx; backward_weights x, dy -> dw.
  const std::vector<int64_t>* user_dims[3] = {pass == Pass::backward_data ? &y_dims : &x_dims,
                                              pass == Pass::backward_weights ? &y_dims : &w_dims,
                                              pass == Pass::forward         ? &y_dims
                                              : pass == Pass::backward_data ? &x_dims
                                                                            : &w_dims};
  const dnnl_query_t queries[3] = {
      pass == Pass::backward_data ? dnnl_query_diff_dst_md : dnnl_query_src_md,
      pass == Pass::backward_weights ? dnnl_query_diff_dst_md : dnnl_query_weights_md,
      pass == Pass::forward         ? dnnl_query_dst_md
      : pass == Pass::backward_data ? dnnl_query_diff_src_md
                                    : dnnl_query_diff_weights_md};
  int64_t bytes = aligned(h.conv_scratch);
  for (int i = 0; i < 3; ++i) {
    Handles::Operand& o = h.operands[i];
    const dnnl_memory_desc_t* chosen = dnnl_primitive_desc_query_md(pd.handle, queries[i], 0);
    if (chosen == nullptr || !make_md(&o.user_md, *user_dims[i], i == 2 ? dnnl_f32 : low,
                                      plain_tag(static_cast<int>(user_dims[i]->size())))) {
      return fail("describe the layouts of a convolution");
    }
    o.inner_md = *chosen;
    o.reordered = dnnl_memory_desc_equal(&o.user_md, &o.inner_md) == 0;
    if (!o.reordered) {
      continue;
    }
    o.inner_offset = bytes;
    bytes += aligned(static_cast<int64_t>(dnnl_memory_desc_get_size(&o.inner_md)));
    const bool result = i == 2;
    OnednnPrimitiveDesc reorder;
    if (dnnl_reorder_primitive_desc_create(&reorder.handle, result ? &o.inner_md : &o.user_md,
                                           engine, result ? &o.user_md : &o.inner_md, engine,
                                           attr.handle) != dnnl_success ||
        dnnl_primitive_create(&o.reorder.handle, reorder.handle) != dnnl_success) {
      return fail("plan a reorder of a convolution's operand");
    }
    const dnnl_memory_desc_t* reorder_md =
        dnnl_primitive_desc_query_md(reorder.handle, dnnl_query_scratchpad_md, 0);
    const int64_t size =
        reorder_md == nullptr ? 0 : static_cast<int64_t>(dnnl_memory_desc_get_size(reorder_md));
    if (size > h.reorder_scratch) {
      h.reorder_scratch = size;
      h.reorder_scratch_md = *reorder_md;
    }
  }
  h.reorder_scratch_offset = bytes;
  conv->scratch_bytes_ = bytes + h.reorder_scratch;
  h.slots = std::vector<Handles::Slot>(static_cast<size_t>(slots));
  for (Handles::Slot& slot : h.slots) {
    bool ok =
        dnnl_stream_create(&slot.stream.handle, engine, dnnl_stream_default_flags) == dnnl_success;
    for (int i = 0; i < 3 && ok; ++i) {
      const Handles::Operand& o = h.operands[i];
      ok = dnnl_memory_create(&slot.user[i].handle, &o.user_md, engine, DNNL_MEMORY_NONE) ==
               dnnl_success &&
           (!o.reordered || dnnl_memory_create(&slot.inner[i].handle, &o.inner_md, engine,
                                               DNNL_MEMORY_NONE) == dnnl_success);
    }
    if (ok && h.conv_scratch > 0) {
      ok = dnnl_memory_create(&slot.scratch.handle, &h.conv_scratch_md, engine, DNNL_MEMORY_NONE) ==
           dnnl_success;
    }
    if (ok && h.reorder_scratch > 0) {
      ok = dnnl_memory_create(&slot.reorder_scratch.handle, &h.reorder_scratch_md, engine,
                              DNNL_MEMORY_NONE) == dnnl_success;
    }
    if (!ok) {
      return fail("create the memory objects of a convolution");
    }
  }
  return conv;
}

int64_t ConvPrimitive::reordered_offset(int role) const {
  const Handles::Operand& o = handles_->operands[role];
  return o.reordered ? o.inner_offset : -1;
}

bool ConvPrimitive::reorders_alike(int role, const ConvPrimitive& other, int other_role) const {
  const Handles::Operand& o = handles_->operands[role];
  const Handles::Operand& p = other.handles_->operands[other_role];
  return o.reordered && p.reordered && dnnl_memory_desc_equal(&o.user_md, &p.user_md) != 0 &&
         dnnl_memory_desc_equal(&o.inner_md, &p.inner_md) != 0;
}

bool ConvPrimitive::run(int slot, const void* a, const void* b, float* out, void* scratch,
                        const Reordered& given) const {
  if (product_ != nullptr) {
    return run_product(slot, a, b, out, scratch);
  }
  const Handles& h = *handles_;
  const Handles::Slot& s = h.slots[static_cast<size_t>(slot)];
  auto* bytes = static_cast<char*>(scratch);
  auto bind = [](dnnl_memory_t memory, const void* data) {
    return dnnl_memory_set_data_handle(memory, const_cast<void*>(data)) == dnnl_success;
  };
  if (h.reorder_scratch > 0 && !bind(s.reorder_scratch.handle, bytes + h.reorder_scratch_offset)) {
    return false;
  }
  OneThread one_thread;
  auto reorder = [&](int i, dnnl_memory_t from, dnnl_memory_t to) {
    dnnl_exec_arg_t args[3] = {
        {DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}, {DNNL_ARG_SCRATCHPAD, s.reorder_scratch.handle}};
    return dnnl_primitive_execute(h.operands[i].reorder.handle, s.stream.handle,
                                  h.reorder_scratch > 0 ? 3 : 2, args) == dnnl_success;
  };
  // Each operand's memory as the primitive reads or writes it.
  const void* data[3] = {a, b, out};
  dnnl_memory_t used[3];
  for (int i = 0; i < 3; ++i) {
    const Handles::Operand& o = h.operands[i];
    const bool copied = o.reordered && i == given.role;
    if (!bind(s.user[i].handle, data[i]) ||
        (o.reordered && !bind(s.inner[i].handle, copied ? given.data : bytes + o.inner_offset))) {
      return false;
    }
    used[i] = o.reordered ? s.inner[i].handle : s.user[i].handle;
    if (i < 2 && o.reordered && !copied && !reorder(i, s.user[i].handle, s.inner[i].handle)) {
      return false;
    }
  }
  if (h.conv_scratch > 0 && !bind(s.scratch.handle, bytes)) {
    return false;
  }
  const int a_arg = pass_ == Pass::backward_data ? DNNL_ARG_DIFF_DST : DNNL_ARG_SRC;
  const int b_arg = pass_ == Pass::backward_weights ? DNNL_ARG_DIFF_DST : DNNL_ARG_WEIGHTS;
  const int out_arg = pass_ == Pass::forward         ? DNNL_ARG_DST
                      : pass_ == Pass::backward_data ? DNNL_ARG_DIFF_SRC
                                                     : DNNL_ARG_DIFF_WEIGHTS;
  dnnl_exec_arg_t args[4] = {{a_arg, used[0]},
                             {b_arg, used[1]},
                             {out_arg, used[2]},
                             {DNNL_ARG_SCRATCHPAD, s.scratch.handle}};
  const int count = h.conv_scratch > 0 ? 4 : 3;
  return dnnl_primitive_execute(h.primitive.handle, s.stream.handle, count, args) == dnnl_success &&
         (!h.operands[2].reordered || reorder(2, s.inner[2].handle, s.user[2].handle)) &&
         dnnl_stream_wait(s.stream.handle) == dnnl_success;
}

}  // namespace oa::conv
