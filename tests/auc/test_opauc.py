"""OPAUC against a hand-computed stream, a numpy reference and numpy's statistics."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import roc_auc_score

from skewlearn import OPAUC
from skewlearn._rng import seed_state
from tests.auc.test_oam import separable_stream
from tests.naive import auc as naive

# --------------------------------------------------------------------------- hand check
# eta = 0.1, lam = 0.5, full covariance.
#   x1 = [1, 0] +,  x2 = [0, 1] -,  x3 = [3, 0] +,  x4 = [0, 3] -
#
# t1 (+): score 0. T+ = 1, c+ = [1, 0], Gamma+ = 0. No negative yet: no step.
# t2 (-): score 0. T- = 1, c- = [0, 1], Gamma- = 0.
#   other class +: d = x2 - c+ = [-1, 1], d.w = 0,
#   grad = lam w - y d + d (d.w) + Gamma+ w = [-1, 1]   ->  w = -.1 [-1, 1] = [.1, -.1]
# t3 (+): score .3. T+ = 2, c+ = [1,0] + ([3,0] - [1,0]) / 2 = [2, 0];
#   Eq. (7): Gamma+ = 0 + c1 c1' - c2 c2' + (x x' - 0 - c1 c1') / 2
#          = [[1 - 4 + (9 - 1)/2, 0], [0, 0]] = [[1, 0], [0, 0]]   (variance of {1, 3})
#   other class -: d = x3 - c- = [3, -1], d.w = .3 + .1 = .4,
#   grad = .5 [.1, -.1] - [3, -1] + .4 [3, -1] + 0 = [-1.75, .55]
#   ->  w = [.1, -.1] - .1 [-1.75, .55] = [.275, -.155]
# t4 (-): score 3 (-.155) = -.465. T- = 2, c- = [0, 2], Gamma- = [[0, 0], [0, 1]].
#   other class +: d = x4 - c+ = [-2, 3], d.w = -.55 - .465 = -1.015,
#   grad = .5 [.275, -.155] + [-2, 3] - 1.015 [-2, 3] + [[1,0],[0,0]] [.275, -.155]
#        = [.1375, -.0775] + [-2, 3] + [2.03, -3.045] + [.275, 0] = [.4425, -.1225]
#   ->  w = [.275, -.155] - .1 [.4425, -.1225] = [.23075, -.14275]
X4 = np.array([[1.0, 0.0], [0.0, 1.0], [3.0, 0.0], [0.0, 3.0]])
Y4 = np.array([1, -1, 1, -1])


def test_opauc_four_samples_by_hand():
    clf = OPAUC(eta=0.1, lam=0.5)
    scores = clf.test_then_train(X4, Y4, classes=[-1, 1])
    np.testing.assert_allclose(scores, [0.0, 0.0, 0.3, -0.465], rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(clf.coef_[0], [0.23075, -0.14275], rtol=1e-14)
    assert clf.intercept_[0] == 0.0
    np.testing.assert_array_equal(clf.counts_, [4, 2, 2, 3])
    np.testing.assert_allclose(clf.means_, [[2.0, 0.0], [0.0, 2.0]], atol=1e-15)
    np.testing.assert_allclose(clf.cov_[0], [[1.0, 0.0], [0.0, 0.0]], atol=1e-15)
    np.testing.assert_allclose(clf.cov_[1], [[0.0, 0.0], [0.0, 1.0]], atol=1e-15)
    # steps at t2, t3, t4 with |x - c'|^2 = 2, 10, 13: eta (lam + |d|^2) = .25, 1.05, 1.35
    np.testing.assert_allclose(clf.stability_, [0.0, 1.35], rtol=1e-14)
    # at eta = .2 the factors are .5, 2.1, 2.7: the last two steps overshoot
    with pytest.warns(RuntimeWarning, match=r"OPAUC: 2 of the 4 rows .*largest so far 2\.7"):
        fast = OPAUC(eta=0.2, lam=0.5).fit(X4, Y4)
    np.testing.assert_allclose(fast.stability_, [2.0, 2.7], rtol=1e-14)


# --------------------------------------------------------------------------- step-size check
def _unstable_steps(X, y, eta, lam):
    """Count by brute force the steps with eta (lam + |x_t - c'|^2) > 2, c' the mean of
    the other class's earlier rows, and the largest such factor."""
    count, largest = 0, 0.0
    for t in range(len(y)):
        other = X[:t][y[:t] != y[t]]
        if len(other) == 0:
            continue
        gain = eta * (lam + float(np.sum((X[t] - other.mean(axis=0)) ** 2)))
        count += gain > 2.0
        largest = max(largest, gain)
    return count, largest


def test_unstable_steps_are_counted_and_warned_about():
    X, y = _stream(n=400, d=5, seed=7)
    X[[50, 120, 121, 300]] *= 12.0  # four outlying rows, |x|^2 of a few hundred
    eta, lam = 0.01, 1e-4
    ref = _unstable_steps(X, y, eta, lam)
    assert ref[0] >= 3  # the stream does contain unstable steps
    clf = OPAUC(eta=eta, lam=lam)
    with pytest.warns(RuntimeWarning, match=rf"OPAUC: {ref[0]} of the 400 rows") as rec:
        clf.fit(X, y)
    np.testing.assert_allclose(clf.stability_, ref, rtol=1e-12)
    # the eta the warning names keeps every step of the same stream stable, and it is silent
    suggested = float(str(rec[0].message).split("Lower eta to ")[1].split(" ")[0])
    assert 0.99 * 2 * eta / ref[1] < suggested <= 2 * eta / ref[1]
    assert _unstable_steps(X, y, suggested, lam)[0] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        stable = OPAUC(eta=suggested, lam=lam).fit(X, y)
    assert stable.stability_[0] == 0


def test_unstable_steps_accumulate_over_partial_fit_and_reset_on_fit():
    X, y = _stream(n=300, d=5, seed=8)
    X[[40, 200]] *= 15.0
    clf = OPAUC()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for lo in range(0, 300, 100):
            clf.partial_fit(X[lo : lo + 100], y[lo : lo + 100], classes=[-1, 1])
        total = clf.stability_.copy()
        np.testing.assert_allclose(total, _unstable_steps(X, y, 0.01, 1e-4), rtol=1e-12)
        clf.fit(X[:30], y[:30])
    np.testing.assert_allclose(clf.stability_, _unstable_steps(X[:30], y[:30], 0.01, 1e-4))


# --------------------------------------------------------------------------- references
def _stream(n=300, d=6, seed=0, pos=0.2, density=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) + 0.5
    if density is not None:
        X[rng.random(size=X.shape) > density] = 0.0
    s = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n)
    y = np.where(s > np.quantile(s, 1 - pos), 1, -1)
    return X, y


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize(("covariance", "rank"), [("full", 10), ("low_rank", 4), ("low_rank", 7)])
def test_opauc_matches_numpy_reference(covariance, rank, sparse):
    X, y = _stream(density=0.4 if sparse else None)
    params = {"eta": 0.03, "lam": 0.05, "covariance": covariance, "rank": rank}
    clf = OPAUC(random_state=9, **params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    w, ref_scores = naive.opauc(X, y, rng_state=seed_state(9), **params)
    np.testing.assert_allclose(clf.coef_[0], w, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(scores, ref_scores, rtol=1e-9, atol=1e-12)


def test_opauc_statistics_equal_numpy_class_moments():
    X, y = _stream(n=500, seed=1)
    clf = OPAUC()
    for lo in range(0, 500, 60):
        clf.partial_fit(X[lo : lo + 60], y[lo : lo + 60], classes=[-1, 1])
    for k, label in enumerate([1, -1]):
        Xc = X[y == label]
        np.testing.assert_allclose(clf.means_[k], Xc.mean(axis=0), rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(clf.cov_[k], np.cov(Xc.T, bias=True), rtol=1e-10, atol=1e-12)


def test_low_rank_sketch_is_the_centred_covariance_in_expectation():
    # With tau columns the sketch error shrinks like 1/sqrt(tau); tau = 4000 gives a few %.
    X, y = _stream(n=200, d=4, seed=2, pos=0.3)
    clf = OPAUC(covariance="low_rank", rank=4000, random_state=0).fit(X, y)
    for k, label in enumerate([1, -1]):
        Xc = X[y == label]
        Zc = clf.sketch_[k] - np.outer(clf.means_[k], clf.sketch_sum_[k])
        G_hat = Zc @ Zc.T / len(Xc)
        G = np.cov(Xc.T, bias=True)
        assert np.linalg.norm(G_hat - G) < 0.1 * np.linalg.norm(G)
        assert np.linalg.eigvalsh(G_hat).min() > -1e-12  # positive semi-definite
        # the sketch columns are N(0, 1/tau): s = sum of T of them has variance T / tau
        assert abs(clf.sketch_sum_[k].var() * 4000 / len(Xc) - 1.0) < 0.1


def test_no_step_until_both_classes_seen():
    X, y = _stream(n=100, seed=3)
    neg = X[y < 0][:20]
    clf = OPAUC().partial_fit(neg, -np.ones(20), classes=[-1, 1])
    np.testing.assert_array_equal(clf.weights_, 0.0)
    assert clf.counts_[3] == 0
    clf.partial_fit(X[y > 0][:1], [1])
    assert clf.counts_[3] == 1 and np.any(clf.weights_ != 0.0)


def test_seeded_low_rank_runs_bit_identical_and_seed_matters():
    X, y = _stream(n=300, seed=4)
    a = OPAUC(covariance="low_rank", rank=5, random_state=1).fit(X, y)
    b = OPAUC(covariance="low_rank", rank=5, random_state=1).fit(X, y)
    c = OPAUC(covariance="low_rank", rank=5, random_state=2).fit(X, y)
    np.testing.assert_array_equal(a.weights_, b.weights_)
    np.testing.assert_array_equal(a.sketch_, b.sketch_)
    assert not np.array_equal(a.weights_, c.weights_)


def test_full_covariance_ignores_the_seed():
    X, y = _stream(n=200, seed=5)
    a = OPAUC(random_state=1).fit(X, y)
    b = OPAUC(random_state=2).fit(X, y)
    np.testing.assert_array_equal(a.weights_, b.weights_)
    assert not hasattr(a, "sketch_") and a.cov_.shape == (2, 6, 6)


# --------------------------------------------------------------------------- API
def test_a_refit_with_the_other_covariance_form_drops_the_old_statistics():
    """fit replaces the model: after set_params(covariance=...) a refit used to keep the
    other form's arrays (cov_ beside sketch_, or sketch_ and sketch_sum_ beside cov_), of
    the old width after a refit on other features, and pickled them with the model."""
    X, y = _stream(n=60, seed=7)
    fresh_full = OPAUC().fit(X[:, :3], y)
    fresh_low = OPAUC(covariance="low_rank", rank=2, random_state=0).fit(X[:, :3], y)
    clf = OPAUC().fit(X, y)
    clf.set_params(covariance="low_rank", rank=2, random_state=0).fit(X[:, :3], y)
    assert sorted(vars(clf)) == sorted(vars(fresh_low))
    assert not hasattr(clf, "cov_") and clf.sketch_.shape == (2, 3, 2)
    np.testing.assert_array_equal(clf.weights_, fresh_low.weights_)
    clf = OPAUC(covariance="low_rank", rank=2, random_state=0).fit(X, y)
    clf.set_params(covariance="full").fit(X[:, :3], y)
    assert sorted(vars(clf)) == sorted(vars(fresh_full))
    assert not hasattr(clf, "sketch_") and not hasattr(clf, "sketch_sum_")
    np.testing.assert_array_equal(clf.weights_, fresh_full.weights_)


def test_threshold_moves_predict_only():
    X, y = _stream(seed=6)
    a = OPAUC().fit(X, y)
    b = OPAUC(threshold=-0.2).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    np.testing.assert_array_equal(b.predict(X), np.where(a.decision_function(X) > -0.2, 1, -1))


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"covariance": "diag"}, "covariance"),
        ({"rank": 0}, "rank"),
        ({"eta": 0.0}, "eta"),
        ({"lam": -1.0}, "lam"),
    ],
)
def test_invalid_parameters_are_named(params, match):
    X, y = _stream(n=20)
    with pytest.raises(ValueError, match=match):
        OPAUC(**params).fit(X, y)


