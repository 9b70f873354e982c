"""openaclnn.info(): what this build is and what it uses on this machine, as `openaclnn info`."""

import dataclasses
from typing import Tuple

from . import _core


@dataclasses.dataclass(frozen=True)
class Info:
    version: str
    build_type: str
    simd: str  # the Highway target the kernels dispatch to ("scalar" under OPENACLNN_CPU_ISA)
    simd_targets: Tuple[str, ...]  # the targets this CPU supports, best first
    threads: int  # OPENACLNN_NUM_THREADS, else the cores
    gemm: str
    operators: int

    def __str__(self):
        return "\n".join([
            "openaclnn %s (%s build)" % (self.version, self.build_type),
            "SIMD targets: %s (Highway, supported by this CPU)" % " ".join(self.simd_targets),
            "SIMD path:    %s" % self.simd,
            "threads:      %d (OpenMP; OPENACLNN_NUM_THREADS or threads= sets it)" % self.threads,
            "GEMM library: %s" % self.gemm,
            "operators:    %d (openaclnn.ops())" % self.operators,
        ])


def info():
    """The version, build type, SIMD path and targets, thread count and GEMM library."""
    raw = _core.info()
    return Info(raw["version"], raw["build_type"], raw["simd"], tuple(raw["simd_targets"]),
                raw["threads"], raw["gemm"], len(_core.definitions()))
