#include "reference/convolution.h"

#include <gtest/gtest.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/cube_math.h"
#include "core/op/build.h"

namespace conv_test {
namespace {

int64_t uniform(std::mt19937_64* rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(*rng);
}

// The plain convolution y = conv(x, w) of each call (the transposed forward is its data
// gradient): x (n, cx, x...), w (cy, cx / groups, k...), y (n, cy, y...), spatial dims padded to 3.
struct Problem {
  int64_t n, cx, cy, groups;
  int64_t x[3], y[3], k[3], stride[3], dilation[3], pad[3];
};

Problem problem_of(const Geometry& g) {
  Problem p{};
  p.n = g.n;
  p.groups = g.groups;
  p.cx = g.transposed ? g.cout : g.cin;
  p.cy = g.transposed ? g.cin : g.cout;
  const int lead = 3 - g.spatial;
  for (int d = 0; d < 3; ++d) {
    p.x[d] = p.y[d] = p.k[d] = p.stride[d] = p.dilation[d] = 1;
    p.pad[d] = 0;
  }
  for (int d = 0; d < g.spatial; ++d) {
    p.x[lead + d] = g.transposed ? g.out(d) : g.in[d];
    p.y[lead + d] = g.transposed ? g.in[d] : g.out(d);
    p.k[lead + d] = g.k[d];
    p.stride[lead + d] = g.stride[d];
    p.dilation[lead + d] = g.dilation[d];
    p.pad[lead + d] = g.pad[d];
  }
  return p;
}

int64_t x_at(const Problem& p, int64_t n, int64_t c, const int64_t* s) {
  return (((n * p.cx + c) * p.x[0] + s[0]) * p.x[1] + s[1]) * p.x[2] + s[2];
}
int64_t y_at(const Problem& p, int64_t n, int64_t o, const int64_t* j) {
  return (((n * p.cy + o) * p.y[0] + j[0]) * p.y[1] + j[1]) * p.y[2] + j[2];
}
int64_t w_at(const Problem& p, int64_t o, int64_t i, const int64_t* t) {
  return (((o * (p.cx / p.groups) + i) * p.k[0] + t[0]) * p.k[1] + t[1]) * p.k[2] + t[2];
}

// Calls f(t) for every kernel position t (3 dims).
template <typename F>
void for_each_tap(const Problem& p, F f) {
  int64_t t[3];
  for (t[0] = 0; t[0] < p.k[0]; ++t[0]) {
    for (t[1] = 0; t[1] < p.k[1]; ++t[1]) {
      for (t[2] = 0; t[2] < p.k[2]; ++t[2]) {
        f(t);
      }
    }
  }
}

// Calls f(i) for every index of a 3-dim box.
template <typename F>
void for_each_index(const int64_t* dims, F f) {
  int64_t i[3];
  for (i[0] = 0; i[0] < dims[0]; ++i[0]) {
    for (i[1] = 0; i[1] < dims[1]; ++i[1]) {
      for (i[2] = 0; i[2] < dims[2]; ++i[2]) {
        f(i);
      }
    }
  }
}

// Sums for one result: value and magnitude.
struct Sum {
  double value = 0;
  double magnitude = 0;
  int64_t terms = 0;
  void add(double a, double b) {
    value += a * b;
    magnitude += std::fabs(a * b);
    ++terms;
  }
};

// y[n, o, j] = sum over i, t of x[n, g cig + i, j stride - pad + t dilation] w[o, i, t].
Expected forward(const Problem& p, const std::vector<double>& x, const std::vector<double>& w,
                 int64_t* terms) {
  Expected e;
  const int64_t cig = p.cx / p.groups;
  const int64_t cog = p.cy / p.groups;
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t o = 0; o < p.cy; ++o) {
      for_each_index(p.y, [&](const int64_t* j) {
        Sum sum;
        for (int64_t i = 0; i < cig; ++i) {
          for_each_tap(p, [&](const int64_t* t) {
            int64_t s[3];
            for (int d = 0; d < 3; ++d) {
              s[d] = j[d] * p.stride[d] - p.pad[d] + t[d] * p.dilation[d];
              if (s[d] < 0 || s[d] >= p.x[d]) {
                return;
              }
            }
            sum.add(x[static_cast<size_t>(x_at(p, n, o / cog * cig + i, s))],
                    w[static_cast<size_t>(w_at(p, o, i, t))]);
          });
        }
        e.value.push_back(sum.value);
        e.magnitude.push_back(sum.magnitude);
        *terms = std::max(*terms, sum.terms);
      });
    }
  }
  return e;
}

