"""The bookkeeping of the benchmark scripts (no timing is asserted here)."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name):
    """benchmarks/<name>.py as a module (benchmarks/ on sys.path for its own imports)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location(
            f"_bench_{name}", ROOT / f"benchmarks/{name}.py"
        )
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return mod


def test_asls_extrapolates_svc_from_a_single_size():
    # the SVC budget can stop after the first size: one point, n^2 assumed (was IndexError)
    asls = _load("bench_asls")
    t, p = asls.power_law([(5_000, 2.0)], 50_000)
    assert p == 2.0
    assert t == pytest.approx(200.0)
    t, p = asls.power_law([(5_000, 2.0), (10_000, 6.0)], 20_000)
    assert p == pytest.approx(1.5849625, rel=1e-6)
    assert t == pytest.approx(6.0 * 2**p)
