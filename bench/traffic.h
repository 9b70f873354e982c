// The traffic-matched ceiling of a memory-bound case: a plain vector loop that, on the project's
// thread count, reads exactly the case's input byte counts and writes exactly its output byte
// counts, over buffers of the same kind of memory as both sides (huge_pages.h). What a case runs
// at as a percentage of it says how close the kernel comes to moving its own bytes at the
// machine's speed, whatever the number and sizes of its streams.
#pragma once

#include "harness.h"

namespace oa::bench {

// The ways the loop writes its outputs; the harness times both and the faster is the ceiling.
enum class Stores { plain, streaming };

// The setup of the loop for `traffic` with `stores`. The loop walks its streams as an elementwise
// kernel does: every stream is cut into the same number of blocks, block g of each stream being
// the same fraction of it (boundaries on cache lines, fixed by the sizes alone); blocks are grouped
// into fixed chunks that the threads share out in contiguous runs (OpenMP static schedule), and
// within a block each input is read, its values summed, and the sum stored over each output's
// block, so that no read can be optimised away and every output byte is written. Streaming stores
// are ordered by a fence at the end of each thread's chunks.
Setup traffic_setup(const Traffic& traffic, Stores stores);

// The Highway target the loop dispatches to now (e.g. "AVX3"): the one openaclnn's kernels use,
// as both go through the one libhwy's choice, which OPENACLNN_CPU_ISA narrows.
const char* traffic_target();

}  // namespace oa::bench
