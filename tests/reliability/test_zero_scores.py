"""A decision value of exactly 0 (or -0.0, which the ``nsz`` fast-math flag may produce).

skewlearn's rule (docs/decisions.md, session 20): ``predict`` gives ``pos_label`` where the
score *of pos_label* is > 0 (> ``threshold``); a tie goes to the other class, whichever
of ``classes_`` is positive. So a model and its relabelled mirror predict alike; with
``pos_label = classes_[1]`` this is scikit-learn's ``decision_function > 0``.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone, is_classifier
from sklearn.model_selection import FixedThresholdClassifier

from skewlearn import OGD, Perceptron
from skewlearn._discovery import all_estimators

CLASSIFIERS = [
    est
    for est in (cls(**cls._test_params[0]) for cls in all_estimators().values())
    if is_classifier(est)
]
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
TIES = np.array([0.0, -0.0, 5e-324, -5e-324, 1.0, -1.0])


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, (X[:, 0] > 0.6).astype(int)


def _with_raw_scores(est, raw):
    """``est`` scoring ``pos_label`` with ``raw`` on any input (the rule is the base
    class's; this isolates it from how each learner reaches an exact 0)."""
    est._scores_of = lambda X: raw.copy()
    return est


@pytest.mark.parametrize("est", CLASSIFIERS, ids=lambda e: type(e).__name__)
def test_a_tie_goes_to_the_class_that_is_not_pos_label_for_every_estimator(est):
    X, y = _data()
    labels = np.array(["a", "b"])
    for pos in ("a", "b"):
        neg = "b" if pos == "a" else "a"
        model = _with_raw_scores(clone(est).set_params(pos_label=pos).fit(X, labels[y]), TIES)
        got = model.predict(X[: len(TIES)])
        np.testing.assert_array_equal(got, [neg, neg, pos, neg, pos, neg])
        dec = model.decision_function(X[: len(TIES)])
        if pos == "b":  # pos_label = classes_[1]: scikit-learn's decision_function > 0
            np.testing.assert_array_equal(got, model.classes_[(dec > 0).astype(int)])
        else:  # pos_label = classes_[0]: classes_[1] where decision_function >= 0
            np.testing.assert_array_equal(got, model.classes_[(dec >= 0).astype(int)])


@pytest.mark.parametrize("est", CLASSIFIERS, ids=lambda e: type(e).__name__)
def test_a_model_and_its_relabelled_mirror_predict_alike_at_a_tie(est):
    X, y = _data()
    one = _with_raw_scores(clone(est).set_params(pos_label=1).fit(X, y), TIES)
    mirror = _with_raw_scores(clone(est).set_params(pos_label=0).fit(X, 1 - y), TIES)
    np.testing.assert_array_equal(mirror.predict(X[:6]), 1 - one.predict(X[:6]))


def test_a_real_zero_score_in_either_sign():
    """Perceptron without an intercept scores a zero row exactly 0 (+0.0 or -0.0)."""
    X, y = _data()
    zeros = np.array([[0.0, 0.0, 0.0], [-0.0, -0.0, -0.0]])
    for pos, neg in ((1, 0), (0, 1)):
        clf = Perceptron(fit_intercept=False, pos_label=pos).fit(X, y)
        assert np.all(clf.decision_function(zeros) == 0)
        np.testing.assert_array_equal(clf.predict(zeros), [neg, neg])


def test_argmax_of_predict_proba_is_predict_except_at_exactly_one_half():
    """OGD(loss="logistic"): columns follow classes_ and argmax agrees with predict; at
    p = 1/2 exactly numpy's argmax takes column 0, predict the class that is not
    pos_label (the same class when pos_label is classes_[1])."""
    X, y = _data(200)
    for pos in (1, 0):
        clf = OGD(loss="logistic", pos_label=pos).fit(X, y)
        Z = np.vstack([X, np.zeros((1, 3))])
        raw = np.r_[clf.decision_function(X) * (1 if pos == 1 else -1), 0.0]
        _with_raw_scores(clf, raw)
        proba = clf.predict_proba(Z)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-15)
        pred = clf.predict(Z)
        np.testing.assert_array_equal(pred[:-1], clf.classes_[proba[:-1].argmax(axis=1)])
        assert proba[-1, 0] == proba[-1, 1] == 0.5
        assert pred[-1] == 1 - pos


@pytest.mark.parametrize("name", ["KOIL", "OAM", "OPAUC"])
@pytest.mark.parametrize("pos_label", ["majority", "minority"])
def test_fixed_threshold_classifier_recipe_agrees_at_a_score_equal_to_the_threshold(
    name, pos_label
):
    """The ``threshold`` docstring's recipe: FixedThresholdClassifier votes pos_label at a
    score >= its threshold, skewlearn above it; the docstring's
    ``np.nextafter(t, np.inf)`` makes the two agree on exact ties too."""
    cls = all_estimators()[name]
    X, y01 = _data(200)
    y = np.array(["majority", "minority"])[y01]
    t = 0.25
    params = {**cls._test_params[0], "pos_label": pos_label}
    own = cls(**params, threshold=t).fit(X, y)
    raw = np.full(len(y), t)
    raw[::2] = np.nextafter(t, np.inf)
    _with_raw_scores(own, raw)
    wrapped = FixedThresholdClassifier(
        cls(**params), threshold=float(np.nextafter(t, np.inf)), pos_label=pos_label
    ).fit(X, y)
    _with_raw_scores(wrapped.estimator_, raw)
    neg = "majority" if pos_label == "minority" else "minority"
    np.testing.assert_array_equal(own.predict(X), np.where(raw > t, pos_label, neg))
    np.testing.assert_array_equal(wrapped.predict(X), own.predict(X))
    naive = FixedThresholdClassifier(cls(**params), threshold=t, pos_label=pos_label).fit(X, y)
    _with_raw_scores(naive.estimator_, raw)
    assert (naive.predict(X) != own.predict(X)).sum() == len(y) // 2


@pytest.mark.parametrize("est", CLASSIFIERS, ids=lambda e: type(e).__name__)
def test_predictions_keep_the_dtype_of_classes_as_scikit_learn_does(est):
    """Session 20: predict built its labels with np.where from two scalars, so object
    labels (what pandas strings are) came back as '<U3', where scikit-learn's
    classifiers return classes_'s own dtype."""
    import pandas as pd
    from sklearn.linear_model import LogisticRegression

    X, y01 = _data(80)
    for y in (
        np.array(["no", "yes"], dtype=object)[y01],
        pd.Series(np.array(["no", "yes"])[y01], dtype="string"),
        np.array([-7, 5], dtype=np.int8)[y01],
        np.array([False, True])[y01],
    ):
        ref = LogisticRegression().fit(X, y)
        for pos in ref.classes_:
            model = clone(est).set_params(pos_label=pos).fit(X, y)
            got = model.predict(X)
            assert model.classes_.dtype == ref.classes_.dtype
            assert got.dtype == ref.predict(X).dtype == ref.classes_.dtype
            assert set(got.tolist()) <= set(ref.classes_.tolist())
