"""Figures of the multi-Nyström reproduction (seed 003, Figs. 2–5) from one command.

``python -m skewlearn.experiments.nystrom_figures --db nystrom_table2.sqlite --out DIR``

* **CD diagram** (Fig. 5): average ranks over the datasets of ``--db`` (the results of
  ``skewlearn reproduce nystrom_table2``) per metric, Friedman test, Nemenyi critical
  difference (:mod:`skewlearn.evaluation.stats`); ``nystrom_cd_<metric>.png``.
* **G-mean against the number of landmarks** (Fig. 2): Nyström + linear SVM with ``m``
  uniform landmarks against multi-Nyström with 3 class-stratified subsets of ``m/3``
  (equal total) at a fixed total rank (``--landmark-rank``, default 30: Nyström rank 30,
  multi-Nyström rank 10 per subset; the paper fixes the rank and increases the landmarks;
  ``0`` = full rank); ``nystrom_landmarks.png``, and for each ``m`` the number of datasets
  on which multi-Nyström's mean G-mean is at or above Nyström's.
* **G-mean against the rank** (Fig. 3): 150 landmarks in total as in the table; Nyström of
  rank ``r`` against multi-Nyström of rank ``r/3`` per subset (equal total rank);
  ``nystrom_rank.png``.
* **Ablation** (not in the paper): uniform against stratified landmarks, one kernel against
  three, learned μ against μ = 1/3, 150 landmarks in total each (JSON summary only).
* **Training time against MKSVM** (Fig. 4): multi-Nyström (the table's setting) and
  SimpleMKL on full kernels on growing stratified subsets; CPU seconds of ``fit`` (median
  of ``--time-repeats`` fits after an untimed warm-up); ``nystrom_time.png``.

The sweeps use the table's protocol: ``--repeats`` repetitions of stratified
``--splits``-fold CV (default 10 × 5, the paper's; fewer repetitions are a cut, printed) on
the table's eight datasets, with the same folds and per-task seeds as the runner
(:class:`skewlearn.evaluation.protocols.KFold`), C = 100, balanced costs.
A JSON summary of every number goes to ``DIR/nystrom_figures.json`` (standard JSON: an
undefined or infinite value, such as F_F = ∞ when every dataset ranks the methods alike, is
``null``); parts run separately (``--only``) are merged into it, each with its own protocol
under ``protocol.parts``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._docs import first_line
from .._json import dumps

if TYPE_CHECKING:
    from ..batch.mkl import MultiNystroemMKL

__all__ = ["ablation", "at_or_above", "cd_summary", "main", "paired_counts", "sweep", "timing"]

C = 100.0
KINDS = ("Nystrom", "multi-Nystrom")
#: Landmarks in total of the rank sweep (Fig. 3): Table 2's 150.
RANK_LANDMARKS = 150


def _data(name: str):
    from .. import datasets

    X, y, _ = datasets.load(name, scale=True)
    y = np.asarray(y)
    values, counts = np.unique(y, return_counts=True)
    return X, np.where(y == values[np.argmin(counts)], 1, -1)


def make(kind: str, landmarks: int, rank: int | None = None, seed: int = 0) -> MultiNystroemMKL:
    """Nyström + linear SVM (``m`` uniform landmarks, rank ``r``) or multi-Nyström
    (3 stratified subsets of ``m/3``, rank ``r/3`` each): equal totals."""
    from .. import MultiNystroemMKL

    if kind == "Nystrom":
        return MultiNystroemMKL(
            kernels=[{}], n_landmarks=landmarks, rank=rank, sampling="uniform", C=C,
            random_state=seed,
        )  # fmt: skip
    return MultiNystroemMKL(
        n_landmarks=max(landmarks // 3, 1),
        rank=None if rank is None else max(rank // 3, 1),
        sampling="stratified",
        C=C,
        random_state=seed,
    )


def sweep(
    datasets: Sequence[str],
    param: str,
    values: Sequence[int],
    *,
    landmarks: int = 150,
    rank: int | None = None,
    splits: int = 5,
    repeats: int = 1,
    seed: int = 2020,
) -> dict:
    """Test G-mean over repeated stratified k-fold: ``{dataset: {kind: [mean per value]}}``
    and, under ``"_folds"``, the per-fold values ``{dataset: {kind: [[per fold] per value]}}``.
    ``param`` is ``"landmarks"`` (total rank ``rank``, ``None`` = full rank) or ``"rank"``
    (``landmarks`` in total)."""
    from ..evaluation.protocols import KFold, task_seed
    from ..metrics import gmean

    protocol = KFold(n_splits=splits, n_repeats=repeats)
    out: dict = {"_folds": {}}
    for name in datasets:
        X, y = _data(name)
        res = {k: np.zeros((len(values), repeats * splits)) for k in KINDS}
        for rep in range(repeats):
            for fold in range(splits):
                tr, te = protocol.split(y, seed, name, rep, fold)
                s = task_seed(seed, name, rep, fold)
                for i, v in enumerate(values):
                    for kind in KINDS:
                        m, r = (v, rank) if param == "landmarks" else (landmarks, v)
                        est = make(kind, m, r, seed=s).fit(X[tr], y[tr])
                        res[kind][i, rep * splits + fold] = gmean(y[te], est.predict(X[te]))
        out[name] = {k: res[k].mean(axis=1).tolist() for k in KINDS}
        out["_folds"][name] = {k: res[k].tolist() for k in KINDS}
        print(f"{param} sweep {name}: " + "; ".join(
            f"{k} " + " ".join(f"{x:.3f}" for x in out[name][k]) for k in KINDS
        ), flush=True)  # fmt: skip
    return out


def at_or_above(res: dict) -> list[list[str]]:
    """Per swept value, the datasets on which multi-Nyström's mean G-mean is at or above
    Nyström's (check (a) of issue 6)."""
    n = len(next(iter(res.values()))["Nystrom"])
    return [
        [d for d, per in res.items() if per["multi-Nystrom"][i] >= per["Nystrom"][i]]
        for i in range(n)
    ]


