"""search.scope = "first_fold", estimators' search_from, named cuts, and reproduce's printout."""

from __future__ import annotations

import textwrap
import tomllib

import numpy as np
import pytest

from skewlearn.experiments import ResultStore, load_experiment, run_experiment
from skewlearn.experiments import cli as cli_mod
from skewlearn.experiments.config import ExperimentError, parse_experiment
from skewlearn.experiments.report import build_reports, to_html, to_markdown
from skewlearn.experiments.runner import expand_search_tasks, expand_tasks

from .conftest import TOY

FIRST = TOY.replace("inner_splits = 3", 'inner_splits = 3\n    scope = "first_fold"').replace(
    "seed = 3", 'seed = 3\n    cuts = ["one search per dataset", "a coarse grid"]'
) + textwrap.dedent(
    """
    [[estimators]]
    name = "PA-II"
    class = "PassiveAggressive"
    params = {variant = "pa2"}
    search_from = "PA"
    """
)


@pytest.fixture
def first_file(tmp_path):
    path = tmp_path / "first.toml"
    path.write_text(FIRST)
    return path


def _rows(db):
    with ResultStore(db) as s:
        return s.rows(), s.searches()


def test_one_search_per_dataset_and_method_shared_by_every_run(first_file, tmp_path):
    exp = load_experiment(first_file)
    assert exp.search_scope == "first_fold"
    assert exp.cuts == ("one search per dataset", "a coarse grid")
    searches = expand_search_tasks(exp)
    # Ridge and PA have grids; Perceptron has none; PA-II borrows PA's search
    assert sorted((t.dataset.name, t.estimator.name) for t in searches) == [
        ("a", "PA"), ("a", "Ridge"), ("b", "PA"), ("b", "Ridge")
    ]  # fmt: skip
    db = tmp_path / "first.db"
    out = run_experiment(exp, db, n_jobs=1, progress=False)
    n = 2 * 2 * 3 * 4
    assert out == {
        "tasks": n,
        "skipped": 0,
        "ran": n,
        "failed": 0,
        "searches": 4,
        "searches_ran": 4,
        "searches_failed": 0,
        "not_run": 0,
    }
    rows, found = _rows(db)
    chosen = {(s["dataset"], s["method"]): s["params"] for s in found}
    for r in rows:
        if r["method"] == "Perceptron":
            assert r["params"] == {}
            continue
        source = "PA" if r["method"] == "PA-II" else r["method"]
        assert r["params"] == chosen[r["dataset"], source]
        assert r["extra"]["cpu_time"] >= 0.0 and "tuned_by" in r["extra"]
    # the shared search is the nested search of run (0, 0) under the default scope: same
    # choice, same metrics for that run
    every = tmp_path / "every.db"
    run_experiment(parse_experiment(tomllib.loads(TOY)), every, n_jobs=1, progress=False)
    plain = {
        (r["dataset"], r["method"]): (r["params"], r["metrics"])
        for r in _rows(every)[0]
        if (r["repetition"], r["fold"]) == (0, 0)
    }
    for r in rows:
        if (r["repetition"], r["fold"]) == (0, 0) and r["method"] in ("Ridge", "PA"):
            assert (r["params"], r["metrics"]) == plain[r["dataset"], r["method"]]
    # a second run finds the searches and the tasks in the database
    again = run_experiment(exp, db, n_jobs=1, progress=False)
    assert again == {
        "tasks": n,
        "skipped": n,
        "ran": 0,
        "failed": 0,
        "searches": 4,
        "searches_ran": 0,
        "searches_failed": 0,
        "not_run": 0,
    }


def test_the_report_names_the_cuts_and_lists_the_chosen_parameters(first_file, tmp_path):
    db = tmp_path / "first.db"
    run_experiment(first_file, db, n_jobs=1, progress=False)
    md = to_markdown(build_reports(db))
    assert "Cuts from the paper's protocol: one search per dataset; a coarse grid." in md
    assert "Hyperparameters chosen once per dataset and method" in md
    assert "## Hyperparameters chosen (one search per dataset and method)" in md
    assert md.count("| a | PA | C=") == 1
    assert "in the shared searches" in md
    page = to_html(build_reports(db), figures=False)
    assert "<h2>Hyperparameters chosen (one search per dataset and method)</h2>" in page
    assert page.count("<tr><td>a</td><td>PA</td><td>C=") == 1
    assert "Cuts from the paper&#x27;s protocol: one search per dataset" in page


