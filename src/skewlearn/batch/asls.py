"""ASLS: asymmetric stagewise least squares (LASLS, KASLS, KASLS_R) and its baselines.

The asymmetric stagewise least square (ASLS) loss of [1]_ solves a short series of
weighted least-squares problems. Each stage has a closed form; between stages only the
targets change (Eq. 5), so the matrix of every stage is the same and is factored **once
per fit** (Cholesky), then reused: a stage costs one triangular solve and one product.

* :class:`LinearASLS` — LASLS, Eq. (8), or its Sherman–Morrison–Woodbury form, Eq. (9);
* :class:`KernelASLS` — KASLS, Eq. (12), with the off-training filter ``theta``; with
  ``reduced_rate`` set, the reduced classifier KASLS_R, Eqs. (14)–(18);
* baselines of the paper's Tables V–VI: :class:`SVMDEC` (SVM with different error
  costs), :class:`SVMSDC` (SMOTE + different costs) and :class:`ProximalSVMDEC`
  (proximal SVM with different error costs).

The SLS loss of Yang and Hu is the special case ``(r, m) = (1, 1)`` of every function and
estimator here. Labels are ``t ∈ {-1, +1}`` (+1 = ``pos_label``, the minority class in the
paper); the margin variable is ``z = t f(x)``.

References
----------
.. [1] G. Xu, B.-G. Hu and J. C. Principe, "An asymmetric stagewise least square loss
   function for imbalanced classification", (seed 004), Eqs. (1)–(18).
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import scipy.sparse as sp
from numba import njit
from scipy.linalg.blas import dsyrk
from scipy.linalg.lapack import dpotrf, dpotrs
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_random_state

from .._rows import canonical
from .._stack import user_stacklevel
from ..base import BatchClassifier, WeightVectorMixin, _max_abs, _scan_values, warn_large_fit
from ..kernels import data_variance
from .nystrom import libsvm_kernel_error

if TYPE_CHECKING:
    from .._typing import ArrayLike, Label, RandomStateLike

__all__ = [
    "SVMDEC",
    "SVMSDC",
    "KernelASLS",
    "LinearASLS",
    "ProximalSVMDEC",
    "asls_loss",
    "asls_targets",
    "sls_loss",
    "sls_targets",
    "squared_ramp_loss",
]


# =========================================================================== losses
def sls_loss(z: ArrayLike, tau: ArrayLike) -> np.ndarray:
    """SLS loss of one stage, Eq. (1): :math:`l^{(n)}_{SLS}(z) = (\\tau^{(n)} - z)^2`.

    Parameters
    ----------
    z : array-like
        Margin variable :math:`z = t f(x)`.
    tau : array-like
        Targets of the stage (broadcast against ``z``); :math:`\\tau^{(0)} = 1`.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> sls_loss([2.0, 0.5, -1.0], 1.0)
    array([1.  , 0.25, 4.  ])
    """
    z = np.asarray(z, dtype=np.float64)
    return (np.asarray(tau, dtype=np.float64) - z) ** 2


def sls_targets(z: ArrayLike) -> np.ndarray:
    """Next SLS targets, Eq. (2): :math:`\\tau^{(n+1)} = z^{(n)} + S(1 - z^{(n)})`,
    :math:`S(v) = \\max(0, \\min(1, v))`.

    Parameters
    ----------
    z : array-like
        Margins of the previous stage, :math:`z^{(n)} = t f^{(n)}(x)`.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> sls_targets([2.0, 0.5, -1.0])
    array([2., 1., 0.])
    """
    return asls_targets(z, 1.0)


def asls_loss(z: ArrayLike, tau: ArrayLike, r: ArrayLike = 1.0, m: ArrayLike = 1.0) -> np.ndarray:
    """ASLS loss of one stage, Eq. (4):
    :math:`l^{(n)}_{ASLS}(z) = \\frac{r}{m^2}(\\tau^{(n)} - z)^2`.

    Parameters
    ----------
    z : array-like
        Margin variable :math:`z = t f(x)`.
    tau : array-like
        Targets of the stage.
    r : float or array-like, default=1.0
        Ramp coefficient (> 0; the loss of a misclassified pattern tends to ``r``).
    m : float or array-like, default=1.0
        Margin coefficient (> 0; patterns with ``z > m`` end up unpenalised).

    Returns
    -------
    ndarray

    Examples
    --------
    >>> asls_loss([0.0, 1.0], 2.0, r=4.0, m=2.0)   # (4 / 2**2) * (2 - z)**2
    array([4., 1.])
    """
    z = np.asarray(z, dtype=np.float64)
    r = np.asarray(r, dtype=np.float64)
    m = np.asarray(m, dtype=np.float64)
    return r / m**2 * (np.asarray(tau, dtype=np.float64) - z) ** 2


def asls_targets(z: ArrayLike, m: ArrayLike = 1.0) -> np.ndarray:
    """Next ASLS targets, Eq. (5): :math:`\\tau^{(n+1)} = z^{(n)} + S(m - z^{(n)})` with
    :math:`S(m - z) = \\max(0, \\min(m, m - z))`.

    A confident pattern (``z > m``) keeps its own output as target, one inside the
    margin (``0 ≤ z ≤ m``) is pushed to ``m``, a misclassified one (``z < 0``) to ``z + m``.

    Parameters
    ----------
    z : array-like
        Margins of the previous stage, :math:`z^{(n)} = t f^{(n)}(x)`.
    m : float or array-like, default=1.0
        Margin coefficient(s), > 0.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> asls_targets([3.0, 1.0, -0.5], m=2.0)
    array([3. , 2. , 1.5])
    """
    z = np.asarray(z, dtype=np.float64)
    m = np.asarray(m, dtype=np.float64)
    return z + np.clip(m - z, 0.0, m)


def squared_ramp_loss(z: ArrayLike, r: ArrayLike = 1.0, m: ArrayLike = 1.0) -> np.ndarray:
    """The loss ASLS converges to, Eq. (6) (Eq. (3), the squared ramp, for ``(r, m) = (1, 1)``).

    .. math::

        l^*_{ASLS}(z) = \\begin{cases} 0, & z > m,\\\\
        \\frac{r}{m^2}(m - z)^2, & 0 \\le z \\le m,\\\\ r, & z < 0. \\end{cases}

    It equals ``asls_loss(z, asls_targets(z, m), r, m)``: at a fixed point of Eq. (5).

    Parameters
    ----------
    z : array-like
        Margin variable :math:`z = t f(x)`.
    r : float or array-like, default=1.0
        Ramp coefficient, > 0: the loss of a misclassified pattern.
    m : float or array-like, default=1.0
        Margin coefficient, > 0: patterns with ``z > m`` are not penalised.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> squared_ramp_loss([2.0, 0.5, -3.0])
    array([0.  , 0.25, 1.  ])
    >>> squared_ramp_loss([2.5, 1.0, -3.0], r=4.0, m=2.0)
    array([0., 1., 4.])
    """
    z = np.asarray(z, dtype=np.float64)
    r = np.asarray(r, dtype=np.float64)
    m = np.asarray(m, dtype=np.float64)
    return r / m**2 * np.clip(m - z, 0.0, m) ** 2


# =========================================================================== shared core
_EPS = float(np.finfo(np.float64).eps)
_FLOAT_MAX = float(np.finfo(np.float64).max)

#: Rows per block of the passes over a stored ``N × p`` feature matrix (about 1 MiB, so a
#: block read for ``F w`` is still in the core's L2 cache for ``F'g``).
_PASS_BYTES = 1 << 20
#: Rows per block of the symmetric rank-k updates of ``F'WF`` (BLAS ``syrk``).
_GRAM_ROWS = 2048


def _pattern_weight(value: float, what: str) -> float:
    """One class's weight ``W = νr/m²`` of Eq. (7), checked to be usable in float64.

    Both ``W`` (primal, ``I + F̄'WF̄``) and ``1/W`` (dual, ``Q + W⁻¹``) must be positive and
    finite; a subnormal ``m`` (``m² = 0``) or a ``ν`` of 1e-320 is refused here with the cause
    instead of a division by zero or an inf/NaN model later.
    """
    with np.errstate(all="ignore"):
        inverse = 1.0 / np.float64(value) if value > 0 else np.inf
    if not (np.isfinite(value) and value > 0 and np.isfinite(inverse)):
        raise ValueError(
            f"{what} is {value:.3g}; as a weight of the squared errors it must be a positive "
            "float64 whose inverse is finite too (about 1e-308 to 1e308). Use moderate "
            "hyperparameters (the ASLS paper takes r, m >= 1 and nu near 1)."
        )
    return float(value)


def _class_weights(t: np.ndarray, nu: float, r_pos, m_pos, r_neg, m_neg):
    """``W = νΛ`` (the diagonal ``ν r_i / m_i²`` per pattern) and the margin ``m_i``.

    The ratio is formed as ``(ν r / m) / m`` so that ``m²`` never underflows on its own.
    """
    weights = []
    for name, r, m in (("pos", r_pos, m_pos), ("neg", r_neg, m_neg)):
        with np.errstate(all="ignore"):
            value = float(np.float64(nu) * np.float64(r) / np.float64(m) / np.float64(m))
        weights.append(
            _pattern_weight(
                value, f"nu * r_{name} / m_{name}**2 (nu={nu!r}, r_{name}={r!r}, m_{name}={m!r})"
            )
        )
    pos = t > 0
    return np.where(pos, weights[0], weights[1]), np.where(pos, float(m_pos), float(m_neg))


def _mirror(A: np.ndarray, from_lower: bool, block: int = 512) -> None:
    """Copy one strict triangle of the square ``A`` onto the other, in place, in blocks."""
    n = A.shape[0]
    src = A if from_lower else A.T  # the view whose lower triangle holds the data
    for lo in range(0, n, block):
        hi = min(lo + block, n)
        src[lo:hi, hi:] = src[hi:, lo:hi].T
        d = src[lo:hi, lo:hi]
        d[...] = np.tril(d) + np.tril(d, -1).T


def _weighted_gram(F, W: np.ndarray) -> np.ndarray:
    """``F̄'WF̄`` with ``F̄ = [F, e]`` for a sparse ``F``: both triangles, Fortran order.
    (Dense features go through :func:`_scaled_system`.)"""
    p = F.shape[1]
    A = np.empty((p + 1, p + 1), order="F")
    FW = sp.csr_matrix(F.multiply(W[:, None]))
    A[:p, :p] = (F.T @ FW).toarray()
    A[:p, p] = np.asarray(FW.sum(axis=0)).ravel()
    A[p, :p] = A[:p, p]
    A[p, p] = W.sum()
    return A


def _scaled_system(n: int, p: int, W: np.ndarray, fill: Callable):
    """``S = [√W F, √W]`` (``n × (p+1)``, C order) and ``S'S = F̄'WF̄`` (both triangles,
    Fortran order), with ``F̄ = [F, e]``.

    ``fill(lo, hi, root, out)`` writes rows ``lo:hi`` of ``√W F`` into ``out``: for
    KASLS_R the kernel block is computed there once and never copied again. ``S'S`` is
    accumulated by BLAS ``syrk`` (half the flops of a product) on blocks of rows of ``S``
    itself, and the stages read ``S`` (:func:`_scaled_pass`): ``F`` is never stored
    unscaled.
    """
    root = np.sqrt(W)
    S = np.empty((n, p + 1))
    A = np.zeros((p + 1, p + 1), order="F")
    for lo in range(0, n, _GRAM_ROWS):
        hi = min(lo + _GRAM_ROWS, n)
        fill(lo, hi, root[lo:hi], S[lo:hi, :p])
        S[lo:hi, p] = root[lo:hi]
        A = dsyrk(1.0, S[lo:hi].T, beta=1.0, c=A, trans=0, lower=1, overwrite_c=1)
    _mirror(A, from_lower=True)
    return S, root, A


def _cholesky(A: np.ndarray, what: str, fix: str, retry: bool = True) -> np.ndarray | None:
    """Lower Cholesky factor of the symmetric positive definite stage matrix ``A``, made
    in place (``A`` holds both triangles and is consumed).

    ``A`` is a positive semidefinite product computed in floating point plus a positive
    diagonal, so it is positive definite in exact arithmetic; when the product's rounding
    error (≈ n·ε·√(AᵢᵢAⱼⱼ) per entry) exceeds the diagonal term, LAPACK can meet a
    non-positive pivot. Then the factorisation is retried with each diagonal entry scaled by
    1 + δ, δ = n·ε × (1, 10², 10⁴) — a shift of the Jacobi-scaled matrix
    D^{-1/2}AD^{-1/2} by δI, the size of that rounding error — with a RuntimeWarning. If
    that does not suffice (or ``A`` is not finite) a ValueError names ``what`` and ``fix``.
    With ``retry=False`` a failed first attempt returns None (the caller has a better-
    conditioned formulation of the same model). The warning names the user's line
    (:func:`skewlearn._stack.user_stacklevel`).
    """
    if not _scan_values(np.ravel(A, order="K"))[1]:  # one compiled pass, no temporary
        raise ValueError(
            f"{what} overflowed float64 (it holds inf or NaN). Scale the features (e.g. "
            f"sklearn.preprocessing.StandardScaler){fix}."
        )
    a = A if A.flags.f_contiguous else A.T  # LAPACK works in place on Fortran order
    n = a.shape[0]
    diag = np.diagonal(a).copy()
    deltas = [0.0] + [n * _EPS * 10.0**k for k in (0, 2, 4)]
    for k, delta in enumerate(deltas):
        if k:  # restore the lower triangle from the untouched upper one, then shift
            _mirror(a, from_lower=False)
            a[np.diag_indices(n)] = diag + delta * np.abs(diag)
        c, info = dpotrf(a, lower=1, clean=0, overwrite_a=1)
        if info == 0:
            if delta:
                warnings.warn(
                    f"{what} was not numerically positive definite (its condition exceeds "
                    f"float64's precision): it was factored with its diagonal scaled by "
                    f"1 + {delta:.1e}, the size of its rounding error, so the model is only as "
                    "accurate as float64 allows here. Scale the features (e.g. sklearn."
                    f"preprocessing.StandardScaler){fix} to avoid this.",
                    RuntimeWarning,
                    stacklevel=user_stacklevel(),
                )
            return c
        if info < 0:  # pragma: no cover - an argument error would be a bug here
            raise RuntimeError(f"LAPACK dpotrf: illegal argument {-info}")
        if not retry:
            return None
        if not np.shares_memory(c, a):  # pragma: no cover - f2py copied: a is intact
            a = np.asfortranarray(a)
    raise ValueError(
        f"{what} is not positive definite, even with its diagonal scaled by "
        f"1 + {deltas[-1]:.1e} (pivot {info} of {n} failed). Scale the features (e.g. "
        f"sklearn.preprocessing.StandardScaler){fix}."
    )


def _cho_solve(c: np.ndarray, b: np.ndarray) -> np.ndarray:
    x, info = dpotrs(c, b, lower=1)
    if info != 0:  # pragma: no cover - only for illegal arguments
        raise RuntimeError(f"LAPACK dpotrs: illegal argument {-info}")
    return x


def _scaled_pass(S: np.ndarray, root: np.ndarray, w: np.ndarray, t, m):
    """One read of ``S = [√W F, √W]`` per stage: outputs ``f = F̄w̄ = Sw̄ / √W``, the next
    targets (Eq. 5) and the next right-hand side ``F̄'WΓ = S'(√W Γ)``, block by block (a
    block read for ``Sw̄`` is reused from cache for ``S'g``)."""
    n, q = S.shape
    rows = max(1, _PASS_BYTES // (8 * q))
    new = np.empty(n)
    rhs = np.zeros(q)
    for lo in range(0, n, rows):
        hi = min(lo + rows, n)
        Sb, rb, tb = S[lo:hi], root[lo:hi], t[lo:hi]
        f = Sb @ w
        f /= rb
        tau = asls_targets(tb * f, m[lo:hi])
        new[lo:hi] = tau
        rhs += (rb * tb * tau) @ Sb
    return new, rhs


def _rhs(F, g: np.ndarray) -> np.ndarray:
    """``F̄'g`` with ``F̄ = [F, e]``."""
    p = F.shape[1]
    rhs = np.empty(p + 1)
    rhs[:p] = np.asarray(F.T @ g).ravel()
    rhs[p] = g.sum()
    return rhs


def _primal_stages(F, W, t, m, tol: float, max_stages: int, fix: str = "", factor=None):
    """Stages of Eq. (8) on the features ``F̄ = [F, e]`` with ``W = νΛ``.

    :math:`\\bar\\omega = (\\tfrac1\\nu I + \\bar F'\\Lambda\\bar F)^{-1}\\bar F'\\Lambda\\Gamma
    = (I + \\bar F'W\\bar F)^{-1}\\bar F'W\\Gamma`: the matrix is factored once, each stage
    is one triangular solve and one pass over the features. ``F`` is a sparse matrix, a
    dense array, or ``(n, p, fill)`` (see :func:`_scaled_system`) for features built on
    demand. Returns ``(w̄, τ, max|Δτ| per stage, converged)``: the coefficients of the last
    solve and the targets it used. A list ``factor`` receives the Cholesky factor of ``I + F̄'WF̄``.
    """
    sparse = sp.issparse(F)
    if sparse:
        A = _weighted_gram(F, W)
    else:
        if isinstance(F, tuple):
            n, p, fill = F
        else:
            n, p = F.shape

            def fill(lo, hi, root, out, F=F):
                np.multiply(F[lo:hi], root[:, None], out=out)

        S, root, A = _scaled_system(n, p, W, fill)
    A[np.diag_indices_from(A)] += 1.0
    c = _cholesky(A, "The stage matrix I + F̄'νΛF̄ of Eq. (8)", fix or ", or use a smaller nu")
    del A
    if factor is not None:
        factor.append(c)
    tau = np.ones_like(t)
    rhs = _rhs(F, W * t) if sparse else (root * t) @ S
    changes: list[float] = []
    for _ in range(max_stages):
        w = _cho_solve(c, rhs)
        if sparse:
            f = np.asarray(F @ w[:-1]).ravel() + w[-1]
            new = asls_targets(t * f, m)
            rhs_next = _rhs(F, W * t * new)
        else:
            new, rhs_next = _scaled_pass(S, root, w, t, m)
        changes.append(float(np.max(np.abs(new - tau))))
        if changes[-1] <= tol or len(changes) == max_stages:
            return w, tau, np.asarray(changes), changes[-1] <= tol
        tau, rhs = new, rhs_next
    raise AssertionError("unreachable: max_stages >= 1")  # pragma: no cover


def _dual_stages(
    Q: np.ndarray, W, t, m, tol: float, max_stages: int, fix: str, retry=True, factor=None
):
    """Stages of Eq. (12) (and of Eq. 9 with ``Q = X̄X̄'``): factor
    :math:`Q + \\tfrac1\\nu\\Lambda^{-1} = Q + W^{-1}` once, in place (``Q`` is consumed),
    then :math:`\\alpha = (Q + W^{-1})^{-1}\\Gamma` per stage. The training outputs come
    from the KKT conditions (11), :math:`\\alpha = -W\\varepsilon`,
    :math:`f = \\Gamma + \\varepsilon = \\Gamma - \\alpha / W`, so ``Q`` is not kept.
    Returns None when ``retry=False`` and ``Q + W⁻¹`` is not numerically positive definite.
    A list ``factor`` receives the Cholesky factor of ``Q + W⁻¹``.
    """
    Q[np.diag_indices_from(Q)] += 1.0 / W
    c = _cholesky(Q, "The stage matrix Q + (νΛ)⁻¹ of Eq. (12)", fix, retry)
    if c is None:
        return None
    if factor is not None:
        factor.append(c)
    tau = np.ones_like(t)
    changes: list[float] = []
    for _ in range(max_stages):
        gamma = t * tau
        alpha = _cho_solve(c, gamma)
        new = asls_targets(t * (gamma - alpha / W), m)
        changes.append(float(np.max(np.abs(new - tau))))
        if changes[-1] <= tol or len(changes) == max_stages:
            return alpha, tau, np.asarray(changes), changes[-1] <= tol
        tau = new
    raise AssertionError("unreachable: max_stages >= 1")  # pragma: no cover


def _linear_stages(X, W, t, m, tol: float, max_stages: int, solver: str, fix: str = ""):
    """Stages of a linear model on ``X̄ = [X, e]``, in one of two equal forms.

    ``"primal"``: Eq. (8), a (d+1)-square system. ``"smw"``: its Sherman–Morrison–Woodbury
    form, Eq. (9), N-square: :math:`\\bar\\omega = \\bar X'\\alpha` with
    :math:`\\alpha = (\\bar X\\bar X' + W^{-1})^{-1}\\Gamma`. ``"auto"``: the smaller.
    Returns ``(result, solver used)``, ``result`` as :func:`_primal_stages`'s. An SMW
    matrix that is not numerically positive definite falls back to the primal form, with
    a warning. The returned solution is checked against the data
    (:func:`_check_linear_solution`).
    """
    n, d = X.shape
    solver = _linear_solver(solver, n, d)
    factor: list = []
    if solver == "smw":
        Q = X @ X.T
        Q = Q.toarray() if sp.issparse(Q) else np.array(Q, dtype=np.float64)
        Q += 1.0
        result = _dual_stages(Q, W, t, m, tol, max_stages, fix, retry=False, factor=factor)
        del Q
        if result is not None:
            alpha, tau, changes, converged = result
            w = np.empty(d + 1)
            w[:d] = X.T @ alpha
            w[d] = alpha.sum()

            _check_linear_solution(
                X, W, t, tau, w, _dual_refinement(X, W, t, tau, alpha, w, factor[0]), "(9)"
            )
            return (w, tau, changes, converged), "smw"
        warnings.warn(
            "solver='smw': X̄X̄' + W⁻¹ of Eq. (9) is not numerically positive "
            "definite (its condition exceeds float64's precision, e.g. features of "
            "very different scales); solving the same model in the primal form, "
            "Eq. (8), instead (solver_ = 'primal'). Scale the features (e.g. sklearn."
            "preprocessing.StandardScaler) or use solver='primal' to avoid this.",
            RuntimeWarning,
            stacklevel=user_stacklevel(),
        )
    result = _primal_stages(X, W, t, m, tol, max_stages, fix, factor=factor)
    w = result[0]
    _check_linear_solution(X, W, t, result[1], w, lambda g: w - _cho_solve(factor[-1], g), "(8)")
    return result, "primal"


def _dual_refinement(X, W, t, tau, alpha, w, c) -> Callable:
    """The ``refine`` of :func:`_check_linear_solution` for a linear model solved in the
    dual (Eq. 9, or KASLS with the linear kernel): one refinement step of ``α`` with the
    dual residual ``Γ − X̄X̄'α − α/W`` taken from the data and the factor ``c`` of
    ``X̄X̄' + W⁻¹``; returns ``X̄'(α + δ)``."""
    d = X.shape[1]

    def refine(g):
        r = t * tau - (np.asarray(X @ w[:d]).ravel() + w[d]) - alpha / W
        delta = _cho_solve(c, r)
        out = w.copy()
        out[:d] += np.asarray(X.T @ delta).ravel()
        out[d] += delta.sum()
        return out

    return refine


#: A linear solve warns when one refinement step lowers its Eq. (7) objective by more than
#: this fraction: the normal equations lost at least that much to rounding.
_EXCESS_WARN = 1e-2


def _objective7(X, W, Gamma, w, sq, gradient: bool = True):
    """Eq. (7) with ``W = νΛ``, ``½w̄'w̄ + ½(X̄w̄ − Γ)'W(X̄w̄ − Γ)``, from the data; a bound
    of its rounding error, from ``|r_i − r̂_i| ≤ (d+2)·ε·(‖x̄_i‖‖w̄‖ + |Γ_i|)`` for each
    residual (``sq``: the squared row norms ‖x_i‖²); and, with ``gradient``, the gradient
    ``w̄ + X̄'W(X̄w̄ − Γ)`` (else None)."""
    d = X.shape[1]
    r = np.asarray(X @ w[:d]).ravel() + w[d] - Gamma
    wr = W * r
    err = (d + 2) * _EPS * (np.sqrt((sq + 1.0) * float(w @ w)) + np.abs(Gamma))
    noise = float(W @ (err * (np.abs(r) + err)))
    g = None
    if gradient:
        g = w.copy()
        g[:d] += np.asarray(X.T @ wr).ravel()
        g[d] += wr.sum()
    return 0.5 * float(w @ w + r @ wr), noise, g


def _check_linear_solution(X, W, t, tau, w, refine, eq: str):
    """Warn (RuntimeWarning) when the closed form ``w̄`` of the last stage, computed from
    the formed matrix ``I + X̄'WX̄`` or ``X̄X̄' + W⁻¹``, is far from the minimiser of Eq. (7).

    Forming those products loses what lies below ``ε·‖X̄‖²``: all of the information for
    features far from 0 or of very different scales with a large ``ν``. The Cholesky
    factor then exists but solves another problem (fuzzing found the SMW form 30× to 10⁶×
    above the minimum of Eq. 7 at an offset of 1e6, without a word). The check is one step
    of iterative refinement with residuals taken from the data: ``refine(g)`` returns the
    refined weights (primal: ``w̄ − H⁻¹g`` with ``g`` the gradient and ``H⁻¹`` from the
    factor; SMW: ``X̄'(α + δ)`` with ``δ`` the factor's correction of the dual residual).
    The objective's drop along that step, less the rounding error of both evaluations,
    is a lower bound of the solve's excess over the minimum. The weights are not changed.
    """
    with np.errstate(all="ignore"):
        sq = np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X) else None
        sq = np.einsum("ij,ij->i", X, X) if sq is None else sq
        objective, noise, g = _objective7(X, W, t * tau, w, sq)
        refined, noise_refined, _ = _objective7(X, W, t * tau, refine(g), sq, gradient=False)
        # the drop is certain only beyond the rounding of both evaluations
        drop = objective - refined - noise - noise_refined
    if drop > _EXCESS_WARN * objective:  # NaN (an overflow) is left to the finiteness checks
        warnings.warn(
            f"The least-squares solve of Eq. {eq} lost its accuracy to rounding: at least "
            f"{drop / objective:.0%} of the objective of Eq. (7) at the returned weights is "
            "excess over its minimum (the system's condition exceeds float64's precision: "
            "features far from 0 or of very different scales, with a large nu). Scale the "
            "features (e.g. sklearn.preprocessing.StandardScaler), or use a smaller nu.",
            RuntimeWarning,
            stacklevel=user_stacklevel(),
        )


def _linear_solver(solver: str, n: int, d: int) -> str:
    """The form of a linear model's system: ``"auto"`` takes the smaller one."""
    if solver == "auto":
        return "smw" if n < d + 1 else "primal"
    return solver


def _warn_large_linear(est, X, solver: str) -> None:
    """:func:`skewlearn.base.warn_large_fit` for the system of :func:`_linear_stages`:
    ``N × N`` (SMW), or ``(d+1)²`` plus, for dense ``X``, the scaled copy ``N × (d+1)``."""
    n, d = X.shape
    reduce = "(e.g. sklearn.decomposition.TruncatedSVD or sklearn.random_projection)"
    if _linear_solver(solver, n, d) == "smw":
        size, what = 8 * n * n, f"the {n} × {n} matrix X̄X̄' + W⁻¹ of Eq. (9)"
        fix = (
            "solver='primal' solves the same model with a (d+1)-square matrix."
            if d + 1 < n
            else f"Use fewer rows, or reduce the features {reduce} below the number of rows."
        )
    else:
        size, what = 8 * (d + 1) * (d + 1), f"the {d + 1} × {d + 1} matrix of Eq. (8)"
        if not sp.issparse(X):
            size += 8 * n * (d + 1)
            what += f" and a scaled {n} × {d + 1} copy of X"
        fix = (
            "solver='smw' solves the same model with an N × N matrix."
            if n < d + 1
            else f"Reduce the features {reduce}."
        )
    warn_large_fit(est, size, what, fix)


def _balanced_ratio(t: np.ndarray) -> float:
    """Class ratio CR = N− / N+ (the paper's CR)."""
    n_pos = int(np.sum(t > 0))
    return float(len(t) - n_pos) / max(n_pos, 1)


def _resolve_sigma(sigma, X, kernel: str = "rbf") -> float:
    if isinstance(sigma, str):  # "scale": σ² = d·Var(X), scikit-learn's gamma="scale"
        var = data_variance(X)  # sparse: two-pass, equal to the dense value
        s2 = X.shape[1] * var
        if not s2 > 0:
            return 1.0
        with np.errstate(over="ignore"):
            overflows = np.isinf(1.0 / s2)
        if overflows and kernel != "linear":
            # γ = 1/σ² is not a float64: _gamma would clamp it to the largest float, a
            # kernel far wider than the data's (the Nyström maps' scale_gamma refuses it too)
            raise ValueError(
                f'sigma="scale" = sqrt(d·Var X) is so small that gamma = 1/sigma² '
                f"overflows float64: the features' variance is {var:.3g}. Scale the "
                "features (e.g. sklearn.preprocessing.StandardScaler)."
            )
        return float(np.sqrt(s2))
    return float(sigma)


_INT32_MAX = np.iinfo(np.int32).max


def _libsvm_rows(X):
    """``X`` as libsvm (scikit-learn's ``SVC``) takes it: a sparse matrix canonical (see
    :func:`~skewlearn._rows.canonical`) and with 32-bit indices. SciPy gives a CSR matrix
    int64 indices whenever an operation might need them (``sp.vstack`` of large blocks,
    matrices built by other tools); ``SVC`` refused them with an internal message asking
    for a report to scikit-learn, while every other sparse-capable learner takes them. The
    indices are narrowed on a copy when the matrix fits; the caller's matrix is not
    changed. Dense ``X`` is returned as it is."""
    X = canonical(X)
    if not sp.issparse(X) or (X.indices.dtype == np.int32 and X.indptr.dtype == np.int32):
        return X
    if X.nnz > _INT32_MAX or max(X.shape) > _INT32_MAX:
        raise ValueError(
            f"libsvm (scikit-learn's SVC) takes sparse matrices with 32-bit indices only; "
            f"this one has {X.nnz} stored entries and shape {X.shape}, beyond 2**31 - 1. "
            "Fit on fewer rows, or use LinearASLS (which takes any CSR matrix)."
        )
    X = sp.csr_matrix(X, copy=True)  # the data too: a view would share it with the caller
    X.indices = X.indices.astype(np.int32)
    X.indptr = X.indptr.astype(np.int32)
    return X


def _gamma(sigma: float) -> float:
    """γ = 1/σ² of the paper's exp(−‖x−y‖²/σ²), kept finite at any σ > 0.

    σ below ~1e-154 gives the largest float (distinct rows get kernel value 0, a row and
    itself 1); σ above ~1e154 gives 0 (a constant kernel): both finite, neither useful.

    >>> _gamma(2.0), _gamma(5e-324) == float(np.finfo(float).max), _gamma(1e300)
    (0.25, True, 0.0)
    """
    with np.errstate(all="ignore"):
        g = 1.0 / np.square(np.float64(sigma))
    return float(min(g, _FLOAT_MAX))


#: Above this γ·max‖y‖² the rbf expansion ‖x‖² + ‖y‖² − 2xᵀy, whose exponent carries a
#: cancellation error of ≈ γ·ε·(‖x‖² + ‖y‖²), is formed from rows shifted by the mean of
#: the basis ``Y`` (the error stays below ~1e-12 up to here).
_SHIFT_ABOVE = 1024.0


def _rbf_centre(Y: np.ndarray, gamma: float) -> np.ndarray | None:
    """The shift of :class:`_Gram` and :func:`_scores` for an rbf basis ``Y``: its mean when
    ``γ·max‖y‖² > _SHIFT_ABOVE`` (features far from 0: at an offset of 1e6 the expansion
    moved KASLS's scores by 0.02, at 1e7 its stage matrix was no longer positive definite),
    else None (the distances are computed unshifted, as before). Depends on ``Y`` only, so
    every row scored against one basis is computed the same way."""
    if len(Y) == 0:
        return None
    with np.errstate(over="ignore", invalid="ignore"):
        far = gamma * float(np.einsum("ij,ij->i", Y, Y).max()) > _SHIFT_ABOVE
    return Y.mean(axis=0) if far else None


class _Gram:
    """Rows of ``K(·, Y)`` for one kernel, built in cache-sized blocks of rows.

    γ = 1/σ² (the paper's exp(−‖x−y‖²/σ²)); the conventions are those of
    :mod:`skewlearn.kernels` (checked equal in the tests). Each block is one BLAS product
    plus elementwise steps done while the block is in cache. Gaussian: when
    ``γ·‖x‖²`` and ``γ·‖y‖²`` stay below 1e300 the product itself yields
    ``−γ‖x−y‖² = [x, ‖x‖², 1]·[2γy, −γ, −γ‖y‖²]`` (then ``min(·, 0)`` and ``exp``);
    otherwise the distance is formed first, clipped at 0 and scaled (finite at any γ).
    Rows far from 0 are first shifted by the mean of ``Y`` (:func:`_rbf_centre`).
    """

    def __init__(self, Y: np.ndarray, kernel: str, sigma: float, degree: int, coef0: float):
        self.kernel = kernel
        self.gamma = _gamma(sigma)
        self.degree = int(degree)
        self.coef0 = float(coef0)
        self.rows = max(1, _PASS_BYTES // (8 * max(Y.shape[0], 1)))
        self.fast = None
        self.centre = None
        if kernel == "rbf":
            self.centre = _rbf_centre(Y, self.gamma)
            if self.centre is not None:
                Y = Y - self.centre
            self.sq_y = np.einsum("ij,ij->i", Y, Y)
            top = float(self.sq_y.max()) if len(Y) else 0.0
            if self.gamma * top < 1e300:
                g = self.gamma
                self.fast = np.hstack(
                    [2.0 * g * Y, np.full((len(Y), 1), -g), -g * self.sq_y[:, None]]
                )
        self.Y = Y

    def _block(self, X, out):
        Y, gamma = self.Y, self.gamma
        if self.kernel == "rbf":
            if self.centre is not None:
                X = X - self.centre
            sq_x = np.einsum("ij,ij->i", X, X)
            if self.fast is not None and gamma * float(sq_x.max()) < 1e300:
                Xa = np.empty((X.shape[0], X.shape[1] + 2))
                Xa[:, :-2] = X
                Xa[:, -2] = sq_x
                Xa[:, -1] = 1.0
                np.dot(Xa, self.fast.T, out=out)  # −γ‖x−y‖²
                np.minimum(out, 0.0, out=out)
            else:
                np.dot(X, Y.T, out=out)
                out *= -2.0
                out += sq_x[:, None]
                out += self.sq_y
                np.maximum(out, 0.0, out=out)
                out *= -gamma
            np.exp(out, out=out)
            return
        np.dot(X, Y.T, out=out)
        if self.kernel == "poly":
            out *= gamma
            out += self.coef0
            np.power(out, self.degree, out=out)

    def __call__(self, X, out=None, scale=None):
        """``K(X, Y)`` into ``out`` (C-contiguous); with ``scale``, row i times scale[i]."""
        n, q = X.shape[0], self.Y.shape[0]
        if out is None:
            out = np.empty((n, q))
        buf = np.empty((min(self.rows, n), q)) if scale is not None else None
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            for lo in range(0, n, self.rows):
                hi = min(lo + self.rows, n)
                if buf is None:
                    self._block(X[lo:hi], out[lo:hi])
                else:
                    b = buf[: hi - lo]
                    self._block(X[lo:hi], b)
                    np.multiply(b, scale[lo:hi, None], out=out[lo:hi])
        return out


def _kernel(X, Y, kernel: str, sigma: float, degree: int, coef0: float, out=None) -> np.ndarray:
    """``K[i, j] = k(X[i], Y[j])`` (see :class:`_Gram`); ``K(X, X)`` has an exact unit
    diagonal (rbf)."""
    out = _Gram(Y, kernel, sigma, degree, coef0)(X, out)
    if kernel == "rbf" and X is Y:
        np.fill_diagonal(out, 1.0)
    return out


#: Compiled helpers of the scores: no fast-math flags, so that LLVM keeps every sum in the
#: order written (no reassociation, no fused multiply-add) and a row's value cannot depend
#: on how the loops were vectorised for the other rows.
_ROWWISE = {"cache": True, "nogil": True}


@njit(**_ROWWISE)
def _row_products(X, Yt, out):
    """``out[i, j] = Σ_k X[i, k] Yt[k, j]``, summed over ``k = 0, 1, …`` for every entry."""
    n, d = X.shape
    for i in range(n):
        row = out[i]
        row[:] = 0.0
        for k in range(d):
            x = X[i, k]
            yk = Yt[k]
            for j in range(row.shape[0]):
                row[j] += x * yk[j]


@njit(**_ROWWISE)
def _row_sums(K, w, b, out):
    """``out[i] = Σ_j K[i, j] w[j] + b``, summed over ``j = 0, 1, …``."""
    for i in range(K.shape[0]):
        row = K[i]
        s = 0.0
        for j in range(row.shape[0]):
            s += row[j] * w[j]
        out[i] = s + b


def _scores(X, Y, w, b: float, kernel: str, sigma: float, degree: int, coef0: float):
    """``f(x) = Σ_j w_j k(x, Y_j) + b`` for every row of ``X`` (``Y=None``: ``X w + b``).

    Each row's score is computed from that row alone in a fixed order, so it is the same
    to the last bit whether the row is scored alone, in a slice or in the whole set, and
    whatever the memory layout of ``X``: a BLAS product (``K(X, Y) @ w``) is not — its
    blocking and vector paths change with the number of rows and the alignment of the
    arrays, which moved scores by ~1e-16. The kernel is that of :class:`_Gram` in its
    distance form (``‖x‖² + ‖y‖² − 2xᵀy``, clipped at 0, times ``−γ``; poly
    ``(γ xᵀy + c₀)^p``), computed for blocks of rows of about ``_PASS_BYTES``; its elementwise
    steps are NumPy's, whose values do not depend on their position in the block. ``X``
    is converted, shifted and squared one block at a time: no copy of the whole ``X`` is
    made (predicting 10⁶ rows no longer needs one or two more arrays of the size of ``X``).
    """
    if Y is None:
        X = np.ascontiguousarray(X, dtype=np.float64)
        out = np.empty(X.shape[0])
        _row_sums(X, np.ascontiguousarray(w), float(b), out)
        return out
    out = np.empty(X.shape[0])
    Y = np.ascontiguousarray(Y, dtype=np.float64)
    gamma = _gamma(sigma)
    centre = None
    if kernel == "rbf":  # features far from 0: distances from the basis' mean
        centre = _rbf_centre(Y, gamma)
        if centre is not None:
            Y = Y - centre
    Yt = np.ascontiguousarray(Y.T)
    w = np.ascontiguousarray(w)
    (n, d), m = X.shape, Y.shape[0]
    rows = max(1, _PASS_BYTES // (8 * max(m, 1)))
    buf = np.empty((min(rows, n), m))
    if kernel == "rbf":  # squared norms, each summed in feature order
        ones, sq_x, sq_y = np.ones(d), np.empty((min(rows, n), 1)), np.empty((1, m))
        _row_sums(Y * Y, ones, 0.0, sq_y[0])
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        for lo in range(0, n, rows):
            hi = min(lo + rows, n)
            Xb = np.ascontiguousarray(X[lo:hi], dtype=np.float64)
            if centre is not None:
                Xb = Xb - centre
            G = buf[: hi - lo]
            _row_products(Xb, Yt, G)
            if kernel == "rbf":
                sq = sq_x[: hi - lo]
                _row_sums(Xb * Xb, ones, 0.0, sq[:, 0])
                G *= -2.0
                G += sq
                G += sq_y
                np.maximum(G, 0.0, out=G)
                G *= -gamma
                np.exp(G, out=G)
            elif kernel == "poly":
                G *= gamma
                G += float(coef0)
                np.power(G, int(degree), out=G)
            _row_sums(G, w, float(b), out[lo:hi])
    return out


def _fitted_kernel(est) -> tuple[str, int, float]:
    """``(kernel, degree, coef0)`` that ``est`` was fitted with (``_kernel_`` is set by
    ``fit``), so that ``set_params`` after fitting does not change how the learned
    coefficients are scored; the parameters for a model pickled before session 17."""
    fitted = getattr(est, "_kernel_", None)
    return fitted if fitted is not None else (est.kernel, int(est.degree), float(est.coef0))


_REAL_POS = Interval(numbers.Real, 0, None, closed="neither")
_ASLS_CONSTRAINTS: dict = {
    **BatchClassifier._parameter_constraints,
    "r_pos": [_REAL_POS, StrOptions({"balanced"})],
    "m_pos": [_REAL_POS],
    "r_neg": [_REAL_POS],
    "m_neg": [_REAL_POS],
    "nu": [_REAL_POS],
    "tol": [Interval(numbers.Real, 0, None, closed="left")],
    "max_stages": [Interval(numbers.Integral, 1, None, closed="left")],
}
_KERNEL_CONSTRAINTS: dict = {
    "kernel": [StrOptions({"rbf", "linear", "poly"})],
    "sigma": [_REAL_POS, StrOptions({"scale"})],
    "degree": [Interval(numbers.Integral, 1, None, closed="left")],
    "coef0": [Interval(numbers.Real, None, None, closed="neither")],
}


class _ASLSMixin:
    """Fitted-state bookkeeping shared by LASLS and KASLS."""

    def _class_setup(self, t):
        """``W = νΛ`` and the margins ``m`` per pattern; sets ``r_pos_``."""
        r_pos = _balanced_ratio(t) if self.r_pos == "balanced" else float(self.r_pos)
        self.r_pos_ = r_pos
        return _class_weights(t, float(self.nu), r_pos, self.m_pos, self.r_neg, self.m_neg)

    def _stage_args(self):
        return float(self.tol), int(self.max_stages)

    def _keep_stages(self, result):
        coef, tau, changes, converged = result
        self.targets_ = tau
        self.target_changes_ = changes
        self.n_stages_ = len(changes)
        self.converged_ = converged
        return coef


# =========================================================================== LASLS
class LinearASLS(_ASLSMixin, WeightVectorMixin, BatchClassifier):
    """Linear ASLS classifier (LASLS), stagewise closed form.

    At stage ``n`` the weights :math:`\\bar\\omega = (\\omega', b)'` minimise Eq. (7),
    :math:`\\frac12\\bar\\omega'\\bar\\omega + \\frac{\\nu}{2}(\\bar X\\bar\\omega - \\Gamma)'
    \\Lambda(\\bar X\\bar\\omega - \\Gamma)`, with :math:`\\bar X = (X, e)`,
    :math:`\\Gamma_i = t_i\\tau_i` and :math:`\\Lambda_{ii} = r_i/m_i^2`:

    .. math::

        \\bar\\omega = \\Big(\\tfrac{1}{\\nu}I + \\bar X'\\Lambda\\bar X\\Big)^{-1}
        \\bar X'\\Lambda\\Gamma \\qquad \\text{(Eq. 8, ``solver="primal"``)},

    or, with the Sherman–Morrison–Woodbury identity of Eq. (9) (``solver="smw"``, an
    ``N × N`` system, for ``d ≫ N``), which simplifies to
    :math:`\\bar\\omega = \\bar X'(\\bar X\\bar X' + \\tfrac{1}{\\nu}\\Lambda^{-1})^{-1}\\Gamma`.
    Targets start at :math:`\\tau^{(0)} = 1` and follow Eq. (5),
    :math:`\\tau^{(n+1)} = z^{(n)} + S(m - z^{(n)})`, until they change by at most ``tol``.
    The matrix is the same at every stage: it is factored once per fit.

    The intercept is handled as in the paper: ``b`` is the weight of a constant feature 1
    and is regularised together with ``ω`` (the ``½ω̄'ω̄`` of Eq. 7).
    ``(r, m) = (1, 1)`` for both classes gives the linear SLS classifier (LSLS).

    Parameters
    ----------
    r_pos : float > 0 or "balanced", default="balanced"
        Ramp coefficient r+ of the positive class. ``"balanced"`` = the class ratio
        CR = N−/N+ of the training set (the paper's Table III scans multiples of CR).
    m_pos : float > 0, default=1.0
        Margin coefficient m+ of the positive class (the paper recommends r+, m+ ≥ 1).
    r_neg, m_neg : float > 0, default=1.0
        (r−, m−); the paper always uses (1, 1).
    nu : float > 0, default=1.0
        Regularisation number ν (larger = weaker regularisation).
    tol : float ≥ 0, default=1e-3
        Stop early when the targets change by at most ``tol`` (max norm) between stages.
    max_stages : int ≥ 1, default=10
        Most least-squares solves (the paper: "the update usually converges in around 10
        stages"). Stopping here is the normal end of a fit, not a failure: the stages are
        a majorise–minimise descent on the loss of Eq. (6) whose targets settle slowly
        (the outputs of confident patterns keep drifting) while the classifier settles
        within a few stages; ``converged_`` says whether ``tol`` was met.
        ``1`` = plain weighted least squares (the LS loss).
    solver : {"auto", "primal", "smw"}, default="auto"
        ``"primal"``: Eq. (8), a (d+1)×(d+1) Cholesky; ``"smw"``: Eq. (9), an N×N one;
        ``"auto"`` picks the smaller system. When the SMW matrix is not numerically
        positive definite (badly scaled features) the fit warns and solves the same model
        by Eq. (8) (``solver_ = "primal"``).
    pos_label : label, default=None
        The positive (minority) class; ``None`` means ``classes_[1]``.

    Attributes
    ----------
    weights_ : ndarray of shape (n_features + 1,)
        ``[ω, b]`` for the score of ``pos_label``.
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
        With scikit-learn's sign convention (positive votes for ``classes_[1]``).
    r_pos_ : float
        The r+ used (CR when ``r_pos="balanced"``).
    solver_ : str
        The solver used.
    n_stages_ : int
        Number of least-squares solves made.
    target_changes_ : ndarray of shape (n_stages_,)
        max|τ⁽ⁿ⁺¹⁾ − τ⁽ⁿ⁾| after each solve (the history of the targets).
    targets_ : ndarray of shape (n_samples,)
        The targets τ of the last solve.
    converged_ : bool

    References
    ----------
    .. [1] G. Xu, B.-G. Hu and J. C. Principe, "An asymmetric stagewise least square loss
       function for imbalanced classification" (seed 004), Eqs. (4)–(9).

    Examples
    --------
    >>> from skewlearn import LinearASLS
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4))
    >>> y = (X[:, 0] + 0.3 * rng.normal(size=300) > 1.3).astype(int)   # ~10% positives
    >>> clf = LinearASLS(m_pos=1.4, nu=10.0).fit(X, y)
    >>> clf.n_stages_, len(clf.target_changes_)
    (10, 10)
    >>> tpr = clf.predict(X[y == 1]).mean(); tnr = 1 - clf.predict(X[y == 0]).mean()
    >>> bool(np.sqrt(tpr * tnr) > 0.85)
    True
    """

    _parameter_constraints: ClassVar[dict] = {
        **_ASLS_CONSTRAINTS,
        "solver": [StrOptions({"auto", "primal", "smw"})],
    }
    _test_params: ClassVar[list[dict]] = [{}, {"solver": "smw", "r_pos": 2.0, "m_pos": 1.5}]

    def __init__(
        self,
        r_pos: float | str = "balanced",
        m_pos: float = 1.0,
        r_neg: float = 1.0,
        m_neg: float = 1.0,
        nu: float = 1.0,
        tol: float = 1e-3,
        max_stages: int = 10,
        solver: str = "auto",
        pos_label: Label | None = None,
    ):
        self.r_pos = r_pos
        self.m_pos = m_pos
        self.r_neg = r_neg
        self.m_neg = m_neg
        self.nu = nu
        self.tol = tol
        self.max_stages = max_stages
        self.solver = solver
        self.pos_label = pos_label

    def _fit_binary(self, X, y):
        _warn_large_linear(self, X, self.solver)
        W, m = self._class_setup(y)
        result, self.solver_ = _linear_stages(X, W, y, m, *self._stage_args(), self.solver)
        self.weights_ = self._keep_stages(result)

    def _decision(self, X):
        return np.asarray(X @ self.weights_[:-1]).ravel() + self.weights_[-1]


class KernelASLS(_ASLSMixin, BatchClassifier):
    """Kernel ASLS classifier (KASLS), and its reduced form KASLS_R.

    **KASLS** (``reduced_rate=None``): at each stage the multipliers are, Eq. (12),

    .. math::

        \\alpha = \\Big(K + ee' + \\tfrac{1}{\\nu}\\Lambda^{-1}\\Big)^{-1}\\Gamma,
        \\qquad f(x) = \\sum_i \\alpha_i k(x, x_i) + b,\\quad b = e'\\alpha
        \\quad \\text{(Eq. 13)}.

    After training, the off-training filter drops the patterns with
    :math:`|\\alpha_i| < \\theta` (``theta``); ``b`` keeps its trained value.

    **KASLS_R** (``reduced_rate=η``): a random subset :math:`X_R` of
    :math:`N_R = \\lceil\\eta N\\rceil` training rows (``random_state``) is the basis of
    :math:`f(x) = \\sum_{x_j\\in X_R} u_j k(x, x_j) + b` (Eq. 14), and
    :math:`\\frac12(u'u + b^2) + \\frac{\\nu}{2}\\varepsilon'\\Lambda\\varepsilon` is minimised
    (Eq. 15). With :math:`G = (K_R, e)`, Eqs. (17)–(18) give

    .. math::

        (u', b)' = G'\\alpha = \\nu\\,(I + \\nu G'\\Lambda G)^{-1} G'\\Lambda\\Gamma,

    an :math:`(N_R+1)`-square system factored once. KASLS_R regularises ``u'u`` (an RBF
    network on the features ``K_R``), not the RKHS norm, so ``reduced_rate=1`` is *not*
    the same model as KASLS: it is LASLS on the features ``K(X, X)``.

    Between stages only Γ changes (targets by Eq. 5), so each fit makes one Cholesky
    factorisation. ``(r, m) = (1, 1)`` gives KSLS. Kernel:
    ``"rbf"`` :math:`\\exp(-\\|x-y\\|^2/\\sigma^2)` (the paper's Gaussian),
    ``"poly"`` :math:`(x'y/\\sigma^2 + c_0)^p`, ``"linear"`` :math:`x'y`.

    Parameters
    ----------
    r_pos, m_pos, r_neg, m_neg, nu, tol, max_stages
        As in :class:`LinearASLS`.
    kernel : {"rbf", "linear", "poly"}, default="rbf"
        The kernel :math:`k` (the formulas above).
    sigma : float > 0 or "scale", default="scale"
        Kernel width σ (γ = 1/σ²). ``"scale"``: σ² = n_features · Var(X), scikit-learn's
        ``gamma="scale"``.
    degree : int ≥ 1, default=3
        Poly only.
    coef0 : float, default=1.0
        Poly only.
    theta : float ≥ 0, default=0.0
        Off-training filter: expansion coefficients with ``|coef| < theta`` are dropped
        (the paper uses 6.3e-2 on Vowel; 0 keeps all; a ``UserWarning`` when it drops all).
    reduced_rate : float in (0, 1] or None, default=None
        η = N_R / N of KASLS_R; ``None`` = full KASLS.
    random_state : int, RandomState or None, default=None
        Draws the reduced set (KASLS_R only).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.

    Attributes
    ----------
    support_vectors_ : ndarray of shape (n_support, n_features)
        Rows the decision function expands on (after the filter).
    support_ : ndarray of shape (n_support,)
        Their indices in the training set.
    dual_coef_ : ndarray of shape (n_support,)
        α (KASLS) or u (KASLS_R), for the score of ``pos_label``.
    intercept_ : float
        ``b``, for the score of ``pos_label``.
    support_ratio_ : float
        n_support / n_samples (η for KASLS_R without filtering).
    sigma_ : float
        The σ used.
    r_pos_, n_stages_, target_changes_, targets_, converged_
        As in :class:`LinearASLS`.

    References
    ----------
    .. [1] G. Xu, B.-G. Hu and J. C. Principe, "An asymmetric stagewise least square loss
       function for imbalanced classification" (seed 004), Eqs. (10)–(18).

    Examples
    --------
    >>> from skewlearn import KernelASLS
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(400, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.6).astype(int)   # a disc, ~16% positives
    >>> full = KernelASLS(nu=10.0, sigma=1.0).fit(X, y)
    >>> reduced = KernelASLS(nu=10.0, sigma=1.0, reduced_rate=0.1, random_state=0).fit(X, y)
    >>> reduced.support_ratio_
    0.1
    >>> bool((full.predict(X) == y).mean() > 0.9), bool((reduced.predict(X) == y).mean() > 0.9)
    (True, True)
    """

    _accept_sparse: ClassVar[str | bool] = False
    _parameter_constraints: ClassVar[dict] = {
        **_ASLS_CONSTRAINTS,
        **_KERNEL_CONSTRAINTS,
        "theta": [Interval(numbers.Real, 0, None, closed="left")],
        "reduced_rate": [Interval(numbers.Real, 0, 1, closed="right"), None],
        "random_state": ["random_state"],
    }
    _test_params: ClassVar[list[dict]] = [
        {},
        {"reduced_rate": 0.3, "random_state": 0, "theta": 1e-3},
        {"kernel": "poly", "degree": 2, "max_stages": 5},
    ]

    def __init__(
        self,
        r_pos: float | str = "balanced",
        m_pos: float = 1.0,
        r_neg: float = 1.0,
        m_neg: float = 1.0,
        nu: float = 1.0,
        tol: float = 1e-3,
        max_stages: int = 10,
        kernel: str = "rbf",
        sigma: float | str = "scale",
        degree: int = 3,
        coef0: float = 1.0,
        theta: float = 0.0,
        reduced_rate: float | None = None,
        random_state: RandomStateLike = None,
        pos_label: Label | None = None,
    ):
        self.r_pos = r_pos
        self.m_pos = m_pos
        self.r_neg = r_neg
        self.m_neg = m_neg
        self.nu = nu
        self.tol = tol
        self.max_stages = max_stages
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.theta = theta
        self.reduced_rate = reduced_rate
        self.random_state = random_state
        self.pos_label = pos_label

    def _gram(self, X, Y, out=None):
        return _kernel(X, Y, self.kernel, self.sigma_, int(self.degree), float(self.coef0), out)

    def _fix(self) -> str:
        if self.kernel == "poly" and self.coef0 < 0 and self.reduced_rate is None:
            return (
                f", use coef0 >= 0 (the poly kernel with coef0={self.coef0!r} is not positive "
                "semidefinite, so Eq. (12) may have no solution) or reduced_rate (KASLS_R "
                "takes any kernel), or use a smaller nu"
            )
        return ", or use a smaller nu" + (" or degree" if self.kernel == "poly" else "")

    def _n_reduced(self, n: int) -> int:
        """N_R = ⌈ηN⌉ (at least 1, at most N)."""
        return min(n, max(1, int(np.ceil(float(self.reduced_rate) * n - 1e-9))))

    def _fit_binary(self, X, y):
        n = X.shape[0]
        if self.reduced_rate is None:
            warn_large_fit(
                self, 8 * n * n, f"the {n} × {n} kernel matrix of Eq. (12)",
                "Use reduced_rate=η (KASLS_R: an N × ⌈ηN⌉ kernel block, Eqs. 14-18), or "
                "fewer rows.",
            )  # fmt: skip
        else:
            q = self._n_reduced(n) + 1
            warn_large_fit(
                self, 8 * (n * q + q * q),
                f"the {n} × {q} reduced kernel block and the {q} × {q} matrix of Eq. (18)",
                "Use a smaller reduced_rate, or fewer rows.",
            )  # fmt: skip
        W, m = self._class_setup(y)
        self.sigma_ = _resolve_sigma(self.sigma, X, self.kernel)
        stages = self._stage_args()
        if self.reduced_rate is None:
            Q = self._gram(X, X)
            Q += 1.0
            factor: list = []
            result = _dual_stages(Q, W, y, m, *stages, self._fix(), factor=factor)
            alpha = self._keep_stages(result)
            basis = np.arange(n)
            coef, b = alpha, float(alpha.sum())
            if self.kernel == "linear":  # LASLS in the SMW form (Eq. 9): check it likewise
                w = np.append(X.T @ alpha, b)
                refine = _dual_refinement(X, W, y, result[1], alpha, w, factor[0])
                _check_linear_solution(X, W, y, result[1], w, refine, "(12)")
        else:
            n_r = self._n_reduced(n)
            rng = check_random_state(self.random_state)
            basis = np.sort(rng.choice(n, size=n_r, replace=False))
            gram = _Gram(X[basis], self.kernel, self.sigma_, self.degree, self.coef0)

            def fill(lo, hi, root, out):  # rows of √W K_R: G = [K_R, e] of Eq. (17)
                gram(X[lo:hi], out, root)

            features = (n, n_r, fill)
            w = self._keep_stages(_primal_stages(features, W, y, m, *stages, self._fix()))
            coef, b = w[:-1], float(w[-1])
        keep = np.abs(coef) >= self.theta
        if len(coef) and not keep.any():
            warnings.warn(
                f"KernelASLS: theta={self.theta!r} drops every expansion coefficient (the "
                f"largest |coef| is {float(np.abs(coef).max()):.3g}), so the decision function "
                "is the constant intercept and one class is predicted everywhere. Use a "
                "smaller theta (0 keeps every pattern).",
                UserWarning,
                stacklevel=user_stacklevel(),
            )
        self.support_ = basis[keep]
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = coef[keep]
        self.intercept_ = b
        self.support_ratio_ = len(self.support_) / n
        self._kernel_ = (self.kernel, int(self.degree), float(self.coef0))

    def _decision(self, X):
        if len(self.support_) == 0:
            return np.full(X.shape[0], self.intercept_)
        kernel, degree, coef0 = _fitted_kernel(self)
        return _scores(
            X, self.support_vectors_, self.dual_coef_, self.intercept_, kernel, self.sigma_,
            degree, coef0,
        )  # fmt: skip


# =========================================================================== baselines
def _class_costs(t: np.ndarray, C_pos, C_neg: float) -> tuple[float, float]:
    """(C+, C−), checked usable in float64 (with C+/C−, the class weight given to libsvm)."""
    with np.errstate(all="ignore"):
        ratio = _balanced_ratio(t)
        c_pos = float(np.float64(C_neg) * ratio) if C_pos == "balanced" else float(C_pos)
        c_ratio = float(np.float64(c_pos) / np.float64(C_neg))
    what = f"C_pos (= {C_pos!r}" + (f" × N−/N+ = {ratio:.3g})" if C_pos == "balanced" else ")")
    _pattern_weight(c_pos, what)
    _pattern_weight(float(C_neg), "C_neg")
    _pattern_weight(c_ratio, f"C_pos / C_neg ({c_pos!r} / {C_neg!r})")
    return c_pos, float(C_neg)


_COST_CONSTRAINTS: dict = {
    **BatchClassifier._parameter_constraints,
    "C_pos": [_REAL_POS, StrOptions({"balanced"})],
    "C_neg": [_REAL_POS],
}


class ProximalSVMDEC(BatchClassifier):
    """Proximal SVM with different error costs (PSVM-DEC).

    The proximal SVM of Fung and Mangasarian [2]_ with a cost per class (the class
    weighting of their multicategory PSVM [1]_): with :math:`\\bar X = (X, e)`
    (``kernel="linear"``) or :math:`\\bar X = (K(X, X), e)` (nonlinear PSVM,
    :math:`f(x) = \\sum_j u_j k(x, x_j) + b`), and :math:`C = \\mathrm{diag}(C_{t_i})`,

    .. math::

        \\min_{\\bar\\omega}\\ \\tfrac12\\bar\\omega'\\bar\\omega
        + \\tfrac12(\\bar X\\bar\\omega - t)'C(\\bar X\\bar\\omega - t),\\qquad
        \\bar\\omega = (I + \\bar X'C\\bar X)^{-1}\\bar X'C\\,t .

    This is one stage of LASLS (Eq. 8 with ν = C−, r+ = C+/C−, τ = 1); it is dense in the
    training set (every pattern is a support vector). With ``kernel="linear"`` on data
    wider than long (N < d + 1) the same model is solved in the N-square
    Sherman–Morrison–Woodbury form, :math:`\\bar\\omega = \\bar X'(\\bar X\\bar X' +
    C^{-1})^{-1}t` (Eq. 9 of seed 004), as :class:`LinearASLS` does.

    Parameters
    ----------
    C_pos : float > 0 or "balanced", default="balanced"
        Error cost of the positives; ``"balanced"`` = C_neg · N−/N+.
    C_neg : float > 0, default=1.0
        Error cost of the negatives.
    kernel : {"linear", "rbf", "poly"}, default="linear"
        ``"linear"``: the paper's linear PSVM; a kernel one uses the features K(X, X).
    sigma, degree, coef0
        Kernel parameters as in :class:`KernelASLS`.
    solver : {"auto", "primal", "smw"}, default="auto"
        Linear kernel only: the (d+1)-square system (``"primal"``), the N-square SMW form
        (``"smw"``), or the smaller of the two (``"auto"``). A kernel PSVM's features
        K(X, X) are N wide, so both forms cost the same; it uses the primal one and
        refuses ``"smw"``.
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.

    Attributes
    ----------
    weights_ : ndarray of shape (n_basis + 1,)
        ``[w, b]`` (linear) or ``[u, b]`` (kernel), for the score of ``pos_label``.
    basis_ : ndarray of shape (n_samples, n_features) or None
        A copy of the training rows (kernel only).
    C_pos_ : float
    solver_ : str
        The form solved, ``"primal"`` or ``"smw"``.

    References
    ----------
    .. [1] G. M. Fung and O. L. Mangasarian, "Multicategory proximal support vector
       machine classifiers", Machine Learning 59(1), 2005.
    .. [2] G. M. Fung and O. L. Mangasarian, "Proximal support vector machine
       classifiers", KDD 2001.

    Examples
    --------
    >>> from skewlearn import ProximalSVMDEC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> y = (X[:, 0] > 1.2).astype(int)
    >>> clf = ProximalSVMDEC(C_neg=10.0).fit(X, y)
    >>> bool(clf.predict(X[y == 1]).mean() > 0.8)
    True
    """

    _accept_sparse: ClassVar[str | bool] = False
    _parameter_constraints: ClassVar[dict] = {
        **_COST_CONSTRAINTS,
        **_KERNEL_CONSTRAINTS,
        "solver": [StrOptions({"auto", "primal", "smw"})],
    }
    _test_params: ClassVar[list[dict]] = [{}, {"kernel": "rbf", "C_pos": 3.0}, {"solver": "smw"}]

    def __init__(
        self,
        C_pos: float | str = "balanced",
        C_neg: float = 1.0,
        kernel: str = "linear",
        sigma: float | str = "scale",
        degree: int = 3,
        coef0: float = 1.0,
        solver: str = "auto",
        pos_label: Label | None = None,
    ):
        self.C_pos = C_pos
        self.C_neg = C_neg
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.solver = solver
        self.pos_label = pos_label

    def _fit_binary(self, X, y):
        if self.kernel != "linear" and self.solver == "smw":
            raise ValueError(
                f"solver='smw' is for kernel='linear' (the kernel PSVM's features "
                f"K(X, X) are N wide, so its N-square form is the primal one); use "
                f"solver='auto' or 'primal' with kernel={self.kernel!r}."
            )
        if self.kernel == "linear":
            _warn_large_linear(self, X, self.solver)
        else:
            q = X.shape[0] + 1
            warn_large_fit(
                self,
                8 * (q * q + (q - 1) * q),
                f"the {q - 1} × {q} kernel features K(X, X) and the {q} × {q} matrix of "
                "their least-squares system",
                "Use kernel='linear', a reduced kernel basis (KernelASLS(reduced_rate=η, "
                "max_stages=1) is a reduced proximal SVM), or fewer rows.",
            )
        c_pos, c_neg = _class_costs(y, self.C_pos, self.C_neg)
        self.C_pos_ = c_pos
        self.sigma_ = _resolve_sigma(self.sigma, X, self.kernel)
        # a copy: the validated X can be the caller's own array, which an in-place edit
        # after the fit would change under the model (KernelASLS keeps X[support_], a copy)
        self.basis_ = None if self.kernel == "linear" else X.copy()
        self._kernel_ = (self.kernel, int(self.degree), float(self.coef0))
        cost = np.where(y > 0, c_pos, c_neg)  # one LS stage: W = C, Γ = t
        fix = ", or use smaller costs" + ("" if self.kernel == "linear" else " or a larger sigma")
        if self.kernel == "linear":
            result, self.solver_ = _linear_stages(X, cost, y, cost, np.inf, 1, self.solver, fix)
            self.weights_ = result[0]
            return
        gram = _Gram(X, self.kernel, self.sigma_, self.degree, self.coef0)

        def fill(lo, hi, root, out):  # the rows of √C K(X, X), built once in place
            gram(X[lo:hi], out, root)

        self.solver_ = "primal"
        self.weights_ = _primal_stages(
            (X.shape[0], X.shape[0], fill), cost, y, cost, np.inf, 1, fix
        )[0]

    def _decision(self, X):
        kernel, degree, coef0 = _fitted_kernel(self)
        return _scores(
            X, self.basis_, self.weights_[:-1], self.weights_[-1], kernel, self.sigma_,
            degree, coef0,
        )  # fmt: skip


class SVMDEC(BatchClassifier):
    """SVM with different error costs (SVM-DEC, Veropoulos et al. [1]_).

    scikit-learn's :class:`~sklearn.svm.SVC` (libsvm, as in the paper) with the soft-margin
    cost C+ on the positives and C− on the negatives:

    .. math::

        \\min\\ \\tfrac12\\|\\omega\\|^2 + C_+\\sum_{t_i=+1}\\xi_i + C_-\\sum_{t_i=-1}\\xi_i .

    Parameters
    ----------
    C_pos : float > 0 or "balanced", default="balanced"
        Cost of the positives; ``"balanced"`` = C_neg · N−/N+.
    C_neg : float > 0, default=1.0
        Cost of the negatives.
    kernel : {"rbf", "linear", "poly"}, default="rbf"
        The kernel, as in :class:`KernelASLS`.
    sigma, degree, coef0
        Kernel parameters as in :class:`KernelASLS` (γ = 1/σ²).
    tol : float > 0, default=1e-3
        libsvm's stopping tolerance.
    max_iter : int ≥ 1, default=10_000_000
        Cap on libsvm's SMO iterations (scikit-learn's ``SVC`` has none by default). A fit
        that reaches it stops with scikit-learn's ConvergenceWarning instead of running on:
        a ``tol`` below float64's rounding (e.g. 1e-300) is never met. Ordinary fits need
        far fewer (tens of thousands on 50,000 rows).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.

    Attributes
    ----------
    svc_ : sklearn.svm.SVC
        Fitted on labels ±1 (+1 = ``pos_label``).
    n_iter_ : int
        libsvm's SMO iterations (``max_iter`` when the cap was reached).
    support_ratio_ : float
        Support vectors / training rows.
    C_pos_ : float

    References
    ----------
    .. [1] K. Veropoulos, C. Campbell and N. Cristianini, "Controlling the sensitivity of
       support vector machines", IJCAI 1999 (baseline of seed 004, Tables V–VI).

    Examples
    --------
    >>> from skewlearn import SVMDEC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 2))
    >>> y = (X[:, 0] > 1.2).astype(int)
    >>> clf = SVMDEC(kernel="linear").fit(X, y)
    >>> bool(clf.predict(X[y == 1]).mean() > 0.8)
    True
    """

    _parameter_constraints: ClassVar[dict] = {
        **_COST_CONSTRAINTS,
        **_KERNEL_CONSTRAINTS,
        "tol": [_REAL_POS],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        C_pos: float | str = "balanced",
        C_neg: float = 1.0,
        kernel: str = "rbf",
        sigma: float | str = "scale",
        degree: int = 3,
        coef0: float = 1.0,
        tol: float = 1e-3,
        max_iter: int = 10_000_000,
        pos_label: Label | None = None,
    ):
        self.C_pos = C_pos
        self.C_neg = C_neg
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.pos_label = pos_label

    def _make_svc(self, c_pos: float, c_neg: float, sigma: float):
        from sklearn.svm import SVC

        return SVC(
            C=c_neg,
            class_weight={1.0: c_pos / c_neg, -1.0: 1.0},
            kernel=self.kernel,
            gamma=_gamma(sigma),
            degree=int(self.degree),
            coef0=float(self.coef0),
            tol=float(self.tol),
            max_iter=int(self.max_iter),
        )

    def _fit_svc(self, est, X, y):
        """``est.fit(X, y)``, with libsvm's overflow error restated with its cause."""
        try:
            return est.fit(X, y)
        except ValueError as exc:
            if "not finite" not in str(exc):
                raise
            raise self._kernel_overflow_error(X) from exc

    def _kernel_overflow_error(self, X) -> ValueError:
        """libsvm's non-finite solution restated: the largest kernel value (a bound from
        the largest ``|x|²``) against float32, in which libsvm caches the kernel."""
        sq = X.multiply(X).sum(axis=1) if sp.issparse(X) else np.einsum("ij,ij->i", X, X)
        with np.errstate(over="ignore"):
            r = np.float64(np.max(sq))
            if self.kernel == "linear":
                largest = r
            elif self.kernel == "poly":
                largest = (_gamma(self.sigma_) * r + abs(self.coef0)) ** int(self.degree)
            else:  # rbf and sigmoid values lie in [-1, 1]
                largest = 1.0
        detail = f"|x| up to {_max_abs(X):.3g}"
        other_fix = ""
        if self.kernel != "linear":
            detail = (
                f"gamma = 1/sigma**2 = {_gamma(self.sigma_):.3g}, coef0={self.coef0!r}, "
                f"degree={self.degree!r}, " + detail
            )
            other_fix = ", or use a larger sigma, a smaller |coef0| or a smaller degree"
        return libsvm_kernel_error(self.kernel, float(largest), detail, other_fix)

    def _fit_binary(self, X, y):
        c_pos, c_neg = _class_costs(y, self.C_pos, self.C_neg)
        self.C_pos_ = c_pos
        self.sigma_ = _resolve_sigma(self.sigma, X, self.kernel)
        self.svc_ = self._fit_svc(
            self._make_svc(c_pos, c_neg, self.sigma_),
            _libsvm_rows(X),
            y,
        )
        self.n_iter_ = int(self.svc_.n_iter_[0])
        self.support_ratio_ = len(self.svc_.support_) / X.shape[0]

    def _decision(self, X):
        """libsvm's scores, with ``X`` in the layout the SVC was trained on: scikit-learn's
        ``SVC`` refuses sparse input after a dense fit, so sparse ``X`` is densified then
        (in blocks of rows of about ``_PASS_BYTES``), and dense ``X`` is passed as CSR after
        a sparse fit. libsvm scores each row alone, so the scores equal those of the same
        rows in the training layout."""
        svc = self.svc_
        if sp.issparse(svc.support_vectors_):
            return svc.decision_function(_libsvm_rows(sp.csr_matrix(X)))
        if not sp.issparse(X):
            return svc.decision_function(X)
        rows = max(1, _PASS_BYTES // (8 * X.shape[1]))
        blocks = [
            svc.decision_function(X[lo : lo + rows].toarray()) for lo in range(0, X.shape[0], rows)
        ]
        return np.concatenate(blocks) if blocks else np.empty(0)


class SVMSDC(SVMDEC):
    """SMOTE with different costs (SVM-SDC, Akbani et al. [1]_).

    An imbalanced-learn :class:`~imblearn.pipeline.Pipeline` of
    :class:`~imblearn.over_sampling.SMOTE` on the positives, then :class:`SVMDEC`'s SVC
    with costs C+ / C−. SMOTE grows the positives to ``sampling_strategy · N−`` (left
    out when they are already that many, and, with a ``UserWarning``, when there is a
    single positive to interpolate from); ``"balanced"`` costs use the class ratio
    *after* SMOTE (the data the SVM sees). Each synthetic positive lies on the segment
    between a positive :math:`x_i` and one of its ``k_neighbors`` nearest positives
    :math:`x_{nn}`, and the SVM of :class:`SVMDEC` is trained on the positives :math:`P`,
    the synthetic ones :math:`S` and the negatives :math:`N`:

    .. math::

        x_s = x_i + u\\,(x_{nn} - x_i),\\ u \\sim U(0, 1); \\qquad
        \\min\\ \\tfrac12\\|\\omega\\|^2 + C_+\\sum_{i \\in P \\cup S}\\xi_i
        + C_-\\sum_{i \\in N}\\xi_i .

    Parameters
    ----------
    C_pos, C_neg, kernel, sigma, degree, coef0, tol, max_iter
        As in :class:`SVMDEC`.
    sampling_strategy : float in (0, 1], default=0.5
        Desired N+ / N− after SMOTE.
    k_neighbors : int ≥ 1, default=5
        SMOTE's neighbours (reduced to N+ − 1 when the positives are fewer).
    random_state : int, RandomState or None, default=None
        Seeds SMOTE.
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.

    Attributes
    ----------
    pipeline_ : imblearn.pipeline.Pipeline
        Fitted on labels ±1 (+1 = ``pos_label``).
    svc_ : sklearn.svm.SVC
    n_iter_ : int
        libsvm's SMO iterations.
    support_ratio_ : float
        Support vectors / rows the SVM was trained on (after SMOTE).
    C_pos_ : float

    References
    ----------
    .. [1] R. Akbani, S. Kwek and N. Japkowicz, "Applying support vector machines to
       imbalanced datasets", ECML 2004 (baseline of seed 004, Tables V–VI).

    Examples
    --------
    >>> from skewlearn import SVMSDC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 2))
    >>> y = (X[:, 0] > 1.2).astype(int)
    >>> clf = SVMSDC(kernel="linear", random_state=0).fit(X, y)
    >>> bool(clf.predict(X[y == 1]).mean() > 0.8)
    True
    """

    _parameter_constraints: ClassVar[dict] = {
        **SVMDEC._parameter_constraints,
        "sampling_strategy": [Interval(numbers.Real, 0, 1, closed="right")],
        "k_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        C_pos: float | str = "balanced",
        C_neg: float = 1.0,
        kernel: str = "rbf",
        sigma: float | str = "scale",
        degree: int = 3,
        coef0: float = 1.0,
        tol: float = 1e-3,
        max_iter: int = 10_000_000,
        sampling_strategy: float = 0.5,
        k_neighbors: int = 5,
        random_state: RandomStateLike = None,
        pos_label: Label | None = None,
    ):
        super().__init__(
            C_pos=C_pos,
            C_neg=C_neg,
            kernel=kernel,
            sigma=sigma,
            degree=degree,
            coef0=coef0,
            tol=tol,
            max_iter=max_iter,
            pos_label=pos_label,
        )
        self.sampling_strategy = sampling_strategy
        self.k_neighbors = k_neighbors
        self.random_state = random_state

    def _fit_binary(self, X, y):
        try:
            from imblearn.over_sampling import SMOTE
            from imblearn.pipeline import Pipeline
        except ImportError as exc:  # pragma: no cover - test extra installed
            raise ImportError(
                "SVMSDC needs imbalanced-learn: pip install imbalanced-learn (or skewlearn[test])."
            ) from exc
        n_pos = int(np.sum(y > 0))
        n_neg = len(y) - n_pos
        target = int(np.ceil(float(self.sampling_strategy) * n_neg))
        smote = "passthrough"
        n_pos_after = n_pos
        if target > n_pos and n_pos >= 2:
            smote = SMOTE(
                sampling_strategy={1.0: target},
                k_neighbors=min(int(self.k_neighbors), n_pos - 1),
                random_state=self.random_state,
            )
            n_pos_after = target
        elif target > n_pos:
            warnings.warn(
                f"SVMSDC: y holds {n_pos} positive ({self.pos_label_!r}), but SMOTE "
                "interpolates between positives and needs at least 2; fitting without "
                "oversampling, i.e. SVM-DEC (the cost-weighted SVM alone).",
                UserWarning,
                stacklevel=user_stacklevel(),
            )
        t_after = np.concatenate([np.ones(n_pos_after), -np.ones(n_neg)])
        c_pos, c_neg = _class_costs(t_after, self.C_pos, self.C_neg)
        self.C_pos_ = c_pos
        self.sigma_ = _resolve_sigma(self.sigma, X, self.kernel)
        svc = self._make_svc(c_pos, c_neg, self.sigma_)
        pipeline = Pipeline([("smote", smote), ("svc", svc)])
        self.pipeline_ = self._fit_svc(pipeline, _libsvm_rows(X), y)
        self.svc_ = self.pipeline_.named_steps["svc"]
        self.n_iter_ = int(self.svc_.n_iter_[0])
        self.support_ratio_ = len(self.svc_.support_) / (n_pos_after + n_neg)
