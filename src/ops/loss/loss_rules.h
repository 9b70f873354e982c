// The rules the losses share.
#pragma once

#include <string>

#include "core/op/rules.h"

namespace oa::loss {

// A loss's result: the broadcast of `inputs` for reduction none; for mean and sum a 0-d tensor (a
// shape of [1] is accepted too). The inputs must broadcast either way.
Check loss_result(rules::Names inputs, std::string result);

}  // namespace oa::loss
