// One test over every operator definition (core/op/definition.h): whatever an operator is, its
// samples run, each check of its table fails alone with its code and a message naming the
// parameter, every implementation agrees with the reference, on any layout, for any thread count,
// whatever the workspace held, and nothing outside the outputs' views is written.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/op/definition.h"
#include "support/call.h"

namespace oa_test {
namespace {

class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  const oa::OpDef& def() const { return *oa::find_definition(GetParam()); }
};

std::string describe(const oa::OpDef& def, const oa::CallSpec& spec) {
  std::string text = def.name + "(";
  for (size_t i = 0; i < def.params.size(); ++i) {
    const oa::ArgSpec& a = spec.args[i];
    text += (i == 0 ? "" : ", ") + def.params[i].name + "=";
    if (a.null) {
      text += "null";
    } else if (oa::is_tensor(def.params[i].kind)) {
      text += oa::dtype_name(a.tensor.dtype) + oa::shape_string(a.tensor.shape) +
              (a.tensor.strides.empty() ? "" : " strides " + oa::shape_string(a.tensor.strides));
    } else if (def.params[i].kind == oa::ParamKind::real) {
      text += std::to_string(a.real);
    } else if (def.params[i].kind == oa::ParamKind::int_array) {
      text += oa::shape_string(a.ints);
    } else {
      text += std::to_string(a.integer);
    }
  }
  return text + ")";
}

// Runs spec with the implementation `impl` ("" for the one the definition chooses) on inputs
// drawn by `random` from a generator seeded with `seed`; returns the outputs' bits, or nothing when
// that implementation does not apply. Also checks that the call succeeded and wrote nothing
// outside its outputs' views.
std::vector<std::vector<uint64_t>> run_with(const oa::OpDef& def, const oa::CallSpec& spec,
                                            const std::string& impl, uint64_t seed, bool integers,
                                            unsigned char workspace_fill = 0xA5) {
  ScopedEnv forced("OPENACLNN_IMPL",
                   impl.empty() ? std::nullopt : std::optional<std::string>(impl));
  TestCall call(def, spec);
  std::mt19937_64 rng(seed);
  call.fill_inputs([&](aclDataType dtype) {
    return integers ? random_integer(rng, dtype) : random_value(rng, dtype, true);
  });
  const aclnnStatus status = call.run(workspace_fill);
  EXPECT_EQ(status, ACLNN_SUCCESS) << describe(def, spec) << ": " << aclGetRecentErrMsg();
  if (!impl.empty() && oa::last_chosen_impl() != impl) {
    return {};
  }
  EXPECT_TRUE(call.only_views_written()) << describe(def, spec) << " impl " << impl;
  return call.output_bits();
}

TEST_P(Conformance, DefinitionIsComplete) {
  const oa::OpDef& d = def();
  EXPECT_FALSE(d.samples.empty());
  ASSERT_FALSE(d.impls.empty());
  EXPECT_EQ(d.impls.back().name, "reference");
  EXPECT_FALSE(d.checks.empty());
  bool empty = false;
  for (const oa::CallSpec& s : d.samples) {
    for (size_t i = 0; i < d.params.size(); ++i) {
      empty = empty || (oa::is_tensor(d.params[i].kind) && !s.args[i].null &&
                        oa::numel(s.args[i].tensor.shape) == 0);
    }
  }
  EXPECT_TRUE(empty) << d.name << " has no sample with an empty tensor";
  for (const oa::Check& check : d.checks) {
    EXPECT_FALSE(check.violations.empty())
        << d.name << ": check '" << check.rule << "' has no violation";
  }
}

TEST_P(Conformance, SamplesRunWithEveryImplementation) {
  const oa::OpDef& d = def();
  for (const oa::CallSpec& s : d.samples) {
    SCOPED_TRACE(describe(d, s));
    for (const oa::Impl& impl : d.impls) {
      run_with(d, s, impl.name, 1, false);
    }
  }
}

// Each violation of each check, on the first sample it applies to, fails that check and no earlier
// one, with the check's code and a message naming the operator and the parameter.
TEST_P(Conformance, EveryCheckFailsAlone) {
  const oa::OpDef& d = def();
  for (size_t k = 0; k < d.checks.size(); ++k) {
    for (const oa::Violation& v : d.checks[k].violations) {
      SCOPED_TRACE("check " + std::to_string(k) + " '" + d.checks[k].rule + "', violation '" +
                   v.what + "'");
      bool triggered = false;
      std::string tried;
      for (const oa::CallSpec& sample : d.samples) {
        oa::CallSpec spec = sample;
        if (!v.apply(d, &spec)) {
          continue;
        }
        TestCall call(d, spec);
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus status = call.plan(&workspace_size, &executor);
        if (status == ACLNN_SUCCESS) {
          aclDestroyAclOpExecutor(executor);
        }
        if (oa::last_failed_check() != static_cast<int>(k)) {
          tried += "\n  " + describe(d, spec) + ": status " + std::to_string(status) +
                   ", failed check " + std::to_string(oa::last_failed_check()) + ": " +
                   aclGetRecentErrMsg();
          continue;
        }
        triggered = true;
        EXPECT_EQ(status, v.code);
        const std::string message = aclGetRecentErrMsg();
        EXPECT_NE(message.find(d.api + ": "), std::string::npos) << message;
        for (const std::string& part : v.message) {
          EXPECT_NE(message.find(part), std::string::npos)
              << "message lacks \"" << part << "\": " << message;
        }
        break;
      }
      EXPECT_TRUE(triggered) << "no sample made this check fail alone; tried:" << tried;
    }
  }
}

// Every implementation against the reference: bitwise on random data with infinities and NaNs
// where it performs the reference's operations in the reference's order, else bitwise on small
// integers (where every exact sum is representable) and within the definition's tolerance on
// random data.
TEST_P(Conformance, ImplementationsAgreeWithTheReference) {
  const oa::OpDef& d = def();
  std::mt19937_64 rng(7);
  for (const oa::CallSpec& sample : d.samples) {
    for (int layout = 0; layout < 3; ++layout) {
      oa::CallSpec spec = sample;
      if (layout > 0) {
        for (size_t i = 0; i < d.params.size(); ++i) {
          if (oa::is_tensor(d.params[i].kind) && !spec.args[i].null) {
            spec.args[i].tensor =
                random_layout(spec.args[i].tensor, rng, d.params[i].kind == oa::ParamKind::input);
          }
        }
      }
      SCOPED_TRACE(describe(d, spec));
      for (bool integers : {false, true}) {
        const auto expected = run_with(d, spec, "reference", 11, integers);
        for (const oa::Impl& impl : d.impls) {
          if (impl.name == "reference" || (!impl.reference_bits && !integers)) {
            continue;
          }
          const auto got = run_with(d, spec, impl.name, 11, integers);
          if (!got.empty()) {
            EXPECT_EQ(got, expected) << impl.name << (integers ? " on integers" : "");
          }
        }
      }
    }
  }
}

TEST_P(Conformance, SameBitsForAnyThreadCountAndWorkspace) {
  const oa::OpDef& d = def();
  for (const oa::CallSpec& s : d.samples) {
    SCOPED_TRACE(describe(d, s));
    const auto first = run_with(d, s, "", 5, false);
    for (const char* threads : {"1", "2", "3"}) {
      ScopedEnv env("OPENACLNN_NUM_THREADS", threads);
      for (unsigned char fill : {0x00, 0xFF, 0x7F}) {
        EXPECT_EQ(run_with(d, s, "", 5, false, fill), first)
            << threads << " threads, workspace filled with " << static_cast<int>(fill);
      }
    }
  }
}

// A device allocation freed between the phases (SPEC section 13): phase 2 fails with 161002
// naming the tensor and writes nothing, for a normal executor and for a repeatable one that has
// already run once.
TEST_P(Conformance, MemoryFreedBetweenThePhasesIsNeverWritten) {
  const oa::OpDef& d = def();
  for (const oa::CallSpec& s : d.samples) {
    for (size_t i = 0; i < d.params.size(); ++i) {
      if (!oa::is_tensor(d.params[i].kind) || s.args[i].null ||
          oa::numel(s.args[i].tensor.shape) == 0) {
        continue;
      }
      const std::string& name = d.params[i].name;
      SCOPED_TRACE(describe(d, s) + ", " + name + " freed");
      for (bool repeatable : {false, true}) {
        TestCall call(d, s);
        std::mt19937_64 rng(3);
        call.fill_inputs([&](aclDataType dtype) { return random_value(rng, dtype, false); });
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(call.plan(&workspace_size, &executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        if (repeatable) {
          ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
          ASSERT_EQ(call.launch(workspace_size, executor), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        }
        const auto before = call.output_bits();
        call.tensor(static_cast<int>(i))->free_memory();
        expect_error(call.launch(workspace_size, executor), ACLNN_ERR_PARAM_INVALID,
                     {d.api + ": the device memory of " + name,
                      "was freed after " + d.api + "GetWorkspaceSize"});
        if (repeatable) {
          EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
        }
        if (d.params[i].kind == oa::ParamKind::input) {
          EXPECT_EQ(call.output_bits(), before);
        }
        EXPECT_TRUE(call.only_views_written());
      }
    }
  }
}

// A destroyed tensor handle is reported by phase 1 (161002, naming the parameter), never read.
TEST_P(Conformance, DestroyedTensorsAreReported) {
  const oa::OpDef& d = def();
  const oa::CallSpec& s = d.samples.front();
  for (size_t i = 0; i < d.params.size(); ++i) {
    if (!oa::is_tensor(d.params[i].kind) || s.args[i].null) {
      continue;
    }
    SCOPED_TRACE(describe(d, s) + ", " + d.params[i].name + " destroyed");
    TestCall call(d, s);
    call.tensor(static_cast<int>(i))->destroy_handle();
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    expect_error(call.plan(&workspace_size, &executor), ACLNN_ERR_PARAM_INVALID,
                 {d.api + ": " + d.params[i].name, "is not a live aclTensor"});
  }
}

INSTANTIATE_TEST_SUITE_P(Definitions, Conformance, ::testing::ValuesIn(definition_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace oa_test
