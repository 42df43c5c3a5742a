"""Reports: tables and statistics checked against scipy; HTML that needs no network."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest
from scipy import stats

from skewlearn.experiments import run_experiment
from skewlearn.experiments.report import build_reports, to_html, to_markdown

from .conftest import TOY

PAPER = """
[paper]
table = "koil_table1_auc.csv"
metric = "roc_auc"
methods = {Ridge = "OAM_seq", Perceptron = "Perceptron"}
datasets = {a = "sonar"}
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "toy.toml"
    text = TOY + PAPER
    path.write_text(text)
    out = path.parent / "toy.db"
    run_experiment(path, out, n_jobs=1, progress=False)
    return out


def _runs(report, metric, method, dataset):
    rows = [r for r in report.rows if r["method"] == method and r["dataset"] == dataset]
    rows.sort(key=lambda r: (r["repetition"], r["fold"]))
    return np.array([r["metrics"][metric] for r in rows])


def test_tables_and_statistics_match_scipy(db):
    (rep,) = build_reports(db)
    t = next(t for t in rep.tables if t.metric == "roc_auc")
    assert t.methods == ["Ridge", "Perceptron", "PA"] and t.datasets == ["a", "b"]
    for d in t.datasets:
        for m in t.methods:
            v = _runs(rep, "roc_auc", m, d)
            assert len(v) == 6
            assert t.mean[d, m] == pytest.approx(v.mean())
            assert t.std[d, m] == pytest.approx(v.std(ddof=1))
    wins = {m: [0, 0, 0] for m in ("Perceptron", "PA")}
    for m in wins:
        for d in t.datasets:
            res = stats.ttest_rel(_runs(rep, "roc_auc", "Ridge", d), _runs(rep, "roc_auc", m, d))
            sig = res.pvalue < 0.05
            expected = ("●" if res.statistic > 0 else "▲") if sig else ""
            assert t.marker[m, d] == expected
            wins[m][0 if sig and res.statistic > 0 else 2 if sig else 1] += 1
    assert t.wtl == {m: tuple(c) for m, c in wins.items()}
    means = np.array([[t.mean[d, m] for m in t.methods] for d in t.datasets])
    assert t.friedman.chi2 == pytest.approx(stats.friedmanchisquare(*means.T).statistic)
    assert t.cd == pytest.approx(2.343 * np.sqrt(3 * 4 / (6 * 2)))


def test_paper_numbers_sit_beside_ours(db):
    (rep,) = build_reports(db)
    t = next(t for t in rep.tables if t.metric == "roc_auc")
    # koil_table1_auc.csv, row sonar: OAM_seq .843 ± .056, Perceptron .803 ± .083
    assert t.paper == {("a", "Ridge"): (0.843, 0.056), ("a", "Perceptron"): (0.803, 0.083)}
    md = to_markdown([rep])
    assert "| dataset | Ridge | Ridge (paper) | Perceptron | Perceptron (paper) | PA |" in md
    assert "0.843 ± 0.056" in md
    assert not next(t for t in rep.tables if t.metric == "gmean").paper


def test_html_is_one_self_contained_file(db):
    page = to_html(build_reports(db))
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count("<table>") == 3  # two metrics and the timings
    assert len(re.findall(r'src="data:image/png;base64,[A-Za-z0-9+/=]+"', page)) >= 3
    # nothing to fetch: no URLs, no external stylesheets, scripts or fonts
    assert not re.search(r"https?://|<script|<link|@import|url\(", page)
    assert "src=" not in page.replace('src="data:image/png;base64,', "")


def test_unknown_experiment_is_named(db):
    with pytest.raises(ValueError, match=r"no results or failures for experiment 'nope'.*'toy'"):
        build_reports(db, "nope")


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium (Debian package chromium) is not installed"
)
def test_html_renders_in_headless_chromium(db, tmp_path):
    page = tmp_path / "report.html"
    page.write_text(to_html(build_reports(db)))
    png = tmp_path / "shot.png"
    flags = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]  # fmt: skip
    subprocess.run(
        [*flags, f"--screenshot={png}", "--window-size=1200,1600", page.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    dom = subprocess.run(
        [*flags, "--dump-dom", page.as_uri()],
        check=True, capture_output=True, text=True, timeout=120,
    ).stdout  # fmt: skip
    assert dom.count("<table>") == 3 and "roc_auc" in dom
    from matplotlib.image import imread

    img = imread(png)[..., :3]
    assert img.shape[:2] == (1600, 1200)
    ink = np.mean(np.any(img < 0.9, axis=-1))  # share of non-white pixels
    assert 0.01 < ink < 0.9


def test_friedman_note_names_the_datasets_missing_a_method(tmp_path):
    """PA skipped on dataset b: two methods and two datasets, but only one dataset has every
    method, so the test is not run, and the note says why."""
    import tomllib

    from skewlearn.experiments.config import parse_experiment

    data = tomllib.loads(TOY)
    data["protocol"]["n_repeats"] = 1
    data["estimators"][2]["by_dataset"] = {"b": {"skip": True}}
    db = tmp_path / "skip.sqlite"
    run_experiment(parse_experiment(data), db, n_jobs=1, progress=False)
    md = to_markdown(build_reports(db))
    assert "needs at least 2 datasets where every method has results; 1 of the 2 have" in md


def test_a_skipped_method_leaves_the_markers_of_the_others(tmp_path):
    """PA skipped on dataset b: Perceptron on b is still compared with the reference Ridge,
    over the runs those two share (it was compared on none before session 9)."""
    import tomllib

    from skewlearn.experiments.config import parse_experiment

    data = tomllib.loads(TOY)
    data["estimators"][2]["by_dataset"] = {"b": {"skip": True}}
    db = tmp_path / "skip.sqlite"
    run_experiment(parse_experiment(data), db, n_jobs=1, progress=False)
    (rep,) = build_reports(db)
    t = next(t for t in rep.tables if t.metric == "roc_auc")
    res = stats.ttest_rel(
        _runs(rep, "roc_auc", "Ridge", "b"), _runs(rep, "roc_auc", "Perceptron", "b")
    )
    assert ("Perceptron", "b") in t.marker
    assert t.marker["Perceptron", "b"] == (
        ("●" if res.statistic > 0 else "▲") if res.pvalue < 0.05 else ""
    )
    assert ("PA", "b") not in t.marker and ("PA", "a") in t.marker
    assert sum(t.wtl["Perceptron"]) == 2 and sum(t.wtl["PA"]) == 1


def test_each_pair_uses_the_runs_both_have():
    """A run one method lacks (or scores NaN on) drops only that run from its own pairings."""
    from skewlearn.experiments.report import _cell, _table

    rng = np.random.default_rng(0)
    ref = rng.normal(0.9, 0.01, 6)
    good = ref - 0.2 + rng.normal(0, 0.01, 6)
    rows = []
    for i in range(6):
        key = {"dataset": "d", "repetition": i // 3, "fold": i % 3}
        rows.append({**key, "method": "R", "metrics": {"auc": ref[i]}})
        rows.append({**key, "method": "M", "metrics": {"auc": good[i]}})
        if i < 2:  # N has two runs only; the first scores NaN, so it shares one run with R
            rows.append({**key, "method": "N", "metrics": {"auc": np.nan if i == 0 else 0.1}})
    t = _table("auc", rows, {"reference": ["R"]})
    assert t.marker == {("M", "d"): "●"}
    assert t.wtl == {"M": (1, 0, 0)}
    # N's one finite run has a mean but no spread: no "± 0.000", and no warning
    assert t.mean["d", "N"] == 0.1 and np.isnan(t.std["d", "N"])
    assert _cell(t, "d", "N") == "0.100 (1 of 6 runs)"  # session 14: fewer runs named
    assert _cell(t, "d", "M") == f"{good.mean():.3f} ± {good.std(ddof=1):.3f} ●"


def test_setup_line_names_the_search_only_when_there_is_one(db, tmp_path):
    import tomllib

    from skewlearn.experiments.config import parse_experiment

    assert "search metric roc_auc, 3 inner folds" in to_markdown(build_reports(db))
    data = tomllib.loads(TOY)
    data["protocol"]["n_repeats"] = 1
    for e in data["estimators"]:
        e.pop("grid", None)
    data["estimators"][2]["by_dataset"] = {"b": {"grid": {"C": [0.5]}}}
    plain = tmp_path / "plain.sqlite"
    run_experiment(parse_experiment(data), plain, n_jobs=1, progress=False)
    md = to_markdown(build_reports(plain))
    assert "no hyperparameter search (every grid has one value)" in md
    assert "inner folds" not in md
    from skewlearn.experiments.report import _has_search

    data["estimators"][2]["by_dataset"] = {"b": {"grid": {"C": [0.5, 1.0]}}}
    assert _has_search(parse_experiment(data).as_dict())


def test_a_pipe_in_a_name_keeps_the_tables_columns():
    """A method or dataset named with '|' ("Perc|x", "toy|a") split its Markdown cell into
    two, and the HTML table of the shared searches (parsed back from the Markdown) moved
    every later cell one column to the right."""
    from skewlearn.experiments.report import ExperimentReport, _table

    rows = []
    for i in range(3):
        for m, auc in (("R", 0.9), ("Perc|x", 0.5)):
            for d in ("toy|a", "b"):
                rows.append(
                    {"dataset": d, "repetition": 0, "fold": i, "method": m,
                     "metrics": {"auc": auc + 0.01 * i}, "extra": {"cpu_time": 0.1},
                     "fit_time": 0.1, "wall_time": 0.2, "skewlearn_version": "x",
                     "numpy_version": "y", "sklearn_version": "z", "host": "h:1"}
                )  # fmt: skip
    search = {"dataset": "toy|a", "method": "Perc|x", "params": {"kernel": "a|b"},
              "extra": {"search": {"scores": [0.3, 0.5, None], "params": [{}, {}, {}]}},
              "cpu_time": 1.0}  # fmt: skip
    definition = {"reference": ["R"], "metrics": ["auc"]}
    rep = ExperimentReport("e", definition, rows, [_table("auc", rows, definition)], [search])
    md = to_markdown([rep])
    assert "| dataset | Perc\\|x | R |" in md
    # (three runs 0.4 apart each: the sign test's p = 0.25, no marker; session 19)
    assert "| toy\\|a | 0.510 ± 0.010 | 0.910 ± 0.010 |" in md
    assert "| Perc\\|x | 0.1000 | 0.2000 |" in md
    assert "| toy\\|a | Perc\\|x | kernel=a\\|b |" in md
    html = to_html([rep], figures=False)
    # the inner score shown is the best candidate's (session 27: the first's passed too)
    assert "<td>toy|a</td><td>Perc|x</td><td>kernel=a|b</td><td>0.5000</td><td>3</td>" in html


def test_a_reference_without_results_is_not_replaced_silently():
    """The experiment's reference failed on every task: the report took the first other
    method as the reference and printed its markers and win/tie/loss under the usual
    legend, as if the experiment had asked for that comparison."""
    from skewlearn.experiments.report import _legend, _table

    rng = np.random.default_rng(0)
    rows = [
        {"dataset": d, "repetition": 0, "fold": i, "method": m,
         "metrics": {"auc": base + rng.normal(0, 0.01)}}
        for d in ("a", "b") for i in range(4) for m, base in (("P", 0.9), ("Q", 0.5))
    ]  # fmt: skip
    t = _table("auc", rows, {"reference": ["KOIL"]})
    assert t.reference == [] and t.marker == {} and t.wtl == {}
    assert "no t-test markers: the reference KOIL has no results" in _legend(t)
    t = _table("auc", rows, {"reference": ["KOIL", "P"]})
    assert t.reference == ["P"] and t.marker == {("Q", "a"): "●", ("Q", "b"): "●"}
    assert "KOIL, also a reference, has no results" in _legend(t)
    t = _table("auc", rows, {})  # no reference named: the first method, as before
    assert t.reference == ["P"] and "has no results" not in _legend(t)
    # session 15: `reference = []` took the first method too; it asks for no markers
    t = _table("auc", rows, {"reference": []})
    assert t.reference == [] and t.marker == {} and t.wtl == {}
    assert _legend(t).endswith("no t-test markers (the experiment names no reference).")


def test_a_partial_run_is_reported_as_partial(tmp_path):
    """Session 14: a report of a run cut short (killed, or --repeats) said "18 tasks
    finished" and averaged each cell over whatever runs it had, with nothing to tell a cell
    of 2 runs from one of 6. The setup line now counts the definition's tasks, and a cell
    over fewer runs than the others says how many."""
    import sqlite3
    import tomllib

    from skewlearn.experiments.config import parse_experiment

    exp = parse_experiment(tomllib.loads(TOY))
    db = tmp_path / "cut.sqlite"
    run_experiment(exp, db, n_jobs=1, progress=False, repeats=1)
    md = to_markdown(build_reports(db))
    assert "18 of 36 tasks finished (PARTIAL" in md
    # session 26: a cut made by `reproduce NAME --repeats N` is resumed by either command
    assert "`skewlearn run` or `skewlearn reproduce` of the same experiment" in md
    run_experiment(exp, db, n_jobs=1, progress=False)
    md = to_markdown(build_reports(db))
    assert "; 36 tasks finished;" in md and "PARTIAL" not in md and " runs)" not in md
    # a run killed before two of PA's tasks on dataset a were written
    con = sqlite3.connect(db)
    with con:
        con.execute(
            "DELETE FROM results WHERE rowid IN (SELECT rowid FROM results WHERE method = "
            "'PA' AND dataset = 'a' AND repetition = 1 AND fold < 2)"
        )
    con.close()
    (rep,) = build_reports(db)
    left = _runs(rep, "roc_auc", "PA", "a")
    assert len(left) == 4
    md = to_markdown([rep])
    assert "34 of 36 tasks finished (PARTIAL" in md
    cell = f"{left.mean():.3f} ± {left.std(ddof=1):.3f}"
    row = next(line for line in md.splitlines() if line.startswith("| a |"))
    assert row.split(" | ")[3].startswith(cell) and row.endswith("(4 of 6 runs) |")
    assert "(4 of 6 runs)" in to_html([rep], figures=False)


@pytest.mark.parametrize(
    "values",
    [["scale", 0.1, 1.0], ["rbf", "linear"], [[10], [10, 10]], [True, False], [4, 0.5, 2]],
)
def test_sensitivity_figure_takes_any_grid_values(values):
    """A grid of strings, of strings and numbers (SVC's ``gamma = ["scale", 0.1]``), of
    lists or of booleans: until session 16 the HTML report failed on them with a
    TypeError ('<' between float and str) or a ValueError (a string made a float). The
    values of a numeric grid are sorted, the others keep the grid's order."""
    from skewlearn.experiments.report import ExperimentReport, _sensitivity

    def row(dataset, scores):
        search = {"params": [{"p": v} for v in values], "scores": scores}
        return {"dataset": dataset, "method": "M", "extra": {"search": search},
                "fit_time": 0.1, "wall_time": 0.2, "skewlearn_version": "x",
                "numpy_version": "x", "sklearn_version": "x", "host": "h"}  # fmt: skip

    scores = [0.5 + 0.1 * i for i in range(len(values))]
    rows = [row("a", scores), row("a", [None, *scores[1:]]), row("b", scores)]
    (x, y) = _sensitivity(rows)["M"]["p"]["a"]
    numeric = all(type(v) in (int, float) for v in values)
    order = sorted(range(len(values)), key=values.__getitem__) if numeric else range(len(values))
    assert x == [values[i] for i in order]
    # mean over the runs of the best score at each value (the first run only has values[0])
    assert y == pytest.approx([scores[i] for i in order])
    rep = ExperimentReport("e", {"search": {"metric": "roc_auc"}}, rows, [])
    page = to_html([rep])
    assert "sensitivity of M to p" in page


def test_nemenyi_cd_is_reported_for_more_than_20_methods():
    """``nemenyi_q`` computes q_α for any k since session 13; the report still left the
    critical difference (and the CD diagram) out above k = 20, without saying why."""
    import math

    from skewlearn.experiments.report import _friedman_text, _table

    k, n = 22, 4
    rng = np.random.default_rng(0)
    rows = [
        {"method": f"m{j}", "dataset": f"d{i}", "repetition": 0, "fold": 0,
         "metrics": {"roc_auc": float(rng.random())}}
        for i in range(n) for j in range(k)
    ]  # fmt: skip
    t = _table("roc_auc", rows, {"reference": []})
    q = stats.studentized_range.ppf(0.95, k, math.inf) / math.sqrt(2)
    assert t.cd == pytest.approx(q * math.sqrt(k * (k + 1) / (6 * n)))
    assert f"Nemenyi CD (α = 0.05) = {t.cd:.3f}" in _friedman_text(t)


def _record_sensitivity_figures(monkeypatch) -> dict:
    """Replace ``plots.sensitivity_figure`` by a recorder: title -> (lines, metric)."""
    from skewlearn.experiments import plots

    calls = {}

    def record(lines, param, metric, title=""):
        calls[title] = (lines, metric)
        return plots._figure()

    monkeypatch.setattr(plots, "sensitivity_figure", record)
    return calls


def test_sensitivity_figures_name_each_estimators_own_search_metric(monkeypatch):
    """An estimator with its own ``search_metric`` is scored by it in the inner folds; its
    sensitivity figure said the experiment's ``search.metric`` (session 16)."""
    from skewlearn.experiments.report import ExperimentReport

    calls = _record_sensitivity_figures(monkeypatch)
    search = {"params": [{"C": 1.0}, {"C": 2.0}], "scores": [0.5, 0.6]}
    rows = [
        {"dataset": "a", "method": m, "extra": {"search": search}, "fit_time": 0.1,
         "wall_time": 0.2, "skewlearn_version": "x", "numpy_version": "x",
         "sklearn_version": "x", "host": "h"}
        for m in ("PA", "PA-F")
    ]  # fmt: skip
    definition = {
        "search": {"metric": "roc_auc"},
        "estimators": [{"name": "PA"}, {"name": "PA-F", "search_metric": "f1"}],
    }
    to_html([ExperimentReport("e", definition, rows, [])])
    assert {title: metric for title, (_, metric) in calls.items()} == {
        "PA: C": "roc_auc",
        "PA-F: C": "f1",
    }


def test_a_stream_point_undefined_in_every_run_is_nan_without_a_warning():
    """A prequential curve starts with NaN where the prefix holds one class; when every run
    has it, the HTML report printed numpy's "Mean of empty slice" warning (session 16)."""
    import warnings

    from skewlearn.experiments.report import _mean_curves

    stream = {"position": [1, 2], "roc_auc": [float("nan"), 0.5]}
    rows = [{"dataset": "a", "method": "m", "extra": {"stream": stream}}] * 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        avg = _mean_curves(rows, "stream")["a"]["m"]
    assert np.isnan(avg["roc_auc"][0]) and avg["roc_auc"][1] == 0.5


def test_sensitivity_figures_of_shared_searches(monkeypatch):
    """With ``search.scope = "first_fold"`` the inner scores are in the ``searches`` table,
    not in the task rows: the HTML report had no sensitivity figure at all (session 16)."""
    from skewlearn.experiments.report import ExperimentReport

    calls = _record_sensitivity_figures(monkeypatch)
    search = {"params": [{"C": 1.0}, {"C": 2.0}], "scores": [0.5, 0.6]}
    shared = [{"dataset": "a", "method": "PA", "params": {"C": 2.0},
               "extra": {"search": search, "n_train": 10}, "cpu_time": 1.0}]  # fmt: skip
    rows = [{"dataset": "a", "method": "PA", "extra": {"tuned_by": "k"}, "fit_time": 0.1,
             "wall_time": 0.2, "skewlearn_version": "x", "numpy_version": "x",
             "sklearn_version": "x", "host": "h", "params": {"C": 2.0}}]  # fmt: skip
    definition = {"search": {"metric": "roc_auc", "scope": "first_fold"}}
    to_html([ExperimentReport("e", definition, rows, [], searches=shared)])
    assert {title: lines for title, (lines, _) in calls.items()} == {
        "PA: C": {"a": ([1.0, 2.0], [0.5, 0.6])}
    }


def test_the_report_does_not_depend_on_the_order_tasks_finished(tmp_path):
    """Rows are stored in the order tasks finish (which differs between joblib, Dask and a
    resumed run); the means were summed in that order, so two methods with the same runs
    got means one ulp apart and the Friedman ranks split a tie (1 and 2, not 1.5 each)."""
    from skewlearn.experiments import ResultStore

    values = {(0, 0): 0.1, (0, 1): 0.2, (0, 2): 0.3}
    definition = {
        "metrics": ["roc_auc"],
        "estimators": [{"name": "A"}, {"name": "B"}],
        "datasets": [{"name": "d1"}, {"name": "d2"}],
    }

    def store(path, orders):
        with ResultStore(path) as s:
            s.save_experiment("e", definition)
            for method, order in orders.items():
                for d in ("d1", "d2"):
                    for rep, fold in order:
                        s.write(dict(
                            task_key=f"{method}{d}{rep}{fold}", experiment="e", dataset=d,
                            method=method, repetition=rep, fold=fold, seed=1, params={},
                            metrics={"roc_auc": values[rep, fold]}, extra={},
                        ))  # fmt: skip
        return build_reports(path)

    keys = list(values)
    serial = store(tmp_path / "serial.db", {"A": keys, "B": keys})
    shuffled = store(tmp_path / "shuffled.db", {"A": keys, "B": keys[::-1]})
    for reports in (serial, shuffled):
        (table,) = reports[0].tables
        assert table.mean["d1", "A"] == table.mean["d1", "B"] == table.mean["d2", "B"]
    assert to_markdown(shuffled) == to_markdown(serial)


def test_the_figures_and_timings_do_not_depend_on_the_order_tasks_finished(tmp_path):
    """Session 24: the tables follow the experiment's order of methods, but the HTML
    figures' legends and colours and the timing table listed the methods in the order
    their first task finished, so the same results run with 2 workers instead of 1 (or
    resumed) gave another report (seen with 50 methods: PA_00 drawn 17th)."""
    from skewlearn.experiments import ResultStore

    definition = {
        "metrics": ["roc_auc"],
        "estimators": [{"name": "A"}, {"name": "B"}],
        "datasets": [{"name": "d1"}, {"name": "d2"}],
    }
    curves = {"A": [0.0, 0.6, 1.0], "B": [0.0, 0.3, 1.0]}

    def report(path, methods, datasets):
        with ResultStore(path) as s:
            s.save_experiment("e", definition)
            for method in methods:
                for d in datasets:
                    for fold in range(2):
                        s.write(dict(
                            task_key=f"{method}{d}{fold}", experiment="e", dataset=d,
                            method=method, repetition=0, fold=fold, seed=1, params={},
                            metrics={"roc_auc": 0.5 + 0.1 * fold + (method == "A") / 8},
                            extra={"curves": {"roc_tpr": curves[method],
                                              "pr_precision": curves[method]}},
                            fit_time=0.25, wall_time=0.5,
                        ))  # fmt: skip
        reports = build_reports(path)
        return to_markdown(reports), to_html(reports)

    serial = report(tmp_path / "serial.db", "AB", ("d1", "d2"))
    shuffled = report(tmp_path / "shuffled.db", "BA", ("d2", "d1"))
    assert serial[0].index("| A | 0.2500") < serial[0].index("| B | 0.2500")
    assert shuffled == serial


def test_the_sensitivity_figures_of_shared_searches_do_not_depend_on_their_finishing_order(
    tmp_path, monkeypatch
):
    """Session 24 (probe w): with ``search.scope = "first_fold"`` the sensitivity figures
    are drawn from the shared searches, which were taken in the order they finished (the
    database's), unlike the task rows: the figures' order and each figure's datasets
    (their legend and colours) changed with the number of workers, Dask or a resume."""
    from skewlearn.experiments import ResultStore

    calls = _record_sensitivity_figures(monkeypatch)
    definition = {
        "metrics": ["roc_auc"],
        "search": {"metric": "roc_auc", "scope": "first_fold"},
        "estimators": [{"name": "A"}, {"name": "B"}],
        "datasets": [{"name": "d1"}, {"name": "d2"}],
    }
    pairs = [(d, m) for d in ("d1", "d2") for m in "AB"]

    def figures(path, order):
        with ResultStore(path) as s:
            s.save_experiment("e", definition)
            for d, m in order:
                scores = [0.5, 0.6 + (m == "A") / 10 + (d == "d2") / 20]
                s.write_search(dict(
                    search_key=f"s{d}{m}", experiment="e", dataset=d, method=m,
                    params={"C": 2.0}, cpu_time=0.1,
                    extra={"search": {"params": [{"C": 1.0}, {"C": 2.0}], "scores": scores}},
                ))  # fmt: skip
            for d, m in pairs:
                s.write(dict(
                    task_key=f"t{d}{m}", experiment="e", dataset=d, method=m, repetition=0,
                    fold=0, seed=1, params={"C": 2.0}, metrics={"roc_auc": 0.75},
                    extra={"tuned_by": f"s{d}{m}"}, fit_time=0.25, wall_time=0.5,
                ))  # fmt: skip
        calls.clear()
        html = to_html(build_reports(path))
        return html, [(title, list(lines)) for title, (lines, _) in calls.items()]

    serial = figures(tmp_path / "serial.db", pairs)
    assert serial[1] == [("A: C", ["d1", "d2"]), ("B: C", ["d1", "d2"])]
    assert figures(tmp_path / "shuffled.db", pairs[::-1]) == serial


def test_friedman_and_cd_count_only_the_datasets_every_method_has():
    """Method c has no result on d3: the Friedman test, its N and the critical difference
    are over d0..d2 (Demšar's N is the number of datasets ranked), with a note; not over
    the 4 datasets of the table."""
    import math

    from skewlearn.evaluation.stats import friedman_test
    from skewlearn.experiments.report import _friedman_text, _table

    rng = np.random.default_rng(1)
    scores = rng.random((4, 3))
    rows = [
        {"method": m, "dataset": f"d{i}", "repetition": 0, "fold": 0,
         "metrics": {"roc_auc": float(scores[i, j])}}
        for i in range(4) for j, m in enumerate("abc") if (i, m) != (3, "c")
    ]  # fmt: skip
    t = _table("roc_auc", rows, {"reference": []})
    assert t.friedman == friedman_test(scores[:3])
    assert t.friedman.n_datasets == 3
    assert t.cd == pytest.approx(2.343 * math.sqrt(3 * 4 / (6 * 3)))  # q_0.05(3) = 2.343
    assert "over the 3 datasets where every method has results" in _friedman_text(t)


def test_a_paper_table_in_percent_is_scaled_and_its_std_columns_are_not_methods(tmp_path):
    """Session 27: ``paper.scale`` (0.01 for a paper printing percentages) and the
    ``<method>_std`` columns of a wide table were held by no test (the shipped tables are
    fractions): numbers left unscaled, or a std column read as a method, passed."""
    from skewlearn.experiments.report import read_paper_table

    table = tmp_path / "paper.csv"
    table.write_text("# percent\ndataset,OAM,OAM_std,PA\nsonar,84.3,5.6,80\n", encoding="utf-8")
    got = read_paper_table({"path": str(table), "layout": "wide", "scale": 0.01})
    assert got.keys() == {("sonar", "OAM"), ("sonar", "PA")}
    assert got["sonar", "OAM"] == pytest.approx((0.843, 0.056))
    assert got["sonar", "PA"][0] == pytest.approx(0.80) and got["sonar", "PA"][1] is None