// dx[n, c, s] = sum over the o of c's group and t with s + pad - t dilation = j stride,
// 0 <= j < y, of dy[n, o, j] w[o, c - g cig, t].
Expected data_gradient(const Problem& p, const std::vector<double>& dy,
                       const std::vector<double>& w, int64_t* terms) {
  Expected e;
  const int64_t cig = p.cx / p.groups;
  const int64_t cog = p.cy / p.groups;
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t c = 0; c < p.cx; ++c) {
      const int64_t g = c / cig;
      for_each_index(p.x, [&](const int64_t* s) {
        Sum sum;
        for (int64_t o = g * cog; o < (g + 1) * cog; ++o) {
          for_each_tap(p, [&](const int64_t* t) {
            int64_t j[3];
            for (int d = 0; d < 3; ++d) {
              const int64_t at = s[d] + p.pad[d] - t[d] * p.dilation[d];
              if (at < 0 || at % p.stride[d] != 0 || at / p.stride[d] >= p.y[d]) {
                return;
              }
              j[d] = at / p.stride[d];
            }
            sum.add(dy[static_cast<size_t>(y_at(p, n, o, j))],
                    w[static_cast<size_t>(w_at(p, o, c - g * cig, t))]);
          });
        }
        e.value.push_back(sum.value);
        e.magnitude.push_back(sum.magnitude);
        *terms = std::max(*terms, sum.terms);
      });
    }
  }
  return e;
}

// dw[o, i, t] = sum over n, j of x[n, g cig + i, j stride - pad + t dilation] dy[n, o, j].
Expected weight_gradient(const Problem& p, const std::vector<double>& x,
                         const std::vector<double>& dy, int64_t* terms) {
  Expected e;
  const int64_t cig = p.cx / p.groups;
  const int64_t cog = p.cy / p.groups;
  for (int64_t o = 0; o < p.cy; ++o) {
    for (int64_t i = 0; i < cig; ++i) {
      for_each_tap(p, [&](const int64_t* t) {
        Sum sum;
        for (int64_t n = 0; n < p.n; ++n) {
          for_each_index(p.y, [&](const int64_t* j) {
            int64_t s[3];
            for (int d = 0; d < 3; ++d) {
              s[d] = j[d] * p.stride[d] - p.pad[d] + t[d] * p.dilation[d];
              if (s[d] < 0 || s[d] >= p.x[d]) {
                return;
              }
            }
            sum.add(x[static_cast<size_t>(x_at(p, n, o / cog * cig + i, s))],
                    dy[static_cast<size_t>(y_at(p, n, o, j))]);
          });
        }
        e.value.push_back(sum.value);
        e.magnitude.push_back(sum.magnitude);
        *terms = std::max(*terms, sum.terms);
      });
    }
  }
  return e;
}

// Adds bias[c] to each element of channel c (channels dim 1, `inner` elements per channel).
void add_channel(Expected* e, const std::vector<double>& bias, int64_t inner) {
  const auto channels = static_cast<int64_t>(bias.size());
  for (size_t i = 0; i < e->value.size(); ++i) {
    const double b = bias[static_cast<size_t>(static_cast<int64_t>(i) / inner % channels)];
    e->value[i] += b;
    e->magnitude[i] += std::fabs(b);
  }
}

// How the operator rounds an operand of dtype under cubeMathType (SPEC section 12).
std::vector<double> operand(const oa_test::TestTensor& t, int64_t cube) {
  const aclDataType dtype = t.spec().dtype;
  std::vector<double> v = t.read();
  for (double& x : v) {
    const auto f = static_cast<float>(x);
    if (cube == 2 && dtype != ACL_FLOAT16) {
      x = oa::round_fp16(f);
    } else if ((cube == 1 || cube == 3) && dtype == ACL_FLOAT) {
      x = oa::round_hf32(f);
    }
  }
  return v;
}

oa::ArgSpec tensor_arg(const Shape& shape, aclDataType dtype, aclFormat format) {
  return oa::build::tensor(shape, dtype, format);
}

aclFormat format_of(int spatial) {
  return spatial == 1 ? ACL_FORMAT_NCL : spatial == 2 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
}

std::vector<int64_t> ints_of(const int64_t* v, int n) { return std::vector<int64_t>(v, v + n); }

}  // namespace

int64_t Geometry::out(int d) const {
  const int64_t span = dilation[d] * (k[d] - 1);
  return transposed ? (in[d] - 1) * stride[d] - 2 * pad[d] + span + output_padding[d] + 1
                    : (in[d] + 2 * pad[d] - span - 1) / stride[d] + 1;
}

