"""Second-order online linear learners: SOP, CW, AROW, NAROW, NHERD, IELLIP, SCW.

Besides the weight vector (the mean ``μ``) each learner keeps a second-order matrix
``Σ`` over the ``d + 1`` augmented coordinates (the last one is the intercept):

* ``covariance="full"``: ``Σ`` is a ``(d+1, d+1)`` array updated by exact rank-one
  steps ``Σ ← Σ − β (Σx)(Σx)ᵀ`` in O(d²) per update (O(nnz·d) to form ``Σx`` from a
  CSR row). Only the upper triangle is computed and mirrored, so ``Σ`` is exactly
  symmetric; every ``β`` keeps it positive definite (``β xᵀΣx < 1``).
* ``covariance="diag"``: ``Σ`` is the vector of its diagonal and every step touches the
  row's non-zeros only (O(nnz) per sample). Following the diagonal approximations of the
  CW and AROW papers, the diagonal of the *precision* ``Σ⁻¹`` receives the diagonal of
  the exact rank-one precision step: ``1/Σ_jj ← 1/Σ_jj + κ x_j²``. NHERD uses the
  diagonal rule of its own paper.

Each public class is thin: it declares its hyperparameters and calls one private
compiled kernel that loops over the whole batch (see :mod:`skewlearn.base`).

References
----------
.. [1] S. C. H. Hoi, "Online learning: theory, algorithms and applications", tutorial
   slides, 2013 (seed 002), "Second Order Online Learning methods".
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from numba import njit
from scipy.special import ndtri
from sklearn.utils._param_validation import Interval, StrOptions

from .._config import NJIT, NJIT_INLINE
from .._docs import fill_doc
from .._rows import row_axpy, row_col, row_dot, row_span, row_wdot
from ..base import FLOAT32_ROWS, OnlineLinearClassifier, warn_large_matrices
from .first_order import count_sample

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["AROW", "CW", "IELLIP", "NAROW", "NHERD", "SCW", "SOP"]

_COVARIANCES = {"diag", "full"}


# --------------------------------------------------------------------------- helpers
# The helpers index ``rows[0]`` in place rather than naming it: a named array is a counted
# reference, incremented and decremented around every inlined call (see skewlearn._rows).
@njit(**NJIT_INLINE)
def _cov_times_row(S, rows, i, z):
    """``z ← Σ [x_i, b]`` for a full symmetric ``Σ``; O(nnz · d)."""
    d = rows[3]
    bias = rows[5]
    z[:] = 0.0
    start, stop = row_span(rows, i)
    for p in range(start, stop):
        xj = rows[0][p]
        if xj != 0.0:
            j = row_col(rows, p, start)
            for k in range(d + 1):
                z[k] += xj * S[j, k]
    if bias != 0.0:
        for k in range(d + 1):
            z[k] += bias * S[d, k]


@njit(**NJIT_INLINE)
def _sym_downdate(S, z, beta, scale):
    """``Σ ← (Σ − β z zᵀ) · scale`` on the upper triangle, mirrored: exactly symmetric."""
    n = z.shape[0]
    for r in range(n):
        bz = beta * z[r]
        for c in range(r, n):
            val = (S[r, c] - bz * z[c]) * scale
            S[r, c] = val
            S[c, r] = val


@njit(**NJIT_INLINE)
def _full_axpy(a, z, w):
    for k in range(z.shape[0]):
        w[k] += a * z[k]


@njit(**NJIT_INLINE)
def _diag_mean_step(a, s, rows, i, w):
    """``w ← w + a · diag(s) [x_i, b]`` over the non-zeros of the row."""
    d = rows[3]
    bias = rows[5]
    start, stop = row_span(rows, i)
    for p in range(start, stop):
        j = row_col(rows, p, start)
        w[j] += a * s[j] * rows[0][p]
    w[d] += a * s[d] * bias


@njit(**NJIT_INLINE)
def _diag_precision_step(s, rows, i, kappa):
    """``1/s_j ← 1/s_j + κ x_j²`` on the non-zeros (written without reciprocals)."""
    d = rows[3]
    bias = rows[5]
    start, stop = row_span(rows, i)
    for p in range(start, stop):
        j = row_col(rows, p, start)
        x = rows[0][p]
        if x != 0.0 and s[j] > 0.0:  # a product of non-zero finite factors: never inf * 0
            s[j] = s[j] / (1.0 + kappa * x * x * s[j])
    if bias != 0.0 and s[d] > 0.0:
        s[d] = s[d] / (1.0 + kappa * bias * bias * s[d])


@njit(**NJIT_INLINE)
def _diag_nherd_step(s, rows, i, C):
    """NHERD's diagonal rule ``s_j ← s_j / (1 + C x_j² s_j)²`` on the non-zeros."""
    d = rows[3]
    bias = rows[5]
    start, stop = row_span(rows, i)
    for p in range(start, stop):
        j = row_col(rows, p, start)
        x = rows[0][p]
        if x != 0.0 and s[j] > 0.0:  # never inf * 0 (see _diag_precision_step)
            q = 1.0 + C * x * x * s[j]
            s[j] = s[j] / (q * q)
    if bias != 0.0 and s[d] > 0.0:
        q = 1.0 + C * bias * bias * s[d]
        s[d] = s[d] / (q * q)


# --------------------------------------------------------------------------- numerical guards
#: xᵀΣx is trusted only above this multiple of Σ|x_j (Σx)_j| (its rounding error is about
#: (d+1)·2⁻⁵³ times that sum; below it the sign and size of the computed value are noise).
_V_RESOLUTION = 1e-9
#: A full-covariance step removes at most this fraction of the variance along x: the
#: kept fraction 1/(1 + κv) is computed as a difference, and below ~4000 ulp it is rounding.
#: (It was 1 − 1e-6, which cut the papers' steps short on ordinary unscaled rows: κv > 1e6
#: at |x| ~ 30 for NHERD, ~1000 for AROW/SOP.)
_MAX_SHRINK = 1.0 - 2.0**-40


