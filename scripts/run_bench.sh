#!/usr/bin/env bash
# Installs dependencies (with Google Benchmark and PyTorch), builds the benchmarks and runs them:
# ours against PyTorch and against each case's ceiling (its traffic-matched loop, or the GEMM
# rate), measured in the same run.
# Extra arguments go to openaclnn_bench (e.g. --benchmark_filter=ceiling\|smooth).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build_bench.sh
build-bench/bench/openaclnn_bench "$@"
