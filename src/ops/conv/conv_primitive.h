// One oneDNN convolution primitive (operands in float32 or bfloat16, results in float32, the
// caller's plain row-major tensors reordered to and from the layouts it chooses where that pays,
// user scratchpad) for one pass of a plain convolution (job.h) over a batch of n samples, with the
// memory objects and stream of the slots that run it. Planned once on one thread (core/onednn.h),
// so that its result does not depend on the thread count. A forward or data pass of a kernel of
// size 1 (no padding, one group) is instead one oneDNN matrix product per sample (core/gemm.h,
// conv_product.cpp), with x subsampled where the stride skips elements.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/gemm.h"
#include "ops/conv/job.h"

namespace oa::conv {

// Operand `role` of a primitive already copied into its layout at data (by a primitive that
// reorders it alike), so that ConvPrimitive::run reads it there instead of copying it again.
struct Reordered {
  int role = -1;
  const void* data = nullptr;
};

class ConvPrimitive {
 public:
  // The form of a pass that is one matrix product per sample (conv_product.h).
  struct Product;
  // The primitive of `pass` over problem p (p.n samples) reading its two operands in `operands`,
  // runnable on `slots` slots at a time; null with *why set when oneDNN cannot make it.
  static std::unique_ptr<ConvPrimitive> make(const ConvProblem& p, Pass pass, Precision operands,
                                             int slots, std::string* why);
  ~ConvPrimitive();
  ConvPrimitive(const ConvPrimitive&) = delete;
  ConvPrimitive& operator=(const ConvPrimitive&) = delete;

  // The scratch bytes one run needs: oneDNN's scratchpad, the operands in the primitive's
  // layouts, the reorders' scratchpad.
  int64_t scratch_bytes() const { return scratch_bytes_; }
  const std::string& implementation() const { return implementation_; }

  // Where run() leaves its copy of operand `role` (0: a, 1: b) in the primitive's layout: an
  // offset into its scratch, -1 when the primitive reads the caller's layout.
  int64_t reordered_offset(int role) const;
  // Whether operand `role` and operand `other_role` of other are copied from the same plain layout
  // into the same layout.
  bool reorders_alike(int role, const ConvPrimitive& other, int other_role) const;

  // Runs on slot `slot` with dense operands a and b (in the precision it was made for) into the
  // dense float32 out (job.h's roles of the three), scratch holding scratch_bytes(). False when
  // oneDNN fails.
  bool run(int slot, const void* a, const void* b, float* out, void* scratch,
           const Reordered& given = Reordered()) const;

 private:
  struct Handles;
  ConvPrimitive();
  // make with the activations (x and y) in layout `activations`, the weights in the primitive's
  // choice (or plain with `activations` plain).
  static std::unique_ptr<ConvPrimitive> make_in(const ConvProblem& p, Pass pass, Precision operands,
                                                int slots, int activations, std::string* why);
  // The products of a pass that is one matrix product per sample (conv_product.cpp), or null.
  static std::unique_ptr<ConvPrimitive> make_product(const ConvProblem& p, Pass pass,
                                                     Precision operands, int slots);
  bool run_product(int slot, const void* a, const void* b, float* out, void* scratch) const;
  std::unique_ptr<Handles> handles_;
  std::unique_ptr<Product> product_;
  Pass pass_ = Pass::forward;
  int64_t scratch_bytes_ = 0;
  std::string implementation_;
};

}  // namespace oa::conv
