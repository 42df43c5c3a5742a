"""ASLS (seed 004): losses, LASLS, KASLS, KASLS_R and the baselines, against hand-computed
stages, numpy references of the paper's equations, scipy.optimize and scikit-learn."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.base import clone
from sklearn.svm import SVC

from skewlearn import (
    SVMDEC,
    SVMSDC,
    KernelASLS,
    LinearASLS,
    ProximalSVMDEC,
    asls_loss,
    asls_targets,
    sls_loss,
    sls_targets,
    squared_ramp_loss,
)
from skewlearn.batch import asls as asls_module
from tests.naive import asls as naive


def _problem(n=60, d=4, seed=0, pos=0.2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    s = X @ rng.normal(size=d) + 0.7 * rng.normal(size=n)
    y = (s > np.quantile(s, 1 - pos)).astype(int)
    return X, y


def _lam_m(y, r_pos, m_pos, r_neg=1.0, m_neg=1.0):
    t = np.where(y == 1, 1.0, -1.0)
    lam = np.where(t > 0, r_pos / m_pos**2, r_neg / m_neg**2)
    m = np.where(t > 0, m_pos, m_neg)
    return t, lam, m


# =========================================================================== losses
def test_losses_by_hand():
    z = np.array([3.0, 1.0, 0.5, -0.5])
    # Eq. (5), m = 2: z > m keeps z; 0 <= z <= m -> m; z < 0 -> z + m
    np.testing.assert_allclose(asls_targets(z, 2.0), [3.0, 2.0, 2.0, 1.5])
    # Eq. (2), m = 1: 3 -> 3; 1 -> 1; 0.5 -> 1; -0.5 -> 0.5
    np.testing.assert_allclose(sls_targets(z), [3.0, 1.0, 1.0, 0.5])
    # Eq. (4), r = 4, m = 2, tau = 2: (4/4)(2 - z)^2 = [1, 1, 2.25, 6.25]
    np.testing.assert_allclose(asls_loss(z, 2.0, r=4.0, m=2.0), [1.0, 1.0, 2.25, 6.25])
    # Eq. (6), r = 4, m = 2: z > 2 -> 0; z in [0, 2] -> (2 - z)^2; z < 0 -> 4
    np.testing.assert_allclose(squared_ramp_loss(z, r=4.0, m=2.0), [0.0, 1.0, 2.25, 4.0])
    # Eq. (3): the squared ramp 0 / (1 - z)^2 / 1
    np.testing.assert_allclose(squared_ramp_loss(z), [0.0, 0.0, 0.25, 1.0])


def test_sls_is_asls_11_and_converged_form_is_fixed_point():
    rng = np.random.default_rng(0)
    z = rng.normal(scale=2.0, size=200)
    tau = rng.normal(size=200)
    np.testing.assert_array_equal(sls_loss(z, tau), asls_loss(z, tau, 1.0, 1.0))
    np.testing.assert_array_equal(sls_targets(z), asls_targets(z, 1.0))
    np.testing.assert_allclose(asls_targets(z, 1.7), naive.next_targets(z, np.full(200, 1.7)))
    for r, m in [(1.0, 1.0), (4.0, 2.0), (10.0, 3.0)]:
        # at the fixed point of Eq. (5) the stage loss (4) is the converged loss (6)
        np.testing.assert_allclose(
            asls_loss(z, asls_targets(z, m), r, m), squared_ramp_loss(z, r, m), atol=1e-12
        )
    # per-class arrays broadcast
    np.testing.assert_allclose(
        squared_ramp_loss([-1.0, -1.0], r=[4.0, 1.0], m=[2.0, 1.0]), [4.0, 1.0]
    )


# =========================================================================== LASLS
def test_lasls_targets_follow_eq5_by_hand():
    # x1 = 1 (t=+1), x2 = -1 (t=-1); Xa = [[1, 1], [-1, 1]]; nu = 1; (r+, m+) = (4, 2),
    # so Lambda = diag(4/2^2, 1) = I and A = I/nu + Xa'Xa = [[3, 0], [0, 3]].
    # Stage 0: tau = (1, 1), Gamma = (1, -1), Xa'Gamma = (2, 0) -> w = (2/3, 0);
    #   f = (2/3, -2/3), z = (2/3, 2/3); Eq. (5): pos 2/3 + min(2, 2 - 2/3) = 2,
    #   neg 2/3 + (1 - 2/3) = 1 -> tau = (2, 1), change 1.
    # Stage 1: Gamma = (2, -1), Xa'Gamma = (3, 1) -> w = (1, 1/3); f = (4/3, -2/3),
    #   z = (4/3, 2/3) -> tau = (4/3 + 2/3, 2/3 + 1/3) = (2, 1): no change -> stop.
    X = np.array([[1.0], [-1.0]])
    y = np.array([1, 0])
    clf = LinearASLS(r_pos=4.0, m_pos=2.0, nu=1.0, tol=0.0).fit(X, y)
    assert clf.n_stages_ == 2 and clf.converged_
    np.testing.assert_allclose(clf.target_changes_, [1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(clf.targets_, [2.0, 1.0])
    np.testing.assert_allclose(clf.weights_, [1.0, 1.0 / 3.0])
    # with m+ = 1 (SLS) stage 0 is already a fixed point: z = 2/3 -> tau = 1
    sls = LinearASLS(r_pos=1.0, nu=1.0, tol=0.0).fit(X, y)
    assert sls.n_stages_ == 1
    np.testing.assert_allclose(sls.weights_, [2.0 / 3.0, 0.0], atol=1e-15)


@pytest.mark.parametrize("solver", ["primal", "smw"])
@pytest.mark.parametrize(
    ("r_pos", "m_pos", "r_neg", "m_neg"),
    [(1.0, 1.0, 1.0, 1.0), (3.0, 1.0, 1.0, 1.0), (4.0, 2.0, 1.0, 1.0), (3.0, 1.5, 2.0, 0.8)],
)
def test_lasls_matches_numpy_stagewise_reference(solver, r_pos, m_pos, r_neg, m_neg):
    """Six stages against tests/naive/asls.py. The last case gives the negatives their own
    (r-, m-): the paper always uses (1, 1) and so did every test, so r_neg read as 1
    survived them (a mutation sweep, session 27)."""
    X, y = _problem()
    t, lam, m = _lam_m(y, r_pos, m_pos, r_neg, m_neg)
    Xa = naive.augment(X)
    ref = naive.lasls_eq8 if solver == "primal" else naive.lasls_eq9

    def fit(Gamma):
        w = ref(Xa, lam, 2.0, Gamma)
        return w, Xa @ w

    w_ref, history = naive.stagewise(fit, t, m, 6)
    clf = LinearASLS(
        r_pos=r_pos,
        m_pos=m_pos,
        r_neg=r_neg,
        m_neg=m_neg,
        nu=2.0,
        tol=0.0,
        max_stages=6,
        solver=solver,
    )
    clf.fit(X, y)
    assert clf.n_stages_ == 6 and clf.solver_ == solver
    np.testing.assert_allclose(clf.weights_, w_ref, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(clf.targets_, history[-1], rtol=1e-8, atol=1e-10)


def test_lasls_11_is_sls():
    """(r, m) = (1, 1): every stage uses Λ = I and Eq. (2)'s targets (LSLS)."""
    X, y = _problem(seed=1)
    t = np.where(y == 1, 1.0, -1.0)
    Xa = naive.augment(X)
    tau = np.ones(len(t))
    for _ in range(5):
        w = np.linalg.solve(np.eye(5) / 3.0 + Xa.T @ Xa, Xa.T @ (t * tau))  # Eq. (8), Λ = I
        tau = sls_targets(t * (Xa @ w))  # Eq. (2)
    clf = LinearASLS(r_pos=1.0, nu=3.0, tol=0.0, max_stages=5).fit(X, y)
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-9)


