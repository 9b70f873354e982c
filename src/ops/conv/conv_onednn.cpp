// The oneDNN implementations of aclnnConvolution, aclnnConvDepthwise2d and
// aclnnConvolutionBackward: each pass of job.h through oneDNN's convolution primitives (forward,
// backward-data, backward-weights; the transposed forward is the backward-data pass) or, for a
// kernel of size 1, its matrix products (conv_primitive.h), with float32 results. Operands that are
// not dense FLOAT without rounding are widened (and rounded as cubeMathType says) into dense
// float32 copies in the workspace, and results that do not go straight into a dense FLOAT output
// are rounded once from float32 to their output dtype. Float32 operands hold every FLOAT16 and BF16
// value exactly, so this computes every dtype mix with float32 products and sums.
//
// A pass whose two operands are both BF16 reads them as bfloat16 where the CPU multiplies
// bfloat16 natively (AVX512-BF16): the same float32 products and sums at about twice the rate, as
// long as no value is too small for them (ops/conv/precision.h). The run checks that while it
// copies (or scans, when the tensor is dense) the operands, and uses the float32 primitives when
// it fails.
//
// Threads: the batch is cut into slices whose size depends only on the problem; each slice runs
// one single-threaded primitive (conv_primitive.h) on a slot of its own. A data pass writes each
// sample's result in exactly one slice, so nothing depends on which thread ran it. The weight
// pass gives each slice its own partial gradient and sums the partials in slice order. The
// results therefore have the same bits for any thread count.
//
// The two passes of a backward read one operand alike (gradOutput; transposed: x): where both
// primitives copy it into the same layout of theirs, the second pass reads the first's copy.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "base/parallel.h"
#include "core/convert.h"
#include "core/isa.h"
#include "core/onednn.h"
#include "ops/conv/conv_primitive.h"
#include "ops/conv/impls.h"
#include "ops/conv/job.h"
#include "ops/conv/precision.h"
#include "ops/conv/rows.h"
#include "ops/conv/rows_simd.h"
#include "ops/conv/work.h"
#include "runtime/error.h"

