#!/usr/bin/env bash
# The main job: installs dependencies, builds openaclnn and runs every example program, then the
# command-line tool's golden-data workflow (examples/golden_data.sh) and the Python package's
# (examples/golden.py, on Debian's python3: PATH may put another python3 first).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
for example in build/examples/*; do
  [ -f "$example" ] && [ -x "$example" ] || continue
  echo "=== $(basename "$example")"
  "$example"
done
echo "=== golden_data.sh (the openaclnn command-line tool)"
bash examples/golden_data.sh build/tools/openaclnn
echo "=== golden.py (the Python package)"
PYTHONPATH=build/python /usr/bin/python3 examples/golden.py
