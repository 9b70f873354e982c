#!/usr/bin/env bash
# Checks scripts/perf_report.py on a fixed summary (fixture_summary.json): the tables' rows, the
# geometric means, the ceilings and the failure list in the Markdown page; and, where matplotlib is
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
expect '| fwd/a/f32 | 320.00 | 80.00 | 4.00 | 80 % | 20 % | GFLOP/s |'
expect '| fwd/a/f16 | 300.00 | - | - | 75 % | - | GFLOP/s |'
expect 'Geometric mean of ours/PyTorch over 2 case(s): **2.00×**; lowest 1.00×.'
expect '## smooth_l1_backward'
expect '| a_f32 | 60.00 | 30.00 | 2.00 | 120 % | 60 % | GB/s |'
expect '| b_bf16 | 20.00 | 40.00 | 0.50 | 40 % | 80 % | GB/s |'
expect '| c_f16 | - | - | - | - | - | GB/s |'
expect 'Geometric mean of ours/PyTorch over 2 case(s): **1.00×**; lowest 0.50×.'
expect '- failed: c_f16 (ours): aclnnSmoothL1LossBackward: "out of memory"'
# Only the first ceiling of a kind is what the percentages use.
expect '| ceiling/onednn_sgemm/2048 | gemm (the % columns) | 400.00 | GFLOP/s |'
expect '| ceiling/sgemm/2048 | gemm | 200.00 | GFLOP/s |'
if grep -qF 'performance.png' "$work/performance.md"; then
  echo "the page links a chart that was not drawn" >&2
  exit 1
fi

if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  report --chart "$work/first.png"
  expect '![ours/PyTorch and ours % of the in-run ceiling, per case](first.png)'
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