namespace oa::conv {
namespace {

constexpr int kMaxSlices = 8;

// Below this many FLOPs in all its passes a call is left to the reference: its plain loops finish
// before oneDNN has planned one primitive (measured, docs/perf/conv.md: CANN's sample size, 1152
// FLOPs a pass, takes 7 us forward and 12 us backward in the reference against 13-20 us and
// 63-80 us through oneDNN, most of it planning).
constexpr double kMinFlops = 4096;

// Whether a view is used by the primitive in place: dense FLOAT, nothing to round.
bool in_place(const View5& v, CubeRounding rounding) {
  return v.dtype == ACL_FLOAT && rounding == CubeRounding::none && v.dense();
}

// Operand `role` (0: a, 1: b) of a step.
const View5& operand_view(const ConvStep& s, int role) { return role == 0 ? s.a : s.b; }
CubeRounding rounding_of(const ConvStep& s, int role) {
  return role == 0 ? s.a_rounding : s.b_rounding;
}

// Whether operand `role` of s and operand `other` of t are the same tensor, rounded alike.
bool same_operand(const ConvStep& s, int role, const ConvStep& t, int other) {
  const View5& v = operand_view(s, role);
  const View5& u = operand_view(t, other);
  return v.data == u.data && v.dtype == u.dtype && rounding_of(s, role) == rounding_of(t, other) &&
         std::equal(v.dims, v.dims + 5, u.dims) && std::equal(v.strides, v.strides + 5, u.strides);
}

// body(offset, index, n, channel) over a view in runs of n elements, strides[4] elements apart from
// element `offset`, that are the elements index.. of the view in row-major order. A run covers the
// trailing dims that lie in memory as one row (all of a dense view, split in pieces for the
// threads); with by_channel it stays within one channel (dim 1), which body is told. Spread over
// threads when the view is large.
template <typename Body>
void for_each_run(const View5& v, bool by_channel, const Body& body) {
  // About this many elements make one task of a thread.
  constexpr int64_t kTask = int64_t{1} << 15;
  int64_t run = 0;
  const int first = v.trailing_run(by_channel ? 2 : 0, &run);  // a run covers dims first..4
  if (v.numel() == 0) {
    return;
  }
  const bool threads = v.numel() >= (int64_t{1} << 16);
  const int64_t runs = v.numel() / run;
  if (runs == 1) {
    const int64_t pieces = (run + kTask - 1) / kTask;
    const int64_t piece = (run + pieces - 1) / pieces;
    parallel_for(
        pieces,
        [&](int64_t p) {
          const int64_t start = p * piece;
          body(start * v.strides[4], start, std::min(piece, run - start), int64_t{0});
        },
        threads);
    return;
  }
  // Several runs a task: the first one's indices found by division, the next ones by counting.
  const int64_t per_task = std::max<int64_t>(1, kTask / run);
  parallel_for((runs + per_task - 1) / per_task,
               [&](int64_t task) {
                 const int64_t begin = task * per_task;
                 const int64_t end = std::min(runs, begin + per_task);
                 int64_t index[4] = {0, 0, 0, 0};
                 int64_t offset = 0;
                 for (int64_t d = first - 1, r = begin; d >= 0; --d) {
                   index[d] = r % v.dims[d];
                   r /= v.dims[d];
                   offset += index[d] * v.strides[d];
                 }
                 for (int64_t r = begin; r < end; ++r) {
                   body(offset, r * run, run, index[1]);
                   for (int d = first - 1; d >= 0; --d) {
                     offset += v.strides[d];
                     if (++index[d] < v.dims[d]) {
                       break;
                     }
                     offset -= index[d] * v.strides[d];
                     index[d] = 0;
                   }
                 }
               },
               threads);
}

int64_t element_bytes(const View5& v) { return dtype_bits(v.dtype) / 8; }

// The view's elements, widened and rounded, into dense float32 at dst.
void stage(Isa isa, const View5& v, CubeRounding rounding, float* dst) {
  const int64_t bytes = element_bytes(v);
  for_each_run(v, false, [&](int64_t offset, int64_t index, int64_t n, int64_t) {
    load_row(isa, v.data + offset * bytes, v.dtype, v.strides[4], n, rounding, dst + index);
  });
}

// Whether every BF16 element of the view is zero or of magnitude >= 2^-56 (precision.h); with
// dst, the elements are first copied there densely (and dst is scanned: a view's rows can be too
// short for the scan's vectors).
bool wide_bf16(const View5& v, uint16_t* dst) {
  View5 dense;
  dense.data = v.data;
  dense.dtype = ACL_BF16;
  dense.dims[4] = v.numel();
  dense.strides[4] = 1;
  if (dst != nullptr) {
    for_each_run(v, false, [&](int64_t offset, int64_t index, int64_t n, int64_t) {
      const auto* src = reinterpret_cast<const uint16_t*>(v.data) + offset;
      for (int64_t i = 0; i < n; ++i) {
        dst[index + i] = src[i * v.strides[4]];
      }
    });
    dense.data = reinterpret_cast<char*>(dst);
  }
  std::atomic<bool> wide{true};
  for_each_run(dense, false, [&](int64_t offset, int64_t, int64_t n, int64_t) {
    if (!bf16_all_wide(reinterpret_cast<const uint16_t*>(dense.data) + offset, n)) {
      wide.store(false, std::memory_order_relaxed);
    }
  });
  return wide.load();
}

// Whether this CPU multiplies bfloat16 natively in oneDNN's convolutions.
bool native_bf16() {
  static const bool native = (dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core_bf16) ==
                             dnnl_cpu_isa_avx512_core_bf16;
  return native;
}

// The dense x of problem p (cropped) at cropped into the dense full-size view `full` at out, zeros
// past the cropped elements.
void expand(const ConvProblem& p, const View5& full, const float* cropped, float* out) {
  std::memset(out, 0, static_cast<size_t>(full.numel()) * 4);
  const int64_t rows = p.n * p.cx;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i0 = 0; i0 < p.x[0]; ++i0) {
      for (int64_t i1 = 0; i1 < p.x[1]; ++i1) {
        const float* src = cropped + ((r * p.x[0] + i0) * p.x[1] + i1) * p.x[2];
        float* dst = out + ((r * full.dims[2] + i0) * full.dims[3] + i1) * full.dims[4];
        std::memcpy(dst, src, static_cast<size_t>(p.x[2]) * 4);
      }
    }
  }
}

