#!/usr/bin/env bash
# Installs dependencies, builds openaclnn and runs the tests of tensors past 2^31 elements
# (tests/large). Not part of run_tests.sh or CI: each test needs about 9 GiB of memory.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target openaclnn_large_tests
build/tests/large/openaclnn_large_tests "$@"
