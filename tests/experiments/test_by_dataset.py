"""Per-dataset parameters, grids and skips of an estimator (``by_dataset``)."""

from __future__ import annotations

import tomllib

import pytest

from skewlearn.experiments import ExperimentError, parse_experiment
from skewlearn.experiments.runner import expand_search_tasks, expand_tasks, run_experiment
from skewlearn.experiments.store import ResultStore

from .conftest import TOY


def _toy(by_dataset):
    data = tomllib.loads(TOY)
    data["estimators"][0]["by_dataset"] = by_dataset
    return data


def test_params_and_grid_replace_the_common_ones_on_that_dataset_only():
    exp = parse_experiment(_toy({"b": {"params": {"fit_intercept": False},
                                       "grid": {"alpha": [5.0, 50.0]}}}))  # fmt: skip
    ridge = exp.estimators[0]
    on_a, on_b = ridge.for_dataset("a"), ridge.for_dataset("b")
    assert on_a.grid == {"alpha": [0.01, 0.1, 1.0, 10.0]} and on_a.params == ridge.params
    assert on_b.grid == {"alpha": [5.0, 50.0]}
    assert on_b.params == {**ridge.params, "fit_intercept": False}
    tasks = expand_tasks(exp)
    grids = {(t.dataset.name, t.estimator.grid["alpha"][0]) for t in tasks
             if t.estimator.name == "Ridge"}  # fmt: skip
    assert grids == {("a", 0.01), ("b", 5.0)}


def test_a_per_dataset_grid_may_be_a_range_string():
    """Session 27: the common grid's ``"10^[-2:1]"`` was accepted, but the same string
    under ``by_dataset`` reached the value check unparsed, which tried each character
    (``alpha = '1'``) and refused the file: "... must be a float ... Got '1' instead"."""
    exp = parse_experiment(_toy({"b": {"grid": {"alpha": "10^[0:2]"}}}))
    on_b = exp.estimators[0].for_dataset("b")
    assert on_b.grid == {"alpha": [1.0, 10.0, 100.0]}
    with pytest.raises(ExperimentError, match=r"by_dataset\.b\.grid\.alpha: .*-1\.0"):
        parse_experiment(_toy({"b": {"grid": {"alpha": [1.0, -1.0]}}}))


def test_a_per_dataset_entry_replaces_a_common_one_whether_fixed_or_searched(tmp_path):
    """Session 11: a per-dataset ``params.alpha`` beside a common ``grid.alpha`` made the
    validator call ``set_params(alpha=..., alpha=...)`` (a TypeError traceback); had it got
    through, the runner would have applied the grid over the fixed value on that dataset."""
    data = _toy({"b": {"params": {"alpha": 7.0}}})
    data["estimators"].append({"name": "Ridge2", "class": "sklearn.linear_model.RidgeClassifier",
                               "params": {"alpha": 2.0},
                               "by_dataset": {"a": {"grid": {"alpha": [0.5, 5.0]}}}})  # fmt: skip
    exp = parse_experiment(data)
    ridge, ridge2 = exp.estimators[0], exp.estimators[-1]
    assert ridge.for_dataset("b").params == {"alpha": 7.0}
    assert ridge.for_dataset("b").grid == {}
    assert ridge.for_dataset("a").grid == {"alpha": [0.01, 0.1, 1.0, 10.0]}
    assert (ridge2.for_dataset("a").params, ridge2.for_dataset("a").grid) == (
        {},
        {"alpha": [0.5, 5.0]},
    )
    assert ridge2.for_dataset("b").params == {"alpha": 2.0} and ridge2.for_dataset("b").grid == {}
    out = run_experiment(exp, tmp_path / "r.sqlite", n_jobs=1, progress=False)
    assert out["failed"] == 0
    with ResultStore(tmp_path / "r.sqlite") as store:
        rows = store.rows("toy")
    searched = {(r["dataset"], r["method"]): r["params"] for r in rows}
    assert searched[("b", "Ridge")] == {} and searched[("b", "Ridge2")] == {}
    assert searched[("a", "Ridge2")]["alpha"] in (0.5, 5.0)
    fixed = {(t.dataset.name, t.estimator.name): t.estimator.params for t in expand_tasks(exp)}
    assert fixed[("b", "Ridge")] == {"alpha": 7.0} and fixed[("b", "Ridge2")] == {"alpha": 2.0}