// x of a problem whose depth (spatial dim 0) holds `front` and `back` padding planes, from the
// dense x without them at dense into out: each (sample, channel) block of planes between zeros.
void pad_depth(const ConvProblem& padded, int64_t front, int64_t back, const float* dense,
               float* out) {
  const int64_t plane = padded.x[1] * padded.x[2];
  const int64_t depth = padded.x[0] - front - back;
  parallel_for(
      padded.n * padded.cx,
      [&](int64_t r) {
        float* block = out + r * padded.x[0] * plane;
        std::memset(block, 0, static_cast<size_t>(front * plane) * 4);
        std::memcpy(block + front * plane, dense + r * depth * plane,
                    static_cast<size_t>(depth * plane) * 4);
        std::memset(block + (front + depth) * plane, 0, static_cast<size_t>(back * plane) * 4);
      },
      padded.x_numel() >= (int64_t{1} << 16));
}

// Whether oneDNN runs a primitive on a direct kernel: not im2col and GEMM, not its reference.
bool direct(const ConvPrimitive& conv) {
  const std::string& name = conv.implementation();
  return name.find("gemm") == std::string::npos && name.rfind("ref", 0) != 0;
}

// The primitives of a pass in one operand precision.
struct Slices {
  Precision precision = Precision::f32;
  std::unique_ptr<ConvPrimitive> full;  // slices of slice_size samples
  std::unique_ptr<ConvPrimitive> last;  // the last slice when it is shorter
};

// One pass of the job and how it runs.
struct StepPlan {
  ConvStep step;
  ConvProblem problem;
  Slices f32;
  Slices bf16;  // null when the pass does not read its operands as bfloat16
  int64_t slice_size = 0;
  int64_t slices = 0;
  bool zeros = false;  // an operand has no elements: the result is zeros (plus bias)
  bool a_in_place = false;
  bool b_in_place = false;
  bool out_in_place = false;
  // A right padding of stride or more below zero (a transposed outputPadding of stride or more,
  // which the dilation allows): the primitive's x is cropped to the elements a tap reaches (oneDNN
  // takes a right padding down to 1 - stride, no lower); the rest of a cropped output is 0.
  bool crop_out = false;
  int64_t crop_offset = 0;
  // A 3-D weight gradient with depth padding, which oneDNN's direct AVX2 kernel does not take (it
  // runs im2col and GEMM instead): the primitive's x holds that padding as planes of zeros, front
  // of them before and back after the planes of each (sample, channel), copied at padded_offset.
  int64_t depth_front = 0;
  int64_t depth_back = 0;
  int64_t padded_offset = 0;
  int64_t a_offset = 0;
  int64_t b_offset = 0;
  int64_t out_offset = 0;
  int64_t partial_offset = 0;  // backward_weights: the partials of slices 1.. (w_numel each)
  int64_t scratch_offset = 0;
  int64_t scratch_stride = 0;
  int64_t bias_offset = 0;
};

// Elements per sample of the operands and the result of a pass (0: shared by every sample).
struct PerSample {
  int64_t a;
  int64_t b;
  int64_t out;
};

