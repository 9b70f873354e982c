#!/usr/bin/python3
"""Golden data for an NPU operator test, in Python: numpy inputs -> openaclnn's result for
aclnnSmoothL1LossBackward (float32, the golden) -> the bfloat16 result a device would give, and a
perturbed copy, each checked against the golden as `openaclnn compare` checks them.

Run with Debian's python3 and the package on the path:
    PYTHONPATH=build/python /usr/bin/python3 examples/golden.py
"""

import os
import sys
import tempfile

import numpy as np

import openaclnn

rng = np.random.default_rng(2024)
grad_output = np.ones((), np.float32)  # 0-d: broadcast over the loss terms
x = rng.normal(size=(4, 8)).astype(np.float32)
y = rng.normal(size=(4, 8)).astype(np.float32)

golden = openaclnn.smooth_l1_loss_backward(grad_output, x, y, reduction="none", beta=0.5)
with tempfile.TemporaryDirectory() as directory:
    path = os.path.join(directory, "golden.npy")
    np.save(path, golden)  # what `openaclnn run ... --out gradInput=golden.npy` writes
    golden = np.load(path)
print("golden gradInput:", golden.dtype, list(golden.shape))

# What a bfloat16 device run gives: bf16 outputs of numpy calls are uint16 bit patterns.
device = openaclnn.smooth_l1_loss_backward(grad_output, x, y, reduction="none", beta=0.5,
                                           dtype="bf16")
result = openaclnn.compare(golden, device, dtype={"actual": "bf16"})
print(result)
assert result, "the bf16 result is within bf16's tolerance"

# A result off by 1e-3 everywhere fails float32's default tolerance (1e-4).
perturbed = golden + np.float32(1e-3)
result = openaclnn.compare(golden, perturbed)
print(result)
assert not result and result.outside == golden.size

# The library's rejection of a bad call, with CANN's code and the library's message (which the
# library also logs on stderr, as CANN does).
sys.stdout.flush()
try:
    openaclnn.smooth_l1_loss_backward(grad_output, x, y.astype(np.int32))
except openaclnn.Error as error:
    print("rejected as expected:", error.code, error.message)
    sys.exit(0)
sys.exit("an int32 target was accepted")
