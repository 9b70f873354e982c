#include "ops/pooling/bad_index.h"

#include <string>

#include "runtime/error.h"

namespace oa::pooling {
namespace {

template <typename I>
BadIndex first_bad(const View& indices, const Dims& d) {
  const I* base = static_cast<const I*>(indices.data);
  for (int64_t n = 0; n < d.n; ++n) {
    for (int64_t c = 0; c < d.c; ++c) {
      for (int64_t i = 0; i < d.ho; ++i) {
        for (int64_t j = 0; j < d.wo; ++j) {
          const auto value = static_cast<int64_t>(
              base[n * indices.sn + c * indices.sc + i * indices.sh + j * indices.sw]);
          if (value < 0 || value >= d.h * d.w) {
            return {true, n, c, i, j, value};
          }
        }
      }
    }
  }
  return {};
}

}  // namespace

BadIndex find_bad_index(const View& indices, const Dims& dims, aclDataType index_dtype) {
  return index_dtype == ACL_INT32 ? first_bad<int32_t>(indices, dims)
                                  : first_bad<int64_t>(indices, dims);
}

aclnnStatus bad_index_error(const char* op, const BadIndex& bad, int rank, const Dims& d) {
  const std::string position =
      rank == 4 ? format("[%lld, %lld, %lld, %lld]", static_cast<long long>(bad.n),
                         static_cast<long long>(bad.c), static_cast<long long>(bad.i),
                         static_cast<long long>(bad.j))
                : format("[%lld, %lld, %lld]", static_cast<long long>(bad.c),
                         static_cast<long long>(bad.i), static_cast<long long>(bad.j));
  return failf(ACLNN_ERR_RUNTIME_ERROR,
               "%s: indices%s = %lld is out of range: an index must lie in [0, H*W) = [0, %lld) "
               "for self's plane %lldx%lld; gradInput was not written",
               op, position.c_str(), static_cast<long long>(bad.value),
               static_cast<long long>(d.h * d.w), static_cast<long long>(d.h),
               static_cast<long long>(d.w));
}

}  // namespace oa::pooling
