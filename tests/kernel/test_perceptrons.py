import math
import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import roc_auc_score

from skewlearn import RBP, Forgetron, KernelPerceptron, Projectron, ProjectronPP
from skewlearn._rng import seed_state
from skewlearn.kernel.perceptrons import INITIAL_CAPACITY
from skewlearn.kernels import kernel_matrix
from tests.naive import kernel_baselines as naive

LIN = {"kernel": "linear"}

# --------------------------------------------------------------------------- hand checks
# Linear kernel on 1-D inputs, k(a, b) = a b.
#
# Kernel Perceptron:
# t1: x=1,  y=+1. f=0 <= 0: mistake, S = [(1, +1)].              f(x) = x
# t2: x=-1, y=-1. f=-1, y f = 1 > 0: nothing.
# t3: x=2,  y=-1. f=2,  y f = -2: mistake, S = [(1, +1), (2, -1)]. f(x) = x - 2x = -x
# t4: x=.5, y=+1. f=-.5, y f = -.5: mistake, S += (.5, +1).        f(x) = -x + .5x = -.5x
# RBP with budget 1: t3 replaces the only SV (rng_int(., 1) = 0): S = [(2, -1)], f = -2x;
# t4: f = -1, mistake, replaces it again: S = [(.5, +1)], f(x) = .5x.
HAND_X = np.array([[1.0], [-1.0], [2.0], [0.5]])
HAND_Y = np.array([1, 0, 0, 1])


def test_kernel_perceptron_hand_computed():
    clf = KernelPerceptron(**LIN)
    scores = clf.test_then_train(HAND_X, HAND_Y, classes=[0, 1])
    np.testing.assert_allclose(scores, [0.0, -1.0, 2.0, -0.5], atol=1e-15)
    np.testing.assert_allclose(clf.decision_function([[1.0]]), [-0.5], atol=1e-15)
    np.testing.assert_array_equal(clf.support_vectors_.ravel(), [1.0, 2.0, 0.5])
    np.testing.assert_array_equal(clf.dual_coef_, [[1.0, -1.0, 1.0]])
    assert clf.counts_.tolist() == [4, 2, 2, 3]


def test_rbp_hand_computed():
    clf = RBP(budget=1, random_state=0, **LIN)
    scores = clf.test_then_train(HAND_X, HAND_Y, classes=[0, 1])
    np.testing.assert_allclose(scores, [0.0, -1.0, 2.0, -1.0], atol=1e-15)
    np.testing.assert_allclose(clf.decision_function([[1.0]]), [0.5], atol=1e-15)
    assert clf.n_support_ == 1


# Self-tuned Forgetron, budget B = 1, Psi(l, m) = l^2 + 2l - 2lm.
# t1: x=1, y=+1. f=0: mistake, M=1; |I'| = 1 <= B.  f(x) = x.
# t2: x=-1, y=-1. f=-1, y f = 1: nothing.
# t3: x=2, y=-1. f=2: mistake, M=2. f' = x - 2x = -x. r = (x=1, y=+1, sigma=1),
#     mu = y_r f'(1) = -1. Psi(1, -1) = 1 + 2 + 2 = 5 > 15/32 * 2 = .9375 - Q, so phi < 1:
#     (sigma^2 - 2 sigma mu) phi^2 + 2 sigma phi + (Q - 15/32 M) = 3 phi^2 + 2 phi - .9375 = 0,
#     phi1 = (-2 + sqrt(4 + 12 * .9375)) / 6 = (-2 + sqrt(15.25)) / 6 = .31752...;
#     Q = 3 phi1^2 + 2 phi1 = .9375. I = [(2, -1, phi1)], f(x) = -2 phi1 x.
# t4: x=.5, y=+1. f = -phi1 < 0: mistake, M=3. f' = (.5 - 2 phi1) x. r = (2, -1, phi1),
#     mu = -(.5 - 2 phi1) * 2 = 4 phi1 - 1. Psi(phi1, mu) = -7 phi1^2 + 4 phi1 = .5643...,
#     Q + Psi = 1.5018 > 15/32 * 3 = 1.40625, so with
#     a = phi1^2 - 2 phi1 mu = -7 phi1^2 + 2 phi1, b = 2 phi1, c = .9375 - 1.40625 = -.46875,
#     phi2 = the root of a phi^2 + b phi + c in (0, 1) = (-b + sqrt(b^2 - 4ac)) / (2a);
#     Q = 1.40625. I = [(.5, +1, phi2)], f(x) = .5 phi2 x.
FORGET_Y = np.array([1, 0, 0, 1])
FORGET_X = np.array([[1.0], [-1.0], [2.0], [0.5]])


