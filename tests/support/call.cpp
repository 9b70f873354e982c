#include "support/call.h"

#include <cmath>
#include <limits>

namespace oa_test {

TestCall::TestCall(const oa::OpDef& def, const oa::CallSpec& spec)
    : def_(def), spec_(spec), tensors_(def.params.size()) {
  // Tensors first, then the ones that alias another's storage.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < def.params.size(); ++i) {
      const oa::ArgSpec& arg = spec.args[i];
      if (!oa::is_tensor(def.params[i].kind) || arg.null || (arg.alias_of >= 0) != (pass == 1)) {
        continue;
      }
      if (arg.alias_of >= 0) {
        tensors_[i] = std::make_unique<TestTensor>(arg.tensor, tensors_[arg.alias_of].get());
      } else {
        tensors_[i] =
            std::make_unique<TestTensor>(arg.tensor, arg.on_host ? Memory::host : Memory::device);
      }
    }
  }
  std::vector<const aclTensor*> tensors(def.params.size(), nullptr);
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (tensors_[i]) {
      tensors[i] = tensors_[i]->get();
    }
  }
  args_ = std::make_unique<oa::CallArgs>(def, spec, tensors);
}

TestCall::~TestCall() = default;

aclnnStatus TestCall::plan(uint64_t* workspace_size, aclOpExecutor** executor) const {
  return oa::plan_op(def_, args_->args(), spec_.null_workspace_size ? nullptr : workspace_size,
                     spec_.null_executor ? nullptr : executor);
}

aclnnStatus TestCall::run(unsigned char workspace_fill) const {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus planned = plan(&workspace_size, &executor);
  if (planned != ACLNN_SUCCESS) {
    return planned;
  }
  const aclnnStatus launched = launch(workspace_size, executor, workspace_fill);
  if (launched != ACLNN_SUCCESS) {
    return launched;
  }
  return aclrtSynchronizeStream(nullptr);
}

aclnnStatus TestCall::launch(uint64_t workspace_size, aclOpExecutor* executor,
                             unsigned char workspace_fill) const {
  std::unique_ptr<DeviceBuffer> workspace;
  if (workspace_size > 0) {
    workspace = std::make_unique<DeviceBuffer>(workspace_size);
    workspace->write(std::vector<unsigned char>(workspace_size, workspace_fill));
  }
  return oa::launch_op(def_, workspace ? workspace->get() : nullptr, workspace_size, executor,
                       nullptr);
}

std::vector<std::vector<uint64_t>> TestCall::output_bits() const {
  std::vector<std::vector<uint64_t>> bits;
  for (size_t i = 0; i < def_.params.size(); ++i) {
    if (def_.params[i].kind == oa::ParamKind::output && tensors_[i] && !tensors_[i]->freed()) {
      bits.push_back(tensors_[i]->read_bits());
    }
  }
  return bits;
}

std::vector<std::vector<double>> TestCall::output_values() const {
  std::vector<std::vector<double>> values;
  for (size_t i = 0; i < def_.params.size(); ++i) {
    if (def_.params[i].kind == oa::ParamKind::output && tensors_[i]) {
      values.push_back(tensors_[i]->read());
    }
  }
  return values;
}

bool TestCall::only_views_written() const {
  for (const auto& t : tensors_) {
    if (t && !t->only_view_written()) {
      return false;
    }
  }
  return true;
}

std::vector<std::string> definition_names() {
  std::vector<std::string> names;
  for (const oa::OpDef* def : oa::definitions()) {
    names.push_back(def->name);
  }
  return names;
}

aclnnStatus plan_status(const oa::OpDef& def, const oa::CallSpec& spec) {
  TestCall call(def, spec);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = call.plan(&workspace_size, &executor);
  if (status == ACLNN_SUCCESS) {
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  }
  return status;
}

double random_value(std::mt19937_64& rng, aclDataType dtype, bool specials) {
  switch (dtype) {
    case ACL_FLOAT:
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_DOUBLE:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E4M3FN: {
      if (specials && rng() % 20 == 0) {
        const double inf = std::numeric_limits<double>::infinity();
        const double choices[] = {inf, -inf, std::nan(""), -0.0, 0.0};
        return choices[rng() % 5];
      }
      std::normal_distribution<double> normal(0.0, 2.0);
      return round_to(dtype, normal(rng));
    }
    default:
      return random_integer(rng, dtype);
  }
}

double random_integer(std::mt19937_64& rng, aclDataType dtype) {
  if (dtype == ACL_BOOL) {
    return static_cast<double>(rng() % 2);
  }
  return static_cast<double>(static_cast<int64_t>(rng() % 7) - 3);
}

}  // namespace oa_test