Shape Geometry::input_shape() const {
  Shape s = {n, cin};
  s.insert(s.end(), in, in + spatial);
  return s;
}

Shape Geometry::weight_shape() const {
  Shape s = transposed ? Shape{cin, cout / groups} : Shape{cout, cin / groups};
  s.insert(s.end(), k, k + spatial);
  return s;
}

Shape Geometry::output_shape() const {
  Shape s = {n, cout};
  for (int d = 0; d < spatial; ++d) {
    s.push_back(out(d));
  }
  return s;
}

std::string Geometry::describe() const {
  std::string text = std::to_string(spatial) + "-D" + (transposed ? " transposed" : "") +
                     " input " + oa::shape_string(input_shape()) + " weight " +
                     oa::shape_string(weight_shape()) + " groups " + std::to_string(groups);
  text += " stride " + oa::shape_string(ints_of(stride, spatial)) + " pad " +
          oa::shape_string(ints_of(pad, spatial)) + " dilation " +
          oa::shape_string(ints_of(dilation, spatial));
  if (transposed) {
    text += " outputPadding " + oa::shape_string(ints_of(output_padding, spatial));
  }
  return text;
}

Geometry random_geometry(std::mt19937_64* rng) {
  for (;;) {
    Geometry g;
    g.spatial = static_cast<int>(uniform(rng, 1, 3));
    g.transposed = uniform(rng, 0, 2) == 0;
    g.n = uniform(rng, 0, 9) == 0 ? 0 : uniform(rng, 1, 2);
    const int64_t kind = uniform(rng, 0, 2);  // groups 1, 2, depthwise
    if (kind == 2) {
      g.groups = uniform(rng, 2, 4);
      g.cin = g.groups;
      g.cout = g.groups * uniform(rng, 1, 2);
    } else {
      g.groups = kind + 1;
      g.cin = g.groups * uniform(rng, 1, 3);
      g.cout = g.groups * uniform(rng, 1, 3);
    }
    const int64_t largest = g.spatial == 3 ? 4 : g.spatial == 2 ? 6 : 9;
    bool ok = true;
    for (int d = 0; d < g.spatial; ++d) {
      g.k[d] = uniform(rng, 1, 3);
      g.stride[d] = uniform(rng, 1, 3);
      g.pad[d] = uniform(rng, 0, 3);
      g.dilation[d] = uniform(rng, 1, 3);
      g.in[d] = uniform(rng, 1, largest);
      if (g.transposed) {
        g.output_padding[d] = uniform(rng, 0, std::max(g.stride[d], g.dilation[d]) - 1);
      }
      ok = ok && g.out(d) >= 1 &&
           (g.transposed || g.in[d] + 2 * g.pad[d] >= g.dilation[d] * (g.k[d] - 1) + 1);
    }
    if (ok) {
      return g;
    }
  }
}

oa::CallSpec forward_spec(const Geometry& g, const Dtypes& t, int64_t cube_math_type) {
  using namespace oa::build;
  const oa::OpDef& def = *oa::find_definition("Convolution");
  const aclFormat format = format_of(g.spatial);
  return sample(def, {{"input", tensor_arg(g.input_shape(), t.input, format)},
                      {"weight", tensor_arg(g.weight_shape(), t.weight, format)},
                      {"bias", t.bias == ACL_DT_UNDEFINED ? null() : tensor({g.cout}, t.bias)},
                      {"stride", ints(ints_of(g.stride, g.spatial))},
                      {"padding", ints(ints_of(g.pad, g.spatial))},
                      {"dilation", ints(ints_of(g.dilation, g.spatial))},
                      {"transposed", flag(g.transposed)},
                      {"outputPadding", ints(ints_of(g.output_padding, g.spatial))},
                      {"groups", integer(g.groups)},
                      {"output", tensor_arg(g.output_shape(), t.output, format)},
                      {"cubeMathType", integer(cube_math_type)}});
}

