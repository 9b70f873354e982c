// `openaclnn compare EXPECTED ACTUAL`: element-by-element accuracy of one array against another.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accuracy.h"
#include "array.h"
#include "commands.h"
#include "files.h"
#include "names.h"

namespace oa::tool {
namespace {

constexpr size_t kListed = 10;

const char kFooter[] =
    R"(Inputs are .npy files (numpy's format, any version, little-endian, C order) or raw .bin
dumps. A .bin file has no header: give its --shape and --dtype. A .npy file of uint16
holds bfloat16 bit patterns (--dtype bf16); one of uint8 holds 8-bit floats (--dtype hif8
or --dtype e4m3fn).

--dtype and --shape apply to both inputs (--shape to the .bin ones), or to one input when
prefixed: --dtype actual=bf16 --shape expected=2,3. Dtypes: float32, float16, bf16, int32,
int64, hif8, e4m3fn. Shapes: comma-separated dims, "" for a 0-d array.

An element passes when |actual - expected| <= atol + rtol * |expected|. NaN matches NaN and
an infinity matches the same infinity; any other NaN or infinity is a mismatch. Default rtol
is the looser of the two dtypes' standards (CANN's): float32 1e-4, float16 1e-3, bf16 4e-3,
hif8 and e4m3fn 0.125, integers 0 (exact). Default atol equals the rtol in effect, so that
values near zero are not held to a vanishing bound.

Relative error is |actual - expected| / |expected|; elements whose expected value is 0 are
left out of the relative statistics (they are still tested against the tolerance). Cosine
similarity is over the elements where both values are finite.

Exit status: 0 all elements pass, 1 some fail, 2 bad arguments or unreadable inputs.
)";

struct Options {
  std::string expected;
  std::string actual;
  double rtol = 0;
  double atol = 0;
  std::vector<std::string> dtypes;
  std::vector<std::string> shapes;
  CLI::Option* rtol_option = nullptr;
  CLI::Option* atol_option = nullptr;
};

// The values of a repeatable option given as "VALUE" (both inputs) or "expected=VALUE" /
// "actual=VALUE" (one input).
struct PerInput {
  std::optional<std::string> both;
  std::optional<std::string> expected;
  std::optional<std::string> actual;
};

PerInput split_by_input(const std::string& option, const std::vector<std::string>& specs) {
  PerInput values;
  for (const std::string& spec : specs) {
    const size_t equals = spec.find('=');
    std::optional<std::string>* slot = &values.both;
    std::string target = "both inputs";
    if (equals != std::string::npos) {
      target = spec.substr(0, equals);
      if (target != "expected" && target != "actual") {
        throw UsageError(option + " " + spec + ": the part before '=' must be expected or actual");
      }
      slot = target == "expected" ? &values.expected : &values.actual;
    }
    if (*slot) {
      throw UsageError(option + " is given twice for " + target);
    }
    *slot = equals == std::string::npos ? spec : spec.substr(equals + 1);
  }
  return values;
}

Array read_input(const std::string& path, const std::optional<std::string>& own_dtype,
                 const std::optional<std::string>& own_shape, const PerInput& dtypes,
                 const PerInput& shapes) {
  std::optional<aclDataType> dtype;
  if (own_dtype || dtypes.both) {
    dtype = parse_dtype(own_dtype ? *own_dtype : *dtypes.both);
  }
  // A shape given for both inputs is meant for the .bin ones: a .npy carries its own.
  std::optional<std::vector<int64_t>> shape;
  if (own_shape) {
    shape = parse_shape(*own_shape);
  } else if (shapes.both && is_bin_path(path)) {
    shape = parse_shape(*shapes.both);
  }
  return read_array(path, dtype, shape);
}

