#!/usr/bin/env bash
# Installs dependencies, builds openaclnn with its tests and runs them.
#   scripts/run_tests.sh             Release build in build/
#   scripts/run_tests.sh --sanitize  AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/,
#                                    the fuzz targets among them (20 s each; docs/testing.md)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh "${1:-}"
if [ "${1:-}" = "--sanitize" ]; then
  build=build-asan
  options=(-DCMAKE_BUILD_TYPE=Debug -DOPENACLNN_SANITIZE=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  build=build
  options=(-DCMAKE_BUILD_TYPE=Release)
fi
cmake -S . -B "$build" "${options[@]}"
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