def paired_counts(folds: dict, alpha: float = 0.05) -> list[dict]:
    """Per swept value, the datasets where multi-Nyström is significantly better or worse
    than Nyström: a paired t-test over the folds (same splits for both) at level ``alpha``.
    ``folds`` is ``sweep(...)["_folds"]``."""
    from ..evaluation.stats import paired_ttest

    n = len(next(iter(folds.values()))["Nystrom"])
    out = []
    for i in range(n):
        better, worse = [], []
        for d, per in folds.items():
            a, b = np.asarray(per["multi-Nystrom"][i]), np.asarray(per["Nystrom"][i])
            if np.allclose(a, b):
                continue
            verdict = paired_ttest(a, b).significant(alpha)
            if verdict:
                (better if verdict > 0 else worse).append(d)
        out.append({"better": better, "worse": worse})
    return out


#: The ablation's variants: 150 landmarks in total each.
ABLATION: dict[str, dict[str, Any]] = {
    "Nystrom uniform": {"kernels": [{}], "n_landmarks": 150, "sampling": "uniform"},
    "Nystrom stratified": {"kernels": [{}], "n_landmarks": 150, "sampling": "stratified"},
    "multi uniform, MKL": {"n_landmarks": 50, "sampling": "uniform"},
    "multi stratified, mu=1/3": {"n_landmarks": 50, "sampling": "stratified", "max_iter": 1},
    "multi stratified, MKL": {"n_landmarks": 50, "sampling": "stratified"},
}


def ablation(
    datasets: Sequence[str], *, splits: int = 5, repeats: int = 1, seed: int = 2020
) -> dict:
    """Mean test G-mean and AUC, and the mean learned μ, of the :data:`ABLATION` variants:
    what the landmark sampling and the learned weights each contribute."""
    from .. import MultiNystroemMKL
    from ..evaluation.protocols import KFold, task_seed
    from ..metrics import gmean, roc_auc

    protocol = KFold(n_splits=splits, n_repeats=repeats)
    out: dict = {}
    for name in datasets:
        X, y = _data(name)
        res: dict = {v: {"gmean": [], "roc_auc": [], "mu": []} for v in ABLATION}
        for rep in range(repeats):
            for fold in range(splits):
                tr, te = protocol.split(y, seed, name, rep, fold)
                s = task_seed(seed, name, rep, fold)
                for v, params in ABLATION.items():
                    est = MultiNystroemMKL(C=C, random_state=s, **params).fit(X[tr], y[tr])
                    res[v]["gmean"].append(gmean(y[te], est.predict(X[te])))
                    res[v]["roc_auc"].append(roc_auc(y[te], est.decision_function(X[te])))
                    res[v]["mu"].append(est.mu_.tolist())
        out[name] = {v: {k: np.mean(r[k], axis=0).tolist() for k in r} for v, r in res.items()}
        for v, r in out[name].items():
            print(f"ablation {name:15s} {v:26s} G-mean {r['gmean']:.3f} AUC {r['roc_auc']:.3f} "
                  f"mu {np.round(r['mu'], 2).tolist()}", flush=True)  # fmt: skip
    return out


