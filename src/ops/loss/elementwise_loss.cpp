#include "ops/loss/elementwise_loss.h"

#include <utility>

#include "ops/loss/loss_rules.h"

namespace oa::loss {
namespace {

// An implementation that plans with impls[variants.index(call)].
Impl chosen(const Variants& variants, std::vector<Impl> impls) {
  Impl impl;
  impl.name = impls.front().name;
  impl.reference_bits = impls.front().reference_bits;
  impl.plan = [variants, impls](const Call& call, Planned* planned) {
    return impls[variants.of_call(call)].plan(call, planned);
  };
  return impl;
}

}  // namespace

ElementwiseOp formula_op(rules::Names inputs, std::string output, Formula formula, ParamsOf params,
                         std::string reduction) {
  return {std::move(inputs), std::move(output),    formula.scalar, formula.kernels,
          std::move(params), std::move(reduction), nullptr};
}

ParamsOf scale_params(double factor) {
  return [factor](const Call& call, const Shape& shape) {
    const bool mean = call.integer("reduction") == 1;
    ElementwiseParams p;
    p.v[0] = static_cast<float>(mean ? factor / static_cast<double>(numel(shape)) : factor);
    return p;
  };
}

ParamsOf no_params() {
  return [](const Call&, const Shape&) { return ElementwiseParams(); };
}

Variants single(ElementwiseOp op) {
  return {{std::move(op)},
          [](const Call&) { return size_t{0}; },
          [](const OpDef&, const CallSpec&) { return size_t{0}; }};
}

Variants by_presence(rules::Names optional, std::vector<ElementwiseOp> ops) {
  return {std::move(ops),
          [optional](const Call& call) {
            size_t i = 0;
            for (size_t k = 0; k < optional.size(); ++k) {
              i |= call.tensor(optional[k].c_str()) != nullptr ? size_t{1} << k : 0;
            }
            return i;
          },
          [optional](const OpDef& def, const CallSpec& spec) {
            size_t i = 0;
            for (size_t k = 0; k < optional.size(); ++k) {
              i |= arg_of(def, spec, optional[k]).null ? 0 : size_t{1} << k;
            }
            return i;
          }};
}

Variants by_flag(std::string flag, ElementwiseOp off, ElementwiseOp on) {
  return {{std::move(off), std::move(on)},
          [flag](const Call& call) { return call.flag(flag.c_str()) ? size_t{1} : size_t{0}; },
          [flag](const OpDef& def, const CallSpec& spec) {
            return arg_of(def, spec, flag).integer != 0 ? size_t{1} : size_t{0};
          }};
}

std::vector<Impl> variant_impls(const Variants& variants) {
  std::vector<Impl> simd;
  std::vector<Impl> reference;
  for (const ElementwiseOp& op : variants.ops) {
    simd.push_back(elementwise_simd(op));
    reference.push_back(elementwise_reference(op));
  }
  return {chosen(variants, std::move(simd)), chosen(variants, std::move(reference))};
}

std::function<bool(const OpDef&, CallSpec*)> variant_infer(const Variants& variants) {
  std::vector<std::function<bool(const OpDef&, CallSpec*)>> infer;
  for (const ElementwiseOp& op : variants.ops) {
    infer.push_back(elementwise_infer(op));
  }
  return [variants, infer](const OpDef& def, CallSpec* spec) {
    return infer[variants.of_spec(def, *spec)](def, spec);
  };
}

std::function<bool(const OpDef&, CallSpec*)> variant_infer(const Variants& variants,
                                                           std::string output, std::string source) {
  const auto infer = variant_infer(variants);
  return [infer, output, source](const OpDef& def, CallSpec* spec) {
    if (!infer(def, spec)) {
      return false;
    }
    arg_of(def, spec, output)->tensor.dtype = arg_of(def, spec, source)->tensor.dtype;
    return true;
  };
}

}  // namespace oa::loss
