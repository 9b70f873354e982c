#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds CANN-style programs against the installed
# package: CMake find_package, the plain CANN link line, CANN ops-nn's sample line (operator
# headers by bare name, -lopapi_nn -lopapi_math) and pkg-config; and runs the installed openaclnn
# tool. When the CANN operator documents are beside the repository
# (../shared/seeds), their example programs are compiled and linked unchanged as well.
# Usage: check_install.sh BUILD_DIR SOURCE_DIR CXX [EXTRA_CXX_FLAGS]
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd) cxx=$3 extra=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
sample=$source/examples/runtime_basics.cpp
expect="result\[5\] is: 5.500000"
ops_nn_sample=$source/tests/install/ops_nn_sample.cpp
ops_nn_expect="status 0, sum of the smooth L1 loss: 1.65625"

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name libopenaclnn.so | head -n 1)")
for name in ascendcl nnopbase opapi opapi_nn opapi_math runtime; do
  test -L "$libdir/lib$name.so" || { echo "missing lib$name.so in $libdir"; exit 1; }
done
for header in acl/acl.h acl/acl_base.h acl/acl_rt.h aclnn/acl_meta.h aclnn/aclnn_base.h \
  aclnnop/aclnn_util.h aclnnop/aclnn_adaptive_max_pool2d_backward.h \
  aclnnop/aclnn_convolution_backward.h aclnnop/aclnn_smooth_l1_loss_backward.h; do
  test -f "$prefix/include/$header" || { echo "missing include/$header"; exit 1; }
done

echo "== the openaclnn tool"
listing=$("$prefix/bin/openaclnn" list SmoothL1LossBackward)
grep -q "gradInput" <<<"$listing" ||
  { echo "the installed openaclnn tool does not list SmoothL1LossBackward"; exit 1; }

echo "== CMake find_package(openaclnn)"
cmake -S "$source/tests/install/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$extra" -DSAMPLE_SOURCE="$sample" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/sample" 2>/dev/null | grep "$expect" >/dev/null
cmake -S "$source/tests/install/consumer" -B "$work/consumer_ops_nn" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$extra" -DSAMPLE_SOURCE="$ops_nn_sample" >/dev/null
cmake --build "$work/consumer_ops_nn" >/dev/null
"$work/consumer_ops_nn/sample" 2>/dev/null | grep "$ops_nn_expect" >/dev/null

echo "== plain link line: -lopapi -lnnopbase -lascendcl"
# shellcheck disable=SC2086
"$cxx" $extra "$sample" -I "$prefix/include" -L "$libdir" -lopapi -lnnopbase -lascendcl \
  -o "$work/plain"
LD_LIBRARY_PATH=$libdir "$work/plain" 2>/dev/null | grep "$expect" >/dev/null

echo "== ops-nn sample line: -I include -I include/aclnnop -lopapi_nn -lopapi_math -lascendcl -lnnopbase"
for source_file in "$sample" "$ops_nn_sample"; do
  # shellcheck disable=SC2086
  "$cxx" $extra "$source_file" -I "$prefix/include" -I "$prefix/include/aclnnop" -L "$libdir" \
    -lopapi_nn -lopapi_math -lascendcl -lnnopbase -o "$work/ops_nn"
  LD_LIBRARY_PATH=$libdir "$work/ops_nn" 2>/dev/null | grep -e "$expect" -e "$ops_nn_expect" >/dev/null
done

echo "== pkg-config openaclnn"
flags=$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs openaclnn)
# shellcheck disable=SC2086
"$cxx" $extra "$sample" $flags -o "$work/pkgconfig"
LD_LIBRARY_PATH=$libdir "$work/pkgconfig" 2>/dev/null | grep "$expect" >/dev/null
# shellcheck disable=SC2086
"$cxx" $extra "$ops_nn_sample" $flags -o "$work/pkgconfig_ops_nn"
LD_LIBRARY_PATH=$libdir "$work/pkgconfig_ops_nn" 2>/dev/null | grep "$ops_nn_expect" >/dev/null

seeds=$source/../shared/seeds
if [ -d "$seeds" ]; then
  for doc in "$seeds"/*.txt; do
    echo "== CANN document example, unchanged: $(basename "$doc")"
    sed -n '/^#include/,$p' "$doc" >"$work/seed.cpp"
    # shellcheck disable=SC2086
    "$cxx" $extra -w "$work/seed.cpp" -I "$prefix/include" -L "$libdir" -lopapi -lnnopbase \
      -lascendcl -o "$work/seed"
    # The program must end with a code, not a crash. (The pooling example passes an out-of-range
    # index, which openaclnn reports; the example then returns without releasing its tensors, so
    # leak detection is off for the examples: those leaks are theirs.)
    status=0
    ASAN_OPTIONS=detect_leaks=0 LD_LIBRARY_PATH=$libdir "$work/seed" >"$work/seed.out" 2>&1 ||
      status=$?
    if [ "$status" -ge 128 ]; then
      cat "$work/seed.out"
      echo "the example crashed (status $status)"
      exit 1
    fi
  done
fi
echo "install check passed"