def test_forgetron_hand_computed():
    phi1 = (-2 + math.sqrt(15.25)) / 6
    a = -7 * phi1**2 + 2 * phi1
    b = 2 * phi1
    c = -0.46875
    phi2 = (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)
    assert 0 < phi1 < 1 and 0 < phi2 < 1
    clf = Forgetron(budget=1, **LIN)
    scores = clf.test_then_train(FORGET_X, FORGET_Y, classes=[0, 1])
    np.testing.assert_allclose(scores, [0.0, -1.0, 2.0, -phi1], rtol=1e-14)
    np.testing.assert_allclose(clf.decision_function([[1.0]]), [0.5 * phi2], rtol=1e-13)
    np.testing.assert_allclose(clf.damage_, [1.40625], rtol=1e-13)
    assert clf.counts_[3] == 3


def test_forgetron_below_budget_is_the_perceptron():
    # budget 2 and two mistakes: |I'| <= B every time, so no removal, no shrinking (phi = 1)
    # and Q stays 0: the SVs keep weights y_i = +1, -1.
    X = np.array([[0.0], [10.0]])
    y = np.array([1, 0])
    clf = Forgetron(budget=2).fit(X, y)
    np.testing.assert_array_equal(clf.dual_coef_, [[1.0, -1.0]])
    assert clf.damage_[0] == 0.0


# Projectron, linear kernel on 2-D inputs, eta = .5.
# t1: x=(1,0), y=+1. f=0: mistake. S empty: ||delta||^2 = k(x,x) = 1 > .25: add.
#     L = [1] (K = L L^T), alpha = [1].                            f(x) = x1
# t2: x=(2,.2), y=-1. f=2: mistake. k=[2], d* = [2], ||Pk||^2 = 4, ||delta||^2 = 4.04-4 = .04,
#     ||delta|| = .2 <= .5: projected, alpha = 1 - 2 = [-1].         f(x) = -x1
# t3: x=(1,1), y=+1. f=-1: mistake. k=[1], d*=[1], ||delta||^2 = 2 - 1 = 1 > .25: add;
#     L gains the row [c, ||delta||] with c = L^{-1} k = [1]: L = [[1, 0], [1, 1]], the
#     Cholesky factor of K = [[1, 1], [1, 2]]; alpha = [-1, 1].       f(x) = x2
# t4: x=(3,1), y=-1. f=1: mistake. k=[3, 4], d* = K^{-1}k = [2, 1], ||Pk||^2 = 10 = k(x,x):
#     delta = 0, projected: alpha = [-1-2, 1-1] = [-3, 0].          f(x) = -3 x1
# t5: x=(-.32,0), y=+1. f = .96: 0 < y f < 1, a margin error. Projectron: nothing.
#     Projectron++: loss = .04, k = [-.32, -.32], d* = [-.32, 0], ||Pk||^2 = .1024, delta = 0,
#     beta = min(.04/.1024, 2*.04/.1024, 1) = .390625; alpha = [-3 - .390625*.32, 0]
#     = [-3.125, 0].                                                 f(x) = -3.125 x1
PROJ_X = np.array([[1.0, 0.0], [2.0, 0.2], [1.0, 1.0], [3.0, 1.0], [-0.32, 0.0]])
PROJ_Y = np.array([1, 0, 1, 0, 1])


@pytest.mark.parametrize("cls,final", [(Projectron, -3.0), (ProjectronPP, -3.125)])
def test_projectron_hand_computed(cls, final):
    clf = cls(eta=0.5, **LIN)
    scores = clf.test_then_train(PROJ_X, PROJ_Y, classes=[0, 1])
    np.testing.assert_allclose(scores, [0.0, 2.0, -1.0, 1.0, 0.96], atol=1e-14)
    np.testing.assert_array_equal(clf.support_vectors_, [[1.0, 0.0], [1.0, 1.0]])
    np.testing.assert_allclose(clf.dual_coef_, [[final, 0.0]], atol=1e-14)
    np.testing.assert_allclose(clf.K_chol_[:2, :2], [[1.0, 0.0], [1.0, 1.0]], atol=1e-14)


