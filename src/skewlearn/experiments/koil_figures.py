"""KOIL's studies as commands with plots (Hu et al., AAAI 2015, Figures 1–3).

* **Figure 1** (``policies``): test AUC along the training stream for KOIL with RS, FIFO,
  RS++, FIFO++ and an infinite budget (budget 100 per class, k = 10). The model is
  scored on the test fold after every 1/15 of the training stream, as the authors'
  script does (``t_tick = n/15``).
* **Figure 2** (``budget``): final test AUC of RS++ and FIFO++ against the buffer size N
  (per class), with k = ⌈N/10⌉ as in the authors' ``KOIL_BufferSize.m``.
* **Figure 3** (``k``): final test AUC of RS++ and FIFO++ against k ∈ {1, 10, 20, …, 100},
  budget 100 per class.

Protocol: the one of the shipped ``koil_table1`` reproduction — its seed, its 5-fold CV
repeated 4 times (20 runs, the same splits, training orders and ``random_state`` per run),
min-max scaling, η = 0.01 — and, per dataset, the C and γ its shared search chose for
KOIL RS++ (read from its results database with ``--db``, or found here by running that
same search). The budget-100, k = 10 points of Figures 2 and 3 are therefore the runs of
Table 1's KOIL_RS++ and KOIL_FIFO++ columns.

Run::

    python -m skewlearn.experiments.koil_figures --db koil_table1.sqlite \\
        --out docs/results/figures

It writes ``koil_fig1_policies.png``, ``koil_fig2_budget.png`` and ``koil_fig3_k.png``
and prints the plotted means as Markdown tables.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .config import Experiment

__all__ = [
    "BUDGETS",
    "K_VALUES",
    "POLICIES",
    "budget_study",
    "chosen_params",
    "k_study",
    "main",
    "must_show",
    "policy_study",
]

#: Figure 1's policies (label -> KOIL ``policy``).
POLICIES = {
    "KOIL_RS": "RS",
    "KOIL_FIFO": "FIFO",
    "KOIL_RS++": "RS++",
    "KOIL_FIFO++": "FIFO++",
    "KOIL_inf": "infinite",
}
#: Figure 2's buffer sizes (per class); k = ceil(N / 10).
BUDGETS = (5, 10, 20, 50, 100, 200, 400)
#: Figure 3's k values (the paper's [1, 10:10:100]).
K_VALUES = (1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100)
#: The reproduction whose protocol and chosen parameters the figures use.
EXPERIMENT = "koil_table1"
#: Default datasets: the four largest cheap ones of Table 1, where a budget of 100 binds.
DATASETS = ("pima", "german", "segment0", "satimage")


def _experiment():
    from .config import load_experiment

    return load_experiment(EXPERIMENT)


def _spec(exp, name: str):
    for e in exp.estimators:
        if e.name == name:
            return e
    raise ValueError(f"{EXPERIMENT} has no estimator {name!r}.")  # pragma: no cover


def _dataset(exp, name: str):
    from .config import DatasetSpec

    for d in exp.datasets:
        if d.name == name:
            return d
    return DatasetSpec(name=name, source=name, scale=True)


def chosen_params(exp: Experiment, datasets: Sequence[str], db: str | Path | None = None) -> dict:
    """``{dataset: {"C": ..., "gamma": ...}}``: the parameters ``exp``'s shared search chose
    for KOIL_RS++ — from the results database ``db`` when it holds them, otherwise by
    running that search (:func:`~skewlearn.experiments.runner.run_search`) here."""
    from .runner import SearchTask, run_search
    from .store import ResultStore, check_results_db

    found: dict[str, dict] = {}
    if db is not None:
        with ResultStore(check_results_db(db), readonly=True) as store:
            for row in store.searches(exp.name):
                if row["method"] == "KOIL_RS++":
                    found[row["dataset"]] = row["params"]
            held = sorted(store.experiments())
        if not found:  # another experiment's database: its searches would be redone here
            raise ValueError(
                f"{db} holds no KOIL_RS++ search of experiment {exp.name!r} (it holds "
                f"{held or 'no experiment'}). Give the database of `skewlearn reproduce "
                f"{exp.name}`, or leave out --db to run the searches here."
            )
    out = {}
    for name in datasets:
        if name in found:
            out[name] = found[name]
            continue
        task = SearchTask(
            experiment=exp.name,
            dataset=_dataset(exp, name),
            estimator=_spec(exp, "KOIL_RS++"),
            protocol=exp.protocol,
            seed=exp.seed,
            search_metric=exp.search_metric,
            inner_splits=exp.inner_splits,
        )
        out[name] = run_search(task)["params"]
    return out


def _runs(exp, name: str, n_repeats: int):
    """``(X, y, [(rep, fold, train, test, seed), ...])`` with the splits of ``exp``."""
    from ..evaluation.protocols import task_seed
    from .runner import load_dataset

    if n_repeats < 1:
        raise ValueError(f"n_repeats must be a positive number of CV repetitions; got {n_repeats}.")
    X, y = load_dataset(_dataset(exp, name))
    runs = []
    for rep in range(n_repeats):
        for fold in range(exp.protocol.n_folds):
            train, test = exp.protocol.split(y, exp.seed, name, rep, fold)
            runs.append((rep, fold, train, test, task_seed(exp.seed, name, rep, fold)))
    return X, y, runs


def _koil(params: dict, seed: int, **kw):
    from ..kernel.koil import KOIL

    base = dict(_spec(_experiment(), "KOIL_RS++").params)
    base.update(params)
    base.update(kw)
    return KOIL(**base, random_state=seed)


def _auc(y, scores) -> float:
    from ..metrics import roc_auc

    return float(roc_auc(y, scores, pos_label=1))


def policy_study(
    exp: Experiment, name: str, params: dict, n_repeats: int = 4, ticks: int = 15
) -> dict:
    """Figure 1 on one dataset: ``{"samples": [...], label: [mean test AUC at each tick]}``
    and ``"final"``: ``{label: [AUC of each run after the whole stream]}``. The ticks are
    placed on the first run's training stream; every run's last point is after its whole
    stream, which may be a row longer than the first run's."""
    if ticks < 1:
        raise ValueError(f"ticks must be a positive number of points on the curve; got {ticks}.")
    X, y, runs = _runs(exp, name, n_repeats)
    n_train = len(runs[0][2])
    positions = np.unique(np.linspace(0, n_train, ticks + 1).astype(int)[1:])
    curves = {label: [] for label in POLICIES}
    final = {label: [] for label in POLICIES}
    for _rep, _fold, train, test, seed in runs:
        # the last point is the end of this run's stream, which may be a row longer than
        # the first run's (folds differ in size by one): "final" is Table 1's model
        cuts = np.unique(np.append(np.minimum(positions[:-1], len(train)), len(train)))
        for label, policy in POLICIES.items():
            clf = _koil(params, seed, policy=policy)
            lo, line = 0, []
            for hi in cuts:
                clf.partial_fit(X[train[lo:hi]], y[train[lo:hi]], classes=[-1, 1])
                line.append(_auc(y[test], clf.decision_function(X[test])))
                lo = hi
            curves[label].append(line[: len(positions)])
            final[label].append(line[-1])
    n = min(len(c) for v in curves.values() for c in v)
    out: dict = {"samples": positions[:n].tolist(), "final": final}
    for label, lines in curves.items():
        out[label] = np.mean([c[:n] for c in lines], axis=0).tolist()
    return out


