"""The step-size check on real data (docs/decisions.md, session 6): what the learners whose
step can overshoot do at their defaults, and at the step size their warning names.

For OGD(loss="squared") at four settings and OPAUC at its default, on standardised flights,
shuttle, letter, satimage, pima and yeast4 (one random 4/5-1/5 split, seed 1): the
number of unstable steps (``stability_[0]``), the largest pre-update |score| (over the whole
stream and its second half), the final ||w||, the test AUROC, and the same at the named eta.

    PYTHONPATH=src python tools/step_stability.py
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.metrics import roc_auc_score

from skewlearn import OGD, OPAUC
from skewlearn._stability import _round_down
from skewlearn.datasets import load

DATASETS = ["flights", "shuttle", "letter", "satimage", "pima", "yeast4"]
SETTINGS = [
    ("OGD squared, eta 1, eta/sqrt(t) (defaults)", lambda eta=1.0: OGD(loss="squared", eta=eta)),
    ("OGD squared, eta 0.1, eta/sqrt(t)", lambda eta=0.1: OGD(loss="squared", eta=eta)),
    (
        "OGD squared, eta 0.01 constant",
        lambda eta=0.01: OGD(loss="squared", eta=eta, schedule="constant"),
    ),
    ("OPAUC, eta 0.01 (default)", lambda eta=0.01: OPAUC(eta=eta)),
]


def _run(make, eta, X, y, tr, te):
    clf = make(eta)
    try:
        scores = clf.test_then_train(X[tr], y[tr])
    except ValueError:  # overflowed to inf/NaN: the estimator refused the model
        return "overflow (ValueError)", clf
    auc = roc_auc_score(y[te], clf.decision_function(X[te]))
    half = np.abs(scores[len(scores) // 2 :]).max()
    return (
        f"unstable {int(clf.stability_[0]):6d}  max|f| {np.abs(scores).max():9.3g}  "
        f"late max|f| {half:9.3g}  |w| {np.linalg.norm(clf.coef_):9.3g}  AUROC {auc:.4f}"
    ), clf


def main() -> None:
    warnings.simplefilter("ignore", RuntimeWarning)
    for name in DATASETS:
        X, y, _ = load(name, scale="standard")
        idx = np.random.default_rng(1).permutation(len(y))
        tr, te = idx[: int(0.8 * len(y))], idx[int(0.8 * len(y)) :]
        for label, make in SETTINGS:
            eta = make().eta
            text, clf = _run(make, eta, X, y, tr, te)
            print(f"{name:9s} {label:44s} {text}")
            if hasattr(clf, "stability_") and clf.stability_[0] > 0:
                safe = _round_down(2.0 * eta / clf.stability_[1])
                text, _ = _run(make, safe, X, y, tr, te)
                label = f"  ... at the named eta = {safe:.3g}"
                print(f"{'':9s} {label:44s} {text}")


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    main()
