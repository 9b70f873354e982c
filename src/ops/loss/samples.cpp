#include "ops/loss/samples.h"

#include <utility>

#include "core/op/build.h"
#include "ops/loss/loss_rules.h"

namespace oa::loss {

std::vector<CallSpec> pair_samples(const OpDef& def, const std::string& output) {
  using namespace build;
  const auto call = [&](Shape x, aclDataType tx, Shape y, aclDataType ty, int64_t reduction) {
    return sample(def, {{"self", tensor(std::move(x), tx)},
                        {"target", tensor(std::move(y), ty)},
                        {"reduction", integer(reduction)}});
  };
  return {
      call({2, 67}, ACL_FLOAT, {2, 67}, ACL_FLOAT, 0),
      call({4, 1, 37}, ACL_FLOAT16, {5, 37}, ACL_BF16, 1),
      call({3, 70}, ACL_BF16, {3, 70}, ACL_FLOAT, 2),
      call({3, 40}, ACL_FLOAT, {40}, ACL_FLOAT, 0),
      with_dtype(def, call({2, 3, 41}, ACL_FLOAT16, {2, 3, 41}, ACL_FLOAT16, 0), output, ACL_FLOAT),
      call({}, ACL_FLOAT16, {}, ACL_FLOAT16, 2),
      call({0, 3}, ACL_FLOAT, {3}, ACL_FLOAT, 1),
  };
}

std::vector<CallSpec> gradient_samples(const OpDef& def, const std::string& output,
                                       bool one_dtype) {
  using namespace build;
  const auto call = [&](Shape g, aclDataType tg, Shape x, aclDataType tx, Shape y, aclDataType ty,
                        int64_t reduction) {
    return sample(def, {{"gradOutput", tensor(std::move(g), one_dtype ? tx : tg)},
                        {"self", tensor(std::move(x), tx)},
                        {"target", tensor(std::move(y), one_dtype ? tx : ty)},
                        {"reduction", integer(reduction)}});
  };
  return {
      call({2, 67}, ACL_FLOAT, {2, 67}, ACL_FLOAT, {2, 67}, ACL_FLOAT, 0),
      call({}, ACL_BF16, {4, 1, 37}, ACL_FLOAT16, {5, 37}, ACL_FLOAT, 1),
      call({}, ACL_BF16, {3, 70}, ACL_BF16, {3, 70}, ACL_BF16, 2),
      call({2, 1, 3, 39}, ACL_FLOAT16, {1, 2, 3, 39}, ACL_FLOAT16, {2, 2, 1, 39}, ACL_FLOAT16, 0),
      with_dtype(def, call({}, ACL_FLOAT, {3, 45}, ACL_FLOAT16, {45}, ACL_FLOAT, 2), output,
                 ACL_FLOAT),
      with_dtype(def, call({6, 40}, ACL_FLOAT, {6, 40}, ACL_FLOAT, {6, 40}, ACL_FLOAT, 0), output,
                 ACL_BF16),
      call({}, ACL_FLOAT, {}, ACL_FLOAT, {}, ACL_FLOAT16, 1),
      call({1, 0, 1, 2}, ACL_FLOAT, {1, 1, 0, 2}, ACL_FLOAT, {1, 0, 1, 2}, ACL_FLOAT, 0),
  };
}

}  // namespace oa::loss
