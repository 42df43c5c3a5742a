"""The scaled-tau supplement of docs/results/omcsl.md (§4d): OMCSL selected by histogram AUROC /
AUPRC with score_scale = tau against score_scale = 1 and against OCS1/OCS2, on the test AUROC
and AUPRC of the 25 splits of ``omcsl_table3_scaled``.

Per (stream, loss, column): the means over the splits, OMCSL(tau) − OMCSL(1) with the paired
t-test p, and OMCSL(tau) − the better of OCS1/OCS2 with its p; then how many of the 8 cells per
column OMCSL is ahead of both OCS1 and OCS2 with each scale. With a second database (the
``omcsl_table3`` run), the rows the two files share must be equal split by split.

    python tools/omcsl_scaled.py omcsl_scaled.sqlite [omcsl_table3.sqlite]
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from skewlearn.evaluation.stats import paired_ttest
from skewlearn.experiments.config import load_experiment
from skewlearn.experiments.store import experiment_rows

_EXPERIMENT = load_experiment("omcsl_table3_scaled")
DATASETS = [d.name for d in _EXPERIMENT.datasets]
COLUMNS = {"roc_auc": "AUROC", "pr_auc": "AUPRC"}


def load(db: str, experiment: str) -> dict:
    """``{(dataset, method): {repetition: metrics}}`` of ``experiment`` in ``db``."""
    out: dict = defaultdict(dict)
    for r in experiment_rows(db, experiment):
        out[(r["dataset"], r["method"])][r["repetition"]] = r["metrics"]
    return out


def _values(res: dict, ds: str, method: str, metric: str) -> np.ndarray:
    runs = res[(ds, method)]
    return np.array([runs[r][metric] for r in sorted(runs)])


def main(db: str, table3_db: str | None = None) -> None:
    res = load(db, "omcsl_table3_scaled")
    for ds in DATASETS:  # a lone experiment is read whatever its name: check what is in it
        for method in (e.name for e in _EXPERIMENT.estimators):
            if (ds, method) not in res:
                raise ValueError(
                    f"{db} holds no result of {method} on {ds}; give the database of "
                    "`skewlearn reproduce omcsl_table3_scaled` first (the omcsl_table3 "
                    "one, if any, second)."
                )
    if table3_db is not None:
        ref = load(table3_db, "omcsl_table3")
        shared = [k for k in res if k in ref]
        same = all(res[k] == ref[k] for k in shared)
        print(f"rows shared with {table3_db}: {len(shared)} (dataset, method) pairs, equal: {same}")
    for metric, col in COLUMNS.items():
        print(f"\n### test {col}, mean over 25 splits\n")
        print(
            "| stream | loss | OMCSL τ=1 | OMCSL τ | τ − 1 (p) | OCS1 | OCS2 "
            "| OMCSL τ − better OCS (p) |"
        )
        print("|---|---|---|---|---|---|---|---|")
        ahead = {"1": 0, "tau": 0}
        for ds in DATASETS:
            for loss in ("h", "l"):
                one = _values(res, ds, f"OMCSL-{col}-{loss}", metric)
                tau = _values(res, ds, f"OMCSL-{col}-{loss}-scaled", metric)
                ocs = {k: _values(res, ds, f"{k}-{loss}", metric) for k in ("OCS1", "OCS2")}
                best = max(ocs, key=lambda k: ocs[k].mean())
                ahead["1"] += one.mean() > max(v.mean() for v in ocs.values())
                ahead["tau"] += tau.mean() > max(v.mean() for v in ocs.values())
                vs_one, vs_best = paired_ttest(tau, one), paired_ttest(tau, ocs[best])
                print(
                    f"| {ds} | {loss} | {one.mean():.4f} | {tau.mean():.4f} "
                    f"| {vs_one.mean_diff:+.4f} ({vs_one.pvalue:.2g}) "
                    f"| {ocs['OCS1'].mean():.4f} | {ocs['OCS2'].mean():.4f} "
                    f"| {vs_best.mean_diff:+.4f} ({vs_best.pvalue:.2g}) |"
                )
        n = 2 * len(DATASETS)
        print(
            f"\nOMCSL ahead of OCS1 and OCS2 on {col}: τ = 1 in {ahead['1']} of {n} cells, "
            f"scaled τ in {ahead['tau']} of {n}"
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("db", help="database of `skewlearn reproduce omcsl_table3_scaled`")
    ap.add_argument("table3_db", nargs="?", help="database of the omcsl_table3 run (optional)")
    args = ap.parse_args()
    try:
        main(args.db, args.table3_db)
    except ValueError as err:
        ap.exit(2, f"{ap.prog}: error: {err}\n")
