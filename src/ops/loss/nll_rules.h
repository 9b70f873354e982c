// The shape rules of the NLL losses (CANN's nll_loss and nll_loss_grad op_api checks).
#pragma once

#include <string>

#include "core/op/rules.h"

namespace oa::loss::nll {

// NLLLoss(Backward): self [C] with a 0-d target, or self [N, C] with a target [N].
Check target_rows();

// NLLLoss2d(Backward): target [N, H, W] for self [N, C, H, W].
Check target_plane();

// weight is [C], C = self's class dim (CANN compares its first dim or its element count only).
Check class_weight();

// `name` (out of the forward, gradOutput of the backward) holds one value per row for reduction
// none (1-D: [N] for self [N, C], one element for self [C]; 2-d: target's shape), else one
// element (with rank at most 1 where `rank_at_most_one`).
Check per_row(std::string name, bool two_d, bool rank_at_most_one);

// `name` has one element (any shape).
Check one_element(std::string name);

// NLLLoss: a non-empty target needs C > 0 (no class index could be valid).
Check classes_for_targets();

}  // namespace oa::loss::nll
