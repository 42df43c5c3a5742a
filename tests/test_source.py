"""Checks over the source tree that no single module's tests would make."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_text_file_is_opened_with_an_explicit_encoding():
    """Text files opened with the locale's encoding break under an ASCII or cp1252 locale
    (a TOML with an accented name, a report's own "χ²_F"): every ``open``, ``read_text``
    and ``write_text`` in text mode names its encoding. Ruff's PLW1514 finds them (a
    preview rule, so it runs here rather than in the project's ruff selection); it sees
    ``open`` and ``Path(...).read_text`` but not a path it cannot type, such as pytest's
    ``tmp_path / "f"``, which tests may write in the default encoding."""
    dirs = [str(ROOT / d) for d in ("src", "tests", "benchmarks", "tools")]
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--preview", "--select", "PLW1514",
         "--output-format", "concise", "--no-cache", *dirs],
        capture_output=True, text=True, encoding="utf-8", check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