def _sweep(exp, name, params, n_repeats, values, make_kw: Callable[[int], dict]) -> dict:
    X, y, runs = _runs(exp, name, n_repeats)
    out = {"values": list(values)}
    for policy in ("RS++", "FIFO++"):
        per_value = []
        for v in values:
            aucs = []
            for _rep, _fold, train, test, seed in runs:
                clf = _koil(params, seed, policy=policy, **make_kw(v))
                clf.fit(X[train], y[train])
                aucs.append(_auc(y[test], clf.decision_function(X[test])))
            per_value.append(aucs)
        out[f"KOIL_{policy}"] = per_value
    return out


def budget_study(
    exp: Experiment,
    name: str,
    params: dict,
    n_repeats: int = 4,
    budgets: Sequence[int] | None = None,
) -> dict:
    """Figure 2 on one dataset: ``{"values": budgets, "KOIL_RS++": [[AUC per run] per
    budget], "KOIL_FIFO++": ...}`` with k = ⌈N/10⌉ (``budgets``: default :data:`BUDGETS`)."""
    return _sweep(
        exp,
        name,
        params,
        n_repeats,
        BUDGETS if budgets is None else budgets,
        lambda n: {"budget_pos": n, "budget_neg": n, "k": max(1, math.ceil(n / 10))},
    )