def timing(
    datasets: Sequence[str], sizes: Sequence[int], seed: int = 2020, repeats: int = 3
) -> dict:
    """CPU and wall seconds of ``fit`` of multi-Nyström (the table's setting) and SimpleMKL
    on stratified subsets of each size ``{dataset: {method: [(n, cpu, wall), ...]}}``: the
    median of ``repeats`` fits of the same subset (the same work each time), after one
    untimed warm-up fit per method (numba's compiled kernels load on the first call)."""
    from .. import SimpleMKL

    def fresh(method):
        return make("multi", 150, seed=0) if method == "multi-Nystrom" else SimpleMKL(C=C)

    out: dict = {}
    warm = False
    for name in datasets:
        X, y = _data(name)
        rng = np.random.default_rng(seed)
        pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == -1)
        rows: dict = {"multi-Nystrom": [], "MKSVM": []}
        for n in sizes:
            if n > len(y):
                continue
            k = max(round(n * len(pos) / len(y)), 2)
            idx = np.r_[rng.choice(pos, k, replace=False), rng.choice(neg, n - k, replace=False)]
            for method in rows:
                if not warm:
                    fresh(method).fit(X[idx], y[idx])
                cpu, wall = [], []
                for _ in range(repeats):
                    est = fresh(method)
                    c0, w0 = time.process_time(), time.perf_counter()
                    est.fit(X[idx], y[idx])
                    cpu.append(time.process_time() - c0)
                    wall.append(time.perf_counter() - w0)
                rows[method].append((n, float(np.median(cpu)), float(np.median(wall))))
            warm = True
        out[name] = rows
        print(f"time {name}: {rows}", flush=True)
    return out


def cd_summary(
    db: str | Path,
    metrics: Sequence[str] = ("gmean", "f1", "roc_auc"),
    experiment: str = "nystrom_table2",
) -> dict:
    """Per metric: methods, datasets, mean scores, average ranks, Friedman and Nemenyi CD.

    Reads the rows of ``experiment`` only (:func:`~skewlearn.experiments.store.experiment_rows`).
    The ranks need every method on every dataset, so a dataset where some method has no
    finite result is left out and listed under ``"incomplete"``; fewer than 2 complete
    datasets, or fewer than 2 methods, is a ``ValueError``."""
    from ..evaluation.stats import friedman_test, nemenyi_cd
    from .store import experiment_rows

    rows = experiment_rows(db, experiment)
    out = {}
    for metric in metrics:
        table: dict = {}
        for r in rows:
            v = r["metrics"].get(metric)
            if v is not None and math.isfinite(v):
                table.setdefault(r["dataset"], {}).setdefault(r["method"], []).append(v)
        methods = sorted({m for d in table.values() for m in d})
        datasets = sorted(d for d in table if set(table[d]) == set(methods))
        incomplete = sorted(set(table) - set(datasets))
        if len(methods) < 2 or len(datasets) < 2:
            raise ValueError(
                f"{metric}: the Friedman test and the CD diagram need at least 2 methods and 2 "
                f"datasets where every method has results; {db} has {len(methods)} method(s) "
                f"and {len(datasets)} such dataset(s) (incomplete: {incomplete or 'none'})."
            )
        scores = np.array([[np.mean(table[d][m]) for m in methods] for d in datasets])
        fr = friedman_test(scores)
        out[metric] = {
            "methods": methods,
            "datasets": datasets,
            "incomplete": incomplete,
            "scores": scores.tolist(),
            "runs": {d: {m: len(table[d][m]) for m in methods} for d in datasets},
            "ranks": dict(zip(methods, np.asarray(fr.ranks).tolist())),
            "friedman_chi2": fr.chi2,
            "friedman_p": fr.pvalue,
            "iman_davenport_F": fr.f_stat,
            "iman_davenport_p": fr.f_pvalue,
            "cd": nemenyi_cd(len(methods), len(datasets)),
        }
    return out