@pytest.mark.parametrize("params", [{}, {"covariance": "low_rank", "rank": 10}], ids=str)
def test_online_auc_on_separable_imbalanced_stream(params):
    X, y = separable_stream()
    scores = OPAUC(random_state=0, **params).test_then_train(X, y, classes=[0, 1])
    assert roc_auc_score(y, scores) >= 0.9


def test_a_large_low_rank_sketch_warns_and_names_a_smaller_rank(monkeypatch):
    """covariance="low_rank" keeps two d × rank sketches, updated in O(d · rank) per row:
    like the full matrices (session 11), more than 1 GiB of them now warns, naming the
    rank that fits (threshold lowered here to 10 kB: 2 × 40 × 20 × 8 B = 12.8 kB)."""
    import warnings

    import skewlearn.base as base

    X = np.random.default_rng(0).normal(size=(20, 40))
    y = np.arange(20) % 2
    with warnings.catch_warnings():  # under the default threshold, no warning
        warnings.simplefilter("error", RuntimeWarning)
        OPAUC(covariance="low_rank", rank=20, random_state=0).fit(X, y)
    monkeypatch.setattr(base, "LARGE_STATE", 10_000)
    with pytest.warns(
        RuntimeWarning, match=r"OPAUC\(covariance='low_rank'\).*rank=15 or less"
    ) as got:
        OPAUC(covariance="low_rank", rank=20, random_state=0).fit(X, y)
    assert got[0].filename == __file__  # at the caller's line, not inside skewlearn
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        OPAUC(covariance="low_rank", rank=15, random_state=0).fit(X, y)


