"""Numerical safety of batch/asls.py (ASLS and its baselines), at the cases fuzzing found:
badly scaled rows whose stage matrix is not numerically positive definite, kernels that
are not positive semidefinite or overflow, subnormal and huge hyperparameters, and a
libsvm tolerance that can never be met. Every case ends in a correct model (checked
against an independent computation) or a ValueError naming the cause and the fix."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from skewlearn import SVMDEC, SVMSDC, KernelASLS, LinearASLS, ProximalSVMDEC
from skewlearn.base import max_abs_value
from tests.naive import asls as naive

FLOAT_MAX = float(np.finfo(np.float64).max)


def _data(n=30, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (rng.random(n) < 0.3).astype(int)
    y[0], y[1] = 1, 0
    return X, y


def _stacked_lstsq(Xa, W, Gamma):
    """One LASLS stage, Eq. (7), as the least-squares problem
    min ||[sqrt(W) Xa; I] w - [sqrt(W) Gamma; 0]||² solved by SVD (numpy.linalg.lstsq),
    which never forms Xa'W Xa (an independent, better-conditioned route to Eq. 8)."""
    r = np.sqrt(W)
    M = np.vstack([r[:, None] * Xa, np.eye(Xa.shape[1])])
    b = np.concatenate([r * Gamma, np.zeros(Xa.shape[1])])
    return np.linalg.lstsq(M, b, rcond=None)[0]


# ------------------------------------------------------------------ positive definiteness
def test_smw_on_badly_scaled_rows_falls_back_to_the_primal_form():
    """Fuzz case: solver="smw", r_pos="balanced", nu=67, m_pos=40 on 1e7-scale rows. The
    N×N matrix X̄X̄' + (νΛ)⁻¹ has a rank-4 part of size 1e14 and a diagonal of 1e-2: not
    positive definite in float64 (was a raw LinAlgError). The same model is solved by
    Eq. (8), with a warning."""
    X, y = _data()
    X = X * 1e7
    params = dict(nu=67.0, m_pos=40.0, max_stages=12)
    with pytest.warns(RuntimeWarning, match=r"solver='smw'.*primal form, Eq\. \(8\)"):
        smw = LinearASLS(solver="smw", **params).fit(X, y)
    assert smw.solver_ == "primal"
    primal = LinearASLS(solver="primal", **params).fit(X, y)
    np.testing.assert_array_equal(smw.weights_, primal.weights_)
    # and the primal stage is right: compare one stage with an SVD least-squares solve
    one = LinearASLS(solver="primal", nu=67.0, m_pos=40.0, max_stages=1).fit(X, y)
    t = np.where(y == 1, 1.0, -1.0)
    W = 67.0 * np.where(t > 0, one.r_pos_ / 40.0**2, 1.0)
    ref = _stacked_lstsq(naive.augment(X), W, t)
    Xa = naive.augment(X)
    np.testing.assert_allclose(Xa @ one.weights_, Xa @ ref, rtol=1e-6, atol=1e-6)


def test_rounding_level_indefinite_primal_matrix_is_shifted_with_a_warning():
    """Two columns equal up to 1e-9 at scale 1e7: I + X̄'νΛX̄ has pivots below its rounding
    error. The factorisation is retried with its diagonal scaled by 1 + n·ε (a RuntimeWarning
    says so); the model's outputs match an SVD least-squares solve of the same stage to the
    accuracy float64 allows at this conditioning."""
    X, y = _data()
    rng = np.random.default_rng(1)
    X = np.c_[X[:, :2], X[:, 0] + 1e-9 * rng.normal(size=30)] * 1e7
    with pytest.warns(RuntimeWarning, match=r"diagonal scaled by 1 \+ 8\.9e-16"):
        clf = LinearASLS(solver="primal", nu=67.0, m_pos=40.0, max_stages=1).fit(X, y)
    t = np.where(y == 1, 1.0, -1.0)
    W = 67.0 * np.where(t > 0, clf.r_pos_ / 40.0**2, 1.0)
    Xa = naive.augment(X)
    ref = _stacked_lstsq(Xa, W, t)
    # the normal equations keep about half of float64's digits here (cond ≈ 1e16): 1e-4
    np.testing.assert_allclose(Xa @ clf.weights_, Xa @ ref, rtol=0, atol=1e-4)


