#!/usr/bin/env bash
# Checks scripts/perf_report.py on a fixed summary (fixture_summary.json): the tables' rows (traffic,
# each case's ceiling and the percentages of it), the geometric means, the machine's ceilings and
# the failure list in the Markdown page; and, where matplotlib is
# installed, that the chart is a PNG whose bytes do not change when it is drawn again.
# Usage: check_report.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
here="$source_dir/tests/report"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
report() {
  /usr/bin/python3 "$source_dir/scripts/perf_report.py" "$here/fixture_summary.json" \
    --markdown "$work/performance.md" "$@"
}
expect() {
  grep -qxF -- "$1" "$work/performance.md" || {
    echo "missing line: $1" >&2
    cat "$work/performance.md" >&2
    exit 1
  }
}

report
expect '## conv_tbc'
expect '| fwd/a/f32 | - | 320.00 | 80.00 | 4.00 | 400.00 | onednn_sgemm/2048 | 80 % | 20 % | GFLOP/s |'
expect '| fwd/a/f16 | - | 300.00 | - | - | 400.00 | onednn_sgemm/2048 | 75 % | - | GFLOP/s |'
expect 'Geometric mean of ours/PyTorch over 2 case(s): **2.00×**; lowest 1.00×.'
# Memory-bound cases: their traffic, and their own traffic-matched ceiling, the faster stores.
expect '| memset_zero/16MiB | nothing → 16 MiB | 90.00 | 60.00 | 1.50 | 100.00 | traffic loop, plain stores | 90 % | 60 % | GB/s |'
expect '## smooth_l1_backward'
expect '| a_f32 | 64 MiB + 64 MiB + 64 MiB → 64 MiB | 60.00 | 30.00 | 2.00 | 50.00 | traffic loop, streaming stores | 120 % | 60 % | GB/s |'
expect '| b_bf16 | 4 B + 64 MiB + 16 KiB → 64 MiB | 20.00 | 40.00 | 0.50 | 50.00 | traffic loop, plain stores | 40 % | 80 % | GB/s |'
expect '| c_f16 | 32 MiB + 32 MiB + 32 MiB → 32 MiB | - | - | - | - | - | - | - | GB/s |'
expect 'Geometric mean of ours/PyTorch over 2 case(s): **1.00×**; lowest 0.50×.'
expect '- failed: b_bf16 (traffic loop, streaming stores): out of host memory'
expect '- failed: c_f16 (ours): aclnnSmoothL1LossBackward: "out of memory"'
# The machine's ceilings are listed; only the first GEMM one is what GEMM-bound cases use, and
# the copy ceiling is none of the percentages.
expect '| ceiling/copy/1016MiB | copy | 50.00 | GB/s |'
expect '| ceiling/onednn_sgemm/2048 | gemm (the GEMM-bound % columns) | 400.00 | GFLOP/s |'
expect '| ceiling/sgemm/2048 | gemm | 200.00 | GFLOP/s |'
if grep -qF 'performance.png' "$work/performance.md"; then
  echo "the page links a chart that was not drawn" >&2
  exit 1
fi

if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  report --chart "$work/first.png"
  expect "![ours/PyTorch and each side's % of the case's in-run ceiling](first.png)"
  report --chart "$work/second.png"
  [ "$(head -c 8 "$work/first.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || {
    echo "the chart is not a PNG" >&2
    exit 1
  }
  cmp "$work/first.png" "$work/second.png"
else
  echo "matplotlib is not installed: chart not checked"
fi
echo "perf_report.py: ok"