@pytest.mark.parametrize(
    "params", [{"covariance": "low_rank", "rank": 20}, {"covariance": "full"}], ids=str
)
def test_the_state_size_warnings_reach_the_users_line_through_river(params, monkeypatch):
    """OPAUC's size warnings used a fixed stacklevel (fit/partial_fit called by the user),
    so through River's learn_one (or any skewlearn caller) they pointed inside skewlearn,
    where a warning filter for the user's module cannot match them; the buffer-size
    warnings of the kernel learners already walk to the first frame outside skewlearn."""
    pytest.importorskip("river")
    import skewlearn.base as base
    from skewlearn.compat.river import RiverClassifier

    monkeypatch.setattr(base, "LARGE_STATE", 10_000)  # 2 × 40 × 20 × 8 B, 2 × 40² × 8 B
    row = {f"x{i}": float(i) for i in range(40)}
    model = RiverClassifier(OPAUC(random_state=0, **params))
    with pytest.warns(RuntimeWarning, match="OPAUC") as got:
        model.learn_one(row, 1)
    assert [w.filename for w in got] == [__file__]
    with pytest.warns(RuntimeWarning, match="OPAUC") as got:
        OPAUC(random_state=0, **params).fit(np.ones((2, 40)) * [[1], [2]], [0, 1])
    assert [w.filename for w in got] == [__file__]