@pytest.mark.parametrize("stages", [1, 3])
def test_lasls_closed_form_minimises_objective7(stages):
    """Each stage's closed form is the minimiser of Eq. (7) for that stage's targets."""
    X, y = _problem(n=50, d=3, seed=2)
    clf = LinearASLS(r_pos=3.0, m_pos=1.5, nu=5.0, tol=0.0, max_stages=stages).fit(X, y)
    t, lam, _ = _lam_m(y, 3.0, 1.5)
    Gamma = t * clf.targets_
    Xa = naive.augment(X)

    def objective(w):  # Eq. (7)
        res = Xa @ w - Gamma
        return 0.5 * w @ w + 0.5 * 5.0 * res @ (lam * res)

    def grad(w):
        return w + 5.0 * Xa.T @ (lam * (Xa @ w - Gamma))

    opt = minimize(objective, np.zeros(4), jac=grad, method="BFGS", options={"gtol": 1e-11})
    np.testing.assert_allclose(clf.weights_, opt.x, rtol=1e-6, atol=1e-8)


def test_smw_and_primal_agree_dense_sparse_and_wide():
    X, y = _problem(n=40, d=6, seed=3)
    a = LinearASLS(m_pos=1.4, solver="primal").fit(X, y)
    b = LinearASLS(m_pos=1.4, solver="smw").fit(X, y)
    c = LinearASLS(m_pos=1.4, solver="smw").fit(sp.csr_matrix(X), y)
    e = LinearASLS(m_pos=1.4, solver="primal").fit(sp.csr_matrix(X), y)
    for other in (b, c, e):
        np.testing.assert_allclose(other.weights_, a.weights_, rtol=1e-8, atol=1e-10)
    # d >> N: "auto" takes the SMW form and agrees with Eq. (8)
    Xw = np.random.default_rng(4).normal(size=(30, 200))
    yw = np.r_[np.ones(6, int), np.zeros(24, int)]
    auto = LinearASLS().fit(Xw, yw)
    assert auto.solver_ == "smw"
    primal = LinearASLS(solver="primal").fit(Xw, yw)
    np.testing.assert_allclose(auto.weights_, primal.weights_, rtol=1e-7, atol=1e-10)
    assert LinearASLS().fit(X, y).solver_ == "primal"


def test_balanced_ramp_is_class_ratio_and_cost_sensitivity():
    X, y = _problem(n=200, seed=5, pos=0.1)
    clf = LinearASLS().fit(X, y)
    assert clf.r_pos_ == pytest.approx(180 / 20)
    tpr = lambda c: c.predict(X[y == 1]).mean()  # noqa: E731
    assert tpr(clf) > tpr(LinearASLS(r_pos=1.0).fit(X, y))


def test_factored_once_per_fit(monkeypatch):
    calls = []
    real = asls_module.dpotrf

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(asls_module, "dpotrf", counting)
    X, y = _problem()
    for est in (
        LinearASLS(max_stages=8, tol=0.0),
        LinearASLS(max_stages=8, tol=0.0, solver="smw"),
        KernelASLS(max_stages=8, tol=0.0),
        KernelASLS(max_stages=8, tol=0.0, reduced_rate=0.5, random_state=0),
    ):
        calls.clear()
        est.fit(X, y)
        assert est.n_stages_ == 8 and len(calls) == 1


def test_pos_label_first_class_flips_sign():
    X, y = _problem(seed=6)
    ref = LinearASLS().fit(X, y)
    flipped = LinearASLS(pos_label="a").fit(X, np.array(["b", "a"])[y])
    np.testing.assert_allclose(flipped.decision_function(X), -ref.decision_function(X))
    np.testing.assert_allclose(flipped.coef_, -ref.coef_)


