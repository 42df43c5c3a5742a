"""The multi-Nyström figure command: equal-total variants and the CD summary of a run."""

from __future__ import annotations

import numpy as np

from skewlearn.evaluation.stats import nemenyi_cd
from skewlearn.experiments import run_experiment
from skewlearn.experiments.nystrom_figures import cd_summary, make


def test_variants_have_equal_totals():
    one = make("Nystrom", 150, 30)
    multi = make("multi-Nystrom", 150, 30)
    assert (one.n_landmarks, one.rank, one.sampling, len(one.kernels)) == (150, 30, "uniform", 1)
    assert (multi.n_landmarks, multi.rank, multi.sampling) == (50, 10, "stratified")
    assert multi.kernels is None  # three Gaussians: 3 × 50 landmarks, 3 × 10 rank
    assert make("multi-Nystrom", 150).rank is None


def test_cd_summary_of_a_run(toy_file, tmp_path):
    db = tmp_path / "toy.sqlite"
    run_experiment(toy_file, db, n_jobs=1, progress=False)
    out = cd_summary(db, metrics=("roc_auc",))["roc_auc"]
    k, n = len(out["methods"]), len(out["datasets"])
    assert (k, n) == (3, 2)
    assert np.isclose(sum(out["ranks"].values()), k * (k + 1) / 2)
    assert out["cd"] == nemenyi_cd(3, 2)
    # the ranks are those of the per-dataset means
    scores = np.array(out["scores"])
    best = [out["methods"][i] for i in scores.argmax(axis=1)]
    assert all(out["ranks"][m] < k for m in best)
