#!/usr/bin/env bash
# The benchmark on a busy machine: runs the cases quiet, beside two busy-loop processes, and beside
# a 2-thread PyTorch matrix-product process, in turn (quiet, busy, matmul, quiet, busy, matmul),
# then writes each case's loaded time / quiet time, ours and PyTorch's, into docs/performance.md.
#   scripts/loaded_bench.sh [openaclnn_bench arguments, e.g. --benchmark_filter=pool]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh --report
bash scripts/build_bench.sh
out=build-bench/loaded
mkdir -p "$out"
load=()
stop_load() {
  if [ "${#load[@]}" -gt 0 ]; then
    kill "${load[@]}" 2>/dev/null || true
    wait "${load[@]}" 2>/dev/null || true
  fi
  load=()
}
trap stop_load EXIT
start_load() {
  case "$1" in
    busy)
      for _ in 1 2; do
        bash -c 'while :; do :; done' &
        load+=($!)
      done ;;
    matmul)
      /usr/bin/python3 -c '
import torch
torch.set_num_threads(2)
a = torch.randn(2048, 2048)
while True:
    a @ a
' &
      load+=($!) ;;
  esac
  sleep 2  # let the load reach its steady state
}
for round in 1 2; do
  for mode in quiet busy matmul; do
    start_load "$mode"
    build-bench/bench/openaclnn_bench --summary_json="$out/$mode-$round.json" "$@" >/dev/null
    stop_load
  done
done
/usr/bin/python3 scripts/loaded_report.py "$out" docs/performance.md
