"""Sparse learners against hand-computed updates and numpy references."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from skewlearn import OFS, OGD, TruncatedGradient
from tests import naive
from tests.naive import first_order as naive_fo

X3 = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]])
Y3 = np.array([1, -1, -1])


def _random_stream(n=300, d=6, seed=0, density=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if density is not None:
        X[rng.random(size=X.shape) > density] = 0.0
    y = np.where(X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > 0.8, 1, -1)
    return X, y


# --------------------------------------------------------------------------- truncated gradient
def test_truncated_gradient_three_samples_by_hand():
    # eta = .1, hinge, K = 1, g = .5 -> alpha = eta K g = .05 after every step; theta = inf
    # t=1: w = .1*[1,2,1] = [.1,.2,.1] -> T1 on features: [.05,.15], intercept .1 kept
    # t=2: f = .1 - .15 + .1 = .05, y=-1 -> w -= .1*[2,-1,1] = [-.15,.25,0] -> [-.10,.20,0]
    # t=3: f = .1 + .2 + 0 = .3, y=-1 -> w -= .1*[-1,1,1] = [0,.1,-.1] -> [0,.05,-.1]
    clf = TruncatedGradient(eta=0.1, gravity=0.5, K=1).fit(X3, Y3)
    np.testing.assert_allclose(clf.weights_, [0.0, 0.05, -0.1], atol=1e-15)
    # theta = .12: only |v| <= .12 shrinks.
    # t=1: [.1,.2,.1] -> .1 -> .05, .2 > theta kept: [.05,.2,.1]
    # t=2: f = .1 - .2 + .1 = 0 -> w = [-.15,.3,0]; both beyond theta, kept
    # t=3: f = .15 + .3 = .45 -> w = [-.05,.2,-.1]; -.05 -> min(0, -.05 + .05) = 0
    clf = TruncatedGradient(eta=0.1, gravity=0.5, K=1, theta=0.12).fit(X3, Y3)
    np.testing.assert_allclose(clf.weights_, [0.0, 0.2, -0.1], atol=1e-15)
    # K = 2, g = .25 -> alpha = .1*2*.25 = .05 at t = 2 only
    # t=1: [.1,.2,.1]; t=2: f = .1 -> [-.1,.3,0] -> T1 -> [-.05,.25,0]
    # t=3: f = .05 + .25 = .3 -> w -= .1*[-1,1,1] -> [.05,.15,-.1] (no truncation at t=3)
    clf = TruncatedGradient(eta=0.1, gravity=0.25, K=2).fit(X3, Y3)
    np.testing.assert_allclose(clf.weights_, [0.05, 0.15, -0.1], atol=1e-15)


CONFIGS_TG = [
    {},
    {"gravity": 0.05, "K": 3, "theta": 0.2},
    {"loss": "logistic", "schedule": "invsqrt", "eta": 0.5, "gravity": 0.02, "K": 1},
    {"loss": "squared", "eta": 0.05, "gravity": 0.1, "K": 7, "theta": 0.3},
]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("params", CONFIGS_TG)
def test_truncated_gradient_matches_numpy_reference(params, fit_intercept, sparse):
    X, y = _random_stream(density=0.4 if sparse else None)
    clf = TruncatedGradient(fit_intercept=fit_intercept, **params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    w, ref = naive_fo.truncated_gradient(naive.augment(X, fit_intercept), y, **params)
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize(
    "params",
    [
        {"loss": "hinge", "schedule": "constant", "eta": 0.1},
        {"loss": "logistic", "schedule": "invsqrt", "eta": 1.0},
        {"loss": "squared", "schedule": "constant", "eta": 0.02},
    ],
)
def test_truncated_gradient_without_gravity_is_ogd(params, sparse):
    X, y = _random_stream(seed=6, density=0.5 if sparse else None)
    X = sp.csr_matrix(X) if sparse else X
    a = TruncatedGradient(gravity=0.0, K=3, theta=0.5, **params)
    b = OGD(**params)
    np.testing.assert_array_equal(
        a.test_then_train(X, y, classes=[-1, 1]), b.test_then_train(X, y, classes=[-1, 1])
    )
    np.testing.assert_array_equal(a.weights_, b.weights_)


def test_truncated_gradient_gravity_makes_sparse():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(3000, 30))
    y = (X[:, 0] - X[:, 1] > 0.5).astype(int)
    nnz = [np.count_nonzero(TruncatedGradient(gravity=g).fit(X, y).coef_) for g in (0, 0.02)]
    assert nnz[1] < nnz[0] == 30


def test_truncated_gradient_bad_hyperparameters():
    X, y = _random_stream()
    with pytest.raises(ValueError, match="'K' parameter of TruncatedGradient must be an int"):
        TruncatedGradient(K=0).fit(X, y)
    with pytest.raises(ValueError, match="'gravity' parameter"):
        TruncatedGradient(gravity=-0.1).fit(X, y)
    with pytest.raises(ValueError, match="'theta' parameter"):
        TruncatedGradient(theta=-1.0).fit(X, y)


# --------------------------------------------------------------------------- OFS
def test_ofs_three_samples_by_hand():
    # eta = 1, lam = 1 (ball of radius 1), B = 1
    # t=1: y f = 0 <= 1 -> w_hat = [1,2,1], norm sqrt6 -> [1,2,1]/sqrt6 -> keep feature 1:
    #      w = [0, 2, 1]/sqrt6
    # t=2: y=-1, f = (-2 + 1)/sqrt6, y f = 1/sqrt6 <= 1 -> w_hat = [0,2,1]/sqrt6 - [2,-1,1]
    #      = [-2, 2/sqrt6 + 1, 1/sqrt6 - 1], ||.||^2 = 4 + (2/r6 + 1)^2 + (1/r6 - 1)^2
    #      -> project, keep feature 0 (|-2| > 2/r6 + 1): w = [-2, 0, 1/r6 - 1] / n2
    # t=3: y=-1, f = (2 + 1/r6 - 1)/n2 > 0 -> w_hat = w - [-1,1,1] = [1 - 2/n2, -1, c/n2 - 1]
    #      -> project (norm > 1), keep feature 1 (|-1| > |1 - 2/n2|)
    r6 = np.sqrt(6.0)
    c = 1 / r6 - 1
    n2 = np.sqrt(4 + (2 / r6 + 1) ** 2 + c**2)
    w3 = np.array([1 - 2 / n2, -1.0, c / n2 - 1])
    expected = np.array([0.0, -1.0, c / n2 - 1]) / np.linalg.norm(w3)
    clf = OFS(n_selected=1, eta=1.0, lam=1.0).fit(X3, Y3)
    np.testing.assert_allclose(clf.weights_, expected, rtol=1e-13)
    np.testing.assert_array_equal(clf.selected_features_, [1])


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize(
    "params", [{}, {"n_selected": 3}, {"n_selected": 2, "eta": 1.0, "lam": 0.5}]
)
def test_ofs_matches_numpy_reference(params, fit_intercept, sparse):
    X, y = _random_stream(d=12, density=0.4 if sparse else None)
    clf = OFS(fit_intercept=fit_intercept, **params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    w, ref = naive_fo.ofs(naive.augment(X, fit_intercept), y, **params)
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("B", [1, 5, 17])
def test_ofs_never_more_than_b_nonzeros(B, sparse):
    X, y = _random_stream(n=2000, d=60, seed=2, density=0.2 if sparse else None)
    X = sp.csr_matrix(X) if sparse else X
    clf = OFS(n_selected=B, eta=0.5)
    for lo in range(0, 2000, 50):
        clf.partial_fit(X[lo : lo + 50], y[lo : lo + 50], classes=[-1, 1])
        assert np.count_nonzero(clf.coef_) <= B
    assert np.count_nonzero(clf.coef_) == B
    assert np.linalg.norm(clf.weights_) <= 1 / np.sqrt(clf.lam) + 1e-12


@pytest.mark.parametrize(("B", "lam"), [(5, 0.5), (40, 0.01), (5000, 0.5), (10**30, 0.5)])
def test_ofs_on_wide_sparse_rows_matches_numpy_reference(B, lam):
    """An update reads only the non-zero weights and the row's entries (O(B + nnz), not
    O(d)): on 4,000 features with 12 non-zeros a row, the weights the numpy reference keeps
    over all d, in one call and in chunks (each call finds the non-zero weights again), and
    with B beyond d (no truncation, the support grows to every feature touched), also
    beyond int64 (the work arrays' length is computed from min(B, d))."""
    rng = np.random.default_rng(11)
    n, d, k = 400, 4000, 12
    cols = np.sort(np.stack([rng.choice(d, k, replace=False) for _ in range(n)]), axis=1)
    cols[:, 0] = rng.integers(0, 30, size=n)  # a few shared features, many rare ones
    cols = np.sort(cols, axis=1)
    X = sp.csr_matrix((rng.normal(size=n * k), cols.ravel(), np.arange(0, n * k + 1, k)), (n, d))
    X.sum_duplicates()
    y = np.where(X[:, :30] @ rng.normal(size=30) > 0.5, 1, -1)
    params = {"n_selected": B, "eta": 0.5, "lam": lam}
    w, ref = naive_fo.ofs(naive.augment(X.toarray(), True), y, **params)
    clf = OFS(**params)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, ref, rtol=1e-10, atol=1e-12)
    assert np.count_nonzero(clf.coef_) == min(B, np.count_nonzero(w[:-1]))
    assert np.count_nonzero(w[:-1]) >= min(B, 100)  # (the case is not trivial)
    chunked = OFS(**params)
    for lo in range(0, n, 33):
        chunked.partial_fit(X[lo : lo + 33], y[lo : lo + 33], classes=[-1, 1])
    np.testing.assert_array_equal(chunked.weights_, clf.weights_)


