#!/usr/bin/env bash
# Installs what openaclnn needs from Debian 12's archive (run as root).
#   scripts/install_deps.sh          build, examples and tests (PyTorch's C++ library is the tests'
#                                    extra oracle)
#   scripts/install_deps.sh --bench  also Google Benchmark, the benchmarks' harness
set -euo pipefail
# libopenblas0-pthread keeps PyTorch off the slow reference BLAS.
packages=(build-essential cmake pkg-config libgtest-dev libgmock-dev libhwy-dev libopenblas-dev
  libopenblas0-pthread libtorch-dev libdnnl-dev)
if [ "${1:-}" = "--bench" ]; then
  packages+=(libbenchmark-dev)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi
