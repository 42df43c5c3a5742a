"""Reports from a results database: Markdown, and one self-contained HTML file.

For each experiment and metric: a mean ± std table (datasets × methods) with paired t-test
markers against the reference methods (see :mod:`skewlearn.evaluation.stats`), a
win/tie/loss row, the Friedman test with the Nemenyi critical difference, and — when the
experiment names a paper table — the paper's numbers beside ours. The HTML report embeds
its figures as base64 PNG and carries its own CSS: it opens without any network access.
"""

from __future__ import annotations

import csv
import html
import json
import math
import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..evaluation.stats import (
    FriedmanResult,
    friedman_test,
    nemenyi_cd,
    significance_markers,
    win_tie_loss,
)
from .store import ResultStore, check_results_db

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["ExperimentReport", "MetricTable", "build_reports", "to_html", "to_markdown"]


@dataclass
class MetricTable:
    """One metric of one experiment: cells keyed by (dataset, method)."""

    metric: str
    datasets: list[str]
    methods: list[str]
    reference: list[str]
    mean: dict = field(default_factory=dict)
    std: dict = field(default_factory=dict)
    n_runs: dict = field(default_factory=dict)
    #: Runs with a finite value, the ones each mean and std are over.
    n_used: dict = field(default_factory=dict)
    marker: dict = field(default_factory=dict)
    wtl: dict = field(default_factory=dict)
    friedman: FriedmanResult | None = None
    cd: float | None = None
    friedman_note: str = ""
    paper: dict = field(default_factory=dict)
    #: References the experiment names that have no result in this table.
    missing_reference: list = field(default_factory=list)


@dataclass
class ExperimentReport:
    """Everything the Markdown and HTML writers need about one experiment."""

    name: str
    definition: dict
    rows: list[dict]
    tables: list[MetricTable]
    #: Shared searches (``search.scope = "first_fold"``), rows of the ``searches`` table.
    searches: list[dict] = field(default_factory=list)
    #: Tasks that failed (rows of the ``failures`` table): missing from the tables.
    failures: list[dict] = field(default_factory=list)
    #: Result rows of earlier definitions of this experiment name (left out).
    n_earlier: int = 0


# --------------------------------------------------------------------------- paper tables
def paper_table_missing(columns: list[str], paper: dict) -> list[str]:
    """The columns a paper table of this layout needs that ``columns`` lacks: ``dataset``
    (wide: one more column per method), or ``dataset``, ``method`` and the metric's
    ``column`` (long)."""
    need = ["dataset"]
    if paper.get("layout", "wide") == "long":
        need += ["method", paper.get("column")]
    return [c for c in need if c not in columns]