def test_poly_kernel_with_negative_coef0_is_refused_with_the_cause():
    """Fuzz case: KASLS, poly degree 5, coef0 = -600 — the kernel is not positive
    semidefinite (K_ii < 0), so Eq. (12) has no Cholesky factor (was a raw LinAlgError)."""
    X, y = _data()
    with pytest.raises(ValueError, match=r"not positive definite.*use coef0 >= 0.*reduced_rate"):
        KernelASLS(kernel="poly", degree=5, coef0=-600.0).fit(X, y)
    # KASLS_R (a ridge regression on kernel features) takes the same kernel
    red = KernelASLS(kernel="poly", degree=5, coef0=-600.0, reduced_rate=0.5, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # K_R ~ 1e13: a rounding-level shift
        red.fit(X, y)
    assert np.isfinite(red.decision_function(X)).all()


@pytest.mark.parametrize(
    "est",
    [
        KernelASLS(kernel="poly", degree=10, sigma=1.0),
        KernelASLS(kernel="poly", degree=10, sigma=1.0, reduced_rate=0.5, random_state=0),
        ProximalSVMDEC(kernel="poly", degree=10, sigma=1.0),
    ],
    ids=["KASLS", "KASLS_R", "PSVM"],
)
def test_overflowing_kernel_is_refused_with_the_fix(est):
    """Poly degree 10 on 1e30-scale rows: kernel values of 1e600 overflow float64."""
    X, y = _data()
    with pytest.raises(ValueError, match=r"overflowed float64 .*Scale the features"):
        est.fit(X * 1e30, y)


# ------------------------------------------------------------------ extreme hyperparameters
@pytest.mark.parametrize("cls", [LinearASLS, KernelASLS])
@pytest.mark.parametrize(
    ("params", "value"),
    [({"m_pos": 5e-324}, "inf"), ({"m_pos": 1e300}, "0"), ({"nu": 5e-324}, "4.94e-324")],
)
def test_unrepresentable_class_weight_is_refused_with_the_cause(cls, params, value):
    """ν r/m² of Eq. (7) out of float64's range (was ZeroDivisionError at r_pos / m_pos**2)."""
    X, y = _data()
    with pytest.raises(
        ValueError, match=rf"nu \* r_pos / m_pos\*\*2 \(.*\) is {value}; .* must be a positive"
    ):
        cls(r_pos=1.0, **params).fit(X, y)


def test_margin_whose_square_underflows_still_fits():
    """m+ = 1e-165 (m+² underflows to 0: was ZeroDivisionError) with r+ = 1e-300: the weight
    r+/m+² = 1e30 is representable and is formed as (r+/m+)/m+."""
    X, y = _data()
    clf = LinearASLS(r_pos=1e-300, m_pos=1e-165, nu=1.0, tol=0.0, max_stages=3).fit(X, y)
    t = np.where(y == 1, 1.0, -1.0)
    lam = np.where(t > 0, 1e30, 1.0)
    m = np.where(t > 0, 1e-165, 1.0)
    Xa = naive.augment(X)

    def fit(Gamma):
        w = naive.lasls_eq8(Xa, lam, 1.0, Gamma)
        return w, Xa @ w

    w_ref, history = naive.stagewise(fit, t, m, 3)
    np.testing.assert_allclose(Xa @ clf.weights_, Xa @ w_ref, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(clf.targets_, history[-1], rtol=1e-7, atol=1e-9)


def test_scale_sigma_of_features_near_the_magnitude_limit_is_the_scaled_data_sigma():
    """sigma="scale" is σ² = d·Var(X), so the rbf models of X and of c·X are one model.
    At c·X with max|x| half the accepted limit, numpy's X.var() overflowed (its sum of
    squares), σ became inf and γ 0: every fit was the constant-kernel model, silently
    (KernelASLS 100 % off, SVMSDC 150 %). Checked against the fits on X."""
    X, y = _data(n=60)
    c = 0.5 * max_abs_value(X.shape[1]) / np.abs(X).max()
    for est in (
        KernelASLS(),
        KernelASLS(reduced_rate=0.5, random_state=0),
        ProximalSVMDEC(kernel="rbf"),
        SVMDEC(),
        SVMSDC(random_state=0),
    ):
        a = clone(est).fit(X, y)
        b = clone(est).fit(X * c, y)
        assert b.sigma_ == pytest.approx(a.sigma_ * c, rel=1e-12)
        np.testing.assert_allclose(
            b.decision_function(X * c), a.decision_function(X), rtol=1e-9, atol=1e-12
        )


def test_scale_sigma_whose_gamma_overflows_is_refused_with_the_fix():
    """Rows of |x| ≈ 1e-156 have a variance of ~1e-312, so sigma="scale" gives
    γ = 1/(d·Var X) ≈ 1e311, beyond float64: SVMDEC/SVMSDC/ProximalSVMDEC clamped it to
    the largest float, a kernel 1e3 times wider than the data's, and returned that model
    silently (100 % off the model of the same rows unscaled), KernelASLS blamed its stage
    matrix. As the Nyström maps' gamma="scale" does, they now refuse it naming the
    variance and the fix; a linear kernel, which has no σ, still fits."""
    X, y = _data()
    tiny = X * 1e-156
    for est in (
        KernelASLS(),
        KernelASLS(reduced_rate=0.5, random_state=0),
        KernelASLS(kernel="poly"),
        ProximalSVMDEC(kernel="rbf"),
        SVMDEC(),
        SVMSDC(random_state=0),
    ):
        with pytest.raises(ValueError, match=r'sigma="scale".*variance is 9\.29e-313.*Scale'):
            est.fit(tiny, y)
    for est in (KernelASLS(kernel="linear"), ProximalSVMDEC(), SVMDEC(kernel="linear")):
        assert np.isfinite(est.fit(tiny, y).decision_function(tiny)).all()


def test_extreme_sigma_gives_the_limit_kernels():
    """σ = 5e-324 (was ZeroDivisionError at 1/σ²): γ = the largest float, K(X, X) = I;
    σ = 1e300 (was OverflowError): γ = 0, K = 1 everywhere. Both checked against Eq. (12)."""
    X, y = _data()
    t = np.where(y == 1, 1.0, -1.0)
    lam = np.where(t > 0, (y == 0).sum() / (y == 1).sum(), 1.0)  # r_pos = "balanced" = CR
    m = np.ones(30)
    for sigma, K in ((5e-324, np.eye(30)), (1e300, np.ones((30, 30)))):
        clf = KernelASLS(sigma=sigma, tol=0.0, max_stages=3).fit(X, y)

        def fit(Gamma, K=K):
            alpha, b = naive.kasls_eq12(K, lam, 1.0, Gamma)
            return (alpha, b), K @ alpha + b

        (alpha, b), _ = naive.stagewise(fit, t, m, 3)
        np.testing.assert_allclose(clf.dual_coef_, alpha, rtol=1e-9, atol=1e-12)
        assert clf.intercept_ == pytest.approx(b, rel=1e-9)
        for est in (
            KernelASLS(sigma=sigma, reduced_rate=0.5, random_state=0),
            ProximalSVMDEC(kernel="rbf", sigma=sigma),
            SVMSDC(sigma=sigma, random_state=0),
        ):
            assert np.isfinite(est.fit(X, y).decision_function(X)).all()
    # SVM-DEC is libsvm with the clamped gamma
    svm = SVMDEC(sigma=5e-324, C_pos=2.0).fit(X, y)
    ref = SVC(C=1.0, class_weight={1: 2.0, 0: 1.0}, gamma=FLOAT_MAX).fit(X, y)
    np.testing.assert_allclose(svm.decision_function(X), ref.decision_function(X), rtol=1e-9)
    flat = SVMDEC(sigma=1e300, C_pos=2.0).fit(X, y)
    ref = SVC(C=1.0, class_weight={1: 2.0, 0: 1.0}, gamma=0.0).fit(X, y)
    np.testing.assert_allclose(flat.decision_function(X), ref.decision_function(X), rtol=1e-9)


def test_svm_kernel_overflow_is_restated_with_the_fix():
    """Fuzz case: poly kernel with coef0 = 1e300: libsvm's "dual coefficients … not finite"
    is restated with the cause (kernel overflow) and the fix."""
    X, y = _data()
    for est in (SVMDEC(kernel="poly", coef0=1e300), SVMSDC(kernel="poly", coef0=1e300)):
        with pytest.raises(ValueError, match=r"kernel values overflow float64.*Scale the"):
            est.fit(X, y)


def test_svm_kernel_values_beyond_float32_name_libsvms_float32_cache():
    """libsvm stores kernel values as 32-bit floats: linear rows of |x| ~ 1e20 give values
    ~1e40, finite in float64 but inf in libsvm's cache. The error named a float64 overflow
    (and the unused gamma/coef0/degree); it now names the value, float32's limit and the fix.
    """
    X, y = _data()
    for est in (SVMDEC(kernel="linear"), SVMSDC(kernel="linear")):
        with pytest.raises(
            ValueError, match=r"linear kernel values reach .*e\+4\d.*32-bit float"
        ) as e:
            est.fit(X * 1e20, y)
        assert "overflow float64" not in str(e.value) and "coef0" not in str(e.value)
        assert "Scale the features" in str(e.value)


# ------------------------------------------------------------------ libsvm iteration cap
def run_python(code: str, timeout: float = 120) -> list[str]:
    """The words ``code`` prints, run by this Python from the repository root (so it can
    import ``tests``), in a subprocess: a test of a solve that used to hang fails on the
    timeout instead of hanging the suite."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
        cwd=Path(__file__).parents[2],
    ).stdout.split()


def _never_converging():
    """20 rows on which libsvm with tol = 5e-324 never stops by itself (balanced costs)."""
    rng = np.random.default_rng(0)
    return rng.normal(size=(20, 3)), np.r_[np.ones(6, int), np.zeros(14, int)]


def test_svmdec_unreachable_tol_stops_at_max_iter_with_a_convergence_warning():
    X, y = _never_converging()
    with pytest.warns(ConvergenceWarning, match=r"max_iter=100\b"):
        clf = SVMDEC(tol=5e-324, max_iter=100).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = SVC(tol=5e-324, max_iter=100, class_weight={1: 14 / 6, 0: 1.0}).fit(X, y)
    np.testing.assert_array_equal(clf.svc_.n_iter_, [100])
    np.testing.assert_allclose(clf.decision_function(X), ref.decision_function(X), rtol=1e-9)


def test_svmdec_default_iteration_cap_ends_an_unreachable_tol():
    """Fuzz case: SVMDEC(tol=5e-324) never stopped (libsvm without a cap). With the default
    cap it ends with a ConvergenceWarning; run in a subprocess so a hang is a failure."""
    code = textwrap.dedent(
        """
        import warnings
        from skewlearn import SVMDEC, SVMSDC
        from tests.reliability.test_asls_numerics import _never_converging
        X, y = _never_converging()
        for cls in (SVMDEC, SVMSDC):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                est = cls(tol=5e-324).fit(X, y)
            print(cls.__name__, est.svc_.n_iter_[0], any(
                w.category.__name__ == "ConvergenceWarning" for w in caught))
        """
    )
    out = run_python(code)
    # SVM-DEC meets the cap; after SMOTE libsvm happens to reach the exact optimum (gap 0)
    assert out[:3] == ["SVMDEC", "10000000", "True"]
    assert out[3] == "SVMSDC" and int(out[4]) <= 10_000_000


@pytest.mark.parametrize(
    ("est", "near_collinear"),
    [
        (LinearASLS(solver="primal", nu=67.0, m_pos=40.0, max_stages=1), True),
        (ProximalSVMDEC(solver="primal", C_neg=67.0), True),
        (KernelASLS(kernel="linear", nu=1e8), True),
        (
            KernelASLS(kernel="poly", degree=5, coef0=-600.0, reduced_rate=0.5, random_state=0),
            False,
        ),
        (ProximalSVMDEC(kernel="poly", degree=5, coef0=-600.0), False),
    ],
    ids=["LASLS", "PSVM-linear", "KASLS", "KASLS_R", "PSVM-poly"],
)
def test_shifted_factorisation_warning_names_the_callers_line(est, near_collinear):
    """The RuntimeWarning of a diagonal-shifted Cholesky factor pointed at skewlearn/base.py
    for LinearASLS and the linear PSVM (their primal solve is one frame deeper than the
    kernel models'); it must name the line that called fit, for every model."""
    X, y = _data()
    if near_collinear:  # the case of test_rounding_level_indefinite_primal_matrix_...
        rng = np.random.default_rng(1)
        X = np.c_[X[:, :2], X[:, 0] + 1e-9 * rng.normal(size=30)] * 1e7
    with pytest.warns(RuntimeWarning, match="diagonal scaled by") as record:
        est.fit(X, y)
    assert {w.filename for w in record if "diagonal scaled" in str(w.message)} == {__file__}


@pytest.mark.parametrize(
    ("est", "weights"),
    [
        (LinearASLS(nu=1e4, r_pos=3.0, m_pos=1.5, max_stages=1), (1e4 * 3.0 / 1.5**2, 1e4)),
        (LinearASLS(nu=1e4, max_stages=1, solver="primal"), None),
        (ProximalSVMDEC(C_neg=1e4, C_pos=3e4), (3e4, 1e4)),
        (KernelASLS(kernel="linear", nu=1e4, r_pos=3.0, max_stages=1), (3e4, 1e4)),
    ],
    ids=["LASLS-smw", "LASLS-primal", "PSVM-smw", "KASLS-linear"],
)
@pytest.mark.filterwarnings("ignore:The stage matrix:RuntimeWarning")
def test_a_closed_form_that_lost_its_accuracy_to_rounding_says_so(est, weights):
    """Wide rows at an offset of 1e6 with a large nu: forming X̄X̄' (or X̄'WX̄) keeps none of
    the information below ε·‖X̄‖², and the Cholesky factor solved another problem; the SMW
    form returned weights whose Eq. (7) objective was 30× its minimum, without a word. The
    fit now warns, and what it claims (at least that share of the objective is excess) is
    checked against the SVD least-squares solve of the same stage."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 200)) + 1e6
    y = np.zeros(50, int)
    y[:10] = 1
    X[:, 0] += 2 * y
    with pytest.warns(RuntimeWarning, match=r"lost its accuracy to rounding.*Scale the") as rec:
        est.fit(X, y)
    (hit,) = [w for w in rec if "lost its accuracy" in str(w.message)]
    assert hit.filename == __file__
    claimed = float(re.search(r"at least (\d+)%", str(hit.message)).group(1)) / 100
    t = np.where(y == 1, 1.0, -1.0)
    if weights is None:
        weights = (1e4 * est.r_pos_, 1e4)
    W = np.where(t > 0, *weights)
    Xa = naive.augment(X)

    def objective(w):  # Eq. (7) with W = νΛ and τ = 1
        r = Xa @ w - t
        return 0.5 * (w @ w + r @ (W * r))

    if isinstance(est, KernelASLS):  # the linear kernel: ω̄ = (X'α, b)
        mine = np.append(X.T @ est.dual_coef_, est.intercept_)
    else:
        mine = est.weights_
    got, best = objective(mine), objective(_stacked_lstsq(Xa, W, t))
    assert (got - best) / got >= claimed - 0.01
    # the same data, standardised, is solved accurately and silently
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        est.fit(Z, y)
