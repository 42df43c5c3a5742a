"""A supplement to Table 2 of docs/results/nystrom.md beside Table 2 itself: the tuned-C run
(§2b, ``nystrom_table2_tuned_c``) or the tuned-rank run (§2c, ``nystrom_table2_tuned_rank``).

For G-mean, AUC and F1: each method's mean over the 50 folds in the supplement (Table 2's value
in brackets), multi-Nyström − Nyström with the paired t-test p over the folds, and how often
multi-Nyström is at or above Nyström; then the value of each tuned parameter that the inner
search chose, counted over the folds. The experiment is read from the supplement's database;
both databases must hold the same folds (same seed and protocol).

    python tools/nystrom_supplement.py tuned_c.sqlite nystrom_table2.sqlite
    python tools/nystrom_supplement.py tuned_rank.sqlite nystrom_table2.sqlite
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

import numpy as np

from skewlearn.evaluation.stats import paired_ttest
from skewlearn.experiments.config import load_experiment
from skewlearn.experiments.store import experiment_rows


def load(db: str, experiment: str | None = None) -> tuple[str, dict]:
    """The experiment's name and ``{(dataset, method): {(repetition, fold): (params,
    metrics)}}`` (``experiment`` may be omitted when the database holds only one)."""
    out: dict = defaultdict(dict)
    rows = experiment_rows(db, experiment)
    for r in rows:
        out[(r["dataset"], r["method"])][(r["repetition"], r["fold"])] = (r["params"], r["metrics"])
    return (rows[0]["experiment"] if rows else experiment), out


#: The supplements this tool reads (their databases come first).
SUPPLEMENTS = ("nystrom_table2_tuned_c", "nystrom_table2_tuned_rank")


def main(tuned_db: str, fixed_db: str) -> None:
    name, tuned = load(tuned_db)
    if name not in SUPPLEMENTS:  # e.g. the two databases given the other way round
        raise ValueError(
            f"{tuned_db} holds the results of {name}, not of a supplement to Table 2 "
            f"({' or '.join(SUPPLEMENTS)}); give the supplement's database first and "
            "nystrom_table2's second."
        )
    _, fixed = load(fixed_db, "nystrom_table2")
    experiment = load_experiment(name)
    datasets = [d.name for d in experiment.datasets]
    methods = [e.name for e in experiment.estimators]
    for ds in datasets:  # every fold of the supplement, in both files
        folds = set(tuned.get((ds, "Nystrom"), ()))
        for method in methods:
            for db, res in ((tuned_db, tuned), (fixed_db, fixed)):
                if not folds or not folds <= set(res.get((ds, method), ())):
                    raise ValueError(
                        f"{db} holds no result of {method} on {ds} for the supplement's "
                        "folds; both databases must hold every fold of the supplement "
                        "(the same seed and protocol), the second being the database of "
                        "`skewlearn reproduce nystrom_table2`."
                    )
    tuned_params = sorted({k for e in experiment.estimators for k in e.grid})
    for metric in ["gmean", "roc_auc", "f1"]:
        print(f"\n### {metric}: {name} (Table 2 in brackets)\n")
        print("| dataset | " + " | ".join(methods) + " | multi - Nystrom (paired t p) |")
        print("|---" * (len(methods) + 2) + "|")
        at_or_above, significant = 0, Counter()
        for ds in datasets:
            folds = sorted(tuned[(ds, "Nystrom")])
            cells, values = [], {}
            for method in methods:
                t = np.array([tuned[(ds, method)][k][1][metric] for k in folds])
                f = np.array([fixed[(ds, method)][k][1][metric] for k in folds])
                values[method] = t
                cells.append(f"{t.mean():.3f} ({f.mean():.3f})")
            diff = values["multi-Nystrom"] - values["Nystrom"]
            p = paired_ttest(values["multi-Nystrom"], values["Nystrom"]).pvalue
            at_or_above += values["multi-Nystrom"].mean() >= values["Nystrom"].mean()
            if p < 0.05:
                significant["better" if diff.mean() > 0 else "worse"] += 1
            cells.append(f"{diff.mean():+.4f} ({p:.2g})")
            print(f"| {ds} | " + " | ".join(cells) + " |")
        print(
            f"\nmulti >= Nystrom (mean {metric}): {at_or_above} of {len(datasets)}; "
            f"significantly better / worse: {significant['better']} / {significant['worse']}"
        )
    for param in tuned_params:
        print(f"\n### chosen {param} (count over the folds)\n")
        print("| dataset | " + " | ".join(methods) + " |")
        print("|---" * (len(methods) + 1) + "|")
        for ds in datasets:
            row = []
            for method in methods:
                counts = Counter(v[0][param] for v in tuned[(ds, method)].values())
                row.append(", ".join(f"{c:g}: {n}" for c, n in sorted(counts.items())))
            print(f"| {ds} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("supplement_db", help="database of the tuned-C or tuned-rank run")
    ap.add_argument("table2_db", help="database of `skewlearn reproduce nystrom_table2`")
    args = ap.parse_args()
    try:
        main(args.supplement_db, args.table2_db)
    except ValueError as err:
        ap.exit(2, f"{ap.prog}: error: {err}\n")