// The operand that both passes of a backward read (gradOutput; transposed: x): where the two
// passes' primitives copy it into the same layout, the second reads the first's copy, which stays
// in the first pass's scratch. Per precision of the primitives (Slices::precision: f32, bf16).
struct SharedOperand {
  bool alike[2] = {false, false};
  int first_role = 0;   // its role in steps_[0]
  int second_role = 0;  // and in steps_[1]
};

const char* pass_name(Pass pass) {
  switch (pass) {
    case Pass::forward:
      return "forward";
    case Pass::backward_data:
      return "backward-data";
    default:
      return "backward-weights";
  }
}

PerSample per_sample(const ConvProblem& p, Pass pass) {
  const int64_t x = p.cx * p.x[0] * p.x[1] * p.x[2];
  const int64_t y = p.cy * p.y[0] * p.y[1] * p.y[2];
  switch (pass) {
    case Pass::forward:
      return {x, 0, y};
    case Pass::backward_data:
      return {y, 0, x};
    default:
      return {x, y, 0};
  }
}

class OnednnPlan final : public Plan {
 public:
  static std::unique_ptr<OnednnPlan> make(const char* op, ConvJob job, std::string* why) {
    std::unique_ptr<OnednnPlan> plan(new OnednnPlan());
    plan->op_ = op;
    plan->isa_ = selected_isa();
    int64_t bytes = 0;
    auto take = [&bytes](int64_t size) {
      const int64_t at = bytes;
      bytes += aligned(size);
      return at;
    };
    for (const ConvStep& s : job.steps) {
      StepPlan sp;
      sp.step = s;
      sp.problem = job.problem;
      ConvProblem& p = sp.problem;
      bool crop = false;
      for (int d = 0; d < 3; ++d) {
        const int64_t pad_r = p.pad_r(d);
        if (pad_r + p.stride[d] <= 0) {
          p.x[d] = std::max<int64_t>(p.x[d] + pad_r, 0);
          crop = true;
        }
      }
      if (crop && s.pass != Pass::backward_data) {
        // x is read: the primitive reads the view's first p.x elements of each dim.
        for (int d = 0; d < 3; ++d) {
          sp.step.a.dims[2 + d] = p.x[d];
        }
      }
      sp.crop_out = crop && s.pass == Pass::backward_data;
      sp.zeros = sp.step.a.numel() == 0 || s.b.numel() == 0 || p.x_numel() == 0;
      sp.a_in_place = in_place(sp.step.a, s.a_rounding);
      sp.b_in_place = in_place(s.b, s.b_rounding);
      sp.out_in_place = s.out.dtype == ACL_FLOAT && s.out.dense() && !sp.crop_out;
      if (!sp.a_in_place) {
        sp.a_offset = take(s.a.numel() * 4);
      }
      if (!sp.b_in_place) {
        sp.b_offset = take(s.b.numel() * 4);
      }
      if (!sp.out_in_place) {
        sp.out_offset = take(s.out.numel() * 4);
      }
      if (sp.crop_out) {
        sp.crop_offset = take(p.x_numel() * 4);
      }
      if (s.has_bias) {
        sp.bias_offset = take(s.bias.numel() * 4);
      }
      if (!sp.zeros) {
        const int64_t wanted = std::clamp<int64_t>(static_cast<int64_t>(p.flops() / kFlopsPerSlot),
                                                   1, std::min<int64_t>(p.n, kMaxSlices));
        sp.slice_size = (p.n + wanted - 1) / wanted;
        sp.slices = (p.n + sp.slice_size - 1) / sp.slice_size;
        int64_t scratch = 0;
        if (!make_slices(sp, Precision::f32, &sp.f32, &scratch, why)) {
          return nullptr;
        }
        pad_depth_if_direct(&sp, &scratch);
        logf(LogLevel::debug, "%s: the %s pass runs on oneDNN %s", op, pass_name(s.pass),
             sp.f32.full->implementation().c_str());
        if (sp.depth_front + sp.depth_back > 0) {
          sp.padded_offset = take(p.x_numel() * 4);
          logf(LogLevel::debug, "%s: the backward-weights pass reads x with its depth padding", op);
        }
        std::string no_bf16;
        if (s.a.dtype == ACL_BF16 && s.b.dtype == ACL_BF16 && s.a_rounding == CubeRounding::none &&
            s.b_rounding == CubeRounding::none && native_bf16() &&
            !make_slices(sp, Precision::bf16, &sp.bf16, &scratch, &no_bf16)) {
          sp.bf16 = Slices();
          logf(LogLevel::debug, "%s: the %s pass reads float32 operands: %s", op, pass_name(s.pass),
               no_bf16.c_str());
        } else if (sp.bf16.full != nullptr) {
          logf(LogLevel::debug, "%s: with bfloat16 operands, the %s pass runs on oneDNN %s", op,
               pass_name(s.pass), sp.bf16.full->implementation().c_str());
        }
        sp.scratch_stride = aligned(scratch);
        sp.scratch_offset = take(sp.scratch_stride * sp.slices);
        if (s.pass == Pass::backward_weights) {
          sp.partial_offset = take(p.w_numel() * 4 * (sp.slices - 1));
        }
      }
      plan->steps_.push_back(std::move(sp));
    }
    plan->share_operand();
    plan->workspace_bytes_ = bytes;
    plan->job_ = std::move(job);
    return plan;
  }

