"""Sparse online learners: truncated gradient and online feature selection (OFS).

Both keep the intercept out of the sparsity mechanism: it is not a feature.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._config import NJIT, NJIT_INLINE
from .._rows import row_axpy, row_col, row_dot, row_span, row_sqnorm
from .._stability import note_step_gain
from ..base import FLOAT32_ROWS, OnlineLinearClassifier
from .first_order import LOSSES, SCHEDULES, SQUARED_GAIN, count_sample, loss_slope, step_size

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["OFS", "TruncatedGradient"]

#: Largest int64: the compiled passes take ``K`` and ``n_selected`` as int64, and a larger
#: value means the same there (a stream never reaches 2**63 - 1 samples; B >= d keeps all).
_INT64_MAX = int(np.iinfo(np.int64).max)


# --------------------------------------------------------------------------- truncated gradient
@njit(**NJIT_INLINE)
def _truncate_t1(w, alpha, theta):
    """Langford et al.'s T1 on every feature weight (not the intercept ``w[-1]``)."""
    for j in range(w.shape[0] - 1):
        v = w[j]
        if 0.0 <= v <= theta:
            w[j] = max(0.0, v - alpha)
        elif -theta <= v < 0.0:
            w[j] = min(0.0, v + alpha)


@njit(**NJIT)
def _truncated_gradient_learn(
    w, counts, rows, y, scores, eta, schedule, loss, gravity, theta, K, stability
):  # fmt: skip
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        eta_t = step_size(eta, schedule, counts[0])
        if loss == 2:  # the squared loss's step is stable iff eta_t |[x, 1]|^2 <= 2
            note_step_gain(stability, eta_t * row_sqnorm(rows, i))
        g = loss_slope(loss, y[i] * f)
        if g != 0.0:
            row_axpy(eta_t * g * y[i], rows, i, w)
            counts[3] += 1
        if gravity > 0.0 and counts[0] % K == 0:
            _truncate_t1(w, eta_t * K * gravity, theta)


