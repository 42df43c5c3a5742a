"""Protocols: grids, stable seeds, splits, metrics, nested search and prequential runs."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    average_precision_score,
    balanced_accuracy_score,
    f1_score,
    recall_score,
    roc_auc_score,
)
from sklearn.model_selection import StratifiedKFold

from skewlearn import Perceptron
from skewlearn.evaluation import (
    KFold,
    Prequential,
    RandomSplits,
    evaluate_split,
    expand_grid,
    get_metric,
    nested_search,
    parse_grid,
    prequential_run,
    task_seed,
)


def _data(n=120, seed=0):
    X, y = make_classification(
        n_samples=n, n_features=5, weights=[0.8], random_state=seed, flip_y=0.05
    )
    return X, np.where(y == 1, 1, -1)


# ----------------------------------------------------------------------------- grids
def test_parse_grid_ranges_include_both_ends():
    values = parse_grid("2^[-10:10]")
    assert len(values) == 21
    assert values[0] == 2.0**-10 and values[-1] == 2.0**10
    assert parse_grid("2^[-10:10:2]") == [2.0**k for k in range(-10, 11, 2)]
    assert parse_grid(" 10 ^ [ -1 : 1 ] ") == [0.1, 1.0, 10.0]
    assert parse_grid([0.1, 5]) == [0.1, 5]
    assert parse_grid(3) == [3]


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("2^[-10,10]", "cannot read the range"),
        ("2^[3:1]", "a <= b"),
        ("2^[0:4:0]", "step > 0"),
        ([], "empty"),
        # session 11: an OverflowError (a traceback in the CLI) and float()'s bare message
        ("10^[0:400]", r"goes beyond the largest float"),
        ("2.5.1^[0:2]", r"the base '2.5.1' of the range .* is not a number"),
    ],
)
def test_parse_grid_errors_name_the_key(spec, match):
    with pytest.raises(ValueError, match=match) as info:
        parse_grid(spec, name="estimators[1].grid.C")
    assert "estimators[1].grid.C" in str(info.value)


def test_expand_grid_is_the_product():
    grid = expand_grid({"b": [1, 2, 3], "a": "2^[0:1]"})
    assert len(grid) == 6
    assert grid[0] == {"a": 1.0, "b": 1} and grid[-1] == {"a": 2.0, "b": 3}
    # a 1-D array is a list of values, not one value (np.logspace is how users write grids)
    assert expand_grid({"C": np.logspace(-1, 1, 3)}) == [{"C": 0.1}, {"C": 1.0}, {"C": 10.0}]
    assert expand_grid({"C": [10, 1]}) == [{"C": 10}, {"C": 1}]  # the order given


# ----------------------------------------------------------------------------- seeds
def test_task_seed_is_blake2b_and_process_independent():
    expected = int.from_bytes(
        hashlib.blake2b(b"7\x1fsonar\x1f2\x1f4", digest_size=4).digest(), "little"
    )
    assert task_seed(7, "sonar", 2, 4) == expected
    # load protocols.py alone (not the whole package) to keep the subprocesses quick
    import skewlearn.evaluation.protocols as mod

    code = (
        "import importlib.util as u; "
        f"s = u.spec_from_file_location('p', {mod.__file__!r}); m = u.module_from_spec(s); "
        "import sys; sys.modules['p'] = m; s.loader.exec_module(m); "
        "print(m.task_seed(7, 'sonar', 2, 4))"
    )
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
        assert int(out.stdout) == expected


# ----------------------------------------------------------------------------- splits
def test_kfold_partitions_each_repetition_and_is_stratified():
    _, y = _data(103)
    proto = KFold(n_splits=5, n_repeats=2)
    for rep in range(2):
        tests = []
        for fold in range(5):
            train, test = proto.split(y, 0, "toy", rep, fold)
            assert np.array_equal(np.sort(train), np.setdiff1d(np.arange(len(y)), test))
            assert not np.array_equal(train, np.sort(train))  # shuffled for online learners
            # stratified: the fold's positives differ from the expected share by < 1
            assert abs(np.sum(y[test] == 1) - np.sum(y == 1) * len(test) / len(y)) < 1
            tests.append(test)
        assert np.array_equal(np.sort(np.concatenate(tests)), np.arange(len(y)))
    # same as scikit-learn's StratifiedKFold with the derived seed
    skf = StratifiedKFold(5, shuffle=True, random_state=task_seed(0, "toy", "kfold", 1))
    _, expected = list(skf.split(np.zeros(len(y)), y))[3]
    assert np.array_equal(proto.split(y, 0, "toy", 1, 3)[1], expected)
    # repetitions differ, repeated calls agree
    assert not np.array_equal(proto.split(y, 0, "toy", 0, 0)[1], proto.split(y, 0, "toy", 1, 0)[1])
    a, b = proto.split(y, 0, "toy", 1, 2), proto.split(y, 0, "toy", 1, 2)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_random_splits_are_stratified_fractions():
    _, y = _data(200)
    train, test = RandomSplits(n_repeats=3, test_size=0.2).split(y, 5, "toy", 2)
    assert len(test) == 40 and len(train) == 160
    assert np.intersect1d(train, test).size == 0
    assert np.sum(y[test] == 1) == round(np.sum(y == 1) * 0.2)
    # the training rows come in a random order, as the docstring says: an online learner
    # never sees a file sorted by class (no test checked this order before)
    for stratified in (True, False):
        train, _ = RandomSplits(stratified=stratified).split(y, 5, "toy", 2)
        assert not np.array_equal(train, np.sort(train)), stratified


def test_prequential_order():
    p = Prequential(n_repeats=2, shuffle=True)
    o = p.order(50, 0, "toy", 1)
    assert sorted(o) == list(range(50)) and not np.array_equal(o, np.arange(50))
    assert np.array_equal(Prequential().order(5, 0, "toy", 0), np.arange(5))


# ----------------------------------------------------------------------------- metrics
def test_metrics_match_scikit_learn():
    rng = np.random.default_rng(0)
    y = np.where(rng.random(80) < 0.3, 1, -1)
    score = rng.normal(size=80) + y
    pred = np.where(score > 0.3, 1, -1)
    assert get_metric("roc_auc")(y, score) == pytest.approx(roc_auc_score(y, score))
    assert get_metric("pr_auc")(y, score) == pytest.approx(average_precision_score(y, score))
    assert get_metric("f1")(y, pred) == pytest.approx(f1_score(y, pred))
    sens = recall_score(y, pred)
    spec = recall_score(y, pred, pos_label=-1)
    assert get_metric("sensitivity")(y, pred) == pytest.approx(sens)
    assert get_metric("specificity")(y, pred) == pytest.approx(spec)
    assert get_metric("gmean")(y, pred) == pytest.approx(np.sqrt(sens * spec))
    assert get_metric("balanced_accuracy")(y, pred) == pytest.approx(
        balanced_accuracy_score(y, pred)
    )
    assert get_metric("roc_auc").needs_scores and not get_metric("gmean").needs_scores


def test_unknown_metric_lists_the_choices():
    with pytest.raises(ValueError, match=r"unknown metric 'auc'.*roc_auc"):
        get_metric("auc")


def test_evaluate_split_scores_by_decision_function_and_predict():
    X, y = _data()
    train, test = KFold().split(y, 0, "toy", 0, 0)
    out = evaluate_split(LogisticRegression(), X, y, train, test, ["roc_auc", "gmean"], curves=True)
    ref = LogisticRegression().fit(X[train], y[train])
    assert out["metrics"]["roc_auc"] == pytest.approx(
        roc_auc_score(y[test], ref.decision_function(X[test]))
    )
    pred = ref.predict(X[test])
    sens = np.mean(pred[y[test] == 1] == 1)
    spec = np.mean(pred[y[test] == -1] == -1)
    assert out["metrics"]["gmean"] == pytest.approx(np.sqrt(sens * spec))
    assert len(out["curves"]["roc_tpr"]) == 51 and out["curves"]["roc_tpr"][-1] == 1.0
    assert out["fit_time"] >= 0 and out["params"] == {}


# ----------------------------------------------------------------------------- search
def test_nested_search_matches_a_hand_loop():
    X, y = _data(150, seed=1)
    grid = {"C": "10^[-3:1]"}
    best, params, search = nested_search(
        LogisticRegression(), grid, X, y, metric="gmean", inner_splits=3, seed=11
    )
    # the same thing by hand
    folds = list(StratifiedKFold(3, shuffle=True, random_state=11).split(X, y))
    hand = []
    for C in [10.0**k for k in range(-3, 2)]:
        vals = []
        for tr, te in folds:
            pred = LogisticRegression(C=C).fit(X[tr], y[tr]).predict(X[te])
            sens = np.mean(pred[y[te] == 1] == 1)
            spec = np.mean(pred[y[te] == -1] == -1)
            vals.append(np.sqrt(sens * spec))
        hand.append(np.mean(vals))
    np.testing.assert_allclose(search["scores"], hand)
    assert params == {"C": 10.0 ** (int(np.argmax(hand)) - 3)}
    np.testing.assert_allclose(best.coef_, LogisticRegression(**params).fit(X, y).coef_)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_nested_search_refuses_to_choose_when_every_candidate_scores_nan():
    """4 positives and 5 inner folds: one inner fold has none, so ROC AUC is undefined there
    and every candidate's mean is NaN; GridSearchCV alone would refit the first one."""
    X, y = _data(60, seed=4)
    y = np.full(60, -1)
    y[:4] = 1
    with pytest.raises(
        ValueError, match=r"every one of the 3 candidates scored NaN.*\{-1: 56, 1: 4\}"
    ):
        nested_search(LogisticRegression(), {"C": [0.1, 1.0, 10.0]}, X, y, inner_splits=5)
    # with 4 inner folds every fold has a positive, and the search chooses
    _, params, search = nested_search(
        LogisticRegression(), {"C": [0.1, 1.0, 10.0]}, X, y, inner_splits=4
    )
    assert all(v is not None for v in search["scores"])


