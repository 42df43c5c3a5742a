"""The OMCSL diagnostics that docs/results/omcsl.md runs (tools/omcsl_diagnostics.py,
tools/omcsl_saturation.py): bad arguments are usage errors, not tracebacks or empty runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["omcsl_diagnostics.py", "step", "nosuch", "3"], "invalid choice: 'nosuch'"),
        (["omcsl_diagnostics.py", "step", "flights", "0"], "expected a positive integer"),
        (["omcsl_saturation.py", "report", "0"], "expected a positive integer"),
        (["omcsl_saturation.py", "report", "-2"], "expected a positive integer"),
    ],
)
def test_bad_arguments_are_usage_errors(tmp_path, argv, message):
    """Session 24: an unknown dataset stopped with ``KeyError: 'nosuch'``, ``step flights 0``
    printed a table of empty rows (exit 0) and ``report 0`` an ``IndexError`` traceback."""
    done = subprocess.run(
        [sys.executable, str(TOOLS / argv[0]), *argv[1:]],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr[-500:]
    assert message in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