@njit(**NJIT_INLINE)
def _row_absdot(z, rows, i):
    """``Σ_j |x_j z_j|`` over ``[x_i, b]``: the scale of the rounding error of ``xᵀz``."""
    d = rows[3]
    bias = rows[5]
    acc = 0.0
    start, stop = row_span(rows, i)
    for p in range(start, stop):
        acc += abs(rows[0][p] * z[row_col(rows, p, start)])
    return acc + abs(bias * z[d])


# --------------------------------------------------------------------------- Gaussian family
# One coefficient rule per learner; the full and diagonal kernels share them.
_AROW, _CW, _SCW1, _SCW2, _NAROW, _NHERD = 0, 1, 2, 3, 4, 5


#: CW's Lemma 1 numerator −b₁ + √disc is evaluated as printed unless it is below this
#: fraction of b₁ (20 or more bits cancelled); then in the form without subtraction.
_CW_CANCELLED = 2.0**-20


#: SCW's closed forms are evaluated as printed for v (n) in this range, where their cubic
#: terms neither overflow nor underflow; outside it, on rescaled arguments (same value).
#: NHERD's β likewise, for v + 1/C in this range (its square is then a normal number).
_MODERATE_LO, _MODERATE_HI = 1e-75, 1e75


@njit(**NJIT_INLINE)
def _sqrt_u(alpha, v, phi):
    """``√u = ½(−αvφ + √(α²v²φ² + 4v))`` in the cancellation-free form ``2v/(αvφ + √·)``.

    For ``v`` outside [1e-75, 1e75], or where ``α²v²φ² + 4v`` overflows, the same number
    with ``√v`` factored out, ``2√v/(α√vφ + √(α²vφ² + 4))``."""
    a = alpha * v * phi
    t = a * a + 4.0 * v
    if _MODERATE_LO <= v <= _MODERATE_HI and t < math.inf:
        return 2.0 * v / (a + math.sqrt(t))
    rv = math.sqrt(v)
    b = alpha * rv * phi
    return 2.0 * rv / (b + math.sqrt(b * b + 4.0))


@njit(**NJIT_INLINE)
def _coefficients(kind, m, v, p1, p2):
    """``(α, κ, β)`` for margin ``m = y μ·x`` and confidence ``v = xᵀΣx > 0``.

    The mean moves by ``α y Σx``; the precision by ``κ x xᵀ`` (so the full covariance
    by ``β = κ / (1 + κ v)``, except NHERD, whose ``β`` is its own). ``α = 0`` means
    no update.
    """
    if kind == _AROW:  # p1 = r
        loss = 1.0 - m
        if loss <= 0.0:
            return 0.0, 0.0, 0.0
        beta = 1.0 / (v + p1)
        return loss * beta, 1.0 / p1, beta
    if kind == _NAROW:  # p1 = b; r_t = v/(b v − 1) if v > 1/b else ∞, κ = 1/r_t
        loss = 1.0 - m
        kappa = p1 - 1.0 / v
        if loss <= 0.0 or kappa <= 0.0:
            return 0.0, 0.0, 0.0
        beta = kappa / (1.0 + kappa * v)
        return loss * beta, kappa, beta
    if kind == _NHERD:  # p1 = C, γ = 1/C
        loss = 1.0 - m
        if loss <= 0.0:
            return 0.0, 0.0, 0.0
        g = 1.0 / p1
        vg = v + g
        alpha = loss / vg
        if _MODERATE_LO <= vg <= _MODERATE_HI:
            return alpha, 0.0, (v + 2.0 * g) / vg / vg
        # Outside it (v + g)² overflows or underflows (rows of norm beyond ~1e77, or C
        # beyond ~1e154), and fast-math (reassoc, arcp) folds the two divisions above into
        # one by the square: β would be 0 or inf. (v + 2g)/(v + g) = 1 + g/(v + g) is in
        # [1, 2], so this form divides by v + g alone.
        return alpha, 0.0, (1.0 + g / vg) / vg
    phi = p1
    if kind == _CW:  # Dredze et al. 2008, Lemma 1
        b1 = 1.0 + 2.0 * phi * m
        disc = b1 * b1 - 8.0 * phi * (m - phi * v)
        if disc < 0.0:
            # rounding: the exact value (1 - 2φm)² + 8φ²v ≥ 0 is then ~0, so m ≈ 1/(2φ) and
            # v ≈ 0, where the constraint m ≥ φv holds and γ < 0 (no update), not NaN
            return 0.0, 0.0, 0.0
        den = 4.0 * phi * v
        if den > 0.0:
            gamma = (-b1 + math.sqrt(disc)) / den
            cancelled = b1 > 0.0 and gamma * den < _CW_CANCELLED * b1
        else:
            # 4φV underflowed to 0 (φ near 0, i.e. eta near 0.5, and a subnormal V > 0):
            # the printed form would divide by zero, and φV in the form below is 0 too.
            # The same γ as 2(φ − M/V)/(b1 + √disc) (b1 + √disc ≥ 2 when b1 > 0), or
            # with the denominator's factors divided one at a time.
            cancelled = False
            if b1 > 0.0:
                gamma = 2.0 * (phi - m / v) / (b1 + math.sqrt(disc))
            else:
                gamma = (-b1 + math.sqrt(disc)) / (4.0 * phi) / v
        if cancelled:
            # most of b1 cancelled in the numerator (small φV and M: at V ~ 1e-18 it was
            # 0, so no update ever); the same γ with (√disc − b1)(√disc + b1) = disc − b1².
            # (Written with the subexpressions of disc, so that the fused multiply-adds of
            # the printed form, and hence every other result, are unchanged.)
            gamma = -2.0 * (m - phi * v) / (v * (b1 + math.sqrt(disc)))
        if gamma <= 0.0:
            return 0.0, 0.0, 0.0
        kappa = 2.0 * gamma * phi
        return gamma, kappa, kappa / (1.0 + kappa * v)
    # SCW-I / SCW-II (Wang, Zhao, Hoi 2012, Propositions 1 and 2); p2 = C
    if phi * math.sqrt(v) - m <= 0.0:
        return 0.0, 0.0, 0.0
    # Both α are homogeneous, α(m, v, n) = α(m/√s, v/s, n/s)/√s for any s > 0. Where the
    # printed formula would overflow or underflow (its terms are cubic in v and n), i.e.
    # for v (SCW-I) or n (SCW-II) outside [1e-75, 1e75] or a non-finite term, it is
    # evaluated at s = v (SCW-I) or s = n (SCW-II).
    if kind == _SCW1:
        psi = 1.0 + 0.5 * phi * phi
        zeta = 1.0 + phi * phi
        rad = 0.25 * m * m * phi**4 + v * phi * phi * zeta
        den = v * zeta
        if _MODERATE_LO <= v <= _MODERATE_HI and rad < math.inf:
            alpha = (-m * psi + math.sqrt(rad)) / den
        else:
            rv = math.sqrt(v)
            ms = m / rv
            alpha = (-ms * psi + math.sqrt(0.25 * ms * ms * phi**4 + phi * phi * zeta)) / zeta / rv
        alpha = min(p2, alpha)
    else:
        n = v + 0.5 / p2
        rad = phi * phi * m * m * v * v + 4.0 * n * v * (n + v * phi * phi)
        den = 2.0 * (n * n + n * v * phi * phi)
        if _MODERATE_LO <= n <= _MODERATE_HI and rad < math.inf and den < math.inf:
            alpha = (-(2.0 * m * n + phi * phi * m * v) + phi * math.sqrt(rad)) / den
        else:
            rn = math.sqrt(n)
            ms = m / rn
            vs = v / n
            gam = phi * math.sqrt(phi * phi * ms * ms * vs * vs + 4.0 * vs * (1.0 + vs * phi * phi))
            alpha = (-(2.0 * ms + phi * phi * ms * vs) + gam) / (2.0 * (1.0 + vs * phi * phi)) / rn
    if alpha <= 0.0:
        return 0.0, 0.0, 0.0
    su = _sqrt_u(alpha, v, phi)
    if not su > 0.0:  # u underflowed: no variance is left along x (κ → ∞, β → 1/v)
        return alpha, math.inf, 1.0 / v
    return alpha, alpha * phi / su, alpha * phi / (su + v * alpha * phi)


