"""A task whose learner refuses its data is recorded as a failure; the run goes on."""

from __future__ import annotations

import json
import textwrap

import numpy as np
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


def test_an_exception_that_stops_the_run_names_its_task(monkeypatch, diverges, tmp_path):
    """From a worker process, a bug's traceback said where in the code, not which of the
    run's tasks (dataset, method, repetition, fold): the exception now carries a note
    naming it (a note is pickled with the exception, so it survives joblib and Dask)."""
    import pickle

    real = runner_mod.run_task

    def broken(task):
        if task.estimator.name == "OPAUC" and task.fold == 1:
            raise ZeroDivisionError("a bug")
        return real(task)

    monkeypatch.setattr(runner_mod, "run_task", broken)
    with pytest.raises(ZeroDivisionError, match="a bug") as info:
        run_experiment(diverges, tmp_path / "r.db", n_jobs=1, progress=False)
    (note,) = info.value.__notes__
    assert "'diverges'" in note and "method 'OPAUC' (OPAUC) on dataset 'a'" in note
    assert "repetition 0, fold 1" in note
    assert pickle.loads(pickle.dumps(info.value)).__notes__ == [note]

    search = runner_mod.expand_search_tasks(load_experiment(_write(tmp_path, SEARCH_FAILS)))[0]

    def broken_search(task):
        raise TypeError("a bug in a search")

    monkeypatch.setattr(runner_mod, "run_search", broken_search)
    with pytest.raises(TypeError, match="a bug in a search") as info:
        runner_mod.run_search_or_failure(search)
    assert f"method {search.estimator.name!r}" in info.value.__notes__[0]
    assert "shared hyperparameter search" in info.value.__notes__[0]


def _write(tmp_path, text):
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return path


# A shared search (search.scope = "first_fold") whose every candidate overflows: the refit of
# the best (all nan) candidate raises the learner's ValueError.
SEARCH_FAILS = DIVERGES.replace(
    "[protocol]", '[search]\nscope = "first_fold"\ninner_splits = 2\n\n[protocol]'
).replace("params = {eta = 1000.0}", "grid = {eta = [1000.0, 2000.0]}") + textwrap.dedent(
    """
    [[estimators]]
    name = "OPAUC-2"
    class = "OPAUC"
    params = {lam = 0.01}
    search_from = "OPAUC"
    """
)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.filterwarnings("ignore:One or more of the test scores are non-finite")
def test_a_failed_shared_search_is_recorded_and_its_tasks_are_not_run(tmp_path, capsys):
    path = tmp_path / "search_fails.toml"
    path.write_text(SEARCH_FAILS)
    exp = load_experiment(path)
    db = tmp_path / "r.sqlite"
    out = run_experiment(exp, db, n_jobs=1, progress=False)
    # 3 Perceptron tasks ran; OPAUC's and OPAUC-2's (which borrows OPAUC's search) did not
    assert out == {
        "tasks": 9, "skipped": 0, "ran": 3, "failed": 0,
        "searches": 1, "searches_ran": 0, "searches_failed": 1, "not_run": 6,
    }  # fmt: skip
    (search_task,) = runner_mod.expand_search_tasks(exp)
    with ResultStore(db) as store:
        assert {r["method"] for r in store.rows()} == {"Perceptron"}
        assert store.searches() == []
        (failure,) = store.failures("diverges")
        assert failure["task_key"] == search_task.key
        assert (failure["method"], failure["dataset"], failure["repetition"]) == ("OPAUC", "a", 0)
        assert failure["error"].startswith("the shared hyperparameter search failed")
        assert ": ValueError: OPAUC produced non-finite" in failure["error"]
    # the CLI says so and exits 1; the re-run tries the search again
    assert exp_main(["run", str(path), "--db", str(db), "--jobs", "1", "--no-progress"]) == 1
    printed = capsys.readouterr()
    assert "9 tasks, 3 already done, 0 run now, 6 not run because 1 shared search(es)" in (
        printed.out
    )
    assert printed.err.strip().startswith("failed: OPAUC on a: 1 task, the shared hyperparameter")
    # once the search has a result (e.g. a fixed learner), its failure is gone
    with ResultStore(db) as store:
        row = {
            "search_key": search_task.key, "experiment": "diverges", "dataset": "a",
            "method": "OPAUC", "params": {"eta": 1000.0}, "extra": {},
        }  # fmt: skip
        assert store.write_search(row)
        assert store.failures() == []


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_an_experiment_whose_every_task_failed_is_still_reported(tmp_path):
    path = tmp_path / "only_fails.toml"
    path.write_text(
        DIVERGES.replace('reference = ["Perceptron"]', 'reference = ["OPAUC"]').replace(
            '[[estimators]]\nname = "Perceptron"\nclass = "Perceptron"\n', ""
        )
    )
    db = tmp_path / "r.sqlite"
    out = run_experiment(path, db, n_jobs=1, progress=False)
    assert out["ran"] == 0 and out["failed"] == 3
    (rep,) = build_reports(db)
    assert rep.rows == [] and len(rep.failures) == 3
    assert "FAILED, missing from the tables (3 tasks" in to_markdown([rep])
    assert build_reports(db, "diverges")[0].name == "diverges"
    # an error that ends with a full stop ends the sentence once (it read "...nu..")
    for f in rep.failures:
        f["error"] = "ValueError: use a smaller nu."
    assert "ValueError: use a smaller nu." in to_markdown([rep])
    assert "nu.." not in to_markdown([rep])


