"""The documentation that is generated from the code is current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from skewlearn._discovery import all_estimators

ROOT = Path(__file__).resolve().parents[1]


def test_algorithms_md_is_current():
    """docs/algorithms.md equals what tools/gen_algorithms_md.py renders from the docstrings."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_algorithms_md.py"), "--check"],
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, "run: python tools/gen_algorithms_md.py"


def test_algorithms_md_names_every_estimator():
    text = (ROOT / "docs" / "algorithms.md").read_text(encoding="utf-8")
    missing = [name for name in all_estimators() if f"`{name}`" not in text]
    assert not missing


def test_every_estimator_cites_its_paper():
    """numpydoc References with a [1] entry, as STYLE.md asks."""
    missing = [n for n, c in all_estimators().items() if ".. [1]" not in (c.__doc__ or "")]
    assert not missing
