"""Saturation of OMCSL's histogram measures on the Table 3 streams (docs/results/omcsl.md §4d).

The AUROC/AUPRC tables bin sigma(f / score_scale) into m = 100 bins. OMCSL's constant-step
learners are unregularised, so |f| grows with the stream; once |f| > 4.6 a score lands in the
first or last bin. Everything here runs on the splits of ``omcsl_table3`` (same rows, row order
and seeds as the engine's tasks), OMCSL's defaults (eta = 0.1, K = 9, gamma = 50, m = 100).

``report [REPEATS] [--unscaled]`` (default 3) — per stream and loss, on the training part of
splits 0..REPEATS-1 (``--unscaled``: the streams without the table's standardisation):

* OMCSL (selected by histogram AUPRC, score_scale = 1): the median |f| of its returned
  pre-update scores (the value its saturation warning names), the share of the K·n scores in
  the tables' end bins, and the largest bin-error bound of a learner's AUROC and AUPRC;
* its nine learners, each run alone (``CostSensitiveOGD(objective="weighted")``, exactly
  OMCSL's learner j): the online (prequential) histogram AUPRC at score_scale 1 and at the
  named scale, and the exact online average precision; the Spearman correlation of each
  histogram ranking with the exact one; and the test average precision of the learner each
  of the three ranks first (the learner that OMCSL's selection favours at the end of the
  stream), beside the best of the nine.

``scales`` — the score_scale of the pre-declared supplement ``omcsl_table3_scaled``
(docs/decisions.md, OMCSL, session 7): per (stream, loss, measure), the value the warning names
when OMCSL with score_scale = 1 learns split 0's training part; printed as the TOML
``by_dataset`` tables of the shipped file.

    PYTHONPATH=src python tools/omcsl_saturation.py report 3
    PYTHONPATH=src python tools/omcsl_saturation.py report 3 --unscaled
    PYTHONPATH=src python tools/omcsl_saturation.py scales
"""

from __future__ import annotations

import dataclasses
import sys
import time
import warnings

import numpy as np
from scipy.stats import spearmanr
from sklearn.metrics import average_precision_score

from skewlearn import OMCSL, CostSensitiveOGD
from skewlearn.evaluation.protocols import task_seed
from skewlearn.experiments.config import load_experiment
from skewlearn.experiments.runner import load_dataset
from skewlearn.metrics import HistogramPRAUC
from skewlearn.metrics.histogram import auprc_bin_error, auroc_bin_error

EXP = load_experiment("omcsl_table3")
SPECS = {d.name: d for d in EXP.datasets}
LOSSES = ("hinge", "logistic")
#: ``--unscaled``: the streams as loaded, without the experiment's standardisation.
UNSCALED = False


def _split(name: str, rep: int):
    spec = SPECS[name] if not UNSCALED else dataclasses.replace(SPECS[name], scale=False)
    X, y = load_dataset(spec)
    X, y = np.asarray(X, float), np.where(np.asarray(y) == 1, 1, -1)
    train, test = EXP.protocol.split(y, EXP.seed, name, rep, 0)
    return X[train], y[train], X[test], y[test], task_seed(EXP.seed, name, rep, 0)


def named_scale(Xtr, ytr, seed: int, measure: str, loss: str) -> tuple[float, OMCSL, np.ndarray]:
    """The score_scale OMCSL's saturation warning names (2 significant digits), the model and
    its returned scores; score_scale = 1 and the defaults of omcsl_table3."""
    clf = OMCSL(measure=measure, loss=loss, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        scores = clf.test_then_train(Xtr, ytr, classes=[-1, 1])
    return float(f"{np.median(np.abs(scores)):.2g}"), clf, scores


def report(reps: int) -> None:
    print(
        "| stream | loss | median \\|f\\| | end-bin share | AUROC bound | AUPRC bound "
        "| Spearman τ=1 | Spearman named τ | test AP of pick: τ=1 / named τ / exact "
        "| best of 9 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in SPECS:
        for loss in LOSSES:
            rows = []
            for rep in range(reps):
                Xtr, ytr, Xte, yte, seed = _split(name, rep)
                tau, clf, scores = named_scale(Xtr, ytr, seed, "auprc", loss)
                pos, neg = clf.pos_table_, clf.neg_table_
                ends = (pos[:, [0, -1]].sum() + neg[:, [0, -1]].sum()) / (pos.sum() + neg.sum())
                roc_b = max(auroc_bin_error(pos[j], neg[j]) for j in range(len(pos)))
                prc_b = max(auprc_bin_error(pos[j], neg[j]) for j in range(len(pos)))
                h1, h2, ex, test = [], [], [], []
                for c in clf.costs_:
                    est = CostSensitiveOGD(
                        objective="weighted", c_pos=c, c_neg=1 - c, loss=loss, eta=0.1
                    )
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        s = est.test_then_train(Xtr, ytr, classes=[-1, 1])
                    h1.append(HistogramPRAUC().update_many(ytr, s).get())
                    h2.append(HistogramPRAUC(scale=tau).update_many(ytr, s).get())
                    ex.append(average_precision_score(ytr == 1, s))
                    test.append(average_precision_score(yte == 1, est.decision_function(Xte)))
                test = np.array(test)
                rows.append(
                    [
                        np.median(np.abs(scores)),
                        ends,
                        roc_b,
                        prc_b,
                        spearmanr(h1, ex)[0],
                        spearmanr(h2, ex)[0],
                        test[np.argmax(h1)],
                        test[np.argmax(h2)],
                        test[np.argmax(ex)],
                        test.max(),
                    ]
                )
            m = np.mean(rows, axis=0)
            print(
                f"| {name} | {loss} | {m[0]:.3g} | {m[1]:.3f} | {m[2]:.3f} | {m[3]:.3f} "
                f"| {m[4]:.2f} | {m[5]:.2f} | {m[6]:.4f} / {m[7]:.4f} / {m[8]:.4f} | {m[9]:.4f} |"
            )
    data = "unscaled streams" if UNSCALED else "standardised streams (as in the table)"
    print(f"\nmeans over splits 0..{reps - 1} of omcsl_table3, {data}; eta = 0.1, K = 9, m = 100")


def scales() -> None:
    out: dict[str, dict[str, float]] = {}
    for name in SPECS:
        Xtr, ytr, _, _, seed = _split(name, 0)
        for loss in LOSSES:
            for measure in ("auroc", "auprc"):
                tau = named_scale(Xtr, ytr, seed, measure, loss)[0]
                out.setdefault(f"OMCSL-{measure.upper()}-{loss[0]}", {})[name] = tau
    for method, by in out.items():
        print(f"# {method}")
        for name, tau in by.items():
            print(f"by_dataset.{name} = {{params = {{score_scale = {tau!r}}}}}")
        print()


if __name__ == "__main__":
    import argparse

    from skewlearn.experiments.cli import positive_int

    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("report", help="saturation per stream and loss")
    p.add_argument("repeats", type=positive_int, nargs="?", default=3,
                   help="splits of omcsl_table3, from split 0 (default 3)")  # fmt: skip
    p.add_argument("--unscaled", action="store_true",
                   help="the streams without the table's standardisation")  # fmt: skip
    sub.add_parser("scales", help="the score_scale of the omcsl_table3_scaled supplement")
    args = ap.parse_args()
    UNSCALED = getattr(args, "unscaled", False)
    t0 = time.process_time()
    if args.command == "report":
        report(args.repeats)
    else:
        scales()
    print(f"({time.process_time() - t0:.1f} CPU-s)", file=sys.stderr)
