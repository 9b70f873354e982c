// The instruction sets the adaptive max pooling kernels are compiled for. Each kernel is one set of
// plain loops, compiled once for the baseline x86-64 (or whatever the target is) and, on x86-64,
// again with AVX2 and with AVX-512 enabled (function attributes, not separate sources); phase 1
// picks one and keeps it in the plan.
#pragma once

namespace oa::amp {

enum class KernelIsa { baseline, avx2, avx512 };

// The best set this CPU supports, or baseline when OPENACLNN_CPU_ISA=scalar (core/isa.h).
KernelIsa kernel_isa();

}  // namespace oa::amp

#if defined(__x86_64__) && defined(__GNUC__)
#define OA_AMP_HAVE_X86_CLONES 1
// Clones of a kernel entry: flatten inlines the loops into it, so they are compiled for its target.
#define OA_AMP_AVX2 __attribute__((target("avx2"), flatten))
#define OA_AMP_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512dq"), flatten))
#endif
