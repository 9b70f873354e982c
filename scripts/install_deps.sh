#!/usr/bin/env bash
# Installs what openaclnn needs from Debian 12's archive (run as root).
#   scripts/install_deps.sh          build, examples and tests
#   scripts/install_deps.sh --bench  also Google Benchmark, OpenBLAS and PyTorch's C++ library,
#                                    the side-by-side peer of the benchmarks
set -euo pipefail
packages=(build-essential cmake pkg-config libgtest-dev libgmock-dev)
if [ "${1:-}" = "--bench" ]; then
  # libopenblas0-pthread keeps PyTorch off the slow reference BLAS.
  packages+=(libbenchmark-dev libopenblas-dev libopenblas0-pthread libtorch-dev)
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