def test_reproduce_prints_the_table_beside_the_paper(first_file, tmp_path, monkeypatch, capsys):
    configs = tmp_path / "configs"
    configs.mkdir()
    (configs / "mini.toml").write_text(first_file.read_text())
    monkeypatch.setattr(cli_mod, "CONFIGS", configs)
    db, html = tmp_path / "mini.db", tmp_path / "mini.html"
    args = ["reproduce", "mini", "-j", "1", "--db", str(db), "--html", str(html), "--no-progress"]
    assert cli_mod.main(args) == 0
    out = capsys.readouterr().out
    assert "| dataset | Ridge | Perceptron | PA | PA-II |" in out
    assert "win/tie/loss" in out and "Cuts from the paper's protocol" in out
    assert html.read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('"first_fold"', '"once"'), r"search.scope: 'once' is not one of"),
        (
            lambda t: t.replace('scope = "first_fold"', ""),
            r"estimators\[3\].search_from: needs search.scope = 'first_fold'",
        ),
        (
            lambda t: t.replace('search_from = "PA"', 'search_from = "Nope"'),
            r"estimators\[3\].search_from: 'Nope' is not an estimator name",
        ),
        (
            lambda t: t.replace('search_from = "PA"', 'search_from = "Perceptron"'),
            r"'Perceptron' must have a grid of its own",
        ),
        (
            lambda t: t.replace('search_from = "PA"', 'search_from = "PA"\ngrid = {C = [1]}'),
            r"estimators\[3\].grid: an estimator with 'search_from'",
        ),
        (
            lambda t: t.replace('search_from = "PA"', 'search_from = "Ridge"'),
            r"PassiveAggressive has no parameter\(s\) \['alpha'\] searched by 'Ridge'",
        ),
        # session 16: the fixed C = 0.5 was silently replaced by the C that PA's search chose
        (
            lambda t: t.replace('{variant = "pa2"}', '{variant = "pa2", C = 0.5}'),
            r"estimators\[3\].params.C: 'C' is fixed here but searched by 'PA', whose choice "
            r"would replace it \(on 'a'\)",
        ),
        (
            lambda t: t.replace(
                'search_from = "PA"', 'search_from = "PA"\nby_dataset.b = {params = {C = 2.0}}'
            ),
            r"estimators\[3\].by_dataset.b.params.C: 'C' is fixed here but searched by 'PA'",
        ),
        # session 16: with no search of PA on b, PA-II ran there with its class default C
        *(
            (
                lambda t, change=change: t.replace(
                    'grid = {C = "2^[-2:1]"}', f'grid = {{C = "2^[-2:1]"}}\nby_dataset.b = {change}'
                ),
                rf"estimators\[3\].search_from: 'PA' {why}, so no search on 'b' chooses \['C'\] "
                r"for 'PA-II', which would run there with its class defaults. Fix them with "
                r"by_dataset.b.params",
            )
            for change, why in (
                ("{skip = true}", "skips it"),
                ("{grid = {C = [0.3]}}", "has a single candidate there"),
                ("{params = {C = 0.3}}", "has a single candidate there"),
            )
        ),
        (lambda t: t.replace("cuts = [", "cuts = [1, "), r"cuts: must be a list of strings"),
        (
            lambda t: t.replace('kind = "kfold"', 'kind = "prequential"').replace(
                "n_splits = 3", ""
            ),
            r"search.scope: 'first_fold' needs a 'kfold' or 'split' protocol",
        ),
    ],
)
def test_invalid_definitions_name_the_key(edit, message):
    data = tomllib.loads(edit(FIRST))
    if data["protocol"]["kind"] == "prequential":
        # no grids (prequential has no training part) and nothing borrowing a search
        data["estimators"] = [e for e in data["estimators"] if "search_from" not in e]
        for e in data["estimators"]:
            e.pop("grid", None)
    with pytest.raises(ExperimentError, match=message):
        parse_experiment(data)


