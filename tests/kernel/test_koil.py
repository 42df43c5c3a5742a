import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import SGDClassifier
from sklearn.metrics import roc_auc_score

from skewlearn import KOIL, OAM, KernelPerceptron, PassiveAggressive, Perceptron, Projectron
from skewlearn._rng import rng_uniform, seed_state
from skewlearn.kernel.budget import (
    COUNT,
    POLICY_CODES,
    active_slots,
    allocate_buffers,
    grow_segments,
)
from tests.naive import kernels as naive_kernels
from tests.naive import koil as naive

POLICIES = list(POLICY_CODES)

# --------------------------------------------------------------------------- hand check
# Linear kernel on 1-D inputs, C = 1, eta = 0.5, k = 1, budgets N+ = 2, N- = 1.
#
# t1: x=1,  y=+1. f=0. Negative buffer empty -> a = eta*C*y = 0.5. Stored: pos [(1, .5)].
# t2: x=-1, y=-1. f = 0.5*(1*-1) = -0.5. Positive SV x=1 has f(1) = 0.5;
#     loss 1 - y(f_t - f_j) = 1 - (-1)(-0.5 - 0.5) = 0, not > 0: no violator. Own buffer
#     empty and no violator -> a = eta*C*y = -0.5. Decay: pos alpha 0.5*0.5 = 0.25.
#     Stored: neg [(-1, -.5)].  Now f(x) = 0.25x + 0.5x = 0.75x.
# t3: x=2,  y=+1. f = 1.5. Neg SV: f(-1) = -0.75; loss 1 - (1.5 + 0.75) < 0: no violator,
#     own buffer not empty -> a = eta*C*y*0 = 0: not stored. Decay: pos .125, neg -.25.
#     f(x) = 0.125x + 0.25x = 0.375x.
# t4: x=.5, y=-1. f = 0.1875. Pos SV x=1: f(1) = .375; loss 1 - (-1)(.1875 - .375)
#     = .8125 > 0: violator, |V| = 1 = k. a = eta*C*y*1 = -0.5.
#     Decay: pos .0625, neg -.125; pos SV in V: .0625 - eta*C*y = .0625 + .5 = .5625.
#     Negative buffer full (N- = 1):
#       FIFO     overwrites (-1, -.125) by (.5, -.5):          f(x) = .5625x - .25x  = .3125x
#       FIFO++   then adds -.125 to the most similar SV (the only one, x=.5):
#                (.5, -.625):                                f(x) = .5625x - .3125x = .25x
#       infinite appends: neg [(-1, -.125), (.5, -.5)]:      f(x) = .5625x + .125x - .25x = .4375x
#       RS       keeps x_t with probability N/t = 1/2 (one uniform draw u): if u < 1/2 as FIFO,
#                else drops it:                              f(x) = .5625x + .125x  = .6875x
#       RS++     if kept as FIFO++, else a = -.5 goes to the most similar SV (x=-1):
#                (-1, -.625):                                f(x) = .5625x + .625x = 1.1875x
HAND_X = np.array([[1.0], [-1.0], [2.0], [0.5]])
HAND_Y = np.array([1, 0, 1, 0])
HAND_SCORES = [0.0, -0.5, 1.5, 0.1875]
HAND_SLOPE = {"FIFO": 0.3125, "FIFO++": 0.25, "infinite": 0.4375}
HAND_DROPPED = {"RS": 0.6875, "RS++": 1.1875}


def _hand_model(policy, seed=0):
    return KOIL(
        C=1.0,
        eta=0.5,
        k=1,
        budget_pos=2,
        budget_neg=1,
        policy=policy,
        kernel="linear",
        random_state=seed,
    )


@pytest.mark.parametrize("policy", ["FIFO", "FIFO++", "infinite"])
def test_hand_computed_stream(policy):
    clf = _hand_model(policy)
    scores = clf.test_then_train(HAND_X, HAND_Y, classes=[0, 1])
    np.testing.assert_allclose(scores, HAND_SCORES, atol=1e-15)
    np.testing.assert_allclose(clf.decision_function([[1.0]]), [HAND_SLOPE[policy]], atol=1e-15)