  int64_t workspace_bytes() const { return workspace_bytes_; }

  // A 3-D weight gradient with depth padding whose float32 primitive is not direct takes the
  // problem with that padding as planes of x instead, when oneDNN runs that one on a direct kernel
  // (on the AVX2 host: case e's backward 1.13x -> 1.57x PyTorch, docs/perf/conv.md). Not where the
  // CPU has AVX512-BF16, whose bfloat16 primitives would need the padded x in bfloat16 too.
  // *scratch is raised to the new primitives' scratch.
  static void pad_depth_if_direct(StepPlan* sp, int64_t* scratch) {
    const ConvProblem& p = sp->problem;
    const int64_t front = p.pad_l[0];
    const int64_t back = std::max<int64_t>(p.pad_r(0), 0);
    if (sp->step.pass != Pass::backward_weights || p.spatial != 3 || front + back == 0 ||
        direct(*sp->f32.full) || native_bf16()) {
      return;
    }
    StepPlan padded;
    padded.step = sp->step;
    padded.problem = p;
    padded.problem.x[0] += front + back;
    padded.problem.pad_l[0] = 0;
    padded.slice_size = sp->slice_size;
    padded.slices = sp->slices;
    int64_t padded_scratch = 0;
    std::string why_not;
    if (!make_slices(padded, Precision::f32, &padded.f32, &padded_scratch, &why_not) ||
        !direct(*padded.f32.full)) {
      return;
    }
    sp->problem = padded.problem;
    sp->f32 = std::move(padded.f32);
    sp->depth_front = front;
    sp->depth_back = back;
    *scratch = std::max(*scratch, padded_scratch);
  }

  // Finds the operand the two passes read alike and, per precision, whether their primitives copy
  // it into the same layout (shared_). A pass with the result zeros, or sliced otherwise, shares
  // nothing.
  void share_operand() {
    if (steps_.size() != 2 || steps_[0].zeros || steps_[1].zeros ||
        steps_[0].slice_size != steps_[1].slice_size) {
      return;
    }
    const StepPlan& first = steps_[0];
    const StepPlan& second = steps_[1];
    for (int r = 0; r < 2; ++r) {
      for (int q = 0; q < 2; ++q) {
        if (!same_operand(first.step, r, second.step, q)) {
          continue;
        }
        auto alike = [&](const Slices& x, const Slices& y) {
          return x.full != nullptr && y.full != nullptr && x.full->reorders_alike(r, *y.full, q) &&
                 (x.last == nullptr) == (y.last == nullptr) &&
                 (x.last == nullptr || x.last->reorders_alike(r, *y.last, q));
        };
        shared_.alike[0] = alike(first.f32, second.f32);
        shared_.alike[1] = alike(first.bf16, second.bf16);
        shared_.first_role = r;
        shared_.second_role = q;
        if (shared_.alike[0] || shared_.alike[1]) {
          logf(LogLevel::debug, "%s: the %s pass reads the %s pass's copy of an operand", op_,
               pass_name(second.step.pass), pass_name(first.step.pass));
        }
        return;
      }
    }
  }

