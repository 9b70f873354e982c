#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ (or $FUZZ_BUILD) and runs
# each in turn for the seconds given, from its seed corpus (tests/fuzz/corpus/<target>/, which it
# does not change; what the run learns is kept in <build>/tests/fuzz/corpus/<target>/ for the next
# run).
#   scripts/fuzz.sh [SECONDS [TARGET...]]   SECONDS per target (default 60); TARGET: op_fuzz,
#                                           runtime_fuzz, npy_fuzz (default: all three)
# Crashes, leaks and timeouts are saved as <build>/fuzz-crashes/<target>-*; replay one with
#   <build>/tests/fuzz/openaclnn_<target> FILE   (op_fuzz: OPENACLNN_FUZZ_PRINT=1 prints the call)
# The exit status is 1 when any target failed. FUZZ_JOBS sets the build's parallelism (default:
# all cores).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FUZZ_BUILD:-build-fuzz}
seconds=${1:-60}
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(op_fuzz runtime_fuzz npy_fuzz)
bash scripts/install_deps.sh --fuzz
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# run_tests.sh --sanitize's configuration, with clang and libFuzzer (coverage-guided).
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DOPENACLNN_SANITIZE=ON \
  -DOPENACLNN_BUILD_FUZZERS=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  "${launcher[@]}" >/dev/null
cmake --build "$build" -j "${FUZZ_JOBS:-$(nproc)}" --target "${targets[@]/#/openaclnn_}"
crashes=$build/fuzz-crashes
mkdir -p "$crashes"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for target in "${targets[@]}"; do
  grown=$build/tests/fuzz/corpus/$target
  mkdir -p "$grown"
  log=$build/fuzz-$target.log
  echo "== $target: $seconds s (log: $log)"
  if "$build/tests/fuzz/openaclnn_$target" -max_total_time="$seconds" -max_len=4096 -timeout=30 \
    -print_final_stats=1 -artifact_prefix="$crashes/$target-" "$grown" \
    "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    result=clean
  else
    result="FAILED (see $log and $crashes/)"
    status=1
  fi
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  echo "   $result: ${executions:-?} executions"
done
exit "$status"