std::string number(double value, const char* format = "%.6g") {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// Values exactly as they compare: all the digits of a float32, and whole numbers in full.
std::string value_text(double value) {
  if (std::fabs(value) < 1e15 && value == std::floor(value)) {
    return number(value, "%.0f");
  }
  return number(value, "%.9g");
}

std::string describe(const std::string& path, const Array& array) {
  return path + " (" + dtype_label(array.dtype) + " " + shape_label(array.shape) + ")";
}

std::string at(int64_t index, const std::vector<int64_t>& shape) {
  return shape_label(unravel_index(index, shape));
}

void print_report(const Accuracy& result, const std::vector<int64_t>& shape) {
  std::printf("elements:           %lld\n", static_cast<long long>(result.count));
  if (result.finite_count > 0) {
    std::printf("max abs error:      %s at %s\n", number(result.max_abs_error).c_str(),
                at(result.max_abs_index, shape).c_str());
  } else {
    std::printf("max abs error:      n/a (no element where both values are finite)\n");
  }
  if (result.relative_count > 0) {
    std::printf("max rel error:      %s at %s\n", number(result.max_rel_error).c_str(),
                at(result.max_rel_index, shape).c_str());
    std::printf(
        "mean rel error:     %s (over %lld elements with finite values and expected != 0)\n",
        number(result.mean_rel_error).c_str(), static_cast<long long>(result.relative_count));
  } else {
    std::printf("max rel error:      n/a (no element with finite values and expected != 0)\n");
    std::printf("mean rel error:     n/a\n");
  }
  std::printf("cosine similarity:  %s\n", number(result.cosine_similarity, "%.9f").c_str());
  std::printf("NaN mismatches:     %lld\n", static_cast<long long>(result.nan_mismatches));
  std::printf("Inf mismatches:     %lld\n", static_cast<long long>(result.inf_mismatches));
  std::printf("outside tolerance:  %lld\n", static_cast<long long>(result.outside));
  if (!result.first_outside.empty()) {
    std::printf("first %zu outside tolerance:\n", result.first_outside.size());
    for (const Mismatch& m : result.first_outside) {
      std::printf("  %s expected %s actual %s\n", at(m.index, shape).c_str(),
                  value_text(m.expected).c_str(), value_text(m.actual).c_str());
    }
  }
}

int run_compare(const Options& options) {
  if (!std::isfinite(options.rtol) || options.rtol < 0 || !std::isfinite(options.atol) ||
      options.atol < 0) {
    throw UsageError("--rtol and --atol must be finite and non-negative");
  }
  const PerInput dtypes = split_by_input("--dtype", options.dtypes);
  const PerInput shapes = split_by_input("--shape", options.shapes);
  if (shapes.both && !is_bin_path(options.expected) && !is_bin_path(options.actual)) {
    throw UsageError("--shape " + *shapes.both +
                     ": a shape is for .bin inputs, and neither input is a .bin file");
  }
  const Array expected =
      read_input(options.expected, dtypes.expected, shapes.expected, dtypes, shapes);
  const Array actual = read_input(options.actual, dtypes.actual, shapes.actual, dtypes, shapes);
  if (expected.shape != actual.shape) {
    const bool same_count = expected.numel() == actual.numel();
    throw UsageError(
        "the shapes differ: expected " + describe(options.expected, expected) + ", actual " +
        describe(options.actual, actual) +
        (same_count ? " (the same number of elements, but compare does not reshape)" : ""));
  }
  Tolerance tolerance = default_tolerance(expected.dtype, actual.dtype);
  const bool rtol_given = options.rtol_option->count() > 0;
  const bool atol_given = options.atol_option->count() > 0;
  tolerance.rtol = rtol_given ? options.rtol : tolerance.rtol;
  tolerance.atol = atol_given ? options.atol : tolerance.rtol;
  const std::string rtol_text = number(tolerance.rtol);
  const std::string atol_text = number(tolerance.atol);

  std::printf("expected:           %s\n", describe(options.expected, expected).c_str());
  std::printf("actual:             %s\n", describe(options.actual, actual).c_str());
  std::printf(
      "tolerance:          |actual - expected| <= atol + rtol * |expected|, rtol=%s%s "
      "atol=%s%s\n",
      rtol_text.c_str(), rtol_given ? "" : " (default)", atol_text.c_str(),
      atol_given ? "" : " (default: the rtol)");
  if (expected.numel() == 0) {
    std::printf("elements:           0\n");
    std::printf("PASS: the arrays are empty, nothing to compare\n");
    return 0;
  }
  const Accuracy result =
      measure_accuracy(to_doubles(expected), to_doubles(actual), tolerance, kListed);
  print_report(result, expected.shape);
  std::printf("%s: %lld of %lld elements outside rtol=%s atol=%s\n",
              result.outside == 0 ? "PASS" : "FAIL", static_cast<long long>(result.outside),
              static_cast<long long>(result.count), rtol_text.c_str(), atol_text.c_str());
  return result.outside == 0 ? 0 : 1;
}

}  // namespace

void add_compare_command(CLI::App& app, int* status) {
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "compare", "Compare an actual array with an expected one, element by element");
  command->add_option("expected", options->expected, "The expected (golden) array: .npy or .bin")
      ->required();
  command->add_option("actual", options->actual, "The array to check: .npy or .bin")->required();
  options->rtol_option = command->add_option("--rtol", options->rtol,
                                             "Relative tolerance (default: by dtype, see below)");
  options->atol_option =
      command->add_option("--atol", options->atol, "Absolute tolerance (default: the rtol)");
  command
      ->add_option("--dtype", options->dtypes,
                   "[expected=|actual=]DTYPE: the dtype of a .bin input, or what a .npy of "
                   "uint16/uint8 holds (repeatable)")
      ->allow_extra_args(false);
  command
      ->add_option("--shape", options->shapes,
                   "[expected=|actual=]DIMS: the shape of a .bin input (repeatable)")
      ->allow_extra_args(false);
  command->footer(kFooter);
  command->callback([options, status] { *status = run_compare(*options); });
}

}  // namespace oa::tool
