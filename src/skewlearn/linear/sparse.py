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
from .._rows import linear_scores, row_axpy, row_col, row_dot, row_span, row_sqnorm
from .._stability import note_step_gain
from ..base import FLOAT32_ROWS, OnlineLinearClassifier, read_only
from .first_order import LOSSES, SCHEDULES, SQUARED_GAIN, count_sample, loss_slope, step_size

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["OFS", "TruncatedGradient"]

#: Largest int64: the compiled passes take ``K`` and ``n_selected`` as int64, and a larger
#: value means the same there (a stream never reaches 2**63 - 1 samples; B >= d keeps all).
_INT64_MAX = int(np.iinfo(np.int64).max)

#: An eager TruncatedGradient's marks: never read (its clock is never stale).
_NO_MARKS = np.zeros(0, dtype=np.float64)


# --------------------------------------------------------------------------- truncated gradient
@njit(**NJIT_INLINE)
def _t1(v, alpha, theta):
    """Langford et al.'s :math:`T_1(v, \\alpha, \\theta)` of one weight."""
    if 0.0 <= v <= theta:
        return max(0.0, v - alpha)
    if -theta <= v < 0.0:
        return min(0.0, v + alpha)
    return v


@njit(**NJIT_INLINE)
def _truncate_t1(w, alpha, theta):
    """:func:`_t1` on every feature weight (not the intercept ``w[-1]``)."""
    for j in range(w.shape[0] - 1):
        w[j] = _t1(w[j], alpha, theta)


@njit(**NJIT_INLINE)
def _current_weight(w, at, j, clock, synced, alpha0, theta):
    """Feature ``j``'s weight with the truncations it has missed applied, read-only: it
    was last brought up to date at clock ``max(at[j], synced)``, and the truncations
    since then total ``alpha0 * (clock - that)`` (:class:`TruncatedGradient`'s Notes)."""
    last = max(at[j], synced)
    if last == clock:
        return w[j]
    return _t1(w[j], alpha0 * (clock - last), theta)


@njit(**NJIT)
def _current_weights(w, at, clock, alpha0, theta):
    """A copy of ``w`` with every feature weight brought up to date (the intercept as is)."""
    out = w.copy()
    for j in range(w.shape[0] - 1):
        out[j] = _current_weight(w, at, j, clock[0], clock[1], alpha0, theta)
    return out


@njit(**NJIT)
def _truncated_gradient_scores(w, at, clock, alpha0, theta, rows, out):
    """Decision values on CSR rows, each non-zero's weight brought up to date on the fly
    (the sum of :func:`~skewlearn._rows.row_dot`, in its order)."""
    for i in range(out.shape[0]):
        f = 0.0
        for p in range(rows[2][i], rows[2][i + 1]):
            f += _current_weight(w, at, rows[1][p], clock[0], clock[1], alpha0, theta) * rows[0][p]
        out[i] = f + w[rows[3]] * rows[5]