# =========================================================================== KASLS
@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
def test_gram_blocks_follow_skewlearn_kernels(kernel):
    """The fast Gram blocks use the conventions of skewlearn.kernels with γ = 1/σ²."""
    from skewlearn.kernels import kernel_matrix

    X, _ = _problem(n=30, seed=20)
    got = asls_module._kernel(X, X[:7], kernel, 1.7, 2, 0.5)
    ref = kernel_matrix(X, X[:7], kernel, gamma=1 / 1.7**2, degree=2, coef0=0.5)
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)
    if kernel == "rbf":
        np.testing.assert_allclose(got, naive.gaussian_kernel(X, X[:7], 1.7), rtol=1e-10)


@pytest.mark.parametrize(("r_pos", "m_pos"), [(1.0, 1.0), (4.0, 1.4)])
def test_kasls_matches_eq12_reference(r_pos, m_pos):
    X, y = _problem(n=50, seed=7)
    t, lam, m = _lam_m(y, r_pos, m_pos)
    K = naive.gaussian_kernel(X, X, 1.5)

    def fit(Gamma):
        alpha, b = naive.kasls_eq12(K, lam, 4.0, Gamma)
        return (alpha, b), K @ alpha + b

    (alpha, b), history = naive.stagewise(fit, t, m, 5)
    clf = KernelASLS(r_pos=r_pos, m_pos=m_pos, nu=4.0, sigma=1.5, tol=0.0, max_stages=5)
    clf.fit(X, y)
    np.testing.assert_allclose(clf.dual_coef_, alpha, rtol=1e-7, atol=1e-10)
    assert clf.intercept_ == pytest.approx(b, rel=1e-8)
    np.testing.assert_allclose(clf.targets_, history[-1], rtol=1e-8)
    assert clf.support_ratio_ == 1.0
    Xt = np.random.default_rng(0).normal(size=(7, 4))
    np.testing.assert_allclose(
        clf.decision_function(Xt), naive.gaussian_kernel(Xt, X, 1.5) @ alpha + b, rtol=1e-8
    )


def test_kasls_linear_kernel_is_lasls_smw():
    """K + ee' = Xa Xa' for the linear kernel: Eq. (12) is the dual of Eqs. (8)/(9)."""
    X, y = _problem(seed=8)
    k = KernelASLS(kernel="linear", m_pos=1.4, nu=2.0).fit(X, y)
    lin = LinearASLS(m_pos=1.4, nu=2.0).fit(X, y)
    np.testing.assert_allclose(k.decision_function(X), lin.decision_function(X), rtol=1e-8)


def test_off_training_filter():
    X, y = _problem(n=120, seed=9)
    full = KernelASLS(m_pos=1.4, nu=10.0, sigma=2.0).fit(X, y)
    theta = float(np.quantile(np.abs(full.dual_coef_), 0.4))
    sparse_ = KernelASLS(m_pos=1.4, nu=10.0, sigma=2.0, theta=theta).fit(X, y)
    keep = np.abs(full.dual_coef_) >= theta
    assert sparse_.support_ratio_ == pytest.approx(keep.mean())
    assert 0.5 < sparse_.support_ratio_ < 0.7
    np.testing.assert_array_equal(sparse_.support_, np.flatnonzero(keep))
    assert sparse_.intercept_ == full.intercept_  # b keeps its trained value
    K = naive.gaussian_kernel(X, X[keep], 2.0)
    np.testing.assert_allclose(
        sparse_.decision_function(X), K @ full.dual_coef_[keep] + full.intercept_, rtol=1e-9
    )


