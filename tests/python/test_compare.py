"""openaclnn.compare: the CLI's metrics and defaults on arrays, and the same report as
`openaclnn compare` prints for the same arrays (when the CLI is at hand: OPENACLNN_CLI)."""

import math
import os
import subprocess

import numpy as np
import pytest

import openaclnn


def test_identical_arrays_pass():
    x = np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6)
    r = openaclnn.compare(x, x.copy())
    assert r and r.passed and r.outside == 0 and r.count == 24
    assert r.max_abs_error == 0 and r.cosine_similarity == pytest.approx(1.0)
    assert (r.rtol, r.atol) == (1e-4, 1e-4) and not r.rtol_given and not r.atol_given


def test_statistics():
    e = np.array([[1.0, 2.0], [0.0, -4.0]], np.float32)
    a = np.array([[1.0, 2.5], [0.1, -4.0]], np.float32)
    r = openaclnn.compare(e, a, rtol=0.1, atol=0.0)
    assert not r and r.outside == 2
    assert r.max_abs_error == pytest.approx(0.5) and r.max_abs_index == (0, 1)
    assert r.max_rel_error == pytest.approx(0.25) and r.max_rel_index == (0, 1)
    assert r.relative_count == 3 and r.mean_rel_error == pytest.approx(0.25 / 3)
    assert [i for i, _, _ in r.first_outside] == [(0, 1), (1, 0)]
    dot = float(np.dot(e.ravel().astype(np.float64), a.ravel().astype(np.float64)))
    assert r.cosine_similarity == pytest.approx(
        dot / (np.linalg.norm(e.astype(np.float64)) * np.linalg.norm(a.astype(np.float64))))


def test_nan_and_inf():
    e = np.array([np.nan, np.inf, 1.0, np.nan], np.float32)
    a = np.array([np.nan, np.inf, np.nan, 1.0], np.float32)
    r = openaclnn.compare(e, a)
    assert r.nan_mismatches == 2 and r.inf_mismatches == 0 and r.outside == 2
    r = openaclnn.compare(np.array([np.inf], np.float32), np.array([-np.inf], np.float32))
    assert r.inf_mismatches == 1 and r.max_abs_index is None


def test_default_tolerance_is_the_looser_dtype():
    x = np.ones(4, np.float32)
    assert openaclnn.compare(x, x.astype(np.float16)).rtol == 1e-3
    assert openaclnn.compare(x, openaclnn.encode(x, "bf16"), dtype={"actual": "bf16"}).rtol == 4e-3
    r = openaclnn.compare(x, x, rtol=0.5)
    assert (r.rtol, r.atol) == (0.5, 0.5)  # atol follows the rtol given
    assert openaclnn.compare(x.astype(np.int32), x.astype(np.int64)).rtol == 0


def test_torch_and_lists():
    torch = pytest.importorskip("torch")
    x = torch.randn(3, 4)
    assert openaclnn.compare(x, x.to(torch.bfloat16)).actual_dtype == "bfloat16"
    assert openaclnn.compare([1, 2], np.array([1, 2], np.int32))  # a list: numpy's int64


def test_strided_arrays_compare_by_element():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert openaclnn.compare(x.T, np.ascontiguousarray(x.T))


def test_empty():
    r = openaclnn.compare(np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32))
    assert r and "nothing to compare" in repr(r)


def test_bad_input():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match="shapes differ"):
        openaclnn.compare(x, x.reshape(3, 2))
    with pytest.raises(ValueError, match="non-negative"):
        openaclnn.compare(x, x, rtol=-1)
    with pytest.raises(ValueError, match="finite"):
        openaclnn.compare(x, x, atol=math.inf)
    with pytest.raises(TypeError):
        openaclnn.compare(x, x, rtol="0.1")
    with pytest.raises(ValueError, match="cannot compare"):
        openaclnn.compare(x.astype(np.uint32), x.astype(np.uint32))


def test_repr_is_the_report():
    e = np.array([1.0, 2.0, 3.0], np.float32)
    text = repr(openaclnn.compare(e, e + np.float32(0.5), rtol=1e-4, atol=0))
    assert "max abs error:      0.5 at [0]" in text
    assert "FAIL: 3 of 3 elements outside rtol=0.0001 atol=0" in text
    assert "  [0] expected 1 actual 1.5" in text


@pytest.mark.skipif(not os.environ.get("OPENACLNN_CLI"), reason="OPENACLNN_CLI is not set")
@pytest.mark.parametrize("case", ["pass", "fail", "bf16"])
def test_same_report_as_the_cli(tmp_path, case):
    rng = np.random.default_rng(3)
    e = rng.normal(size=(4, 8)).astype(np.float32)
    a = (e + rng.normal(scale=1e-3, size=e.shape)).astype(np.float32)
    args, kwargs = [], {}
    if case == "fail":
        args, kwargs = ["--rtol", "1e-4", "--atol", "0"], {"rtol": 1e-4, "atol": 0}
    if case == "bf16":
        a = openaclnn.encode(a, "bf16")
        args, kwargs = ["--dtype", "actual=bf16"], {"dtype": {"actual": "bf16"}}
    np.save(tmp_path / "e.npy", e)
    np.save(tmp_path / "a.npy", a)
    cli = subprocess.run([os.environ["OPENACLNN_CLI"], "compare", str(tmp_path / "e.npy"),
                          str(tmp_path / "a.npy")] + args, capture_output=True, text=True)
    ours = openaclnn.compare(e, a, **kwargs)
    assert cli.returncode == (0 if ours else 1)
    cli_lines = cli.stdout.splitlines()[2:]  # after the two lines naming the files
    assert ours.report().splitlines()[2:] == cli_lines
