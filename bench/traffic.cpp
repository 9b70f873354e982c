#include "traffic.h"

#include <hwy/cache_control.h>
#include <hwy/highway.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "acl_support.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "huge_pages.h"
#include "traffic_simd.h"

namespace oa::bench {
namespace {

// Blocks of the largest stream: a few KiB, as the elementwise engine's per-operand blocks, and
// chunks of 256 KiB, as its parallel chunks of 64 Ki float32 elements.
constexpr size_t kBlockBytes = 2048;
constexpr int64_t kChunkBlocks = 128;

// openaclnn applies OPENACLNN_CPU_ISA to Highway's dispatch, which the loop shares, in phase 1 of
// its first operator call. One phase 1 here, before the first loop runs, so that a loop never runs
// on a wider target than the kernels it bounds, whichever benchmark the run starts with.
void follow_openaclnn_isa() {
  static std::once_flag once;
  std::call_once(once, [] {
    const int64_t shape[] = {1};
    std::vector<DeviceBuffer> memory;
    std::vector<std::shared_ptr<aclTensor>> tensors;
    for (int i = 0; i < 4; ++i) {
      memory.push_back(device_alloc(sizeof(float)));
      aclTensor* t = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1,
                                     memory.back().get());
      check(t == nullptr ? 1 : 0, "aclCreateTensor");
      tensors.emplace_back(t, aclDestroyTensor);
    }
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    check(aclnnSmoothL1LossBackwardGetWorkspaceSize(tensors[0].get(), tensors[1].get(),
                                                    tensors[2].get(), 0, 1.0f, tensors[3].get(),
                                                    &workspace, &executor),
          "aclnnSmoothL1LossBackwardGetWorkspaceSize");
    check(aclDestroyAclOpExecutor(executor), "aclDestroyAclOpExecutor");
  });
}

struct Buffer {
  std::shared_ptr<uint8_t> data;
  size_t bytes;
};

// The loop's buffers and its cut into blocks and chunks.
struct Loop {
  std::vector<Buffer> inputs;
  std::vector<Buffer> outputs;
  std::vector<const uint8_t*> in;
  std::vector<size_t> in_bytes;
  std::vector<uint8_t*> out;
  std::vector<size_t> out_bytes;
  int64_t blocks = 0;
  int64_t chunks = 0;
  std::vector<uint32_t> sums;  // per chunk: what it read, stored so that the reads count
  int threads = 1;

  Streams streams() const {
    return {in.data(),  in_bytes.data(),  static_cast<int>(in.size()),
            out.data(), out_bytes.data(), static_cast<int>(out.size()),
            blocks};
  }
  int64_t chunk_end(int64_t chunk) const { return std::min(blocks, (chunk + 1) * kChunkBlocks); }
  // The elementwise engine runs on one thread below two chunks of work.
  int team() const { return chunks >= 2 ? threads : 1; }
};

// On huge pages as openaclnn's device memory and PyTorch's tensors; left untouched, so that the
// threads that run the loop touch its pages first.
Buffer allocate(size_t bytes) {
  void* data = huge_alloc(std::max<size_t>(bytes, 1));
  if (data == nullptr) {
    throw std::runtime_error("out of host memory");
  }
  return {std::shared_ptr<uint8_t>(static_cast<uint8_t*>(data), [](uint8_t* p) { std::free(p); }),
          bytes};
}

// Fills each chunk's blocks of every stream on the thread that will run that chunk: inputs with a
// byte pattern, outputs with zeros.
void first_touch(Loop* loop) {
  const Loop& l = *loop;
#pragma omp parallel for num_threads(l.team()) schedule(static)
  for (int64_t chunk = 0; chunk < l.chunks; ++chunk) {
    const int64_t first = chunk * kChunkBlocks;
    const int64_t end = l.chunk_end(chunk);
    const auto fill = [&](const Buffer& b, int value) {
      const size_t begin = block_begin(b.bytes, first, l.blocks);
      std::memset(b.data.get() + begin, value, block_begin(b.bytes, end, l.blocks) - begin);
    };
    for (const Buffer& b : l.inputs) {
      fill(b, 0x5a);
    }
    for (const Buffer& b : l.outputs) {
      fill(b, 0);
    }
  }
}

void run(Loop* loop, bool streaming) {
  const Streams streams = loop->streams();
  const int64_t chunks = loop->chunks;
  uint32_t* sums = loop->sums.data();
#pragma omp parallel num_threads(loop->team())
  {
#pragma omp for schedule(static) nowait
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      sums[chunk] =
          traffic_blocks(streams, chunk * kChunkBlocks, loop->chunk_end(chunk), streaming);
    }
    if (streaming) {
      hwy::FlushStream();  // before the region's closing barrier, which publishes the stores
    }
  }
}

}  // namespace

Setup traffic_setup(const Traffic& traffic, Stores stores) {
  return [traffic, stores] {
    follow_openaclnn_isa();
    auto loop = std::make_shared<Loop>();
    loop->threads = thread_count();
    for (size_t bytes : traffic.reads) {
      loop->inputs.push_back(allocate(bytes));
      loop->in.push_back(loop->inputs.back().data.get());
      loop->in_bytes.push_back(bytes);
    }
    for (size_t bytes : traffic.writes) {
      loop->outputs.push_back(allocate(bytes));
      loop->out.push_back(loop->outputs.back().data.get());
      loop->out_bytes.push_back(bytes);
    }
    size_t largest = 0;
    for (const std::vector<size_t>* sizes : {&traffic.reads, &traffic.writes}) {
      for (size_t bytes : *sizes) {
        largest = std::max(largest, bytes);
      }
    }
    loop->blocks = static_cast<int64_t>((largest + kBlockBytes - 1) / kBlockBytes);
    loop->chunks = (loop->blocks + kChunkBlocks - 1) / kChunkBlocks;
    loop->sums.assign(static_cast<size_t>(loop->chunks), 0);
    first_touch(loop.get());
    const bool streaming = stores == Stores::streaming;
    return Step([loop, streaming] { run(loop.get(), streaming); });
  };
}

const char* traffic_target() {
  const int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
  // The best target is the lowest set bit (Highway orders targets from best to worst).
  return hwy::TargetName(targets & -targets);
}

}  // namespace oa::bench
