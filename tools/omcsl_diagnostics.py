"""Two diagnostics behind docs/results/omcsl.md (session 3), on the splits of omcsl_table3.

``step DATASET REPEATS [LOSS]`` — does a smaller step size let OMCSL's learners reach OCS1?
For eta in {0.1, 0.03, 0.01, 0.003}: test average precision of OMCSL (selected by histogram
AUPRC), of its c+ = 0.55 learner and of the best / worst of its nine learners (each
``CostSensitiveOGD(objective="weighted")`` run alone), against OCS1 at its default eta = 0.1;
and whether the histogram AUPRC (m = 100 bins of sigma(f)) still ranks the nine learners as
the exact online average precision does (Spearman correlation, largest gap, share of
pre-update scores with sigma(f) in [0.45, 0.55]).

``opauc`` — why OPAUC with eta = 0.01 is unstable on flights and shuttle: rows with
eta * ||x||^2 > 2 (an OPAUC step multiplies w's component along x - c' by about
1 - eta * ||x - c'||^2), test AUROC and ||w|| at eta = 0.01, 0.001, 0.0001, and at 0.01
without the rows of ||x||^2 > 100.

    PYTHONPATH=src python tools/omcsl_diagnostics.py step flights 3
    PYTHONPATH=src python tools/omcsl_diagnostics.py step letter 5
    PYTHONPATH=src python tools/omcsl_diagnostics.py opauc
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.stats import spearmanr
from sklearn.metrics import average_precision_score, roc_auc_score

from skewlearn import OMCSL, OPAUC, CostSensitiveOGD
from skewlearn.evaluation.protocols import task_seed
from skewlearn.experiments.config import load_experiment
from skewlearn.experiments.runner import load_dataset
from skewlearn.metrics import HistogramPRAUC

EXP = load_experiment("omcsl_table3")
SPECS = {d.name: d for d in EXP.datasets}
COSTS = 1 - np.arange(1, 10) / 20  # OMCSL's K = 9 grid, c+ = 0.95 ... 0.55


def _data(name):
    X, y = load_dataset(SPECS[name])
    return np.asarray(X, float), np.where(np.asarray(y) == 1, 1, -1)


def step(name: str, reps: int, loss: str = "hinge") -> None:
    X, y = _data(name)
    etas = (0.1, 0.03, 0.01, 0.003)
    ocs1, acc = [], {eta: {} for eta in etas}
    for rep in range(reps):
        train, test = EXP.protocol.split(y, EXP.seed, name, rep, 0)
        seed = task_seed(EXP.seed, name, rep, 0)
        Xtr, ytr, Xte, yte = X[train], y[train], X[test], y[test]
        o1 = CostSensitiveOGD(objective="sum", variant="I", loss=loss).fit(Xtr, ytr)
        ocs1.append(average_precision_score(yte == 1, o1.decision_function(Xte)))
        for eta in etas:
            test_ap, online_ap, online_hist, central = [], [], [], []
            for c in COSTS:
                clf = CostSensitiveOGD(objective="weighted", c_pos=c, c_neg=1 - c, loss=loss,
                                       eta=eta)  # fmt: skip
                s = clf.test_then_train(Xtr, ytr, classes=[-1, 1])
                test_ap.append(average_precision_score(yte == 1, clf.decision_function(Xte)))
                online_ap.append(average_precision_score(ytr == 1, s))
                h = HistogramPRAUC(n_bins=100)
                h.update_many(ytr, s)
                online_hist.append(h.get())
                sig = 1 / (1 + np.exp(-np.clip(s, -50, 50)))
                central.append(np.mean(np.abs(sig - 0.5) < 0.05))
            om = OMCSL(measure="auprc", loss=loss, eta=eta, random_state=seed).fit(Xtr, ytr)
            row = {
                "OMCSL-AUPRC": average_precision_score(yte == 1, om.decision_function(Xte)),
                "c+=.55": test_ap[-1],
                "worst of 9": min(test_ap),
                "best of 9": max(test_ap),
                "rank corr hist vs exact online": spearmanr(online_hist, online_ap)[0],
                "max |hist - exact|": np.max(np.abs(np.subtract(online_hist, online_ap))),
                "hist spread": np.ptp(online_hist),
                "share sigma in [.45,.55]": np.mean(central),
            }
            for k, v in row.items():
                acc[eta].setdefault(k, []).append(v)
    print(f"{name} {loss}, {reps} splits: OCS1 (default eta = 0.1) test AP {np.mean(ocs1):.4f}")
    for eta in etas:
        print(f"  eta = {eta:<6}", "; ".join(f"{k} {np.mean(v):.4f}" for k, v in acc[eta].items()))


def opauc() -> None:
    for name, reps in (("flights", (0, 1, 2, 4)), ("shuttle", (0, 1, 2, 18))):
        X, y = _data(name)
        for rep in reps:
            tr, te = EXP.protocol.split(y, EXP.seed, name, rep, 0)
            sq = (X[tr] ** 2).sum(1)
            out = [f"{name} split {rep}: rows with 0.01 ||x||^2 > 2: {(0.01 * sq > 2).sum()}"]
            for eta in (0.01, 0.001, 0.0001):
                m = OPAUC(eta=eta).fit(X[tr], y[tr])
                auc = roc_auc_score(y[te], m.decision_function(X[te]))
                out.append(f"eta {eta}: AUROC {auc:.3f}, ||w|| {np.linalg.norm(m.coef_):.3g}")
            keep = tr[sq <= 100]
            m = OPAUC(eta=0.01).fit(X[keep], y[keep])
            auc = roc_auc_score(y[te], m.decision_function(X[te]))
            out.append(f"eta 0.01 without the {len(tr) - len(keep)} rows ||x||^2 > 100: {auc:.3f}")
            print(" | ".join(out), flush=True)


if __name__ == "__main__":
    from skewlearn.experiments.cli import positive_int

    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("step", help="does a smaller step size let OMCSL's learners reach OCS1?")
    p.add_argument("dataset", choices=list(SPECS))
    p.add_argument("repeats", type=positive_int, help="splits of omcsl_table3, from split 0")
    p.add_argument("loss", nargs="?", default="hinge", choices=["hinge", "logistic"])
    sub.add_parser("opauc", help="why OPAUC with eta = 0.01 is unstable on flights and shuttle")
    args = ap.parse_args()
    c0, t0 = time.process_time(), time.perf_counter()
    if args.command == "step":
        step(args.dataset, args.repeats, args.loss)
    else:
        opauc()
    print(f"CPU {time.process_time() - c0:.1f} s, wall {time.perf_counter() - t0:.1f} s")
