// aclnnConvolution and aclnnConvolutionBackward against PyTorch's CPU aten::convolution and
// aten::convolution_backward on random geometry (1-D to 3-D, strides, padding, dilation, groups,
// transposed with outputPadding) and non-contiguous views, FLOAT. Agreement bound per element:
// two float32 evaluations of a sum of n terms of magnitude M (the sum of |terms|, from the tests'
// float64 reference) differ by at most 2 (n + 4) 2^-24 M.
#include <ATen/ATen.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "reference/convolution.h"

namespace conv_test {
namespace {

at::Tensor torch_tensor(const oa_test::TestTensor& t) {
  return at::tensor(t.read(), at::kDouble).to(at::kFloat).reshape(t.spec().shape);
}

std::vector<double> values_of(const at::Tensor& t) {
  const at::Tensor d = t.to(at::kDouble).contiguous();
  return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

void expect_agree(const oa_test::TestTensor& ours, const at::Tensor& theirs,
                  const Expected& expected, int64_t terms, const std::string& what) {
  const std::vector<double> values = ours.read();
  const std::vector<double> torch = values_of(theirs);
  ASSERT_EQ(torch.size(), values.size()) << what;
  const double slack = 2.0 * static_cast<double>(terms + 4) * 0x1p-24;
  int failures = 0;
  for (size_t i = 0; i < torch.size(); ++i) {
    if (!(std::fabs(values[i] - torch[i]) <= slack * expected.magnitude[i] + 1e-30) &&
        ++failures <= 5) {
      ADD_FAILURE() << what << ": element " << i << ": ours " << values[i] << ", PyTorch "
                    << torch[i] << ", magnitude " << expected.magnitude[i];
    }
  }
}

std::vector<int64_t> dims(const int64_t* v, int n) { return std::vector<int64_t>(v, v + n); }

TEST(ConvolutionTorch, ForwardAndBackwardMatchPyTorch) {
  const oa::OpDef& forward = *oa::find_definition("Convolution");
  const oa::OpDef& backward = *oa::find_definition("ConvolutionBackward");
  std::mt19937_64 rng(26003);
  for (int i = 0; i < 40; ++i) {
    Geometry g = random_geometry(&rng);
    g.n = std::max<int64_t>(g.n, 1);  // PyTorch's empty-batch backward is not what is tested here
    const std::string what = "case " + std::to_string(i) + ": " + g.describe();
    const Dtypes t{};
    oa::CallSpec spec = forward_spec(g, t, 0);
    randomize_layouts(forward, &spec, &rng);
    oa_test::TestCall call(forward, spec);
    call.fill_inputs([&](aclDataType dtype) { return oa_test::random_value(rng, dtype, false); });
    ASSERT_EQ(call.run(), ACLNN_SUCCESS) << what << ": " << aclGetRecentErrMsg();
    const at::Tensor x = torch_tensor(*call.tensor("input"));
    const at::Tensor w = torch_tensor(*call.tensor("weight"));
    const at::Tensor b = torch_tensor(*call.tensor("bias"));
    const auto stride = dims(g.stride, g.spatial);
    const auto pad = dims(g.pad, g.spatial);
    const auto dilation = dims(g.dilation, g.spatial);
    const auto op = dims(g.output_padding, g.spatial);
    const at::Tensor y =
        at::convolution(x, w, b, stride, pad, dilation, g.transposed, op, g.groups);
    const Reference r = reference(forward, spec, call);
    expect_agree(*call.tensor("output"), y,
                 r.outputs[static_cast<size_t>(forward.param_index("output"))], r.terms,
                 what + " forward");

    oa::CallSpec bspec = backward_spec(g, t, {true, true, true}, 0, false);
    randomize_layouts(backward, &bspec, &rng);
    oa_test::TestCall bcall(backward, bspec);
    bcall.fill_inputs([&](aclDataType dtype) { return oa_test::random_value(rng, dtype, false); });
    ASSERT_EQ(bcall.run(), ACLNN_SUCCESS) << what << ": " << aclGetRecentErrMsg();
    const auto grads = at::convolution_backward(
        torch_tensor(*bcall.tensor("gradOutput")), torch_tensor(*bcall.tensor("input")),
        torch_tensor(*bcall.tensor("weight")), std::vector<int64_t>{g.cout}, stride, pad, dilation,
        g.transposed, op, g.groups, {true, true, true});
    const Reference br = reference(backward, bspec, bcall);
    const char* names[3] = {"gradInput", "gradWeight", "gradBias"};
    const at::Tensor theirs[3] = {std::get<0>(grads), std::get<1>(grads), std::get<2>(grads)};
    for (int k = 0; k < 3; ++k) {
      expect_agree(*bcall.tensor(names[k]), theirs[k],
                   br.outputs[static_cast<size_t>(backward.param_index(names[k]))], br.terms,
                   what + " " + names[k]);
    }
  }
}

}  // namespace
}  // namespace conv_test
