#include "core/op/bind.h"

namespace oa {

CallArgs::CallArgs(const OpDef& def, const CallSpec& spec,
                   const std::vector<const aclTensor*>& tensors) {
  for (size_t i = 0; i < def.params.size(); ++i) {
    const ArgSpec& value = spec.args[i];
    switch (def.params[i].kind) {
      case ParamKind::input:
      case ParamKind::output:
        args_.emplace_back(value.null ? nullptr : tensors[i]);
        break;
      case ParamKind::integer:
      case ParamKind::flag:
        args_.emplace_back(value.integer);
        break;
      case ParamKind::real:
        args_.emplace_back(value.real);
        break;
      case ParamKind::int_array:
        if (value.null) {
          args_.emplace_back(static_cast<const aclIntArray*>(nullptr));
          break;
        }
        ints_.emplace_back(aclCreateIntArray(value.ints.data(), value.ints.size()),
                           aclDestroyIntArray);
        args_.emplace_back(static_cast<const aclIntArray*>(ints_.back().get()));
        break;
      case ParamKind::bool_array: {
        if (value.null) {
          args_.emplace_back(static_cast<const void*>(nullptr));
          break;
        }
        std::unique_ptr<bool[]> flags(new bool[value.bools.size() + 1]);
        for (size_t k = 0; k < value.bools.size(); ++k) {
          flags[k] = value.bools[k];
        }
        bools_.emplace_back(aclCreateBoolArray(flags.get(), value.bools.size()),
                            aclDestroyBoolArray);
        args_.emplace_back(static_cast<const void*>(bools_.back().get()));
        break;
      }
    }
  }
}

}  // namespace oa
