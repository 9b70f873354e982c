#!/usr/bin/env bash
# Installs the Python package (cmake --install's python component) into a temporary prefix and
# runs an operator with the installed copy, from outside the build tree.
# Usage: check_install.sh BUILD_DIR PYTHON SITE_DIR (SITE_DIR: the package's place under the prefix)
set -euo pipefail
build=$(cd "$1" && pwd) python=$2 site=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --component python >/dev/null
test -f "$work/prefix/$site/openaclnn/__init__.py" || { echo "no $site/openaclnn installed"; exit 1; }
cd "$work"
PYTHONPATH="$work/prefix/$site" "$python" - "$work/prefix" <<'PYTHON'
import sys

import numpy as np

import openaclnn

assert openaclnn.__file__.startswith(sys.argv[1]), openaclnn.__file__
x = np.array([0.5, -3.0], np.float32)
loss = openaclnn.smooth_l1_loss(x, np.zeros_like(x), reduction="sum")
assert loss == np.float32(0.125 + 2.5), loss
print("installed openaclnn", openaclnn.__version__, "at", openaclnn.__file__)
PYTHON