@pytest.mark.parametrize("policy", ["RS", "RS++"])
def test_hand_computed_stream_rs_both_branches(policy):
    branches = set()
    for seed in range(8):
        clf = _hand_model(policy, seed)
        # the only draw of the stream: the keep decision at t4 (probability 1/2)
        u = rng_uniform(seed_state(seed).copy())
        kept = u < 0.5
        branches.add(kept)
        clf.fit(HAND_X, HAND_Y)
        want = HAND_SLOPE[policy.replace("RS", "FIFO")] if kept else HAND_DROPPED[policy]
        np.testing.assert_allclose(clf.decision_function([[1.0]]), [want], atol=1e-15)
    assert branches == {True, False}


def test_equally_near_violators_the_lower_slot_is_in_v_t():
    # rbf, gamma = 1, C = 1, eta = .5, k = 1, 1-D. Two negatives at -1 and +1, then a
    # positive at 0, equally near both (k = e^-1 to the last bit):
    # t1: x=-1 -. Positive buffer empty -> a = -.5. neg slot 0: (-1, -.5).
    # t2: x=+1 -. f = -.5 e^-4. Positive buffer still empty -> a = -.5; decay: slot 0 -.25.
    #     neg slot 1: (+1, -.5).
    # t3: x=0 +. f = -.75/e. f(-1) = -.25 - .5e^-4, f(+1) = -.25e^-4 - .5: both violate
    #     (1 - (f - f_j) = 1.017, .772). k = 1 and the kernel values tie: the lower slot
    #     (x = -1) is V_t, as in the authors' stable sort. a = .5; decay: -.125, -.25;
    #     slot 0 moves: -.125 - .5 = -.625. pos slot 0: (0, .5).
    X = np.array([[-1.0], [1.0], [0.0]])
    y = np.array([0, 0, 1])
    clf = KOIL(C=1.0, eta=0.5, k=1, budget_pos=2, budget_neg=2, policy="FIFO++", gamma=1.0)
    scores = clf.test_then_train(X, y, classes=[0, 1])
    np.testing.assert_allclose(scores, [0.0, -0.5 * np.exp(-4), -0.75 / np.e], rtol=1e-15)
    grid = np.array([[-1.0], [1.0], [0.3]])
    g = grid[:, 0]
    want = -0.625 * np.exp(-((g + 1) ** 2)) - 0.25 * np.exp(-((g - 1) ** 2)) + 0.5 * np.exp(-(g**2))
    np.testing.assert_allclose(clf.decision_function(grid), want, rtol=1e-14)


@pytest.mark.parametrize("policy", ["RS++", "FIFO++"])
def test_compensation_ties_go_to_the_first_slot(policy):
    # rbf, gamma = 1, C = 1, eta = .5, budget_pos = 2, only positives (the opposite
    # buffer stays empty, so every a_t = eta C = .5; decay .5 per row):
    # t1: x=-1 -> slot 0 (-1, .5).  t2: x=+1 -> slot 0 .25, slot 1 (+1, .5).
    # t3: decay -> .125, .25; a = .5 and the buffer is full.
    #   RS++ (seed 1 drops it, u >= 2/3): x=0 is as near to slot 0 as to slot 1 (e^-1
    #     both): its weight goes to the first slot, .125 + .5 -> [.625, .25].
    #   FIFO++ with x=-3: it overwrites the oldest, slot 0 (x=-1, weight .125); the SVs
    #     after insertion, x=-3 in slot 0 and x=+1 in slot 1, are both at distance 2 from
    #     it (e^-4 both): the removed weight goes to the first slot, .5 + .125 ->
    #     [.625, .25]. ("The first slot on ties", budget.py; the later slot passed every
    #     earlier test.)
    last = 0.0 if policy == "RS++" else -3.0
    X = np.array([[-1.0], [1.0], [last]])
    clf = KOIL(C=1.0, eta=0.5, k=1, budget_pos=2, budget_neg=1, policy=policy, random_state=1)
    clf.partial_fit(X, np.ones(3, dtype=int), classes=[0, 1])
    assert clf.counts_[3] == (2 if policy == "RS++" else 3)  # RS++ dropped x_3
    np.testing.assert_array_equal(clf.alpha_[:2], [0.625, 0.25])
    np.testing.assert_array_equal(clf.sv_[:2, 0], [-1.0, 1.0] if policy == "RS++" else [-3.0, 1.0])