  // The primitives of sp's pass in `precision` into *slices, *scratch raised to their scratch.
  // False when oneDNN cannot make one, or would run bfloat16 operands on its reference
  // implementation.
  static bool make_slices(const StepPlan& sp, Precision precision, Slices* slices, int64_t* scratch,
                          std::string* why) {
    slices->precision = precision;
    ConvProblem sliced = sp.problem;
    sliced.n = sp.slice_size;
    const int64_t rest = sp.problem.n - (sp.slices - 1) * sp.slice_size;
    auto make = [&](std::unique_ptr<ConvPrimitive>* made, int64_t n, int slots) {
      sliced.n = n;
      *made = ConvPrimitive::make(sliced, sp.step.pass, precision, slots, why);
      if (*made == nullptr) {
        return false;
      }
      if (precision == Precision::bf16 && (*made)->implementation().rfind("ref", 0) == 0) {
        *why = "oneDNN would run it on " + (*made)->implementation();
        return false;
      }
      *scratch = std::max(*scratch, (*made)->scratch_bytes());
      return true;
    };
    return make(&slices->full, sp.slice_size, static_cast<int>(sp.slices)) &&
           (rest == sp.slice_size || make(&slices->last, rest, 1));
  }

  aclnnStatus run(void* workspace) const override {
    char* ws = static_cast<char*>(workspace);
    Operands operands[2];
    for (size_t i = 0; i < steps_.size(); ++i) {
      operands[i] = prepare(steps_[i], ws);
    }
    std::atomic<bool> ok{true};
    const int precision =
        operands[0].primitives == nullptr ? 0 : static_cast<int>(operands[0].primitives->precision);
    if (steps_.size() == 2 && shared_.alike[precision] && operands[0].primitives != nullptr &&
        operands[1].primitives != nullptr &&
        operands[0].primitives->precision == operands[1].primitives->precision) {
      // Slice by slice, the second pass right after the first, while its copy is in cache.
      parallel_for(
          steps_[0].slices,
          [&](int64_t slice) {
            const ConvPrimitive* first =
                run_slice(steps_[0], operands[0], slice, ws, Reordered(), &ok);
            Reordered given;
            given.role = shared_.second_role;
            given.data = ws + steps_[0].scratch_offset + slice * steps_[0].scratch_stride +
                         first->reordered_offset(shared_.first_role);
            run_slice(steps_[1], operands[1], slice, ws, given, &ok);
          },
          steps_[0].slices > 1);
    } else {
      for (size_t i = 0; i < steps_.size(); ++i) {
        if (operands[i].primitives != nullptr) {
          parallel_for(
              steps_[i].slices,
              [&](int64_t slice) {
                run_slice(steps_[i], operands[i], slice, ws, Reordered(), &ok);
              },
              steps_[i].slices > 1);
        }
      }
    }
    if (!ok.load()) {
      return failf(ACLNN_ERR_INNER, "%s: a oneDNN convolution failed", op_);
    }
    for (size_t i = 0; i < steps_.size(); ++i) {
      complete(steps_[i], operands[i], ws);
    }
    if (job_.has_grad_bias) {
      store_grad_bias_lanes(job_, isa_);
    }
    return ACLNN_SUCCESS;
  }