def read_paper_table(paper: dict) -> dict[tuple[str, str], tuple[float, float | None]]:
    """``{(paper dataset, paper method): (mean, std)}`` on our scale from a shipped CSV."""
    with open(paper["path"], newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(line for line in fh if not line.startswith("#"))
        rows = list(reader)
        missing = paper_table_missing(reader.fieldnames or [], paper)
    if missing:
        raise ValueError(
            f"the paper table {paper['path']} lacks the column(s) {missing}; a "
            f"{paper.get('layout', 'wide')!r} table needs them (see docs/experiments.md)."
        )
    scale = float(paper.get("scale", 1.0))

    def num(v):
        try:
            return float(v) * scale
        except (TypeError, ValueError):
            return None

    out = {}
    if paper.get("layout", "wide") == "wide":
        for r in rows:
            for col, v in r.items():
                if col == "dataset" or col.endswith("_std") or num(v) is None:
                    continue
                out[r["dataset"], col] = (num(v), num(r.get(f"{col}_std")))
    else:
        col = paper["column"]
        for r in rows:
            if num(r.get(col)) is not None:
                out[r["dataset"], r["method"]] = (num(r[col]), num(r.get(f"{col}_std")))
    return out


# --------------------------------------------------------------------------- building
def _ordered(values, preferred):
    seen = [v for v in preferred if v in values]
    return seen + sorted(v for v in values if v not in seen)


def finite_mean_std(values: ArrayLike) -> tuple[float, float, int]:
    """The report's summary of one method's runs on one dataset: the mean and the *sample*
    std (ddof = 1) over the finite values, and how many there are. NaN mean without a
    finite value, NaN std with one (one run has no spread to show, not a spread of 0)."""
    vals = np.asarray(values, dtype=float)
    finite = vals[np.isfinite(vals)]
    mean = float(finite.mean()) if len(finite) else math.nan
    std = float(finite.std(ddof=1)) if len(finite) > 1 else math.nan
    return mean, std, len(finite)


def _table(metric: str, rows: list[dict], definition: dict) -> MetricTable:
    est_names = [e["name"] for e in definition.get("estimators", [])]
    ds_names = [d["name"] for d in definition.get("datasets", [])]
    methods = _ordered({r["method"] for r in rows}, est_names)
    datasets = _ordered({r["dataset"] for r in rows}, ds_names)
    # no reference named: the first method; ``reference = []``: no markers (asked for);
    # named ones without results are not replaced by another method (its markers would
    # answer a question the experiment did not ask)
    given = definition.get("reference")
    declared = list(given) if given is not None else methods[:1]
    missing = [m for m in declared if m not in methods]
    reference = [m for m in declared if m in methods]
    runs: dict[str, dict[str, dict[tuple, float]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        v = r["metrics"].get(metric)
        if v is not None:
            runs[r["method"]][r["dataset"]][r["repetition"], r["fold"]] = float(v)
    t = MetricTable(metric, datasets, methods, reference, missing_reference=missing)
    for m in methods:
        for d in datasets:
            vals = np.array(list(runs[m][d].values()), dtype=float)
            if len(vals):
                t.mean[d, m], t.std[d, m], t.n_used[d, m] = finite_mean_std(vals)
                t.n_runs[d, m] = len(vals)
    # paired runs: each method meets each reference on the (repetition, fold) keys where
    # both have a finite value, so a run one method lacks (skipped, failed, undefined
    # metric) does not remove the markers of the others on that dataset
    paired = {
        m: {d: {k: v for k, v in runs[m][d].items() if math.isfinite(v)} for d in datasets}
        for m in methods
    }
    if len(methods) > 1 and reference:
        t.marker = significance_markers(paired, reference)
        t.wtl = win_tie_loss(paired, reference)
    complete = [
        d for d in datasets if all(math.isfinite(t.mean.get((d, m), math.nan)) for m in methods)
    ]
    k, n = len(methods), len(complete)
    if k >= 2 and n >= 2:
        scores = np.array([[t.mean[d, m] for m in methods] for d in complete])
        t.friedman = friedman_test(scores)
        t.cd = nemenyi_cd(k, n)  # any k (q_alpha from the studentized range beyond Table 5)
        if n < len(datasets):
            t.friedman_note = f"over the {n} datasets where every method has results"
    elif k >= 2 and len(datasets) >= 2:
        t.friedman_note = (
            f"needs at least 2 datasets where every method has results; {n} of the "
            f"{len(datasets)} have"
        )
    else:
        t.friedman_note = "needs at least 2 methods and 2 datasets"
    paper = definition.get("paper")
    if paper and paper.get("metric") == metric and Path(paper["path"]).is_file():
        published = read_paper_table(paper)
        mmap, dmap = paper.get("methods", {}), paper.get("datasets", {})
        for d in datasets:
            for m in methods:
                key = (dmap.get(d, d), mmap.get(m, m))
                if key in published:
                    t.paper[d, m] = published[key]
    return t


def build_reports(
    db: str | Path | ResultStore, experiment: str | None = None
) -> list[ExperimentReport]:
    """One :class:`ExperimentReport` per experiment in the database (or just ``experiment``)."""
    store = db if isinstance(db, ResultStore) else ResultStore(check_results_db(db), readonly=True)
    try:
        definitions = store.experiments()
        rows = store.rows(experiment)
        searches = store.searches(experiment)
        failures = store.failures(experiment)
        by_exp: dict[str, list[dict]] = defaultdict(list)
        for r in rows:
            by_exp[r["experiment"]].append(r)
        for f in failures:  # an experiment whose every task failed is reported too
            by_exp.setdefault(f["experiment"], [])
        names = [experiment] if experiment is not None else sorted(definitions)
        earlier = {name: store.n_earlier(name) for name in {*by_exp, *names}}
        for name in names:  # a changed definition that has no results yet: say what is hidden
            if earlier[name]:
                by_exp.setdefault(name, [])
    finally:
        if not isinstance(db, ResultStore):
            store.close()
    if experiment is not None and experiment not in by_exp:
        raise ValueError(
            f"no results or failures for experiment {experiment!r} in the database; it holds "
            f"{sorted(definitions) or 'no experiments'}."
        )
    reports = []
    for name, exp_rows in by_exp.items():
        definition = definitions.get(name, {})
        # in run order, not the order the tasks finished (joblib, Dask and a resumed run
        # differ): the means, curves and timings are then summed in one order, so they do
        # not move by an ulp (which split ties in the Friedman ranks) with the backend;
        # within a run, datasets and methods in the experiment's order, which the figures'
        # legends and colours and the timing table follow (first seen in the rows)
        exp_rows = sorted(exp_rows, key=_run_order(definition))
        metrics = definition.get("metrics") or sorted({m for r in exp_rows for m in r["metrics"]})
        # no rows (every task failed, or a changed definition not run yet): no empty tables
        tables = [_table(m, exp_rows, definition) for m in metrics] if exp_rows else []
        # the shared searches too (stored as they finished), which the sensitivity
        # figures follow
        found = sorted((s for s in searches if s["experiment"] == name), key=_run_order(definition))
        failed = [f for f in failures if f["experiment"] == name]
        reports.append(
            ExperimentReport(name, definition, exp_rows, tables, found, failed, earlier[name])
        )
    return reports


def _run_order(definition: dict):
    """The sort key of :func:`build_reports`' rows and shared searches: repetition, fold,
    then the dataset's and the method's places in the definition (names it lacks after
    them, by name)."""
    places = {
        kind: {n: i for i, n in enumerate(x["name"] for x in definition.get(kind, []))}
        for kind in ("datasets", "estimators")
    }

    def key(r: dict) -> tuple:
        d, m = places["datasets"], places["estimators"]
        return (
            r.get("repetition", 0),  # (a shared search has neither)
            r.get("fold", 0),
            (d.get(r["dataset"], len(d)), r["dataset"]),
            (m.get(r["method"], len(m)), r["method"]),
        )

    return key


def failure_summary(failures: list[dict], width: int = 240) -> list[str]:
    """One line per (method, dataset) of the failed tasks, in order of appearance:
    ``"OPAUC on pima: 3 tasks, ValueError: ..."`` with the first task's error (cut at
    ``width`` characters; the others are in the database's ``failures`` table)."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for f in failures:
        groups[f["method"], f["dataset"]].append(f["error"])
    out = []
    for (method, dataset), errors in groups.items():
        text = errors[0] if len(errors[0]) <= width else errors[0][: width - 1] + "…"
        n = len(errors)
        out.append(f"{method} on {dataset}: {n} task{'s' * (n != 1)}, {text}")
    return out


# --------------------------------------------------------------------------- formatting
def _num(v: float | None) -> str:
    if v is None or not math.isfinite(v):
        return "–"
    return f"{v:.3f}"


def _cell(t: MetricTable, d: str, m: str) -> str:
    if (d, m) not in t.mean:
        return "–"
    mean, std = t.mean[d, m], t.std[d, m]
    s = f"{_num(mean)} ± {_num(std)}" if math.isfinite(std) else _num(mean)
    mark = t.marker.get((m, d), "")
    # a cell over fewer runs than others (a partial run, a failed task, a NaN score) says
    # so: its mean is not over the same runs as its neighbours'
    most = max(t.n_used.values(), default=0)
    used = t.n_used.get((d, m), most)
    fewer = f"({used} of {most} runs)" if used < most else ""
    return " ".join(x for x in (s, mark, fewer) if x)


def _paper_cell(t: MetricTable, d: str, m: str) -> str:
    if (d, m) not in t.paper:
        return ""
    mean, std = t.paper[d, m]
    return f"{_num(mean)} ± {_num(std)}" if std is not None else _num(mean)


def _legend(t: MetricTable) -> str:
    missing = ", ".join(t.missing_reference)
    if not t.reference and not t.missing_reference:
        return "mean ± std over the runs; no t-test markers (the experiment names no reference)."
    if not t.reference:
        verb = "has" if len(t.missing_reference) == 1 else "have"
        return (
            f"mean ± std over the runs; no t-test markers: the reference {missing} {verb} no "
            "results here (see the failures above)."
        )
    refs = ", ".join(t.reference)
    text = (
        f"mean ± std over the runs; ● / ○: every / some reference ({refs}) significantly "
        "better than the method, ▲ / △: every / some reference significantly worse "
        "(paired t-tests at 95%); win/tie/loss counts datasets from the references' side."
    )
    if t.missing_reference:
        verb = "has" if len(t.missing_reference) == 1 else "have"
        text += f" {missing}, also a reference, {verb} no results here."
    return text


def _friedman_text(t: MetricTable) -> str:
    if t.friedman is None:
        return f"Friedman test: not computed ({t.friedman_note})."
    f = t.friedman
    ranks = ", ".join(f"{m} {r:.2f}" for m, r in zip(t.methods, f.ranks))
    cd = f"; Nemenyi CD (α = 0.05) = {t.cd:.3f}" if t.cd is not None else ""
    note = f" ({t.friedman_note})" if t.friedman_note else ""
    return (
        f"Friedman χ²_F = {f.chi2:.3f} (p = {f.pvalue:.3g}), Iman–Davenport F_F = "
        f"{f.f_stat:.3f} (p = {f.f_pvalue:.3g}) over {f.n_datasets} datasets{note}{cd}. "
        f"Average ranks (1 = best): {ranks}."
    )


def to_markdown(reports: list[ExperimentReport]) -> str:
    """The reports as Markdown (tables and statistics; figures are in the HTML report)."""
    out = []
    for rep in reports:
        out.append(f"# Experiment `{rep.name}`\n")
        if rep.definition.get("description"):
            out.append(rep.definition["description"] + "\n")
        out.append(_setup_text(rep) + "\n")
        for t in rep.tables:
            has_paper = bool(t.paper)
            out.append(f"## {t.metric}\n")
            out.append(_legend(t) + (" Paper: the published number." if has_paper else "") + "\n")
            header = ["dataset"]
            for m in t.methods:
                header.append(m)
                if has_paper and any((d, m) in t.paper for d in t.datasets):
                    header.append(f"{m} (paper)")
            out.append(_md_row(header))
            out.append("|" + "---|" * len(header))
            for d in t.datasets:
                cells = [d]
                for m in t.methods:
                    cells.append(_cell(t, d, m))
                    if has_paper and any((dd, m) in t.paper for dd in t.datasets):
                        cells.append(_paper_cell(t, d, m))
                out.append(_md_row(cells))
            if t.wtl:
                cells = ["win/tie/loss"]
                for m in t.methods:
                    cells.append("/".join(map(str, t.wtl[m])) if m in t.wtl else "")
                    if has_paper and any((dd, m) in t.paper for dd in t.datasets):
                        cells.append("")
                out.append(_md_row(cells))
            out.append("")
            out.append(_friedman_text(t) + "\n")
        out.append(_searches_markdown(rep))
        if rep.rows:
            out.append(_timing_markdown(rep))
    return "\n".join(out)


def _has_search(definition: dict) -> bool:
    """Whether some estimator (or a per-dataset override of it) has a grid of more than
    one candidate, i.e. whether the search settings were used at all."""
    for e in definition.get("estimators", []):
        grids = [e.get("grid") or {}] + [
            (o or {}).get("grid") or {} for o in (e.get("by_dataset") or {}).values()
        ]
        if any(len(v) > 1 for g in grids for v in g.values() if isinstance(v, list)):
            return True
    return False


def _setup_text(rep: ExperimentReport) -> str:
    d = rep.definition
    proto = d.get("protocol", {})
    kind = proto.get("kind", "?")
    extra = ", ".join(f"{k}={v}" for k, v in proto.items() if k != "kind")
    versions = sorted(
        {(r["skewlearn_version"], r["numpy_version"], r["sklearn_version"]) for r in rep.rows}
    )
    hosts = sorted({str(r["host"]).rsplit(":", 1)[0] for r in rep.rows})
    v = "; ".join(f"skewlearn {a}, numpy {b}, scikit-learn {c}" for a, b, c in versions)
    search = d.get("search", {})
    scope = ""
    if search.get("scope") == "first_fold":
        scope = (
            " Hyperparameters chosen once per dataset and method, by the inner search on the "
            "training part of repetition 0, fold 0, and used for every run."
        )
    own = [f"{e['name']} {e['search_metric']}" for e in d.get("estimators", [])
           if e.get("search_metric")]  # fmt: skip
    if own:
        scope += " Estimators searched by their own metric: " + ", ".join(own) + "."
    searched = (
        f"search metric {search.get('metric', '–')}, {search.get('inner_splits', '–')} inner folds"
    )
    if not _has_search(d):
        searched, scope = "no hyperparameter search (every grid has one value)", ""
    finished = f"{len(rep.rows)} tasks finished"
    n_tasks = d.get("n_tasks")  # recorded by run since session 14
    if isinstance(n_tasks, int) and len(rep.rows) < n_tasks:
        finished = (
            f"{len(rep.rows)} of {n_tasks} tasks finished (PARTIAL: the tables hold the "
            "finished runs only; `skewlearn run` or `skewlearn reproduce` of the same "
            "experiment, without --repeats, runs the others)"
        )
    text = (
        f"Protocol: {kind} ({extra}); seed {d.get('seed', '?')}; {finished}; "
        f"{searched}.{scope} "
        f"Versions: {v or '–'}. Hosts: {', '.join(hosts) or '–'}."
    )
    if d.get("cuts"):
        text += " Cuts from the paper's protocol: " + "; ".join(d["cuts"]) + "."
    if rep.failures:
        text += (
            f" FAILED, missing from the tables ({len(rep.failures)} tasks; a re-run tries "
            "them again): " + "; ".join(failure_summary(rep.failures)).rstrip(".") + "."
        )
    if rep.n_earlier:
        text += (
            f" Not shown: {rep.n_earlier} result rows of an earlier definition of "
            f"{rep.name!r} in this database (this report shows the definition run last)."
        )
    return text


def _timings(rep: ExperimentReport) -> dict[str, tuple[float, float]]:
    acc: dict[str, list] = defaultdict(list)
    for r in rep.rows:
        acc[r["method"]].append((r["fit_time"] or 0.0, r["wall_time"] or 0.0))
    return {m: tuple(np.mean(v, axis=0)) for m, v in acc.items()}


def _cpu_totals(rep: ExperimentReport) -> tuple[float, float]:
    """CPU seconds of the finished tasks and of the shared searches (0 where not recorded)."""
    tasks = sum(float(r["extra"].get("cpu_time", 0.0) or 0.0) for r in rep.rows)
    searches = sum(float(s.get("cpu_time") or 0.0) for s in rep.searches)
    return tasks, searches


def _md_row(cells: list[str]) -> str:
    """One Markdown table row; a '|' inside a cell (a name such as "PA|C=1") is escaped, so
    it does not split the cell."""
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


_SEARCH_HEADER = ["dataset", "method", "chosen", "inner score", "candidates", "CPU s"]


def _search_rows(rep: ExperimentReport) -> list[list[str]]:
    """The cells of the shared searches' table, in the order of the definition."""
    methods = {m: i for i, m in enumerate(e["name"] for e in rep.definition.get("estimators", []))}
    datasets = {d: i for i, d in enumerate(x["name"] for x in rep.definition.get("datasets", []))}
    rows = []
    order = sorted(
        rep.searches,
        key=lambda s: (datasets.get(s["dataset"], 1e9), methods.get(s["method"], 1e9)),
    )
    for s in order:
        info = s["extra"].get("search", {})
        scores = [x for x in info.get("scores", []) if x is not None]
        chosen = ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in sorted(s["params"].items()))  # fmt: skip
        best = f"{max(scores):.4f}" if scores else "–"
        cpu = f"{s['cpu_time']:.1f}" if s.get("cpu_time") is not None else "–"
        rows.append(
            [s["dataset"], s["method"], chosen, best, str(len(info.get("params", []))), cpu]
        )
    return rows


def _searches_markdown(rep: ExperimentReport) -> str:
    if not rep.searches:
        return ""
    lines = [
        "## Hyperparameters chosen (one search per dataset and method)\n",
        _md_row(_SEARCH_HEADER),
        "|---|---|---|---|---|---|",
    ]
    lines += [_md_row(cells) for cells in _search_rows(rep)]
    return "\n".join(lines) + "\n"


def _timing_markdown(rep: ExperimentReport) -> str:
    lines = ["## Time per task (s)\n", "| method | fit (incl. search) | task |", "|---|---|---|"]
    for m, (fit, wall) in _timings(rep).items():
        lines.append(_md_row([m, f"{fit:.4f}", f"{wall:.4f}"]))
    tasks, searches = _cpu_totals(rep)
    if tasks or searches:
        lines.append(
            f"\nCPU time in the workers: {tasks:.1f} s in the tasks"
            + (f" + {searches:.1f} s in the shared searches" if rep.searches else "")
            + "."
        )
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- HTML
_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;
max-width:1150px;color:#222;line-height:1.4;padding:0 1em}
h1{font-size:1.6em;border-bottom:2px solid #444}h2{font-size:1.25em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0;font-size:.86em}
th,td{border:1px solid #bbb;padding:.25em .55em;text-align:right;white-space:nowrap}
th{background:#eee}td:first-child,th:first-child{text-align:left}
td.paper{color:#666;background:#f8f8f2}tr.wtl td{background:#f2f2f8;font-weight:600}
p.note{font-size:.85em;color:#555}figure{margin:1em 0}figure img{max-width:100%}
"""


def _mean_curves(rows: list[dict], key: str) -> dict[str, dict[str, dict[str, list]]]:
    """dataset -> method -> averaged curve/stream dict over runs."""
    acc: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for r in rows:
        c = r["extra"].get(key)
        if not c:
            continue
        for name, values in c.items():
            acc[r["dataset"]][r["method"]][name].append(values)
    out: dict = defaultdict(dict)
    for d, per_m in acc.items():
        for m, per_name in per_m.items():
            avg = {}
            for name, lists in per_name.items():
                n = min(len(v) for v in lists)
                arr = np.array([v[:n] for v in lists], dtype=float)
                # a point undefined in every run (a prefix with one class) stays NaN;
                # nanmean's "Mean of empty slice" is a warning, not a floating-point error
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    avg[name] = np.nanmean(arr, axis=0).tolist() if arr.size else []
            out[d][m] = avg
    return out


def _is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _sensitivity(rows: list[dict]):
    """method -> param -> dataset -> (values, mean best inner score at each value).

    Numeric values come sorted; a parameter with any other value (``gamma = ["scale",
    0.1]``, ``kernel = ["rbf", "linear"]``, a list such as ``hidden_layer_sizes``) keeps
    its values in grid order, which cannot be sorted (until session 16 such a grid made
    the HTML report fail with a TypeError)."""
    acc: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    for r in rows:
        s = r["extra"].get("search")
        if not s:
            continue
        for param in s["params"][0] if s["params"] else []:
            best: dict = {}  # value's JSON text -> (value, best score)
            for p, score in zip(s["params"], s["scores"]):
                if score is None:
                    continue
                key = json.dumps(p[param], sort_keys=True, default=str)
                old = best.get(key, (p[param], -math.inf))[1]
                best[key] = (p[param], max(old, score))
            per_value = acc[r["method"]][param][r["dataset"]]
            for key, (v, score) in best.items():
                per_value.setdefault(key, (v, []))[1].append(score)
    out: dict = defaultdict(dict)
    for m, per_p in acc.items():
        for p, per_d in per_p.items():
            out[m][p] = {}
            for d, per_value in per_d.items():
                items = list(per_value.values())  # grid order (first seen)
                if all(_is_number(v) for v, _ in items):
                    items.sort(key=lambda item: item[0])
                out[m][p][d] = ([v for v, _ in items], [float(np.mean(s)) for _, s in items])
    return out


def _img(fig, alt: str) -> str:
    from .plots import to_png_base64

    return (
        f'<figure><img alt="{html.escape(alt)}" '
        f'src="data:image/png;base64,{to_png_base64(fig)}"></figure>'
    )


def _html_table(t: MetricTable) -> str:
    e = html.escape
    with_paper = [m for m in t.methods if any((d, m) in t.paper for d in t.datasets)]
    head = ["<th>dataset</th>"]
    for m in t.methods:
        head.append(f"<th>{e(m)}</th>")
        if m in with_paper:
            head.append(f"<th>{e(m)} (paper)</th>")
    body = []
    for d in t.datasets:
        cells = [f"<td>{e(d)}</td>"]
        for m in t.methods:
            cells.append(f"<td>{e(_cell(t, d, m))}</td>")
            if m in with_paper:
                cells.append(f'<td class="paper">{e(_paper_cell(t, d, m))}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    if t.wtl:
        cells = ["<td>win/tie/loss</td>"]
        for m in t.methods:
            cells.append(f"<td>{'/'.join(map(str, t.wtl[m])) if m in t.wtl else ''}</td>")
            if m in with_paper:
                cells.append('<td class="paper"></td>')
        body.append('<tr class="wtl">' + "".join(cells) + "</tr>")
    return (
        "<table><thead><tr>" + "".join(head) + "</tr></thead><tbody>"
        + "".join(body) + "</tbody></table>"
    )  # fmt: skip


def _html_searches(rep: ExperimentReport) -> str:
    """The shared searches' table (the cells of :func:`_searches_markdown`) as HTML."""
    e = html.escape
    out = ["<h2>Hyperparameters chosen (one search per dataset and method)</h2><table><thead><tr>"]
    out += [f"<th>{e(c)}</th>" for c in _SEARCH_HEADER]
    out.append("</tr></thead><tbody>")
    for cells in _search_rows(rep):
        out.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in cells))
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def to_html(reports: list[ExperimentReport], *, figures: bool = True) -> str:
    """One self-contained HTML document (inline CSS, figures as base64 PNG, no scripts)."""
    from .plots import cd_diagram, roc_pr_figure, sensitivity_figure, stream_figure

    e = html.escape
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>skewlearn report: {e(', '.join(r.name for r in reports))}</title>",
        f"<style>{_CSS}</style></head><body>",
    ]
    for rep in reports:
        parts.append(f"<h1>Experiment <code>{e(rep.name)}</code></h1>")
        if rep.definition.get("description"):
            parts.append(f"<p>{e(rep.definition['description'])}</p>")
        parts.append(f"<p class='note'>{e(_setup_text(rep))}</p>")
        for t in rep.tables:
            parts.append(f"<h2>{e(t.metric)}</h2>")
            parts.append(f"<p class='note'>{e(_legend(t))}</p>")
            parts.append(_html_table(t))
            parts.append(f"<p class='note'>{e(_friedman_text(t))}</p>")
            if figures and t.friedman is not None and t.cd is not None:
                ranks = dict(zip(t.methods, t.friedman.ranks))
                parts.append(
                    _img(cd_diagram(ranks, t.cd, f"{t.metric}: average ranks"), "CD diagram")
                )
        if figures:
            curves = _mean_curves(rep.rows, "curves")
            if curves:
                parts.append("<h2>ROC and precision–recall curves (test folds, averaged)</h2>")
                for d, per_m in curves.items():
                    parts.append(_img(roc_pr_figure(per_m, d), f"ROC and PR curves on {d}"))
            streams = _mean_curves(rep.rows, "stream")
            if streams:
                parts.append("<h2>Metrics over the stream (prequential)</h2>")
                for d, per_m in streams.items():
                    for metric in rep.definition.get("metrics", []):
                        fig = stream_figure(per_m, metric, f"{d}: {metric}")
                        parts.append(_img(fig, f"{metric} over the stream on {d}"))
            # every task's search, or the shared ones (search.scope = "first_fold")
            sens = _sensitivity([*rep.rows, *rep.searches])
            if sens:
                default = rep.definition.get("search", {}).get("metric", "score")
                own = {e.get("name"): e.get("search_metric")
                       for e in rep.definition.get("estimators", [])}  # fmt: skip
                parts.append("<h2>Sensitivity (best inner-CV score at each parameter value)</h2>")
                for m, per_p in sens.items():
                    metric = own.get(m) or default  # an estimator's own search metric
                    for p, lines in per_p.items():
                        fig = sensitivity_figure(lines, p, metric, f"{m}: {p}")
                        parts.append(_img(fig, f"sensitivity of {m} to {p}"))
        if rep.searches:
            parts.append(_html_searches(rep))
        if rep.rows:
            parts.append(
                "<h2>Time per task (s)</h2><table><thead><tr><th>method</th>"
                "<th>fit (incl. search)</th><th>task</th></tr></thead><tbody>"
            )
            for m, (fit, wall) in _timings(rep).items():
                parts.append(f"<tr><td>{e(m)}</td><td>{fit:.4f}</td><td>{wall:.4f}</td></tr>")
            parts.append("</tbody></table>")
    parts.append("</body></html>")
    return "\n".join(parts)
