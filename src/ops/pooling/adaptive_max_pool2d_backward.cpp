// aclnnAdaptiveMaxPool2dBackward (SPEC section 7): scatters gradOutput into gradInput at the
// forward's argmax indices, accumulating in float32 in row-major output order. Every index is
// checked before anything is written, so an out-of-range index leaves gradInput untouched.
#include "aclnnop/aclnn_adaptive_max_pool2d_backward.h"

#include "core/op/build.h"
#include "core/op/rules.h"
#include "ops/pooling/impls.h"
#include "ops/pooling/pool_spec.h"
#include "ops/pooling/pool_views.h"
#include "runtime/error.h"

namespace oa::pooling {
namespace {

const DtypeSet kIndexDtypes{ACL_INT32, ACL_INT64};

// self's dtype is checked after gradOutput's and gradInput's equal it, so it fails alone only when
// all three change.
Check self_dtype() {
  Check check = rules::dtype_in({"self"}, kFloatDtypes);
  check.violations = {{"gradOutput, self and gradInput DOUBLE",
                       [](const OpDef& def, CallSpec* spec) {
                         for (const char* name : {"gradOutput", "self", "gradInput"}) {
                           arg_of(def, spec, name).tensor.dtype = ACL_DOUBLE;
                         }
                         return true;
                       },
                       ACLNN_ERR_PARAM_INVALID,
                       {"self dtype must be one of {FLOAT, FLOAT16, BF16}", "got DOUBLE"}}};
  return check;
}

// A violation giving gradOutput and indices another first dim, on the samples of rank `rank` (any
// with 0).
Violation other_first_dim(std::string what, size_t rank, std::vector<std::string> message) {
  return {std::move(what),
          [rank](const OpDef& def, CallSpec* spec) {
            if (rank != 0 && arg_of(def, *spec, "gradOutput").tensor.shape.size() != rank) {
              return false;
            }
            for (const char* name : {"gradOutput", "indices"}) {
              TensorSpec& t = arg_of(def, spec, name).tensor;
              t.shape[0] += 1;
              t.strides.clear();
            }
            return true;
          },
          ACLNN_ERR_PARAM_INVALID, std::move(message)};
}

// CANN leaves the last leading dim unchecked and computes garbage; we reject.
Check leading_dims() {
  return rules::custom(
      "gradOutput's leading dims (N, C / C) equal self's",
      [](const Call& call) {
        const Shape& g = call.tensor("gradOutput")->shape;
        const Shape& s = call.tensor("self")->shape;
        const Shape g_lead(g.begin(), g.end() - 2);
        const Shape s_lead(s.begin(), s.end() - 2);
        if (g_lead != s_lead) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: gradOutput leading dims %s must equal self's leading dims %s (%s), got "
                       "gradOutput shape %s and self shape %s",
                       call.op(), shape_string(g_lead).c_str(), shape_string(s_lead).c_str(),
                       s.size() == 4 ? "N, C" : "C", shape_string(g).c_str(),
                       shape_string(s).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {other_first_dim("gradOutput and indices with another first dim", 0,
                       {"gradOutput leading dims", "must equal self's leading dims"}),
       other_first_dim("3-D gradOutput and indices with another C", 3,
                       {"gradOutput leading dims [", "must equal self's leading dims [", "(C)"})});
}

// An index must be able to name every position of the plane.
Check plane_fits_int32() {
  return rules::custom(
      "self H*W <= 2^31 - 1",
      [](const Call& call) {
        const Shape& s = call.tensor("self")->shape;
        const int64_t h = s[s.size() - 2];
        const int64_t w = s[s.size() - 1];
        int64_t positions = 0;
        if (__builtin_mul_overflow(h, w, &positions) || positions > INT32_MAX) {
          return failf(ACLNN_ERR_PARAM_INVALID,
                       "%s: self H*W must be <= 2147483647 (an index must be able to name every "
                       "position), got %lld*%lld (shape %s)",
                       call.op(), static_cast<long long>(h), static_cast<long long>(w),
                       shape_string(s).c_str());
        }
        return ACLNN_SUCCESS;
      },
      {{"self and gradInput planes of 65536x32768",
        [](const OpDef& def, CallSpec* spec) {
          for (const char* name : {"self", "gradInput"}) {
            TensorSpec& t = arg_of(def, spec, name).tensor;
            t.shape[t.shape.size() - 2] = 65536;
            t.shape[t.shape.size() - 1] = 32768;
            t.strides.assign(t.shape.size(), 0);  // one element of memory each
          }
          return true;
        },
        ACLNN_ERR_PARAM_INVALID,
        {"self H*W must be <= 2147483647", "got 65536*32768"}}});
}

// gradInput: self's shape, dtype and format.
bool infer(const OpDef& def, CallSpec* spec) {
  const ArgSpec& self = arg_of(def, *spec, "self");
  if (self.null) {
    return false;
  }
  arg_of(def, spec, "gradInput") =
      build::tensor(self.tensor.shape, self.tensor.dtype, self.tensor.format);
  return true;
}

// Indices the samples' indices hold, row-major over their view: INT64 ones each in its own window
// (as the forward gives them), INT32 ones the same except every third, which lies anywhere in the
// plane (SPEC section 7 allows it; several outputs then add into one position).
void index_values(const OpDef& def, const CallSpec& spec, int param, std::vector<double>* values) {
  if (param != def.param_index("indices")) {
    return;
  }
  const TensorSpec& indices = spec.args[static_cast<size_t>(param)].tensor;
  const Shape& s = arg_of(def, spec, "self").tensor.shape;
  const int64_t h = s[s.size() - 2];
  const int64_t w = s[s.size() - 1];
  const int64_t ho = indices.shape[indices.shape.size() - 2];
  const int64_t wo = indices.shape[indices.shape.size() - 1];
  if (h * w == 0) {
    return;  // no position to name, and none is read
  }
  for (int64_t k = 0; k < numel(indices.shape); ++k) {
    const uint64_t hash = static_cast<uint64_t>(k + 1) * 0x9E3779B97F4A7C15u >> 32;
    if (indices.dtype == ACL_INT32 && k % 3 == 2) {
      values->push_back(static_cast<double>(hash % static_cast<uint64_t>(h * w)));
      continue;
    }
    const int64_t i = k / wo % ho;
    const int64_t j = k % wo;
    const int64_t h0 = window_begin(i, h, ho);
    const int64_t w0 = window_begin(j, w, wo);
    const auto rows = static_cast<uint64_t>(window_end(i, h, ho) - h0);
    const auto cols = static_cast<uint64_t>(window_end(j, w, wo) - w0);
    values->push_back(static_cast<double>((h0 + static_cast<int64_t>(hash % rows)) * w + w0 +
                                          static_cast<int64_t>(hash / rows % cols)));
  }
}

// A sample whose tensors are all channels-last in memory.
CallSpec channels_last_sample(const OpDef& def, CallSpec spec) {
  for (const char* name : {"gradOutput", "self", "indices", "gradInput"}) {
    make_channels_last(&arg_of(def, &spec, name).tensor);
  }
  return spec;
}

const OpDef& definition() {
  static const OpDef def = [] {
    using namespace build;
    OpDef d("AdaptiveMaxPool2dBackward", "aclnnop/aclnn_adaptive_max_pool2d_backward.h",
            "gradient of adaptive 2-D max pooling: gradOutput added at the forward's indices");
    d.params = {
        input("gradOutput", kFloatDtypes, "[N, C, Ho, Wo] or [C, Ho, Wo], self's dtype"),
        input("self", kFloatDtypes, "the forward's input [N, C, H, W] or [C, H, W] (shape only)"),
        input("indices", kIndexDtypes, "gradOutput's shape, each in [0, H*W)"),
        output("gradInput", kFloatDtypes, "self's shape and dtype")};
    const rules::Names tensors = {"gradOutput", "self", "indices", "gradInput"};
    d.checks = {
        rules::not_null(
            {"gradOutput", "self", "indices", "gradInput", "workspaceSize", "executor"}),
        rules::same_dtype({"gradOutput", "gradInput"}, "self"),
        self_dtype(),
        rules::dtype_in({"indices"}, kIndexDtypes),
        rules::same_public_format(tensors),
        rules::rank_in({"gradOutput"}, 3, 4),
        rules::same_rank(tensors),
        rules::same_shape({"indices"}, "gradOutput"),
        rules::same_shape({"gradInput"}, "self"),
        leading_dims(),
        plane_fits_int32(),
        rules::in_device_memory(tensors),
        // self's data is never read, so gradInput may share its memory.
        rules::disjoint_output("gradInput", {"gradOutput", "indices"}, false),
    };
    d.infer = infer;
    d.input_values = [](const CallSpec& spec, int param, std::vector<double>* values) {
      index_values(definition(), spec, param, values);
    };
    d.impls = {backward_simd(), backward_reference()};
    auto call = [&d](Shape grad, Shape self, aclDataType dtype, aclDataType index_dtype) {
      return sample(d, {{"gradOutput", tensor(grad, dtype)},
                        {"self", tensor(self, dtype)},
                        {"indices", tensor(grad, index_dtype)}});
    };
    d.samples = {
        // Windows that overlap (7 rows into 3, 9 columns into 4).
        call({2, 3, 3, 4}, {2, 3, 7, 9}, ACL_FLOAT, ACL_INT64),
        call({4, 4, 4}, {4, 8, 8}, ACL_FLOAT16, ACL_INT32),
        // More outputs than inputs: every position takes several.
        call({3, 5, 7}, {3, 4, 4}, ACL_FLOAT, ACL_INT32),
        // Channels-last memory, windows that tile the samples.
        channels_last_sample(d, call({2, 16, 3, 3}, {2, 16, 6, 6}, ACL_BF16, ACL_INT64)),
        // 2x2 windows, each plane written whole.
        call({1, 4, 4, 8}, {1, 4, 8, 16}, ACL_FLOAT, ACL_INT64),
        // Few outputs per plane: sums formed only where the indices point.
        call({1, 2, 2, 1}, {1, 2, 16, 16}, ACL_BF16, ACL_INT64),
        call({1, 2, 1, 1}, {1, 2, 16, 16}, ACL_FLOAT, ACL_INT32),
        // No outputs: gradInput is zeroed; no input elements: nothing happens.
        call({2, 3, 0, 2}, {2, 3, 4, 4}, ACL_FLOAT, ACL_INT64),
        call({0, 3, 2, 2}, {0, 3, 4, 4}, ACL_BF16, ACL_INT32),
    };
    return d;
  }();
  return def;
}

const OpRegistration kRegistration(definition);

}  // namespace
}  // namespace oa::pooling

extern "C" aclnnStatus aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return oa::plan_op(oa::pooling::definition(), {gradOutput, self, indices, gradInput},
                     workspaceSize, executor);
}

extern "C" aclnnStatus aclnnAdaptiveMaxPool2dBackward(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream) {
  return oa::launch_op(oa::pooling::definition(), workspace, workspaceSize, executor, stream);
}