@pytest.mark.filterwarnings("ignore:The least populated class")
def test_a_test_fold_without_positives_names_the_protocol_setting(tmp_path):
    """3 positives and n_splits = 5: two test folds hold no positive row. Their failure
    said only "ROC AUC is undefined when y_true holds only one class ... Evaluate on data
    with both classes" and that a re-run would try again, which fails the same way."""
    text = DIVERGES.replace("n_splits = 3", "n_splits = 5").replace(
        "n_samples = 150, n_features = 4, weights = [0.8], scale = 20.0",
        "n_samples = 30, n_features = 4, weights = [0.9], flip_y = 0",
    )
    text = text[: text.index('[[estimators]]\nname = "OPAUC"')]
    path = tmp_path / "few.toml"
    path.write_text(text)
    db = tmp_path / "r.sqlite"
    out = run_experiment(path, db, n_jobs=1, progress=False)
    assert out["failed"] == 2 and out["ran"] == 3  # the folds with a positive are unchanged
    with ResultStore(db) as store:
        errors = sorted(f["error"] for f in store.failures("diverges"))
    assert len(errors) == 2
    for error in errors:
        assert error.startswith("ValueError: the test part of dataset a (repetition 0, fold ")
        assert (
            "holds no positive row: a has 3 rows of its smaller class, fewer than "
            "protocol.n_splits = 5. Use n_splits <= 3 (or more data); a re-run fails the "
            "same way. (ROC AUC is undefined" in error
        ), error


@pytest.mark.filterwarnings("ignore:The least populated class")
@pytest.mark.parametrize("stratified", ["true", "false"])
def test_a_single_row_of_a_class_does_not_advise_one_fold(tmp_path, stratified):
    """One positive row in 30: the failures advised "Use n_splits <= 1", a setting the
    experiment file refuses ("needs at least 2 folds"). No k-fold setting helps; the
    message says so and names the fix that does (more rows of that class)."""
    text = DIVERGES.replace(
        "n_samples = 150, n_features = 4, weights = [0.8], scale = 20.0",
        "n_samples = 30, n_features = 4, weights = [0.97], flip_y = 0",
    ).replace("n_repeats = 1", f"n_repeats = 1\nstratified = {stratified}")
    text = text[: text.index('[[estimators]]\nname = "OPAUC"')]
    path = tmp_path / "one.toml"
    path.write_text(text)
    db = tmp_path / "r.sqlite"
    out = run_experiment(path, db, n_jobs=1, progress=False)
    assert out["failed"] == 3 and out["ran"] == 0  # the third fold trains on one class
    with ResultStore(db) as store:
        errors = [f["error"] for f in store.failures("diverges")]
    errors = [e for e in errors if "holds no positive row" in e]
    assert len(errors) == 2
    for error in errors:
        assert "holds no positive row: a has 1 row of its smaller class, and k-fold" in error
        assert "needs at least 2 (one per test fold, n_splits >= 2)" in error, error
        assert "n_splits <= 1" not in error