def test_projectron_budget_cap_projects():
    # budget 1: t3 would add (1,1) but the set is full, so it takes the projected step
    # alpha = -1 + (+1)(d* = 1) = 0; t4: f = 0, mistake, d* = 3: alpha = -3; t5 margin only.
    clf = Projectron(eta=0.5, budget=1, **LIN).fit(PROJ_X, PROJ_Y)
    assert clf.n_support_ == 1
    np.testing.assert_allclose(clf.dual_coef_, [[-3.0]], atol=1e-14)


# --------------------------------------------------------------------------- naive reference
def _toy(n=120, d=3, pos=0.3, seed=0, sparse_zeros=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < pos, 1, -1)
    X[y > 0] += 0.8
    if sparse_zeros:
        X[np.abs(X) < 0.5] = 0.0
    return X, y


KERNELS = [
    ("rbf", {"gamma": 0.4}),
    ("poly", {"gamma": 0.3, "degree": 2, "coef0": 1.0}),
    ("linear", {}),
]


def _kp(kernel, extra):
    return {"kind": kernel, **{"gamma": 1.0, "degree": 3, "coef0": 1.0, **extra}}


def _fit_both(clf, X, y, sparse):
    Xin = sp.csr_matrix(X) if sparse else X
    scores = clf.test_then_train(Xin, y, classes=[-1, 1])
    return scores, clf


def _assert_same_model(clf, svs, X, kp, b=0.0):
    assert clf.n_support_ == len(svs)
    Xt = _toy(n=15, seed=9)[0]
    np.testing.assert_allclose(
        clf.decision_function(Xt), naive.decision(svs, Xt, b=b, **kp), rtol=1e-9, atol=1e-10
    )


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("kernel,extra", KERNELS, ids=[k for k, _ in KERNELS])
def test_kernel_perceptron_matches_naive(kernel, extra, sparse):
    X, y = _toy(sparse_zeros=sparse)
    kp = _kp(kernel, extra)
    scores, clf = _fit_both(KernelPerceptron(kernel=kernel, **extra), X, y, sparse)
    svs, want = naive.kernel_perceptron(X, y, **kp)
    np.testing.assert_allclose(scores, want, rtol=1e-10, atol=1e-10)
    assert len(svs) > INITIAL_CAPACITY or kernel == "linear", "the stream must force growth"
    _assert_same_model(clf, svs, X, kp)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("kernel,extra", KERNELS, ids=[k for k, _ in KERNELS])
def test_rbp_matches_naive(kernel, extra, sparse):
    X, y = _toy(sparse_zeros=sparse)
    kp = _kp(kernel, extra)
    scores, clf = _fit_both(RBP(budget=7, kernel=kernel, random_state=5, **extra), X, y, sparse)
    svs, want = naive.kernel_perceptron(X, y, budget=7, rng_state=seed_state(5), **kp)
    np.testing.assert_allclose(scores, want, rtol=1e-10, atol=1e-10)
    assert clf.counts_[3] > 7, "the stream must cause removals"
    np.testing.assert_allclose(clf.support_vectors_, [s for s, _ in svs])
    _assert_same_model(clf, svs, X, kp)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("kernel,extra", KERNELS, ids=[k for k, _ in KERNELS])
def test_forgetron_matches_naive(kernel, extra, sparse):
    X, y = _toy(sparse_zeros=sparse)
    kp = _kp(kernel, extra)
    scores, clf = _fit_both(Forgetron(budget=6, kernel=kernel, **extra), X, y, sparse)
    svs, want = naive.forgetron(X, y, budget=6, **kp)
    np.testing.assert_allclose(scores, want, rtol=1e-9, atol=1e-10)
    assert clf.counts_[3] > 6
    _assert_same_model(clf, svs, X, kp)