def test_tasks_without_search_results_keep_their_grids(first_file):
    exp = load_experiment(first_file)
    tasks = expand_tasks(exp)
    assert all(t.tuned_by is None for t in tasks)
    assert {t.estimator.name for t in tasks} == {"Ridge", "Perceptron", "PA", "PA-II"}


def test_scale_minmax_and_standard_are_explicit(tmp_path):
    from skewlearn import datasets
    from skewlearn.experiments.runner import load_dataset

    base = 'name = "s"\ndatasets = ["pima"]\n[[estimators]]\nclass = "Perceptron"\n'
    raw, _, _ = datasets.load("pima")
    for value, check in (
        ('"minmax"', lambda X: np.allclose(X.min(0), 0) and np.allclose(X.max(0), 1)),
        ('"standard"', lambda X: np.allclose(X.mean(0), 0) and np.allclose(X.std(0), 1)),
        ("false", lambda X: np.array_equal(X, raw)),
    ):
        exp = parse_experiment(tomllib.loads(f"scale = {value}\n" + base))
        X, y = load_dataset(exp.datasets[0])
        assert check(X), value
    gen = (
        'name = "g"\nscale = "standard"\n[[datasets]]\nname = "t"\n'
        'generator = "make_classification"\nparams = {n_samples = 50, random_state = 0}\n'
        '[[estimators]]\nclass = "Perceptron"\n'
    )
    X, _ = load_dataset(parse_experiment(tomllib.loads(gen)).datasets[0])
    assert np.allclose(X.mean(0), 0) and np.allclose(X.std(0), 1)
    with pytest.raises(
        ExperimentError, match=r"^scale: must be true, false, 'standard' or 'minmax'"
    ):
        parse_experiment(tomllib.loads('scale = "unit"\n' + base))
    with pytest.raises(ExperimentError, match=r"datasets\[0\].scale: must be"):
        parse_experiment(
            tomllib.loads(
                base.replace('datasets = ["pima"]', '[[datasets]]\nname = "pima"\nscale = 2')
            )
        )


def test_koil_table1_maps_every_dataset_and_paper_column():
    from skewlearn.experiments.report import read_paper_table

    exp = load_experiment("koil_table1")
    assert exp.search_scope == "first_fold" and exp.cuts
    assert all(d.scale == "minmax" for d in exp.datasets)
    published = read_paper_table({"path": exp.paper.path, "layout": "wide"})
    paper_datasets = {d for d, _ in published}
    paper_methods = {m for _, m in published}
    ours = {exp.paper.datasets.get(d.name, d.name) for d in exp.datasets}
    assert ours <= paper_datasets and paper_datasets - ours == {"svmguide2", "poker"}
    names = {e.name for e in exp.estimators}
    assert paper_methods <= names  # every column of the paper's Table 1 is run
    assert {"KOIL_RS", "KOIL_FIFO", "KOIL_inf"} <= names
    shared = {e.name for e in exp.estimators if e.search_from == "KOIL_RS++"}
    assert shared == {"KOIL_FIFO++", "KOIL_RS", "KOIL_FIFO", "KOIL_inf"}


def test_a_fixed_value_is_kept_where_the_shared_search_does_not_run():
    """Where the borrowed estimator's grid has one candidate there is no search, so the
    estimator with search_from runs with its own fixed value: that is allowed."""
    text = FIRST.replace(
        'grid = {C = "2^[-2:1]"}', 'grid = {C = "2^[-2:1]"}\nby_dataset.b = {grid = {C = [1.0]}}'
    ).replace('search_from = "PA"', 'search_from = "PA"\nby_dataset.b = {params = {C = 2.0}}')
    exp = parse_experiment(tomllib.loads(text))
    pa2 = [t for t in expand_tasks(exp) if t.estimator.name == "PA-II" and t.dataset.name == "b"]
    assert pa2 and all(t.estimator.params["C"] == 2.0 for t in pa2)