@njit(**NJIT)
def _gaussian_learn_full(w, S, z, counts, rows, y, scores, kind, p1, p2):
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        _cov_times_row(S, rows, i, z)
        v = row_dot(z, rows, i)
        if not v > _V_RESOLUTION * _row_absdot(z, rows, i):
            # zero row, or xᵀΣx lost in rounding (Σ numerically singular along x): no step
            continue
        alpha, kappa, beta = _coefficients(kind, y[i] * f, v, p1, p2)
        if alpha <= 0.0:
            continue
        _full_axpy(alpha * y[i], z, w)
        # keep a fraction of the variance along x so that rounding cannot make Σ
        # indefinite (exact arithmetic leaves 1/(1 + κv) of it; see docs/reliability.md)
        _sym_downdate(S, z, min(beta, _MAX_SHRINK / v), 1.0)
        counts[3] += 1


@njit(**NJIT)
def _gaussian_learn_diag(w, s, counts, rows, y, scores, kind, p1, p2):
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        v = row_wdot(s, rows, i)
        if not v > 0.0:
            continue
        alpha, kappa, beta = _coefficients(kind, y[i] * f, v, p1, p2)
        if alpha <= 0.0:
            continue
        _diag_mean_step(alpha * y[i], s, rows, i, w)
        if kind == _NHERD:
            _diag_nherd_step(s, rows, i, p1)
        else:
            _diag_precision_step(s, rows, i, kappa)
        counts[3] += 1


class _GaussianLinear(OnlineLinearClassifier):
    """Shared state and driver of AROW, CW, SCW, NAROW and NHERD (private)."""

    _input_dtypes = FLOAT32_ROWS

    _kind: ClassVar[int] = -1
    _id_keys: ClassVar[tuple] = ("covariance", "variant")
    #: With ``covariance="diag"`` a step writes the row's columns and the intercept of
    #: both vectors (:class:`OnlineClassifier`); a full Σ moves every weight.
    _column_state: ClassVar[tuple[str, ...]] = ("weights_", "covariance_")

    def _column_state_names(self) -> tuple[str, ...]:
        return self._column_state if self.covariance == "diag" else ()

    _test_params: ClassVar[list] = [{}, {"covariance": "full"}]

    def _initial_variance(self) -> float:
        return 1.0

    def _coef_params(self) -> tuple[int, float, float]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        a = float(self._initial_variance())
        if self.covariance == "full":
            warn_large_matrices(self, 1, n_features + 1, "diag")
            self.covariance_ = a * np.eye(n_features + 1)
        else:
            self.covariance_ = np.full(n_features + 1, a)

    def _learn(self, rows, y, scores):
        kind, p1, p2 = self._coef_params()
        if self.covariance == "full":
            z = np.empty(self.weights_.shape[0])
            _gaussian_learn_full(
                self.weights_, self.covariance_, z, self.counts_, rows, y, scores, kind, p1, p2
            )
        else:
            _gaussian_learn_diag(
                self.weights_, self.covariance_, self.counts_, rows, y, scores, kind, p1, p2
            )


_COMMON_ATTRIBUTES = """
    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    pos_label_ : label
    weights_ : ndarray of shape (n_features + 1,)
        The mean ``μ = [w, b]``.
    covariance_ : ndarray of shape (n_features + 1, n_features + 1) or (n_features + 1,)
        ``Σ`` (full), or its diagonal (diag); the last coordinate is the intercept's.
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    counts_ : ndarray of shape (4,)
        ``[seen, positives, negatives, updates]``.
"""

_COVARIANCE_DOC = """covariance : {"diag", "full"}, default="diag"
        ``"full"`` keeps the whole ``(d+1)×(d+1)`` matrix (O(d²) per update, the
        papers' algorithm; a ``RuntimeWarning`` when it passes 1 GiB); ``"diag"`` keeps
        its diagonal (O(nnz) per sample, the setting for high-dimensional or sparse
        data)."""


def _fill_doc(cls) -> None:
    """Put the shared parameter and attribute text into a class docstring."""
    fill_doc(cls, covariance=_COVARIANCE_DOC, attributes=_COMMON_ATTRIBUTES)


