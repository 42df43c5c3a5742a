"""First-order online linear learners: Perceptron, OGD, Passive-Aggressive, ALMA, ROMMA.

Each public class is thin: it declares its hyperparameters and calls one private
compiled kernel that loops over the whole batch (see :mod:`skewlearn.base`).

References
----------
.. [1] S. C. H. Hoi, "Online learning: theory, algorithms and applications", tutorial
   slides, 2013 (seed 002) — the update rules stated on the "Traditional Linear Online
   Learning" slides.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if

from .._config import NJIT, NJIT_INLINE
from .._rows import (
    row_axpy,
    row_dot,
    row_feature_axpy,
    row_feature_dot,
    row_feature_sqnorm,
    row_sqnorm,
    scaled_linear_scores,
    scaled_row_dot,
)
from .._stability import note_step_gain
from ..base import FLOAT32_ROWS, OnlineLinearClassifier, read_only

if TYPE_CHECKING:
    from .._typing import Label, MatrixLike, RandomStateLike

__all__ = ["ALMA", "OGD", "ROMMA", "PassiveAggressive", "Perceptron"]


@njit(**NJIT_INLINE)
def count_sample(counts, y):
    """Advance ``counts_ = [seen, positives, negatives, updates]`` for one label ``y``."""
    counts[0] += 1
    if y > 0:
        counts[1] += 1
    else:
        counts[2] += 1


#: Loss names -> codes used inside kernels (shared with the sparse and cost-sensitive modules).
LOSSES = {"hinge": 0, "logistic": 1, "squared": 2}
#: Step-size schedules: ``eta`` at every step, or ``eta / sqrt(t)`` (t = samples seen).
SCHEDULES = {"constant": 0, "invsqrt": 1}
#: The squared loss's step gain as the step-size warning prints it (:mod:`skewlearn._stability`).
SQUARED_GAIN = "eta_t * |[x, 1]|^2 (squared loss; 1 is the intercept feature, if fitted)"


@njit(**NJIT_INLINE)
def loss_slope(loss, z):
    """Minus the derivative of the margin loss at ``z = y w^T x``.

    The gradient step on :math:`\\ell(y\\, w^T x)` is then
    ``w += eta * loss_slope(loss, z) * y * x``. Losses: 0 hinge :math:`\\max(0, 1-z)`
    (sub-gradient 0 at the kink ``z = 1``), 1 logistic :math:`\\log(1+e^{-z})`,
    2 squared :math:`\\tfrac12 (1 - z)^2 = \\tfrac12 (y - w^T x)^2`.
    """
    if loss == 0:
        return 1.0 if z < 1.0 else 0.0
    if loss == 1:
        return sigmoid(-z)
    return 1.0 - z


@njit(**NJIT_INLINE)
def sigmoid(z):
    """:math:`1 / (1 + e^{-z})` without overflow for any finite ``z``."""
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@njit(**NJIT_INLINE)
def step_size(eta, schedule, t):
    """``eta`` (schedule 0) or ``eta / sqrt(t)`` (schedule 1) at step ``t >= 1``."""
    if schedule == 1:
        return eta / math.sqrt(t)
    return eta


def _stable_sigmoid(z: np.ndarray) -> np.ndarray:
    """:math:`\\sigma(z)` without overflow: ``1 / (1 + e)`` for z ≥ 0 and ``e / (1 + e)``
    for z < 0, where ``e = exp(-|z|)`` ≤ 1. Computed for every entry at once (masked
    assignments cost four boolean-indexing passes: 3× the time at 1,000 rows), with the
    same operands, so the same values, as per class of entries."""
    e = np.abs(z)
    np.negative(e, out=e)
    np.exp(e, out=e)
    out = np.where(z >= 0, 1.0, e)
    out /= 1.0 + e
    return out


def _logistic_pair(s: float) -> tuple[float, float]:
    """:math:`(\\sigma(-s), \\sigma(s))` of one score, as :func:`_logistic_columns` computes
    them for an array, bit for bit: one ``e = exp(-|s|)`` from numpy's ``exp`` (``math.exp``
    differs from it in the last bit for ~5 % of scores), and each column divided by
    ``1 + e``, never ``1 - p`` (exactly 0 for ``s`` above ~37). The River adapter's
    ``predict_proba_one`` and a one-row ``predict_proba`` (~1 us here, against ~8 us for
    the array operations on one score)."""
    e = float(np.exp(-abs(s)))
    den = 1.0 + e
    return (e / den, 1.0 / den) if s >= 0 else (1.0 / den, e / den)


def _logistic_columns(z: np.ndarray) -> np.ndarray:
    """``[σ(-z), σ(z)]`` as two columns, each the logistic function of its own signed
    score, from one ``e = exp(-|z|)``: bit for bit ``_stable_sigmoid(-z)`` and
    ``_stable_sigmoid(z)`` (``1 - σ(z)`` would round to 0 for z above ~37). One score
    goes through :func:`_logistic_pair` (the same operations as Python floats)."""
    if z.shape[0] == 1:
        return np.array((_logistic_pair(float(z[0])),))
    e = np.abs(z)
    np.negative(e, out=e)
    np.exp(e, out=e)
    den = 1.0 + e
    pos = z >= 0
    out = np.empty((z.shape[0], 2))
    np.divide(np.where(pos, e, 1.0), den, out=out[:, 0])
    np.divide(np.where(pos, 1.0, e), den, out=out[:, 1])
    return out


# --------------------------------------------------------------------------- Perceptron
@njit(**NJIT)
def _perceptron_learn(w, counts, rows, y, scores, eta):
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        if y[i] * f <= 0.0:
            row_axpy(eta * y[i], rows, i, w)
            counts[3] += 1


class Perceptron(OnlineLinearClassifier):
    """Rosenblatt's Perceptron, online.

    Predict :math:`\\hat y_t = \\mathrm{sign}(w_t^T x_t)` and, when
    :math:`y_t w_t^T x_t \\le 0` (a mistake, or a zero margin),

    .. math::  w_{t+1} = w_t + \\eta\\, y_t x_t .

    With ``fit_intercept=True`` the intercept is the weight of a constant feature 1.
    The rule is the one on the Perceptron slide of [1]_ (Rosenblatt, 1958); updating on a
    zero margin too makes the first sample always count, as in scikit-learn. The two
    references differ from it, and from each other, only at a zero score: the slide
    (predict positive iff :math:`w^T x > 0`, update on a mistake) updates a positive
    there and LIBOL's ``Perceptron.m`` (which predicts +1 iff :math:`w^T x \\ge 0`) a
    negative; neither uses a constant feature, so compare with ``fit_intercept=False``.

    Parameters
    ----------
    eta : float, default=1.0
        Step size, > 0. Scaling it scales ``w`` and leaves predictions unchanged
        (from ``w_1 = 0``).
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused: the Perceptron is deterministic. Kept so every skewlearn learner has the
        same constructor surface.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    pos_label_ : label
    weights_ : ndarray of shape (n_features + 1,)
        ``[w, b]``.
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    counts_ : ndarray of shape (4,)
        ``[seen, positives, negatives, updates]``.

    References
    ----------
    .. [1] S. C. H. Hoi, Online learning tutorial (seed 002), Perceptron slide;
       F. Rosenblatt, "The perceptron", Psychological Review 65(6), 1958.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import Perceptron
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.2], [0.1, 1.0]])
    >>> y = np.array(["no", "yes", "no", "yes"])
    >>> clf = Perceptron().fit(X, y)
    >>> clf.predict([[0.0, 2.0]])
    array(['yes'], dtype='<U3')
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        eta: float = 1.0,
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _learn(self, rows, y, scores):
        _perceptron_learn(self.weights_, self.counts_, rows, y, scores, float(self.eta))