def _line_figure(curves: dict, xs: Sequence[int], xlabel: str, ylabel: str, title: str):
    from .plots import _figure

    n = len(curves)
    cols = min(n, 4)
    rows = -(-n // cols)
    fig = _figure(figsize=(3.0 * cols, 2.5 * rows))
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    for ax, (name, per) in zip(axes, curves.items()):
        for kind, style in zip(per, ("o--", "s-")):
            ax.plot(xs, per[kind], style, label=kind, ms=4)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in axes[n:]:
        ax.axis("off")
    axes[0].legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    return fig


def _time_figure(times: dict):
    from .plots import _figure

    fig = _figure(figsize=(3.2 * len(times), 2.8))
    axes = np.atleast_1d(fig.subplots(1, len(times), squeeze=False)).ravel()
    for ax, (name, rows) in zip(axes, times.items()):
        for method, style in zip(rows, ("s-", "o--")):
            n, cpu, _ = zip(*rows[method])
            ax.loglog(n, cpu, style, label=method, ms=4)
        sizes = sorted({r[0] for rs in rows.values() for r in rs})
        ax.set_xticks(sizes, [str(v) for v in sizes], minor=False)
        ax.set_xticks([], minor=True)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("training rows", fontsize=8)
        ax.set_ylabel("fit CPU seconds", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def _save(fig, path: Path) -> None:
    fig.savefig(path, dpi=80, bbox_inches="tight")
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


def _sweep_summary(res: dict, values: Sequence[int], label: str) -> dict:
    """The JSON entry of a G-mean sweep (Fig. 2 or 3): its mean G-means, per-fold values,
    the datasets where multi-Nyström is at or above Nyström and the paired t-test counts at
    each value, which are also printed (``label`` formats a value, e.g. ``"{} landmarks"``)."""
    folds = res.pop("_folds")
    wins = at_or_above(res)
    paired = paired_counts(folds)
    for v, w, p in zip(values, wins, paired):
        print(f"{label.format(v)}: multi-Nystrom >= Nystrom in mean G-mean on "
              f"{len(w)} of {len(res)} datasets {w}; significantly better on "
              f"{p['better']}, worse on {p['worse']} (paired t, 95 %)")  # fmt: skip
    return {
        "values": list(values),
        "gmean": res,
        "folds": folds,
        "multi_at_or_above": wins,
        "paired": paired,
    }


def _dataset_problem(flag: str, names: Sequence[str]) -> str | None:
    """Why a dataset of ``names`` cannot be loaded (misspelt, not a file), or None."""
    from .cli import unknown_dataset

    return unknown_dataset(flag, names)


def _at_least(low: int):
    """argparse's type: an integer ``>= low``."""
    from .cli import _int

    def check(text: str) -> int:
        n = _int(text)
        if n < low:
            raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {text!r}")
        return n

    return check


def main(argv: Sequence[str] | None = None) -> int:
    from .cli import DefaultsHelpFormatter, positive_int
    from .config import load_experiment

    table = load_experiment("nystrom_table2")  # the sweeps' defaults are the table's protocol
    ap = argparse.ArgumentParser(prog="python -m skewlearn.experiments.nystrom_figures",
                                 description=first_line(__doc__),
                                 formatter_class=DefaultsHelpFormatter)  # fmt: skip
    ap.add_argument("--db", help="results of `skewlearn reproduce nystrom_table2` (CD diagram)")
    ap.add_argument("--out", default=".", help="folder of the PNG files and the JSON summary")
    ap.add_argument("--datasets", nargs="+", default=[d.name for d in table.datasets],
                    help="datasets of the sweeps (those of nystrom_table2)")  # fmt: skip
    ap.add_argument("--landmarks", nargs="+", type=positive_int, default=[30, 60, 150, 300, 600],
                    help="landmark counts of the landmark sweep (Fig. 2)")  # fmt: skip
    ap.add_argument("--landmark-rank", type=_at_least(0), default=30,
                    help="total rank of the landmark sweep (Fig. 2); 0 = full rank")  # fmt: skip
    ap.add_argument("--ranks", nargs="+", type=positive_int, default=[6, 15, 30, 75, 150],
                    help="total ranks of the rank sweep (Fig. 3)")  # fmt: skip
    ap.add_argument("--time-datasets", nargs="+", default=["page-blocks0", "abalone19"],
                    help="datasets of the timing study (Fig. 4)")  # fmt: skip
    ap.add_argument("--sizes", nargs="+", type=positive_int, default=[500, 1000, 2000, 4000],
                    help="training-set sizes of the timing study (Fig. 4)")  # fmt: skip
    ap.add_argument("--time-repeats", type=positive_int, default=3,
                    help="timed fits per point of Fig. 4 (the median is plotted)")  # fmt: skip
    ap.add_argument("--splits", type=_at_least(2), default=table.protocol.n_splits,
                    help="folds of the sweeps' stratified CV")  # fmt: skip
    ap.add_argument("--repeats", type=positive_int, default=table.protocol.n_repeats,
                    help="CV repetitions of the sweeps (the paper's 10; fewer: a cut)")  # fmt: skip
    ap.add_argument("--only", nargs="+",
                    choices=["cd", "landmarks", "rank", "time", "ablation"],
                    help="run only these parts (default: all)")  # fmt: skip
    args = ap.parse_args(argv)
    from .cli import expand_user_paths

    expand_user_paths(args, ("db", "out"))
    todo = set(args.only or ["cd", "landmarks", "rank", "time", "ablation"])
    # before any part runs: they load their datasets one by one, and write at the end
    checks = [("--datasets", args.datasets, todo - {"cd", "time"})]
    checks.append(("--time-datasets", args.time_datasets, todo & {"time"}))
    for flag, names, used in checks:
        problem = _dataset_problem(flag, names) if used else None
        if problem:
            ap.error(problem)
    # equal totals: multi-Nyström shares each total over 3 subsets (make's m // 3, r // 3)
    totals = [("--landmarks", args.landmarks, "landmarks"), ("--ranks", args.ranks, "rank")]
    totals.append(("--landmark-rank", [args.landmark_rank], "landmarks"))
    for flag, values, part in totals:
        odd = [v for v in values if v % 3] if part in todo else []
        if odd:
            v = odd[0]
            ap.error(
                f"{flag}: {v} is not a multiple of 3. Multi-Nyström shares the total over 3 "
                f"class-stratified subsets, so it would have {3 * max(v // 3, 1)} against "
                f"Nyström's {v}; give multiples of 3 (e.g. {3 * max(round(v / 3), 1)})."
            )
    # a Nyström map has at most as many components as landmarks: a higher total rank is the
    # full rank, and its point would be plotted at a rank that was not fitted
    high = [r for r in args.ranks if r > RANK_LANDMARKS] if "rank" in todo else []
    if high:
        ap.error(
            f"--ranks: {high[0]} is above the {RANK_LANDMARKS} landmarks of the rank sweep "
            f"(Fig. 3); a Nyström map has at most as many components as landmarks, so it "
            f"would fit rank {RANK_LANDMARKS} again. Give ranks up to {RANK_LANDMARKS}."
        )
    fewest = min(args.landmarks)
    if "landmarks" in todo and args.landmark_rank > fewest:
        ap.error(
            f"--landmark-rank: {args.landmark_rank} is above the smallest --landmarks value, "
            f"{fewest}, where the rank can be at most {fewest}: that point would not be at "
            f"the fixed total rank. Give a rank up to {fewest}, or 0 for the full rank."
        )
    if args.only and "cd" in args.only and not args.db:
        ap.error("--only cd needs --db (the results of `skewlearn reproduce nystrom_table2`).")
    from .cli import output_folder

    try:
        out = output_folder("--out", args.out)
    except ValueError as err:
        ap.error(str(err))
    summary_path = out / "nystrom_figures.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.is_file() else {}
    # Each part records its own protocol: parts run separately (e.g. Fig. 2 at 10 × 5-fold,
    # the timing figure without CV) keep their results and their protocol side by side.
    protocol = summary.get("protocol", {})
    parts = protocol.get("parts", {})
    for part in todo:
        if part == "cd":
            if args.db:
                parts[part] = {"db": str(args.db)}
        elif part == "time":
            parts[part] = {"datasets": args.time_datasets, "sizes": args.sizes,
                           "repeats": args.time_repeats}  # fmt: skip
        else:
            parts[part] = {"splits": args.splits, "repeats": args.repeats,
                           "datasets": args.datasets}  # fmt: skip
    summary["protocol"] = {"C": C, "parts": parts}
    if args.repeats < 10 and todo & {"landmarks", "rank", "ablation"}:
        print(f"CUT: sweeps use {args.repeats} × stratified {args.splits}-fold CV (paper: 10 ×)")
    t_cpu, t_wall = time.process_time(), time.perf_counter()
    status = 0
    if "cd" in todo and args.db:
        from .plots import cd_diagram

        try:
            cd = cd_summary(args.db)
        except ValueError as err:  # a missing, foreign or incomplete database
            ap.exit(2, f"{ap.prog}: error: {err}\n")
        summary["cd"] = cd
        for metric, s in cd.items():
            if s["incomplete"]:
                print(f"{metric}: left out, some method has no result: {s['incomplete']}")
            print(f"{metric}: ranks {s['ranks']}, Friedman chi2 {s['friedman_chi2']:.2f} "
                  f"(p {s['friedman_p']:.3g}), F_F {s['iman_davenport_F']:.2f} "
                  f"(p {s['iman_davenport_p']:.3g}), CD {s['cd']:.2f}")  # fmt: skip
            title = f"{metric}: {len(s['datasets'])} datasets, Nemenyi CD (α = 0.05)"
            _save(cd_diagram(s["ranks"], s["cd"], title), out / f"nystrom_cd_{metric}.png")
    if "landmarks" in todo:
        rank = args.landmark_rank or None
        res = sweep(args.datasets, "landmarks", args.landmarks, rank=rank, splits=args.splits,
                    repeats=args.repeats)  # fmt: skip
        summary["landmarks"] = {**_sweep_summary(res, args.landmarks, "{} landmarks"),
                                "rank": rank, "splits": args.splits,
                                "repeats": args.repeats}  # fmt: skip
        what = "full rank" if rank is None else f"total rank {rank}"
        fig = _line_figure(res, args.landmarks, "landmarks in total", "G-mean",
                           f"G-mean against the number of landmarks ({what})")  # fmt: skip
        _save(fig, out / "nystrom_landmarks.png")
    if "rank" in todo:
        res = sweep(args.datasets, "rank", args.ranks, landmarks=RANK_LANDMARKS,
                    splits=args.splits, repeats=args.repeats)  # fmt: skip
        summary["rank"] = {**_sweep_summary(res, args.ranks, "total rank {}"),
                           "splits": args.splits, "repeats": args.repeats}  # fmt: skip
        fig = _line_figure(res, args.ranks, "rank in total", "G-mean",
                           "G-mean against the rank (150 landmarks in total)")  # fmt: skip
        _save(fig, out / "nystrom_rank.png")
    if "time" in todo:
        res = timing(args.time_datasets, args.sizes, repeats=args.time_repeats)
        summary["time"] = res
        drawn = {name: rows for name, rows in res.items() if any(rows.values())}
        for name in (n for n in res if n not in drawn):  # in the order given
            shown = ", ".join(map(str, args.sizes))
            print(f"time: {name} has fewer rows than every size ({shown}); not drawn")
        if drawn:
            _save(_time_figure(drawn), out / "nystrom_time.png")
        else:  # the other parts' results are still written; the exit status says so
            status = 2
            print(f"{ap.prog}: error: no timing dataset has {min(args.sizes)} rows or more "
                  f"({', '.join(res)}); give smaller --sizes or other --time-datasets.",
                  file=sys.stderr)  # fmt: skip
    if "ablation" in todo:
        summary["ablation"] = ablation(args.datasets, splits=args.splits, repeats=args.repeats)
    cpu, wall = time.process_time() - t_cpu, time.perf_counter() - t_wall
    summary.setdefault("runs", []).append({"parts": sorted(todo), "splits": args.splits,
                                           "repeats": args.repeats, "cpu_s": cpu,
                                           "wall_s": wall})  # fmt: skip
    summary_path.write_text(dumps(summary, indent=1), encoding="utf-8")
    print(f"{sorted(todo)}: {cpu:.1f} CPU s, {wall:.1f} wall s; summary in {summary_path}")
    return status


if __name__ == "__main__":  # pragma: no cover
    from .cli import run_tool

    run_tool(main, "python -m skewlearn.experiments.nystrom_figures")
