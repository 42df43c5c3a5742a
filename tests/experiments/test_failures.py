"""A task whose learner refuses its data is recorded as a failure; the run goes on."""

from __future__ import annotations

import textwrap

import pytest

from skewlearn.experiments import ResultStore, expand_tasks, load_experiment, run_experiment
from skewlearn.experiments import runner as runner_mod
from skewlearn.experiments.cli import main as exp_main
from skewlearn.experiments.report import build_reports, to_markdown

# OPAUC with a huge step overflows on unscaled rows (|x| up to ~60): its fit raises the
# library's ValueError "... the updates overflowed float64. Scale the features ...".
DIVERGES = textwrap.dedent(
    """
    name = "diverges"
    seed = 5
    metrics = ["roc_auc"]
    reference = ["Perceptron"]

    [[datasets]]
    name = "a"
    generator = "make_classification"
    params = {n_samples = 150, n_features = 4, weights = [0.8], scale = 20.0, random_state = 0}

    [protocol]
    kind = "kfold"
    n_splits = 3
    n_repeats = 1

    [[estimators]]
    name = "Perceptron"
    class = "Perceptron"

    [[estimators]]
    name = "OPAUC"
    class = "OPAUC"
    params = {eta = 1000.0}
    """
)


@pytest.fixture
def diverges(tmp_path):
    path = tmp_path / "diverges.toml"
    path.write_text(DIVERGES)
    return path


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_failed_tasks_are_recorded_apart_and_tried_again(diverges, tmp_path):
    db = tmp_path / "r.sqlite"
    out = run_experiment(diverges, db, n_jobs=1, progress=False)
    assert out == {"tasks": 6, "skipped": 0, "ran": 3, "failed": 3}
    with ResultStore(db) as store:
        assert {r["method"] for r in store.rows()} == {"Perceptron"}
        failures = store.failures("diverges")
        assert len(failures) == 3 and {f["method"] for f in failures} == {"OPAUC"}
        assert all(f["error"].startswith("ValueError: OPAUC produced non-finite") for f in failures)
        assert "Scale the features" in failures[0]["error"]
        assert not {f["task_key"] for f in failures} & store.finished_keys()
    # a re-run skips the finished tasks and tries the failed ones again
    again = run_experiment(diverges, db, n_jobs=1, progress=False)
    assert again == {"tasks": 6, "skipped": 3, "ran": 0, "failed": 3}
    # once a failed task has a result (e.g. the code was fixed), its failure is gone
    task = next(t for t in expand_tasks(load_experiment(diverges)) if t.estimator.name == "OPAUC")
    with ResultStore(db) as store:
        fake = {
            "task_key": task.key, "experiment": "diverges", "dataset": "a", "method": "OPAUC",
            "repetition": 0, "fold": task.fold, "seed": 1, "params": {}, "metrics": {},
            "extra": {},
        }  # fmt: skip
        assert store.write(fake)
        assert task.key not in {f["task_key"] for f in store.failures()}
        assert len(store.failures()) == 2


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_cli_run_reports_failures_and_exits_1_and_the_report_says_so(diverges, tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    assert exp_main(["run", str(diverges), "--db", str(db), "--jobs", "1", "--no-progress"]) == 1
    out = capsys.readouterr()
    assert "6 tasks, 0 already done, 3 run now, 3 failed" in out.out
    (line,) = out.err.strip().splitlines()
    assert line.startswith("failed: OPAUC on a: 3 tasks, ValueError: OPAUC produced non-finite")
    md = to_markdown(build_reports(db))
    assert "FAILED, missing from the tables (3 tasks" in md and "OPAUC on a: 3 tasks" in md


def test_only_value_errors_become_failures(monkeypatch, diverges):
    """Any other exception is a bug, not the data's fault: it stops the run."""
    task = expand_tasks(load_experiment(diverges))[0]

    def broken(task):
        raise TypeError("a bug")

    monkeypatch.setattr(runner_mod, "run_task", broken)
    with pytest.raises(TypeError, match="a bug"):
        runner_mod.run_task_or_failure(task)