def test_nested_search_folds_scikit_learns_per_fold_tracebacks_into_one_line():
    """Session 14: every inner fold where a candidate failed printed scikit-learn's warning
    with a whole traceback (692 stderr lines for a 10-task `skewlearn run` on 3 positives).
    A search now warns once, naming the first error; when no candidate is left, the
    ValueError names it."""
    import warnings

    from sklearn.model_selection import GridSearchCV

    X, y = _data(60, seed=4)
    y = np.full(60, -1)
    y[:4] = 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match=r"first error: ValueError: ROC AUC is undefined"):
            nested_search(LogisticRegression(), {"C": [0.1, 1.0]}, X, y, inner_splits=5)
    assert not any("Traceback" in str(w.message) for w in caught)
    # one candidate fails every fit: the other is chosen, as GridSearchCV chooses it
    X, y = _data(120, seed=1)
    grid = {"C": [-1.0, 1.0]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, params, search = nested_search(LogisticRegression(), grid, X, y, inner_splits=3)
    texts = [str(w.message) for w in caught]
    assert not any("Traceback" in t for t in texts)
    (line,) = [t for t in texts if t.startswith("nested search:")]
    assert "1 of 2 candidates scored NaN" in line and "'C' parameter" in line
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = GridSearchCV(
            LogisticRegression(), grid, cv=StratifiedKFold(3, shuffle=True, random_state=0),
            scoring="roc_auc", error_score=np.nan,
        ).fit(X, y)  # fmt: skip
    assert params == ref.best_params_ == {"C": 1.0}
    assert search["scores"][0] is None
    assert search["scores"][1] == pytest.approx(ref.cv_results_["mean_test_score"][1])


def test_overlapping_searches_in_threads_keep_their_warnings_and_restore_the_process():
    """Session 15: the search recorded warnings with ``warnings.catch_warnings``, which
    saves and restores the process-wide ``showwarning`` and filters at each block's ends.
    Two searches overlapping in threads (a threaded Dask worker): the one ending second
    restored the first one's recorder, so every later warning of the process went into a
    dead list, and the filter "always" stayed on. Order here: A starts, B starts, A ends,
    B ends."""
    import threading
    import warnings

    from skewlearn.evaluation.protocols import recorded_warnings

    before_show, before_filters = warnings.showwarning, list(warnings.filters)
    steps = {k: threading.Event() for k in ("a_in", "b_in", "a_out", "b_warned")}
    got: dict[str, list[str]] = {}

    def a():
        with recorded_warnings() as caught:
            steps["a_in"].set()
            steps["b_in"].wait(5)
            warnings.warn("from A", UserWarning, stacklevel=1)
        got["a"] = [str(w.message) for w in caught]
        steps["a_out"].set()

    def b():
        steps["a_in"].wait(5)
        with recorded_warnings() as caught:
            steps["b_in"].set()
            steps["a_out"].wait(5)
            warnings.warn("from B", UserWarning, stacklevel=1)
            warnings.warn("from B", UserWarning, stacklevel=1)  # every occurrence
        got["b"] = [str(w.message) for w in caught]

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert got == {"a": ["from A"], "b": ["from B", "from B"]}
    assert warnings.showwarning is before_show and warnings.filters == before_filters


def test_a_classifier_without_decision_function_ranks_by_probability():
    """Session 14: a random forest (or naive Bayes, k-NN) in an experiment stopped the run
    with "AttributeError: 'RandomForestClassifier' object has no attribute
    'decision_function'". Ranking metrics now use its probability of the class +1, as
    scikit-learn's roc_auc scorer does; the search chooses as GridSearchCV does."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.model_selection import GridSearchCV

    X, y = _data(200, seed=5)
    train, test = KFold(n_splits=3).split(y, 0, "toy", 0, 0)
    rf = RandomForestClassifier(n_estimators=20, random_state=0)
    out = evaluate_split(rf, X, y, train, test, ["roc_auc", "pr_auc", "f1"], curves=True)
    ref = RandomForestClassifier(n_estimators=20, random_state=0).fit(X[train], y[train])
    p = ref.predict_proba(X[test])[:, list(ref.classes_).index(1)]
    assert out["metrics"]["roc_auc"] == pytest.approx(roc_auc_score(y[test], p))
    assert out["metrics"]["pr_auc"] == pytest.approx(average_precision_score(y[test], p))
    assert out["curves"]["roc_tpr"]
    grid = {"max_depth": [1, 2, 8]}
    _, params, search = nested_search(rf, grid, X[train], y[train], inner_splits=3, seed=2)
    cv = StratifiedKFold(3, shuffle=True, random_state=2)
    gs = GridSearchCV(rf, grid, scoring="roc_auc", cv=cv).fit(X[train], y[train])
    assert params == gs.best_params_
    np.testing.assert_allclose(search["scores"], gs.cv_results_["mean_test_score"])


def test_evaluate_split_searches_on_the_training_part_only():
    X, y = _data(150, seed=2)
    train, test = KFold(n_splits=3).split(y, 0, "toy", 0, 1)
    out = evaluate_split(
        LogisticRegression(), X, y, train, test, ["roc_auc"], grid={"C": [0.001, 1.0]}, seed=3
    )
    _, params, search = nested_search(
        LogisticRegression(), {"C": [0.001, 1.0]}, X[train], y[train], metric="roc_auc", seed=3
    )
    assert out["params"] == params and out["search"]["scores"] == search["scores"]


# ----------------------------------------------------------------------------- prequential
def test_prequential_run_scores_each_row_before_learning():
    X, y = _data(90)
    out = prequential_run(Perceptron(), X, y, ["roc_auc", "gmean"], checkpoints=9)
    scores = Perceptron().test_then_train(X, y, classes=[-1, 1])
    assert out["metrics"]["roc_auc"] == pytest.approx(roc_auc_score(y, scores))
    assert out["stream"]["position"] == list(range(10, 91, 10))
    assert out["stream"]["roc_auc"][-1] == pytest.approx(out["metrics"]["roc_auc"])
    pred = np.where(scores[:30] > 0, 1, -1)
    sens = np.mean(pred[y[:30] == 1] == 1)
    spec = np.mean(pred[y[:30] == -1] == -1)
    assert out["stream"]["gmean"][2] == pytest.approx(np.sqrt(sens * spec))


def test_prequential_curve_has_no_point_before_the_first_row():
    """More checkpoints than rows (checkpoints = 50 on 30 rows) put a point at position 0:
    a prefix of no rows, NaN for every metric, and 31 points for 30 rows."""
    X, y = _data(30)
    out = prequential_run(Perceptron(), X, y, ["specificity"], checkpoints=50)
    assert out["stream"]["position"] == list(range(1, 31))
    assert np.isfinite(out["stream"]["specificity"]).all()
    with pytest.raises(ValueError, match="checkpoints must be a positive integer; got 0"):
        prequential_run(Perceptron(), X, y, ["specificity"], checkpoints=0)


@pytest.mark.parametrize(("n", "k"), [(58, 50), (116, 100), (140, 100), (164, 20)])
def test_prequential_checkpoints_are_exact_fractions_of_the_stream(n, k):
    """Checkpoint j of k is at row floor(j·n/k), computed in integers: the float
    np.linspace(0, 58, 51)[25] is 28.999999999999996, which truncated to row 28 where
    half of the 58-row stream is 29."""
    X, y = _data(n)
    out = prequential_run(Perceptron(), X, y, ["specificity"], checkpoints=k)
    expected = sorted({j * n // k for j in range(1, k + 1)} - {0})
    assert out["stream"]["position"] == expected
    assert out["stream"]["position"][-1] == n


def test_prequential_curve_is_nan_where_a_label_metric_is_undefined():
    """The first positive arrives at row 41: G-mean, sensitivity and balanced accuracy are
    undefined on the shorter prefixes (NaN on the curve, like the ranking metrics), and
    defined after it; specificity is defined throughout."""
    X, y = _data(200, seed=5)
    first = int(np.flatnonzero(y == 1)[0])
    order = np.r_[
        np.flatnonzero(y == -1)[:40],
        first,
        np.setdiff1d(np.arange(200), np.r_[np.flatnonzero(y == -1)[:40], first]),
    ]
    names = ["gmean", "sensitivity", "balanced_accuracy", "roc_auc", "specificity"]
    out = prequential_run(Perceptron(), X, y, names, order=order, checkpoints=10)
    assert out["stream"]["position"][:3] == [20, 40, 60]
    for m in names:
        curve = out["stream"][m]
        if m == "specificity":  # defined on negatives alone: it still counts
            assert all(np.isfinite(v) for v in curve), m
            continue
        assert all(np.isnan(v) for v in curve[:2]), m
        assert all(np.isfinite(v) for v in curve[2:]), m
        assert curve[-1] == pytest.approx(out["metrics"][m])


def test_prequential_needs_test_then_train():
    X, y = _data(30)
    with pytest.raises(TypeError, match=r"no test_then_train.*'kfold'"):
        prequential_run(LogisticRegression(), X, y, ["roc_auc"])


@pytest.mark.parametrize("pos_label", [None, -1])
@pytest.mark.parametrize("threshold", [0.5, -0.3])
def test_prequential_threshold_metrics_use_the_learners_predict_rule(threshold, pos_label):
    """OAM, KOIL and OPAUC cut predict at their threshold; the prequential protocols cut at
    0 whatever it was, so one configured learner got two decision rules (k-fold uses
    predict). Reference: each row predicted by predict() of the model of the rows before."""
    from sklearn.base import clone

    from skewlearn import OAM
    from skewlearn.evaluation import prequential
    from skewlearn.metrics import f1, gmean

    X, y = _data(300, seed=2)
    est = OAM(threshold=threshold, pos_label=pos_label, random_state=0)
    m = clone(est).partial_fit(X[:1], y[:1], classes=[-1, 1])
    pos = 1 if pos_label is None else pos_label  # the threshold cuts the score of pos
    first = pos if 0.0 > threshold else -pos  # row 0: the unfitted model scores 0
    pred = [first]
    for i in range(1, len(y)):
        pred.append(m.predict(X[i : i + 1])[0])
        m.partial_fit(X[i : i + 1], y[i : i + 1])
    pred = np.array(pred)
    scores = clone(est).test_then_train(X, y, classes=[-1, 1])
    assert not np.array_equal(pred, np.where(pos * scores > 0, pos, -pos))  # the cut matters
    out = prequential_run(est, X, y, ["f1", "gmean"])
    assert out["metrics"]["f1"] == pytest.approx(f1(y, pred), rel=1e-12)
    assert out["metrics"]["gmean"] == pytest.approx(gmean(y, pred), rel=1e-12)
    res = prequential(clone(est), X, y, chunk_size=64, classes=[-1, 1])
    # prequential's F1 is that of the learner's pos_label; prequential_run's that of +1
    assert res.final["f1"] == pytest.approx(f1(y, pred, pos_label=pos), rel=1e-12)
    assert res.final["gmean"] == pytest.approx(gmean(y, pred), rel=1e-12)


def test_protocols_name_their_label_and_class_requirements():
    from skewlearn.evaluation import prequential

    X, y = _data(60, seed=1)
    with pytest.raises(ValueError, match=r"takes labels in \{-1, \+1\} .*y holds \[0\]"):
        prequential_run(Perceptron(), X, np.where(y == 1, 1, 0), ["f1"])
    ys = y.copy()
    ys[:20] = -1
    chunks = ((X[i : i + 20], ys[i : i + 20]) for i in range(0, 60, 20))
    with pytest.raises(ValueError, match=r"first chunk holds one class \(\[-1\]\).*prequential\("):
        prequential(Perceptron(), chunks)
    # a checkpoint that cuts the first chunk into one-class pieces is fine: the classes
    # come from the whole chunk
    ys[0] = 1
    chunks = ((X[i : i + 20], ys[i : i + 20]) for i in range(0, 60, 20))
    res = prequential(Perceptron(), chunks, checkpoints=[1, 2, 60])
    ref = prequential(Perceptron(), X, ys, checkpoints=[1, 2, 60])
    np.testing.assert_array_equal(res.scores, ref.scores)
    # an empty first chunk is skipped, as before
    chunks = [(X[:0], ys[:0])] + [(X[i : i + 20], ys[i : i + 20]) for i in range(0, 60, 20)]
    np.testing.assert_array_equal(prequential(Perceptron(), chunks).scores, ref.scores)


def test_a_grid_of_a_set_or_a_generator_is_its_values():
    """Session 13: `{"C": {0.1, 1}}` and `{"C": (2.0**k for k in range(3))}` were one
    candidate each (the set, the generator object), so the search "chose" a value the
    learner refused. A generator is its values; a set, which has no order (the search
    breaks ties by grid order), is refused with the fix."""
    assert expand_grid({"C": (2.0**k for k in range(3))}) == [{"C": 1.0}, {"C": 2.0}, {"C": 4.0}]
    assert parse_grid(map(float, [1, 3])) == [1.0, 3.0]
    with pytest.raises(
        TypeError, match=r"grid\.C: a set has no order; .* a list, e.g\. \[0\.1, 1\]"
    ):
        expand_grid({"C": {1, 0.1}})
    assert parse_grid({"balanced": 1}) == [{"balanced": 1}]  # a dict is one value (class_weight)


def test_a_grid_of_numpy_scalars_gives_python_values():
    """``grid = {"n_neighbors": list(np.arange(3, 6))}`` (numpy integers) ran its first task
    and then stopped the run: the chosen ``np.int64`` could not be written to the results
    database as JSON (session 16)."""
    import json

    values = parse_grid([np.int64(3), np.float32(0.5), np.bool_(True), "rbf"])
    assert values == [3, 0.5, True, "rbf"]
    assert [type(v) for v in values] == [int, float, bool, str]
    assert type(parse_grid(np.int64(4))[0]) is int  # one value
    json.dumps(expand_grid({"k": list(np.arange(1, 3))}))


def test_non_finite_test_scores_give_nan_ranking_metrics_and_keep_the_others():
    """A learner whose scores overflowed to NaN or inf on a test row: ROC and PR AUC are NaN
    (no ranking of those rows; an inf would rank as the highest score, a NaN raised), while
    the threshold metrics still count the predictions."""
    from sklearn.base import BaseEstimator, ClassifierMixin

    class Overflowing(ClassifierMixin, BaseEstimator):
        def __init__(self, bad=np.nan):
            self.bad = bad

        def fit(self, X, y):
            self.classes_ = np.array([-1, 1])
            return self

        def decision_function(self, X):
            s = np.asarray(X[:, 0], dtype=float).copy()
            s[0] = self.bad
            return s

        def predict(self, X):
            return np.where(X[:, 0] > 0, 1, -1)

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=40) > 0, 1, -1)
    train, test = np.arange(20), np.arange(20, 40)
    for bad in (np.nan, np.inf):
        out = evaluate_split(
            Overflowing(bad), X, y, train, test, ["roc_auc", "pr_auc", "f1", "gmean"]
        )
        m = out["metrics"]
        assert np.isnan(m["roc_auc"]) and np.isnan(m["pr_auc"]), (bad, m)
        pred = np.where(X[test, 0] > 0, 1, -1)
        assert m["f1"] == pytest.approx(f1_score(y[test], pred))
        sens, spec = recall_score(y[test], pred), recall_score(y[test], pred, pos_label=-1)
        assert m["gmean"] == pytest.approx(np.sqrt(sens * spec))