oa::CallSpec backward_spec(const Geometry& g, const Dtypes& t, const std::vector<bool>& mask,
                           int64_t cube_math_type, bool null_unasked) {
  using namespace oa::build;
  const oa::OpDef& def = *oa::find_definition("ConvolutionBackward");
  const aclFormat format = format_of(g.spatial);
  auto out = [&](bool asked, const Shape& shape, aclDataType dtype, aclFormat f) {
    return !asked && null_unasked ? null() : tensor_arg(shape, dtype, f);
  };
  return sample(def,
                {{"gradOutput", tensor_arg(g.output_shape(), t.output, format)},
                 {"input", tensor_arg(g.input_shape(), t.input, format)},
                 {"weight", tensor_arg(g.weight_shape(), t.weight, format)},
                 {"biasSizes", ints({g.cout})},
                 {"stride", ints(ints_of(g.stride, g.spatial))},
                 {"padding", ints(ints_of(g.pad, g.spatial))},
                 {"dilation", ints(ints_of(g.dilation, g.spatial))},
                 {"transposed", flag(g.transposed)},
                 {"outputPadding",
                  ints(g.transposed ? ints_of(g.output_padding, g.spatial)
                                    : std::vector<int64_t>(static_cast<size_t>(g.spatial), 0))},
                 {"groups", integer(g.groups)},
                 {"outputMask", bools(mask)},
                 {"cubeMathType", integer(cube_math_type)},
                 {"gradInput", out(mask[0], g.input_shape(), t.input, format)},
                 {"gradWeight", out(mask[1], g.weight_shape(), t.weight, format)},
                 {"gradBias", out(mask[2], {g.cout}, t.bias, ACL_FORMAT_ND)}});
}

void randomize_layouts(const oa::OpDef& def, oa::CallSpec* spec, std::mt19937_64* rng) {
  for (size_t i = 0; i < def.params.size(); ++i) {
    oa::ArgSpec& a = spec->args[i];
    if (oa::is_tensor(def.params[i].kind) && !a.null) {
      a.tensor = oa_test::random_layout(a.tensor, *rng, def.params[i].kind == oa::ParamKind::input);
    }
  }
}

// Reconstructs the geometry of a call from its spec.
Geometry geometry_of(const oa::OpDef& def, const oa::CallSpec& spec) {
  auto arg = [&](const char* name) -> const oa::ArgSpec& {
    return spec.args[static_cast<size_t>(def.param_index(name))];
  };
  const bool backward = def.name == "ConvolutionBackward";
  Geometry g;
  const Shape& xs = arg("input").tensor.shape;
  const Shape& ws = arg("weight").tensor.shape;
  g.spatial = static_cast<int>(xs.size()) - 2;
  g.n = xs[0];
  g.cin = xs[1];
  g.groups = arg("groups").integer;
  g.transposed = arg("transposed").integer != 0;
  g.cout = g.transposed ? ws[1] * g.groups : ws[0];
  for (int d = 0; d < g.spatial; ++d) {
    const auto i = static_cast<size_t>(d);
    g.in[d] = xs[i + 2];
    g.k[d] = ws[i + 2];
    g.stride[d] = arg("stride").ints[i];
    g.pad[d] = arg("padding").ints[i];
    g.dilation[d] = arg("dilation").ints[i];
    if (g.transposed || backward) {
      g.output_padding[d] = arg("outputPadding").ints[i];
    }
  }
  return g;
}

Reference reference(const oa::OpDef& def, const oa::CallSpec& spec, const oa_test::TestCall& call) {
  const Geometry g = geometry_of(def, spec);
  const Problem p = problem_of(g);
  const int64_t cube = spec.args[static_cast<size_t>(def.param_index("cubeMathType"))].integer;
  Reference r;
  r.outputs.resize(def.params.size());
  const int64_t spatial_y = p.y[0] * p.y[1] * p.y[2];
  const int64_t spatial_x = p.x[0] * p.x[1] * p.x[2];
  if (def.name == "Convolution") {
    const std::vector<double> x = operand(*call.tensor("input"), cube);
    const std::vector<double> w = operand(*call.tensor("weight"), cube);
    Expected e = g.transposed ? data_gradient(p, x, w, &r.terms) : forward(p, x, w, &r.terms);
    if (call.tensor("bias") != nullptr) {
      const oa_test::TestTensor& b = *call.tensor("bias");
      const bool fp16 = (call.tensor("input")->spec().dtype == ACL_FLOAT16 &&
                         call.tensor("weight")->spec().dtype == ACL_FLOAT16) ||
                        cube == 2;
      std::vector<double> bias = b.read();
      for (double& v : bias) {
        v = fp16 ? oa::round_fp16(static_cast<float>(v)) : v;
      }
      add_channel(&e, bias, g.transposed ? spatial_x : spatial_y);
    }
    r.outputs[static_cast<size_t>(def.param_index("output"))] = e;
    return r;
  }
  const std::vector<double> go = operand(*call.tensor("gradOutput"), cube);
  const std::vector<double> x = operand(*call.tensor("input"), cube);
  const std::vector<double> w = operand(*call.tensor("weight"), cube);
  const std::vector<bool>& mask =
      spec.args[static_cast<size_t>(def.param_index("outputMask"))].bools;
  if (mask[0]) {
    r.outputs[static_cast<size_t>(def.param_index("gradInput"))] =
        g.transposed ? forward(p, go, w, &r.terms) : data_gradient(p, go, w, &r.terms);
  }
  if (mask[1]) {
    r.outputs[static_cast<size_t>(def.param_index("gradWeight"))] =
        g.transposed ? weight_gradient(p, go, x, &r.terms) : weight_gradient(p, x, go, &r.terms);
  }
  if (mask[2]) {
    const std::vector<double> raw = call.tensor("gradOutput")->read();
    Expected e;
    const int64_t inner = g.transposed ? spatial_x : spatial_y;
    e.value.assign(static_cast<size_t>(g.cout), 0.0);
    e.magnitude.assign(static_cast<size_t>(g.cout), 0.0);
    for (size_t i = 0; i < raw.size(); ++i) {
      const auto c = static_cast<size_t>(static_cast<int64_t>(i) / inner % g.cout);
      e.value[c] += raw[i];
      e.magnitude[c] += std::fabs(raw[i]);
    }
    r.terms = std::max(r.terms, static_cast<int64_t>(raw.size()));
    r.outputs[static_cast<size_t>(def.param_index("gradBias"))] = e;
  }
  return r;
}

