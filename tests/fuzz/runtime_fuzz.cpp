// libFuzzer target over the runtime's memory and stream functions: from the fuzz input, a sequence
// of aclrt*/rt* calls — allocations of every size class and policy, frees, copies and fills of
// every kind, on streams live, destroyed or made up, device sets and resets — given pointers that
// are null, live, interior, past the end, freed, host memory of the caller or from aclrtMallocHost.
// The runtime must answer every call with a code, never touch memory it should not.
//
// What the runtime cannot check is the caller's own host memory: a side of a copy that the kind
// (or, for the DEFAULT kind, the registry) calls host memory and that is not memory the runtime
// allocated is the caller's promise. The target keeps that promise (its host buffer, within its
// size) and breaks every other rule.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

#include "acl/acl.h"
#include "device_ready.h"
#include "runtime/rt.h"

namespace {

enum class Kind { device, host };

struct Allocation {
  size_t size;
  Kind kind;
};

constexpr size_t kHostBuffer = 4096;

// What the target knows of the runtime's state, to keep its side of the contract.
struct Model {
  std::map<uintptr_t, Allocation> live;  // by base address
  std::vector<uintptr_t> freed;          // addresses of released allocations
  std::vector<void*> streams;            // live streams
  std::vector<void*> dead_streams;
  int device_sets = 1;  // the device set at start-up counts one
  unsigned char host[kHostBuffer] = {};

  const Allocation* find(uintptr_t address, uintptr_t* base) const {
    auto it = live.upper_bound(address);
    if (it == live.begin()) {
      return nullptr;
    }
    --it;
    if (address - it->first >= it->second.size) {
      return nullptr;
    }
    *base = it->first;
    return &it->second;
  }
  void forget(uintptr_t base) {
    live.erase(base);
    freed.push_back(base);
  }
  void device_released() {
    for (const auto& entry : live) {
      freed.push_back(entry.first);
    }
    live.clear();
    dead_streams.insert(dead_streams.end(), streams.begin(), streams.end());
    streams.clear();
  }
};

size_t pick_size(FuzzedDataProvider& in) {
  constexpr size_t kSizes[] = {
      0, 1, 7, 64, 4096, size_t{2} << 20, (size_t{2} << 20) + 1, SIZE_MAX, SIZE_MAX - 63};
  return in.ConsumeBool() ? kSizes[in.ConsumeIntegralInRange<size_t>(0, std::size(kSizes) - 1)]
                          : in.ConsumeIntegralInRange<size_t>(0, 9000);
}

// A pointer of some class: null, the caller's host buffer, a live allocation at its start, inside
// or just past its end, a freed one, or a made-up address.
void* pick_pointer(FuzzedDataProvider& in, Model& model) {
  switch (in.ConsumeIntegralInRange(0, 5)) {
    case 0:
      return nullptr;
    case 1:
      return model.host + in.ConsumeIntegralInRange<size_t>(0, kHostBuffer - 1);
    case 2:
    case 3: {
      if (model.live.empty()) {
        return model.host;
      }
      auto it = model.live.begin();
      std::advance(it, in.ConsumeIntegralInRange<size_t>(0, model.live.size() - 1));
      const size_t offset =
          in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange<size_t>(0, it->second.size);
      return reinterpret_cast<void*>(it->first + offset);
    }
    case 4:
      return model.freed.empty()
                 ? nullptr
                 : reinterpret_cast<void*>(
                       model.freed[in.ConsumeIntegralInRange<size_t>(0, model.freed.size() - 1)]);
    default:
      return reinterpret_cast<void*>(in.ConsumeIntegral<uintptr_t>() | 1);
  }
}

void* pick_stream(FuzzedDataProvider& in, Model& model) {
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0:
      return nullptr;
    case 1:
      return model.streams.empty()
                 ? nullptr
                 : model.streams[in.ConsumeIntegralInRange<size_t>(0, model.streams.size() - 1)];
    case 2:
      return model.dead_streams.empty() ? model.host : model.dead_streams.back();
    default:
      return model.host;
  }
}

// Whether the runtime takes `pointer` as the caller's host memory for a copy of count bytes whose
// kind says device (or, for DEFAULT, that infers it), and that memory is not what the caller has.
bool breaks_host_promise(const Model& model, const void* pointer, size_t count,
                         bool declared_device, bool infer) {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  uintptr_t base = 0;
  const Allocation* allocation = model.find(address, &base);
  const bool device =
      infer ? allocation != nullptr && allocation->kind == Kind::device : declared_device;
  if (device || (allocation != nullptr && allocation->kind == Kind::host)) {
    return false;  // checked by the runtime against its registry
  }
  const auto host = reinterpret_cast<uintptr_t>(model.host);
  return address < host || address - host > kHostBuffer || count > kHostBuffer - (address - host);
}