# --------------------------------------------------------------------------- naive reference
def _toy(n=40, d=3, pos=0.3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < pos, 1, -1)
    X[y > 0] += 0.7
    return X, y


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(
    "kernel,extra",
    [("rbf", {"gamma": 0.4}), ("poly", {"gamma": 0.3, "degree": 2, "coef0": 1.0})],
)
def test_matches_naive_reference(policy, kernel, extra):
    X, y = _toy()
    params = dict(C=2.0, eta=0.2, budget_pos=3, budget_neg=4, k=2, policy=policy)
    clf = KOIL(kernel=kernel, random_state=5, **params, **extra)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    kind_args = {"gamma": extra["gamma"], "degree": extra.get("degree", 3)}
    kind_args["coef0"] = extra.get("coef0", 1.0)
    buffers, want = naive.koil(
        X,
        y,
        C=2.0,
        eta=0.2,
        budget_pos=3,
        budget_neg=4,
        k=2,
        policy=policy,
        kind=kernel,
        rng_state=seed_state(5),
        **kind_args,
    )
    np.testing.assert_allclose(scores, want, rtol=1e-10, atol=1e-12)
    # the stored buffers, slot by slot
    seg = clf.segments_
    for q, s in enumerate((+1, -1)):
        lo, n = seg[q, 0], seg[q, COUNT]
        assert n == len(buffers[s])
        np.testing.assert_allclose(clf.sv_[lo : lo + n], [b[0] for b in buffers[s]])
        np.testing.assert_allclose(clf.alpha_[lo : lo + n], [b[1] for b in buffers[s]], atol=1e-12)
    if policy != "infinite":
        assert clf.counts_[3] > seg[:, 1].sum(), "the stream must cause replacements"
    Xt = _toy(seed=9)[0]
    np.testing.assert_allclose(
        clf.decision_function(Xt), naive.decision(buffers, Xt, kernel, **kind_args), rtol=1e-10
    )


@pytest.mark.parametrize("policy", POLICIES)
def test_inverse_sqrt_schedule_matches_naive(policy):
    X, y = _toy(seed=3)
    clf = KOIL(
        C=1.0,
        eta=0.5,
        eta_schedule="inverse_sqrt",
        budget_pos=3,
        budget_neg=3,
        k=1,
        policy=policy,
        gamma=0.5,
        random_state=2,
    )
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    _, want = naive.koil(
        X,
        y,
        C=1.0,
        eta=0.5,
        eta_schedule="inverse_sqrt",
        budget_pos=3,
        budget_neg=3,
        k=1,
        policy=policy,
        gamma=0.5,
        rng_state=seed_state(2),
    )
    np.testing.assert_allclose(scores, want, rtol=1e-10, atol=1e-12)


def test_sparse_rows_match_naive():
    X, y = _toy(seed=4)
    X[np.abs(X) < 0.5] = 0.0
    clf = KOIL(C=1.0, eta=0.3, budget_pos=3, budget_neg=3, k=2, policy="FIFO++", gamma=0.5)
    scores = clf.test_then_train(sp.csr_matrix(X), y, classes=[-1, 1])
    _, want = naive.koil(
        X, y, C=1.0, eta=0.3, budget_pos=3, budget_neg=3, k=2, policy="FIFO++", gamma=0.5
    )
    np.testing.assert_allclose(scores, want, rtol=1e-10, atol=1e-12)


