"""The tuned-C supplement of docs/results/nystrom.md (§2b) beside Table 2's fixed C = 100.

For G-mean, AUC and F1: each method's mean over the 50 folds with C tuned (Table 2's value in
brackets), multi-Nyström − Nyström with the paired t-test p over the folds, and how often
multi-Nyström is at or above Nyström; then the C the inner search chose, counted over the
folds. Both databases must hold the same folds (same seed and protocol).

    python tools/nystrom_tuned_c.py tuned_c.sqlite nystrom_table2.sqlite
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections import Counter, defaultdict

import numpy as np
from scipy.stats import ttest_rel

from skewlearn.experiments.config import load_experiment

_EXPERIMENT = load_experiment("nystrom_table2_tuned_c")
DATASETS = [d.name for d in _EXPERIMENT.datasets]
METHODS = [e.name for e in _EXPERIMENT.estimators]


def load(db: str) -> dict:
    """``{(dataset, method): {(repetition, fold): (params, metrics)}}``."""
    out: dict = defaultdict(dict)
    rows = sqlite3.connect(db).execute(
        "select dataset, method, repetition, fold, params, metrics from results"
    )
    for ds, method, rep, fold, params, metrics in rows:
        out[(ds, method)][(rep, fold)] = (json.loads(params), json.loads(metrics))
    return out


def main(tuned_db: str, fixed_db: str) -> None:
    tuned, fixed = load(tuned_db), load(fixed_db)
    for metric in ["gmean", "roc_auc", "f1"]:
        print(f"\n### {metric}: C tuned (Table 2's C = 100 in brackets)\n")
        print("| dataset | SVM | Nystrom | multi-Nystrom | multi - Nystrom (paired t p) |")
        print("|---|---|---|---|---|")
        at_or_above, significant = 0, Counter()
        for ds in DATASETS:
            folds = sorted(tuned[(ds, "Nystrom")])
            cells, values = [], {}
            for method in METHODS:
                t = np.array([tuned[(ds, method)][k][1][metric] for k in folds])
                f = np.array([fixed[(ds, method)][k][1][metric] for k in folds])
                values[method] = t
                cells.append(f"{t.mean():.3f} ({f.mean():.3f})")
            diff = values["multi-Nystrom"] - values["Nystrom"]
            p = ttest_rel(values["multi-Nystrom"], values["Nystrom"]).pvalue if diff.any() else 1.0
            at_or_above += values["multi-Nystrom"].mean() >= values["Nystrom"].mean()
            if p < 0.05:
                significant["better" if diff.mean() > 0 else "worse"] += 1
            cells.append(f"{diff.mean():+.4f} ({p:.2g})")
            print(f"| {ds} | " + " | ".join(cells) + " |")
        print(
            f"\nmulti >= Nystrom (mean {metric}): {at_or_above} of {len(DATASETS)}; "
            f"significantly better / worse: {significant['better']} / {significant['worse']}"
        )
    print("\n### chosen C (count over the folds)\n")
    print("| dataset | " + " | ".join(METHODS) + " |")
    print("|---|---|---|---|")
    for ds in DATASETS:
        row = []
        for method in METHODS:
            counts = Counter(v[0]["C"] for v in tuned[(ds, method)].values())
            row.append(", ".join(f"{c:g}: {n}" for c, n in sorted(counts.items())))
        print(f"| {ds} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main(*sys.argv[1:3])