# --------------------------------------------------------------------------- PA family
_PA_VARIANTS = {"pa": 0, "pa1": 1, "pa2": 2}


@njit(**NJIT)
def _pa_learn(w, counts, rows, y, scores, C, variant):
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        loss = 1.0 - y[i] * f
        if loss <= 0.0:
            continue
        sq = row_sqnorm(rows, i)
        if variant == 2:
            tau = loss / (sq + 0.5 / C)
        elif sq > 0.0:
            tau = loss / sq
            if variant == 1 and tau > C:
                tau = C
        else:
            continue
        row_axpy(tau * y[i], rows, i, w)
        counts[3] += 1


class PassiveAggressive(OnlineLinearClassifier):
    """Passive-Aggressive learning (PA, PA-I, PA-II) with the hinge loss.

    With :math:`\\ell_t = \\max(0, 1 - y_t w_t^T x_t)` the update is
    :math:`w_{t+1} = w_t + \\tau_t y_t x_t`, where

    .. math::

        \\tau_t = \\frac{\\ell_t}{\\|x_t\\|^2}\\ (\\text{PA}),\\qquad
        \\tau_t = \\min\\Big\\{C, \\frac{\\ell_t}{\\|x_t\\|^2}\\Big\\}\\ (\\text{PA-I}),\\qquad
        \\tau_t = \\frac{\\ell_t}{\\|x_t\\|^2 + \\frac{1}{2C}}\\ (\\text{PA-II}),

    the closed forms on the PA slides of [1]_ (Crammer et al., 2006, Eqs. 3–5).
    ``x_t`` includes the constant feature 1 when ``fit_intercept=True``, so ``‖x_t‖²``
    counts it. A zero row (possible only without intercept) leaves PA and PA-I unchanged.

    Parameters
    ----------
    C : float, default=1.0
        Aggressiveness, > 0 (used by PA-I and PA-II; LIBOL's default is 1).
    variant : {"pa", "pa1", "pa2"}, default="pa1"
        PA, PA-I or PA-II: which :math:`\\tau_t` above.
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    weights_, coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`Perceptron`.

    References
    ----------
    .. [1] K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
       passive-aggressive algorithms", JMLR 7, 2006; seed 002, PA slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import PassiveAggressive
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = (X[:, 0] > 1.2).astype(int)           # about 12% positives
    >>> clf = PassiveAggressive(C=0.1).fit(X, y)
    >>> round(clf.score(X, y), 2) >= 0.9
    True
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("C", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "variant": [StrOptions(set(_PA_VARIANTS))],
    }

    def _step_settings(self) -> tuple[tuple[str, str], ...]:
        return () if self.variant == "pa" else self._step_params  # plain PA has no C

    def __init__(
        self,
        C: float = 1.0,
        variant: str = "pa1",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.C = C
        self.variant = variant
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _learn(self, rows, y, scores):
        _pa_learn(
            self.weights_, self.counts_, rows, y, scores, float(self.C), _PA_VARIANTS[self.variant]
        )


# --------------------------------------------------------------------------- weight scale
#: OGD, ALMA and ROMMA fold their weight scale into ``weights_`` when it falls below this
#: value (scikit-learn's ``wscale`` threshold in ``_sgd_fast``; docs/decisions.md,
#: sessions 21 and 22).
SCALE_FLOOR = 1e-9
#: ROMMA's scale can also grow (c_t > 1): it is folded when it passes this value.
SCALE_CEILING = 1e9
#: The smallest normal float64: a product below it has lost bits (ROMMA's a^2).
NORMAL_MIN = 2.2250738585072014e-308


@njit(**NJIT_INLINE)
def fold_scale(w, s):
    """Fold the scale ``s`` into the feature weights: ``w[:-1] *= s`` (O(d)); the caller
    sets its scale to 1. The intercept ``w[-1]`` is not scaled."""
    for j in range(w.shape[0] - 1):
        w[j] *= s


@njit(**NJIT_INLINE)
def feature_sqnorm(w):
    """:math:`\\sum_{j<d} w_j^2` for weights of length ``d + 1`` (the intercept left out)."""
    q = 0.0
    for j in range(w.shape[0] - 1):
        q += w[j] * w[j]
    return q


class ScaledWeightsMixin:
    """A linear model whose feature weights are kept as a scale times a vector, so that a
    step multiplying all of them (OGD's L2 decay, ALMA's projection, ROMMA's c_t) costs
    O(1) instead of O(d) and a step on a sparse row O(nnz) (docs/decisions.md, sessions
    21 and 22).

    ``weights_`` holds ``[v, b]`` and ``weight_scale_`` = ``[s]``: the feature weights are
    ``s * v`` (``coef_``), the intercept is ``b`` (not scaled). ``s`` is folded into ``v``
    (``v *= s``, ``s = 1``: O(d)) only when it leaves the kernel's bounds
    (:data:`SCALE_FLOOR`, :data:`SCALE_CEILING`), which depend on ``s`` alone, never on
    where learning calls begin: ``partial_fit`` in any pieces equals ``fit`` bit for bit.
    Scoring (``decision_function``, ``predict``, the River adapter's one-row scores) reads
    ``s`` through :func:`~skewlearn._rows.scaled_linear_scores`. Place it before
    :class:`~skewlearn.base.OnlineLinearClassifier` in the bases.
    """

    #: Where ``weight_scale_`` is folded into ``weights_`` from below (:data:`SCALE_FLOOR`;
    #: tests set a larger value on an instance to make folds frequent).
    _scale_floor: ClassVar[float] = SCALE_FLOOR

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        self.weight_scale_ = np.ones(1, dtype=np.float64)

    def __setstate__(self, state):
        super().__setstate__(state)
        if "weights_" in self.__dict__ and "weight_scale_" not in self.__dict__:
            # pickled before the scale (OGD before session 21, ALMA and ROMMA before
            # session 22): its weights_ is w itself, i.e. a scale of 1
            self.weight_scale_ = np.ones(1, dtype=np.float64)

    def _scores(self, rows: tuple, out: np.ndarray) -> None:
        scaled_linear_scores(self.weights_, float(self.weight_scale_[0]), rows, out)

    @property
    def coef_(self) -> np.ndarray:
        """Weights of the features, ``weight_scale_[0] * weights_[:-1]``, shape
        (1, n_features), with ``classes_[1]`` as the positive side (scikit-learn's
        convention, the sign of :meth:`decision_function`): as :class:`Perceptron`'s while
        the scale is 1 (a view of ``weights_``, or a negated copy when ``pos_label`` is
        ``classes_[0]``), else a new array."""
        w = super().coef_
        scale = float(self.weight_scale_[0])
        return w if scale == 1.0 else read_only(scale * w)


# --------------------------------------------------------------------------- OGD
@njit(**NJIT)
def _ogd_learn(w, scale, counts, rows, y, scores, eta, schedule, loss, alpha, stability, floor):
    # The feature weights are s * w[:-1] (s = scale[0]); the intercept w[-1] is not scaled.
    # The L2 decay multiplies s alone, an O(1) step; s is folded into w (O(d)) only when
    # it falls below ``floor``, which depends on s alone, not on where calls begin.
    s = scale[0]
    for i in range(y.shape[0]):
        f = scaled_row_dot(w, s, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        eta_t = step_size(eta, schedule, counts[0])
        if loss == 2:  # the squared loss's step is stable iff eta_t |[x, 1]|^2 <= 2
            note_step_gain(stability, eta_t * row_sqnorm(rows, i))
        g = loss_slope(loss, y[i] * f)
        if alpha > 0.0:
            s *= 1.0 - eta_t * alpha
            if s < floor:
                fold_scale(w, s)
                s = 1.0
        if g != 0.0:
            a = eta_t * g * y[i]
            row_feature_axpy(a / s, rows, i, w)
            w[rows[3]] += a * rows[5]
            counts[3] += 1
    scale[0] = s


class OGD(ScaledWeightsMixin, OnlineLinearClassifier):
    """Online gradient descent (Zinkevich, 2003) on a margin loss.

    With :math:`z_t = y_t w_t^T x_t` and step :math:`\\eta_t` the update is the OGD rule
    of [1]_ (the "Online Gradient Descent" slides of [2]_)

    .. math::

        w_{t+1} = w_t - \\eta_t \\nabla_w \\big[\\ell(z_t) + \\tfrac{\\alpha}{2}\\|w\\|^2\\big]
                = (1 - \\eta_t \\alpha)\\, w_t - \\eta_t\\, \\ell'(z_t)\\, y_t x_t ,

    with :math:`\\ell(z) = \\max(0, 1-z)` (hinge, sub-gradient 0 at ``z = 1``),
    :math:`\\log(1 + e^{-z})` (logistic) or :math:`\\tfrac12(1-z)^2 = \\tfrac12 (y-w^Tx)^2`
    (squared), and :math:`\\eta_t = \\eta/\\sqrt{t}` (Zinkevich's Theorem 1 schedule,
    LIBOL's default) or :math:`\\eta` (``schedule="constant"``); ``t`` counts the samples
    seen. The L2 term never shrinks the intercept. No projection: the feasible set is
    all of :math:`\\mathbb{R}^{d+1}`, as in LIBOL.

    Parameters
    ----------
    eta : float, default=1.0
        Step size, > 0 (LIBOL's default ``C = 1``).
    loss : {"hinge", "logistic", "squared"}, default="hinge"
        The loss :math:`\\ell` above.
    schedule : {"invsqrt", "constant"}, default="invsqrt"
        ``eta / sqrt(t)`` or a constant ``eta``.
    alpha : float, default=0.0
        L2 regularisation strength, >= 0, with ``eta * alpha < 1`` so the decay factor
        ``1 - eta_t * alpha`` stays positive. The decay is kept as a scale of the feature
        weights (``weight_scale_``), so a step on a sparse row costs O(nnz) with
        ``alpha > 0`` too.
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`Perceptron`; ``counts_[3]`` counts steps with a non-zero loss
        gradient.
    weights_ : ndarray of shape (n_features + 1,)
        ``[v, b]``: the feature weights are ``weight_scale_[0] * v`` (read them from
        ``coef_``), the intercept is ``b``. With ``alpha = 0`` the scale stays 1 and
        ``weights_`` is ``[w, b]`` as in :class:`Perceptron`.
    weight_scale_ : ndarray of shape (1,)
        The scale ``s`` of the feature weights, ``w = s v``: the L2 decay multiplies
        ``s`` alone (O(1) a step instead of O(d)), and when ``s`` falls below 1e-9 it is
        folded into ``v`` (O(d), once per factor 1e9 of decay), as scikit-learn's
        ``SGDClassifier`` does. It is learned state, kept across calls, so
        ``partial_fit`` in any pieces equals ``fit`` bit for bit.
    stability_ : ndarray of shape (2,)
        ``[steps with gain > 2, largest gain]``, gain :math:`\\eta_t\\|[x_t, 1]\\|^2`,
        over everything learned; ``loss="squared"`` only (zeros for the others).

    Notes
    -----
    **Step-size check (squared loss).** The squared-loss step changes the row's own
    error :math:`1 - z_t` by the factor :math:`1 - \\eta_t\\|[x_t, 1]\\|^2` (exactly so
    with ``alpha = 0``): above :math:`\\eta_t\\|[x_t, 1]\\|^2 = 2` the step overshoots and
    amplifies the weights (the LMS stability condition), and a few outlying rows can
    blow them up to 1e100 without any overflow. Each learning call that takes such
    steps warns (``RuntimeWarning``) and names an ``eta`` that keeps them stable (see
    :mod:`skewlearn._stability`). The hinge and logistic steps are bounded and never
    counted.

    References
    ----------
    .. [1] M. Zinkevich, "Online convex programming and generalized infinitesimal gradient
       ascent", ICML 2003.
    .. [2] S. C. H. Hoi, Online learning tutorial (seed 002), OGD slides.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import OGD
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> y = (X[:, 0] + X[:, 1] > 1.5).astype(int)
    >>> clf = OGD(loss="logistic").fit(X, y)
    >>> clf.predict_proba(X[:2]).shape
    (2, 2)
    >>> bool(clf.score(X, y) > 0.85)
    True
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept; the L2 decay moves only
    #: ``weight_scale_``, and folding it multiplies the other weights by a scale in (0, 1)
    #: (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "loss": [StrOptions(set(LOSSES))],
        "schedule": [StrOptions(set(SCHEDULES))],
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
    }
    _test_params: ClassVar[list[dict]] = [
        {},
        {"loss": "logistic", "schedule": "constant", "eta": 0.1, "alpha": 0.01},
        {"loss": "squared", "eta": 0.05},
    ]
    _id_keys = ("loss",)
    _step_gain = SQUARED_GAIN

    def __init__(
        self,
        eta: float = 1.0,
        loss: str = "hinge",
        schedule: str = "invsqrt",
        alpha: float = 0.0,
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.eta = eta
        self.loss = loss
        self.schedule = schedule
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        check_decay(self.eta, self.alpha)
        super()._allocate(n_features)

    def _learn(self, rows, y, scores):
        _ogd_learn(
            self.weights_,
            self.weight_scale_,
            self.counts_,
            rows,
            y,
            scores,
            float(self.eta),
            SCHEDULES[self.schedule],
            LOSSES[self.loss],
            float(self.alpha),
            self.stability_,
            float(self._scale_floor),
        )

    def _is_logistic(self) -> bool:
        """Whether the model is logistic: the ``loss`` it learned with once fitted (a later
        ``set_params(loss=...)`` is refused by the next learning call and must not turn a
        hinge model's scores into "probabilities"), the setting before that.

        Otherwise raises ``AttributeError`` saying why and what to do: ``available_if``
        turns it into "has no attribute 'predict_proba'" (``hasattr`` stays False for
        meta-estimators) with this as its cause, as scikit-learn's ``SGDClassifier`` does."""
        fitted = "weights_" in self.__dict__
        loss = self._learned("loss") if fitted else self.loss
        if loss == "logistic":
            return True
        which = "a model learned with " if fitted else ""
        raise AttributeError(
            f"probability estimates are not available for {which}loss={loss!r}: "
            f"{type(self).__name__} gives predict_proba only when it learns with "
            'loss="logistic" (set it and call fit); to turn this model\'s decision_function '
            "into probabilities, wrap it in sklearn.calibration.CalibratedClassifierCV."
        )

    @available_if(_is_logistic)
    def predict_proba(self, X: MatrixLike) -> np.ndarray:
        """Class probabilities :math:`\\sigma(w^T x)` (only for ``loss="logistic"``).

        Returns
        -------
        ndarray of shape (n_samples, 2)
            Columns in the order of ``classes_``: :math:`\\sigma(-z)` and
            :math:`\\sigma(z)`, ``z`` = :meth:`decision_function`. Each column is the
            logistic function of its own signed score (not ``1 - p``, which rounds to 0
            for ``z`` above ~37), so both tails keep their precision and order, and the
            model with the classes relabelled gives the same columns swapped. The
            argmax is :meth:`predict`'s class except where both columns are exactly 0.5
            and ``pos_label`` is ``classes_[0]``: numpy's argmax takes column 0 there,
            ``predict`` the class that is not ``pos_label``.
        """
        return _logistic_columns(self.decision_function(X))

    @available_if(_is_logistic)
    def predict_log_proba(self, X: MatrixLike) -> np.ndarray:
        """Logarithm of :meth:`predict_proba`, computed stably."""
        z = self.decision_function(X)
        # log sigmoid(z) = -log(1 + e^{-z}) = -logaddexp(0, -z)
        return np.column_stack([-np.logaddexp(0.0, z), -np.logaddexp(0.0, -z)])


def check_decay(eta: float, alpha: float) -> None:
    """Raise if the L2 decay factor ``1 - eta * alpha`` would not be positive."""
    if alpha > 0 and eta * alpha >= 1.0:
        raise ValueError(
            f"eta * alpha must be < 1 so the L2 decay factor 1 - eta_t * alpha stays "
            f"positive; got eta={eta!r}, alpha={alpha!r} (product {eta * alpha:.4g}). "
            "Lower eta or alpha."
        )


# --------------------------------------------------------------------------- ALMA
@njit(**NJIT)
def _alma_learn(w, scale, counts, sqnorm, rows, y, scores, alpha, B, C, floor):
    # The feature weights are s * w[:-1] (s = scale[0]), the intercept w[-1] (ScaledWeightsMixin):
    # the projection divides s and the intercept, O(1); s is folded into w (O(d)) when it
    # falls below ``floor``, right after a projection, so s >= floor whenever w is divided
    # by it.
    s = scale[0]
    for i in range(y.shape[0]):
        f = scaled_row_dot(w, s, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        nx = math.sqrt(row_sqnorm(rows, i))
        if nx == 0.0:
            continue  # x_hat = x / ||x|| is undefined; nothing to learn from a zero row
        k = counts[3] + 1.0  # ALMA's trial counter k: 1 + updates so far
        z = y[i] * f / nx  # y w^T x_hat
        if z > (1.0 - alpha) * B / math.sqrt(k):
            continue
        eta_k = C / math.sqrt(k)
        a = eta_k * y[i] / nx
        row_feature_axpy(a / s, rows, i, w)
        w[rows[3]] += a * rows[5]
        # ||w + eta y x_hat||^2 = ||w||^2 + 2 eta y w^T x_hat + eta^2 (||x_hat|| = 1)
        sq = sqnorm[0] + 2.0 * eta_k * z + eta_k * eta_k
        if sq > 1.0:
            norm = math.sqrt(sq)
            s /= norm
            w[rows[3]] /= norm
            sq = sq / (norm * norm)
            if s < floor:
                fold_scale(w, s)
                s = 1.0
        sqnorm[0] = sq
        counts[3] += 1
    scale[0] = s


class ALMA(ScaledWeightsMixin, OnlineLinearClassifier):
    """Approximate Large Margin Algorithm ALMA\\ :sub:`2` (Gentile, 2001).

    ALMA\\ :sub:`p` (α; B, C) of [1]_ (its algorithm box) with p = 2. Each instance is normalised,
    :math:`\\hat x_t = x_t / \\|x_t\\|` (with its constant intercept feature); with
    :math:`k` = 1 + the number of updates so far, :math:`\\gamma_k = B / \\sqrt{k}` and
    :math:`\\eta_k = C / \\sqrt{k}`,

    .. math::

        \\text{if } y_t w_k^T \\hat x_t \\le (1 - \\alpha)\\gamma_k:\\quad
        w'_k = w_k + \\eta_k y_t \\hat x_t, \\qquad
        w_{k+1} = \\frac{w'_k}{\\max\\{1, \\|w'_k\\|\\}},\\quad k \\leftarrow k + 1,

    i.e. a Perceptron-like step on a shrinking margin followed by projection onto the unit
    ball. Prediction is :math:`\\mathrm{sign}(w^T x)`; normalising ``x`` does not change it.
    A zero row (possible only without intercept) is skipped. The paper tests the margin with
    ``≤`` (LIBOL with ``<``); we follow the paper. LIBOL's ``ALMA.m`` also steps along the
    raw ``x_t`` rather than :math:`\\hat x_t` (its results equal ours only on rows of unit
    norm); SOL's ``alma2.cc`` normalises, as the paper does.

    Parameters
    ----------
    alpha : float, default=0.9
        Approximation parameter α in (0, 1]; α = 1 gives a Perceptron-like learner on the
        unit ball, smaller α seeks a larger margin (LIBOL's default 0.9).
    B : float or None, default=None
        Margin scale, > 0; ``None`` means :math:`1/\\alpha` (the paper's choice).
    C : float, default=sqrt(2)
        Step scale, > 0 (the paper's and LIBOL's :math:`\\sqrt 2`).
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`Perceptron`; ``counts_[3] + 1`` is ALMA's counter ``k``.
    weights_ : ndarray of shape (n_features + 1,)
        ``[v, b]``: the feature weights are ``weight_scale_[0] * v`` (read them from
        ``coef_``), the intercept is ``b``.
    weight_scale_ : ndarray of shape (1,)
        The scale ``s`` of the feature weights, ``w = s v``. Most steps project (the step
        length starts at ``C = sqrt(2)`` on a unit ball: about two thirds of the updates of
        a typical dense stream with the defaults, and all 1,968 steps of a 5,000-row CSR
        stream at d = 10^5 with 50 non-zeros a row); a projection divides ``s`` and ``b``
        alone, so a step on a sparse row costs O(nnz), not O(d). When ``s`` falls below
        1e-9 it is folded into ``v`` (O(d), once per factor 1e9 of shrinking). It is
        learned state, kept across calls, so ``partial_fit`` in any pieces equals ``fit``
        bit for bit.
    sqnorm_ : ndarray of shape (1,)
        :math:`\\|w\\|^2` (of ``[coef_, intercept_]``), kept up to date by the recurrence
        above, so the projection test costs O(1).

    References
    ----------
    .. [1] C. Gentile, "A new approximate maximal margin classification algorithm",
       JMLR 2:213-242, 2001; seed 002 lists it among the first-order learners.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import ALMA
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> y = (X[:, 0] - X[:, 2] > 1.0).astype(int)
    >>> clf = ALMA().fit(X, y)
    >>> w = np.r_[clf.coef_.ravel(), clf.intercept_]
    >>> bool(np.linalg.norm(w) <= 1.0 + 1e-12)
    True
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept; the projection divides the scale
    #: by a norm above 1, and folding it multiplies the other weights by a scale in (0, 1)
    #: (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("C", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "alpha": [Interval(numbers.Real, 0, 1, closed="right")],
        "B": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
    }
    _test_params: ClassVar[list[dict]] = [{}, {"alpha": 0.5, "B": 2.0, "C": 1.0}]

    def __init__(
        self,
        alpha: float = 0.9,
        B: float | None = None,
        C: float = math.sqrt(2.0),
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.alpha = alpha
        self.B = B
        self.C = C
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        self.sqnorm_ = np.zeros(1, dtype=np.float64)

    def _learn(self, rows, y, scores):
        alpha = float(self.alpha)
        B = 1.0 / alpha if self.B is None else float(self.B)
        _alma_learn(
            self.weights_,
            self.weight_scale_,
            self.counts_,
            self.sqnorm_,
            rows,
            y,
            scores,
            alpha,
            B,
            float(self.C),
            float(self._scale_floor),
        )


# --------------------------------------------------------------------------- ROMMA
@njit(**NJIT)
def _romma_learn(w, scale, sqnorm, bound, counts, rows, y, scores, aggressive, floor, ceiling):
    # The feature weights are s * w[:-1] (s = scale[0]), the intercept w[-1] (ScaledWeightsMixin),
    # and q = sqnorm[0] = |w[:-1]|^2, so |w|^2 = s^2 q + b^2: c_t multiplies s and b, O(1);
    # the step along x writes the row's columns and updates q by the same increment. s is
    # folded into w (O(d)) when it leaves [floor, ceiling]; q is recomputed (O(d)) then,
    # and when e = bound[0], 2^-16 times the sum of the increments' operand sizes since q
    # was last summed (q's rounding error is within a few ulps of 2^16 e), passes q: one
    # step that cancels, or many that shrink q a little each (docs/decisions.md, session
    # 22); in units of 2^-16 so that e overflows no earlier than q. Every trigger depends
    # on the state's values alone, not on where calls begin.
    s = scale[0]
    q = sqnorm[0]
    e = bound[0]
    d = rows[3]
    for i in range(y.shape[0]):
        fv = row_feature_dot(w, rows, i)
        f = s * fv + w[d] * rows[5]  # scaled_row_dot, keeping its feature part
        scores[i] = f
        count_sample(counts, y[i])
        margin = y[i] * f
        if (margin >= 1.0) if aggressive else (margin > 0.0):
            continue
        xf = row_feature_sqnorm(rows, i)
        xx = xf + rows[5] * rows[5]
        if xx == 0.0:
            continue
        b = w[d]
        ww = s * s * q + b * b
        if ww == 0.0 or (aggressive and margin >= xx * ww):
            # the first update, and aggressive ROMMA when 0 < y f < 1 with y f >= |x|^2 |w|^2
            # (c_t <= 0): the smallest w with y w^T x >= 1 is y x / |x|^2, which meets
            # w^T w_t >= |w_t|^2 already (Li & Long's aggressive case). O(d): it zeroes w.
            for j in range(w.shape[0]):
                w[j] = 0.0
            a = y[i] / xx
            row_axpy(a, rows, i, w)
            s = 1.0
            aa = a * a
            q = aa * xf
            if not q < math.inf or aa < NORMAL_MIN:
                # a^2 overflowed, or underflowed (lost its bits), where |a x|^2 need not
                # have (rows of norm above ~1e77 or below ~1e-77): summed
                q = feature_sqnorm(w)
            e = 0.0
            counts[3] += 1
            continue
        p = xx * ww
        if not p < math.inf:
            # |x|^2 |w|^2 overflowed float64 with w finite: c_t and d_t cannot be formed.
            # Every later step would be a skip (inf <= inf) and the model would freeze
            # without a word; q = inf makes the state check report the overflow instead.
            q = math.inf
            continue
        den = p - f * f
        if den <= 1e-12 * p:
            continue  # x parallel to w: the two constraints leave no finite solution
        c = (xx * ww - y[i] * f) / den
        dx = ww * (y[i] - f) / den
        # w <- c w + dx x: s <- c s, b <- c b + dx bias, v <- v + (dx / s) x
        s *= c
        w[d] = w[d] * c + dx * rows[5]
        a = dx / s
        row_feature_axpy(a, rows, i, w)
        t = 2.0 * a * fv
        aa = a * a
        u = aa * xf
        q_next = q + t + u  # |v + a x|^2
        e += (q + abs(t) + u) * 1.52587890625e-05  # 2^-16, exact
        if e > q_next or not q_next < math.inf or aa < NORMAL_MIN:
            # more than 16 bits may be lost, or a^2 |x|^2 overflowed where |a x|^2 (a term
            # of the finite |v|^2) need not have, or a^2 underflowed (lost its bits) where
            # |a x|^2 is a normal number (huge rows): recomputed
            q_next = feature_sqnorm(w)
            e = 0.0
        q = q_next
        if s < floor or s > ceiling:
            fold_scale(w, s)
            s = 1.0
            q = feature_sqnorm(w)
            e = 0.0
        counts[3] += 1
    scale[0] = s
    sqnorm[0] = q
    bound[0] = e


class ROMMA(ScaledWeightsMixin, OnlineLinearClassifier):
    """Relaxed Online Maximum Margin Algorithm (Li and Long, 2002), plain and aggressive.

    ``w_{t+1}`` is the smallest-norm vector with :math:`y_t w^T x_t \\ge 1` and
    :math:`w^T w_t \\ge \\|w_t\\|^2` (the relaxation of all past constraints). Its closed
    form in [1]_, with :math:`f = w_t^T x_t`,

    .. math::

        w_{t+1} = c_t w_t + d_t x_t,\\quad
        c_t = \\frac{\\|x_t\\|^2\\|w_t\\|^2 - y_t f}{\\|x_t\\|^2\\|w_t\\|^2 - f^2},\\quad
        d_t = \\frac{\\|w_t\\|^2 (y_t - f)}{\\|x_t\\|^2\\|w_t\\|^2 - f^2},

    and :math:`w_{t+1} = y_t x_t / \\|x_t\\|^2` when :math:`w_t = 0` (only the first
    constraint), and also, in aggressive ROMMA, when :math:`y_t f \\ge \\|x_t\\|^2
    \\|w_t\\|^2` (then :math:`c_t \\le 0` and the second constraint is inactive at the
    smallest vector meeting the first). ROMMA updates on mistakes (:math:`y_t f \\le 0`);
    aggressive ROMMA whenever :math:`y_t f < 1`. ``x`` includes the constant intercept
    feature. If ``x_t`` is parallel to ``w_t`` (zero denominator) the step is skipped, as in
    LIBOL. Since :math:`w_{t+1}^T w_t \\ge \\|w_t\\|^2`, ``|w|`` never shrinks; on data
    that no hyperplane separates it grows geometrically and can overflow float64 on long
    noisy streams (the error then says so): ROMMA is for (nearly) separable data.

    Parameters
    ----------
    aggressive : bool, default=False
        Update whenever the margin is below 1 (aggressive ROMMA).
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`Perceptron`.
    weights_ : ndarray of shape (n_features + 1,)
        ``[v, b]``: the feature weights are ``weight_scale_[0] * v`` (read them from
        ``coef_``), the intercept is ``b``.
    weight_scale_ : ndarray of shape (1,)
        The scale ``s`` of the feature weights, ``w = s v``: the factor :math:`c_t`
        multiplies ``s`` and ``b`` alone. Folded into ``v`` (O(d)) when it leaves
        [1e-9, 1e9]. Learned state, kept across calls, so ``partial_fit`` in any pieces
        equals ``fit`` bit for bit.
    feature_sqnorm_ : ndarray of shape (1,)
        :math:`\\|v\\|^2` of ``weights_[:-1]``, so that
        :math:`\\|w_t\\|^2 = s^2 \\|v\\|^2 + b^2` costs O(1): each step adds its increment
        :math:`2 a v^T x + a^2\\|x\\|^2`; it is recomputed from ``v`` (O(d)) at each fold,
        when ``feature_sqnorm_bound_`` passes it, and where :math:`a^2` overflows or
        underflows (rows of norm below ~1e-77 or above ~1e77).
    feature_sqnorm_bound_ : ndarray of shape (1,)
        :math:`2^{-16}` times the sum of the increments' operand sizes
        :math:`\\|v\\|^2 + |2 a v^T x| + a^2\\|x\\|^2` since ``feature_sqnorm_`` was last
        summed from ``v``: the rounding error of ``feature_sqnorm_`` is within a few
        float64 ulps of :math:`2^{16}` times this. One step that cancels, or many that
        shrink :math:`\\|v\\|^2` a little each (on noisy data the scale can grow faster than
        :math:`\\|w\\|`), make it pass ``feature_sqnorm_`` (an error of about 1.5e-11
        relative), and :math:`\\|v\\|^2` is summed again.

    Notes
    -----
    **Cost.** On sparse rows an update costs O(nnz(x)): :math:`c_t` multiplies the scale,
    the intercept and :math:`\\|w\\|^2`, not the ``d`` weights. O(d) remain: the reset to
    :math:`y_t x_t / \\|x_t\\|^2` (the first update, and aggressive updates while
    :math:`\\|x_t\\|^2\\|w_t\\|^2 \\le y_t f < 1`, which ``|w|``'s growth soon rules out),
    a fold of the scale, and a recomputation of :math:`\\|v\\|^2` when the rounding
    bound of its increments grows (``feature_sqnorm_bound_``) or :math:`a^2` leaves the
    range of float64 (every step, on rows of norm beyond ~1e77 or below ~1e-77).

    References
    ----------
    .. [1] Y. Li and P. M. Long, "The relaxed online maximum margin algorithm", Machine
       Learning 46:361-387, 2002; seed 002 lists ROMMA and agg-ROMMA.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import ROMMA
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 1.0).astype(int)
    >>> clf = ROMMA(aggressive=True).fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept; the reset sets the other weights
    #: to 0 and a fold multiplies them by the scale (in (0, 1), or above 1e9: then an entry
    #: that overflows makes ``feature_sqnorm_``, recomputed by the fold and read whole by
    #: the state check, non-finite in the same call) (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)
    #: Where ``weight_scale_`` is folded into ``weights_`` from above (tests set a smaller
    #: value on an instance to make folds frequent).
    _scale_ceiling: ClassVar[float] = SCALE_CEILING

    _overflow_fix: ClassVar[str] = (
        "ROMMA's |w| grows at every update (w.w_t >= |w_t|^2), geometrically on data that "
        "no hyperplane separates with margin (Li & Long analyse separable data); scaling "
        "the features only slows that down. Its |w| is also of order 1/|x|, so rows whose "
        "norms are below ~1e-150 overflow it at once: scale such features up first (e.g. "
        "sklearn.preprocessing.StandardScaler). On noisy data use PassiveAggressive, ALMA or "
        "AROW."
    )
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "aggressive": ["boolean"],
    }
    _test_params: ClassVar[list[dict]] = [{}, {"aggressive": True}]

    def __init__(
        self,
        aggressive: bool = False,
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.aggressive = aggressive
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        self.feature_sqnorm_ = np.zeros(1, dtype=np.float64)
        self.feature_sqnorm_bound_ = np.zeros(1, dtype=np.float64)

    def __setstate__(self, state):
        super().__setstate__(state)
        if "weights_" in self.__dict__ and not (
            "feature_sqnorm_" in self.__dict__ and "feature_sqnorm_bound_" in self.__dict__
        ):
            # pickled before session 22 (its weights_ is w, scale 1), or with a |v|^2 kept
            # without the rounding bound: |v|^2 of weights_[:-1] summed once
            v = self.weights_[:-1]
            self.feature_sqnorm_ = np.array([v @ v], dtype=np.float64)
            self.feature_sqnorm_bound_ = np.zeros(1, dtype=np.float64)

    def _learn(self, rows, y, scores):
        _romma_learn(
            self.weights_,
            self.weight_scale_,
            self.feature_sqnorm_,
            self.feature_sqnorm_bound_,
            self.counts_,
            rows,
            y,
            scores,
            bool(self.aggressive),
            float(self._scale_floor),
            float(self._scale_ceiling),
        )
