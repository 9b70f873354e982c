#!/usr/bin/env bash
# The performance report in one command: installs what it needs (apt), builds and runs the whole
# benchmark suite (scripts/run_bench.sh), then writes docs/performance.md and docs/performance.png
# from the run's summary. The full run takes about 22 minutes on a quiet 2-core machine (176
# benchmarks: 108 ceilings and case sides, 68 traffic-matched loops; 7 repetitions of at least
# 0.5 s each); run it on a quiet machine. The repetitions of all cases run in a random order
# (Google Benchmark's random interleaving), so that both sides of a case, and its ceiling, sample
# the same spread of the machine's states instead of each its own few seconds of it.
# Extra arguments go to openaclnn_bench after the defaults here, which they override
# (e.g. --benchmark_filter='ceiling|smooth' --benchmark_repetitions=2 for a quick draft).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh --report
bash scripts/run_bench.sh --benchmark_repetitions=7 --benchmark_enable_random_interleaving=true \
  --summary_json=build-bench/summary.json "$@"
# Debian's python3 explicitly: it is the one python3-matplotlib is installed for, and another
# python3 may come first on PATH.
/usr/bin/python3 scripts/perf_report.py build-bench/summary.json \
  --markdown docs/performance.md --chart docs/performance.png
