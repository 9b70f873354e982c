// A call of an operator built from its definition and a CallSpec: real tensors (support/tensor.h)
// and arrays for the parameters, both phases through the definition (what the C entry points do),
// a workspace of the size phase 1 asks for, filled with a chosen byte.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/op/bind.h"
#include "core/op/definition.h"
#include "support/tensor.h"

namespace oa_test {

class TestCall {
 public:
  TestCall(const oa::OpDef& def, const oa::CallSpec& spec);
  ~TestCall();
  TestCall(const TestCall&) = delete;
  TestCall& operator=(const TestCall&) = delete;

  // The tensor of parameter i (null for a non-tensor or a null one).
  TestTensor* tensor(int i) const { return tensors_[static_cast<size_t>(i)].get(); }
  TestTensor* tensor(const std::string& name) const { return tensor(def_.param_index(name)); }

  // Fills every input tensor with values: def.input_values where it gives them, else from
  // `random` (one draw per element).
  template <typename Random>
  void fill_inputs(Random&& random) {
    for (size_t i = 0; i < def_.params.size(); ++i) {
      TestTensor* t = tensors_[i].get();
      if (t == nullptr || def_.params[i].kind != oa::ParamKind::input) {
        continue;
      }
      std::vector<double> values;
      if (def_.input_values) {
        def_.input_values(spec_, static_cast<int>(i), &values);
      }
      if (values.empty()) {
        for (int64_t k = 0; k < t->numel(); ++k) {
          values.push_back(random(t->spec().dtype));
        }
      }
      t->write(values);
    }
  }

  // Phase 1 alone; on success *executor must be run or destroyed by the caller.
  aclnnStatus plan(uint64_t* workspace_size, aclOpExecutor** executor) const;
  // Both phases with a workspace filled with `workspace_fill`; the first failing status.
  aclnnStatus run(unsigned char workspace_fill = 0xA5) const;
  // Phase 2 of a planned executor, with a fresh workspace of workspace_size bytes filled with
  // `workspace_fill`.
  aclnnStatus launch(uint64_t workspace_size, aclOpExecutor* executor,
                     unsigned char workspace_fill = 0xA5) const;

  // Every output's bits, in parameter order, then every tensor (inputs too) untouched outside its
  // view.
  std::vector<std::vector<uint64_t>> output_bits() const;
  std::vector<std::vector<double>> output_values() const;
  bool only_views_written() const;

 private:
  const oa::OpDef& def_;
  oa::CallSpec spec_;
  std::vector<std::unique_ptr<TestTensor>> tensors_;
  std::unique_ptr<oa::CallArgs> args_;
};

// The names of every registered definition (the parameters of the tests over all of them).
std::vector<std::string> definition_names();

// Phase 1 of a call of def alone (the executor, when one is made, destroyed): its status, the
// message in aclGetRecentErrMsg().
aclnnStatus plan_status(const oa::OpDef& def, const oa::CallSpec& spec);

// A random value of the kind a test draws for dtype: normals (scale 2) with a few infinities,
// NaNs and signed zeros for the float types, small integers for the integer types.
double random_value(std::mt19937_64& rng, aclDataType dtype, bool specials);

// A small integer in [-3, 3] (0/1 for BOOL): data on which sums of products are exact.
double random_integer(std::mt19937_64& rng, aclDataType dtype);

}  // namespace oa_test
