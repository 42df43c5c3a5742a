"""First-order learners against hand-computed updates, numpy references and scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.linear_model import SGDClassifier

from skewlearn import PassiveAggressive, Perceptron
from tests import naive

# A 3-sample stream used for the hand-computed checks.
X3 = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]])
Y3 = np.array([1, -1, -1])


def test_perceptron_three_samples_by_hand():
    # t=1: w=0, score 0 -> update w = [1, 2, 1]
    # t=2: score 2-2+1 = 1, y=-1 -> mistake -> w = [1-2, 2+1, 1-1] = [-1, 3, 0]
    # t=3: score 1+3+0 = 4, y=-1 -> mistake -> w = [0, 2, -1]
    clf = Perceptron().fit(X3, Y3)
    np.testing.assert_array_equal(clf.weights_, [0.0, 2.0, -1.0])
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def test_pa1_three_samples_by_hand():
    # C=0.1. t=1: loss 1, ||x||^2 = 1+4+1 = 6, tau = min(.1, 1/6) = .1 -> w = [.1,.2,.1]
    # t=2: score .2-.2+.1 = .1, loss 1.1, ||x||^2 = 4+1+1 = 6, tau = .1 -> w = [-.1,.3,0]
    # t=3: score .1+.3 = .4, loss 1.4, ||x||^2 = 3, tau = .1 -> w = [0, .2, -.1]
    clf = PassiveAggressive(C=0.1, variant="pa1").fit(X3, Y3)
    np.testing.assert_allclose(clf.weights_, [0.0, 0.2, -0.1], atol=1e-15)


def test_pa_and_pa2_three_samples_by_hand():
    # PA: t=1 tau = 1/6 -> w = [1/6, 2/6, 1/6]; t=2 score = (2-2+1)/6 = 1/6, loss 7/6,
    # tau = 7/36 -> w = [1/6 - 14/36, 2/6 + 7/36, 1/6 - 7/36] = [-8/36, 19/36, -1/36]
    clf = PassiveAggressive(variant="pa").partial_fit(X3[:2], Y3[:2], classes=[-1, 1])
    np.testing.assert_allclose(clf.weights_, np.array([-8, 19, -1]) / 36, atol=1e-15)
    # PA-II, C=0.5: tau_1 = 1/(6 + 1) -> w = [1, 2, 1]/7
    clf2 = PassiveAggressive(C=0.5, variant="pa2").partial_fit(X3[:1], Y3[:1], classes=[-1, 1])
    np.testing.assert_allclose(clf2.weights_, np.array([1, 2, 1]) / 7, atol=1e-15)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("variant", ["pa", "pa1", "pa2"])
def test_pa_matches_numpy_reference(variant, fit_intercept):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 7))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=400) > 1.0, 1, -1)
    clf = PassiveAggressive(C=0.3, variant=variant, fit_intercept=fit_intercept)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    w, ref_scores = naive.passive_aggressive(naive.augment(X, fit_intercept), y, 0.3, variant)
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-10)
    np.testing.assert_allclose(scores, ref_scores, rtol=1e-10, atol=1e-12)


def test_perceptron_equals_sklearn_perceptron():
    rng = np.random.default_rng(42)
    X = rng.normal(size=(2000, 10))
    y = (X @ rng.normal(size=10) + 0.5 * rng.normal(size=2000) > 1.5).astype(int)
    ours = Perceptron().fit(X, y)
    ref = SkPerceptron(max_iter=1, tol=None, shuffle=False, eta0=1.0).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_allclose(ours.coef_, ref.coef_)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_)
    # and on CSR input
    ours_sp = Perceptron().fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(ours_sp.predict(X), ref.predict(X))


def test_pa1_equals_sklearn_sgd_pa1():
    """scikit-learn leaves the intercept out of ||x||^2; we follow the papers' augmented x.

    So the two agree exactly without an intercept (see docs/decisions.md).
    """
    rng = np.random.default_rng(7)
    X = rng.normal(size=(2000, 10))
    y = (X @ rng.normal(size=10) + 0.5 * rng.normal(size=2000) > 1.5).astype(int)
    ours = PassiveAggressive(C=0.05, variant="pa1", fit_intercept=False).fit(X, y)
    ref = SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1", eta0=0.05,
                        max_iter=1, tol=None, shuffle=False, fit_intercept=False).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-10)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
