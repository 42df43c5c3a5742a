"""A real run — three skewlearn learners on three benchmark sets — reported and rendered.

The report is rendered by headless Chromium (Debian package ``chromium``, installed by
.ci/run); the screenshot must be non-blank and the page must hold its tables.
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap

import numpy as np
import pytest

from skewlearn.experiments import run_experiment
from skewlearn.experiments.report import build_reports, to_html

REAL = textwrap.dedent(
    """
    name = "three_by_three"
    seed = 11
    metrics = ["roc_auc", "gmean", "f1"]
    datasets = ["pima", "sonar", "heart"]
    scale = true
    reference = ["KOIL"]

    [protocol]
    kind = "kfold"
    n_splits = 3
    n_repeats = 1

    [[estimators]]
    name = "KOIL"
    class = "KOIL"
    params = {random_state = 0}

    [[estimators]]
    name = "AROW"
    class = "AROW"

    [[estimators]]
    name = "Perceptron"
    class = "Perceptron"
    """
)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.network_data
@pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium (Debian package chromium) is not installed"
)
def test_report_of_a_real_run_renders_in_chromium(tmp_path):
    spec = tmp_path / "real.toml"
    spec.write_text(REAL)
    db = tmp_path / "real.db"
    run_experiment(spec, db, n_jobs=1, progress=False)
    reports = build_reports(db)
    page = tmp_path / "report.html"
    page.write_text(to_html(reports))
    html = page.read_text()
    for name in ("pima", "sonar", "heart", "KOIL", "AROW", "Perceptron"):
        assert name in html
    flags = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]  # fmt: skip
    png = tmp_path / "shot.png"
    subprocess.run(
        [*flags, f"--screenshot={png}", "--window-size=1200,1600", page.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    dom = subprocess.run(
        [*flags, "--dump-dom", page.as_uri()],
        check=True, capture_output=True, text=True, timeout=120,
    ).stdout  # fmt: skip
    assert dom.count("<table>") >= 3 and "roc_auc" in dom and "<img" in dom
    from matplotlib.image import imread

    img = imread(png)[..., :3]
    assert img.shape[:2] == (1600, 1200)
    ink = np.mean(np.any(img < 0.9, axis=-1))  # share of non-white pixels
    assert 0.01 < ink < 0.9