void copy(FuzzedDataProvider& in, Model& model, bool rt, bool async) {
  void* dst = pick_pointer(in, model);
  void* src = pick_pointer(in, model);
  const size_t count = pick_size(in);
  const size_t dest_max = in.ConsumeBool() ? count : pick_size(in);
  const int kind = in.ConsumeIntegralInRange(-1, rt ? 10 : 5);
  void* stream = async ? pick_stream(in, model) : nullptr;
  // The directions as the runtime reads them (rt kinds 6..8: H2D, D2H, DEFAULT).
  const int acl_kind = !rt ? kind : kind == 6 ? 1 : kind == 7 ? 2 : kind == 8 ? 4 : kind;
  if (acl_kind < 0 || acl_kind > 4 || dst == nullptr || src == nullptr || count > dest_max) {
    // Refused before any pointer is read.
  } else if (breaks_host_promise(model, dst, count, acl_kind == 1 || acl_kind == 3,
                                 acl_kind == 4) ||
             breaks_host_promise(model, src, count, acl_kind == 2 || acl_kind == 3,
                                 acl_kind == 4)) {
    return;
  }
  if (rt) {
    rtMemcpy(dst, dest_max, src, count, static_cast<rtMemcpyKind_t>(kind));
  } else if (async) {
    aclrtMemcpyAsync(dst, dest_max, src, count, static_cast<aclrtMemcpyKind>(kind), stream);
  } else {
    aclrtMemcpy(dst, dest_max, src, count, static_cast<aclrtMemcpyKind>(kind));
  }
}

void allocate(FuzzedDataProvider& in, Model& model, int how) {
  if (model.live.size() >= 8) {
    return;
  }
  void* pointer = nullptr;
  const size_t size = pick_size(in);
  aclError code = ACL_SUCCESS;
  if (how == 0) {
    code = aclrtMalloc(&pointer, size,
                       static_cast<aclrtMemMallocPolicy>(in.ConsumeIntegralInRange(-1, 6)));
  } else if (how == 1) {
    code = rtMalloc(&pointer, size, in.ConsumeIntegral<uint32_t>(), 0);
  } else {
    code = aclrtMallocHost(&pointer, size);
  }
  if (code == ACL_SUCCESS) {
    model.live[reinterpret_cast<uintptr_t>(pointer)] = {size, how == 2 ? Kind::host : Kind::device};
  }
}

void release(FuzzedDataProvider& in, Model& model, int how) {
  void* pointer = pick_pointer(in, model);
  const aclError code = how == 0   ? aclrtFree(pointer)
                        : how == 1 ? rtFree(pointer)
                                   : aclrtFreeHost(pointer);
  if (code == ACL_SUCCESS) {
    model.forget(reinterpret_cast<uintptr_t>(pointer));
  }
}

void step(FuzzedDataProvider& in, Model& model) {
  switch (in.ConsumeIntegralInRange(0, 13)) {
    case 0:
    case 1:
    case 2:
      allocate(in, model, in.ConsumeIntegralInRange(0, 2));
      break;
    case 3:
    case 4:
      release(in, model, in.ConsumeIntegralInRange(0, 2));
      break;
    case 5:
    case 6: {
      void* pointer = pick_pointer(in, model);
      const size_t count = pick_size(in);
      const size_t max_count = in.ConsumeBool() ? count : pick_size(in);
      const int value = in.ConsumeIntegral<int>();
      if (in.ConsumeBool()) {
        aclrtMemset(pointer, max_count, value, count);
      } else {
        aclrtMemsetAsync(pointer, max_count, value, count, pick_stream(in, model));
      }
      break;
    }
    case 7:
    case 8:
      copy(in, model, false, in.ConsumeBool());
      break;
    case 9:
      copy(in, model, true, false);
      break;
    case 10: {
      void* stream = nullptr;
      const aclError code = in.ConsumeBool()
                                ? aclrtCreateStream(&stream)
                                : rtStreamCreate(&stream, in.ConsumeIntegralInRange(-1, 8));
      if (code == ACL_SUCCESS && model.streams.size() < 4) {
        model.streams.push_back(stream);
      } else if (code == ACL_SUCCESS) {
        aclrtDestroyStream(stream);
      }
      break;
    }
    case 11: {
      void* stream = pick_stream(in, model);
      const aclError code = in.ConsumeBool() ? aclrtDestroyStream(stream) : rtStreamDestroy(stream);
      if (code == ACL_SUCCESS) {
        model.streams.erase(std::find(model.streams.begin(), model.streams.end(), stream));
        model.dead_streams.push_back(stream);
      }
      break;
    }
    case 12:
      aclrtSynchronizeStreamWithTimeout(pick_stream(in, model), in.ConsumeIntegral<int32_t>());
      break;
    default:
      if (in.ConsumeBool() && model.device_sets < 3) {
        if (aclrtSetDevice(in.ConsumeIntegralInRange(-1, 1)) == ACL_SUCCESS) {
          ++model.device_sets;
        }
      } else if (aclrtResetDevice(in.ConsumeIntegralInRange(-1, 1)) == ACL_SUCCESS &&
                 --model.device_sets == 0) {
        model.device_released();
      }
      break;
  }
}

// Back to one device set with nothing allocated, as at start-up.
void tidy(Model& model) {
  for (const auto& entry : model.live) {
    void* pointer = reinterpret_cast<void*>(entry.first);
    entry.second.kind == Kind::host ? aclrtFreeHost(pointer) : aclrtFree(pointer);
  }
  for (void* stream : model.streams) {
    aclrtDestroyStream(stream);
  }
  for (; model.device_sets > 1; --model.device_sets) {
    aclrtResetDevice(0);
  }
  if (model.device_sets == 0) {
    aclrtSetDevice(0);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!oa_fuzz::device_ready()) {
    return 0;
  }
  FuzzedDataProvider in(data, size);
  Model model;
  for (int i = 0; i < 64 && in.remaining_bytes() > 0; ++i) {
    step(in, model);
  }
  tidy(model);
  return 0;
}
