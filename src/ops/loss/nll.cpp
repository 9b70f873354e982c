#include "ops/loss/nll.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/convert.h"
#include "core/tensor.h"
#include "runtime/error.h"

namespace oa::loss::nll {
namespace {

// t as a View whose dims are, in order, the row or class dims named by `dims` ("nchw", "nc", "n",
// "" for one element).
View view_of(const aclTensor& t, const char* dims) {
  View v;
  v.dtype = t.dtype;
  v.data = first_element(t);
  // An empty view's strides are not used either.
  const bool empty = numel(t) == 0;
  const size_t count = std::strlen(dims);
  for (size_t d = 0; d < count; ++d) {
    const int64_t stride = t.shape[d] == 1 || empty ? 0 : t.strides[d];
    switch (dims[d]) {
      case 'n':
        v.n = stride;
        break;
      case 'c':
        v.c = stride;
        break;
      case 'h':
        v.h = stride;
        break;
      default:
        v.w = stride;
        break;
    }
  }
  return v;
}

// Whether the view's elements fill one run of memory (its dims, ordered by stride, contiguous).
bool dense(const aclTensor& t) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of the dims of size > 1
  for (size_t d = 0; d < t.shape.size(); ++d) {
    if (t.shape[d] > 1) {
      dims.emplace_back(t.strides[d], t.shape[d]);
    }
  }
  std::sort(dims.begin(), dims.end());
  int64_t expected = 1;
  for (const auto& [stride, size] : dims) {
    if (stride != expected) {
      return false;
    }
    expected *= size;
  }
  return true;
}

// Fills the row and class layout both directions share: self's dims, target, weight.
Problem rows_of(const Call& call, bool two_d) {
  Problem p;
  p.op = call.op();
  p.two_d = two_d;
  p.reduction = call.integer("reduction");
  p.ignore_index = call.integer("ignoreIndex");
  const aclTensor& self = *call.tensor("self");
  const aclTensor& target = *call.tensor("target");
  if (two_d) {
    p.batch = self.shape[0];
    p.classes = self.shape[1];
    p.height = self.shape[2];
    p.width = self.shape[3];
    p.target = view_of(target, "nhw");
  } else if (self.shape.size() == 2) {
    p.batch = self.shape[0];
    p.classes = self.shape[1];
    p.target = view_of(target, "n");
  } else {
    p.classes = self.shape[0];
    p.target_0d = true;
    p.target = view_of(target, "");
  }
  p.weight = view_of(*call.tensor("weight"), "c");
  return p;
}

// The dims of self (and gradInput), and of a per-row tensor for reduction none.
const char* class_dims(const Problem& p) { return p.two_d ? "nchw" : p.target_0d ? "c" : "nc"; }
const char* row_dims(const Problem& p) {
  return p.reduction != 0 ? "" : p.two_d ? "nhw" : p.target_0d ? "" : "n";
}

}  // namespace

Problem forward_problem(const Call& call, bool two_d) {
  Problem p = rows_of(call, two_d);
  p.scores = view_of(*call.tensor("self"), class_dims(p));
  p.out = view_of(*call.tensor("out"), row_dims(p));
  p.total_weight_out = view_of(*call.tensor("totalWeightOut"), "");
  return p;
}

Problem backward_problem(const Call& call, bool two_d) {
  Problem p = rows_of(call, two_d);
  p.grad_output = view_of(*call.tensor("gradOutput"), row_dims(p));
  p.total_weight = view_of(*call.tensor("totalWeight"), "");
  const aclTensor& out = *call.tensor("out");
  p.grad_input = view_of(out, class_dims(p));
  p.grad_input_bytes = numel(out) * (dtype_bits(out.dtype) / 8);
  p.grad_input_dense = dense(out);
  return p;
}

int64_t target_of(const Problem& p, int64_t r) {
  const int64_t hw = p.height * p.width;
  const int64_t n = r / hw;
  const int64_t h = r % hw / p.width;
  const int64_t w = r % p.width;
  return target_at(p, n, h, w);
}

aclnnStatus bad_target_error(const Problem& p, int64_t r, int64_t t, bool forward) {
  std::string position;
  if (p.two_d) {
    const int64_t hw = p.height * p.width;
    position =
        format("[%lld, %lld, %lld]", static_cast<long long>(r / hw),
               static_cast<long long>(r % hw / p.width), static_cast<long long>(r % p.width));
  } else if (!p.target_0d) {
    position = format("[%lld]", static_cast<long long>(r));
  }
  return failf(ACLNN_ERR_RUNTIME_ERROR,
               "%s: target%s = %lld is out of range: a class index must lie in [0, C) = [0, %lld) "
               "or equal ignoreIndex %lld; %s",
               p.op, position.c_str(), static_cast<long long>(t), static_cast<long long>(p.classes),
               static_cast<long long>(p.ignore_index),
               forward ? "out and totalWeightOut were not written" : "out was not written");
}

float reduced_scale(const Problem& p) {
  const float g = load_float(p.grad_output.dtype, p.grad_output.data, 0);
  if (p.reduction == 1) {
    return g / load_float(p.total_weight.dtype, p.total_weight.data, 0);
  }
  return g;
}

void store_double(const View& v, double value) {
  if (std::isnan(value)) {
    value = std::numeric_limits<double>::quiet_NaN();
  }
  store_float(v.dtype, static_cast<float>(value), v.data, 0);
}

std::function<void(const CallSpec&, int, std::vector<double>*)> target_values(const OpDef& def) {
  const auto at = [&def](const char* name) { return static_cast<size_t>(def.param_index(name)); };
  const size_t target_at = at("target");
  const size_t self_at = at("self");
  const size_t ignore_at = at("ignoreIndex");
  return [=](const CallSpec& spec, int param, std::vector<double>* values) {
    if (static_cast<size_t>(param) != target_at) {
      return;
    }
    const TensorSpec& self = spec.args[self_at].tensor;
    const TensorSpec& target = spec.args[target_at].tensor;
    const int64_t classes = self.shape.size() == 1 ? self.shape[0] : self.shape[1];
    const int64_t ignore = spec.args[ignore_at].integer;
    const bool ignorable = target.dtype == ACL_UINT8 ? ignore >= 0 && ignore <= 255
                           : target.dtype == ACL_INT32
                               ? ignore >= std::numeric_limits<int32_t>::min() &&
                                     ignore <= std::numeric_limits<int32_t>::max()
                               : true;
    if (classes == 0 && !ignorable) {
      return;  // no valid target exists
    }
    const int64_t count = numel(target.shape);
    for (int64_t k = 0; k < count; ++k) {
      const bool ignored = ignorable && (k % 7 == 3 || classes == 0);
      values->push_back(static_cast<double>(ignored ? ignore : (k * 5 + 2) % classes));
    }
  };
}

}  // namespace oa::loss::nll
