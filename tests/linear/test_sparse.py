"""Sparse learners against hand-computed updates and numpy references."""

from __future__ import annotations

import hashlib
import pickle

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
@pytest.fixture
def lazy_tg(monkeypatch):
    """Every TruncatedGradient with ``gravity > 0`` truncates lazily on CSR rows, however
    narrow (the switch's width, ``_lazy_min_features``, set to 1; docs/decisions.md,
    session 22, probe h)."""
    monkeypatch.setattr(TruncatedGradient, "_lazy_min_features", 1)


@pytest.fixture(params=["eager", "lazy"])
def tg_path(request, monkeypatch):
    """Both paths: the default switch (these tests' models are narrow: eager), then lazy."""
    if request.param == "lazy":
        monkeypatch.setattr(TruncatedGradient, "_lazy_min_features", 1)
    return request.param


def _tg_weights(clf):
    """The model's ``[w, b]`` with every truncation applied (``weights_`` holds the weights
    as last brought up to date: after sparse rows some are behind)."""
    return np.r_[clf.coef_.ravel(), clf.intercept_]


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
def test_truncated_gradient_matches_numpy_reference(params, fit_intercept, sparse, tg_path):
    X, y = _random_stream(density=0.4 if sparse else None)
    clf = TruncatedGradient(fit_intercept=fit_intercept, **params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    assert clf._is_lazy() == (tg_path == "lazy")
    w, ref = naive_fo.truncated_gradient(naive.augment(X, fit_intercept), y, **params)
    np.testing.assert_allclose(_tg_weights(clf), w, rtol=1e-10, atol=1e-12)
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


# ------------------------------------------------- truncated gradient: the lazy truncation
# (docs/decisions.md, session 22, probe g: on CSR rows a weight's missed truncations are
# applied when its feature next appears, with a clock kept across calls)
_TG_STATE = ("weights_", "truncated_at_", "truncation_clock_", "counts_")

# x = [x0, x1], intercept 1; eta = .1, hinge, K = 2, g = .25: alpha = eta K g = .05 at
# t = 2, 4, 6. Feature 0 is absent at t = 2, 3, 4 and reappears at t = 5, then a step at
# t = 6 (a truncation sample) takes it across 0.
X_LAZY = np.array([[3.0, 0.0], [0.0, 1.0], [0.0, 2.0], [0.0, -1.0], [2.0, 0.0], [5.0, 0.0]])
Y_LAZY = np.array([1, -1, 1, 1, 1, -1])


@pytest.mark.usefixtures("lazy_tg")
@pytest.mark.parametrize("sparse", [False, True])
def test_truncated_gradient_lazy_truncation_by_hand(sparse):
    # t=1: f = 0 -> w = [.3, 0, .1]
    # t=2: f = .1, y=-1 -> w = [.3, -.1, 0] -> T1 (.05) -> [.25, -.05, 0]
    # t=3: f = 2*(-.05) = -.1 -> w = [.25, .15, .1]
    # t=4: f = -.15 + .1 = -.05 -> w = [.25, .05, .2] -> T1 -> [.2, 0, .2]
    # t=5: f = 2*.2 + .2 = .6 < 1 -> w = [.4, 0, .3]
    # t=6: f = 5*.4 + .3 = 2.3, y=-1 -> w = [-.1, 0, .2] -> T1 -> [-.05, 0, .2]
    #      (the step first, then the truncation: the other order gives .4 -> .35 -> -.15)
    X = sp.csr_matrix(X_LAZY) if sparse else X_LAZY
    clf = TruncatedGradient(eta=0.1, gravity=0.25, K=2)
    scores = clf.test_then_train(X, Y_LAZY, classes=[-1, 1])
    np.testing.assert_allclose(scores, [0.0, 0.1, -0.1, -0.05, 0.6, 2.3], atol=1e-15)
    np.testing.assert_allclose(clf.coef_, [[-0.05, 0.0]], atol=1e-15)
    np.testing.assert_allclose(clf.intercept_, [0.2], atol=1e-15)
    np.testing.assert_array_equal(clf.truncation_clock_[0], 3.0)  # three truncations
    if sparse:
        # feature 0 was brought up to date at t = 5 (clock 2: .4 - 2 * .05 with its two
        # missed truncations = .2, then stepped), feature 1 at t = 3 (clock 1); neither
        # has seen the truncation at t = 6, nor feature 1 the one at t = 4
        np.testing.assert_allclose(clf.weights_, [-0.1, 0.05, 0.2], atol=1e-15)
        np.testing.assert_array_equal(clf.truncated_at_, [2.0, 1.0, 0.0])
        np.testing.assert_array_equal(clf.truncation_clock_, [3.0, 0.0])
    else:  # dense rows: every weight truncated at once (the eager form), nothing stale
        np.testing.assert_allclose(clf.weights_, [-0.05, 0.0, 0.2], atol=1e-15)
        np.testing.assert_array_equal(clf.truncated_at_, [0.0, 0.0, 0.0])
        np.testing.assert_array_equal(clf.truncation_clock_, [3.0, 3.0])
    # new rows: each weight brought up to date when read, on dense, CSR and float32 rows
    new = np.array([[1.0, 1.0], [0.0, 3.0], [0.0, 0.0]])
    for rows in (new, sp.csr_matrix(new), new.astype(np.float32)):
        np.testing.assert_allclose(clf.decision_function(rows), [0.15, 0.2, 0.2], atol=1e-15)
    # the labels the other way round: the same internal model, coef_ negated
    mirror = TruncatedGradient(eta=0.1, gravity=0.25, K=2, pos_label=-1).fit(X, -Y_LAZY)
    np.testing.assert_array_equal(mirror.coef_, -clf.coef_)
    for name in _TG_STATE[:3]:
        np.testing.assert_array_equal(getattr(mirror, name), getattr(clf, name), err_msg=name)


def _tg_stream(n=400, d=15, seed=3, density=0.25, empty=True):
    """A sparse stream with rare and frequent features and, if ``empty``, rows with no
    feature at all."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.2, 2.0, size=d)
    X[rng.random(size=X.shape) > density * np.linspace(2.0, 0.1, d)] = 0.0
    if empty:
        X[rng.random(n) < 0.05] = 0.0
    y = np.where(X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > 0.2, 1, -1)
    return X, y


_TG_PIECES = [[1] * 40 + [360], [37] * 10 + [30], [5, 100, 3, 150, 2, 140]]
_TG_LAZY_CONFIGS = [
    {"gravity": 0.05, "K": 3},
    {"gravity": 0.1, "K": 1, "theta": 0.3, "eta": 0.2},
    {"gravity": 0.05, "K": 2, "schedule": "invsqrt", "eta": 0.5, "loss": "logistic"},
    {"gravity": 0.2, "K": 5, "loss": "squared", "eta": 0.02, "fit_intercept": False},
]


@pytest.mark.usefixtures("lazy_tg")
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("pieces", _TG_PIECES)
@pytest.mark.parametrize("params", _TG_LAZY_CONFIGS)
def test_truncated_gradient_in_pieces_equals_fit_bit_for_bit(params, pieces, sparse):
    """The clock and the per-weight marks are state kept across calls and nothing is
    brought up to date at a call's end: partial_fit in any pieces leaves the very state
    of one fit (stale weights and all) and gives the same scores, bit for bit."""
    X, y = _tg_stream()
    X = sp.csr_matrix(X) if sparse else X
    whole = TruncatedGradient(**params)
    want = whole.test_then_train(X, y, classes=[-1, 1])
    split = TruncatedGradient(**params)
    got, lo = [], 0
    for size in pieces:
        got.append(split.test_then_train(X[lo : lo + size], y[lo : lo + size], classes=[-1, 1]))
        lo += size
    assert lo == len(y)
    np.testing.assert_array_equal(np.concatenate(got), want)
    for name in _TG_STATE:
        np.testing.assert_array_equal(getattr(split, name), getattr(whole, name), err_msg=name)
    clock = whole.truncation_clock_
    assert (clock[0] != clock[1]) == sparse  # stale weights after CSR rows (the case is lazy)


@pytest.mark.usefixtures("lazy_tg")
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize(
    "params",
    [
        {"gravity": 0.02, "K": 1},
        {"gravity": 0.01, "K": 7, "theta": 0.15},
        {"gravity": 0.02, "K": 3, "schedule": "invsqrt", "eta": 0.5, "theta": 0.4},
        {"gravity": 0.05, "K": 2, "loss": "logistic", "theta": 0.0},
        {"gravity": 0.01, "K": 4, "loss": "squared", "eta": 0.01, "fit_intercept": False},
    ],
)
def test_truncated_gradient_lazy_equals_the_eager_formula(params, sparse):
    """Against the eager numpy reference (all weights truncated at every K-th sample):
    4,000 rows of 60 features, some rare (one misses 303 truncations in a row at K = 1), to
    1e-12 of the largest weight (the lazy form subtracts k alpha once where the eager one
    subtracts alpha k times) and the same sparsity up to weights within 1e-12 of 0."""
    X, y = _tg_stream(n=4000, d=60, seed=12, density=0.15)
    fit_intercept = params.get("fit_intercept", True)
    w, ref = naive_fo.truncated_gradient(
        naive.augment(X, fit_intercept),
        y,
        **{k: v for k, v in params.items() if k != "fit_intercept"},
    )
    clf = TruncatedGradient(**params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    got = _tg_weights(clf)
    scale = np.abs(w).max()
    np.testing.assert_allclose(got, w, rtol=1e-12, atol=1e-12 * scale)
    np.testing.assert_allclose(scores, ref, rtol=1e-12, atol=1e-12 * np.abs(ref).max())
    assert np.all((got == 0) == (w == 0) | (np.abs(w) < 1e-12 * scale))
    if params.get("theta", np.inf) > 0:
        assert 0 < np.count_nonzero(w[:-1]) < 60  # (the gravity did zero some weights)


@pytest.mark.usefixtures("lazy_tg")
@pytest.mark.parametrize("schedule", ["constant", "invsqrt"])
def test_truncated_gradient_dense_calls_between_sparse_ones(schedule):
    """A dense call first brings every stale weight up to date, then truncates eagerly;
    sparse calls after it are lazy again. Alternating the two formats gives the eager
    formula's model to 1e-12, and nothing is stale after a dense call."""
    X, y = _tg_stream(n=1200, d=30, seed=13, density=0.2)
    params = {"gravity": 0.03, "K": 2, "theta": 0.6, "schedule": schedule, "eta": 0.3}
    clf = TruncatedGradient(**params)
    scores = []
    for k, lo in enumerate(range(0, 1200, 150)):
        rows = X[lo : lo + 150]
        scores.append(
            clf.test_then_train(
                sp.csr_matrix(rows) if k % 2 == 0 else rows, y[lo : lo + 150], [-1, 1]
            )
        )
        assert clf._stale() == (k % 2 == 0)
    w, ref = naive_fo.truncated_gradient(naive.augment(X), y, **params)
    np.testing.assert_allclose(_tg_weights(clf), w, rtol=1e-12, atol=1e-12 * np.abs(w).max())
    np.testing.assert_allclose(np.concatenate(scores), ref, rtol=1e-12, atol=1e-12)


@pytest.mark.usefixtures("lazy_tg")
def test_truncated_gradient_scores_read_the_weights_up_to_date_without_changing_them():
    """decision_function and coef_ bring each weight up to date on a copy: the score
    test_then_train gives a row is decision_function's of the model before it, bit for
    bit, on CSR rows (on the fly, the step's own helper) and within rounding on dense and
    float32 rows (an up-to-date copy scored by the dense dot product); reading leaves the
    state as it was."""
    X, y = _tg_stream(n=300, seed=4)
    Xs = sp.csr_matrix(X)
    clf = TruncatedGradient(gravity=0.05, K=2).fit(Xs[:100], y[:100])
    for i in range(100, 140):
        state = {name: getattr(clf, name).copy() for name in _TG_STATE}
        row = Xs[i : i + 1]
        before = clf.decision_function(row)
        dense = clf.decision_function(X[i : i + 1])
        single = clf.decision_function(X[i : i + 1].astype(np.float32))
        coef = clf.coef_.copy()
        for name in _TG_STATE:
            np.testing.assert_array_equal(getattr(clf, name), state[name], err_msg=name)
        np.testing.assert_allclose(dense, before, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(
            single,
            clf.decision_function(X[i : i + 1].astype(np.float32).astype(np.float64)),
            rtol=0,
        )
        np.testing.assert_allclose(X[i] @ coef[0] + clf.intercept_, before, rtol=1e-13, atol=1e-15)
        np.testing.assert_array_equal(clf.test_then_train(row, y[i : i + 1]), before)
    assert clf._stale()


@pytest.mark.usefixtures("lazy_tg")
def test_truncated_gradient_one_sparse_row_leaves_the_other_columns_alone():
    """A step on a sparse row writes weights_ and truncated_at_ only at the row's columns
    (and weights_ at the intercept): O(nnz), not O(d). The truncation only advances the
    clock; every other entry keeps its bits."""
    X, y = _tg_stream(n=200, d=40, seed=6, density=0.3)
    clf = TruncatedGradient(gravity=0.05, K=1).fit(sp.csr_matrix(X[:50]), y[:50])
    before = {name: getattr(clf, name).copy() for name in _TG_STATE}
    row = sp.csr_matrix(([2.0, -1.0], ([0, 0], [3, 7])), shape=(1, X.shape[1]))
    label = -1 if clf.decision_function(row)[0] > 0 else 1  # a mistake: a step
    clf.partial_fit(row, [label])
    moved = np.flatnonzero(clf.weights_ != before["weights_"])
    assert set(moved) <= {3, 7, X.shape[1]} and len(moved) > 0
    marked = np.flatnonzero(clf.truncated_at_ != before["truncated_at_"])
    assert set(marked) <= {3, 7}
    assert clf.truncation_clock_[0] == before["truncation_clock_"][0] + 1.0
    assert clf.truncation_clock_[1] == before["truncation_clock_"][1]


@pytest.mark.usefixtures("lazy_tg")
@pytest.mark.parametrize("sparse", [False, True])
def test_truncated_gradient_theta_zero_is_ogd_and_float32_rows_are_their_float64_copy(sparse):
    """theta = 0 truncates only weights that are already 0: OGD with the constant step,
    bit for bit (the clock advances but no weight moves). float32 rows give the results of
    their float64 copy bit for bit, lazy or not."""
    X, y = _tg_stream(seed=7)
    X = sp.csr_matrix(X) if sparse else X
    tg = TruncatedGradient(gravity=0.5, K=1, theta=0.0, eta=0.1)
    ogd = OGD(schedule="constant", eta=0.1)
    np.testing.assert_array_equal(
        tg.test_then_train(X, y, classes=[-1, 1]), ogd.test_then_train(X, y, classes=[-1, 1])
    )
    np.testing.assert_array_equal(tg.coef_, ogd.coef_)
    np.testing.assert_array_equal(tg.weights_, ogd.weights_)
    assert tg.truncation_clock_[0] == len(y)
    params = {"gravity": 0.05, "K": 2, "theta": 0.3, "schedule": "invsqrt", "eta": 0.5}
    X32 = X.astype(np.float32)
    a = TruncatedGradient(**params)
    b = TruncatedGradient(**params)
    sa = a.test_then_train(X32, y, classes=[-1, 1])
    sb = b.test_then_train(X32.astype(np.float64), y, classes=[-1, 1])
    np.testing.assert_array_equal(sa, sb)
    for name in _TG_STATE:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


@pytest.mark.usefixtures("lazy_tg")
def test_truncated_gradient_pickle_mid_stream_and_an_older_pickle():
    """The clock and the marks travel with the model; a model pickled before they existed
    (its weights_ is w, every truncation applied) loads with every weight up to date and
    continues as the eager formula does, on sparse rows (lazily) and on dense ones (as
    the eager code would, bit for bit)."""
    X, y = _tg_stream(n=600, d=12, seed=9, density=0.3)
    Xs = sp.csr_matrix(X)
    params = {"gravity": 0.05, "K": 3, "theta": 0.5}
    a = TruncatedGradient(**params).partial_fit(Xs[:300], y[:300], classes=[-1, 1])
    assert a._stale()
    b = pickle.loads(pickle.dumps(a))
    a.partial_fit(Xs[300:], y[300:])
    b.partial_fit(Xs[300:], y[300:])
    for name in _TG_STATE:
        np.testing.assert_array_equal(a.__dict__[name], b.__dict__[name], err_msg=name)
    w, _ = naive_fo.truncated_gradient(naive.augment(X), y, **params)
    old = TruncatedGradient(**params).fit(X[:300], y[:300])  # dense: nothing stale
    for rest in (Xs[300:], X[300:]):
        state = pickle.loads(pickle.dumps(old)).__getstate__()  # (arrays not shared)
        del state["truncated_at_"], state["truncation_clock_"]
        c = TruncatedGradient.__new__(TruncatedGradient)
        c.__setstate__(state)
        np.testing.assert_array_equal(c.truncation_clock_, [0.0, 0.0])
        np.testing.assert_array_equal(c.truncated_at_, np.zeros(X.shape[1] + 1))
        np.testing.assert_array_equal(c.decision_function(X), old.decision_function(X))
        c.partial_fit(rest, y[300:])
        np.testing.assert_allclose(_tg_weights(c), w, rtol=1e-12, atol=1e-12 * np.abs(w).max())
    dense = TruncatedGradient(**params).fit(X, y)
    np.testing.assert_array_equal(c.weights_, dense.weights_)  # the dense continuation


# ------------------------------------------- truncated gradient: the switch, by width only
# (docs/decisions.md, session 22, probe h: a model is lazy iff gravity > 0 and it has at
# least _lazy_min_features features, decided when it starts learning; narrower models keep
# the eager truncation on every row, with main's state and main's bits)
_TG_PINNED_CONFIGS = [
    {},
    {"gravity": 0.05, "K": 3, "theta": 0.2},
    {"loss": "logistic", "schedule": "invsqrt", "eta": 0.5, "gravity": 0.02, "K": 1},
    {"loss": "squared", "eta": 0.05, "gravity": 0.1, "K": 7, "theta": 0.3},
    {"gravity": 0.1, "K": 1, "theta": 0.3, "eta": 0.2},
    {"gravity": 0.2, "K": 5, "loss": "squared", "eta": 0.02, "fit_intercept": False},
]
#: sha256 (first 16 hex digits) of test_then_train's scores then weights_ (bytes), from
#: main's code before the lazy truncation (commit 8599a40) run on _tg_stream() in session
#: 22 (/tmp/s22h/pin.py; x86-64, this repository's numba): the eager truncation's bits.
_TG_MAIN_DIGESTS = {
    (0, "dense"): "9794461a7cf3a18e",
    (0, "csr"): "67447b5b428f1cd4",
    (0, "float32"): "58d7c43eb88aa361",
    (1, "dense"): "c8eeebfc6b23494e",
    (1, "csr"): "182ee0ead7acdc3b",
    (1, "float32"): "9264aa06aa755e0e",
    (2, "dense"): "4c02123bf98c27d7",
    (2, "csr"): "cd41d1904acec1a9",
    (2, "float32"): "11f6f28ad1cbbf66",
    (3, "dense"): "d575dffa2e1d6185",
    (3, "csr"): "a12eee46a8c5da05",
    (3, "float32"): "37167027cedeffb8",
    (4, "dense"): "b034f609a9d3d31b",
    (4, "csr"): "efbb133aae689ef9",
    (4, "float32"): "ce0af147407c7c7f",
    (5, "dense"): "62d58e0dab8c6c75",
    (5, "csr"): "127fda2cf85b4f8a",
    (5, "float32"): "fd3efaedd8b89ab3",
}


def _tg_digest(scores, clf):
    return hashlib.sha256(scores.tobytes() + clf.weights_.tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("fmt", ["dense", "csr", "float32"])
@pytest.mark.parametrize("k", range(len(_TG_PINNED_CONFIGS)))
def test_truncated_gradient_below_the_switch_is_mains_eager_code_bit_for_bit(k, fmt, monkeypatch):
    """A model narrower than the switch keeps main's eager truncation on every row: its
    scores and weights_ are main's bits (digests of main's code, above), and its state is
    main's (no clock, no marks). A lazy model's dense rows are main's bits too."""
    X, y = _tg_stream()
    rows = {"dense": X, "csr": sp.csr_matrix(X), "float32": X.astype(np.float32)}[fmt]
    assert X.shape[1] < TruncatedGradient._lazy_min_features
    clf = TruncatedGradient(**_TG_PINNED_CONFIGS[k])
    scores = clf.test_then_train(rows, y, classes=[-1, 1])
    assert _tg_digest(scores, clf) == _TG_MAIN_DIGESTS[k, fmt]
    assert not clf._is_lazy()
    assert not {"truncated_at_", "truncation_clock_"} & set(clf.__getstate__())
    np.testing.assert_array_equal(clf.coef_, clf.weights_[None, :-1])
    if fmt != "csr":
        monkeypatch.setattr(TruncatedGradient, "_lazy_min_features", 1)
        lazy = TruncatedGradient(**_TG_PINNED_CONFIGS[k])
        scores = lazy.test_then_train(rows, y, classes=[-1, 1])
        assert lazy._is_lazy()
        assert _tg_digest(scores, lazy) == _TG_MAIN_DIGESTS[k, fmt]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("width", [14, 15, 16])
def test_truncated_gradient_switch_depends_on_the_width_only(width, sparse, monkeypatch):
    """The switch reads n_features and gravity, never the first call's rows: a model
    started with one row (with no non-zero at all) is on the same path as one started with
    the whole stream, and its later calls give that fit's state and scores bit for bit."""
    monkeypatch.setattr(TruncatedGradient, "_lazy_min_features", 15)
    X, y = _tg_stream(d=width)
    X[0] = 0.0  # the first call's row has no feature
    X = sp.csr_matrix(X) if sparse else X
    params = {"gravity": 0.05, "K": 3, "theta": 0.4}
    whole = TruncatedGradient(**params)
    want = whole.test_then_train(X, y, classes=[-1, 1])
    assert whole._is_lazy() == (width >= 15)
    split = TruncatedGradient(**params)
    got = [split.test_then_train(X[:1], y[:1], classes=[-1, 1])]
    assert split._is_lazy() == (width >= 15)
    got += [split.test_then_train(X[1:2], y[1:2]), split.test_then_train(X[2:], y[2:])]
    np.testing.assert_array_equal(np.concatenate(got), want)
    assert set(split.__dict__) == set(whole.__dict__)
    for name in _TG_STATE:
        if name in whole.__dict__:
            np.testing.assert_array_equal(getattr(split, name), getattr(whole, name), err_msg=name)
    # gravity = 0 never truncates: eager at any width
    assert not TruncatedGradient(gravity=0.0).fit(X, y)._is_lazy()


def test_truncated_gradient_refit_and_pickles_across_the_switch(monkeypatch):
    """A refit re-decides the path (a lazy model refitted on narrower rows has main's
    state, no clock); a lazy model's pickle stays lazy wherever the switch is later set
    (its clock travels with it); an eager pickle (main's, or from a narrower switch) loads
    as the switch says, lazy starting with every weight up to date, and continues as the
    model unpickled there would."""
    X, y = _tg_stream(n=600, d=12, seed=9, density=0.3)
    Xs = sp.csr_matrix(X)
    params = {"gravity": 0.05, "K": 3, "theta": 0.5}
    monkeypatch.setattr(TruncatedGradient, "_lazy_min_features", 12)
    clf = TruncatedGradient(**params).fit(Xs, y)
    assert clf._is_lazy()
    clf.fit(Xs[:, :11], y)
    assert not clf._is_lazy() and "truncated_at_" not in clf.__dict__
    np.testing.assert_array_equal(
        clf.weights_, TruncatedGradient(**params).fit(Xs[:, :11], y).weights_
    )
    lazy = TruncatedGradient(**params).partial_fit(Xs[:300], y[:300], classes=[-1, 1])
    assert lazy._stale()
    blob = pickle.dumps(lazy)
    monkeypatch.setattr(TruncatedGradient, "_lazy_min_features", 100)
    eager = TruncatedGradient(**params).partial_fit(Xs[:300], y[:300], classes=[-1, 1])
    eager_blob = pickle.dumps(eager)
    back = pickle.loads(blob)  # lazy, though the switch now says eager for 12 features
    assert back._is_lazy()
    back.partial_fit(Xs[300:], y[300:])
    lazy.partial_fit(Xs[300:], y[300:])
    for name in _TG_STATE:
        np.testing.assert_array_equal(getattr(back, name), getattr(lazy, name), err_msg=name)
    stays = pickle.loads(eager_blob)  # eager by the switch: main's state, continues eagerly
    assert not stays._is_lazy()
    stays.partial_fit(Xs[300:], y[300:])
    np.testing.assert_array_equal(stays.weights_, TruncatedGradient(**params).fit(Xs, y).weights_)
    monkeypatch.setattr(TruncatedGradient, "_lazy_min_features", 12)
    goes = pickle.loads(eager_blob)  # lazy by the switch now: every weight up to date
    assert goes._is_lazy() and not goes._stale()
    np.testing.assert_array_equal(goes.truncated_at_, np.zeros(13))
    np.testing.assert_array_equal(goes.decision_function(Xs), eager.decision_function(Xs))
    goes.partial_fit(Xs[300:], y[300:])
    w, _ = naive_fo.truncated_gradient(naive.augment(X), y, **params)
    np.testing.assert_allclose(_tg_weights(goes), w, rtol=1e-12, atol=1e-12 * np.abs(w).max())


@pytest.mark.parametrize(
    "change", [{"gravity": 0.5}, {"gravity": 0.0}, {"eta": 0.01}, {"K": 1}, {"theta": 0.01}]
)
def test_truncated_gradient_set_params_after_fit_leaves_the_model_alone(change, tg_path):
    """set_params after fitting changes a setting, not the fitted model: coef_ and the
    scores are those learned, on either path (the next learning call refuses the change).
    A lazy model read its missed truncations with the new eta, K, gravity and theta
    (session 22, helper probe w: set_params(gravity=0.5) moved coef_ by ~0.1)."""
    X, y = _tg_stream(n=300, d=12, seed=5, density=0.3)
    Xs = sp.csr_matrix(X)
    clf = TruncatedGradient(gravity=0.05, K=3, theta=0.5).fit(Xs, y)
    assert clf._stale() == (tg_path == "lazy")
    coef = clf.coef_.copy()
    sparse_scores, dense_scores = clf.decision_function(Xs), clf.decision_function(X)
    clf.set_params(**change)
    np.testing.assert_array_equal(clf.coef_, coef)
    np.testing.assert_array_equal(clf.decision_function(Xs), sparse_scores)
    np.testing.assert_array_equal(clf.decision_function(X), dense_scores)
    with pytest.raises(ValueError, match="set_params"):
        clf.partial_fit(Xs[:5], y[:5])


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


@pytest.mark.usefixtures("lazy_tg")
def test_truncated_gradient_lazy_coef_refuses_writes():
    """Session 26: a lazy model with truncations still to apply returns ``coef_`` as a
    copy brought up to date, where a write was lost; it is read-only, as every
    ``coef_`` (tests/linear/test_family.py)."""
    clf = TruncatedGradient(eta=0.1, gravity=0.25, K=2)
    clf.fit(sp.csr_matrix(X_LAZY[:5]), Y_LAZY[:5])
    assert clf._stale()
    for pos in (1, -1):
        clf.set_params(pos_label=pos)
        clf.fit(sp.csr_matrix(X_LAZY[:5]), Y_LAZY[:5])
        with pytest.raises(ValueError, match="read-only"):
            clf.coef_[0, 0] = 1.0