 private:
  // What the primitives of a step read and write: null primitives when the result is zeros.
  struct Operands {
    const Slices* primitives = nullptr;
    const void* a = nullptr;
    const void* b = nullptr;
    float* out = nullptr;     // the float32 results (sp.out_in_place: the output itself)
    float* target = nullptr;  // where the primitives write them (a cropped output: elsewhere)
  };

  OnednnPlan() = default;

  // Chooses sp's primitives and gives them their operands (copied, rounded or padded into the
  // workspace where they must be); a result of zeros is written here.
  Operands prepare(const StepPlan& sp, char* ws) const {
    const ConvStep& s = sp.step;
    auto operand = [&](const View5& v, CubeRounding rounding, bool direct, int64_t offset) {
      if (direct) {
        return reinterpret_cast<const float*>(v.data);
      }
      auto* dst = reinterpret_cast<float*>(ws + offset);
      stage(isa_, v, rounding, dst);
      return static_cast<const float*>(dst);
    };
    // The operand as bfloat16 (the view itself when dense, else a copy at offset), or null when a
    // value is too small for the bfloat16 products.
    auto operand_bf16 = [&](const View5& v, int64_t offset) -> const void* {
      const bool dense = v.dense();
      auto* copy = reinterpret_cast<uint16_t*>(ws + offset);
      if (!wide_bf16(v, dense ? nullptr : copy)) {
        return nullptr;
      }
      return dense ? static_cast<const void*>(v.data) : copy;
    };
    Operands o;
    o.out = sp.out_in_place ? reinterpret_cast<float*>(s.out.data)
                            : reinterpret_cast<float*>(ws + sp.out_offset);
    if (sp.zeros) {
      std::memset(o.out, 0, static_cast<size_t>(s.out.numel()) * 4);
      return o;
    }
    o.target = sp.crop_out ? reinterpret_cast<float*>(ws + sp.crop_offset) : o.out;
    o.primitives = &sp.f32;
    if (sp.bf16.full != nullptr) {
      o.a = operand_bf16(s.a, sp.a_offset);
      o.b = o.a == nullptr ? nullptr : operand_bf16(s.b, sp.b_offset);
      o.primitives = o.b == nullptr ? &sp.f32 : &sp.bf16;
      logf(LogLevel::debug, "%s: the %s pass reads %s", op_, pass_name(s.pass),
           o.b == nullptr ? "float32 operands: a BF16 value is under 2^-56" : "bfloat16 operands");
    }
    if (o.primitives == &sp.f32) {
      o.a = operand(s.a, s.a_rounding, sp.a_in_place, sp.a_offset);
      o.b = operand(s.b, s.b_rounding, sp.b_in_place, sp.b_offset);
      if (sp.depth_front + sp.depth_back > 0) {
        auto* padded = reinterpret_cast<float*>(ws + sp.padded_offset);
        pad_depth(sp.problem, sp.depth_front, sp.depth_back, static_cast<const float*>(o.a),
                  padded);
        o.a = padded;
      }
    }
    return o;
  }

  // Runs slice `slice` of sp on its primitive (returned), reading `given`; *ok false when it fails.
  const ConvPrimitive* run_slice(const StepPlan& sp, const Operands& o, int64_t slice, char* ws,
                                 const Reordered& given, std::atomic<bool>* ok) const {
    const Slices& primitives = *o.primitives;
    const PerSample each = per_sample(sp.problem, sp.step.pass);
    const int64_t bytes = operand_bytes(primitives.precision);
    const int64_t first = slice * sp.slice_size;
    const bool short_last = slice == sp.slices - 1 && primitives.last != nullptr;
    const ConvPrimitive& conv = short_last ? *primitives.last : *primitives.full;
    const int slot = short_last ? 0 : static_cast<int>(slice);
    float* target =
        sp.step.pass == Pass::backward_weights
            ? (slice == 0 ? o.target : partials(sp, ws) + (slice - 1) * sp.problem.w_numel())
            : o.target + first * each.out;
    if (!conv.run(slot, static_cast<const char*>(o.a) + first * each.a * bytes,
                  static_cast<const char*>(o.b) + first * each.b * bytes, target,
                  ws + sp.scratch_offset + slice * sp.scratch_stride, given)) {
      ok->store(false, std::memory_order_relaxed);
    }
    return &conv;
  }

