#include "ops/conv/geometry.h"

#include <algorithm>
#include <limits>

#include "core/values.h"

namespace oa::conv {

bool padding_length_ok(int spatial, bool transposed, size_t length) {
  const auto dims = static_cast<size_t>(spatial);
  if (length == dims) {
    return true;
  }
  return length == 2 * dims && (spatial == 2 || (spatial == 1 && !transposed));
}

ConvAttrs make_attrs(int spatial, const std::vector<int64_t>& stride,
                     const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation,
                     bool transposed, const std::vector<int64_t>& output_padding) {
  ConvAttrs a;
  a.spatial = spatial;
  a.transposed = transposed;
  const bool two_sided = padding.size() == 2 * static_cast<size_t>(spatial);
  for (int d = 0; d < spatial; ++d) {
    const auto i = static_cast<size_t>(d);
    a.stride[d] = stride[i];
    a.dilation[d] = dilation[i];
    a.pad_l[d] = two_sided ? padding[2 * i] : padding[i];
    a.pad_r[d] = two_sided ? padding[2 * i + 1] : padding[i];
    a.output_padding[d] = transposed ? output_padding[i] : 0;
  }
  return a;
}

const std::vector<int64_t>* array_values(const Call& call, const char* name) {
  const auto* array = static_cast<const aclIntArray*>(call.handle(name));
  return array == nullptr ? nullptr : &array->values;
}

ConvAttrs conv_attrs(const Call& call) {
  const OpDef& def = call.def();
  const bool transposed = def.param_index("transposed") >= 0 && call.flag("transposed");
  const int spatial = static_cast<int>(
      call.tensor(def.param_index("input") >= 0 ? "input" : "self")->shape.size() - 2);
  static const std::vector<int64_t> none;
  const std::vector<int64_t>* op =
      def.param_index("outputPadding") >= 0 ? array_values(call, "outputPadding") : nullptr;
  return make_attrs(spatial, *array_values(call, "stride"), *array_values(call, "padding"),
                    *array_values(call, "dilation"), transposed, op == nullptr ? none : *op);
}

__int128 spatial_extent(const ConvAttrs& a, int dim, int64_t in, int64_t k) {
  using Wide = __int128;
  const Wide span = Wide{a.dilation[dim]} * (k - 1) + 1;
  if (a.transposed) {
    return Wide{in - 1} * a.stride[dim] + span + a.output_padding[dim];
  }
  return std::max(Wide{in} + a.pad_l[dim] + a.pad_r[dim], span);
}

int64_t output_size(const ConvAttrs& a, int dim, int64_t in, int64_t k) {
  using Wide = __int128;
  const Wide span = Wide{a.dilation[dim]} * (k - 1);
  const Wide pads = Wide{a.pad_l[dim]} + a.pad_r[dim];
  Wide out = 0;
  if (a.transposed) {
    out = Wide{in - 1} * a.stride[dim] - pads + span + a.output_padding[dim] + 1;
  } else {
    out = (Wide{in} + pads - span - 1) / a.stride[dim] + 1;
  }
  constexpr Wide kLimit = Wide{1} << 62;
  return out > kLimit || out < -kLimit ? std::numeric_limits<int64_t>::min()
                                       : static_cast<int64_t>(out);
}

ConvProblem make_problem(const ConvAttrs& a, int64_t groups, const Shape& xs, const Shape& ws,
                         const Shape& ys) {
  ConvProblem p;
  p.spatial = a.spatial;
  p.n = xs[0];
  p.cx = xs[1];
  p.cy = ys[1];
  p.groups = groups;
  const int lead = 3 - a.spatial;
  for (int d = 0; d < a.spatial; ++d) {
    const auto i = static_cast<size_t>(d + 2);
    p.x[lead + d] = xs[i];
    p.y[lead + d] = ys[i];
    p.k[lead + d] = ws[i];
    p.stride[lead + d] = a.stride[d];
    p.dilation[lead + d] = a.dilation[d];
    p.pad_l[lead + d] = a.pad_l[d];
  }
  return p;
}

}  // namespace oa::conv