# --------------------------------------------------------------------------- invariants
def _long_stream(n=3000, d=4, seed=0, pos=0.1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(np.linalg.norm(X[:, :2], axis=1) < np.sqrt(2 * np.log(1 / (1 - pos))), 1, 0)
    return X, y


@pytest.mark.parametrize("policy", POLICIES)
def test_budget_never_exceeded_and_caches_exact(policy):
    X, y = _long_stream()
    clf = KOIL(budget_pos=10, budget_neg=20, eta=0.05, policy=policy, random_state=1)
    for lo in range(0, len(y), 500):
        clf.partial_fit(X[lo : lo + 500], y[lo : lo + 500], classes=[0, 1])
        if policy != "infinite":
            assert clf.sv_.shape == (30, 4)
            assert (clf.n_support_ <= [10, 20]).all()
    assert (clf.segments_[:, COUNT] <= clf.segments_[:, 1]).all()
    if policy == "infinite":
        assert clf.n_support_.sum() == clf.counts_[3] > 30
    # caches equal recomputation from scratch
    act = active_slots(clf.segments_)
    G = naive_kernels.kernel_matrix(clf.sv_[act], clf.sv_[act], "rbf", 1.0, 3, 1.0)
    np.testing.assert_allclose(clf.gram_[np.ix_(act, act)], G, rtol=1e-12, atol=1e-14)
    f_true = G @ clf.alpha_[act]
    np.testing.assert_allclose(clf.fsv_[act], f_true, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(clf.decision_function(clf.sv_[act]), f_true, rtol=1e-10, atol=1e-12)


def test_memory_fixed_by_budget():
    X, y = _long_stream(n=4000)
    clf = KOIL(budget_pos=10, budget_neg=10, eta=0.05, random_state=0)
    clf.partial_fit(X[:200], y[:200], classes=[0, 1])
    size = len(pickle.dumps(clf))
    clf.partial_fit(X[200:], y[200:])
    assert len(pickle.dumps(clf)) == size


def test_seeded_runs_bit_identical_and_seed_matters():
    X, y = _long_stream(n=1500)
    a = KOIL(budget_pos=10, budget_neg=10, policy="RS", random_state=3).fit(X, y)
    b = KOIL(budget_pos=10, budget_neg=10, policy="RS", random_state=3).fit(X, y)
    c = KOIL(budget_pos=10, budget_neg=10, policy="RS", random_state=4).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    np.testing.assert_array_equal(a.sv_, b.sv_)
    assert not np.array_equal(a.sv_, c.sv_)


def test_pickle_mid_stream_continues_identically():
    X, y = _long_stream(n=2000, seed=5)
    a = KOIL(budget_pos=8, budget_neg=8, policy="RS++", random_state=0)
    a.partial_fit(X[:700], y[:700], classes=[0, 1])
    b = pickle.loads(pickle.dumps(a))
    sa = a.test_then_train(X[700:], y[700:])
    sb = b.test_then_train(X[700:], y[700:])
    np.testing.assert_array_equal(sa, sb)
    np.testing.assert_array_equal(a.alpha_, b.alpha_)


def test_threshold_moves_predict_only():
    X, y = _long_stream(n=800)
    a = KOIL(budget_pos=10, budget_neg=10, random_state=0).fit(X, y)
    b = KOIL(budget_pos=10, budget_neg=10, random_state=0, threshold=0.05).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    f = b.decision_function(X)
    np.testing.assert_array_equal(b.predict(X), (f > 0.05).astype(int))


def test_default_k_is_ten_percent_of_budget():
    assert KOIL()._k() == 10
    assert KOIL(budget_pos=5, budget_neg=50)._k() == 1
    assert KOIL(k=4)._k() == 4


def test_infinite_budget_capacities_only_set_the_default_k():
    # With k given, the initial capacities of policy="infinite" do not change the model
    # (growth keeps slot order and arithmetic); with k=None they set k as for a budgeted
    # policy at the same budgets (documented: the comparison of KOIL's Figure 1).
    X, y = _long_stream(n=500)
    small = KOIL(policy="infinite", budget_pos=2, budget_neg=3, k=3).fit(X, y)
    large = KOIL(policy="infinite", budget_pos=400, budget_neg=600, k=3).fit(X, y)
    np.testing.assert_array_equal(small.decision_function(X), large.decision_function(X))
    assert small.sv_.shape[0] < large.sv_.shape[0]
    default = KOIL(policy="infinite", budget_pos=30, budget_neg=50).fit(X, y)
    same_k = KOIL(policy="infinite", k=3).fit(X, y)
    assert default._k() == KOIL(policy="RS++", budget_pos=30, budget_neg=50)._k() == 3
    np.testing.assert_array_equal(default.decision_function(X), same_k.decision_function(X))


@pytest.mark.parametrize("policy", ["RS++", "infinite"])
def test_k_beyond_the_buffers_updates_every_violator_without_allocating_k(policy):
    """k at least the opposite budget is legal and means every violator, but the compiled
    pass allocated two scratch arrays of length k on every call: k = 1e12 raised
    MemoryError, and k = 1e8 cost 1.6 GB and ~1 s a partial_fit call."""
    X, y = _long_stream(n=600)
    ref = KOIL(budget_pos=10, budget_neg=20, k=30, policy=policy, random_state=0)
    big = KOIL(budget_pos=10, budget_neg=20, k=10**12, policy=policy, random_state=0)
    for lo in range(0, len(y), 200):  # infinite: the buffers grow past k=30 between calls
        ref.partial_fit(X[lo : lo + 200], y[lo : lo + 200], classes=[0, 1])
        big.partial_fit(X[lo : lo + 200], y[lo : lo + 200], classes=[0, 1])
    if policy == "RS++":
        np.testing.assert_array_equal(big.decision_function(X), ref.decision_function(X))
    else:
        assert big.sv_.shape[0] > 30
        full = KOIL(budget_pos=10, budget_neg=20, k=10**4, policy=policy, random_state=0)
        for lo in range(0, len(y), 200):
            full.partial_fit(X[lo : lo + 200], y[lo : lo + 200], classes=[0, 1])
        np.testing.assert_array_equal(big.decision_function(X), full.decision_function(X))


def test_attributes_views():
    X, y = _long_stream(n=600)
    clf = KOIL(budget_pos=5, budget_neg=7, random_state=0).fit(X, y)
    assert clf.support_vectors_.shape == (clf.n_support_.sum(), 4)
    np.testing.assert_allclose(
        clf.decision_function(X[:5]),
        (np.exp(-((X[:5, None, :] - clf.support_vectors_[None]) ** 2).sum(-1)) @ clf.dual_coef_[0]),
    )


@pytest.mark.parametrize(
    "params,match",
    [
        ({"policy": "LRU"}, "policy"),
        ({"kernel": "sigmoid"}, "kernel"),
        ({"budget_pos": 0}, "budget_pos"),
        ({"eta": 1.5}, "eta"),
        ({"k": 0}, "'k'"),
    ],
)
def test_invalid_parameters(params, match):
    X, y = _long_stream(n=50)
    with pytest.raises(ValueError, match=match):
        KOIL(**params).fit(X, y)


def test_grow_segments_keeps_slots_and_caches():
    st = allocate_buffers([2, 3], 2)
    st["seg"][:, COUNT] = [2, 1]
    st["sv"][:] = np.arange(10.0).reshape(5, 2)
    st["alpha"][:] = np.arange(5.0)
    st["gram"][:] = np.arange(25.0).reshape(5, 5)
    new = grow_segments(st, [1, 1])
    assert new is not st
    np.testing.assert_array_equal(new["seg"][:, :3], [[0, 4, 2], [4, 3, 1]])
    old, moved = active_slots(st["seg"]), active_slots(new["seg"])
    np.testing.assert_array_equal(new["sv"][moved], st["sv"][old])
    np.testing.assert_array_equal(new["gram"][np.ix_(moved, moved)], st["gram"][np.ix_(old, old)])
    assert grow_segments(new, [1, 1]) is new


def test_infinite_budget_memory_follows_the_stored_svs():
    # policy="infinite" grew each buffer by the whole batch's rows of its class before the
    # pass, so one fit of n rows allocated an n x n Gram cache however few rows were kept
    # (here 300 x 300 for about 100 SVs). A full buffer now doubles when a row needs room.
    rng = np.random.default_rng(0)
    n = 300
    y = np.where(rng.random(n) < 0.2, 1, -1)
    X = rng.normal(scale=0.3, size=(n, 2)) + 2.0 * y[:, None]
    params = dict(C=10.0, eta=0.5, budget_pos=4, budget_neg=4, k=1, policy="infinite")
    clf = KOIL(**params)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    buffers, want = naive.koil(X, y, **params)
    np.testing.assert_allclose(scores, want, rtol=1e-10, atol=1e-12)
    stored = clf.segments_[:, COUNT]
    assert list(stored) == [len(buffers[+1]), len(buffers[-1])]
    assert stored.sum() < n / 2, "the stream must leave most rows out"
    assert np.all(clf.segments_[:, 1] <= np.maximum(2 * stored, 4))
    assert clf.gram_.shape[0] == clf.segments_[:, 1].sum()
    for q, s in enumerate((+1, -1)):
        lo = clf.segments_[q, 0]
        np.testing.assert_allclose(
            clf.alpha_[lo : lo + stored[q]], [b[1] for b in buffers[s]], rtol=1e-10, atol=1e-12
        )


def test_infinite_budget_growth_warning_names_a_fixed_budget_policy(monkeypatch):
    """The infinite policy's buffers and Gram cache grow with the stored SVs. The size
    warning at a doubling told the user to "use a smaller budget" (budget_pos/neg are only
    initial capacities there) and pointed inside skewlearn; it now names the fixed-budget
    policies and the caller's line (threshold lowered from 1 GiB to 100 kB)."""
    from skewlearn.kernel import budget

    rng = np.random.default_rng(0)
    n = 400
    y = np.where(rng.random(n) < 0.3, 1, -1)
    X = rng.normal(size=(n, 2)) + 0.5 * y[:, None]
    monkeypatch.setattr(budget, "LARGE_BUFFER", 100_000)
    with pytest.warns(RuntimeWarning, match=r"Gram cache.*policy='RS\+\+' or 'FIFO\+\+'") as w:
        KOIL(policy="infinite", budget_pos=8, budget_neg=8, eta=0.1).fit(X, y)
    assert {r.filename for r in w} == {__file__}
    assert not any("smaller budget" in str(r.message) for r in w)
    with pytest.warns(RuntimeWarning, match=r"smaller budget") as w:
        KOIL(policy="RS++", budget_pos=80, budget_neg=80).fit(X, y)  # 160² × 8 B = 205 kB
    assert {r.filename for r in w} == {__file__}


@pytest.mark.parametrize(
    "make",
    [
        lambda: KOIL(policy="infinite", budget_pos=8, budget_neg=8, eta=0.1),
        lambda: KernelPerceptron(gamma=0.1),
        lambda: Projectron(eta=0.01, gamma=20.0),
        lambda: OAM(buffer="infinite", budget_pos=2, budget_neg=2),
    ],
    ids=["KOIL", "KernelPerceptron", "Projectron", "OAM"],
)
def test_growing_past_the_size_threshold_warns_once_after_the_whole_batch(make, monkeypatch):
    """Growing buffers checked their size at every doubling, inside the learning pass:
    one fit printed a warning per doubling (KOIL: ten), and with warnings turned into
    errors (``-W error``, pytest's ``filterwarnings = error``) the fit stopped halfway
    through the batch, leaving a fitted model that had learned only a prefix. The check
    now runs once per call, after the batch (threshold lowered from 1 GiB to 15 kB)."""
    from skewlearn.kernel import budget

    rng = np.random.default_rng(0)
    n = 400
    y = np.where(rng.random(n) < 0.3, 1, -1)
    X = rng.normal(size=(n, 20))  # labels independent of X: many mistakes, many SVs
    monkeypatch.setattr(budget, "LARGE_BUFFER", 15_000)  # above every initial allocation
    with pytest.warns(RuntimeWarning, match="support-vector buffer takes") as w:
        make().fit(X, y)
    assert len([r for r in w if "buffer takes" in str(r.message)]) == 1
    est = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning, match="support-vector buffer takes"):
            est.fit(X, y)
    assert est.n_samples_seen_ == n  # the whole batch was learned before the warning
    want = make()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want.fit(X, y)
    np.testing.assert_array_equal(est.decision_function(X), want.decision_function(X))


# --------------------------------------------------------------------------- learning
def _circles(n=6000, pos=0.05, seed=0):
    """A ring of positives (5%) inside/around negatives: not linearly separable."""
    rng = np.random.default_rng(seed)
    npos = int(n * pos)
    r = np.concatenate([rng.normal(1.0, 0.1, npos), rng.uniform(0, 2.2, n - npos)])
    keep_neg = np.abs(r[npos:] - 1.0) > 0.25
    r = np.concatenate([r[:npos], r[npos:][keep_neg]])
    y = np.concatenate([np.ones(npos, int), np.zeros(keep_neg.sum(), int)])
    th = rng.uniform(0, 2 * np.pi, len(r))
    X = np.c_[r * np.cos(th), r * np.sin(th)] + rng.normal(0, 0.03, (len(r), 2))
    order = rng.permutation(len(r))
    return X[order], y[order]


@pytest.mark.parametrize("policy", ["RS++", "FIFO++"])
def test_auc_on_nonlinear_imbalanced_problem(policy):
    X, y = _circles()
    Xte, yte = _circles(seed=1)
    assert 0.03 < y.mean() < 0.08
    clf = KOIL(budget_pos=100, budget_neg=100, C=1.0, eta=0.05, gamma=2.0, policy=policy)
    clf.set_params(random_state=0).fit(X, y)
    auc = roc_auc_score(yte, clf.decision_function(Xte))
    assert auc >= 0.9
    # linear learners fail on this problem
    for lin in (Perceptron(), PassiveAggressive(C=0.1), SGDClassifier(random_state=0)):
        assert roc_auc_score(yte, lin.fit(X, y).decision_function(Xte)) < 0.7


def test_slots_holding_a_sparse_row_are_the_dense_comparisons():
    """After a one-row call that stored a CSR row, KOIL's state check finds the stored
    slot by comparing every slot with the row: densified, that compared all d entries of
    every slot (~17 ms at d = 10^5 with 2 x 100 SVs). The sparse form compares the row's
    columns first and reads whole slots only where they match; the slots are the dense
    comparison's, including slots equal at the columns but not elsewhere, explicit zeros,
    an all-zero row and negative zero."""
    from skewlearn.kernel.budget import slots_holding, slots_holding_sparse

    rng = np.random.default_rng(3)
    d = 40
    for trial in range(300):
        sv = np.zeros((12, d))
        nnz = int(rng.integers(0, 5))
        cols = np.sort(rng.choice(d, nnz, replace=False))
        vals = rng.choice([0.0, -0.0, 1.0, 2.5, -1.0], size=nnz)
        row = np.zeros(d)
        row[cols] = vals
        for j in range(sv.shape[0]):
            kind = rng.integers(0, 4)
            if kind == 0:
                sv[j] = row  # the row itself
            elif kind == 1:
                sv[j] = row
                sv[j, rng.integers(0, d)] += 1.0  # equal at the columns, maybe not elsewhere
            elif kind == 2:
                sv[j, rng.choice(d, 3)] = rng.choice([0.0, 1.0, 2.5], 3)
        expected = slots_holding(sv, row)
        got = slots_holding_sparse(sv, cols, vals)
        np.testing.assert_array_equal(got, expected, err_msg=str(trial))


def test_a_one_row_sparse_store_is_checked_at_its_slot(monkeypatch):
    """KOIL's one-row call that stores a CSR row finds the stored slot (for the state
    check) without densifying the row or comparing whole slots, and learns as one fit."""
    from skewlearn.kernel import budget

    found = []
    real = budget.slots_holding_sparse

    def recording(sv, columns, values):
        found.append(real(sv, columns, values).size)
        return real(sv, columns, values)

    def dense(sv, row):
        raise AssertionError("a CSR row was compared densely")

    monkeypatch.setattr(budget, "slots_holding_sparse", recording)
    monkeypatch.setattr(budget, "slots_holding", dense)
    X = sp.random(300, 5_000, density=0.002, random_state=2, format="csr")
    y = np.where(np.random.default_rng(2).random(300) < 0.4, 1, 0)
    model = KOIL(budget_pos=10, budget_neg=10, policy="FIFO", random_state=0)
    model.partial_fit(X[:20], y[:20], classes=[0, 1])
    full = KOIL(budget_pos=10, budget_neg=10, policy="FIFO", random_state=0).fit(X, y)
    for i in range(20, 300):
        model.partial_fit(X[i : i + 1], y[i : i + 1])
    assert len(found) > 100 and min(found) >= 1
    np.testing.assert_array_equal(model.decision_function(X), full.decision_function(X))
