// The elementwise engine every elementwise operator uses: numpy broadcasting of up to 8 dims,
// arbitrary strides and offsets (zero strides on inputs), coalescing of dims that are contiguous
// together, and a walk over the result in fixed chunks of elements that run in parallel. Chunk
// boundaries depend only on the shape, so results never depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "base/fill_simd.h"
#include "base/parallel.h"
#include "core/convert.h"
#include "core/tensor.h"

namespace oa {

constexpr int kMaxElementwiseRank = 8;
constexpr int kMaxOperands = 6;                          // the output and up to five inputs
constexpr int64_t kElementwiseChunk = int64_t{1} << 16;  // elements per parallel chunk

struct ElementwiseOperand {
  char* data = nullptr;  // the view's first element (offset applied); null for "no output"
  aclDataType dtype = ACL_FLOAT;
  int64_t element_size = 4;
  int64_t strides[kMaxElementwiseRank] = {};  // in elements; 0 on broadcast dims
};

// The tiled walk's tile: rows of the last-but-one dim by columns of the last dim. 16 rows are every
// float of a 64-byte line of a transposed input.
constexpr int64_t kTileRows = 16;
constexpr int64_t kTileCols = 256;
// The largest element a transposed input may have to be staged through a tile buffer.
constexpr int64_t kMaxStagedElement = 4;

struct ElementwiseLoop {
  int rank = 1;                              // after coalescing, outermost first
  int64_t shape[kMaxElementwiseRank] = {1};  // the broadcast shape, coalesced
  int operand_count = 0;                     // operands[0] is the output
  ElementwiseOperand operands[kMaxOperands];
  int64_t numel = 1;
  // An input runs along the last-but-one dim (transposed against the output): walk the last two
  // dims in tiles so that its cache lines are used whole. A chunk is then kTileRows rows.
  bool tiled = false;
  // Every operand is FLOAT16, or every one BF16: strips with one-value inputs (stride 0) then go to
  // the register kernels too (dense_strip).
  bool one_16bit_dtype = false;

