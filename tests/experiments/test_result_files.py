"""Reading results databases: a missing, foreign or mixed file is refused with a message,
never created, and the rows of several experiments are never pooled into one table."""

from __future__ import annotations

import sqlite3
import tomllib

import numpy as np
import pytest

from skewlearn.experiments import asls_results, koil_figures, nystrom_figures, run_experiment
from skewlearn.experiments import omcsl_study as study
from skewlearn.experiments.config import parse_experiment
from skewlearn.experiments.report import build_reports
from skewlearn.experiments.store import check_results_db, experiment_rows

from .conftest import TOY


def _experiment(name, estimators=3, skip_b=False):
    data = tomllib.loads(TOY)
    data["name"] = name
    data["protocol"]["n_repeats"] = 1
    data["estimators"] = data["estimators"][:estimators]
    if skip_b:
        data["estimators"][-1]["by_dataset"] = {"b": {"skip": True}}
    return parse_experiment(data)


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    """One database holding "toy" (3 methods) and "nystrom_table2" (2 methods)."""
    db = tmp_path_factory.mktemp("two") / "two.sqlite"
    run_experiment(_experiment("toy"), db, n_jobs=1, progress=False)
    run_experiment(_experiment("nystrom_table2", estimators=2), db, n_jobs=1, progress=False)
    return db


def test_missing_and_foreign_files_are_refused_and_not_created(tmp_path):
    missing = tmp_path / "nope.sqlite"
    for read in (
        check_results_db,
        experiment_rows,
        build_reports,
        nystrom_figures.cd_summary,
        asls_results.table3_markdown,
        lambda p: koil_figures.chosen_params(None, [], p),
    ):
        with pytest.raises(ValueError, match="no results database at"):
            read(missing)
        assert not missing.exists()
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(ValueError, match="holds no skewlearn results"):
        experiment_rows(other, "toy")
    text = tmp_path / "text.sqlite"
    text.write_text("not a database at all, just some text " * 20)
    with pytest.raises(ValueError, match="is not an SQLite database"):
        nystrom_figures.cd_summary(text)


def test_rows_of_one_experiment_only(two):
    toy = experiment_rows(two, "toy")
    nys = experiment_rows(two, "nystrom_table2")
    assert {r["experiment"] for r in toy} == {"toy"} and len(toy) == 2 * 3 * 3
    assert {r["method"] for r in nys} == {"Ridge", "Perceptron"} and len(nys) == 2 * 3 * 2
    with pytest.raises(ValueError, match=r"holds no results of experiment 'asls_table3'"):
        experiment_rows(two, "asls_table3")
    with pytest.raises(ValueError, match="holds 2 experiments, so name one"):
        experiment_rows(two)
    with pytest.raises(ValueError, match="holds 2 experiments, so name one"):
        asls_results.choices_markdown(two)
    # the CD summary reads nystrom_table2's two methods, not the three of both experiments
    out = nystrom_figures.cd_summary(two, metrics=("roc_auc",))["roc_auc"]
    assert out["methods"] == ["Perceptron", "Ridge"] and out["incomplete"] == []
    means = {}
    for r in nys:
        means.setdefault((r["dataset"], r["method"]), []).append(r["metrics"]["roc_auc"])
    assert out["scores"] == [[np.mean(means[d, m]) for m in out["methods"]] for d in "ab"]


def test_a_lone_experiment_is_read_whatever_its_name(tmp_path):
    """A database holding one experiment (here ``mine``) is read for any name asked."""
    db = tmp_path / "lone.sqlite"
    run_experiment(_experiment("mine", estimators=2, skip_b=True), db, n_jobs=1, progress=False)
    assert len(experiment_rows(db, "nystrom_table2")) == 3 * 2 + 3
    assert len(experiment_rows(db)) == 3 * 2 + 3
    with pytest.raises(ValueError, match=r"2 datasets where every method has results.*"
                       r"incomplete: \['b'\]"):  # fmt: skip
        nystrom_figures.cd_summary(db, metrics=("roc_auc",))


def test_commands_print_one_line_for_a_bad_database(tmp_path, capsys):
    missing = str(tmp_path / "nope.sqlite")
    for main, argv in (
        (asls_results.main, ["tables", "--t3", missing]),
        (asls_results.main, ["choices", missing]),
        (nystrom_figures.main, ["--db", missing, "--only", "cd", "--out", str(tmp_path)]),
        (koil_figures.main, ["--db", missing, "--checklist", "--figures"]),
        (asls_results.main, ["tables"]),
        (nystrom_figures.main, ["--only", "cd", "--out", str(tmp_path)]),
        (koil_figures.main, ["--checklist", "--figures"]),
    ):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "error:" in err and "Traceback" not in err
    assert not (tmp_path / "nope.sqlite").exists()


def test_study_helpers_refuse_empty_requests():
    with pytest.raises(ValueError, match="ticks must be a positive"):
        koil_figures.policy_study(None, "x", {}, ticks=0)
    with pytest.raises(ValueError, match="n_repeats must be a positive"):
        koil_figures._runs(None, "x", 0)
    with pytest.raises(ValueError, match="nothing to plot"):
        koil_figures.policy_figure({})
    for last in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="last must be a positive"):
            study.selected_cost([0.5, 0.7], last=last)


def test_online_f_measure_is_undefined_before_any_positive():
    """F = 2TP / (P + predicted P) is 0/0 until a positive is seen or predicted."""
    y = np.array([-1, -1, 1, -1, 1])
    s = np.array([-0.5, -0.2, -0.1, 0.3, 0.4])
    got = study.online_curve(y, s, "f1", np.arange(1, 6))
    assert np.isnan(got[:2]).all()
    np.testing.assert_allclose(got[2:], [0.0, 0.0, 2 * 1 / (2 + 2)])


def test_a_path_with_uri_characters_is_read_not_created(tmp_path):
    """'#', '?' and '%41' in a path used to end the SQLite URI early (a stray empty file,
    then "holds no skewlearn results") or be decoded."""
    for name in ("run#1.sqlite", "a?b.sqlite", "c%41.sqlite"):
        db = tmp_path / name
        run_experiment(_experiment("toy", estimators=1), db, n_jobs=1, progress=False)
        before = sorted(p.name for p in tmp_path.iterdir())
        assert len(experiment_rows(db, "toy")) == 2 * 3
        assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_run_killed_during_its_searches_keeps_the_earlier_definition(tmp_path, monkeypatch):
    """The new definition and its keys are saved together after the shared searches, so
    a report read after a run killed during them shows the earlier definition, not the
    earlier rows under the new settings."""
    from skewlearn.experiments import runner as runner_mod
    from skewlearn.experiments.store import ResultStore

    db = tmp_path / "k.sqlite"
    first = _experiment("toy", estimators=1)
    run_experiment(first, db, n_jobs=1, progress=False)
    data = tomllib.loads(TOY)
    data["protocol"]["n_repeats"] = 1
    data["estimators"] = data["estimators"][:1]
    data["metrics"] = ["pr_auc"]
    data["search"]["scope"] = "first_fold"

    def killed(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner_mod, "_run_searches", killed)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(parse_experiment(data), db, n_jobs=1, progress=False)
    with ResultStore(db) as store:
        assert store.experiments()["toy"]["metrics"] == ["roc_auc", "gmean"]
    (rep,) = build_reports(db)
    assert [t.metric for t in rep.tables] == ["roc_auc", "gmean"] and len(rep.rows) == 6
