#!/usr/bin/env bash
# The openaclnn tool's workflow for an NPU operator test, without numpy: raw float32 inputs (.bin,
# as NPU dumps are stored) -> golden data from openaclnn -> a bfloat16 result checked against it.
# Usage: golden_data.sh PATH/TO/openaclnn
set -euo pipefail
tool=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 3 x 4 little-endian float32 inputs (perl is part of every Debian system).
perl -e 'print pack("f<*", map { 2 * sin($_) } 0 .. 11)' >"$dir/self.bin"
perl -e 'print pack("f<*", map { cos($_) } 0 .. 11)' >"$dir/target.bin"
perl -e 'print pack("f<", 1)' >"$dir/grad.bin"
inputs=(--in "gradOutput=$dir/grad.bin" --shape gradOutput= --dtype gradOutput=float32
  --in "self=$dir/self.bin" --shape self=3,4 --dtype self=float32
  --in "target=$dir/target.bin" --shape target=3,4 --dtype target=float32)

echo "\$ openaclnn run SmoothL1LossBackward --reduction none --beta 0.5 ... --out gradInput=golden.npy"
"$tool" run SmoothL1LossBackward --reduction none --beta 0.5 "${inputs[@]}" \
  --out "gradInput=$dir/golden.npy"
echo "\$ openaclnn run ... --out gradInput=result.bin --out-dtype gradInput=bf16"
"$tool" run SmoothL1LossBackward --reduction none --beta 0.5 "${inputs[@]}" \
  --out "gradInput=$dir/result.bin" --out-dtype gradInput=bf16
echo "\$ openaclnn compare golden.npy result.bin --dtype actual=bf16 --shape actual=3,4"
"$tool" compare "$dir/golden.npy" "$dir/result.bin" --dtype actual=bf16 --shape actual=3,4
