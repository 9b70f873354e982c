// Matrix products through oneDNN's matmul primitive (Debian: libdnnl-dev), planned in phase 1 and
// run in phase 2 with the caller's pointers and scratch.
//
// Threads: oneDNN plans a primitive for omp_get_max_threads() threads, and one run inside a
// parallel region does only thread 0's share of that plan. So every product here is planned for
// one thread and runs whole on the thread that calls run(); the operator runs different products
// on different threads through oa::parallel_for. oneDNN never splits a product's sums across
// threads, and every result is the same for any thread count.
//
// Memory: oneDNN's scratchpad is user-managed: run() gets it from the caller (the operator's
// workspace). The per-caller memory objects and streams are made when planning. The operator
// describes every product with dense matrices: oneDNN 2.6 runs those on its brgemm kernels, and
// falls back for strided ones to its gemm-based implementation, which allocates packing buffers
// at each run (and would thread itself, which OneThread (core/onednn.h) prevents).
//
// Reuse: a planned product is kept and shared by every plan that needs the same shape and slot
// count, so that planning a shape seen before costs a lookup. A run holds its slot's lock, so two
// executors sharing a product may run at the same time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "aclnn/aclnn_base.h"

namespace oa {

// The element type in which a product reads both operands: float32, or bfloat16 (on CPUs with
// AVX512-BF16 twice the float32 rate; the products are exact and the sums float32, but subnormal
// inputs and results are flushed to zero, so a caller uses it only where it has made sure none
// arise). The result is float32 either way.
enum class Precision : uint8_t { f32, bf16 };

inline int64_t operand_bytes(Precision precision) { return precision == Precision::bf16 ? 2 : 4; }

// C (m x n) = A (m x k) . B (k x n) [+ bias] [+ C] with float32 accumulation; A and B in
// `precision`, C and bias float32. A's element (i, j) is at a[i * a_row + j * a_col], with a_row or
// a_col equal to 1; B's element (j, c) at b[j * ldb + c * b_col], with ldb or b_col equal to 1;
// C's element (i, c) at c[i * ldc + c]; bias has n values.
struct GemmShape {
  Precision precision = Precision::f32;
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t a_row = 0;
  int64_t a_col = 1;
  int64_t ldb = 0;
  int64_t b_col = 1;
  int64_t ldc = 0;
  bool bias = false;
  bool accumulate = false;
};

class Gemm {
  struct Key {};  // only get() makes a Gemm

 public:
  Gemm(Key, const GemmShape& shape);
  // The product (m, n, k >= 1) planned for `slots` callers that may run at the same time, each
  // with its own slot. Returns null and sets *error when oneDNN cannot plan it.
  static std::shared_ptr<const Gemm> get(const GemmShape& shape, int slots, std::string* error);
  // Whether oneDNN multiplies bfloat16 matrices on this CPU (oneDNN 2.6 needs AVX-512 for it; on
  // an AVX2 CPU planning such a product fails). Found once, by planning a small product.
  static bool bf16_products();
  ~Gemm();
  Gemm(const Gemm&) = delete;
  Gemm& operator=(const Gemm&) = delete;

  const GemmShape& shape() const { return shape_; }
  // The scratch one run needs, in bytes (0 when none).
  size_t scratch_bytes() const { return scratch_bytes_; }
  // oneDNN's name of the implementation it chose, e.g. "brg:avx512_core".
  const std::string& implementation() const { return implementation_; }

  // Computes the product on the calling thread, holding the slot's lock; scratch has
  // scratch_bytes() bytes. Returns false when oneDNN reports a failure.
  bool run(int slot, const void* a, const void* b, float* c, const float* bias,
           void* scratch) const;

 private:
  static std::unique_ptr<Gemm> plan(const GemmShape& shape, int slots, std::string* error);

  GemmShape shape_;
  size_t scratch_bytes_ = 0;
  std::string implementation_;
  struct Handles;
  std::unique_ptr<Handles> handles_;
};

// Gemm::get for a phase 1 of operator op: on failure 561000 with a message naming op, the error and
// the product's sizes; at debug log level, says which oneDNN implementation each product runs on.
aclnnStatus plan_gemm(const char* op, const GemmShape& shape, int slots,
                      std::shared_ptr<const Gemm>* out);

// Records and returns the failure of a planned product during op's run (561000).
aclnnStatus gemm_failure(const char* op);

}  // namespace oa