# --------------------------------------------------------------------------- AROW
class AROW(_GaussianLinear):
    """Adaptive Regularization of Weight vectors (AROW).

    With margin :math:`m_t = \\mu_{t-1}^T x_t` and confidence
    :math:`v_t = x_t^T \\Sigma_{t-1} x_t`, when :math:`y_t m_t < 1`:

    .. math::

        \\beta_t = \\frac{1}{v_t + r},\\qquad
        \\alpha_t = \\max(0, 1 - y_t m_t)\\,\\beta_t,

        \\mu_t = \\mu_{t-1} + \\alpha_t y_t \\Sigma_{t-1} x_t,\\qquad
        \\Sigma_t = \\Sigma_{t-1} - \\beta_t \\Sigma_{t-1} x_t x_t^T \\Sigma_{t-1},

    Eqs. (7) and (9) of [1]_ (AROW slide of [2]_), from :math:`\\mu_0 = 0`,
    :math:`\\Sigma_0 = I`. The last step is :math:`\\Sigma_t^{-1} = \\Sigma_{t-1}^{-1} +
    x_t x_t^T / r`; the diagonal variant keeps the diagonal of that precision,
    :math:`\\Sigma_{jj} \\leftarrow 1/(1/\\Sigma_{jj} + x_j^2/r)`, as in [1]_.

    Parameters
    ----------
    r : float, default=1.0
        Regularization, > 0 (LIBOL's default 1). Larger ``r`` means smaller steps.
    {covariance}
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).
    {attributes}
    References
    ----------
    .. [1] K. Crammer, A. Kulesza and M. Dredze, "Adaptive regularization of weight
       vectors", NIPS 2009.
    .. [2] S. C. H. Hoi, Online learning tutorial (seed 002), AROW slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import AROW
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 1.3).astype(int)     # about 10% positives
    >>> clf = AROW().fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    _kind = _AROW
    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("r", "larger"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "r": [Interval(numbers.Real, 0, None, closed="neither")],
        "covariance": [StrOptions(_COVARIANCES)],
    }

    def __init__(
        self,
        r: float = 1.0,
        covariance: str = "diag",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.r = r
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _coef_params(self):
        return _AROW, float(self.r), 0.0


_fill_doc(AROW)


# --------------------------------------------------------------------------- CW
class CW(_GaussianLinear):
    """Confidence-Weighted learning (CW), the approximate "Variance" algorithm.

    With :math:`M_i = y_i \\mu_i^T x_i`, :math:`V_i = x_i^T \\Sigma_i x_i` and
    :math:`\\phi = \\Phi^{-1}(\\eta)`, Lemma 1 of [1]_ gives the step

    .. math::

        \\gamma_i = \\frac{-(1 + 2\\phi M_i)
            + \\sqrt{(1 + 2\\phi M_i)^2 - 8\\phi (M_i - \\phi V_i)}}{4 \\phi V_i},
        \\qquad \\alpha_i = \\max\\{\\gamma_i, 0\\},

        \\mu_{i+1} = \\mu_i + \\alpha_i y_i \\Sigma_i x_i \\quad (11),\\qquad
        \\Sigma_{i+1}^{-1} = \\Sigma_i^{-1} + 2 \\alpha_i \\phi\\, x_i x_i^T \\quad (12),

    from :math:`\\mu_1 = 0`, :math:`\\Sigma_1 = aI` (Algorithm 1 of [1]_, CW slides of
    [2]_). ``α > 0`` exactly when the constraint :math:`M_i \\ge \\phi V_i` is violated.
    The full variant applies Eq. (12) as
    :math:`\\Sigma \\leftarrow \\Sigma - \\beta \\Sigma x x^T \\Sigma` with
    :math:`\\beta = 2\\alpha\\phi / (1 + 2\\alpha\\phi V)` (Sherman–Morrison); the diagonal
    variant is Eq. (17), :math:`1/\\Sigma_{jj} \\leftarrow 1/\\Sigma_{jj} + 2\\alpha\\phi x_j^2`
    (printed with ``diag(x_i)``, the same for the paper's binary features; ``x_j^2`` is
    the diagonal of :math:`x x^T`). LIBOL's ``CW.m`` is another algorithm, the exact CW
    step of Crammer, Dredze and Pereira (NIPS 2008; SCW-I's :math:`\\alpha` without the
    cap ``C``), so its numbers differ from these.

    Parameters
    ----------
    eta : float, default=0.7
        Required probability of a correct prediction, in (0.5, 1); ``φ = Φ⁻¹(η) > 0``
        (LIBOL's default 0.7, φ ≈ 0.524).
    a : float, default=1.0
        Initial variance, > 0.
    {covariance}
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).
    {attributes}
    References
    ----------
    .. [1] M. Dredze, K. Crammer and F. Pereira, "Confidence-weighted linear
       classification", ICML 2008.
    .. [2] S. C. H. Hoi, Online learning tutorial (seed 002), CW slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import CW
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 1.3).astype(int)
    >>> clf = CW(eta=0.8).fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("a", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "eta": [Interval(numbers.Real, 0.5, 1, closed="neither")],
        "a": [Interval(numbers.Real, 0, None, closed="neither")],
        "covariance": [StrOptions(_COVARIANCES)],
    }

    def __init__(
        self,
        eta: float = 0.7,
        a: float = 1.0,
        covariance: str = "diag",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.eta = eta
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _initial_variance(self) -> float:
        return float(self.a)

    def _coef_params(self):
        return _CW, float(ndtri(self.eta)), 0.0


_fill_doc(CW)


# --------------------------------------------------------------------------- SCW
_SCW_VARIANTS = {"scw1": _SCW1, "scw2": _SCW2}


class SCW(_GaussianLinear):
    """Soft Confidence-Weighted learning (SCW-I and SCW-II).

    With :math:`m_t = y_t \\mu_t^T x_t`, :math:`v_t = x_t^T \\Sigma_t x_t`,
    :math:`\\phi = \\Phi^{-1}(\\eta)`, :math:`\\psi = 1 + \\phi^2/2`,
    :math:`\\zeta = 1 + \\phi^2`, when the loss
    :math:`\\ell_t = \\max(0, \\phi\\sqrt{v_t} - m_t)` is positive:

    .. math::

        \\mu_{t+1} = \\mu_t + \\alpha_t y_t \\Sigma_t x_t,\\qquad
        \\Sigma_{t+1} = \\Sigma_t - \\beta_t \\Sigma_t x_t x_t^T \\Sigma_t,

        \\text{SCW-I:}\\quad \\alpha_t = \\min\\Big\\{C, \\max\\Big\\{0, \\frac{1}{v_t\\zeta}
            \\Big(-m_t\\psi + \\sqrt{m_t^2\\phi^4/4 + v_t\\phi^2\\zeta}\\Big)\\Big\\}\\Big\\},

        \\text{SCW-II:}\\quad \\alpha_t = \\max\\Big\\{0, \\frac{-(2m_t n_t + \\phi^2 m_t v_t)
            + \\gamma_t}{2(n_t^2 + n_t v_t \\phi^2)}\\Big\\},\\quad n_t = v_t + \\frac{1}{2C},\\
            \\gamma_t = \\phi\\sqrt{\\phi^2 m_t^2 v_t^2 + 4 n_t v_t (n_t + v_t\\phi^2)},

        \\beta_t = \\frac{\\alpha_t\\phi}{\\sqrt{u_t} + v_t\\alpha_t\\phi},\\qquad
        u_t = \\tfrac14\\Big(-\\alpha_t v_t\\phi + \\sqrt{\\alpha_t^2 v_t^2\\phi^2 + 4v_t}\\Big)^2,

    Algorithm 1 with Propositions 1 and 2 of [1]_ (SCW slides of [2]_), from
    :math:`\\mu = 0`, :math:`\\Sigma = I`. ``√u`` is evaluated as
    :math:`2v/(\\alpha v\\phi + \\sqrt{\\alpha^2 v^2\\phi^2 + 4v})` (the same number
    without cancellation). The covariance step is
    :math:`\\Sigma^{-1} \\leftarrow \\Sigma^{-1} + (\\alpha\\phi/\\sqrt{u})\\, x x^T`; the
    diagonal variant keeps the diagonal of that precision update. LIBOL's ``SCW2.m``
    computes :math:`\\gamma_t` as
    :math:`\\sqrt{2\\phi^4 m_t^2 v_t + 4 n_t v_t\\phi^2 (n_t + 2 v_t\\phi)}` (``v*2`` for
    :math:`v^2`, ``phi*2`` for :math:`\\phi^2`), so its SCW-II differs from
    Proposition 2 and from this one; its SCW-I (``SCW.m``) is Proposition 1.

    Parameters
    ----------
    C : float, default=1.0
        Aggressiveness, > 0: the cap on ``α`` (SCW-I) or the slack weight (SCW-II).
    eta : float, default=0.75
        Confidence, in (0.5, 1); ``φ = Φ⁻¹(η)`` (LIBOL's default for SCW-I).
    variant : {"scw1", "scw2"}, default="scw1"
        SCW-I (Proposition 1 of [1]_) or SCW-II (Proposition 2).
    {covariance}
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).
    {attributes}
    References
    ----------
    .. [1] J. Wang, P. Zhao and S. C. H. Hoi, "Exact soft confidence-weighted
       learning", ICML 2012.
    .. [2] S. C. H. Hoi, Online learning tutorial (seed 002), SCW slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import SCW
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 1.3).astype(int)
    >>> clf = SCW(variant="scw2").fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("C", "smaller"),)
    _test_params: ClassVar[list] = [
        {},
        {"covariance": "full"},
        {"variant": "scw2"},
        {"variant": "scw2", "covariance": "full"},
    ]
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "eta": [Interval(numbers.Real, 0.5, 1, closed="neither")],
        "variant": [StrOptions(set(_SCW_VARIANTS))],
        "covariance": [StrOptions(_COVARIANCES)],
    }

    def __init__(
        self,
        C: float = 1.0,
        eta: float = 0.75,
        variant: str = "scw1",
        covariance: str = "diag",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.C = C
        self.eta = eta
        self.variant = variant
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _coef_params(self):
        return _SCW_VARIANTS[self.variant], float(ndtri(self.eta)), float(self.C)


_fill_doc(SCW)


# --------------------------------------------------------------------------- SOP
@njit(**NJIT)
def _sop_learn_full(w, v, S, z, counts, rows, y, scores):
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        if y[i] * f > 0.0:
            continue
        _cov_times_row(S, rows, i, z)  # z = A⁻¹x
        q = row_dot(z, rows, i)
        if not q > _V_RESOLUTION * _row_absdot(z, rows, i):
            # zero row, or xᵀA⁻¹x lost in rounding (A⁻¹ numerically singular along x)
            continue
        _full_axpy((y[i] - f) / (1.0 + q), z, w)  # w = A_new⁻¹ (v + y x)
        # Sherman–Morrison, keeping a sliver of the variance along x (see _MAX_SHRINK)
        _sym_downdate(S, z, min(1.0 / (1.0 + q), _MAX_SHRINK / q), 1.0)
        row_axpy(y[i], rows, i, v)
        counts[3] += 1


@njit(**NJIT)
def _sop_learn_diag(w, v, s, counts, rows, y, scores):
    data = rows[0]
    d = rows[3]
    bias = rows[5]
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        if y[i] * f > 0.0:
            continue
        start, stop = row_span(rows, i)
        for p in range(start, stop):
            j = row_col(rows, p, start)
            x = np.float64(data[p])  # float32 rows: arithmetic in float64
            v[j] += y[i] * x
            s[j] = s[j] / (1.0 + x * x * s[j])
            w[j] = v[j] * s[j]
        v[d] += y[i] * bias
        s[d] = s[d] / (1.0 + bias * bias * s[d])
        w[d] = v[d] * s[d]
        counts[3] += 1


class SOP(OnlineLinearClassifier):
    """Second-Order Perceptron (SOP), the incremental whitened Perceptron.

    With :math:`v_k = \\sum_{\\text{mistakes}} y_s x_s` and the correlation matrix
    :math:`A_k = aI + \\sum_{\\text{mistakes}} x_s x_s^T` of the ``k`` mistakes so far,
    the algorithm of [1]_ (as on the SOP slide of [2]_) predicts

    .. math::

        \\hat y_t = \\mathrm{SGN}\\big(x_t^T (A_{k} + x_t x_t^T)^{-1} v_k\\big)
        = \\mathrm{SGN}\\big(x_t^T A_{k}^{-1} v_k\\big),

    the equality because :math:`x^T (A + x x^T)^{-1} v = x^T A^{-1} v / (1 + x^T A^{-1} x)`.
    So the decision value is the linear :math:`w^T x` with :math:`w = A_k^{-1} v_k`, and on a
    mistake (:math:`y_t w^T x_t \\le 0`, a zero margin included, as in the Perceptron)
    :math:`v \\leftarrow v + y_t x_t`, :math:`A \\leftarrow A + x_t x_t^T`.

    ``covariance="full"`` keeps :math:`A^{-1}` by Sherman–Morrison rank-one steps (no matrix
    is ever inverted): with :math:`z = A^{-1} x_t`, :math:`q = x_t^T z`,

    .. math::

        w \\leftarrow w + \\frac{y_t - w^T x_t}{1 + q}\\, z,\\qquad
        A^{-1} \\leftarrow A^{-1} - \\frac{z z^T}{1 + q}.

    ``covariance="diag"`` keeps the diagonal of :math:`A`,
    :math:`A_{jj} = a + \\sum x_{sj}^2`, and :math:`w_j = v_j / A_{jj}`. SOL's ``sop.cc``
    keeps the same diagonal and ``v`` but predicts with :math:`v_j / (A_{jj} + x_{tj}^2)`,
    the paper's prediction diagonalised, whose sign is not that of ours for a diagonal
    :math:`A`: its mistakes, and so its model, differ (we keep a linear ``w`` with
    ``coef_``; see docs/decisions.md). LIBOL's ``SOP.m`` is the full algorithm with
    :math:`A` grown by every sample, mistake or not.

    Parameters
    ----------
    a : float, default=1.0
        Regularization of the correlation matrix, > 0 (LIBOL's default 1).
    {covariance}
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    pos_label_ : label
    weights_ : ndarray of shape (n_features + 1,)
        ``w = A⁻¹ v``.
    covariance_ : ndarray of shape (n_features + 1, n_features + 1) or (n_features + 1,)
        ``A⁻¹`` (full) or ``1 / diag(A)`` (diag).
    v_ : ndarray of shape (n_features + 1,)
        The Perceptron vector ``Σ y x`` over the mistakes.
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    counts_ : ndarray of shape (4,)
        ``[seen, positives, negatives, mistakes]``.

    References
    ----------
    .. [1] N. Cesa-Bianchi, A. Conconi and C. Gentile, "A second-order perceptron
       algorithm", SIAM Journal on Computing 34(3), 2005.
    .. [2] S. C. H. Hoi, Online learning tutorial (seed 002), SOP slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import SOP
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 1.3).astype(int)
    >>> clf = SOP(covariance="full").fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept of ``v_`` and, with
    #: ``covariance="diag"``, of ``weights_`` and ``covariance_`` (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_", "v_", "covariance_")

    def _column_state_names(self) -> tuple[str, ...]:
        return self._column_state if self.covariance == "diag" else ("v_",)

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("a", "larger"),)
    _id_keys: ClassVar[tuple] = ("covariance",)
    _test_params: ClassVar[list] = [{}, {"covariance": "full"}]
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "a": [Interval(numbers.Real, 0, None, closed="neither")],
        "covariance": [StrOptions(_COVARIANCES)],
    }

    def __init__(
        self,
        a: float = 1.0,
        covariance: str = "diag",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        self.v_ = np.zeros(n_features + 1)
        if self.covariance == "full":
            warn_large_matrices(self, 1, n_features + 1, "diag")
            self.covariance_ = np.eye(n_features + 1) / float(self.a)
        else:
            self.covariance_ = np.full(n_features + 1, 1.0 / float(self.a))

    def _learn(self, rows, y, scores):
        if self.covariance == "full":
            z = np.empty(self.weights_.shape[0])
            _sop_learn_full(
                self.weights_, self.v_, self.covariance_, z, self.counts_, rows, y, scores
            )
        else:
            _sop_learn_diag(self.weights_, self.v_, self.covariance_, self.counts_, rows, y, scores)


_fill_doc(SOP)


# --------------------------------------------------------------------------- NAROW
class NAROW(_GaussianLinear):
    """NAROW, the adaptive-regularization variant of AROW (Orabona & Crammer).

    AROW (see :class:`AROW`) with a per-sample regularization chosen from the confidence
    :math:`\\chi_t = x_t^T \\Sigma_{t-1} x_t`: when :math:`y_t \\mu_{t-1}^T x_t < 1`,

    .. math::

        r_t = \\begin{cases} \\dfrac{\\chi_t}{b\\chi_t - 1} & \\chi_t > 1/b \\\\
              +\\infty & \\text{otherwise} \\end{cases},\\qquad
        \\mu_t = \\mu_{t-1} + \\frac{\\max(0, 1 - y_t \\mu_{t-1}^T x_t)}{\\chi_t + r_t}
            y_t \\Sigma_{t-1} x_t,\\qquad
        \\Sigma_t^{-1} = \\Sigma_{t-1}^{-1} + \\frac{x_t x_t^T}{r_t},

    from :math:`\\mu_0 = 0`, :math:`\\Sigma_0 = I` ([1]_; listed on the second-order
    slide of [2]_). The kernel uses :math:`1/r_t = \\max(0, b - 1/\\chi_t)`, so
    :math:`r_t = +\\infty` needs no special value: it leaves ``μ`` and ``Σ`` unchanged
    (as in LIBOL). The diagonal variant keeps the diagonal of the precision update.

    Parameters
    ----------
    b : float, default=1.0
        > 0. Directions whose confidence ``χ`` has fallen to ``1/b`` stop adapting
        (LIBOL's default 1).
    {covariance}
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).
    {attributes}
    References
    ----------
    .. [1] F. Orabona and K. Crammer, "New adaptive algorithms for online
       classification", NIPS 2010.
    .. [2] S. C. H. Hoi, Online learning tutorial (seed 002), second-order slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import NAROW
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 1.3).astype(int)
    >>> clf = NAROW().fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    #: With b = 1 the diagonal variant stops adapting early on the family test's stream
    #: (prequential AUC 0.87); b = 10 keeps adapting longer (0.91). See docs/decisions.md.
    _separable_params: ClassVar[dict] = {"b": 10.0}
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "b": [Interval(numbers.Real, 0, None, closed="neither")],
        "covariance": [StrOptions(_COVARIANCES)],
    }

    def __init__(
        self,
        b: float = 1.0,
        covariance: str = "diag",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.b = b
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _coef_params(self):
        return _NAROW, float(self.b), 0.0


_fill_doc(NAROW)


# --------------------------------------------------------------------------- NHERD
class NHERD(_GaussianLinear):
    """Normal Herding (NHERD), Gaussian herding with the squared hinge.

    With :math:`m_t = \\mu_t^T x_t`, :math:`v_t = x_t^T \\Sigma_t x_t`, when
    :math:`y_t m_t < 1`:

    .. math::

        \\mu_{t+1} = \\mu_t + \\frac{\\max(0, 1 - y_t m_t)}{v_t + 1/C}\\, y_t \\Sigma_t x_t,

        \\Sigma_{t+1} = \\Sigma_t - \\Sigma_t x_t x_t^T \\Sigma_t
            \\frac{C^2 v_t + 2C}{(1 + C v_t)^2} \\quad (\\text{full}),\\qquad
        \\Sigma_{t+1, jj} = \\frac{\\Sigma_{t, jj}}{(1 + C x_{tj}^2 \\Sigma_{t, jj})^2}
            \\quad (\\text{diag}),

    from :math:`\\mu = 0`, :math:`\\Sigma = I` ([1]_; listed on the second-order slide of
    [2]_). The full step is the herding map :math:`\\Sigma \\leftarrow A\\Sigma A^T` with
    :math:`A = I - \\frac{C}{1 + Cv} \\Sigma x x^T`; the diagonal step is the paper's
    exact diagonal variant (the same map with :math:`x x^T` replaced by
    :math:`\\mathrm{diag}(x_j^2)`).

    Parameters
    ----------
    C : float, default=1.0
        Aggressiveness, > 0 (``γ = 1/C`` in LIBOL, default ``C = 1``).
    {covariance}
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).
    {attributes}
    References
    ----------
    .. [1] K. Crammer and D. D. Lee, "Learning via Gaussian herding", NIPS 2010.
    .. [2] S. C. H. Hoi, Online learning tutorial (seed 002), second-order slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import NHERD
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 1.3).astype(int)
    >>> clf = NHERD().fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("C", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "covariance": [StrOptions(_COVARIANCES)],
    }

    def __init__(
        self,
        C: float = 1.0,
        covariance: str = "diag",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.C = C
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _coef_params(self):
        return _NHERD, float(self.C), 0.0


_fill_doc(NHERD)


# --------------------------------------------------------------------------- IELLIP
#: IELLIP's Σ grows by 1/(1 − c_t) at every mistake (in all directions but Σx's), unboundedly
#: when c_t decays slowly (b = 1: ~1000 mistakes pass 1e308 at c = 0.5). Its steps do not
#: depend on Σ's scale (w moves by Σx/xᵀΣx), so once an entry passes 2^100 Σ is multiplied
#: by 2^−100 and the power counted in ``exponent``: exact in binary floating point, so
#: every score and weight is bit for bit what an unbounded exponent would give.
_IELLIP_RESCALE_BITS = 100
_IELLIP_RESCALE_ABOVE = 2.0**_IELLIP_RESCALE_BITS
_IELLIP_RESCALE_BY = 2.0**-_IELLIP_RESCALE_BITS


@njit(**NJIT_INLINE)
def _iellip_rescale(S, exponent, used):
    """``S[:used] *= 2^−100`` (``S[:used, :used]`` for a matrix), ``exponent[0] += 100``:
    the same Σ = S · 2^exponent over the ``used`` coordinates (all of them, or all but the
    intercept's when there is no intercept, whose entries then stay as they are)."""
    if S.ndim == 1:
        flat = S.reshape(-1)
        for k in range(used):
            flat[k] *= _IELLIP_RESCALE_BY
    else:
        M = S.reshape((S.shape[0], -1))
        for r in range(used):
            for k in range(used):
                M[r, k] *= _IELLIP_RESCALE_BY
    exponent[0] += _IELLIP_RESCALE_BITS


@njit(**NJIT)
def _iellip_learn_full(w, S, z, counts, exponent, rows, y, scores, c, b):
    n = S.shape[0]
    # Without an intercept the last coordinate belongs to no feature: its row and column
    # stay (0, ..., 0, a) (Σx has no component there), so it is kept out of the growth by
    # 1/(1 − c_t) and of the rescaling, which it would otherwise drive.
    used = n if rows[5] != 0.0 else n - 1
    for i in range(y.shape[0]):
        ct = c * b ** counts[0]  # c_t = c b^(t-1) for the t-th sample of the stream
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        if y[i] * f > 0.0:
            continue
        _cov_times_row(S, rows, i, z)
        v = row_dot(z, rows, i)
        if not v > 0.0:
            continue
        _full_axpy((1.0 - y[i] * f) / v * y[i], z, w)
        grow = 1.0 / (1.0 - ct)
        unused = S[n - 1, n - 1]
        _sym_downdate(S, z, ct / v, grow)
        if used < n:
            S[n - 1, n - 1] = unused
        if grow != 1.0:  # Σ grew: keep its largest entry (on the diagonal, Σ is PD) small
            top = 0.0
            for k in range(used):
                top = max(top, S[k, k])
            if top > _IELLIP_RESCALE_ABOVE:
                _iellip_rescale(S, exponent, used)
        counts[3] += 1


@njit(**NJIT)
def _iellip_learn_diag(w, s, counts, exponent, rows, y, scores, c, b):
    used = s.shape[0] if rows[5] != 0.0 else s.shape[0] - 1  # (see _iellip_learn_full)
    for i in range(y.shape[0]):
        ct = c * b ** counts[0]
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        if y[i] * f > 0.0:
            continue
        v = row_wdot(s, rows, i)
        if not v > 0.0:
            continue
        _diag_mean_step((1.0 - y[i] * f) / v * y[i], s, rows, i, w)
        rho = 1.0 - ct
        top = 0.0
        if rho != 1.0:  # O(d) only while c_t is not negligible
            for k in range(used):
                s[k] = s[k] / rho
                top = max(top, s[k])
        _diag_precision_step(s, rows, i, ct / v)
        if top > _IELLIP_RESCALE_ABOVE:  # (the precision step only shrinks entries)
            _iellip_rescale(s, exponent, used)
        counts[3] += 1


class IELLIP(OnlineLinearClassifier):
    """Improved ellipsoid method for online learning (IELLIP).

    On a mistake (:math:`y_t w_t^T x_t \\le 0`, a zero margin included), with
    :math:`v_t = x_t^T \\Sigma_t x_t` and :math:`g_t = y_t x_t / \\sqrt{v_t}`:

    .. math::

        w_{t+1} = w_t + \\alpha_t \\Sigma_t g_t,\\quad
        \\alpha_t = \\frac{1 - y_t w_t^T x_t}{\\sqrt{v_t}},\\qquad
        \\Sigma_{t+1} = \\frac{1}{1 - c_t}\\big(\\Sigma_t - c_t \\Sigma_t g_t g_t^T
            \\Sigma_t\\big),\\quad c_t = c\\, b^{t-1},

    from :math:`w = 0`, :math:`\\Sigma = aI` ([1]_, listed on the second-order slide of
    [2]_; the step, the decay of :math:`c_t` once per sample and the defaults follow
    LIBOL). After a step the margin on :math:`x_t` is exactly 1. Since
    :math:`g^T \\Sigma g = 1`, the covariance step is
    :math:`\\Sigma^{-1} \\leftarrow (1 - c_t)\\Sigma^{-1} + c_t g g^T`, positive definite for
    :math:`c_t < 1`; the diagonal variant keeps the diagonal of that precision update
    (it rescales every coordinate while :math:`1 - c_t \\ne 1` in floating point, i.e. for
    the first few dozen samples with the default ``b``).

    Each mistake multiplies :math:`\\Sigma` by :math:`1/(1 - c_t)` in every direction but
    that of :math:`\\Sigma_t x_t`: with ``b`` at or near 1, :math:`\\Sigma` grows without
    bound (past 1e308 after about 1000 mistakes at ``b = 1, c = 0.5``). The steps do not
    depend on the scale of :math:`\\Sigma`, so ``covariance_`` keeps it divided by the
    power of two ``2 ** covariance_exponent_[0]`` (exact in floating point: the weights
    are bit for bit those of the unscaled algorithm). Without an intercept
    (``fit_intercept=False``) the last coordinate belongs to no feature: its entry of
    ``covariance_`` keeps its initial value instead of growing with the others, so that
    it cannot decide the scale and push the used coordinates into underflow.

    Parameters
    ----------
    a : float, default=1.0
        Initial ``Σ = aI``, > 0. Only a scale: the steps do not depend on it, so every
        ``a`` makes the same predictions (LIBOL's parameter, kept for reference).
    b : float, default=0.3
        Decay of ``c_t``, in (0, 1].
    c : float, default=0.1
        Initial ``c_1``, in (0, 1).
    {covariance}
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).
    {attributes}    covariance_exponent_ : ndarray of shape (1,)
        ``Σ = covariance_ * 2 ** covariance_exponent_[0]`` (see above): the power of two
        of ``a`` at the start (``covariance_`` starts at ``a`` divided by it, in [1, 2)),
        plus 100 for each time Σ grew past 2^100.

    References
    ----------
    .. [1] L. Yang, R. Jin and J. Ye, "Online learning by ellipsoid method", ICML 2009.
    .. [2] S. C. H. Hoi, Online learning tutorial (seed 002), second-order slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import IELLIP
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 1.3).astype(int)
    >>> clf = IELLIP().fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    _input_dtypes = FLOAT32_ROWS
    #: With ``covariance="diag"`` a step writes the row's columns and the intercept of
    #: ``weights_`` (:class:`OnlineClassifier`); Σ grows by 1/(1 - c_t) everywhere.
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)

    def _column_state_names(self) -> tuple[str, ...]:
        return self._column_state if self.covariance == "diag" else ()

    #: ``a`` is only a scale (see _allocate): no setting makes the steps smaller
    _step_params: ClassVar[tuple[tuple[str, str], ...]] = ()
    _id_keys: ClassVar[tuple] = ("covariance",)
    _test_params: ClassVar[list] = [{}, {"covariance": "full"}]
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "a": [Interval(numbers.Real, 0, None, closed="neither")],
        "b": [Interval(numbers.Real, 0, 1, closed="right")],
        "c": [Interval(numbers.Real, 0, 1, closed="neither")],
        "covariance": [StrOptions(_COVARIANCES)],
    }

    def __init__(
        self,
        a: float = 1.0,
        b: float = 0.3,
        c: float = 0.1,
        covariance: str = "diag",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.a = a
        self.b = b
        self.c = c
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        # Σ₀ = aI as m · 2^e with m in [1, 2): the steps do not depend on Σ's scale, so an
        # extreme a (1e-300, 1e300, subnormal) would only underflow or overflow Σx and xᵀΣx
        # (silently different scores, or an overflow error) without changing the algorithm.
        mantissa, exponent = math.frexp(float(self.a))  # a = mantissa · 2^exponent
        mantissa, exponent = 2.0 * mantissa, exponent - 1
        if self.covariance == "full":
            warn_large_matrices(self, 1, n_features + 1, "diag")
            self.covariance_ = mantissa * np.eye(n_features + 1)
        else:
            self.covariance_ = np.full(n_features + 1, mantissa)
        self.covariance_exponent_ = np.array([exponent], dtype=np.int64)

    def _learn(self, rows, y, scores):
        if not hasattr(self, "covariance_exponent_"):  # a model saved before session 14
            self.covariance_exponent_ = np.zeros(1, dtype=np.int64)
        args = (
            self.counts_,
            self.covariance_exponent_,
            rows,
            y,
            scores,
            float(self.c),
            float(self.b),
        )
        if self.covariance == "full":
            z = np.empty(self.weights_.shape[0])
            _iellip_learn_full(self.weights_, self.covariance_, z, *args)
        else:
            _iellip_learn_diag(self.weights_, self.covariance_, *args)


_fill_doc(IELLIP)