# =========================================================================== KASLS_R
@pytest.mark.parametrize("eta", [0.2, 0.5, 0.33])  # 0.33: ηN = 19.8, N_R = ⌈ηN⌉ = 20
def test_kaslsr_matches_eq17_and_eq18(eta):
    X, y = _problem(n=60, seed=10)
    t, lam, m = _lam_m(y, 3.0, 1.4)
    clf = KernelASLS(
        r_pos=3.0,
        m_pos=1.4,
        nu=3.0,
        sigma=1.5,
        tol=0.0,
        max_stages=4,
        reduced_rate=eta,
        random_state=0,
    ).fit(X, y)
    assert len(clf.support_) == int(np.ceil(eta * 60))
    assert clf.support_ratio_ == pytest.approx(len(clf.support_) / 60)
    KR = naive.gaussian_kernel(X, X[clf.support_], 1.5)
    for eq in (naive.kaslsr_eq17, naive.kaslsr_eq18):

        def fit(Gamma, eq=eq):
            ub = eq(KR, lam, 3.0, Gamma)
            return ub, KR @ ub[:-1] + ub[-1]

        ub, _ = naive.stagewise(fit, t, m, 4)
        np.testing.assert_allclose(clf.dual_coef_, ub[:-1], rtol=1e-6, atol=1e-9)
        assert clf.intercept_ == pytest.approx(ub[-1], rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
def test_blocked_kaslsr_equals_eq18_over_many_blocks(monkeypatch, kernel):
    """The kernel blocks, the syrk row blocks and the per-stage passes split the rows into
    pieces (7, 5 and 2 rows here, ragged ends included): the result is still Eq. (18)
    on the whole K_R, and the same as one block."""
    X, y = _problem(n=53, seed=21)
    t, lam, m = _lam_m(y, 3.0, 1.4)
    params = dict(r_pos=3.0, m_pos=1.4, nu=3.0, sigma=1.5, tol=0.0, max_stages=4)
    est = KernelASLS(kernel=kernel, degree=2, reduced_rate=0.3, random_state=0, **params)
    one = est.fit(X, y).dual_coef_.copy()
    basis = est.support_
    monkeypatch.setattr(asls_module, "_GRAM_ROWS", 5)
    monkeypatch.setattr(asls_module, "_PASS_BYTES", 7 * 8 * (len(basis) + 1))
    many = est.fit(X, y)
    np.testing.assert_array_equal(many.support_, basis)
    from skewlearn.kernels import kernel_matrix

    KR = kernel_matrix(X, X[basis], kernel, gamma=1 / 1.5**2, degree=2, coef0=1.0)

    def fit(Gamma):
        ub = naive.kaslsr_eq18(KR, lam, 3.0, Gamma)
        return ub, KR @ ub[:-1] + ub[-1]

    ub, history = naive.stagewise(fit, t, m, 4)
    np.testing.assert_allclose(many.dual_coef_, ub[:-1], rtol=1e-7, atol=1e-9)
    assert many.intercept_ == pytest.approx(ub[-1], rel=1e-7, abs=1e-9)
    np.testing.assert_allclose(many.targets_, history[-1], rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(many.dual_coef_, one, rtol=1e-10, atol=1e-12)


def test_kaslsr_reduced_set_is_seeded():
    X, y = _problem(n=80, seed=11)
    a = KernelASLS(reduced_rate=0.3, random_state=1).fit(X, y)
    b = KernelASLS(reduced_rate=0.3, random_state=1).fit(X, y)
    c = KernelASLS(reduced_rate=0.3, random_state=2).fit(X, y)
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    assert not np.array_equal(a.support_, c.support_)


def test_kaslsr_full_rate_is_lasls_on_kernel_features_not_kasls():
    """η = 1: the basis is the whole training set, and Eq. (15) is Eq. (7) with X = K.

    Eq. (15) regularises u'u (an RBF network), Eq. (10) the RKHS norm α'Kα, so KASLS_R at
    η = 1 is a different model from KASLS (see docs/decisions.md) — checked here too.
    """
    X, y = _problem(n=50, seed=12)
    red = KernelASLS(m_pos=1.4, nu=2.0, sigma=1.5, reduced_rate=1.0, random_state=0).fit(X, y)
    np.testing.assert_array_equal(red.support_, np.arange(50))
    assert red.support_ratio_ == 1.0
    K = naive.gaussian_kernel(X, X, 1.5)
    lin = LinearASLS(m_pos=1.4, nu=2.0).fit(K, y)
    np.testing.assert_allclose(red.dual_coef_, lin.weights_[:-1], rtol=1e-7, atol=1e-10)
    assert red.intercept_ == pytest.approx(lin.weights_[-1], rel=1e-7)
    full = KernelASLS(m_pos=1.4, nu=2.0, sigma=1.5).fit(X, y)
    assert np.max(np.abs(full.decision_function(X) - red.decision_function(X))) > 1e-3


# =========================================================================== baselines
def test_proximal_svm_dec_matches_fung_mangasarian():
    X, y = _problem(n=80, seed=13)
    d = np.where(y == 1, 1.0, -1.0)
    cost = np.where(y == 1, 5.0, 2.0)
    w, gamma = naive.proximal_svm_dec(X, d, cost)
    clf = ProximalSVMDEC(C_pos=5.0, C_neg=2.0).fit(X, y)
    np.testing.assert_allclose(clf.decision_function(X), X @ w - gamma, rtol=1e-9)
    # = one LS stage of LASLS with nu = C-, r+ = C+/C-
    one = LinearASLS(r_pos=2.5, nu=2.0, max_stages=1).fit(X, y)
    np.testing.assert_allclose(clf.weights_, one.weights_, rtol=1e-9)
    # nonlinear PSVM: A replaced by K(A, A')
    K = naive.gaussian_kernel(X, X, 2.0)
    v, gk = naive.proximal_svm_dec(K, d, cost)
    kern = ProximalSVMDEC(C_pos=5.0, C_neg=2.0, kernel="rbf", sigma=2.0).fit(X, y)
    np.testing.assert_allclose(kern.decision_function(X), K @ v - gk, rtol=1e-7, atol=1e-9)
    assert ProximalSVMDEC().fit(X, y).C_pos_ == pytest.approx(64 / 16)


def test_proximal_svm_dec_smw_form_on_wide_data():
    """N < d + 1: "auto" solves the N-square SMW form (Eq. 9), equal to the primal
    (d+1)-square one and to the direct formula; tall data stays primal."""
    rng = np.random.default_rng(21)
    X = rng.normal(size=(30, 120))
    y = (X[:, 0] + 0.3 * rng.normal(size=30) > 0.8).astype(int)
    d = np.where(y == 1, 1.0, -1.0)
    cost = np.where(y == 1, 4.0, 0.5)
    w, gamma = naive.proximal_svm_dec(X, d, cost)
    auto = ProximalSVMDEC(C_pos=4.0, C_neg=0.5).fit(X, y)
    primal = ProximalSVMDEC(C_pos=4.0, C_neg=0.5, solver="primal").fit(X, y)
    assert auto.solver_ == "smw" and primal.solver_ == "primal"
    np.testing.assert_allclose(auto.weights_, primal.weights_, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(auto.decision_function(X), X @ w - gamma, rtol=1e-8)
    tall = ProximalSVMDEC().fit(*_problem(n=80, seed=13))
    assert tall.solver_ == "primal"
    assert ProximalSVMDEC(kernel="rbf").fit(X, y).solver_ == "primal"
    with pytest.raises(ValueError, match=r"solver='smw' is for kernel='linear'.*'auto'"):
        ProximalSVMDEC(kernel="rbf", solver="smw").fit(X, y)


@pytest.mark.parametrize(
    "make",
    [
        lambda: ProximalSVMDEC(kernel="rbf"),
        lambda: ProximalSVMDEC(kernel="poly", degree=2),
        lambda: KernelASLS(),
        lambda: KernelASLS(reduced_rate=0.5, random_state=0),
    ],
    ids=["PSVM-rbf", "PSVM-poly", "KASLS", "KASLS_R"],
)
def test_kernel_models_keep_their_own_copy_of_the_rows_they_expand_on(make):
    """The kernel PSVM kept the caller's training array itself as ``basis_`` (a validated
    C-ordered float64 X is not copied), so an in-place edit of that array after the fit
    (``X -= X.mean(axis=0)``, a reused buffer) silently changed the model's scores;
    KernelASLS already kept ``X[support_]``, a copy."""
    X, y = _problem(n=60, seed=3)
    X = np.ascontiguousarray(X, dtype=np.float64)
    est = make().fit(X, y)
    rows = X[:7].copy()
    before = est.decision_function(rows)
    X *= 3.0
    X += 1.0
    np.testing.assert_array_equal(est.decision_function(rows), before)


def test_svmdec_is_svc_with_class_costs():
    X, y = _problem(n=120, seed=14)
    clf = SVMDEC(C_pos=6.0, C_neg=0.5, sigma=2.0).fit(X, y)
    ref = SVC(C=0.5, class_weight={1: 12.0, 0: 1.0}, gamma=0.25).fit(X, y)
    np.testing.assert_allclose(clf.decision_function(X), ref.decision_function(X), rtol=1e-6)
    assert clf.support_ratio_ == pytest.approx(len(ref.support_) / 120)
    bal = SVMDEC(kernel="linear").fit(X, y)
    assert bal.C_pos_ == pytest.approx(96 / 24)


@pytest.mark.parametrize("reduced_rate", [None, 0.3])
def test_a_filter_that_drops_every_pattern_warns(reduced_rate):
    """theta above every |coefficient| left the constant b as the decision function (one
    class predicted everywhere), silently; the fit now warns with the largest |coef|."""
    X, y = _problem(n=80, seed=9)
    params = {"nu": 10.0, "sigma": 2.0, "reduced_rate": reduced_rate, "random_state": 0}
    full = KernelASLS(**params).fit(X, y)
    top = float(np.abs(full.dual_coef_).max())
    with pytest.warns(UserWarning, match=r"theta=.* drops every expansion coefficient"):
        est = KernelASLS(theta=2 * top, **params).fit(X, y)
    assert est.support_ratio_ == 0.0
    np.testing.assert_array_equal(est.decision_function(X), full.intercept_)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        KernelASLS(theta=top, **params).fit(X, y)  # keeps the largest: no warning


def test_svmsdc_is_smote_then_costed_svc():
    from imblearn.over_sampling import SMOTE

    X, y = _problem(n=150, seed=15, pos=0.1)
    clf = SVMSDC(C_pos="balanced", sampling_strategy=0.5, random_state=3, sigma=2.0).fit(X, y)
    t = np.where(y == 1, 1.0, -1.0)
    Xr, tr = SMOTE(sampling_strategy={1.0: 68}, random_state=3).fit_resample(X, t)
    assert (tr > 0).sum() == 68  # ceil(0.5 * 135)
    assert clf.C_pos_ == pytest.approx(135 / 68)
    ref = SVC(C=1.0, class_weight={1.0: 135 / 68, -1.0: 1.0}, gamma=0.25).fit(Xr, tr)
    np.testing.assert_allclose(clf.decision_function(X), ref.decision_function(X), rtol=1e-6)
    # support vectors over the rows the SVM saw: 135 negatives + 68 positives after SMOTE
    assert clf.support_ratio_ == len(ref.support_) / 203
    # already balanced enough: SMOTE is left out
    Xb, yb = _problem(n=40, seed=16, pos=0.5)
    assert SVMSDC().fit(Xb, yb).pipeline_.named_steps["smote"] == "passthrough"


def test_svmsdc_with_fewer_positives_than_k_neighbors_plus_one_uses_them_all():
    """SMOTE needs k_neighbors < the number of positives; with 3 positives and the default
    k_neighbors=5 each synthetic positive interpolates towards one of the other 2 (imblearn
    would raise "Expected n_neighbors <= n_samples_fit"). Reference: imblearn's SMOTE with
    k_neighbors=2, then the costed SVC."""
    from imblearn.over_sampling import SMOTE

    X, y = _problem(n=60, seed=18, pos=0.1)
    y = np.zeros_like(y)
    y[[3, 11, 40]] = 1
    clf = SVMSDC(sampling_strategy=0.5, random_state=4, sigma=2.0).fit(X, y)
    t = np.where(y == 1, 1.0, -1.0)
    Xr, tr = SMOTE(sampling_strategy={1.0: 29}, k_neighbors=2, random_state=4).fit_resample(X, t)
    ref = SVC(C=1.0, class_weight={1.0: 57 / 29, -1.0: 1.0}, gamma=0.25).fit(Xr, tr)
    np.testing.assert_allclose(clf.decision_function(X), ref.decision_function(X), rtol=1e-6)


def test_svmsdc_with_one_positive_says_that_smote_was_left_out():
    """SMOTE interpolates between positives, so with one positive (a fold of a rare class)
    SVMSDC fitted SVM-DEC without a word; it now warns, and the model is SVM-DEC's."""
    X, y = _problem(n=60, seed=17, pos=0.1)
    y = np.zeros_like(y)
    y[7] = 1
    with pytest.warns(UserWarning, match=r"1 positive.*SMOTE.*at least 2.*SVM-DEC"):
        clf = SVMSDC(random_state=0).fit(X, y)
    assert clf.pipeline_.named_steps["smote"] == "passthrough"
    np.testing.assert_array_equal(clf.decision_function(X), SVMDEC().fit(X, y).decision_function(X))


@pytest.mark.parametrize("offset", [1e4, 1e6, 1e8])
def test_sigma_scale_of_sparse_input_equals_dense(offset):
    # sigma = sqrt(d Var X); for CSR the variance was E[x^2] - E[x]^2, which cancels:
    # at 1e8 it was <= 0 and sigma silently became 1
    rng = np.random.default_rng(0)
    X = offset + rng.normal(size=(200, 4))
    y = (X[:, 0] - offset > 1.0).astype(int)
    want = np.sqrt(X.shape[1] * np.var(X))
    for est in (SVMDEC(), SVMSDC(random_state=0)):
        assert est.fit(sp.csr_matrix(X), y).sigma_ == pytest.approx(want, rel=1e-12)
    # the dense path is unchanged: X.var() itself
    assert asls_module._resolve_sigma("scale", X) == np.sqrt(X.shape[1] * X.var())


@pytest.mark.parametrize("cls", [SVMDEC, SVMSDC])
def test_svm_baselines_score_either_layout_after_either_fit(cls, monkeypatch):
    # a dense fit refused sparse input at predict time (scikit-learn's "cannot use sparse
    # input in 'SVC' trained on dense data"); every other sparse-capable learner takes it
    X, y = _problem(n=120, seed=17)
    X[np.abs(X) < 0.5] = 0.0
    A = sp.csr_matrix(X)
    A.data[::4] = 0.0  # and stored zeros
    Xd = A.toarray()
    params = {"random_state": 0} if cls is SVMSDC else {}
    dense = cls(**params).fit(Xd, y)
    sparse = cls(**params).fit(A, y)
    assert not sp.issparse(dense.svc_.support_vectors_)
    assert sp.issparse(sparse.svc_.support_vectors_)
    want = dense.decision_function(Xd)
    np.testing.assert_allclose(dense.decision_function(A), want, rtol=1e-9)
    np.testing.assert_array_equal(dense.predict(A), dense.predict(Xd))
    np.testing.assert_allclose(sparse.decision_function(Xd), sparse.decision_function(A), rtol=1e-9)
    np.testing.assert_array_equal(sparse.predict(Xd), sparse.predict(A))
    # densified in blocks of rows: 7 rows of 4 features per block, same scores
    monkeypatch.setattr(asls_module, "_PASS_BYTES", 8 * 4 * 7)
    np.testing.assert_array_equal(dense.decision_function(A), dense.decision_function(Xd))


def _with_repeats(X: np.ndarray) -> sp.csr_matrix:
    """X as a CSR matrix that stores every value as two halves in the same column (legal
    in SciPy: ``toarray`` and every product add them up)."""
    n, d = X.shape
    data = np.repeat(X.ravel() / 2.0, 2)
    indices = np.repeat(np.tile(np.arange(d), n), 2)
    A = sp.csr_matrix((data, indices, np.arange(0, 2 * n * d + 1, 2 * d)), shape=X.shape)
    assert not A.has_canonical_format and np.array_equal(A.toarray(), X)
    return A


@pytest.mark.parametrize("cls", [SVMDEC, SVMSDC])
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_svm_baselines_read_repeated_csr_entries_as_their_sum(cls, kernel):
    """Session 11: libsvm's sparse dot product assumes one entry per column, so a CSR
    matrix with repeated entries (which SciPy sums) gave another model than its dense
    equal (decision values moved by up to 0.9 in the probe that found it)."""
    X, y = _problem(n=80, seed=5)
    A = _with_repeats(X)
    params = {"kernel": kernel, **({"random_state": 0} if cls is SVMSDC else {})}
    want = cls(**params).fit(sp.csr_matrix(X), y)
    got = cls(**params).fit(A, y)
    np.testing.assert_allclose(got.decision_function(X), want.decision_function(X), atol=1e-9)
    np.testing.assert_allclose(want.decision_function(A), want.decision_function(X), atol=1e-9)
    assert got.sigma_ == want.sigma_


@pytest.mark.parametrize(
    "est",
    [
        ProximalSVMDEC(kernel="rbf", C_pos=3.0),
        ProximalSVMDEC(kernel="poly", degree=2),
        ProximalSVMDEC(),
        KernelASLS(sigma=2.0),
        KernelASLS(reduced_rate=0.3, random_state=0),
    ],
    ids=["psvm-rbf", "psvm-poly", "psvm-linear", "kasls", "kasls-r"],
)
def test_a_rows_score_does_not_depend_on_its_batch_or_layout(est, monkeypatch):
    # K(X, basis) @ w went through BLAS, whose blocking and vector paths depend on the
    # number of rows and the alignment: scores moved by ~1e-16 between X[:50] and X,
    # or C and Fortran order (docs/reliability.md promises bit-identical layouts)
    monkeypatch.setattr(asls_module, "_PASS_BYTES", 8 * 240 * 13)  # blocks of 13 rows
    X, y = _problem(n=240, d=5, seed=1)
    est.fit(X, y)
    rng = np.random.default_rng(2)
    Z = rng.normal(size=(101, 5))
    want = est.decision_function(Z)
    raw = np.empty(Z.size + 1)  # a copy 8 bytes off the usual alignment
    shifted = raw[1:].reshape(Z.shape)
    shifted[...] = Z
    wide = np.zeros((101, 10))
    wide[:, ::2] = Z
    for other in (np.asfortranarray(Z), shifted, wide[:, ::2], Z.tolist()):
        np.testing.assert_array_equal(est.decision_function(other), want)
    for lo, hi in [(0, 50), (0, 1), (12, 14), (7, 101)]:
        np.testing.assert_array_equal(est.decision_function(Z[lo:hi]), want[lo:hi])
    for i in range(0, 101, 10):
        np.testing.assert_array_equal(est.decision_function(Z[i : i + 1]), want[i : i + 1])
    refit = type(est)(**est.get_params()).fit(np.asfortranarray(X), y)
    np.testing.assert_array_equal(refit.decision_function(Z), want)


@pytest.mark.parametrize("offset", [0.0, 1e6], ids=["rbf", "rbf-centred"])
@pytest.mark.parametrize(
    "est",
    [KernelASLS(reduced_rate=0.3, random_state=0), ProximalSVMDEC(kernel="rbf")],
    ids=["kasls-r", "psvm-rbf"],
)
def test_scoring_many_rows_makes_no_copy_of_them(est, offset):
    """The kernel scores are computed in blocks of rows, but the squared row norms (X * X)
    and, for features far from 0, the shifted rows (X - centre) were made for the whole X
    first: scoring 10⁶ rows needed one or two more arrays of the size of X (peak traced
    memory 81 MiB for a 76 MiB X, 157 MiB when shifted). Now every step is per block."""
    import tracemalloc

    X, y = _problem(n=200, d=20, seed=3)
    est.fit(X + offset, y)
    Z = np.random.default_rng(4).normal(size=(100_000, 20)) + offset  # 15.3 MiB
    want = np.concatenate([est.decision_function(Z[i : i + 1]) for i in range(0, 100_000, 4999)])
    tracemalloc.start()
    try:
        got = est.decision_function(Z)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(got[::4999], want)  # and the same bits as rows scored alone
    assert peak < Z.nbytes / 4, f"{peak / Z.nbytes:.2f} × the size of X"


@pytest.mark.parametrize(
    "est",
    [
        KernelASLS(sigma=2.0),
        KernelASLS(kernel="poly", degree=2, reduced_rate=0.5, random_state=0),
        ProximalSVMDEC(kernel="rbf"),
        ProximalSVMDEC(kernel="poly", degree=2),
    ],
    ids=["kasls-rbf", "kasls-r-poly", "psvm-rbf", "psvm-poly"],
)
def test_a_fitted_kernel_model_scores_with_the_kernel_it_learned(est):
    """``kernel``, ``degree`` and ``coef0`` were read from the parameters when scoring, so
    ``set_params`` after ``fit`` scored the learned coefficients with another kernel,
    silently (the online learners' ``fit_intercept`` had the same fault, session 16). The
    model scores with the kernel it learned with until it is fitted again; a refit takes
    the new settings."""
    X, y = _problem(n=80, d=3, seed=4)
    want = est.fit(X, y).decision_function(X)
    est.set_params(kernel="linear", degree=5, coef0=7.0)
    np.testing.assert_array_equal(est.decision_function(X), want)
    np.testing.assert_array_equal(est.predict(X), np.where(want > 0, 1, 0))
    refit = clone(est).fit(X, y).decision_function(X)
    np.testing.assert_array_equal(est.fit(X, y).decision_function(X), refit)
    assert not np.allclose(refit, want)


# =========================================================================== errors
@pytest.mark.parametrize(
    ("est", "match"),
    [
        (LinearASLS(nu=0.0), r"'nu' parameter of LinearASLS must be a float in the range \(0"),
        (LinearASLS(r_pos="auto"), r"'r_pos' parameter .*'balanced'}. Got 'auto'"),
        (LinearASLS(m_pos=-1.0), r"'m_pos' parameter of LinearASLS .* Got -1.0"),
        (LinearASLS(max_stages=0), r"'max_stages' parameter .* range \[1, inf\)"),
        (LinearASLS(solver="qr"), r"'solver' parameter .*'smw'.* Got 'qr'"),
        (KernelASLS(reduced_rate=1.5), r"'reduced_rate' parameter .*1.0\] or None. Got 1.5"),
        (KernelASLS(reduced_rate=0.0), r"'reduced_rate' parameter .* Got 0.0"),
        (KernelASLS(kernel="sigmoid"), r"'kernel' parameter .* Got 'sigmoid'"),
        (KernelASLS(sigma=-2.0), r"'sigma' parameter .* Got -2.0"),
        (KernelASLS(theta=-1e-3), r"'theta' parameter .* Got -0.001"),
        (SVMDEC(C_pos=0), r"'C_pos' parameter of SVMDEC"),
        (SVMSDC(sampling_strategy=2.0), r"'sampling_strategy' parameter .* Got 2.0"),
        (ProximalSVMDEC(C_neg=-1), r"'C_neg' parameter of ProximalSVMDEC"),
    ],
)
def test_bad_params_raise(est, match):
    X, y = _problem(n=30)
    with pytest.raises(ValueError, match=match):
        est.fit(X, y)


def test_multiclass_and_sparse_kernel_errors():
    X, y = _problem(n=30)
    with pytest.raises(ValueError, match="Only binary classification"):
        KernelASLS().fit(X, np.arange(30) % 3)
    with pytest.raises(TypeError, match=r"[Ss]parse"):
        KernelASLS().fit(sp.csr_matrix(X), y)


@pytest.mark.parametrize("offset", [1e6, 1e7])
@pytest.mark.parametrize(
    "est",
    [
        KernelASLS(nu=10.0),
        KernelASLS(nu=10.0, reduced_rate=0.3, random_state=0),
        ProximalSVMDEC(kernel="rbf", C_neg=10.0),
    ],
    ids=["KASLS", "KASLS_R", "PSVM"],
)
def test_rbf_models_of_features_far_from_zero_equal_the_centred_ones(est, offset):
    """The Gaussian kernel depends on x − y only, but the Gram blocks and the scores used
    ‖x‖² + ‖y‖² − 2xᵀy, which cancels far from 0: at an offset of 1e6 KASLS's scores moved
    by 0.02 from those of the same rows centred, and at 1e7 the fit failed with "not
    positive definite". Reference: the model fitted on the centred rows (same sigma)."""
    X, y = _problem(n=120, d=3, seed=4)
    sigma = float(np.sqrt(3.0))
    centred = clone(est).set_params(sigma=sigma).fit(X, y)
    far = clone(est).set_params(sigma=sigma).fit(X + offset, y)
    np.testing.assert_allclose(
        far.decision_function(X + offset), centred.decision_function(X), rtol=0, atol=1e-8
    )
    np.testing.assert_array_equal(far.predict(X + offset), centred.predict(X))


@pytest.mark.parametrize(
    ("est", "wide", "size", "match"),
    [
        (LinearASLS(), False, 8 * (5 * 5 + 60 * 5), r"5 × 5 matrix of Eq\. \(8\).*Reduce the"),
        (LinearASLS(), True, 8 * 20 * 20, r"20 × 20 matrix X̄X̄' \+ W⁻¹ of Eq\. \(9\)"),
        (LinearASLS(solver="primal"), True, 8 * (41 * 41 + 20 * 41), r"solver='smw' solves"),
        (KernelASLS(), False, 8 * 60 * 60, r"60 × 60 kernel matrix.*reduced_rate=η"),
        (KernelASLS(reduced_rate=0.5), False, 8 * (60 * 31 + 31 * 31), r"smaller reduced_rate"),
        (ProximalSVMDEC(kernel="rbf"), False, 8 * (61 * 61 + 60 * 61), r"kernel='linear'"),
        (ProximalSVMDEC(), True, 8 * 20 * 20, r"20 × 20 matrix X̄X̄'"),
    ],
    ids=["LASLS", "LASLS-smw", "LASLS-primal-wide", "KASLS", "KASLS_R", "PSVM-rbf", "PSVM-wide"],
)
def test_fits_whose_dense_matrices_pass_the_size_limit_warn_first(
    monkeypatch, est, wide, size, match
):
    """KASLS (N × N), PSVM's kernel form (N × (N+1) and (N+1)²) and LASLS ((d+1)², or
    N × N in the SMW form) allocated their systems without a word: at N = 50,000 KASLS
    needs 18.6 GiB and ended in a MemoryError or an out-of-memory kill. Like the online
    learners' states (skewlearn.base.LARGE_STATE, 1 GiB), a fit now warns first, naming
    the matrices, their size and the setting that avoids them, at the caller's line."""
    from skewlearn import base

    X, y = _problem(n=20, d=40, seed=6) if wide else _problem(n=60, d=4, seed=6)
    monkeypatch.setattr(base, "LARGE_STATE", size - 1)
    with pytest.warns(RuntimeWarning, match=match) as record:
        est.fit(X, y)
    assert [w.filename for w in record if "GiB" in str(w.message)] == [__file__]
    monkeypatch.setattr(base, "LARGE_STATE", size)  # exactly at the limit: silent
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        est.fit(X, y)


@pytest.mark.parametrize("cls", [SVMDEC, SVMSDC])
def test_svm_baselines_take_csr_with_64_bit_indices(cls):
    """SciPy gives CSR matrices int64 indices (sp.vstack of large blocks, matrices built
    by other tools); every other sparse-capable learner takes them, but libsvm's SVC
    refused them inside fit and predict ("Only sparse matrices with 32-bit integer
    indices are accepted ... report a minimal reproducer on scikit-learn's issue
    tracker"). The same matrix with int32 indices is the reference."""
    X, y = _problem(n=120, seed=17)
    X[np.abs(X) < 0.5] = 0.0
    A = sp.csr_matrix(X)
    B = A.copy()
    B.indices, B.indptr = B.indices.astype(np.int64), B.indptr.astype(np.int64)
    assert B.indices.dtype == np.int64 and np.array_equal(B.toarray(), X)
    params = {"random_state": 0} if cls is SVMSDC else {}
    want = cls(**params).fit(A, y)
    got = cls(**params).fit(B, y)
    np.testing.assert_array_equal(got.decision_function(A), want.decision_function(A))
    np.testing.assert_array_equal(want.decision_function(B), want.decision_function(A))
    dense = cls(**params).fit(X, y)  # a dense fit densifies sparse rows to score them
    np.testing.assert_array_equal(dense.decision_function(B), dense.decision_function(X))
    assert B.indices.dtype == np.int64  # the caller's matrix is left as it was


def test_svm_baselines_name_the_limit_of_32_bit_indices(monkeypatch):
    """A matrix too large for 32-bit indices cannot be narrowed; the error says why and
    names a learner that takes it (the limit is lowered here to make one)."""
    X, y = _problem(n=60, seed=17)
    B = sp.csr_matrix(X)
    B.indices, B.indptr = B.indices.astype(np.int64), B.indptr.astype(np.int64)
    monkeypatch.setattr(asls_module, "_INT32_MAX", B.nnz - 1)
    with pytest.raises(ValueError, match=r"32-bit indices only.*LinearASLS"):
        SVMDEC().fit(B, y)
    SVMDEC().fit(sp.csr_matrix(X), y)  # int32 indices are passed as they are


@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_rbf_scores_clip_rounded_distances_at_zero(offset):
    """Session 25: the scores' rbf kernel forms ‖x‖² + ‖y‖² − 2xᵀy, which rounds below 0
    for rows closer than its rounding error; without the clip at 0 (deleting it left
    every test passing) such kernel values were exp(+ε‖x‖²) > 1, unlike the training
    kernel's (``_Gram`` clips). One basis row at a time (w = e_j) gives the kernel column
    K(X, y_j); rows 1e-9 from the basis rows must score at most 1 (σ = 0.01, so that
    γ = 1e4 lifts a rounded −1e-14 above an ulp of 1)."""
    rng = np.random.default_rng(8)
    Y = rng.normal(size=(60, 7)) * 3.0 + offset
    X = Y + 1e-9 * rng.normal(size=Y.shape)
    K = np.column_stack(
        [asls_module._scores(X, Y, np.eye(60)[j], 0.0, "rbf", 0.01, 3, 1.0) for j in range(60)]
    )
    assert K.max() <= 1.0
    np.testing.assert_allclose(np.diag(K), 1.0, rtol=0, atol=1e-9)  # γ·ε·‖x‖² ≈ 1e-10