@pytest.mark.parametrize(
    ("dataset", "match"),
    [
        ('{name = "d", source = "d.csv", params = {label_column = "nope"}}',
         r"datasets\[1\] \(d\): reading d\.csv failed, so no task was run: .*no column named "
         r"'nope'.*Set label_column = one of them"),
        ('{name = "g", generator = "make_classification", '
         'params = {n_samples = -5,random_state = 0}}',  # (", " splits the table's lines)
         r"datasets\[1\] \(g\): generating it failed, so no task was run: .*n_samples"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_a_dataset_that_cannot_be_read_stops_the_run_before_any_task(
    tmp_path, monkeypatch, dataset, match, n_jobs
):
    """Session 15: every task failed alike, each recorded as a failure (the run exited 1
    after trying them all), and the message named the Python option (label_column=)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(runner_mod, "_DATASETS", {})
    (tmp_path / "d.csv").write_text("a,b,label\n" + "".join(
        f"{i},{i % 7},{int(i % 5 == 0)}\n" for i in range(60)))  # fmt: skip
    text = DIVERGES.replace("[protocol]", f"[[datasets]]\n{dataset[1:-1].replace(', ', chr(10))}"
                            "\n\n[protocol]")  # fmt: skip
    (tmp_path / "e.toml").write_text(text)
    exp = load_experiment(tmp_path / "e.toml")
    with pytest.raises(ValueError, match=match):
        run_experiment(exp, tmp_path / "r.sqlite", n_jobs=n_jobs, progress=False)
    assert not (tmp_path / "r.sqlite").exists()
    # the same file with a good option runs, and an out-of-process run leaves no copy here
    # (an absolute path: joblib reuses worker processes started in another test's directory)
    ok = text.replace('"nope"', '"label"').replace("n_samples = -5", "n_samples = 80")
    ok = ok.replace('source = "d.csv"', f'source = "{(tmp_path / "d.csv").as_posix()}"')
    (tmp_path / "e.toml").write_text(ok)
    out = run_experiment(load_experiment(tmp_path / "e.toml"), tmp_path / "r.sqlite",
                         n_jobs=n_jobs, progress=False)  # fmt: skip
    assert out["failed"] == 3 and out["ran"] == 9  # OPAUC still diverges on "a"
    name = load_experiment(tmp_path / "e.toml").datasets[1].name
    kept = {json.loads(key.split("|")[0])["name"] for key in runner_mod._DATASETS}
    assert (name in kept) == (n_jobs == 1)  # kept only where the tasks use it


@pytest.mark.parametrize("stratified", ["true", "false"])
def test_a_split_test_part_without_positives_names_the_setting_behind_it(tmp_path, stratified):
    """``split`` with stratified = false: 15 test rows drawn at random from 300, 29 of
    them positive, miss the positives in some repetitions (P ~ 0.18 each). The failure
    said "too few for protocol.test_size = 0.05. Use a larger test_size", while
    stratified = true puts 1 or 2 positives in every one of those 15 rows (29 × 0.05 >=
    1); the KFold message already names stratified = false in that case."""
    text = DIVERGES.replace(
        "n_samples = 150, n_features = 4, weights = [0.8], scale = 20.0",
        "n_samples = 300, n_features = 4, weights = [0.9], flip_y = 0",
    ).replace(
        'kind = "kfold"\nn_splits = 3\nn_repeats = 1',
        f'kind = "split"\nn_repeats = 24\ntest_size = 0.05\nstratified = {stratified}',
    )
    text = text[: text.index('[[estimators]]\nname = "OPAUC"')]
    path = tmp_path / "split.toml"
    path.write_text(text)
    db = tmp_path / "r.sqlite"
    out = run_experiment(path, db, n_jobs=1, progress=False)
    with ResultStore(db) as store:
        errors = [f["error"] for f in store.failures("diverges")]
    if stratified == "true":  # every test part holds a positive row
        assert out["failed"] == 0 and out["ran"] == 24, errors
        return
    assert out["failed"] == 1 and out["ran"] == 23, out
    for error in errors:
        assert "holds no positive row: a has 29 rows of its smaller class, and " in error, error
        assert "protocol.stratified = false lets the test part miss a class. Use " in error
        assert "stratified = true" in error
        assert "larger test_size" not in error  # 29 × 0.05 >= 1: stratifying is enough


def test_the_split_message_asks_for_a_larger_test_size_only_when_stratifying_is_not_enough():
    """Session 25 (probe v): the run above covers 29 × 0.05 >= 1 (stratify, nothing
    more); no test reached "with a larger test_size" (9 × 0.05 < 1: a stratified split
    of 300 rows puts no positive in a 15-row test part either) nor the stratified
    message, so either could change unseen."""
    from types import SimpleNamespace

    from skewlearn.evaluation.protocols import RandomSplits
    from skewlearn.experiments.runner import _one_class_test

    def message(n_pos, stratified):
        y = np.r_[np.ones(n_pos), -np.ones(300 - n_pos)]
        proto = RandomSplits(n_repeats=1, test_size=0.05, stratified=stratified)
        task = SimpleNamespace(
            dataset=SimpleNamespace(name="a"), repetition=0, fold=0, protocol=proto
        )
        return _one_class_test(task, y, np.arange(n_pos, n_pos + 15))  # negatives only

    assert message(9, False).endswith(
        "a has 9 rows of its smaller class, and protocol.stratified = false lets the test "
        "part miss a class. Use stratified = true with a larger test_size (or more data); a "
        "re-run fails the same way."
    )
    assert "stratified = true (or more data)" in message(29, False)
    assert message(9, True).endswith(
        "a has 9 rows of its smaller class, too few for protocol.test_size = 0.05. Use a "
        "larger test_size (or more data); a re-run fails the same way."
    )
