"""Numerical safety on adversarial streams: covariances stay positive definite, no
NaN from ``inf * 0``, stable sigmoid/logistic, kernels at extreme ``γ``; every outcome is
a finite model or a ValueError that asks for scaling (docs/reliability.md)."""

from __future__ import annotations

import numpy as np
import pytest

from skewlearn import AROW, CW, KOIL, NAROW, NHERD, OGD, SCW, SOP, CostSensitiveOGD
from skewlearn.kernels import kernel_matrix

GAUSSIAN = [CW, AROW, SCW, NAROW, NHERD, SOP]


def _adversarial(kind, n=600, d=5, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if kind == "mixed":  # each row scaled by 10^u, u uniform in [-100, 100]
        X *= 10.0 ** rng.uniform(-100, 100, size=(n, 1))
    elif kind == "huge":
        X *= 1e100
    elif kind == "tiny":
        X *= 1e-100
    elif kind == "collinear":  # rank one, scales over ten decades
        X = np.outer(rng.normal(size=n), rng.normal(size=d)) * 10.0 ** rng.uniform(-5, 5, (n, 1))
    elif kind == "repeat":  # one huge row, random labels
        X = np.tile(rng.normal(size=(1, d)) * 1e50, (n, 1))
    return X, rng.integers(0, 2, n)


def _psd_within_rounding(S):
    assert np.array_equal(S, S.T)
    eig = np.linalg.eigvalsh(S)
    # eigvalsh resolves eigenvalues to about n·eps·‖S‖
    assert eig.min() >= -S.shape[0] * 4 * np.finfo(float).eps * max(abs(eig).max(), 1e-300)


@pytest.mark.parametrize("kind", ["mixed", "huge", "tiny", "collinear", "repeat"])
@pytest.mark.parametrize("cls", GAUSSIAN, ids=lambda c: c.__name__)
def test_full_covariance_stays_positive_semidefinite(cls, kind):
    X, y = _adversarial(kind)
    est = cls(covariance="full")
    for lo in range(0, len(y), 50):
        est.partial_fit(X[lo : lo + 50], y[lo : lo + 50], classes=[0, 1])
        _psd_within_rounding(est.covariance_)
    assert np.isfinite(est.weights_).all()
    assert np.isfinite(est.decision_function(X)).all()


@pytest.mark.parametrize("kind", ["mixed", "huge", "tiny", "collinear", "repeat"])
@pytest.mark.parametrize("cls", GAUSSIAN, ids=lambda c: c.__name__)
def test_diagonal_covariance_is_finite_nonnegative_or_clear_error(cls, kind):
    X, y = _adversarial(kind)
    est = cls()
    try:
        est.fit(X, y)
    except ValueError as exc:  # CW on 1e100 rows: its step exceeds float64 (true value)
        assert "Scale the features" in str(exc)
        assert not hasattr(est, "weights_")
        return
    assert np.isfinite(est.covariance_).all() and (est.covariance_ >= 0).all()
    assert np.isfinite(est.weights_).all()


def test_diag_precision_step_never_multiplies_inf_by_zero():
    # Before the guard: once s_j underflowed to 0, κ·x²·s_j with κ·x² = inf gave NaN.
    X, y = _adversarial("repeat")
    est = CW().fit(X, y)
    assert (est.covariance_[:-1] == 0).any()  # the stream drives variances to 0 ...
    assert np.isfinite(est.covariance_).all()  # ... without NaN


def test_rounding_lost_confidence_is_no_step():
    # Along a direction where Σ is singular up to rounding, xᵀΣx is noise; a step there
    # used to remove far more variance than Σ held (eigenvalue -5e-4 next to 1e-19).
    X, y = _adversarial("mixed")
    est = CW(covariance="full").fit(X, y)
    _psd_within_rounding(est.covariance_)


@pytest.mark.parametrize("est", [OGD(loss="logistic"), CostSensitiveOGD(loss="logistic")])
def test_logistic_loss_is_stable_at_extreme_margins(est):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3)) * 1e150  # margins far beyond exp's range (±709)
    y = (X[:, 0] > 0).astype(int)
    est.fit(X, y)
    assert np.isfinite(est.weights_).all()
    assert np.isfinite(est.decision_function(X)).all()
    if hasattr(est, "predict_proba"):
        p = est.predict_proba(X)
        assert np.isfinite(p).all() and ((p >= 0) & (p <= 1)).all()
        assert (est.predict_log_proba(X) <= 0).all()


@pytest.mark.parametrize("gamma", [1e-300, 1e-8, 1.0, 1e8, 1e300])
def test_rbf_kernel_at_extreme_gamma(gamma):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    K = kernel_matrix(X, X, "rbf", gamma=gamma)
    assert np.isfinite(K).all() and (K >= 0).all() and (K <= 1).all()
    np.testing.assert_array_equal(np.diag(K), 1.0)  # exp(-γ·0) = 1 at any γ
    if gamma >= 1e8:
        assert (K[~np.eye(30, dtype=bool)] < 1e-30).all()  # neighbours vanish
    if gamma <= 1e-8:
        assert (K > 1 - 1e-6).all()  # everything looks alike
    est = KOIL(gamma=gamma, budget_pos=10, budget_neg=10, random_state=0)
    y = (X[:, 0] > 0.5).astype(int)
    assert np.isfinite(est.fit(X, y).decision_function(X)).all()


def test_rbf_sparse_distance_of_huge_rows_is_exact():
    # The CSR form ‖b‖² + Σ((x−b)² − b²) is inf − inf = NaN once b² overflows; then the
    # distance is added up column by column (k(x, x) = 1, not 0 or NaN). (The learners
    # refuse such values: kernel_matrix's Gram blocks are where they can meet.)
    import scipy.sparse as sp

    X = np.array([[1e200, 0.0], [0.0, 1.0], [3e160, -2e160]])
    dense = kernel_matrix(X, X, "rbf", gamma=1.0)
    np.testing.assert_array_equal(dense, np.eye(3))
    np.testing.assert_array_equal(kernel_matrix(sp.csr_matrix(X), X, "rbf", gamma=1.0), dense)


@pytest.mark.parametrize("covariance", ["diag", "full"])
def test_nherd_huge_C_has_no_zero_division(covariance):
    # NHERD's β = (v + 2g)/(v + g)² with g = 1/C = 1e-300: the square underflowed to 0
    # and the compiled kernel raised ZeroDivisionError (found by test_fuzz).
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2)) * 1e-140  # v + g ≈ 1e-280 after the first step
    y = rng.integers(0, 2, 30)
    est = NHERD(C=1e300, covariance=covariance).fit(X, y)
    assert np.isfinite(est.decision_function(X)).all()
    assert np.isfinite(est.covariance_).all()


def test_romma_on_tiny_rows_is_told_to_scale_them_up():
    """Session 24 (probe z's note): ROMMA's |w| is of order 1/|x|, so rows of norm ~1e-155
    overflow |w|^2 at once, and the error said only that scaling "only slows that down"
    (true of the growth on inseparable data, wrong here). It now says to scale such
    features up; the same rows at 1e-5 fit."""
    from skewlearn import ROMMA

    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 5))
    y = (X[:, 0] + 0.5 * rng.normal(size=500) > 0).astype(int)
    with pytest.raises(
        ValueError, match=r"below ~1e-150 overflow it at once: scale such features up"
    ):
        ROMMA(fit_intercept=False).fit(X * 1e-155, y)
    assert np.isfinite(ROMMA(fit_intercept=False).fit(X * 1e-5, y).coef_).all()
