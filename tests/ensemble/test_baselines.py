"""OFO, OOB and UOB against hand-computed steps, slow references and their base learner."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp

from skewlearn import OFO, OGD, OOB, UOB
from skewlearn._rng import rng_uniform, seed_state
from skewlearn.ensemble.baselines import poisson
from tests import naive
from tests.naive import omcsl as ref

X3 = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]])
Y3 = np.array([1, -1, -1])


def _stream(n=500, d=4, seed=0, pos=0.1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    s = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n)
    return X, (s > np.quantile(s, 1 - pos)).astype(int)


def _uniform(seed):
    state = seed_state(seed)
    return lambda: rng_uniform(state)


def test_ofo_three_samples_by_hand():
    # t=1: f=0, sigma=.5, tau_0=0 -> score .5, yhat=1, y=1: a=1, b=2 (tau=1/2);
    #      OGD logistic, eta_1 = 1: w = .5*[1, 2, 1]
    # t=2: f = .5*(2 - 2 + 1) = .5 -> score sigma(.5) - .5 > 0, yhat=1, y=0: a=1, b=3;
    #      w -= (1/sqrt 2) sigma(.5) [2, -1, 1]
    # t=3: score = sigma(w.x3) - 1/3
    clf = OFO()
    scores = clf.test_then_train(X3, Y3)
    s5 = 1 / (1 + math.exp(-0.5))
    w2 = np.array([0.5, 1.0, 0.5]) - s5 / math.sqrt(2) * np.array([2.0, -1.0, 1.0])
    f3 = w2 @ [-1.0, 1.0, 1.0]
    assert scores[0] == pytest.approx(0.5)
    assert scores[1] == pytest.approx(s5 - 0.5)
    assert scores[2] == pytest.approx(1 / (1 + math.exp(-f3)) - 1 / 3)
    # t=3: score > 0 iff sigma(f3) > 1/3; y=0, so b grows by 1 in that case
    b3 = 3 + int(scores[2] > 0)
    np.testing.assert_array_equal(clf.f_counts_, [1, b3])
    assert clf.threshold_ == pytest.approx(1 / b3)


@pytest.mark.parametrize("schedule", ["invsqrt", "constant"])
def test_ofo_matches_reference_and_its_ogd(schedule):
    X, y = _stream(seed=1)
    clf = OFO(eta=0.5, schedule=schedule)
    scores = clf.test_then_train(X, y)
    w, rscores, ab = ref.ofo(naive.augment(X), np.where(y == 1, 1, -1), 0.5, schedule)
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, rscores, rtol=1e-10, atol=1e-12)
    assert tuple(clf.f_counts_) == ab
    ogd = OGD(loss="logistic", eta=0.5, schedule=schedule).fit(X, y)
    np.testing.assert_array_equal(clf.weights_, ogd.weights_)
    # the threshold is half the online F-measure of its own predictions
    f = 2 * ab[0] / ab[1]
    assert clf.threshold_ == pytest.approx(f / 2)


@pytest.mark.parametrize("cls", [OOB, UOB])
@pytest.mark.parametrize("loss", ["logistic", "hinge"])
def test_resampling_bagging_matches_reference(cls, loss):
    X, y = _stream(n=400, seed=2, pos=0.05)
    clf = cls(n_estimators=5, loss=loss, eta=0.3, random_state=4)
    votes = clf.test_then_train(X, y)
    W, rvotes, sizes, lambdas = ref.resampled_bagging(
        naive.augment(X), np.where(y == 1, 1, -1), _uniform(4), M=5,
        undersample=cls is UOB, loss=loss, eta=0.3,
    )  # fmt: skip
    np.testing.assert_allclose(clf.weights_, W, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(votes, rvotes, rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(clf.class_sizes_, sizes, rtol=1e-12)
    # OOB oversamples positives (lambda > 1 on them); UOB undersamples negatives
    pos = y == 1
    if cls is OOB:
        assert (lambdas[pos][10:] > 1).all() and (lambdas[~pos] == 1).all()
        assert clf.steps_.mean() > len(y)
    else:
        assert (lambdas[~pos][10:] < 1).all() and (lambdas[pos] == 1).all()
        assert clf.steps_.mean() < len(y)


def test_bagging_sparse_and_batching_do_not_change_the_draws():
    X, y = _stream(n=300, seed=3)
    Xs = sp.csr_matrix(np.where(np.abs(X) < 0.6, 0.0, X))
    a = OOB(n_estimators=3, random_state=1).fit(Xs, y)
    b = OOB(n_estimators=3, random_state=1)
    for lo in range(0, 300, 41):
        b.partial_fit(Xs[lo : lo + 41], y[lo : lo + 41], classes=[0, 1])
    np.testing.assert_array_equal(a.weights_, b.weights_)
    np.testing.assert_array_equal(a.steps_, b.steps_)


@pytest.mark.parametrize("lam", [0.0, 0.3, 4.0, 75.0])
def test_poisson_draws_have_the_poisson_mean_and_variance(lam):
    state = seed_state(0)
    draws = np.array([poisson(lam, state) for _ in range(20000)])
    se = math.sqrt(lam / len(draws)) if lam else 0.0
    assert abs(draws.mean() - lam) <= 5 * se + 1e-12
    if lam:
        assert draws.var() == pytest.approx(lam, rel=0.1)
