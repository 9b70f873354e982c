#!/usr/bin/env bash
# Installs what openaclnn needs from Debian 12's archive (run as root).
#   scripts/install_deps.sh          build, examples and tests (PyTorch's C++ library is the tests'
#                                    extra oracle), and the Python package with its tests (Debian's
#                                    python3, pybind11, numpy, pytest, Hypothesis, PyTorch)
#   scripts/install_deps.sh --bench  also Google Benchmark, the benchmarks' harness, and nlohmann/json,
#                                    which writes their JSON summary
#   scripts/install_deps.sh --report the --bench packages and Debian's python3 with matplotlib,
#                                    which draw the performance report (scripts/perf_report.sh)
#   scripts/install_deps.sh --sanitize  also libclang-rt-14-dev, for the one header the fuzz
#                                    targets take from it (FuzzedDataProvider.h)
#   scripts/install_deps.sh --fuzz   also clang with libFuzzer (libclang-rt-14-dev) and its
#                                    OpenMP (libomp-14-dev): scripts/fuzz.sh
set -euo pipefail
# libopenblas0-pthread keeps PyTorch off the slow reference BLAS.
packages=(build-essential cmake pkg-config libgtest-dev libgmock-dev libhwy-dev libopenblas-dev
  libopenblas0-pthread libtorch-dev libdnnl-dev libcli11-dev
  python3-dev pybind11-dev python3-numpy python3-pytest python3-hypothesis python3-torch)
bench=(libbenchmark-dev nlohmann-json3-dev)
case "${1:-}" in
  --sanitize) packages+=(libclang-rt-14-dev) ;;
  --fuzz) packages+=(clang libclang-rt-14-dev libomp-14-dev) ;;
  --bench) packages+=("${bench[@]}") ;;
  --report) packages+=("${bench[@]}" python3 python3-matplotlib) ;;
esac
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
