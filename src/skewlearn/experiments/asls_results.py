"""ASLS reproductions: the paper-shaped tables and the figures of seed 004.

The shipped experiments ``asls_table3`` … ``asls_table6`` (``skewlearn reproduce NAME``) store
one row per fold; the engine's report prints datasets × methods. The paper's Tables III and
IV have other shapes — a (r+, m+) grid, a reduced-rate column — so this module renders them
from the results databases, with the published numbers beside ours, and draws Fig. 3(a)
(the converged ASLS losses) and Fig. 3(c) (boundaries on a 1:10 synthetic set)::

    python -m skewlearn.experiments.asls_results figures docs/results/figures
    python -m skewlearn.experiments.asls_results tables --t3 t3.sqlite --t4 t4.sqlite \\
        --t5 t5.sqlite --t6 t6.sqlite > tables.md
    python -m skewlearn.experiments.asls_results choices t6.sqlite   # chosen values, edge hits

References
----------
.. [1] G. Xu, B.-G. Hu and J. C. Principe, "An asymmetric stagewise least square loss
   function for imbalanced classification" (seed 004), Tables III–VI, Fig. 3.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import warnings
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .._docs import first_line
from .config import PAPER_RESULTS
from .store import experiment_rows

if TYPE_CHECKING:
    from .._typing import StrPath

__all__ = [
    "R_COLUMNS",
    "boundary_figure",
    "choices_markdown",
    "comparison_markdown",
    "loss_figure",
    "search_choices",
    "synthetic_1_to_10",
    "table3_cells",
    "table3_markdown",
    "table3_pattern",
    "table4_markdown",
]

#: Table III's r+ columns (multiples of the class ratio CR) and m+ rows.
R_COLUMNS = ("1", "0.5CR", "CR", "1.5CR", "2CR", "2.5CR", "3CR")
M_ROWS = ("1", "1.4", "1.8", "2.2", "2.6", "3")


def _read_csv(name: str) -> list[dict]:
    with open(PAPER_RESULTS / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


#: The shipped ASLS reproductions, each read by its own ``tables`` flag (``--t3`` …).
TABLES = ("asls_table3", "asls_table4", "asls_table5", "asls_table6")


def _rows(db, experiment: str | None) -> list[dict]:
    """:func:`~skewlearn.experiments.store.experiment_rows`, refusing the database of
    another shipped ASLS table: a database of one experiment is read whatever its name (a
    table of your own), so the wrong ``--tN`` would render one table as another."""
    rows = experiment_rows(db, experiment)
    held = sorted({r["experiment"] for r in rows} & (set(TABLES) - {experiment}))
    if experiment is not None and held:
        raise ValueError(
            f"{db} holds the results of {held[0]} (give it as --t{held[0][-1]}), not of "
            f"{experiment}; give the database of `skewlearn reproduce {experiment}` as "
            f"--t{experiment[-1]}."
        )
    return rows


def _per_fold(rows, metric: str) -> dict[tuple[str, str], dict[tuple[int, int], float]]:
    out: dict = defaultdict(dict)
    for r in rows:
        v = r["metrics"].get(metric)
        if v is not None:
            out[r["dataset"], r["method"]][r["repetition"], r["fold"]] = float(v)
    return out


def _mean_std(values) -> tuple[float, float | None]:
    """Mean and sample std (ddof = 1) of the folds; the std is None for one fold, which
    has no spread to show (not a spread of 0), as in the experiment report."""
    v = np.asarray(list(values), dtype=float)
    return float(np.mean(v)), float(np.std(v, ddof=1)) if len(v) > 1 else None


def _pct(mean: float, std: float | None = None) -> str:
    if mean is None or not math.isfinite(mean):
        return "–"
    return f"{100 * mean:.2f}" + (f" ({100 * std:.2f})" if std is not None else "")


# --------------------------------------------------------------------------- Table III
def table3_cells(db: StrPath) -> dict[tuple[str, str, str], float]:
    """``{(method, m+, r+ column): mean G-mean}`` of an ``asls_table3`` database."""
    folds = _per_fold(_rows(db, "asls_table3"), "gmean")
    out = {}
    for (_d, label), runs in folds.items():
        method, r, m = label.split()
        out[method, m.removeprefix("m="), r.removeprefix("r=")] = _mean_std(runs.values())[0]
    return out


def _paper3() -> dict[tuple[str, str, str], float]:
    return {
        (method, row["m_plus"], row["r_plus"]): float(row[method]) / 100
        for row in _read_csv("asls_table3_vehicle_gmean.csv")
        for method in ("LASLS", "KASLS")
    }


def table3_pattern(cells: dict[tuple[str, str, str], float]) -> dict[str, bool | float]:
    """The paper's reading of Table III, checked on ``cells`` (as from :func:`table3_cells`).

    * ``kasls_above_lasls``: KASLS's G-mean above LASLS's in every cell (and the share of
      cells where it is, ``kasls_above_share``);
    * ``r_helps_more_than_m``: raising r+ from 1 to its best value gains more G-mean (mean
      over the m+ rows) than raising m+ from 1 to its best value (mean over the r+ columns),
      for each method (``gain_r_<method>``, ``gain_m_<method>``).
    """
    out: dict[str, bool | float] = {}
    pairs = [(m, r) for m in M_ROWS for r in R_COLUMNS if ("LASLS", m, r) in cells]
    above = [
        cells["KASLS", m, r] > cells["LASLS", m, r] for m, r in pairs if ("KASLS", m, r) in cells
    ]
    out["kasls_above_share"] = float(np.mean(above)) if above else math.nan
    out["kasls_above_lasls"] = bool(above) and all(above)
    ok = True
    for method in ("LASLS", "KASLS"):
        grid = np.array([[cells.get((method, m, r), np.nan) for r in R_COLUMNS] for m in M_ROWS])
        with warnings.catch_warnings():  # an incomplete grid gives NaN gains, not warnings
            warnings.simplefilter("ignore", RuntimeWarning)
            gain_r = float(np.nanmean(np.nanmax(grid, axis=1) - grid[:, 0]))
            gain_m = float(np.nanmean(np.nanmax(grid, axis=0) - grid[0, :]))
        out[f"gain_r_{method}"] = gain_r
        out[f"gain_m_{method}"] = gain_m
        ok = ok and gain_r > gain_m
    out["r_helps_more_than_m"] = ok
    return out


def table3_markdown(db: StrPath) -> str:
    """Table III as in the paper: for each m+ row, LASLS and KASLS, ours and the paper's."""
    ours, paper = table3_cells(db), _paper3()
    lines = [
        "G-mean (%) on vehicle3, one run of 10-fold CV; each cell: ours / paper.",
        "",
        "| m+ | method | " + " | ".join(f"r+={r}" for r in R_COLUMNS) + " |",
        "|---|---|" + "---|" * len(R_COLUMNS),
    ]
    for m in M_ROWS:
        for method in ("LASLS", "KASLS"):
            cells = [
                f"{_pct(ours.get((method, m, r), math.nan))} / {_pct(paper[method, m, r])}"
                for r in R_COLUMNS
            ]
            lines.append(f"| {m} | {method} | " + " | ".join(cells) + " |")
    for label, cells in (("ours", ours), ("paper", paper)):
        p = table3_pattern(cells)
        share = p["kasls_above_share"]
        above = (
            f"KASLS > LASLS in {100 * share:.0f}% of the cells"
            if math.isfinite(share)
            else "KASLS > LASLS: no cell has both yet"
        )
        lines.append("")
        lines.append(
            f"- {label}: {above}; "
            f"mean gain from raising r+ (best r+ vs r+ = 1): LASLS {_pct(p['gain_r_LASLS'])}, "
            f"KASLS {_pct(p['gain_r_KASLS'])} points; from raising m+ (best m+ vs m+ = 1): "
            f"LASLS {_pct(p['gain_m_LASLS'])}, KASLS {_pct(p['gain_m_KASLS'])} points."
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- Table IV
def table4_markdown(db: StrPath) -> str:
    """Table IV: G-mean and training time of KASLS_R by reduced rate, and full KASLS; "–"
    in the paper's columns for a rate the paper did not run."""
    rows = _rows(db, "asls_table4")
    gm = _per_fold(rows, "gmean")
    times: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        times[r["method"]].append(r["fit_time"])
    # keyed by the rate's value: "1" is the file's "1.0"; a rate it lacks has no row
    paper = {float(row["eta"]): row for row in _read_csv("asls_table4_vowel_reduced.csv")}
    lines = [
        "| method | G-mean % (ours) | G-mean % (paper) | fit time s (ours, wall) | "
        "time s (paper) | time / time at η = 1 (ours) | (paper) |",
        "|---|---|---|---|---|---|---|",
    ]
    t1 = np.mean(times.get("KASLS_R eta=1", [math.nan]))
    p1 = float(paper[1.0]["time_s"])
    for method in sorted(
        times, key=lambda s: (s != "KASLS", float(s.split("=")[-1]) if "=" in s else 0)
    ):
        g = _mean_std(gm["vowel0", method].values())
        t = float(np.mean(times[method]))
        if method == "KASLS":
            pg, pt = "98.28 (2.76)", 0.1424
        else:
            row = paper.get(float(method.split("=")[1]))
            pg = "–" if row is None else f"{row['gmean']} ({row['gmean_std']})"
            pt = None if row is None else float(row["time_s"])
        pt_s, ratio_s = ("–", "–") if pt is None else (f"{pt:.4f}", f"{pt / p1:.2f}")
        lines.append(
            f"| {method} | {_pct(*g)} | {pg} | {t:.4f} | {pt_s} | {t / t1:.2f} | {ratio_s} |"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- Tables V, VI
def _paired_p(a: dict, b: dict) -> float:
    """The two-sided paired t-test's p-value over the folds both have (NaN for fewer than
    2); the same difference in every fold has no spread for t, so it gets the exact sign
    test's p-value (:func:`~skewlearn.evaluation.stats.paired_ttest`): 5 folds that all
    moved the same way are p = 0.0625, not p = 0."""
    from ..evaluation.stats import paired_ttest

    keys = sorted(set(a) & set(b))
    if len(keys) < 2:
        return math.nan
    return paired_ttest([a[k] for k in keys], [b[k] for k in keys]).pvalue


def comparison_markdown(
    db: StrPath,
    paper_csv: str,
    reference: str,
    names: dict | None = None,
    experiment: str | None = None,
) -> str:
    """Tables V/VI: per dataset and method, G-mean, F-measure and AUC (%), ours beside the
    paper's; ``*`` marks a significant difference from ``reference`` (two-sided paired t-test
    over the folds at 5%, as the paper's asterisk)."""
    names = names or {}
    rows = _rows(db, experiment)
    metrics = (("gmean", "gmean"), ("f1", "fmeasure"), ("roc_auc", "auc"))
    folds = {m: _per_fold(rows, m) for m, _ in metrics}
    paper = {(r["dataset"], r["method"]): r for r in _read_csv(paper_csv)}
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    methods = list(dict.fromkeys(r["method"] for r in rows))
    full = max((len(v) for v in folds["gmean"].values()), default=0)
    lines = [
        "| dataset | method | G-mean (ours) | G-mean (paper) | F-measure (ours) | "
        "F-measure (paper) | AUC (ours) | AUC (paper) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for d in datasets:
        for meth in methods:
            cells = [d, meth]
            p = paper.get((names.get(d, d), meth))
            for m, col in metrics:
                runs = folds[m].get((d, meth))
                if not runs:
                    cells += ["not run", "–" if p is None else f"{p[col]} ({p[col + '_std']})"]
                    continue
                mark = ""
                if meth != reference and (d, reference) in folds[m]:
                    if _paired_p(runs, folds[m][d, reference]) < 0.05:
                        mark = "*"
                part = f" [{len(runs)} of {full} folds]" if len(runs) < full else ""
                cells.append(_pct(*_mean_std(runs.values())) + mark + part)
                cells.append("–" if p is None else f"{p[col]} ({p[col + '_std']})")
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _hashable(v):
    """A grid value as a dictionary key: a list or a table (a value such as a list of
    kernels) becomes its JSON text."""
    return json.dumps(v, sort_keys=True) if isinstance(v, list | dict) else v


def _show(v) -> str:
    return f"{v:g}" if _is_number(v) else str(v)


def search_choices(
    db: StrPath, experiment: str | None = None
) -> dict[tuple[str, str], dict[str, dict]]:
    """What the nested searches chose: ``{(dataset, method): {param: {"grid": values,
    "chosen": {value: folds}, "folds": n}}}`` for every searched parameter (more than one
    candidate value). The grid is read from each row's stored candidates: sorted when its
    values are all numbers, otherwise in the candidates' order (strings, ``None``; lists
    and tables are given as their JSON text). ``experiment`` may be omitted when the
    database holds only one."""
    grids: dict = defaultdict(lambda: defaultdict(dict))
    chosen: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    folds: dict = defaultdict(int)
    for r in experiment_rows(db, experiment):
        search = r["extra"].get("search")
        if not search:
            continue
        key = r["dataset"], r["method"]
        folds[key] += 1
        for cand in search["params"]:
            for p, v in cand.items():
                grids[key][p][_hashable(v)] = None
        for p, v in r["params"].items():
            chosen[key][p][_hashable(v)] += 1
    out: dict = {}
    for key, params in grids.items():
        out[key] = {}
        for p, vals in sorted(params.items()):
            if len(vals) < 2:
                continue
            grid = list(vals)
            if all(_is_number(v) for v in grid):
                grid.sort()
            out[key][p] = {"grid": grid, "chosen": dict(chosen[key][p]), "folds": folds[key]}
    return out


def choices_markdown(db: StrPath, experiment: str | None = None) -> str:
    """:func:`search_choices` as a table: per dataset, method and searched parameter, the
    grid, how often each value was chosen, and how often the choice sat on the grid's lower
    or upper edge ("–" for a grid that is not all numbers, which has no edges); a sentence
    saying so when nothing was searched."""
    lines = [
        "| dataset | method | parameter | grid | chosen (value: folds) | lower edge | upper edge |",
        "|---|---|---|---|---|---|---|",
    ]
    for (d, meth), params in search_choices(db, experiment).items():
        for p, c in params.items():
            grid, n = c["grid"], c["folds"]
            picks = ", ".join(f"{_show(v)}: {c['chosen'][v]}" for v in grid if v in c["chosen"])
            if all(_is_number(v) for v in grid):
                lo = f"{c['chosen'].get(grid[0], 0)}/{n}"
                hi = f"{c['chosen'].get(grid[-1], 0)}/{n}"
            else:
                lo = hi = "–"
            lines.append(
                f"| {d} | {meth} | {p} | {', '.join(_show(v) for v in grid)} | {picks} "
                f"| {lo} | {hi} |"
            )
    if len(lines) == 2:  # a header alone read as a table cut off
        return (
            "(no searched hyperparameter in this database: every task ran with the one "
            "value of each grid)"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- figures
def _figure(*args, **kwargs):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(*args, **kwargs)
    FigureCanvasAgg(fig)
    return fig


def loss_figure(path: StrPath) -> Path:
    """Fig. 3(a): the converged ASLS loss l*(z) (Eq. 6) for several (r, m), with the 0-1
    loss and the LS loss of stage 0 for reference."""
    from ..batch.asls import squared_ramp_loss

    z = np.linspace(-2.0, 3.5, 551)
    fig = _figure(figsize=(5.2, 3.6))
    ax = fig.add_subplot()
    ax.plot(z, (z <= 0).astype(float), color="0.6", lw=1, ls=":", label="0-1 loss")
    ax.plot(z, (1 - z) ** 2, color="0.6", lw=1, ls="--", label="LS, (1 - z)²")
    for (r, m), c in zip([(1, 1), (2, 1), (1, 2), (4, 2), (3, 1.5)],
                         ["k", "tab:blue", "tab:green", "tab:red", "tab:purple"]):  # fmt: skip
        label = "SLS (1, 1)" if (r, m) == (1, 1) else f"ASLS ({r:g}, {m:g})"
        ax.plot(z, squared_ramp_loss(z, r, m), color=c, lw=1.8, label=label)
    ax.set_xlim(-2, 3.5)
    ax.set_ylim(0, 4.5)
    ax.set_xlabel("margin z = t f(x)")
    ax.set_ylabel("converged loss l*(z)")
    ax.set_title("ASLS losses (r, m), Eq. (6) — cf. Fig. 3(a)")
    ax.legend(fontsize=8, loc="upper right")
    fig.savefig(path, dpi=100, bbox_inches="tight", metadata={"Software": None})
    return Path(path)


def synthetic_1_to_10(n_neg: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The set of Fig. 3(c): negatives uniform on the square [0, 2] × [0, 1], positives
    (one tenth as many) uniform on the square above it, [0, 2] × [1, 2]; the ideal boundary
    is y = 1. Labels ±1."""
    rng = np.random.default_rng(seed)
    n_pos = n_neg // 10
    neg = rng.uniform([0.0, 0.0], [2.0, 1.0], size=(n_neg, 2))
    pos = rng.uniform([0.0, 1.0], [2.0, 2.0], size=(n_pos, 2))
    X = np.vstack([neg, pos])
    y = np.r_[-np.ones(n_neg), np.ones(n_pos)].astype(int)
    return X, y


def _boundary_models():
    from ..batch.asls import SVMDEC, KernelASLS, LinearASLS

    return {
        "linear": [
            ("LSLS (1, 1)", LinearASLS(r_pos=1.0, nu=100.0), "0.4", "-"),
            ("LASLS (10, 1)", LinearASLS(r_pos=10.0, nu=100.0), "tab:blue", "-"),
            ("LASLS (1, 2)", LinearASLS(r_pos=1.0, m_pos=2.0, nu=100.0), "tab:green", "-"),
            ("LASLS (10, 2)", LinearASLS(r_pos=10.0, m_pos=2.0, nu=100.0), "tab:red", "-"),
            ("SVM-DEC linear (C+ = 10 C−)", SVMDEC(kernel="linear", C_pos=10.0, C_neg=1.0),
             "tab:orange", "-."),
        ],
        "kernel": [
            ("KSLS (1, 1)", KernelASLS(r_pos=1.0, nu=100.0, sigma=0.7), "0.4", "-"),
            ("KASLS (10, 2)", KernelASLS(r_pos=10.0, m_pos=2.0, nu=100.0, sigma=0.7),
             "tab:red", "-"),
            ("KASLS_R (10, 2), η = 0.3",
             KernelASLS(r_pos=10.0, m_pos=2.0, nu=100.0, sigma=0.7, reduced_rate=0.3,
                        random_state=0), "tab:purple", "--"),
            ("SVM-DEC rbf (C+ = 10 C−)", SVMDEC(kernel="rbf", sigma=0.7, C_pos=10.0, C_neg=1.0),
             "tab:orange", "-."),
        ],
    }  # fmt: skip


def boundary_figure(path: StrPath, seed: int = 0) -> Path:
    """Fig. 3(c): decision boundaries on the 1:10 set, LASLS/KASLS beside SVM-DEC."""
    X, y = synthetic_1_to_10(seed=seed)
    xx, yy = np.meshgrid(np.linspace(-0.1, 2.1, 221), np.linspace(-0.2, 2.1, 231))
    grid = np.c_[xx.ravel(), yy.ravel()]
    fig = _figure(figsize=(10, 4.2))
    for k, (kind, models) in enumerate(_boundary_models().items()):
        ax = fig.add_subplot(1, 2, k + 1)
        ax.scatter(*X[y < 0].T, s=6, c="tab:blue", alpha=0.35, label="negatives")
        ax.scatter(*X[y > 0].T, s=14, c="tab:red", marker="^", label="positives (1:10)")
        ax.axhline(1.0, color="k", ls=":", lw=1.2)
        handles = [ax.plot([], [], "k:", label="ideal boundary")[0]]
        for label, est, color, ls in models:
            f = est.fit(X, y).decision_function(grid).reshape(xx.shape)
            ax.contour(xx, yy, f, levels=[0.0], colors=[color], linestyles=[ls], linewidths=1.6)
            handles.append(ax.plot([], [], color=color, ls=ls, label=label)[0])
        ax.set_xlim(-0.1, 2.1)
        ax.set_ylim(-0.2, 2.05)
        ax.set_title(f"{kind} boundaries, ν = 100 — cf. Fig. 3(c)", fontsize=10)
        ax.legend(handles=handles, fontsize=7, loc="lower left", framealpha=0.9)
    fig.savefig(path, dpi=90, bbox_inches="tight", metadata={"Software": None})
    return Path(path)


def figures(outdir: StrPath) -> list[Path]:
    """Write ``asls_fig3a_losses.png`` and ``asls_fig3c_boundaries.png`` into ``outdir``."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    return [
        loss_figure(out / "asls_fig3a_losses.png"),
        boundary_figure(out / "asls_fig3c_boundaries.png"),
    ]


# --------------------------------------------------------------------------- command
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m skewlearn.experiments.asls_results", description=first_line(__doc__)
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("figures", help="Fig. 3(a) and 3(c) as PNG files")
    p.add_argument("outdir")
    p = sub.add_parser("tables", help="Markdown of Tables III-VI from results databases")
    for t in ("t3", "t4", "t5", "t6"):
        p.add_argument(f"--{t}", metavar="DB", help=f"results database of asls_table{t[1]}")
    p = sub.add_parser("choices", help="chosen hyperparameters and grid-edge hits of a database")
    p.add_argument("db")
    p.add_argument("--experiment", help="the experiment (needed when the database holds several)")
    args = parser.parse_args(argv)
    from .cli import expand_user_paths

    expand_user_paths(args, ("outdir", "db"))
    if args.command == "tables" and not any((args.t3, args.t4, args.t5, args.t6)):
        parser.error("tables: give at least one database (--t3, --t4, --t5 or --t6).")
    try:
        return _main(args)
    except ValueError as err:  # a missing, foreign or mixed database: one line, no traceback
        parser.exit(2, f"{parser.prog} {args.command}: error: {err}\n")


def _main(args) -> int:
    if args.command == "figures":
        for path in figures(args.outdir):
            print(path)
        return 0
    if args.command == "choices":
        print(choices_markdown(args.db, args.experiment))
        return 0
    parts = []
    if args.t3:
        parts += ["## Table III", table3_markdown(args.t3)]
    if args.t4:
        parts += ["## Table IV", table4_markdown(args.t4)]
    if args.t5:
        names = {"vehicle3": "vehicle", "yeast4": "yeast", "abalone19": "abalone"}
        parts += [
            "## Table V",
            comparison_markdown(args.t5, "asls_table5_linear.csv", "LASLS", names, "asls_table5"),
        ]
    if args.t6:
        names = {"vehicle3": "vehicle", "yeast4": "yeast"}
        parts += [
            "## Table VI",
            comparison_markdown(args.t6, "asls_table6_kernel.csv", "KASLS_R", names, "asls_table6"),
        ]
    print("\n\n".join(parts))
    return 0


if __name__ == "__main__":  # pragma: no cover
    from .cli import run_tool

    run_tool(main, "python -m skewlearn.experiments.asls_results")