def test_skip_leaves_the_method_out_on_that_dataset(tmp_path):
    exp = parse_experiment(_toy({"a": {"skip": True}}))
    tasks = expand_tasks(exp)
    pairs = {(t.dataset.name, t.estimator.name) for t in tasks}
    assert ("a", "Ridge") not in pairs and ("b", "Ridge") in pairs
    per_pair = exp.protocol.n_repeats * exp.protocol.n_folds
    n_methods = len(exp.estimators)
    assert len(tasks) == per_pair * (2 * n_methods - 1)
    out = run_experiment(exp, tmp_path / "r.sqlite", n_jobs=1, progress=False)
    assert out["ran"] == len(tasks)
    with ResultStore(tmp_path / "r.sqlite") as store:
        rows = store.rows("toy")
    assert {(r["dataset"], r["method"]) for r in rows} == pairs


def test_task_keys_of_files_without_by_dataset_are_unchanged():
    exp = parse_experiment(tomllib.loads(TOY))
    assert "by_dataset" not in exp.estimators[0].as_dict()
    assert all(t.estimator == t.estimator.for_dataset(t.dataset.name) for t in expand_tasks(exp))


@pytest.mark.parametrize(
    ("by_dataset", "match"),
    [
        ({"c": {"skip": True}}, r"estimators\[0\]\.by_dataset\.c: 'c' is not a dataset"),
        ({"a": {"grid": {"beta": [1]}}},
         r"estimators\[0\]\.by_dataset\.a\.grid\.beta: RidgeClassifier has no parameter"),
        ({"a": {"grid": {"alpha": "2^[1,3]"}}}, r"by_dataset\.a\.grid\.alpha: cannot read"),
        ({"a": {"sigma": 1}}, r"by_dataset\.a: unknown key\(s\) \['sigma'\]"),
        ({"a": 3}, r"by_dataset\.a: expected a table"),
        ({"a": {"params": {"alpha": 1.0}, "grid": {"alpha": [1.0, 2.0]}}},
         r"by_dataset\.a\.grid\.alpha: 'alpha' is in both params and grid"),
    ],
)  # fmt: skip
def test_errors_name_the_key_path(by_dataset, match):
    with pytest.raises(ExperimentError, match=match):
        parse_experiment(_toy(by_dataset))


def test_by_dataset_with_first_fold_search_and_search_from():
    """The two engine options together: a shared search uses the per-dataset grid, a
    skipped dataset gets no search, and ``search_from`` survives the per-dataset copy."""
    from .test_first_fold import FIRST

    data = tomllib.loads(FIRST)
    pa = next(e for e in data["estimators"] if e["name"] == "PA")
    pa["by_dataset"] = {"b": {"grid": {"C": [0.5, 2.0]}}}
    ridge = next(e for e in data["estimators"] if e["name"] == "Ridge")
    ridge["by_dataset"] = {"a": {"skip": True}}
    exp = parse_experiment(data)
    searches = {(s.dataset.name, s.estimator.name): s.estimator.grid
                for s in expand_search_tasks(exp)}  # fmt: skip
    assert ("a", "Ridge") not in searches and ("b", "Ridge") in searches
    assert searches[("b", "PA")] == {"C": [0.5, 2.0]}
    assert searches[("a", "PA")] == {"C": [0.25, 0.5, 1.0, 2.0]}
    assert all(name != "PA-II" for _, name in searches)  # it reuses PA's search
    chosen = {key: ("search-key", {"C": 2.0}) for key in searches if key[1] == "PA"}
    tasks = expand_tasks(exp, chosen)
    pa2 = [t for t in tasks if t.estimator.name == "PA-II"]
    assert pa2 and all(t.estimator.search_from == "PA" for t in pa2)
    assert all(t.estimator.grid == {"C": [2.0]} for t in pa2)
