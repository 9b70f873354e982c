// Parsing of the tool's NAME=VALUE arguments and of number lists.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace oa::tool {

// "gradOutput=g.npy" -> {"gradOutput", "g.npy"}. UsageError naming `option` when there is no '='
// or the name is empty.
std::pair<std::string, std::string> split_assignment(const std::string& option,
                                                     const std::string& text);

// "2,3,4" -> {2, 3, 4}; "" -> {} (0-d). UsageError naming `what` for anything but integers.
std::vector<int64_t> parse_int_list(const std::string& what, const std::string& text);

// A shape: "2,3" -> {2, 3}; "" -> {} (0-d). UsageError for anything but non-negative dims.
std::vector<int64_t> parse_shape(const std::string& text);

// Lower case, without '_' and '-': "smooth_l1_loss_backward" and "SmoothL1LossBackward" agree.
std::string loose_name(const std::string& name);

}  // namespace oa::tool
