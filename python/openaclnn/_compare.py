"""openaclnn.compare: the command-line tool's `compare` (the same code: the library's accuracy
statistics, the same default tolerances) on arrays."""

import dataclasses
import math
from typing import Optional, Tuple

from . import _arrays, _core, _dtypes

LISTED = 10  # how many elements outside the tolerance are listed, as the CLI lists them


def _number(value, fmt="%.6g"):
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return fmt % value


def _value(value):
    if math.isfinite(value) and abs(value) < 1e15 and value == math.floor(value):
        return _number(value, "%.0f")
    return _number(value, "%.9g")


def _at(index):
    return "[" + ", ".join(str(i) for i in index) + "]"


@dataclasses.dataclass(frozen=True)
class CompareResult:
    """The accuracy of `actual` against `expected`, element by element. True when it passes.

    An element passes when |actual - expected| <= atol + rtol * |expected|; NaN matches NaN and an
    infinity the same infinity (those elements take no part in the error statistics); any other
    NaN or infinity is a mismatch. Relative errors leave out elements whose expected value is 0;
    the cosine similarity is over the elements where both values are finite."""

    passed: bool
    shape: Tuple[int, ...]
    expected_dtype: str
    actual_dtype: str
    rtol: float
    atol: float
    rtol_given: bool
    atol_given: bool
    count: int
    finite_count: int
    max_abs_error: float
    max_abs_index: Optional[Tuple[int, ...]]  # None when no element is finite in both
    relative_count: int
    max_rel_error: float
    max_rel_index: Optional[Tuple[int, ...]]
    mean_rel_error: float
    cosine_similarity: float
    nan_mismatches: int
    inf_mismatches: int
    outside: int  # elements outside the tolerance, mismatches included
    first_outside: Tuple[Tuple[Tuple[int, ...], float, float], ...]  # (index, expected, actual)

    def __bool__(self):
        return self.passed

    def report(self):
        """The report as `openaclnn compare` prints it."""
        shape = _at(self.shape)
        lines = [
            "expected:           %s %s" % (self.expected_dtype, shape),
            "actual:             %s %s" % (self.actual_dtype, shape),
            "tolerance:          |actual - expected| <= atol + rtol * |expected|, rtol=%s%s "
            "atol=%s%s" % (_number(self.rtol), "" if self.rtol_given else " (default)",
                           _number(self.atol), "" if self.atol_given else " (default: the rtol)"),
            "elements:           %d" % self.count,
        ]
        if self.count == 0:
            return "\n".join(lines + ["PASS: the arrays are empty, nothing to compare"])
        if self.max_abs_index is not None:
            lines.append("max abs error:      %s at %s" %
                         (_number(self.max_abs_error), _at(self.max_abs_index)))
        else:
            lines.append("max abs error:      n/a (no element where both values are finite)")
        if self.max_rel_index is not None:
            lines.append("max rel error:      %s at %s" %
                         (_number(self.max_rel_error), _at(self.max_rel_index)))
            lines.append("mean rel error:     %s (over %d elements with finite values and "
                         "expected != 0)" % (_number(self.mean_rel_error), self.relative_count))
        else:
            lines.append("max rel error:      n/a (no element with finite values and expected "
                         "!= 0)")
            lines.append("mean rel error:     n/a")
        lines += [
            "cosine similarity:  %s" % _number(self.cosine_similarity, "%.9f"),
            "NaN mismatches:     %d" % self.nan_mismatches,
            "Inf mismatches:     %d" % self.inf_mismatches,
            "outside tolerance:  %d" % self.outside,
        ]
        if self.first_outside:
            lines.append("first %d outside tolerance:" % len(self.first_outside))
            lines += ["  %s expected %s actual %s" % (_at(i), _value(e), _value(a))
                      for i, e, a in self.first_outside]
        lines.append("%s: %d of %d elements outside rtol=%s atol=%s" %
                     ("PASS" if self.passed else "FAIL", self.outside, self.count,
                      _number(self.rtol), _number(self.atol)))
        return "\n".join(lines)

    def __repr__(self):
        return "<CompareResult\n%s>" % self.report()

    __str__ = report


def _tolerance(value, what):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("compare(): %s must be a number, got %r" % (what, value))
    if not math.isfinite(value) or value < 0:
        raise ValueError("compare(): %s must be finite and non-negative, got %r" % (what, value))
    return float(value)


def compare(expected, actual, rtol=None, atol=None, *, dtype=None):
    """Compares `actual` with `expected` (numpy arrays, torch tensors or anything numpy takes) of
    the same shape, element by element, as `openaclnn compare` does; returns a CompareResult.

    rtol defaults to the looser of the two dtypes' standards (CANN's accuracy standards: float32
    1e-4, float16 1e-3, bf16 4e-3, hifloat8/float8_e4m3fn 0.125, integers 0), atol to the rtol in
    effect. dtype= says what a numpy array of bit patterns holds: "bf16" for both, or
    {"actual": "bf16"} for one."""
    rtol = _tolerance(rtol, "rtol")
    atol = _tolerance(atol, "atol")
    declared = {}
    if isinstance(dtype, dict):
        for key, value in dtype.items():
            if key not in ("expected", "actual"):
                raise TypeError("compare(): dtype= keys are 'expected' and 'actual', got %r" %
                                (key,))
            declared[key] = _dtypes.code(value)
    elif dtype is not None:
        declared = {"expected": _dtypes.code(dtype), "actual": _dtypes.code(dtype)}
    e, e_code = _arrays.values(expected, "compare(): expected", declared.get("expected"))
    a, a_code = _arrays.values(actual, "compare(): actual", declared.get("actual"))
    if e.shape != a.shape:
        same = " (the same number of elements, but compare does not reshape)" \
            if e.size == a.size else ""
        raise ValueError("compare(): the shapes differ: expected %s %s, actual %s %s%s" %
                         (_dtypes.name(e_code), _at(e.shape), _dtypes.name(a_code), _at(a.shape),
                          same))
    stats = _core.compare(e, e_code, a, a_code, list(e.shape), rtol, atol, LISTED)
    return CompareResult(
        passed=stats["outside"] == 0, shape=tuple(e.shape), expected_dtype=_dtypes.name(e_code),
        actual_dtype=_dtypes.name(a_code), rtol=stats["rtol"], atol=stats["atol"],
        rtol_given=rtol is not None, atol_given=atol is not None, count=stats["count"],
        finite_count=stats["finite_count"], max_abs_error=stats["max_abs_error"],
        max_abs_index=stats["max_abs_index"], relative_count=stats["relative_count"],
        max_rel_error=stats["max_rel_error"], max_rel_index=stats["max_rel_index"],
        mean_rel_error=stats["mean_rel_error"], cosine_similarity=stats["cosine_similarity"],
        nan_mismatches=stats["nan_mismatches"], inf_mismatches=stats["inf_mismatches"],
        outside=stats["outside"], first_outside=tuple(stats["first_outside"]))
