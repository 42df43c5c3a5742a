"""OAM against hand-computed updates, a numpy reference and a brute-force pairwise OAM."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import roc_auc_score

from skewlearn import KOIL, OAM, OPAUC
from skewlearn._rng import seed_state
from skewlearn.kernel.budget import COUNT, SEEN
from tests.naive import auc as naive

# --------------------------------------------------------------------------- hand checks
# C = 1, buffer "fifo", N+ = 2, N- = 1 (FIFO keeps the arithmetic free of random draws).
#   x1 = [1, 0] +,  x2 = [0, 1] -,  x3 = [2, 1] -,  x4 = [1.5, 1.5] +,  x5 = [0, 2] -
#
# t1 (+): w = 0, score 0. B- empty: no step. B+ = {x1}.
# t2 (-): score 0. C_t = C max(1, N+/N+cap) = max(1, 1/2) = 1. B- = {x2}.
#   pair x1: d = x2 - x1 = [-1, 1], w.d = 0, loss = 1 - (-1)(0) = 1, |d|^2 = 2,
#     tau = min(C_t/2, 1/2) = .5  ->  w = .5 * (-1) * [-1, 1] = [.5, -.5]
# t3 (-): score 2*.5 - .5 = .5. C_t = max(1, 1/2) = 1. FIFO: B- = {x3}.
#   pair x1: d = [1, 1], w.d = 0, loss 1, |d|^2 = 2, tau = .5  ->  w = [0, -1]
# t4 (+): score -1.5. C_t = max(1, N-/N-cap) = max(1, 2/1) = 2. B+ = {x1, x4}.
#   pair x3: d = x4 - x3 = [-.5, .5], w.d = -.5, loss = 1.5, |d|^2 = .5,
#     loss/|d|^2 = 3 > C_t/2 = 1  ->  tau = 1 (it would be .5 with C_t = C)
#     ->  w = [0, -1] + [-.5, .5] = [-.5, -.5]
# t5 (-): score -1. C_t = max(1, 2/2) = 1. FIFO: B- = {x5}.
#   sequential, pair x1: d = x5 - x1 = [-1, 2], w.d = .5 - 1 = -.5,
#     loss = 1 - (-1)(-.5) = .5, |d|^2 = 5, tau = min(.5, .1) = .1
#     -> w = [-.5, -.5] - .1 [-1, 2] = [-.4, -.7]
#   sequential, pair x4: d = [-1.5, .5], w.d = .6 - .35 = .25, loss = 1.25, |d|^2 = 2.5,
#     tau = min(.5, .5) = .5  ->  w = [-.4, -.7] - .5 [-1.5, .5] = [.35, -.95]
# Gradient update: t2..t4 are single pairs with margin < 1 and step C_t/2, the same steps
# as above (w = [-.5, -.5] after t4). At t5 both pairs are tested at w_5 = [-.5, -.5]:
#   pair x1: y w.d = -(-.5) = .5 < 1;  pair x4: w.d = .75 - .25 = .5, y w.d = -.5 < 1
#   -> w = [-.5, -.5] + (1/2)(-1)([-1, 2] + [-1.5, .5]) = [-.5, -.5] + [1.25, -1.25]
#        = [.75, -1.75]
X5 = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0], [1.5, 1.5], [0.0, 2.0]])
Y5 = np.array([1, -1, -1, 1, -1])
HAND = {"sequential": [0.35, -0.95], "gradient": [0.75, -1.75]}


@pytest.mark.parametrize("update", ["sequential", "gradient"])
def test_oam_five_samples_by_hand(update):
    clf = OAM(C=1.0, update=update, buffer="fifo", budget_pos=2, budget_neg=1)
    scores = clf.test_then_train(X5, Y5, classes=[-1, 1])
    np.testing.assert_allclose(scores, [0.0, 0.0, 0.5, -1.5, -1.0], atol=1e-15)
    np.testing.assert_allclose(clf.coef_[0], HAND[update], rtol=1e-14)
    assert clf.intercept_[0] == 0.0
    np.testing.assert_array_equal(clf.counts_, [5, 2, 3, 5])
    # buffers: B+ = [x1, x4], B- = [x5]
    np.testing.assert_array_equal(clf.sv_[:2], X5[[0, 3]])
    np.testing.assert_array_equal(clf.sv_[2], X5[4])
    np.testing.assert_array_equal(clf.segments_[:, COUNT], [2, 1])
    np.testing.assert_array_equal(clf.segments_[:, SEEN], [2, 3])


def test_oam_gradient_step_skips_a_pair_exactly_at_the_margin():
    # The slide's test is y_t w_t.(x_t - x) < 1 (strict; the hinge's sub-gradient is 0 at
    # the kink). C = 4, one negative x = 0 in the buffer, then two positives:
    # t2: x = 1, w.d = 0 < 1, C_t = C max(1, 1/100) = 4  ->  w = 0 + (4/2) * 1 = 2
    # t3: x = .5, score 1, w.d = 2 * .5 = 1, not < 1  ->  no step (with <= 1: w = 3)
    X = np.array([[0.0], [1.0], [0.5]])
    y = np.array([-1, 1, 1])
    clf = OAM(C=4.0, update="gradient", buffer="fifo")
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    np.testing.assert_array_equal(scores, [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(clf.coef_[0], [2.0])
    np.testing.assert_array_equal(clf.counts_, [3, 2, 1, 1])


def test_oam_gradient_uses_w_t_for_every_pair():
    # The first four steps agree, the fifth differs only in where the pairs are tested.
    seq = OAM(update="sequential", buffer="fifo", budget_pos=2, budget_neg=1).fit(X5, Y5)
    gra = OAM(update="gradient", buffer="fifo", budget_pos=2, budget_neg=1).fit(X5, Y5)
    assert not np.allclose(seq.coef_, gra.coef_)


# --------------------------------------------------------------------------- references
def _stream(n=400, d=6, seed=0, pos=0.15, density=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if density is not None:
        X[rng.random(size=X.shape) > density] = 0.0
    s = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n)
    y = np.where(s > np.quantile(s, 1 - pos), 1, -1)
    return X, y


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("buffer", ["reservoir", "fifo", "infinite"])
@pytest.mark.parametrize("update", ["sequential", "gradient"])
def test_oam_matches_numpy_reference(update, buffer, sparse):
    X, y = _stream(density=0.4 if sparse else None)
    params = {"C": 0.3, "update": update, "buffer": buffer, "budget_pos": 7, "budget_neg": 13}
    clf = OAM(random_state=5, **params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    w, ref_scores, buf = naive.oam(X, y, rng_state=seed_state(5), **params)
    np.testing.assert_allclose(clf.coef_[0], w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, ref_scores, rtol=1e-10, atol=1e-12)
    lo_neg = clf.segments_[1, 0]
    np.testing.assert_array_equal(clf.sv_[: len(buf[1])], np.array(buf[1]))
    np.testing.assert_array_equal(clf.sv_[lo_neg : lo_neg + len(buf[-1])], np.array(buf[-1]))
    np.testing.assert_array_equal(clf.segments_[:, COUNT], [len(buf[1]), len(buf[-1])])


@pytest.mark.parametrize("update", ["sequential", "gradient"])
def test_oam_infinite_equals_brute_force_pairs(update):
    X, y = _stream(n=250, seed=3)
    clf = OAM(C=0.5, update=update, buffer="infinite", budget_pos=1, budget_neg=1)
    # in uneven pieces, so the buffers grow between batches several times
    scores = np.concatenate(
        [
            clf.test_then_train(X[lo:hi], y[lo:hi], classes=[-1, 1])
            for lo, hi in [(0, 3), (3, 40), (40, 41), (41, 250)]
        ]
    )
    w, ref_scores = naive.oam_all_pairs(X, y, C=0.5, update=update)
    np.testing.assert_allclose(clf.coef_[0], w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, ref_scores, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(clf.segments_[:, COUNT], [(y > 0).sum(), (y < 0).sum()])
    assert clf.sv_.shape[0] >= len(y)


# --------------------------------------------------------------------------- buffers
@pytest.mark.parametrize("buffer", ["reservoir", "fifo"])
def test_buffer_never_exceeds_budget(buffer):
    X, y = _stream(n=600, seed=1, pos=0.3)
    clf = OAM(buffer=buffer, budget_pos=9, budget_neg=4, random_state=0)
    rows = {tuple(r) for r in X}
    for lo in range(0, len(y), 50):
        clf.partial_fit(X[lo : lo + 50], y[lo : lo + 50], classes=[-1, 1])
        assert clf.sv_.shape == (13, X.shape[1])  # preallocated, never grown
        count = clf.segments_[:, COUNT]
        assert count[0] <= 9 and count[1] <= 4
    np.testing.assert_array_equal(clf.segments_[:, COUNT], [9, 4])
    # every slot holds a real sample of its own class
    pos = {tuple(r) for r in X[y > 0]}
    neg = {tuple(r) for r in X[y < 0]}
    assert all(tuple(r) in pos for r in clf.sv_[:9])
    assert all(tuple(r) in neg for r in clf.sv_[9:])
    assert len(rows) == len(X)


def test_reservoir_keeps_each_sample_with_probability_budget_over_seen():
    # 20 positives through a buffer of 5: each should be held with probability 1/4.
    X = np.arange(40, dtype=float).reshape(-1, 1) + 1.0
    y = np.tile([1, -1], 20)
    held = np.zeros(20)
    runs = 600
    for seed in range(runs):
        clf = OAM(budget_pos=5, budget_neg=5, random_state=seed).fit(X, y)
        held[(clf.sv_[:5, 0].astype(int) - 1) // 2] += 1
    freq = held / runs
    # binomial sd = sqrt(.25 * .75 / 600) = .018: 5 sd is .088
    assert np.all(np.abs(freq - 0.25) < 0.09), freq


def test_seeded_runs_bit_identical_and_seed_matters():
    X, y = _stream(n=500, seed=2, pos=0.3)
    a = OAM(budget_pos=5, budget_neg=5, random_state=11).fit(X, y)
    b = OAM(budget_pos=5, budget_neg=5, random_state=11).fit(X, y)
    c = OAM(budget_pos=5, budget_neg=5, random_state=12).fit(X, y)
    np.testing.assert_array_equal(a.weights_, b.weights_)
    np.testing.assert_array_equal(a.sv_, b.sv_)
    assert not np.array_equal(a.sv_, c.sv_)


def test_pickled_model_continues_identically_with_infinite_buffer():
    X, y = _stream(n=300, seed=4)
    a = OAM(buffer="infinite", budget_pos=2, budget_neg=2).partial_fit(
        X[:100], y[:100], classes=[-1, 1]
    )
    b = pickle.loads(pickle.dumps(a))
    a.partial_fit(X[100:], y[100:])
    b.partial_fit(X[100:], y[100:])
    np.testing.assert_array_equal(a.weights_, b.weights_)
    np.testing.assert_array_equal(a.sv_, b.sv_)


def test_infinite_buffer_growth_warning_names_a_bounded_buffer(monkeypatch):
    """buffer="infinite" keeps every sample; the size warning at a growth told the user to
    "use a smaller budget" (budget_pos/neg are only initial capacities there) and pointed
    inside skewlearn. Threshold lowered from 1 GiB to 10 kB: 300 rows × 5 features."""
    from skewlearn.kernel import budget

    X, y = _stream(n=300, seed=4)
    monkeypatch.setattr(budget, "LARGE_BUFFER", 10_000)
    with pytest.warns(RuntimeWarning, match=r"buffer='reservoir' or 'fifo'") as w:
        OAM(buffer="infinite", budget_pos=2, budget_neg=2).fit(X, y)
    assert {r.filename for r in w} == {__file__}
    assert not any("smaller budget" in str(r.message) for r in w)


def test_fixed_buffer_size_warning_names_oams_budgets_not_a_kernel_learner(monkeypatch):
    """Session 27: at 10⁶ sparse features OAM's 200 dense buffer rows take 1.5 GiB, and
    the warning said "use a smaller budget, or reduce the features ... before a kernel
    learner": OAM is a linear learner, and its budget is two parameters. Threshold lowered
    from 1 GiB to 1 kB: 200 rows × 6 features."""
    from skewlearn.kernel import budget

    X, y = _stream(n=300, seed=4)
    monkeypatch.setattr(budget, "LARGE_BUFFER", 1_000)
    with pytest.warns(RuntimeWarning, match=r"200 dense rows of 6 features") as w:
        OAM().fit(X, y)
    (message,) = {str(r.message) for r in w}
    assert "smaller budget_pos and budget_neg" in message
    assert "kernel" not in message and "reduce the features" in message


# --------------------------------------------------------------------------- API
def test_threshold_moves_predict_only():
    X, y = _stream(seed=6)
    a = OAM(random_state=0).fit(X, y)
    b = OAM(random_state=0, threshold=0.5).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    s = a.decision_function(X)
    np.testing.assert_array_equal(b.predict(X), np.where(s > 0.5, 1, -1))
    np.testing.assert_array_equal(a.predict(X), np.where(s > 0, 1, -1))


@pytest.mark.parametrize("cls", [KOIL, OAM, OPAUC])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, "0.3"], ids=repr)
def test_a_threshold_fit_would_refuse_is_refused_by_predict(cls, bad):
    """set_params(threshold=nan) after fitting made predict silently vote the negative
    class everywhere (every comparison with NaN is False; inf: the same, -inf: all
    positive, the string "0.3": cut at 0.3), while the next partial_fit refused the value.
    predict, and the protocols that cut scores with the learner's own rule, now refuse it
    with fit's message; a finite number still moves the cut at once."""
    from skewlearn.base import decision_cut

    X, y = _stream(n=80, seed=8)
    clf = cls(random_state=0).fit(X, y)
    clf.set_params(threshold=bad)
    with pytest.raises(ValueError, match="'threshold' parameter"):
        clf.predict(X)
    with pytest.raises(ValueError, match="'threshold' parameter"):
        decision_cut(clf)
    clf.set_params(threshold=np.float32(0.25))
    np.testing.assert_array_equal(
        clf.predict(X), np.where(clf.decision_function(X) > np.float32(0.25), 1, -1)
    )


