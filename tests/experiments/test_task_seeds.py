"""Each task's seeds follow the documented recipe, and what the task key holds.

docs/experiments.md: every split, the order an online learner sees its training rows and
the estimator's ``random_state`` (unless fixed in ``params``) derive from a BLAKE2b hash of
(seed, dataset, repetition, fold). The published reproductions rest on this recipe; these
tests rebuild one task from scikit-learn's own pieces and the documented hashes, so a
changed recipe (or a fixed ``random_state`` overwritten) fails here, not only in the
numbers of a results page.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import SGDClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

from skewlearn.evaluation.protocols import task_seed
from skewlearn.experiments import ResultStore, expand_tasks, run_experiment
from skewlearn.experiments.config import parse_experiment
from skewlearn.experiments.runner import run_task

SGD = textwrap.dedent(
    """
    name = "seeds"
    seed = 4
    metrics = ["roc_auc"]

    [[datasets]]
    name = "a"
    generator = "make_classification"
    params = {n_samples = 200, n_features = 6, weights = [0.8], random_state = 2}

    [protocol]
    kind = "kfold"
    n_splits = 3
    n_repeats = 2

    [[estimators]]
    name = "SGD"
    class = "sklearn.linear_model.SGDClassifier"
    params = {max_iter = 5}
    """
)


def _experiment(text: str):
    import tomllib

    return parse_experiment(tomllib.loads(text))


def _by_hand(rep: int, fold: int, random_state: int) -> float:
    """Task (rep, fold) of ``SGD`` rebuilt from scikit-learn and the documented hashes."""
    X, y = make_classification(n_samples=200, n_features=6, weights=[0.8], random_state=2)
    y = np.where(y == 1, 1, -1)  # class 1 is the minority here: the positive one
    assert (y == 1).sum() < (y == -1).sum()
    cv = StratifiedKFold(3, shuffle=True, random_state=task_seed(4, "a", "kfold", rep))
    train, test = list(cv.split(X, y))[fold]
    train = np.random.default_rng(task_seed(4, "a", rep, fold, "order")).permutation(train)
    est = SGDClassifier(max_iter=5, random_state=random_state)
    est.fit(X[train], y[train])
    # (scikit-learn's AUC: skewlearn's may differ in the last bit)
    return roc_auc_score(y[test], est.decision_function(X[test]))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_a_task_uses_the_documented_seeds():
    tasks = expand_tasks(_experiment(SGD))
    assert [(t.repetition, t.fold) for t in tasks] == [(r, f) for r in (0, 1) for f in range(3)]
    for t in tasks:
        row = run_task(t)
        seed = task_seed(4, "a", t.repetition, t.fold)
        assert row["seed"] == seed
        assert row["metrics"]["roc_auc"] == pytest.approx(
            _by_hand(t.repetition, t.fold, seed), rel=1e-12
        )
    # the hand-built task is sensitive to the estimator's seed (not vacuous)
    assert (
        abs(_by_hand(1, 2, task_seed(4, "a", 1, 2)) - _by_hand(1, 2, task_seed(4, "a", 2, 1)))
        > 1e-6
    )


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_a_random_state_fixed_in_params_is_kept():
    text = SGD.replace("max_iter = 5}", "max_iter = 5, random_state = 11}")
    for t in expand_tasks(_experiment(text)):
        row = run_task(t)
        assert row["metrics"]["roc_auc"] == pytest.approx(
            _by_hand(t.repetition, t.fold, 11), rel=1e-12
        )
    assert abs(_by_hand(0, 0, 11) - _by_hand(0, 0, task_seed(4, "a", 0, 0))) > 1e-6


def test_the_task_key_holds_the_metrics():
    """A task run for ["roc_auc"] has no f1: the file with ["roc_auc", "f1"] makes new
    tasks rather than resuming rows that lack the added metric."""
    one = {t.key for t in expand_tasks(_experiment(SGD))}
    two = SGD.replace('metrics = ["roc_auc"]', 'metrics = ["roc_auc", "f1"]')
    assert one.isdisjoint({t.key for t in expand_tasks(_experiment(two))})
    assert one == {t.key for t in expand_tasks(_experiment(SGD))}  # (and keys are stable)


def test_a_task_that_fails_again_keeps_its_latest_error(tmp_path, monkeypatch):
    """The failures table holds the error of the last try (a re-run may fail otherwise,
    e.g. after a library upgrade); the report prints that one."""
    import skewlearn.experiments.runner as runner

    db = tmp_path / "r.sqlite"
    text = SGD.replace("n_repeats = 2", "n_repeats = 1")
    path = tmp_path / "e.toml"
    path.write_text(text)
    for message in ("first reason", "second reason"):

        def refuse(task, message=message):
            raise ValueError(message)

        monkeypatch.setattr(runner, "run_task", refuse)
        out = run_experiment(path, db, n_jobs=1, progress=False)
        assert out["failed"] == 3
        with ResultStore(db) as store:
            errors = {f["error"] for f in store.failures("seeds")}
        assert errors == {f"ValueError: {message}"}