  int64_t chunks() const {
    if (numel == 0) {  // an empty shape keeps its 0 dim: the tiled count would divide by it
      return 0;
    }
    // Rounded up without overflow: numel may be near 2^63 (a broadcast view).
    if (!tiled) {
      return numel / kElementwiseChunk + (numel % kElementwiseChunk != 0);
    }
    const int64_t rows = shape[rank - 2];
    return numel / (rows * shape[rank - 1]) * (rows / kTileRows + (rows % kTileRows != 0));
  }
};

// Plans a walk over `shape` (the broadcast of the inputs, rank <= 8). operands[0] is `out` (which
// has exactly `shape`), or a placeholder without data when out is null (a reduction); the inputs
// are broadcast to `shape` with zero strides. Dims are ordered by the output's strides (or the
// first input's, without output), largest first, then merged where every operand allows.
ElementwiseLoop plan_elementwise(const Shape& shape, const aclTensor* out,
                                 const std::vector<const aclTensor*>& inputs);

// A run of n elements: operand i starts at ptr[i] and steps stride[i] elements.
struct Strip {
  char* ptr[kMaxOperands];
  int64_t stride[kMaxOperands];
  int64_t n;
};

// The strip of n elements starting at the multi-index `index` (loop.rank entries).
inline Strip strip_at(const ElementwiseLoop& loop, const int64_t* index, int64_t n) {
  Strip strip;
  strip.n = n;
  for (int o = 0; o < loop.operand_count; ++o) {
    const ElementwiseOperand& operand = loop.operands[o];
    int64_t offset = 0;
    for (int d = 0; d < loop.rank; ++d) {
      offset += index[d] * operand.strides[d];
    }
    strip.ptr[o] = operand.data + offset * operand.element_size;
    strip.stride[o] = operand.strides[loop.rank - 1];
  }
  return strip;
}

// Whether a strip goes to a register kernel (simd::MapDense): every operand steps one element at a
// time (contiguous), or, when all operands are FLOAT16 or all BF16, an input holds one value along
// the strip (stride 0). Such a strip otherwise widens into float32 blocks and narrows back, which
// the register kernel avoids (SmoothL1 backward, 16M elements, in-process A/B: all bfloat16 with
// target [4096, 1] 1.08-1.14x, all float16 with a 0-d gradOutput 1.28x); float32 operands are read
// in place by the block kernels as well (0.93-1.0x in registers), and mixed dtypes ran 0.78x.
inline bool dense_strip(const ElementwiseLoop& loop, const Strip& strip) {
  for (int o = 0; o < loop.operand_count; ++o) {
    if (strip.stride[o] != 1 && !(loop.one_16bit_dtype && o > 0 && strip.stride[o] == 0)) {
      return false;
    }
  }
  return true;
}

// The operands' dtypes, output first: what the kernels of contiguous strips need of the loop.
struct OperandDtypes {
  aclDataType dtype[kMaxOperands];
};

inline OperandDtypes operand_dtypes(const ElementwiseLoop& loop) {
  OperandDtypes dtypes{};
  for (int o = 0; o < loop.operand_count; ++o) {
    dtypes.dtype[o] = loop.operands[o].dtype;
  }
  return dtypes;
}

// Sets index to the multi-index of the linear position `position` over dims [0, dims).
inline void unravel(const ElementwiseLoop& loop, int64_t position, int dims, int64_t* index) {
  for (int d = dims - 1; d >= 0; --d) {
    index[d] = position % loop.shape[d];
    position /= loop.shape[d];
  }
}

// Whether input o of a tiled loop is staged: it runs along the rows (stride 1 on the
// last-but-one dim) and its elements are small enough for the tile buffer.
inline bool staged_input(const ElementwiseLoop& loop, int o) {
  const ElementwiseOperand& operand = loop.operands[o];
  const int64_t column_stride = operand.strides[loop.rank - 1];
  return operand.strides[loop.rank - 2] == 1 && column_stride != 0 && column_stride != 1 &&
         operand.element_size <= kMaxStagedElement;
}

// Copies a tile of `rows` x `cols` elements of `size` bytes whose rows are contiguous in memory
// (element (r, c) at src + (r + c * column_stride) * size) into dst row-major. Each column's run
// of rows is read whole, so every cache line of the source is loaded once. Columns up to `ahead`
// (>= cols: the next tile's too) are prefetched a few columns in advance.
void stage_tile(const char* src, int64_t column_stride, int64_t size, int64_t rows, int64_t cols,
                int64_t ahead, char* dst);

// Calls body(chunk, strip) for the strips of one chunk, in order.
template <typename Body>
void walk_chunk(const ElementwiseLoop& loop, int64_t chunk, const Body& body) {
  const int inner = loop.rank - 1;
  int64_t index[kMaxElementwiseRank];
  if (loop.tiled) {
    const int64_t rows = loop.shape[inner - 1];
    const int64_t row_blocks = (rows + kTileRows - 1) / kTileRows;
    unravel(loop, chunk / row_blocks, inner - 1, index);
    const int64_t first_row = chunk % row_blocks * kTileRows;
    const int64_t last_row = std::min(rows, first_row + kTileRows);
    // Transposed inputs go through a row-major copy of the tile: read column by column, a line at
    // a time, instead of one element from each of kTileCols lines per row.
    alignas(64) char tiles[kMaxOperands - 1][kTileRows * kTileCols * kMaxStagedElement];
    bool staged[kMaxOperands] = {};
    for (int o = 1; o < loop.operand_count; ++o) {
      staged[o] = staged_input(loop, o);
    }
    for (int64_t column = 0; column < loop.shape[inner]; column += kTileCols) {
      const int64_t cols = std::min(kTileCols, loop.shape[inner] - column);
      index[inner] = column;
      index[inner - 1] = first_row;
      const Strip corner = strip_at(loop, index, cols);
      for (int o = 1; o < loop.operand_count; ++o) {
        if (staged[o]) {
          stage_tile(corner.ptr[o], corner.stride[o], loop.operands[o].element_size,
                     last_row - first_row, cols, loop.shape[inner] - column, tiles[o - 1]);
        }
      }
      for (index[inner - 1] = first_row; index[inner - 1] < last_row; ++index[inner - 1]) {
        Strip strip = strip_at(loop, index, cols);
        for (int o = 1; o < loop.operand_count; ++o) {
          if (staged[o]) {
            const int64_t row = index[inner - 1] - first_row;
            strip.ptr[o] = tiles[o - 1] + row * cols * loop.operands[o].element_size;
            strip.stride[o] = 1;
          }
        }
        body(chunk, strip);
      }
    }
    return;
  }
  const int64_t begin = chunk * kElementwiseChunk;
  const int64_t end = std::min(loop.numel, begin + kElementwiseChunk);
  unravel(loop, begin, loop.rank, index);
  for (int64_t position = begin; position < end;) {
    const Strip strip =
        strip_at(loop, index, std::min(loop.shape[inner] - index[inner], end - position));
    body(chunk, strip);
    position += strip.n;
    index[inner] += strip.n;
    for (int d = inner; d > 0 && index[d] == loop.shape[d]; --d) {
      index[d] = 0;
      ++index[d - 1];
    }
  }
}

// Calls body(chunk, strip) for every strip of every chunk. Chunks run in parallel (when there are
// at least two chunks' worth of elements); the strips of one chunk run in order, on one thread,
// and end with a store fence for the non-temporal stores a kernel may have made.
template <typename Body>
void for_each_strip(const ElementwiseLoop& loop, const Body& body) {
  auto chunk_body = [&](int64_t chunk) {
    walk_chunk(loop, chunk, body);
    store_fence();
  };
  parallel_for(loop.chunks(), chunk_body, loop.numel >= 2 * kElementwiseChunk);
}

// Elements per block of the float32 helpers below (a few KiB per operand: stays in L1).
constexpr int64_t kFloatBlock = 512;

// Operand o's elements [done, done + n) of a strip as contiguous float32: the operand's own memory
// when it is contiguous FLOAT, else widened into buffer.
inline const float* float_block(Isa isa, const ElementwiseLoop& loop, const Strip& strip, int o,
                                int64_t done, int64_t n, float* buffer) {
  const ElementwiseOperand& operand = loop.operands[o];
  const char* src = strip.ptr[o] + done * strip.stride[o] * operand.element_size;
  if (operand.dtype == ACL_FLOAT && strip.stride[o] == 1) {
    return reinterpret_cast<const float*>(src);
  }
  load_floats(isa, operand.dtype, src, strip.stride[o], n, buffer);
  return buffer;
}

// Whether a kernel should write the output with non-temporal (streaming) stores: when the loop
// reads and writes too many bytes for the output to stay in cache (base/fill_simd.h), so that
// writing it need not first read it in. An input broadcast along a dim is read once for it.
inline bool worth_streaming(const ElementwiseLoop& loop) {
  int64_t touched = 0;
  for (int o = 0; o < loop.operand_count; ++o) {
    int64_t elements = 1;
    for (int d = 0; d < loop.rank; ++d) {
      elements *= loop.operands[o].strides[d] == 0 ? 1 : loop.shape[d];
    }
    touched += elements * loop.operands[o].element_size;
  }
  return simd::streams_output(touched);
}

// The float32 blocks of a strip's inputs (operands 1..Inputs). An input broadcast along the strip
// (stride 0) holds one value: it is widened once, for every block; the others block by block.
template <int Inputs>
class FloatInputs {
 public:
  FloatInputs(Isa isa, const ElementwiseLoop& loop, const Strip& strip)
      : isa_(isa), loop_(loop), strip_(strip) {
    for (int i = 0; i < Inputs; ++i) {
      constant_[i] = strip.stride[i + 1] == 0;
      if (constant_[i]) {
        float value;
        load_floats(isa, loop.operands[i + 1].dtype, strip.ptr[i + 1], 0, 1, &value);
        std::fill_n(buffers_[i], std::min(kFloatBlock, strip.n), value);
      }
    }
  }