def test_no_fit_intercept_parameter():
    assert "fit_intercept" not in OAM().get_params()


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"buffer": "lifo"}, "buffer"),
        ({"update": "newton"}, "update"),
        ({"budget_pos": 0}, "budget_pos"),
        ({"C": -1.0}, "C"),
    ],
)
def test_invalid_parameters_are_named(params, match):
    X, y = _stream(n=20)
    with pytest.raises(ValueError, match=match):
        OAM(**params).fit(X, y)


def separable_stream(n=5000, d=20, pos_rate=0.05, seed=0):
    """A linearly separable stream with ``pos_rate`` positives and a margin."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    X = rng.normal(size=(n, d))
    s = X @ w
    thr = np.quantile(s, 1 - pos_rate)
    keep = np.abs(s - thr) > 0.1
    return X[keep], (s[keep] > thr).astype(int)


@pytest.mark.parametrize(
    "params",
    [{}, {"update": "gradient"}, {"buffer": "fifo"}, {"buffer": "infinite", "C": 0.01}],
    ids=str,
)
def test_online_auc_on_separable_imbalanced_stream(params):
    X, y = separable_stream()
    scores = OAM(random_state=0, **params).test_then_train(X, y, classes=[0, 1])
    assert roc_auc_score(y, scores) >= 0.9