def test_selection_of_the_kth_smallest_matches_sorting():
    """OFS's in-place selection (Hoare's, on |w| with many ties) against numpy's sort."""
    from skewlearn.linear.sparse import _kth_smallest

    rng = np.random.default_rng(5)
    for _ in range(400):
        m = int(rng.integers(1, 60))
        a = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], size=m) if rng.random() < 0.5 else rng.random(m)
        buf = np.concatenate([a, rng.random(5)])  # only a[:m] is looked at
        k = int(rng.integers(0, m))
        assert _kth_smallest(buf, m, k) == np.sort(a)[k]
        np.testing.assert_array_equal(np.sort(buf[:m]), np.sort(a))  # reordered, not lost


def test_ofs_ties_keep_lower_index():
    # identical columns give identical weights; B = 1 keeps feature 0
    X = np.array([[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    clf = OFS(n_selected=1, fit_intercept=False).fit(X, [1, 0])
    np.testing.assert_array_equal(clf.selected_features_, [0])


def test_ofs_bad_hyperparameters():
    X, y = _random_stream()
    with pytest.raises(ValueError, match="'n_selected' parameter of OFS must be an int"):
        OFS(n_selected=0).fit(X, y)
    with pytest.raises(ValueError, match="'lam' parameter"):
        OFS(lam=0.0).fit(X, y)


def test_selected_features_before_fit_is_not_fitted():
    """Like every other fitted attribute (KOIL.support_vectors_, coef_, ...); it raised
    "'OFS' object has no attribute 'weights_'"."""
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError, match="OFS instance is not fitted yet"):
        OFS().selected_features_  # noqa: B018


@pytest.mark.parametrize("big", [2**63, 10**30])
def test_integer_settings_beyond_int64_mean_never_and_all(big):
    # K and n_selected are unbounded integers, but the compiled passes take int64: a Python
    # int of 2**63 or more failed with a Numba TypingError ("non-precise type pyobject")
    # after the learner had set itself up, so it also claimed to be fitted. K beyond the
    # stream never truncates (= gravity 0, OGD with a constant step); n_selected beyond d
    # keeps every feature.
    X, y = _random_stream(seed=8)
    got = TruncatedGradient(K=big, gravity=0.5).fit(X, y)
    want = TruncatedGradient(K=5, gravity=0.0).fit(X, y)
    np.testing.assert_array_equal(got.weights_, want.weights_)
    got = OFS(n_selected=big).fit(X, y)
    want = OFS(n_selected=X.shape[1]).fit(X, y)
    np.testing.assert_array_equal(got.weights_, want.weights_)
    assert got.selected_features_.size == X.shape[1]