  // A weight pass's partial gradients of slices 1.. (w_numel each).
  static float* partials(const StepPlan& sp, char* ws) {
    return reinterpret_cast<float*>(ws + sp.partial_offset);
  }

  // After its slices: a weight pass's partials summed in slice order (whatever the threads did),
  // a cropped output expanded, the bias added and the results rounded into the output.
  void complete(const StepPlan& sp, const Operands& o, char* ws) const {
    if (o.primitives != nullptr) {
      if (sp.step.pass == Pass::backward_weights) {
        const int64_t w_numel = sp.problem.w_numel();
        for (int64_t slice = 1; slice < sp.slices; ++slice) {
          const float* partial = partials(sp, ws) + (slice - 1) * w_numel;
          for (int64_t i = 0; i < w_numel; ++i) {
            o.target[i] += partial[i];
          }
        }
      }
      if (sp.crop_out) {
        expand(sp.problem, sp.step.out, o.target, o.out);
      }
    }
    finish(sp, o.out, ws);
  }

  // Adds the bias and rounds the float32 results once into the output (unless they are in it).
  void finish(const StepPlan& sp, float* out, char* ws) const {
    const ConvStep& s = sp.step;
    const View5& v = s.out;
    auto* bias = reinterpret_cast<float*>(ws + sp.bias_offset);
    if (s.has_bias) {
      for (int64_t c = 0; c < s.bias.dims[1]; ++c) {
        bias[c] = cube_round(s.bias_rounding,
                             load_float(s.bias.dtype, s.bias.data, c * s.bias.strides[1]));
      }
    }
    if (sp.out_in_place && !s.has_bias) {
      return;
    }
    const int64_t bytes = element_bytes(v);
    for_each_run(v, s.has_bias, [&](int64_t offset, int64_t index, int64_t n, int64_t channel) {
      float* row = out + index;
      if (s.has_bias) {
        for (int64_t i = 0; i < n; ++i) {
          row[i] += bias[channel];
        }
      }
      if (!sp.out_in_place) {
        store_row(isa_, row, n, v.dtype, v.data + offset * bytes, v.strides[4]);
      }
    });
  }

  const char* op_ = "";
  Isa isa_ = Isa::scalar;
  ConvJob job_;
  std::vector<StepPlan> steps_;
  SharedOperand shared_;
  int64_t workspace_bytes_ = 0;
};

Impl onednn(ConvJob (*job)(const Call&)) {
  Impl impl;
  impl.name = "onednn";
  impl.reference_bits = false;
  impl.pays = [job](const Call& call, std::string* why_not) {
    const ConvJob j = job(call);
    const double flops = j.problem.flops() * static_cast<double>(j.steps.size());
    if (flops >= kMinFlops) {
      return true;
    }
    *why_not = "fewer than " + std::to_string(static_cast<int64_t>(kMinFlops)) +
               " FLOPs, the reference is faster";
    return false;
  };
  impl.plan = [job](const Call& call, Planned* planned) {
    std::string why;
    auto plan = OnednnPlan::make(call.op(), job(call), &why);
    if (plan == nullptr) {
      return failf(ACLNN_ERR_INNER, "%s: %s", call.op(), why.c_str());
    }
    planned->workspace_bytes = static_cast<uint64_t>(plan->workspace_bytes());
    planned->plan = std::move(plan);
    return ACLNN_SUCCESS;
  };
  return impl;
}

}  // namespace

Impl conv_forward_onednn() { return onednn(forward_job); }

Impl conv_backward_onednn() { return onednn(backward_job); }

}  // namespace oa::conv