class TruncatedGradient(OnlineLinearClassifier):
    """Truncated gradient (Langford, Li and Zhang, 2009): sparse online gradient descent.

    An online gradient step on the loss followed, every ``K`` steps, by the truncation
    operator :math:`T_1` of [1]_ (its truncated-gradient update, Algorithm 1 with a general
    loss):

    .. math::

        w_{i+1} = T_1\\big(w_i - \\eta_i \\nabla_w \\ell(w_i; x_i, y_i),\\;
                  \\eta_i\\, g_i,\\; \\theta\\big),\\qquad
        g_i = \\begin{cases} K g & i \\bmod K = 0\\\\ 0 & \\text{otherwise}\\end{cases}

    .. math::

        T_1(v, \\alpha, \\theta)_j = \\begin{cases}
            \\max(0, v_j - \\alpha) & v_j \\in [0, \\theta]\\\\
            \\min(0, v_j + \\alpha) & v_j \\in [-\\theta, 0]\\\\
            v_j & \\text{otherwise.}\\end{cases}

    Small weights (:math:`|v_j| \\le \\theta`) are pulled to zero by the gravity; with
    :math:`g = 0` this is plain :class:`~skewlearn.OGD`. Losses and steps as in
    :class:`~skewlearn.OGD` (squared loss :math:`\\tfrac12 (y - w^T x)^2`, so the paper's
    Algorithm 1 with :math:`(p - y)^2` is ``eta`` doubled). ``i`` counts every sample of
    the stream. The intercept is never truncated.

    Parameters
    ----------
    eta : float, default=0.1
        Learning rate, > 0.
    gravity : float, default=0.01
        Gravity :math:`g \\ge 0`; the weights lose :math:`\\eta K g` at each truncation.
    theta : float, default=inf
        Truncation threshold :math:`\\theta \\ge 0`; ``inf`` truncates every weight
        (an L1-like shrinkage, the setting of the paper's experiments).
    K : int, default=10
        Truncate every ``K`` samples, >= 1.
    loss : {"hinge", "logistic", "squared"}, default="hinge"
    schedule : {"constant", "invsqrt"}, default="constant"
        :math:`\\eta_i = \\eta` (the paper) or :math:`\\eta / \\sqrt{i}`.
    fit_intercept : bool, default=True
    pos_label : label, default=None
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    weights_, coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`~skewlearn.Perceptron`.
    stability_ : ndarray of shape (2,)
        ``[steps with gain > 2, largest gain]``, gain :math:`\\eta_i\\|[x_i, 1]\\|^2`,
        over everything learned; ``loss="squared"`` only (zeros for the others).

    Notes
    -----
    With the squared loss a step with :math:`\\eta_i\\|[x_i, 1]\\|^2 > 2` overshoots and
    amplifies the weights (the LMS stability condition); each learning call that takes
    such steps warns and names a stable ``eta``, as :class:`~skewlearn.OGD` does.

    The truncation visits all ``d`` weights every ``K`` steps (O(d / K) per sample, also on
    sparse input). A lazy version is exact only in real arithmetic; its rounding would
    depend on where the stream is split into batches, so we keep the eager one.

    References
    ----------
    .. [1] J. Langford, L. Li and T. Zhang, "Sparse online learning via truncated
       gradient", JMLR 10:777-801, 2009; seed 002, "Truncated gradient" slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import TruncatedGradient
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(2000, 20))
    >>> y = (X[:, 0] + X[:, 1] > 1.0).astype(int)     # 2 informative features of 20
    >>> clf = TruncatedGradient(gravity=0.05).fit(X, y)
    >>> int(np.count_nonzero(clf.coef_)) < 20
    True
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept; the truncation moves the other
    #: weights towards 0 (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)
    _step_gain = SQUARED_GAIN

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "gravity": [Interval(numbers.Real, 0, None, closed="left")],
        "theta": [Interval(numbers.Real, 0, math.inf, closed="both")],
        "K": [Interval(numbers.Integral, 1, None, closed="left")],
        "loss": [StrOptions(set(LOSSES))],
        "schedule": [StrOptions(set(SCHEDULES))],
    }
    _test_params: ClassVar[list[dict]] = [
        {},
        {"loss": "logistic", "theta": 0.5, "K": 3, "gravity": 0.1, "schedule": "invsqrt"},
    ]

    def __init__(
        self,
        eta: float = 0.1,
        gravity: float = 0.01,
        theta: float = math.inf,
        K: int = 10,
        loss: str = "hinge",
        schedule: str = "constant",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.eta = eta
        self.gravity = gravity
        self.theta = theta
        self.K = K
        self.loss = loss
        self.schedule = schedule
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _learn(self, rows, y, scores):
        _truncated_gradient_learn(
            self.weights_,
            self.counts_,
            rows,
            y,
            scores,
            float(self.eta),
            SCHEDULES[self.schedule],
            LOSSES[self.loss],
            float(self.gravity),
            float(self.theta),
            min(int(self.K), _INT64_MAX),
            self.stability_,
        )


# --------------------------------------------------------------------------- OFS
@njit(**NJIT_INLINE)
def _merge_row_support(support, m, rows, i, out):
    """Write into ``out`` the ascending union of the ``m`` feature indices ``support[:m]``
    (ascending) and those of row ``i``'s non-zero entries (ascending: dense order, or a
    canonical CSR row); return its length."""
    start, stop = row_span(rows, i)
    a = 0
    n = 0
    for p in range(start, stop):
        if rows[0][p] == 0:
            continue
        col = row_col(rows, p, start)
        while a < m and support[a] < col:
            out[n] = support[a]
            n += 1
            a += 1
        if a < m and support[a] == col:
            a += 1
        out[n] = col
        n += 1
    while a < m:
        out[n] = support[a]
        n += 1
        a += 1
    return n


@njit(**NJIT_INLINE)
def _kth_smallest(a, m, k):
    """The ``k``-th smallest (from 0) of ``a[:m]``, reordering ``a[:m]`` in place: Hoare's
    selection (Wirth's form), expected O(m). Any exact selection gives the same value."""
    lo = 0
    hi = m - 1
    while lo < hi:
        x = a[k]
        i = lo
        j = hi
        while i <= j:
            while a[i] < x:
                i += 1
            while x < a[j]:
                j -= 1
            if i <= j:
                a[i], a[j] = a[j], a[i]
                i += 1
                j -= 1
        if j < k:
            lo = i
        if k < i:
            hi = j
    return a[k]


@njit(**NJIT_INLINE)
def _keep_largest(w, support, m, B, scratch):
    """Zero all but the ``B`` feature weights of largest ``|w_j|`` (ties: lower index wins),
    given ``support[:m]``: ascending feature indices that include every non-zero weight,
    and return how many of them stay non-zero, moved to the front of ``support``.
    ``scratch`` is a work array of at least ``m`` floats.

    The intercept ``w[-1]`` is not a feature and is left alone. Weights outside the support
    are 0, so when more than ``B`` weights are non-zero the ``B``-th largest ``|w_j|`` over
    the support is the one over all ``d`` features, and otherwise nothing is cut: the
    result is that of a selection over all of ``w``, at O(m) cost.
    """
    if m <= B:
        return m
    for q in range(m):
        scratch[q] = abs(w[support[q]])
    thr = _kth_smallest(scratch, m, m - B)  # the B-th largest |w_j|
    n_above = 0
    for q in range(m):
        if abs(w[support[q]]) > thr:
            n_above += 1
    ties_left = B - n_above
    for q in range(m):
        a = abs(w[support[q]])
        if a > thr:
            continue
        if a == thr and ties_left > 0:
            ties_left -= 1
            continue
        w[support[q]] = 0.0
    kept = 0
    for q in range(m):
        if w[support[q]] != 0.0:
            support[kept] = support[q]
            kept += 1
    return kept


@njit(**NJIT)
def _ofs_learn(w, counts, rows, y, scores, eta, radius, B):
    d = w.shape[0] - 1
    # The non-zero feature weights, ascending (<= B after each truncation): the norm, the
    # projection and the truncation read only these and the row's entries, so an update
    # costs O(B + nnz(x)), not O(d). ||w||^2 is summed over exactly the non-zero weights
    # in index order, the intercept last, whatever the history (so also in any chunking).
    # Between updates at most max(B, the non-zeros found now) weights are non-zero, so a
    # step's union never holds more than that plus the row's entries: the work arrays are
    # O(B + nnz) long on sparse rows, not O(d).
    m = 0
    for j in range(d):
        if w[j] != 0.0:
            m += 1
    widest = d
    if rows[4]:
        widest = 0
        for i in range(y.shape[0]):
            widest = max(widest, rows[2][i + 1] - rows[2][i])
    cap = min(d, max(m, min(B, d)) + widest)  # (B may be near 2**63)
    support = np.empty(cap, dtype=np.int64)
    spare = np.empty(cap, dtype=np.int64)
    scratch = np.empty(cap)
    m = 0
    for j in range(d):
        if w[j] != 0.0:
            support[m] = j
            m += 1
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        if y[i] * f > 1.0:
            continue
        row_axpy(eta * y[i], rows, i, w)
        n = _merge_row_support(support, m, rows, i, spare)
        support, spare = spare, support
        m = 0
        sq = 0.0
        for q in range(n):  # drop weights the step (or an underflow) made exactly 0
            j = support[q]
            if w[j] != 0.0:
                support[m] = j
                m += 1
                sq += w[j] * w[j]
        sq += w[d] * w[d]
        norm = math.sqrt(sq)
        if norm > radius:
            scale = radius / norm
            for q in range(m):
                w[support[q]] *= scale
            w[d] *= scale
        m = _keep_largest(w, support, m, B, scratch)
        counts[3] += 1


class OFS(OnlineLinearClassifier):
    """Online feature selection by sparse projection (Wang, Zhao, Hoi and Jin, 2014).

    The full-information OFS of [1]_ ("OFS via sparse projection"): when the hinge loss
    is positive,
    :math:`y_t w_t^T x_t \\le 1`,

    .. math::

        \\hat w_{t+1} = w_t + \\eta\\, y_t x_t,\\qquad
        \\tilde w_{t+1} = \\min\\Big\\{1, \\frac{1/\\sqrt{\\lambda}}{\\|\\hat w_{t+1}\\|}\\Big\\}
        \\hat w_{t+1},\\qquad
        w_{t+1} = \\mathrm{Truncate}(\\tilde w_{t+1}, B),

    an OGD step, the projection onto the L2 ball of radius :math:`1/\\sqrt\\lambda`, and
    truncation to the ``B`` weights of largest magnitude. So at most ``B`` feature weights
    are ever non-zero. The intercept (the weight of the constant feature) is part of
    ``w`` for the step and the projection but is not a feature: it is never truncated
    and does not count towards ``B``. Ties in :math:`|w_j|` at the cut keep the lower
    feature index.

    Parameters
    ----------
    n_selected : int, default=10
        ``B``, the number of features kept, >= 1 (no truncation if ``B >= n_features``).
    eta : float, default=0.2
        Step size, > 0 (the authors' code uses 0.2).
    lam : float, default=0.01
        Regularisation :math:`\\lambda > 0`; the weights stay in the ball of radius
        :math:`1/\\sqrt\\lambda` (the authors' code uses 0.01, radius 10).
    fit_intercept : bool, default=True
    pos_label : label, default=None
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    weights_, coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`~skewlearn.Perceptron`.
    selected_features_ : ndarray of int
        Indices of the features with a non-zero weight.

    Notes
    -----
    An update costs O(B + nnz(x)) on sparse input: the norm, the projection and the
    selection read only the at most ``B`` non-zero weights and the row's entries (and
    each call scans the weights once, O(d)). On dense input it is O(d), as the step is.

    References
    ----------
    .. [1] J. Wang, P. Zhao, S. C. H. Hoi and R. Jin, "Online feature selection and its
       applications", IEEE TKDE 26(3):698-710, 2014; seed 002, "Online Feature Selection"
       slide.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import OFS
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(1000, 30))
    >>> y = (X[:, 3] - X[:, 7] > 1.0).astype(int)
    >>> clf = OFS(n_selected=2).fit(X, y)
    >>> clf.selected_features_
    array([3, 7])
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept; the projection scales the
    #: weights by at most 1, the truncation zeroes some (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "n_selected": [Interval(numbers.Integral, 1, None, closed="left")],
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "lam": [Interval(numbers.Real, 0, None, closed="neither")],
    }
    _test_params: ClassVar[list[dict]] = [{}, {"n_selected": 2, "eta": 0.5, "lam": 0.1}]

    def __init__(
        self,
        n_selected: int = 10,
        eta: float = 0.2,
        lam: float = 0.01,
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.n_selected = n_selected
        self.eta = eta
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _learn(self, rows, y, scores):
        _ofs_learn(
            self.weights_,
            self.counts_,
            rows,
            y,
            scores,
            float(self.eta),
            1.0 / math.sqrt(self.lam),
            min(int(self.n_selected), _INT64_MAX),
        )

    @property
    def selected_features_(self) -> np.ndarray:
        """Indices of the features whose weight is non-zero (at most ``n_selected``)."""
        check_is_fitted(self, "weights_")
        return np.flatnonzero(self.weights_[:-1])