void expect_matches(const oa::OpDef& def, const oa::CallSpec& spec, const oa_test::TestCall& call,
                    bool exact, const std::string& what) {
  const Reference r = reference(def, spec, call);
  const std::vector<bool>* mask =
      def.param_index("outputMask") >= 0
          ? &spec.args[static_cast<size_t>(def.param_index("outputMask"))].bools
          : nullptr;
  int output = 0;
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (def.params[i].kind != oa::ParamKind::output) {
      continue;
    }
    const bool asked = mask == nullptr || (*mask)[static_cast<size_t>(output++)];
    const oa_test::TestTensor* t = call.tensor(static_cast<int>(i));
    if (t == nullptr) {
      continue;
    }
    EXPECT_TRUE(t->only_view_written()) << what << ": " << def.params[i].name;
    if (!asked) {
      continue;
    }
    const aclDataType dtype = t->spec().dtype;
    const double unit = dtype == ACL_FLOAT ? 0x1p-24 : dtype == ACL_FLOAT16 ? 0x1p-11 : 0x1p-8;
    const double tiny = dtype == ACL_FLOAT16 ? 0x1p-24 : 0x1p-120;
    const std::vector<double> got = t->read();
    const Expected& e = r.outputs[i];
    ASSERT_EQ(got.size(), e.value.size()) << what << ": " << def.params[i].name;
    int failures = 0;
    for (size_t k = 0; k < got.size(); ++k) {
      const double accumulated = static_cast<double>(r.terms + 4) * 0x1p-24 * e.magnitude[k];
      const double bound =
          exact ? 0.0 : accumulated + 2 * unit * (std::fabs(e.value[k]) + accumulated) + tiny;
      const double want = exact ? oa_test::round_to(dtype, e.value[k]) : e.value[k];
      if (!(std::fabs(got[k] - want) <= bound) && ++failures <= 5) {
        ADD_FAILURE() << what << ": " << def.params[i].name << " element " << k << ": got "
                      << got[k] << ", expected " << want << " (bound " << bound << ")";
      }
    }
  }
}

void run_onednn_case(const oa::OpDef& def, const oa::CallSpec& spec, std::mt19937_64* rng,
                     const std::string& what, std::string* log) {
  const oa_test::ScopedEnv forced("OPENACLNN_IMPL", std::string("onednn"));
  std::optional<oa_test::ScopedEnv> level;
  if (log != nullptr) {
    level.emplace("ASCEND_GLOBAL_LOG_LEVEL", std::string("0"));
  }
  for (bool integers : {false, true}) {
    oa_test::TestCall call(def, spec);
    call.fill_inputs([&](aclDataType dtype) {
      return integers ? oa_test::random_integer(*rng, dtype)
                      : oa_test::random_value(*rng, dtype, false);
    });
    if (log != nullptr) {
      ::testing::internal::CaptureStderr();
    }
    const aclnnStatus status = call.run();
    if (log != nullptr) {
      *log += ::testing::internal::GetCapturedStderr();
    }
    ASSERT_EQ(status, ACLNN_SUCCESS) << what << ": " << aclGetRecentErrMsg();
    ASSERT_EQ(oa::last_chosen_impl(), "onednn") << what;
    expect_matches(def, spec, call, integers, what + (integers ? " (integers)" : ""));
  }
}

bool onednn_native_bf16() {
  return (dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core_bf16) ==
         dnnl_cpu_isa_avx512_core_bf16;
}

}  // namespace conv_test