def k_study(
    exp: Experiment,
    name: str,
    params: dict,
    n_repeats: int = 4,
    ks: Sequence[int] | None = None,
) -> dict:
    """Figure 3 on one dataset: as :func:`budget_study`, against k (budget 100; ``ks``:
    default :data:`K_VALUES`)."""
    ks = K_VALUES if ks is None else ks
    return _sweep(exp, name, params, n_repeats, ks, lambda k: {"k": k})


# --------------------------------------------------------------------------- plots
def _grid_figure(n: int):
    from .plots import _figure

    if n < 1:
        raise ValueError("nothing to plot: the results hold no dataset.")
    cols = min(n, 2)
    rows = -(-n // cols)
    fig = _figure(figsize=(5.2 * cols, 3.3 * rows))
    axes = np.atleast_1d(fig.subplots(rows, cols)).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes


_STYLE = {
    "KOIL_RS": dict(color="tab:red", marker="x"),
    "KOIL_FIFO": dict(color="tab:cyan", marker="v"),
    "KOIL_RS++": dict(color="tab:green", marker="*"),
    "KOIL_FIFO++": dict(color="tab:blue", marker="o"),
    "KOIL_inf": dict(color="black", marker="d"),
}


def policy_figure(results: dict) -> Figure:
    """Figure 1: one panel per dataset, test AUC against training samples seen."""
    fig, axes = _grid_figure(len(results))
    for ax, (name, r) in zip(axes, results.items()):
        for label in POLICIES:
            ax.plot(r["samples"], r[label], label=label, ms=4, lw=1.2, **_STYLE[label])
        ax.set(title=name, xlabel="training samples seen", ylabel="test AUC (mean of runs)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7, loc="lower right")
    fig.suptitle("KOIL update policies (budget 100 per class, k = 10)", fontsize=10)
    fig.tight_layout()
    return fig


def sweep_figure(results: dict, xlabel: str, title: str, log: bool) -> Figure:
    """Figures 2 and 3: one panel per dataset, mean ± std of the runs' test AUC."""
    fig, axes = _grid_figure(len(results))
    for ax, (name, r) in zip(axes, results.items()):
        x = np.asarray(r["values"], dtype=float)
        for label in ("KOIL_RS++", "KOIL_FIFO++"):
            a = np.asarray(r[label], dtype=float)
            m, s = a.mean(axis=1), a.std(axis=1, ddof=1)
            ax.plot(x, m, label=label, ms=4, lw=1.2, **_STYLE[label])
            ax.fill_between(x, m - s, m + s, color=_STYLE[label]["color"], alpha=0.12, lw=0)
        if log:
            ax.set_xscale("log", base=2)
            ax.set_xticks(x, [str(int(v)) for v in x])
        ax.set(title=name, xlabel=xlabel, ylabel="test AUC")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7, loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def _save(fig, path: Path) -> Path:
    fig.savefig(path, format="png", dpi=80, metadata={"Software": None})
    return path


# --------------------------------------------------------------------------- tables
def _policy_table(results: dict) -> str:
    lines = [
        "| dataset | " + " | ".join(POLICIES) + " |",
        "|---|" + "---|" * len(POLICIES),
    ]
    for name, r in results.items():
        cells = []
        for label in POLICIES:
            f = np.asarray(r["final"][label])
            cells.append(f"{f.mean():.3f} ± {f.std(ddof=1):.3f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    means = [np.mean([np.mean(r["final"][lab]) for r in results.values()]) for lab in POLICIES]
    lines.append("| mean | " + " | ".join(f"{m:.4f}" for m in means) + " |")
    return "\n".join(lines)


def _sweep_table(results: dict, what: str) -> str:
    first = next(iter(results.values()))
    values = first["values"]
    lines = [
        "| dataset | policy | " + " | ".join(f"{what}={v}" for v in values) + " |",
        "|---|---|" + "---|" * len(values),
    ]
    for name, r in results.items():
        for label in ("KOIL_RS++", "KOIL_FIFO++"):
            cells = [f"{np.mean(a):.3f}" for a in r[label]]
            lines.append(f"| {name} | {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def must_show(db: str | Path, experiment: str = EXPERIMENT) -> str:
    """The issue's "Must show" checks on a finished ``koil_table1`` database, as Markdown.

    * KOIL_RS++ and KOIL_FIFO++ within 0.02 AUC of the paper on ≥ 8 datasets, never more
      than 0.05 below;
    * each ++ policy ahead (higher mean AUC) of RBP, Forgetron, Projectron and NORMA on
      most datasets;
    * mean AUC over the datasets: RS++ ≥ RS, FIFO++ ≥ FIFO, and each ++ within 0.01 of the
      infinite budget.

    On a run not finished, each check uses the datasets that have the results it needs
    and says so ("over 1 of 2 datasets", "2 without both results").
    """
    from .report import build_reports

    rep = build_reports(db, experiment)[0]
    t = next(t for t in rep.tables if t.metric == "roc_auc")
    ds = t.datasets
    lines = []

    def ok(flag: bool) -> str:
        return "yes" if flag else "**no**"

    def cell(d: str, m: str) -> float:  # NaN where the run has no result (yet)
        return t.mean.get((d, m), math.nan)

    def having(*methods: str) -> list[str]:
        return [d for d in ds if all(math.isfinite(cell(d, m)) for m in methods)]

    def share(k: int) -> str:
        return f" (over {k} of {len(ds)} datasets)" if k < len(ds) else ""

    lines.append("| check | RS++ | FIFO++ |")
    lines.append("|---|---|---|")
    within, worst = {}, {}
    for m in ("KOIL_RS++", "KOIL_FIFO++"):
        diffs = {d: cell(d, m) - t.paper[d, m][0] for d in having(m) if (d, m) in t.paper}
        within[m] = [d for d, v in diffs.items() if abs(v) <= 0.02]
        worst[m] = min(diffs.items(), key=lambda kv: kv[1]) if diffs else None
    n = len([d for d in ds if (d, "KOIL_RS++") in t.paper])
    lines.append(
        f"| within 0.02 of the paper on ≥ 8 of {n} | "
        + " | ".join(
            f"{ok(len(within[m]) >= 8)}: {len(within[m])} ({', '.join(within[m])})" for m in within
        )
        + " |"
    )
    lines.append(
        "| never more than 0.05 below the paper | "
        + " | ".join(
            f"{ok(w[1] >= -0.05)}: lowest {w[1]:+.3f} ({w[0]})"
            if w is not None
            else "**no**: no result beside a published one"
            for w in worst.values()
        )
        + " |"
    )
    for base in ("RBP", "Forgetron", "Projectron", "NORMA"):
        cells = []
        for m in ("KOIL_RS++", "KOIL_FIFO++"):
            both = having(m, base)
            ahead = sum(cell(d, m) > cell(d, base) for d in both)
            lacking = (
                f" ({len(ds) - len(both)} without both results)" if len(both) < len(ds) else ""
            )
            cells.append(f"{ok(ahead > len(ds) / 2)}: {ahead} of {len(ds)}{lacking}")
        lines.append(f"| ahead of {base} (mean AUC) on most datasets | " + " | ".join(cells) + " |")

    def means(a: str, b: str):
        both = having(a, b)
        if not both:
            return None
        return (
            float(np.mean([cell(d, a) for d in both])),
            float(np.mean([cell(d, b) for d in both])),
            len(both),
        )

    cells = []
    for m, base, short in (("KOIL_RS++", "KOIL_RS", "RS"), ("KOIL_FIFO++", "KOIL_FIFO", "FIFO")):
        r = means(m, base)
        cells.append(
            f"{ok(r[0] >= r[1])}: {r[0]:.4f} vs {short} {r[1]:.4f}{share(r[2])}"
            if r
            else f"**no**: no dataset with results of both {m} and {base}"
        )
    lines.append("| mean AUC ≥ its uncompensated policy | " + " | ".join(cells) + " |")
    cells = []
    for m in ("KOIL_RS++", "KOIL_FIFO++"):
        r = means(m, "KOIL_inf")
        cells.append(
            f"{ok(abs(r[0] - r[1]) <= 0.01)}: {r[0] - r[1]:+.4f} (inf {r[1]:.4f}){share(r[2])}"
            if r
            else f"**no**: no dataset with results of both {m} and KOIL_inf"
        )
    lines.append("| mean AUC within 0.01 of the infinite budget | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from .cli import DefaultsHelpFormatter, positive_int, unknown_dataset

    ap = argparse.ArgumentParser(
        prog="python -m skewlearn.experiments.koil_figures",
        description="KOIL's Figures 1-3 (update policies, buffer size, k) as PNG files.",
        formatter_class=DefaultsHelpFormatter,
    )
    ap.add_argument("--datasets", nargs="+", default=list(DATASETS), help="datasets to plot")
    ap.add_argument("--db", default=None, help="koil_table1 results database (chosen C, gamma)")
    ap.add_argument("--out", default="docs/results/figures", help="directory for the PNGs")
    ap.add_argument("--repeats", type=positive_int, default=4, help="repetitions of the 5-fold CV")
    ap.add_argument(
        "--figures",
        nargs="*",
        default=["1", "2", "3"],
        choices=["1", "2", "3"],
        help="the figures to draw (none, with --checklist: print only the checks)",
    )
    ap.add_argument(
        "--checklist", action="store_true", help="print the Must-show checks from --db first"
    )
    args = ap.parse_args(argv)
    from .cli import expand_user_paths

    expand_user_paths(args, ("db", "out"))
    if args.figures:  # before any search: the figures load the datasets one by one
        problem = unknown_dataset(
            "--datasets", args.datasets, [d.name for d in _experiment().datasets]
        )
        if problem:
            ap.error(problem)
    if not args.figures and not args.checklist:  # the searches would run for no figure
        ap.error(
            "--figures with no figure number draws nothing; give 1, 2 or 3, or add "
            "--checklist (with --db) to print only the Must-show checks."
        )
    if args.checklist and not args.db:
        ap.error("--checklist needs --db, the koil_table1 results database")
    if args.db:
        from .store import check_results_db

        try:
            check_results_db(args.db)
        except ValueError as err:
            ap.error(str(err))
    if args.checklist:
        try:
            print(must_show(args.db) + "\n")
        except ValueError as err:  # a database of another experiment, or with no AUC table
            ap.error(str(err))
        if not args.figures:
            return 0

    exp = _experiment()
    from .cli import output_folder

    try:
        out = output_folder("--out", args.out)
    except ValueError as err:
        ap.error(str(err))
    t0, c0 = time.perf_counter(), time.process_time()
    params = chosen_params(exp, args.datasets, args.db)
    print("C and gamma chosen for KOIL_RS++ by the koil_table1 search:")
    for name, p in params.items():
        print(f"  {name}: " + ", ".join(f"{k}={v:g}" for k, v in sorted(p.items())))
    runs = f"{args.repeats} × {exp.protocol.n_folds}-fold CV"
    if "1" in args.figures:
        res = {n: policy_study(exp, n, params[n], args.repeats) for n in args.datasets}
        path = _save(policy_figure(res), out / "koil_fig1_policies.png")
        print(f"\nFigure 1 ({path}): final test AUC, mean ± std over {runs}\n")
        print(_policy_table(res))
    if "2" in args.figures:
        res = {n: budget_study(exp, n, params[n], args.repeats) for n in args.datasets}
        fig = sweep_figure(res, "budget per class N (k = ⌈N/10⌉)", "KOIL: AUC vs buffer size", True)
        path = _save(fig, out / "koil_fig2_budget.png")
        print(f"\nFigure 2 ({path}): mean test AUC over {runs}\n")
        print(_sweep_table(res, "N"))
    if "3" in args.figures:
        res = {n: k_study(exp, n, params[n], args.repeats) for n in args.datasets}
        fig = sweep_figure(res, "k (budget 100 per class)", "KOIL: AUC vs k", False)
        path = _save(fig, out / "koil_fig3_k.png")
        print(f"\nFigure 3 ({path}): mean test AUC over {runs}\n")
        print(_sweep_table(res, "k"))
    print(
        f"\nwall {time.perf_counter() - t0:.1f} s, CPU {time.process_time() - c0:.1f} s "
        "(this process)"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    from .cli import run_tool

    run_tool(main, "python -m skewlearn.experiments.koil_figures")