  // Input i's elements [done, done + n) of the strip, n <= kFloatBlock.
  const float* block(int i, int64_t done, int64_t n) {
    return constant_[i] ? buffers_[i]
                        : float_block(isa_, loop_, strip_, i + 1, done, n, buffers_[i]);
  }

 private:
  Isa isa_;
  const ElementwiseLoop& loop_;
  const Strip& strip_;
  bool constant_[Inputs];
  alignas(64) float buffers_[Inputs][kFloatBlock];
};

// Runs a float32 kernel over a strip of a loop whose operands are FLOAT, FLOAT16 or BF16:
// kernel(out, in, n, in_memory) reads n contiguous floats from in[0..Inputs) and writes n floats to
// out, in blocks of kFloatBlock. The output is written in place (in_memory true) when it is
// contiguous FLOAT, else into a buffer (in_memory false) that is then narrowed into it. Each input
// block is read before its output block is written, so an output that is exactly an input's view
// (in place) is safe.
template <int Inputs, typename Kernel>
void map_floats(Isa isa, const ElementwiseLoop& loop, const Strip& strip, const Kernel& kernel) {
  FloatInputs<Inputs> inputs(isa, loop, strip);
  alignas(64) float out_buffer[kFloatBlock];
  const float* in[Inputs];
  const ElementwiseOperand& output = loop.operands[0];
  for (int64_t done = 0; done < strip.n; done += kFloatBlock) {
    int64_t n = std::min(kFloatBlock, strip.n - done);
    for (int i = 0; i < Inputs; ++i) {
      in[i] = inputs.block(i, done, n);
    }
    char* dst = strip.ptr[0] + done * strip.stride[0] * output.element_size;
    if (output.dtype == ACL_FLOAT && strip.stride[0] == 1) {
      kernel(reinterpret_cast<float*>(dst), in, n, true);
    } else {
      kernel(out_buffer, in, n, false);
      store_floats(isa, output.dtype, out_buffer, n, dst, strip.stride[0]);
    }
  }
}

}  // namespace oa
