#!/usr/bin/env bash
# Installs dependencies (with Google Benchmark and PyTorch) and builds the benchmarks in
# build-bench/ (Release, no tests): build-bench/bench/openaclnn_bench.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh --bench
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DOPENACLNN_BUILD_BENCH=ON \
  -DOPENACLNN_BUILD_TESTS=OFF
cmake --build build-bench -j "$(nproc)" --target openaclnn_bench
