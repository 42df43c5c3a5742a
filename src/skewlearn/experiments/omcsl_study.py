"""OMCSL reproduction in one command: Table 3, Table 4 and Figure 1 of Yan et al. (2017).

``python -m skewlearn.experiments.omcsl_study`` runs

* **Table 3** — the shipped experiment ``omcsl_table3`` (25 random 4/5–1/5 splits, test
  F-measure, AUROC and AUPRC) through the experiment engine (resumable SQLite database);
* **Table 4** — on the training stream of each split, the cost OMCSL selects,
  :math:`\\hat c_+` = the mean over the last 5,000 rows of the :math:`c_+` of the learner of
  largest selection probability, against :math:`c_+^*`, the cost whose learner *run alone*
  (``CostSensitiveOGD(objective="weighted")`` — exactly OMCSL's learner ``j``) has the best
  overall online (prequential) measure; the error :math:`|\\hat c_+ - c_+^*|`;
* **Figure 1** — the online (prequential) F-measure, AUROC and AUPRC over the training
  stream, averaged over the splits, one PNG per dataset;

and writes a Markdown summary with the "Must show" checks of the issue. The splits, the
training order and the seeds are those of the engine's tasks, so Table 4 and Figure 1
describe the same runs as Table 3.

With ``--tuned`` it runs ``omcsl_table3_tuned`` instead: every method's step size chosen by
one rule (a grid 1 … 0.001, 5-fold validation on split 0's training part, per table column
by that column's measure; see the file), and writes that Table 3, the chosen steps, Table 4
with OMCSL at its tuned steps, and the same checks (no Figure 1).

References
----------
.. [1] Y. Yan, T. Yang, Y. Yang and J. Chen, "A framework of online learning with
   imbalanced streaming data", AAAI 2017, Tables 3-4, Figure 1.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .._docs import first_line
from .._json import dumps
from ..evaluation.protocols import RandomSplits, task_seed
from ..metrics import ROCAUC, pr_auc, roc_auc
from .config import load_experiment
from .runner import load_dataset

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .._typing import ArrayLike, Matrix, StrPath

__all__ = [
    "MEASURES",
    "best_fixed_cost",
    "fixed_cost_scores",
    "online_curve",
    "online_measure",
    "selected_cost",
    "study_split",
]

CONFIG = Path(__file__).parent / "configs" / "omcsl_table3.toml"
#: The same Table 3 with every method's step size tuned by one pre-declared rule.
TUNED_CONFIG = Path(__file__).parent / "configs" / "omcsl_table3_tuned.toml"
#: OMCSL's measure name -> the engine's metric name.
MEASURES = {"f1": "f1", "auroc": "roc_auc", "auprc": "pr_auc"}
_LABEL = {"f1": "F-measure", "auroc": "AUROC", "auprc": "AUPRC"}


# --------------------------------------------------------------------------- pieces
def online_measure(y: ArrayLike, scores: ArrayLike, measure: str) -> float:
    """Overall online performance of pre-update ``scores`` on labels ``y`` (±1): the
    F-measure of the predictions ``score > 0`` (Eq. 4 at the end of the stream; 0 without
    a true positive), or the exact AUROC / AUPRC (average precision) of the scores."""
    y = np.asarray(y)
    s = np.asarray(scores, dtype=np.float64)
    if measure == "f1":
        pos = y > 0
        pred = s > 0
        tp = int(np.count_nonzero(pos & pred))
        den = int(np.count_nonzero(pos)) + int(np.count_nonzero(pred))
        return 2.0 * tp / den if den else 0.0
    if measure == "auroc":
        return float(roc_auc(y, s, pos_label=1))
    if measure == "auprc":
        return float(pr_auc(y, s, pos_label=1))
    raise ValueError(f"measure must be one of {sorted(MEASURES)}; got {measure!r}.")


def fixed_cost_scores(
    X: Matrix,
    y: np.ndarray,
    costs: Sequence[float] | np.ndarray,
    *,
    loss: str = "hinge",
    eta: float = 0.1,
) -> np.ndarray:
    """``(n, K)`` pre-update scores of ``CostSensitiveOGD(objective="weighted",
    c_pos=c, c_neg=1 - c)`` run alone on the stream, one column per cost ``c`` — OMCSL's
    learners, each without the others."""
    from ..linear.cost_sensitive import CostSensitiveOGD

    out = np.empty((len(y), len(costs)))
    for j, c in enumerate(costs):
        clf = CostSensitiveOGD(
            objective="weighted", c_pos=float(c), c_neg=1.0 - float(c), loss=loss, eta=eta
        )
        out[:, j] = clf.test_then_train(X, y, classes=[-1, 1])
    return out


def best_fixed_cost(
    y: ArrayLike, S: np.ndarray, costs: ArrayLike, measure: str
) -> tuple[float, np.ndarray]:
    """:math:`c_+^*`: the cost whose column of ``S`` has the best :func:`online_measure`
    (the first on a tie), and the measure of every column."""
    values = np.array([online_measure(y, S[:, j], measure) for j in range(S.shape[1])])
    return float(np.asarray(costs)[int(np.argmax(values))]), values


def selected_cost(leader_cost: ArrayLike, last: int = 5000) -> float:
    """:math:`\\hat c_+`: the mean of the leader's :math:`c_+` over the last ``last`` rows
    (all rows of a shorter stream)."""
    if isinstance(last, bool) or not isinstance(last, int | np.integer) or last < 1:
        raise ValueError(f"last must be a positive number of rows; got {last!r}.")
    leader_cost = np.asarray(leader_cost, dtype=np.float64)
    if len(leader_cost) == 0:
        raise ValueError("leader_cost is empty; run OMCSL on at least one row first.")
    return float(leader_cost[-last:].mean())


def online_curve(
    y: ArrayLike, scores: ArrayLike, measure: str, checkpoints: np.ndarray
) -> np.ndarray:
    """The online measure of the prefix ending at each checkpoint (rows seen), computed
    incrementally: running counts for the F-measure, the exact streaming
    :class:`~skewlearn.metrics.ROCAUC` for AUROC, average precision of the prefix for
    AUPRC. NaN while undefined."""
    y = np.asarray(y)
    s = np.asarray(scores, dtype=np.float64)
    out = np.full(len(checkpoints), np.nan)
    if measure == "f1":
        pos = y > 0
        tp = np.cumsum(pos & (s > 0))
        den = np.cumsum(pos) + np.cumsum(s > 0)
        idx = np.asarray(checkpoints) - 1
        # no positive seen or predicted yet: F = 0/0, undefined (NaN), not 0
        return np.where(den[idx] > 0, 2.0 * tp[idx] / np.maximum(den[idx], 1), np.nan)
    if measure == "auroc":
        m, lo = ROCAUC(), 0
        for k, hi in enumerate(checkpoints):
            m.update_many(y[lo:hi], s[lo:hi])
            out[k], lo = m.get(), hi
        return out
    for k, hi in enumerate(checkpoints):
        if (y[:hi] > 0).any():
            out[k] = pr_auc(y[:hi], s[:hi], pos_label=1)
    return out


def _checkpoints(n: int, k: int = 40) -> np.ndarray:
    return np.unique(np.linspace(max(1, n // k), n, k).astype(np.int64))


#: Methods of the Figure 1 curves: label -> (class, params, measures shown).
CURVE_METHODS = {
    "OMCSL-h": ("OMCSL", {"loss": "hinge"}, ("f1", "auroc", "auprc")),
    "OCS1-h": ("CostSensitiveOGD", {"objective": "sum", "variant": "I"}, ("f1", "auroc", "auprc")),
    "OCS2-h": ("CostSensitiveOGD", {"objective": "sum", "variant": "II"}, ("f1", "auroc", "auprc")),
    "OFO-l": ("OFO", {}, ("f1",)),
    "OPAUC": ("OPAUC", {}, ("auroc",)),
}


def study_split(X: Matrix, y: np.ndarray, *, seed: int,
                losses: Sequence[str] = ("hinge", "logistic"), last: int = 5000,
                curves: bool = True, n_learners: int = 9,
                etas: dict | None = None) -> dict:  # fmt: skip
    """Table 4 and the Figure 1 curves on one training stream ``(X, y)`` (rows in stream
    order, ``y`` in ±1).

    Returns ``{"table4": {(loss, measure): {"c_hat", "c_star", "error", "fixed"}},
    "curves": {measure: {method: array}}, "checkpoints": array}``. OMCSL runs with its
    defaults and ``random_state=seed`` (as the engine's task); in the curves OMCSL is the
    one selected by the measure plotted. ``etas`` maps ``(loss, measure)`` to OMCSL's step
    size there (the tuned table's choices); the fixed-cost runs behind :math:`c_+^*` then
    use the same step. Default: OMCSL's default η everywhere.
    """
    from .. import OMCSL
    from .config import resolve_estimator

    out: dict = {"table4": {}, "curves": {m: {} for m in MEASURES}}
    cps = _checkpoints(len(y))
    out["checkpoints"] = cps
    for loss in losses:
        probe = OMCSL(n_learners=n_learners, loss=loss)
        probe.partial_fit(X[:1], y[:1], classes=[-1, 1])
        costs = probe.costs_
        fixed_by_eta: dict = {}
        for measure in MEASURES:
            eta = float(probe.eta if etas is None else etas[(loss, measure)])
            if eta not in fixed_by_eta:
                fixed_by_eta[eta] = fixed_cost_scores(X, y, costs, loss=loss, eta=eta)
            S = fixed_by_eta[eta]
            clf = OMCSL(
                n_learners=n_learners, measure=measure, loss=loss, eta=eta, random_state=seed
            )
            scores, trace = clf.test_then_train(X, y, classes=[-1, 1], return_trace=True)
            c_star, fixed = best_fixed_cost(y, S, costs, measure)
            c_hat = selected_cost(trace.leader_cost, last)
            out["table4"][(loss, measure)] = {
                "eta": eta,
                "c_hat": c_hat,
                "c_star": c_star,
                "error": abs(c_hat - c_star),
                "fixed": fixed.tolist(),
                "omcsl_online": online_measure(y, scores, measure),
            }
            if curves and loss == "hinge":
                out["curves"][measure]["OMCSL-h"] = online_curve(y, scores, measure, cps)
    if curves:
        for label, (cls, params, shown) in CURVE_METHODS.items():
            if label == "OMCSL-h":
                continue
            est = resolve_estimator(cls)(**params)
            if "random_state" in est.get_params():
                est.set_params(random_state=seed)
            scores = est.test_then_train(X, y, classes=[-1, 1])
            for measure in shown:
                out["curves"][measure][label] = online_curve(y, scores, measure, cps)
    return out


# --------------------------------------------------------------------------- the study
def _split_count(exp, n_repeats: int | None) -> int:
    """The splits Table 4 and Figure 1 replay: 1 to the experiment's split count (its
    default); anything else is a ValueError naming the range."""
    total = exp.protocol.n_repeats
    reps = total if n_repeats is None else n_repeats
    if isinstance(reps, bool) or not isinstance(reps, int | np.integer) or not 1 <= reps <= total:
        raise ValueError(
            f"n_repeats must be a whole number of splits from 1 to {total} (the "
            f"splits of {exp.name}, which Table 4 and Figure 1 describe); got {n_repeats!r}."
        )
    return int(reps)


def run_study(datasets: Sequence[str] | None = None, n_repeats: int | None = None, *,
              last: int = 5000, curves: bool = True,
              log: Callable[[str], object] = print, config: StrPath = CONFIG,
              etas: dict | None = None) -> dict:  # fmt: skip
    """Table 4 and Figure 1 over the splits of the shipped ``omcsl_table3`` experiment
    (or of ``config``, which has the same splits).

    ``etas``: ``{dataset: {(loss, measure): eta}}``, OMCSL's step per dataset (see
    :func:`tuned_etas`); default OMCSL's default η.

    Returns ``{dataset: {"table4": {(loss, measure): list of per-split dicts},
    "curves": {measure: {method: mean curve}}, "checkpoints": array, "n_train": int}}``;
    a curve's mean at a checkpoint is over the splits where it is defined (NaN in none).
    """
    exp = load_experiment(config)
    specs = {d.name: d for d in exp.datasets}
    names = list(specs) if datasets is None else list(datasets)
    unknown = [n for n in names if n not in specs]
    if unknown:
        raise ValueError(f"unknown dataset {unknown[0]!r}; choose among {', '.join(specs)}.")
    protocol: RandomSplits = exp.protocol  # type: ignore[assignment]
    reps = _split_count(exp, n_repeats)
    if etas is not None:
        for name in names:
            missing = [(loss, m) for loss in ("hinge", "logistic") for m in MEASURES
                       if (loss, m) not in etas.get(name, {})]  # fmt: skip
            if name not in etas:
                raise ValueError(
                    f"no chosen step of OMCSL for {name} (the tuned searches cover "
                    f"{sorted(etas) or 'no dataset'}); run Table 3 with --tuned on it first, "
                    f"or leave it out of --datasets."
                )
            if missing:
                raise ValueError(
                    f"{name}: no chosen step of OMCSL for {missing[0]} (loss, measure); "
                    f"its search in the tuned table has not run. Run Table 3 with --tuned "
                    f"first, or leave {name} out of --datasets."
                )
    results = {}
    for name in names:
        X, y = load_dataset(specs[name])
        X = np.asarray(X, dtype=np.float64)
        y = np.where(np.asarray(y) == 1, 1, -1)
        table: dict = {}
        sums: dict = {}
        cps = None
        t0 = time.perf_counter()
        for rep in range(reps):
            train, _test = protocol.split(y, exp.seed, name, rep, 0)
            seed = task_seed(exp.seed, name, rep, 0)
            res = study_split(X[train], y[train], seed=seed, last=last, curves=curves,
                              etas=None if etas is None else etas[name])  # fmt: skip
            cps = res["checkpoints"]
            for key, row in res["table4"].items():
                table.setdefault(key, []).append(row)
            for measure, per in res["curves"].items():
                for method, curve in per.items():
                    # (sum, count) of the splits where the checkpoint is defined: a split
                    # with no positive seen yet has NaN there, which is left out of the
                    # mean (as the report's curves do), not spread over every split's
                    zero = (np.zeros(len(cps)), np.zeros(len(cps)))
                    acc, n = sums.setdefault(measure, {}).setdefault(method, zero)
                    ok = np.isfinite(curve)
                    acc[ok] += curve[ok]
                    n += ok
        log(f"{name}: {reps} splits, {time.perf_counter() - t0:.1f} s")
        mean_curves = {
            m: {k: np.where(n > 0, v / np.maximum(n, 1), np.nan) for k, (v, n) in per.items()}
            for m, per in sums.items()
        }
        results[name] = {
            "table4": table,
            "curves": mean_curves,
            "checkpoints": cps,
            "n_train": len(train),
        }
    return results


def curves_figure(res: dict, dataset: str) -> Figure:
    """Figure 1 for one dataset: online F-measure, AUROC and AUPRC against rows seen."""
    from matplotlib.ticker import FuncFormatter

    from .plots import _figure

    fig = _figure(figsize=(11, 3.4))
    axes = fig.subplots(1, 3)
    cps = res["checkpoints"]
    for ax, measure in zip(axes, MEASURES):
        for method, curve in res["curves"].get(measure, {}).items():
            label = method if method != "OMCSL-h" else f"OMCSL-h (by {_LABEL[measure]})"
            ax.plot(cps, curve, label=label, lw=1.6 if method.startswith("OMCSL") else 1.0)
        ax.set(xlabel="training rows seen (thousands)", title=f"online {_LABEL[measure]}")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v / 1000:g}"))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    fig.suptitle(f"{dataset}: online performance, mean over the splits (cf. Figure 1 of [1])",
                 fontsize=10)  # fmt: skip
    fig.tight_layout()
    return fig


def table4_markdown(results: dict, *, show_eta: bool = False) -> str:
    """Table 4 as Markdown: mean error, mean ĉ+ and c+*, and the share of splits within
    0.05, per dataset, loss and measure (with ``show_eta``, OMCSL's step size too)."""
    lines = [
        "| dataset | loss | measure | mean err \\|ĉ+ − c+*\\| | splits with err ≤ 0.05 | "
        "mean ĉ+ | mean c+* |" + (" η |" if show_eta else ""),
        "|---|---|---|---|---|---|---|" + ("---|" if show_eta else ""),
    ]
    for name, res in results.items():
        for (loss, measure), rows in res["table4"].items():
            err = np.array([r["error"] for r in rows])
            within = int(np.count_nonzero(err <= 0.05 + 1e-12))
            lines.append(
                f"| {name} | {loss} | {_LABEL[measure]} | {err.mean():.3f} | "
                f"{within}/{len(err)} | {np.mean([r['c_hat'] for r in rows]):.3f} | "
                f"{np.mean([r['c_star'] for r in rows]):.3f} |"
                + (f" {rows[0]['eta']:g} |" if show_eta else "")
            )
    return "\n".join(lines)


#: Rows of Table 3 in the paper's order: label -> {metric: our method}. OMCSL's row takes
#: each measure from OMCSL selected by that measure, as in the paper.
TABLE3_ROWS = {
    "OPAUC": {"roc_auc": "OPAUC"},
    "OFO-l": {"f1": "OFO-l"},
    **{
        f"{m}-{s}": {k: f"{m}-{s}" for k in ("f1", "roc_auc", "pr_auc")}
        for s in ("h", "l")
        for m in ("OCS1", "OCS2")
    },
    **{f"iOOB-{s}": {"f1": f"iOOB-{s}"} for s in ("h", "l")},
    **{f"iUOB-{s}": {"f1": f"iUOB-{s}"} for s in ("h", "l")},
    **{
        f"OMCSL-{s}": {
            "f1": f"OMCSL-F-{s}",
            "roc_auc": f"OMCSL-AUROC-{s}",
            "pr_auc": f"OMCSL-AUPRC-{s}",
        }
        for s in ("h", "l")
    },
}


#: Table 3's rows for ``omcsl_table3_tuned``: OCS1/OCS2 run once per column there, each
#: with the step chosen by that column's measure (as OMCSL runs once per selection measure).
TUNED_ROWS = {
    **TABLE3_ROWS,
    **{
        f"{m}-{s}": {
            "f1": f"{m}-F-{s}",
            "roc_auc": f"{m}-AUROC-{s}",
            "pr_auc": f"{m}-AUPRC-{s}",
        }
        for s in ("h", "l")
        for m in ("OCS1", "OCS2")
    },
}
_TAG = {"f1": "F", "roc_auc": "AUROC", "pr_auc": "AUPRC"}
_ORDER = ("flights", "shuttle", "letter", "satimage")


def _by_order(names) -> list:
    return sorted(names, key=lambda d: (_ORDER.index(d) if d in _ORDER else 9, d))


def chosen_steps(db: StrPath, experiment: str = "omcsl_table3_tuned") -> dict:
    """``{(dataset, method): eta}`` chosen by the shared searches of ``experiment``."""
    from .store import ResultStore

    with ResultStore(db, readonly=True) as store:  # a missing path is an error, not a new db
        found = store.searches(experiment)
    return {(r["dataset"], r["method"]): float(r["params"]["eta"]) for r in found}


def tuned_etas(db: StrPath, experiment: str = "omcsl_table3_tuned") -> dict:
    """OMCSL's chosen steps as :func:`run_study` takes them: ``{dataset: {(loss, measure):
    eta}}`` from the searches of ``OMCSL-F-h``, ``OMCSL-AUROC-h``, …"""
    steps = chosen_steps(db, experiment)
    out: dict = {}
    for (ds, method), eta in steps.items():
        for measure, metric in MEASURES.items():
            for sfx, loss in (("h", "hinge"), ("l", "logistic")):
                if method == f"OMCSL-{_TAG[metric]}-{sfx}":
                    out.setdefault(ds, {})[(loss, measure)] = eta
    return out


def steps_markdown(db: StrPath, experiment: str = "omcsl_table3_tuned") -> str:
    """The chosen step sizes: a row per method, a column per dataset."""
    steps = chosen_steps(db, experiment)
    datasets = _by_order({d for d, _ in steps})
    methods = list(dict.fromkeys(m for _, m in sorted(steps, key=lambda k: k[1])))
    exp = load_experiment(TUNED_CONFIG if experiment == "omcsl_table3_tuned" else CONFIG)
    order = [e.name for e in exp.estimators]
    methods.sort(key=lambda m: order.index(m) if m in order else len(order))
    lines = ["| method | " + " | ".join(datasets) + " |", "|---|" + "---|" * len(datasets)]
    for m in methods:
        cells = [f"{steps[d, m]:g}" if (d, m) in steps else "–" for d in datasets]
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _metric_values(db, experiment: str):
    """``((dataset, method, metric), row, value)`` for every metric of every finished task."""
    from .store import ResultStore

    with ResultStore(db, readonly=True) as store:  # a missing path is an error, not a new db
        rows = store.rows(experiment)
    # in (repetition, fold) order, as the report sums them: a resumed or parallel run
    # stores rows in the order tasks finished, and a sum in that order differs in the ulp
    for r in sorted(rows, key=lambda r: (r["repetition"], r["fold"])):
        for metric, v in r["metrics"].items():
            yield (r["dataset"], r["method"], metric), r, v


def _means(db, experiment: str) -> dict:
    """``{(dataset, method, metric): (mean, std, n_used, n_runs)}`` by the experiment
    report's convention (:func:`.report.finite_mean_std`)."""
    acc: dict = {}
    for key, _, v in _metric_values(db, experiment):
        acc.setdefault(key, []).append(math.nan if v is None else float(v))
    from .report import finite_mean_std

    return {k: (*finite_mean_std(v), len(v)) for k, v in acc.items()}


def _mean_cell(v: tuple | None) -> str:
    """``mean ± std`` of :func:`_means`; the mean alone without a spread; ``(k of n runs)``
    when some runs have no finite value."""
    if v is None:
        return "–"
    mean, std, used, n = v
    if not math.isfinite(mean):
        return "nan"
    s = f"{mean:.4f} ± {std:.4f}" if math.isfinite(std) else f"{mean:.4f}"
    return s if used == n else f"{s} ({used} of {n} runs)"


def table3_markdown(db: StrPath, experiment: str = "omcsl_table3", rows: dict | None = None) -> str:
    """Table 3 in the paper's layout (rows: methods; columns: dataset × F-measure, AUROC,
    AUPRC; mean ± sample std over the splits, as the experiment report prints them); "–"
    where the paper reports nothing either.
    ``rows``: label -> {metric: our method} (default :data:`TABLE3_ROWS`;
    :data:`TUNED_ROWS` for the tuned table)."""
    means = _means(db, experiment)
    datasets = _by_order({k[0] for k in means})
    head = "| method | " + " | ".join(f"{d} F | {d} AUROC | {d} AUPRC" for d in datasets) + " |"
    lines = [head, "|---|" + "---|" * (3 * len(datasets))]
    for label, cols in (TABLE3_ROWS if rows is None else rows).items():
        cells = []
        for d in datasets:
            for metric in ("f1", "roc_auc", "pr_auc"):
                cells.append(_mean_cell(means.get((d, cols.get(metric, ""), metric))))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _runs(db, experiment: str) -> dict:
    """``{(dataset, method, metric): {repetition: value}}`` of the finished tasks."""
    out: dict = {}
    for key, r, v in _metric_values(db, experiment):
        out.setdefault(key, {})[r["repetition"]] = v
    return out


def must_show(db: StrPath, results: dict | None, experiment: str = "omcsl_table3",
              rows: dict | None = None) -> str:  # fmt: skip
    """The issue's checks: OMCSL (selected by the measure) ahead of OCS1 and OCS2 on test
    F-measure and AUPRC on every dataset, per loss; ĉ+ within 0.05 of c+* on most.
    ``rows`` as in :func:`table3_markdown` (which run of OCS1/OCS2 fills each column).

    The last column is OMCSL's mean difference to the better of OCS1 and OCS2 and the
    two-sided p-value of the paired t-test over the splits (paired by repetition)."""
    from ..evaluation.stats import paired_ttest

    rows = TABLE3_ROWS if rows is None else rows
    runs = _runs(db, experiment)
    means = {k: float(np.mean(list(v.values()))) for k, v in runs.items()}
    datasets = sorted({k[0] for k in means})
    out = ["| dataset | loss | measure | OMCSL | OCS1 | OCS2 | ahead of both | "
           "OMCSL − better OCS (paired t p) |",
           "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for ds in datasets:
        for sfx in ("h", "l"):
            for measure, metric in (("f1", "f1"), ("auprc", "pr_auc")):
                keys = [(ds, rows[f"{m}-{sfx}"][metric], metric) for m in ("OMCSL", "OCS1", "OCS2")]
                o, a, b = (means.get(k, np.nan) for k in keys)
                ok = "yes" if o > a and o > b else "**no**"
                diff = "–"
                best = keys[1] if not b > a else keys[2]
                if keys[0] in runs and best in runs:
                    reps = sorted(set(runs[keys[0]]) & set(runs[best]))
                    if len(reps) >= 2:
                        t = paired_ttest([runs[keys[0]][r] for r in reps],
                                         [runs[best][r] for r in reps])  # fmt: skip
                        diff = f"{t.mean_diff:+.4f} ({t.pvalue:.2g})"
                out.append(
                    f"| {ds} | {sfx} | {_LABEL[measure]} | {o:.4f} | {a:.4f} | {b:.4f} | {ok} | "
                    f"{diff} |"
                )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    from .cli import DefaultsHelpFormatter, _n_jobs, positive_int

    p = argparse.ArgumentParser(
        prog="python -m skewlearn.experiments.omcsl_study",
        description=first_line(__doc__),
        formatter_class=DefaultsHelpFormatter,
    )
    p.add_argument("--db", default=None,
                   help="results database of Table 3 (default: <experiment>.sqlite)")  # fmt: skip
    p.add_argument("--tuned", action="store_true",
                   help="the tuned table (omcsl_table3_tuned): Table 3, chosen steps, Table 4 "
                        "at OMCSL's tuned steps and the checks; no Figure 1")  # fmt: skip
    p.add_argument("--jobs", type=_n_jobs, default=1, help="worker processes for Table 3")
    p.add_argument("--repeats", type=positive_int, default=None,
                   help="splits for Table 4 / Figure 1 (default: the experiment's 25)")  # fmt: skip
    p.add_argument("--datasets", nargs="+", default=None,
                   help="datasets of Table 4 / Figure 1 (default: the experiment's)")  # fmt: skip
    p.add_argument("--skip-table3", action="store_true", help="only Table 4 and Figure 1")
    p.add_argument("--skip-table4", action="store_true",
                   help="no Table 4 / Figure 1 (Table 3 and the F/AUPRC checks only)")  # fmt: skip
    p.add_argument("--figures", default="figures", help="directory of the PNG files")
    p.add_argument("--md", default="omcsl_study.md",
                   help="Markdown summary; Table 3 also writes the engine's report beside "
                   "it, its suffix replaced by .engine.md")  # fmt: skip
    p.add_argument(
        "--json",
        default=None,
        help="also dump Table 4's per-split values (standard JSON: an undefined value is null)",
    )
    args = p.parse_args(argv)
    from .cli import expand_user_paths

    expand_user_paths(args, ("db", "figures", "md", "json"))
    config = TUNED_CONFIG if args.tuned else CONFIG
    experiment = config.stem
    rows = TUNED_ROWS if args.tuned else TABLE3_ROWS
    db = args.db or f"{experiment}.sqlite"
    # the summary is written at the end, hours later: refuse now a --md / --json that is
    # a folder or would replace the database (or an experiment file, another database)
    from .cli import _check_outputs

    outputs = {"md": args.md, "json": args.json}
    try:
        _check_outputs(Path(db), {k: v for k, v in outputs.items() if v})
    except ValueError as err:
        p.error(str(err))
    engine = Path(args.md).with_suffix(".engine.md")  # Table 3's engine report
    if not args.skip_table3 and args.json and Path(args.json).resolve() == engine.resolve():
        p.error(f"--json {args.json!r} is the engine's report that Table 3 writes beside --md "
                f"({str(engine)!r}); one would overwrite the other. Give --json another "
                "file name.")  # fmt: skip
    if args.md == "-":  # (report's --md - is standard output; this summary is a file)
        p.error("--md '-': the summary is written to a file, with its .engine.md beside it; "
                "give a file name (./- for a file named '-').")  # fmt: skip
    if not args.skip_table4:  # names and split count before Table 3, which runs for hours
        exp = load_experiment(config)
        known = [d.name for d in exp.datasets]
        unknown = [n for n in args.datasets or () if n not in known]
        if unknown:
            p.error(f"unknown dataset {unknown[0]!r}; choose among {', '.join(known)}.")
        try:
            _split_count(exp, args.repeats)
        except ValueError as err:
            p.error(str(err))
    if args.tuned and args.skip_table3 and not Path(db).is_file():
        p.error(f"--tuned --skip-table3 needs the tuned table's database; {db!r} is missing.")
    # their folders now, not when written at the end (as reproduce --html's is made first),
    # and only once every other argument has passed: a usage error makes nothing (Figure
    # 1's first: a file named by --figures is one, and it left the others' folders made)
    from .cli import _output, output_folder

    try:
        if not (args.skip_table4 or args.tuned):  # Figure 1's
            output_folder("--figures", args.figures)
        for path in (args.md, args.json):
            if path:
                _output(path)
    except OSError as err:  # e.g. a folder not writable
        p.error(f"cannot make the folder {err.filename!r} ({err.strerror or err}).")
    except ValueError as err:
        p.error(str(err))
    t_wall, t_cpu = time.perf_counter(), time.process_time()
    parts = []
    if not args.skip_table3:
        from .cli import Interrupted, Terminated, _sigterm_as_interrupt
        from .report import build_reports, to_markdown
        from .runner import run_experiment

        try:
            with _sigterm_as_interrupt():
                out = run_experiment(config, db, n_jobs=args.jobs, progress=False)
        except KeyboardInterrupt as exc:  # Table 3 runs for hours; its database resumes it
            stopped = Terminated if isinstance(exc, Terminated) else Interrupted
            raise stopped(
                f"; the finished Table 3 tasks are in {db}: run the same command again to resume."
            ) from None
        print(f"Table 3: {out['tasks']} tasks ({out['ran']} run now) in {db}")
        parts.append("## Table 3 (test set)\n\n" + table3_markdown(db, experiment, rows))
        engine.write_text(to_markdown(build_reports(db)), encoding="utf-8")
    if args.tuned:
        parts.append("## Chosen step sizes\n\n" + steps_markdown(db, experiment))
    results = None
    if not args.skip_table4:
        etas = tuned_etas(db, experiment) if args.tuned else None
        try:
            results = run_study(args.datasets, args.repeats, config=config, etas=etas,
                                curves=not args.tuned)  # fmt: skip
        except ValueError as err:  # an unknown dataset, a split count, a missing step
            p.error(str(err))
        if not args.tuned:
            figdir = Path(args.figures)
            figdir.mkdir(parents=True, exist_ok=True)
            for name, res in results.items():
                path = figdir / f"omcsl_online_{name}.png"
                curves_figure(res, name).savefig(path, dpi=80, metadata={"Software": None})
                print(f"Figure 1: {path}")
        errs = [np.mean([r["error"] for r in rows_]) for res in results.values()
                for rows_ in res["table4"].values()]  # fmt: skip
        within = sum(e <= 0.05 + 1e-12 for e in errs)
        parts.append(
            "## Table 4 (selected cost)\n\n" + table4_markdown(results, show_eta=args.tuned)
            + f"\n\nMean error within 0.05 in {within} of {len(errs)} (dataset, loss, measure)"
            " cells."
        )  # fmt: skip
    if Path(db).is_file():
        parts.append("## Must show\n\n" + must_show(db, results, experiment, rows))
    wall, cpu = time.perf_counter() - t_wall, time.process_time() - t_cpu
    parts.append(f"Wall time {wall:.0f} s, CPU time of this process {cpu:.0f} s.")
    Path(args.md).write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    print(f"Summary: {args.md}")
    if args.json and results is not None:
        dump = {
            n: {f"{k[0]}/{k[1]}": v for k, v in r["table4"].items()} for n, r in results.items()
        }
        Path(args.json).write_text(dumps(dump, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    from .cli import run_tool

    run_tool(main, "python -m skewlearn.experiments.omcsl_study")
