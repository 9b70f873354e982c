// libFuzzer target over the command-line tool's .npy reader: the fuzz input is the file, read
// through the tool's own file path (an in-memory file, /proc/self/fd/N) with no dtype given and as
// each dtype a caller may name. The reader must throw UsageError for any file it refuses, nothing
// else; what it accepts must write back (write_npy) and read again to the same array.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "openaclnn/files.h"

namespace {

using oa::tool::Array;

// Aborts (a crash for libFuzzer) when an accepted array does not survive a write and a read.
void check_round_trip(const std::string& dir, const Array& array, std::optional<aclDataType> as) {
  const std::string path = dir + "/round_trip.npy";
  oa::tool::write_npy(path, array);
  const Array again = oa::tool::read_npy(path, as);
  if (again.dtype != array.dtype || again.shape != array.shape || again.bytes != array.bytes) {
    std::fprintf(stderr, "npy_fuzz: the array read back differs from the one written\n");
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int fd = memfd_create("npy_fuzz", MFD_CLOEXEC);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  static const std::string dir = [] {
    std::string name = (std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp") +
                       std::string("/npy_fuzz.XXXXXX");
    return mkdtemp(name.data()) != nullptr ? name : std::string();
  }();
  if (fd < 0 || dir.empty() || ftruncate(fd, 0) != 0 ||
      pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
    return 0;
  }
  const std::optional<aclDataType> kAs[] = {std::nullopt,      ACL_BF16,  ACL_HIFLOAT8,
                                            ACL_FLOAT8_E4M3FN, ACL_UINT8, ACL_FLOAT};
  for (const std::optional<aclDataType>& as : kAs) {
    Array array;
    try {
      array = oa::tool::read_npy(path, as);
    } catch (const oa::tool::UsageError&) {
      continue;
    }
    check_round_trip(dir, array, as);
  }
  return 0;
}