def test_forgetron_shrinks_on_a_long_stream():
    X, y = _toy(n=400, seed=2)
    clf = Forgetron(budget=10, gamma=0.4).fit(X, y)
    # some phi_t < 1 happened, and Q never exceeds 15/32 M (the self-tuning invariant)
    assert clf.damage_[0] > 0
    assert clf.damage_[0] <= 15 / 32 * clf.counts_[3] + 1e-9
    assert np.abs(clf.dual_coef_).max() <= 1.0


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("kernel,extra", KERNELS, ids=[k for k, _ in KERNELS])
@pytest.mark.parametrize("cls", [Projectron, ProjectronPP])
@pytest.mark.parametrize("budget", [None, 5])
def test_projectron_matches_naive(cls, kernel, extra, sparse, budget):
    X, y = _toy(sparse_zeros=sparse)
    kp = _kp(kernel, extra)
    eta = 0.3 if kernel == "rbf" else 0.05
    clf = cls(eta=eta, budget=budget, kernel=kernel, **extra)
    scores, clf = _fit_both(clf, X, y, sparse)
    svs, want = naive.projectron(X, y, eta=eta, plus=cls is ProjectronPP, budget=budget, **kp)
    np.testing.assert_allclose(scores, want, rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(clf.support_vectors_, [s for s, _ in svs])
    _assert_same_model(clf, svs, X, kp)
    m = clf.n_support_
    if budget is not None:
        assert m <= budget
    # K_chol_ is the lower Cholesky factor of the stored SVs' Gram matrix (grown row by row)
    G = np.array(
        [[naive.kernel(a, b, **kp) for b in clf.support_vectors_] for a in clf.support_vectors_]
    )
    L = clf.K_chol_[:m, :m]
    np.testing.assert_array_equal(L, np.tril(L))
    np.testing.assert_allclose(L @ L.T, G, atol=1e-12)
    np.testing.assert_array_equal(clf.K_chol_[m:], 0.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_projectron_pp_stays_accurate_on_an_ill_conditioned_gram_matrix(seed):
    """With eta = 1e-4 the SVs' Gram matrix reaches condition numbers of 1e10-1e13. The
    paper's rank-one update of K^{-1} then drifted: on these three 250-row streams the
    scores differed from a from-scratch solve (the naive reference, LU each step) by 0.14,
    0.86 and 0.91, and the support sets by 1-2 vectors. The Cholesky factor, grown by the
    same O(m^2) per step, agrees to 1e-6 and keeps the same support set."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(250, 2))
    y = np.where(np.hypot(X[:, 0], X[:, 1]) < 0.8, 1, -1)
    kp = _kp("rbf", {"gamma": 0.5})
    clf = ProjectronPP(eta=1e-4, gamma=0.5)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    svs, want = naive.projectron(X, y, eta=1e-4, plus=True, **kp)
    np.testing.assert_array_equal(clf.support_vectors_, [s for s, _ in svs])
    np.testing.assert_allclose(scores, want, rtol=0, atol=1e-5)


def test_projectron_grows_past_initial_capacity():
    X, y = _toy(n=300, seed=1)
    kp = _kp("rbf", {"gamma": 2.0})
    clf = Projectron(eta=0.05, gamma=2.0)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    assert clf.n_support_ > INITIAL_CAPACITY
    assert clf.sv_.shape[0] == clf.K_chol_.shape[0] >= clf.n_support_
    _, want = naive.projectron(X, y, eta=0.05, **kp)
    np.testing.assert_allclose(scores, want, rtol=1e-7, atol=1e-8)


# --------------------------------------------------------------------------- invariants
def _circles(n=4000, pos=0.1, seed=0):
    """Positives on a ring of radius 1 (~10%), negatives inside and outside it."""
    rng = np.random.default_rng(seed)
    npos = int(n * pos)
    r = np.concatenate([rng.normal(1.0, 0.08, npos), rng.uniform(0, 2.0, n - npos)])
    keep = np.r_[np.ones(npos, bool), np.abs(r[npos:] - 1.0) > 0.25]
    r = r[keep]
    y = np.r_[np.ones(npos, int), np.zeros(len(r) - npos, int)]
    th = rng.uniform(0, 2 * np.pi, len(r))
    X = np.c_[r * np.cos(th), r * np.sin(th)] + rng.normal(0, 0.03, (len(r), 2))
    order = rng.permutation(len(r))
    return X[order], y[order]


LEARNERS = {
    "KernelPerceptron": KernelPerceptron(gamma=2.0),
    "RBP": RBP(budget=100, gamma=2.0, random_state=0),
    "Forgetron": Forgetron(budget=100, gamma=2.0),
    "Projectron": Projectron(eta=0.3, gamma=2.0),
    "Projectron-budget": Projectron(eta=0.1, budget=100, gamma=2.0),
    "ProjectronPP": ProjectronPP(eta=0.3, budget=100, gamma=2.0),
}


@pytest.mark.parametrize("name", list(LEARNERS))
def test_auc_on_nonlinear_imbalanced_problem(name):
    X, y = _circles()
    Xte, yte = _circles(seed=1)
    assert 0.08 < y.mean() < 0.15
    clf = LEARNERS[name].fit(X, y)
    auc = roc_auc_score(yte, clf.decision_function(Xte))
    assert auc >= 0.85, auc


@pytest.mark.parametrize("cls", [RBP, Forgetron, Projectron, ProjectronPP])
def test_budget_never_exceeded(cls):
    X, y = _circles(n=3000)
    clf = cls(budget=15, gamma=2.0)
    if cls in (Projectron, ProjectronPP):
        clf.set_params(eta=0.01)
    for lo in range(0, len(y), 400):
        clf.partial_fit(X[lo : lo + 400], y[lo : lo + 400], classes=[0, 1])
        assert clf.sv_.shape[0] == 15
        assert clf.n_support_ <= 15
    assert clf.n_support_ == 15
    assert clf.counts_[3] > 15


def test_budgeted_memory_is_fixed():
    X, y = _circles(n=3000)
    for clf in (RBP(budget=10), Forgetron(budget=10), Projectron(eta=1e-3, budget=10)):
        clf.partial_fit(X[:300], y[:300], classes=[0, 1])
        size = len(pickle.dumps(clf))
        clf.partial_fit(X[300:], y[300:])
        assert len(pickle.dumps(clf)) == size


def test_rbp_seeded_bit_identical_and_seed_matters():
    X, y = _circles(n=2000)
    a = RBP(budget=10, gamma=2.0, random_state=3).fit(X, y)
    b = RBP(budget=10, gamma=2.0, random_state=3).fit(X, y)
    c = RBP(budget=10, gamma=2.0, random_state=4).fit(X, y)
    np.testing.assert_array_equal(a.sv_, b.sv_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    np.testing.assert_array_equal(a.rng_state_, b.rng_state_)
    assert not np.array_equal(a.sv_, c.sv_)


def test_rbp_discards_a_uniformly_drawn_support_vector():
    """The law of RBP (Cavallanti et al. 2007), checked over seeds rather than against the
    reference, which shares the model's generator. Rows 100 apart: every rbf value
    underflows to 0, f = 0 at each new row, so all n rows are mistakes. With budget B,
    after the buffer fills at mistake B each later mistake removes one of the B SVs
    uniformly, so SV i survives the n - max(i + 1, B) later mistakes with probability
    (1 - 1/B)^(n - max(i + 1, B)). (FIFO removal would keep exactly the last B.)"""
    n, budget, runs = 12, 4, 800
    X = (np.arange(n, dtype=float) * 100.0).reshape(-1, 1)
    y = np.tile([1, 0], n // 2)
    held = np.zeros(n)
    for seed in range(runs):
        est = RBP(budget=budget, random_state=seed).fit(X, y)
        assert est.counts_[3] == n
        held[np.rint(est.support_vectors_[:, 0] / 100.0).astype(int)] += 1
    want = (1 - 1 / budget) ** (n - np.maximum(np.arange(n) + 1, budget))
    # binomial sd <= sqrt(.25 / 800) = .018: 4.5 sd is .08
    np.testing.assert_allclose(held / runs, want, atol=0.08)


@pytest.mark.parametrize("cls", [KernelPerceptron, Projectron])
def test_unbounded_growth_keeps_slots_and_pickles(cls):
    X, y = _circles(n=1500)
    a = cls(gamma=2.0)
    a.partial_fit(X[:700], y[:700], classes=[0, 1])
    b = pickle.loads(pickle.dumps(a))
    sa = a.test_then_train(X[700:], y[700:])
    sb = b.test_then_train(X[700:], y[700:])
    np.testing.assert_array_equal(sa, sb)
    assert a.sv_.shape[0] >= a.n_support_ > INITIAL_CAPACITY
    assert a.sv_.shape[0] < 2 * a.n_support_ + INITIAL_CAPACITY


@pytest.mark.parametrize(
    "cls,params,match",
    [
        (RBP, {"budget": 0}, "budget"),
        (Forgetron, {"kernel": "sigmoid"}, "kernel"),
        (Projectron, {"eta": 0.0}, "eta"),
        (ProjectronPP, {"budget": 1.5}, "budget"),
        (KernelPerceptron, {"gamma": -1.0}, "gamma"),
    ],
)
def test_invalid_parameters(cls, params, match):
    X, y = _circles(n=60)
    with pytest.raises(ValueError, match=match):
        cls(**params).fit(X, y)


def test_a_large_dense_support_vector_buffer_warns(monkeypatch):
    """Sparse rows are stored dense as SVs: the learner says so when the buffer gets big
    (threshold lowered here from 1 GiB to 10 kB; the buffer below is at least
    INITIAL_CAPACITY × 200 × 8 B)."""
    import scipy.sparse as sp

    from skewlearn import KernelPerceptron
    from skewlearn.kernel import budget

    X = sp.random(40, 200, density=0.02, format="csr", random_state=0)
    y = np.arange(40) % 2
    with warnings.catch_warnings():  # under the default threshold, no warning
        warnings.simplefilter("error", RuntimeWarning)
        KernelPerceptron().fit(X, y)
    monkeypatch.setattr(budget, "LARGE_BUFFER", 10_000)
    with pytest.warns(RuntimeWarning, match=r"\d+ dense rows of 200 features.*smaller budget"):
        RBP(budget=40).fit(X, y)
    # KernelPerceptron has no budget to make smaller: the warning names what bounds it, and
    # points at the caller's line (it pointed inside skewlearn)
    with pytest.warns(
        RuntimeWarning, match=r"dense rows of 200 features.*use RBP or Forgetron"
    ) as w:
        KernelPerceptron().fit(X, y)
    assert {r.filename for r in w} == {__file__}


@pytest.mark.parametrize("cls", [Projectron, ProjectronPP])
def test_an_unbounded_projectron_warns_when_its_growing_factor_gets_large(cls, monkeypatch):
    """Without a budget the Projectron doubles its buffers and K_chol_ (capacity² floats)
    when full, but the size check at each doubling counted the support vectors only: a
    capped Projectron warned about its factor, an unbounded one grew it to any size
    without a word. Threshold lowered from 1 GiB to 100 kB: 97 SVs need capacity 128,
    128² × 8 B = 131 kB (the 128 × 3 SVs alone 3 kB; capacity 64: 34 kB, no warning)."""
    from skewlearn.kernel import budget

    X, y = _toy(n=400, seed=1)
    monkeypatch.setattr(budget, "LARGE_BUFFER", 100_000)
    with pytest.warns(
        RuntimeWarning,
        match=r"128 dense rows of 3 features and a 128 × 128 Cholesky factor.*set budget",
    ) as w:
        est = cls(eta=0.3, gamma=2.0).fit(X, y)
    assert est.n_support_ == 97 and est.K_chol_.shape == (128, 128)
    assert len(w) == 1 and w[0].filename == __file__


@pytest.mark.parametrize("cls", [Projectron, ProjectronPP])
def test_a_large_inverse_gram_matrix_of_a_capped_projectron_warns(cls, monkeypatch):
    """A Projectron with a budget keeps K_chol_, budget × budget floats, from the start:
    budget=12000 took 1.07 GiB (and as much in every pickle) without a word, while KOIL
    warns about its Gram cache of the same size. The matrix now counts in the buffer's
    size warning (threshold lowered here from 1 GiB to 10 kB: 40² × 8 B = 12.8 kB, the
    40 × 2 support vectors alone 640 B)."""
    from skewlearn.kernel import budget

    X, y = _circles(n=60)
    monkeypatch.setattr(budget, "LARGE_BUFFER", 10_000)
    with pytest.warns(
        RuntimeWarning, match=r"40 dense rows of 2 features and a 40 × 40 Cholesky factor"
    ):
        cls(budget=40).fit(X, y)
    with warnings.catch_warnings():  # 30² × 8 B + 30 × 2 × 8 B = 7.7 kB: no warning
        warnings.simplefilter("error", RuntimeWarning)
        cls(budget=30).fit(X, y)


@pytest.mark.parametrize("cls", [Projectron, ProjectronPP])
def test_a_projectron_that_can_never_store_a_support_vector_warns(cls):
    """On an empty support set the projection error of a mistake is sqrt(k(x, x)), 1 for
    rbf: with eta >= 1 every mistake took the (empty) projected step, so the model stayed 0
    whatever the stream, silently. Now the learning call warns, naming eta."""
    X, y = _circles(n=200)
    with pytest.warns(RuntimeWarning, match=r"eta=1.0\).*no support vector.*eta < 1") as w:
        est = cls(eta=1.0).fit(X, y)
    assert w[0].filename == __file__  # at the caller's line
    assert est.n_support_ == 0
    np.testing.assert_array_equal(est.decision_function(X), 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert cls(eta=0.99).fit(X, y).n_support_ > 0


@pytest.mark.parametrize("cls", [Projectron, ProjectronPP])
def test_the_empty_projectron_warning_comes_once_per_model(cls):
    """The warning above repeated at every later learning call (its text carries the
    mistake count, so the default filter showed each one): a River stream, one
    learn_one per row, printed it at every row, and from a line inside skewlearn.
    It now comes once, from the call that made the first such mistakes, at the
    caller's line, whatever the path (partial_fit in chunks, River's learn_one)."""
    from skewlearn.compat.river import RiverClassifier

    X, y = _circles(n=200)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        est = cls(eta=1.0)
        for lo in range(0, 100, 10):
            est.partial_fit(X[lo : lo + 10], y[lo : lo + 10], classes=[0, 1])
        river = RiverClassifier(cls(eta=1.0))
        for row, label in zip(X[:30], y[:30]):
            river.learn_one({"a": float(row[0]), "b": float(row[1])}, int(label))
    got = [r for r in w if "no support vector" in str(r.message)]
    assert len(got) == 2, [str(r.message)[:60] for r in got]
    assert [r.filename for r in got] == [__file__, __file__]
    assert est.n_support_ == 0 and est.counts_[3] > 10


def _as_older_pickle(clf):
    """The state a Projectron pickled before session 14 had: the paper's K^{-1} as
    ``K_inv_`` (built here by inverting the stored SVs' Gram matrix) and no ``K_chol_``."""
    state = clf.__getstate__()
    m = clf.n_support_
    S = clf.support_vectors_
    G = kernel_matrix(S, S, clf.kernel, clf.gamma, clf.degree, clf.coef0)
    kinv = np.zeros_like(state.pop("K_chol_"))
    kinv[:m, :m] = np.linalg.inv(G)
    return {**state, "K_inv_": kinv}


@pytest.mark.parametrize("cls", [Projectron, ProjectronPP])
def test_a_projectron_pickled_with_k_inv_goes_on_learning(cls):
    X, y = _toy(n=200, seed=3)
    whole = cls(eta=0.2, gamma=2.0).fit(X, y)
    first = cls(eta=0.2, gamma=2.0).fit(X[:120], y[:120])
    old = cls.__new__(cls)
    old.__setstate__(_as_older_pickle(first))
    assert not hasattr(old, "K_inv_")
    m = old.n_support_
    np.testing.assert_allclose(old.K_chol_[:m, :m], first.K_chol_[:m, :m], atol=1e-12)
    old.partial_fit(X[120:], y[120:])
    assert old.n_support_ == whole.n_support_
    np.testing.assert_allclose(old.decision_function(X), whole.decision_function(X), atol=1e-10)


def test_an_older_projectron_with_a_singular_gram_matrix_is_refused():
    X, y = _toy(n=200, seed=3)
    clf = Projectron(eta=0.2, gamma=2.0).fit(X, y)
    state = _as_older_pickle(clf)
    state["sv_"][1] = state["sv_"][0]  # two equal SVs: G is singular
    with pytest.raises(ValueError, match=r"K_inv_.*numerically singular.*Refit"):
        Projectron.__new__(Projectron).__setstate__(state)


def _wide_csr(n, d, nnz, seed):
    rng = np.random.default_rng(seed)
    cols = rng.integers(0, d, n * nnz)
    X = sp.csr_matrix(
        (rng.uniform(0, 1, n * nnz), (np.repeat(np.arange(n), nnz), cols)), shape=(n, d)
    )
    return X, np.where(rng.random(n) < 0.35, 1, 0)


def _kernel_learners():
    import skewlearn as sl

    return [
        sl.KOIL(budget_pos=8, budget_neg=8, random_state=0),
        sl.KOIL(budget_pos=8, budget_neg=8, policy="FIFO++", random_state=0),
        RBP(budget=10, random_state=0),
        Forgetron(budget=10),
        sl.NORMA(budget=10),
        sl.NORMA(),
        KernelPerceptron(),
        Projectron(eta=0.3),
        ProjectronPP(eta=0.3, budget=12),
    ]


@pytest.mark.parametrize("model", _kernel_learners(), ids=lambda m: type(m).__name__)
def test_sparse_rbf_norms_are_kept_between_calls_and_exact(monkeypatch, model):
    """The rbf kernel on CSR rows reads the support vectors' squared norms; each compiled
    pass computed them all, O(capacity · d) per call, so a one-row partial_fit or
    decision_function at d = 10^5 cost ms however few non-zeros the row held. They are
    now kept between calls (budget.sv_norms) and recomputed only for a new buffer or
    after a learning call on dense rows (which stores rows without them). The scores
    are those of a model that computes them afresh at every call (a deep copy each
    time), bit for bit."""
    import copy

    from skewlearn.kernel import budget

    X, y = _wide_csr(120, 2_000, 6, seed=4)
    computed = []
    real = budget.sparse_rbf_norms

    def counting(kind, rows, buf, n):
        computed.append(buf.shape[0])
        return real(kind, rows, buf, n)

    monkeypatch.setattr(budget, "sparse_rbf_norms", counting)
    kept = copy.deepcopy(model).partial_fit(X[:4], y[:4], classes=[0, 1])
    # one computation for the buffer, then none while it stays (growing makes a new one)
    buffers = {id(kept.sv_)}
    for i in range(4, 40):
        kept.partial_fit(X[i : i + 1], y[i : i + 1])
        kept.decision_function(X[i : i + 1])
        buffers.add(id(kept.sv_))
    assert 1 <= len(computed) <= len(buffers)
    # exact: the scores of a model that computes them afresh at every call (a deep copy
    # each time), through learning calls on dense rows, which drop them
    fresh = copy.deepcopy(kept)
    for i in range(40, X.shape[0]):
        row = X[i : i + 1].toarray() if i in (60, 61) else X[i : i + 1]
        kept.partial_fit(row, y[i : i + 1])
        fresh = copy.deepcopy(fresh).partial_fit(row, y[i : i + 1])
        np.testing.assert_array_equal(kept.decision_function(X[:9]), fresh.decision_function(X[:9]))
    np.testing.assert_array_equal(kept.decision_function(X), fresh.decision_function(X))


@pytest.mark.parametrize("model", _kernel_learners(), ids=lambda m: type(m).__name__)
def test_sparse_rbf_norms_follow_writes_through_a_shallow_copy(model):
    """``copy.copy(model)`` shares the model's arrays (``sv_``, ``alpha_``, ``counts_``...),
    so learning through one writes the other's support vectors. The norms kept for the
    other (budget.sv_norms, keyed by the model and its buffer) went stale, and its CSR
    scores were not those of its own arrays (KernelPerceptron: off by up to 1.6). Each
    now scores as a deep copy of itself, which computes the norms afresh."""
    import copy

    X, y = _wide_csr(120, 2_000, 6, seed=5)
    model = copy.deepcopy(model).partial_fit(X[:60], y[:60], classes=[0, 1])
    twin = copy.copy(model)
    for learner, other, part in ((twin, model, slice(60, 90)), (model, twin, slice(90, 120))):
        model.decision_function(X[:3])  # both keep norms for the shared buffer
        twin.decision_function(X[:3])
        learner.partial_fit(X[part], y[part])
        for est in (other, learner):
            np.testing.assert_array_equal(
                est.decision_function(X), copy.deepcopy(est).decision_function(X)
            )