@njit(**NJIT)
def _truncated_gradient_learn(
    w, at, clock, counts, rows, y, scores, eta, schedule, loss, gravity, theta, K, alpha0,
    lazy, stability,
):  # fmt: skip
    # The truncation clock c = clock[0] advances by eta_i / eta at each truncation (1 with
    # the constant schedule); every weight is up to date at clock[1] or later, weight j at
    # at[j] or later. lazy (a lazy model's CSR rows): the row's weights are brought up to
    # date before the score, and a truncation only advances c. Otherwise (dense rows, and
    # every row of an eager model, whose clock is scratch and never stale): the eager
    # truncation of all d weights, after bringing any stale weight up to date (only a lazy
    # call leaves one). Nothing depends on where calls begin (docs/decisions.md, session 22).
    c = clock[0]
    synced = clock[1]
    if not lazy and synced != c:
        for j in range(w.shape[0] - 1):
            w[j] = _current_weight(w, at, j, c, synced, alpha0, theta)
        synced = c
    for i in range(y.shape[0]):
        if lazy and synced != c:
            for p in range(rows[2][i], rows[2][i + 1]):
                j = rows[1][p]
                if max(at[j], synced) != c:
                    w[j] = _current_weight(w, at, j, c, synced, alpha0, theta)
                    at[j] = c
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
            c += step_size(1.0, schedule, counts[0])
            if not lazy:
                _truncate_t1(w, eta_t * K * gravity, theta)
                synced = c
    clock[0] = c
    clock[1] = synced


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
        As in :class:`~skewlearn.OGD`.
    schedule : {"constant", "invsqrt"}, default="constant"
        :math:`\\eta_i = \\eta` (the paper) or :math:`\\eta / \\sqrt{i}`.
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`~skewlearn.Perceptron`; ``coef_`` is always the model, every
        truncation applied.
    weights_ : ndarray of shape (n_features + 1,)
        ``[u, b]``: each feature weight as last brought up to date (see Notes). On an
        eager model (fewer than 30,000 features, or ``gravity=0``) and after a lazy
        model's dense rows it is ``[w, b]``, the model; after a lazy model's sparse rows
        some entries still have truncations to apply: read the model from ``coef_`` and
        ``intercept_``.
    truncated_at_ : ndarray of shape (n_features + 1,)
        Lazy models only: the value of the truncation clock at which each weight was last
        brought up to date on a sparse row (the intercept's entry is unused).
    truncation_clock_ : ndarray of shape (2,)
        Lazy models only: ``[c, c_all]``: ``c`` advances by :math:`\\eta_i / \\eta` at
        each truncation (by 1 with the constant schedule, so it counts them); every weight
        is up to date at ``c_all`` or later.
    stability_ : ndarray of shape (2,)
        ``[steps with gain > 2, largest gain]``, gain :math:`\\eta_i\\|[x_i, 1]\\|^2`,
        over everything learned; ``loss="squared"`` only (zeros for the others).

    Notes
    -----
    With the squared loss a step with :math:`\\eta_i\\|[x_i, 1]\\|^2 > 2` overshoots and
    amplifies the weights (the LMS stability condition); each learning call that takes
    such steps warns and names a stable ``eta``, as :class:`~skewlearn.OGD` does.

    **Sparse rows of wide models: O(nnz) a sample.** A model with at least 30,000
    features and ``gravity > 0`` is *lazy* (chosen when it starts learning, from its
    width and parameters only, so ``partial_fit`` in any pieces still equals ``fit``); a
    narrower one keeps the eager truncation of all ``d`` weights every ``K`` samples on
    every row, cheaper there than the lazy bookkeeping. Between two samples in which
    feature ``j`` appears its weight changes only by truncations, which move it toward 0
    and only while :math:`|w_j| \\le \\theta` (so it stays there), and
    :math:`T_1(T_1(v, a, \\theta), b, \\theta) = T_1(v, a + b, \\theta)`. On CSR rows a
    lazy model's truncation therefore only advances the clock ``c``, and a weight's
    missed truncations are applied in one go when its feature next appears (the paper's
    lazy update with time stamps, for sparse data):

    .. math::

        w_j = T_1\\big(u_j,\\; \\eta K g\\,(c - c_j),\\; \\theta\\big),\\qquad
        c_j = \\max(\\texttt{truncated\\_at\\_}_j, c_\\text{all}).

    This equals the eager truncation in real arithmetic; in floating point it subtracts
    :math:`k\\alpha` once where the eager one subtracts :math:`\\alpha` ``k`` times, so
    the two agree to rounding (~1e-15 relative on the tests' streams). The clock is
    learned state, kept across calls and never flushed at a call's end, so
    ``partial_fit`` in any pieces equals ``fit`` bit for bit. Dense rows read every weight
    anyway: lazy models truncate them eagerly, all ``d`` weights every ``K`` samples (a
    dense call first brings any stale weight up to date). Reading the model
    (``coef_``, ``decision_function``, ``predict``) brings weights up to date on a copy,
    per non-zero on CSR rows; reading never changes the state.

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
    #: A step on CSR rows writes the row's columns and the intercept of ``weights_`` (the
    #: truncation only advances the clock) (:class:`OnlineClassifier`).
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

    #: Models at least this wide (and with ``gravity > 0``) truncate lazily on CSR rows;
    #: narrower ones eagerly, as the eager pass over d weights every K rows is cheaper
    #: there (docs/decisions.md, session 22, probe h). Private: tests set it to force a path.
    _lazy_min_features: ClassVar[int] = 30_000

    def _lazy_for(self, n_features: int) -> bool:
        """Whether a model of this width and these parameters truncates lazily: decided
        once, from quantities that do not depend on how the stream is split into calls."""
        return float(self.gravity) > 0.0 and n_features >= self._lazy_min_features

    def _is_lazy(self) -> bool:
        return "truncation_clock_" in self.__dict__

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        if self._lazy_for(n_features):
            self.truncated_at_ = np.zeros(n_features + 1, dtype=np.float64)
            self.truncation_clock_ = np.zeros(2, dtype=np.float64)
        else:  # eager: main's state exactly (a refit may follow a lazy fit)
            self.__dict__.pop("truncated_at_", None)
            self.__dict__.pop("truncation_clock_", None)

    def __setstate__(self, state):
        super().__setstate__(state)
        weights = self.__dict__.get("weights_")
        if weights is not None and not self._is_lazy() and self._lazy_for(weights.shape[0] - 1):
            # an eager pickle (before session 22, or saved under a larger D) of a model
            # lazy by today's switch: every weight is up to date (the eager truncation)
            self.truncated_at_ = np.zeros_like(weights)
            self.truncation_clock_ = np.zeros(2, dtype=np.float64)

    def _float_state_names(self, state: dict) -> tuple[str, ...]:
        # truncated_at_ holds values the clock has taken (sums of eta_i / eta <= 1, finite
        # by construction), so the overflow check leaves it out: on sparse rows it would
        # read one more d-vector at the batch's columns after every call (~1 ms a fit of
        # 100,000 non-zeros at d = 10^6, cache misses).
        return tuple(n for n in super()._float_state_names(state) if n != "truncated_at_")

    def _alpha0(self) -> float:
        """The truncation amount per unit of the clock, :math:`\\eta K g`, of the
        settings the model learned with (:meth:`_learned`: ``set_params`` after fitting
        must not change the fitted model's missed truncations)."""
        eta, K, gravity = (self._learned(name) for name in ("eta", "K", "gravity"))
        return float(eta) * min(int(K), _INT64_MAX) * float(gravity)

    def _stale(self) -> bool:
        """Whether some weight has truncations still to apply (only a lazy model after
        sparse rows)."""
        clock = self.__dict__.get("truncation_clock_")
        return clock is not None and bool(clock[0] != clock[1])

    def _current_weights(self) -> np.ndarray:
        """``[w, b]`` with every weight brought up to date: a new array (the state is
        left as it is)."""
        return _current_weights(
            self.weights_,
            self.truncated_at_,
            self.truncation_clock_,
            self._alpha0(),
            float(self._learned("theta")),
        )

    def _scores(self, rows: tuple, out: np.ndarray) -> None:
        if not self._stale():
            linear_scores(self.weights_, rows, out)
        elif rows[4]:  # O(nnz): each non-zero's weight brought up to date on the fly
            _truncated_gradient_scores(
                self.weights_,
                self.truncated_at_,
                self.truncation_clock_,
                self._alpha0(),
                float(self._learned("theta")),
                rows,
                out,
            )
        else:  # dense rows read every weight anyway: O(d) once
            linear_scores(self._current_weights(), rows, out)

    @property
    def coef_(self) -> np.ndarray:
        """Weights of the features with every truncation applied, shape (1, n_features),
        with ``classes_[1]`` as the positive side: as :class:`~skewlearn.Perceptron`'s
        while no weight is stale (a view of ``weights_``, or a negated copy when
        ``pos_label`` is ``classes_[0]``), else a new array."""
        w = super().coef_
        if not self._stale():
            return w
        current = self._current_weights()[None, :-1]
        return read_only(current if self._pos_is_last() else -current)

    def _learn(self, rows, y, scores):
        lazy = self._is_lazy()
        _truncated_gradient_learn(
            self.weights_,
            self.truncated_at_ if lazy else _NO_MARKS,
            self.truncation_clock_ if lazy else np.zeros(2, dtype=np.float64),
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
            self._alpha0(),
            lazy and bool(rows[4]),
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
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
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
