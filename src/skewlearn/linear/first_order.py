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
from typing import ClassVar

import numpy as np
from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if

from .._config import NJIT, NJIT_INLINE
from .._rows import row_axpy, row_dot, row_sqnorm
from ..base import OnlineLinearClassifier

__all__ = ["OGD", "PassiveAggressive", "Perceptron"]


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


@njit(**NJIT_INLINE)
def shrink_features(w, factor):
    """``w[:-1] *= factor``: L2 weight decay of the feature weights (never the intercept)."""
    for j in range(w.shape[0] - 1):
        w[j] *= factor


def _stable_sigmoid(z: np.ndarray) -> np.ndarray:
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    e = np.exp(z[~pos])
    out[~pos] = e / (1.0 + e)
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
    zero margin too makes the first sample always count, as in scikit-learn and LIBOL.

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

    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
    }

    def __init__(
        self, eta: float = 1.0, fit_intercept: bool = True, pos_label=None, random_state=None
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
    fit_intercept : bool, default=True
    pos_label : label, default=None
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

    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "variant": [StrOptions(set(_PA_VARIANTS))],
    }

    def __init__(
        self,
        C: float = 1.0,
        variant: str = "pa1",
        fit_intercept: bool = True,
        pos_label=None,
        random_state=None,
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


# --------------------------------------------------------------------------- OGD
@njit(**NJIT)
def _ogd_learn(w, counts, rows, y, scores, eta, schedule, loss, alpha):
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        eta_t = step_size(eta, schedule, counts[0])
        g = loss_slope(loss, y[i] * f)
        if alpha > 0.0:
            shrink_features(w, 1.0 - eta_t * alpha)
        if g != 0.0:
            row_axpy(eta_t * g * y[i], rows, i, w)
            counts[3] += 1


class OGD(OnlineLinearClassifier):
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
    schedule : {"invsqrt", "constant"}, default="invsqrt"
        ``eta / sqrt(t)`` or a constant ``eta``.
    alpha : float, default=0.0
        L2 regularisation strength, >= 0, with ``eta * alpha < 1`` so the decay factor
        ``1 - eta_t * alpha`` stays positive. When ``alpha > 0`` every step touches all
        ``d`` weights, also on sparse input.
    fit_intercept : bool, default=True
    pos_label : label, default=None
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    weights_, coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`Perceptron`; ``counts_[3]`` counts steps with a non-zero loss
        gradient.

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

    def __init__(
        self,
        eta: float = 1.0,
        loss: str = "hinge",
        schedule: str = "invsqrt",
        alpha: float = 0.0,
        fit_intercept: bool = True,
        pos_label=None,
        random_state=None,
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
            self.counts_,
            rows,
            y,
            scores,
            float(self.eta),
            SCHEDULES[self.schedule],
            LOSSES[self.loss],
            float(self.alpha),
        )

    def _is_logistic(self) -> bool:
        return self.loss == "logistic"

    @available_if(_is_logistic)
    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities :math:`\\sigma(w^T x)` (only for ``loss="logistic"``).

        Returns
        -------
        ndarray of shape (n_samples, 2)
            Columns in the order of ``classes_``.
        """
        p1 = _stable_sigmoid(self.decision_function(X))
        return np.column_stack([1.0 - p1, p1])

    @available_if(_is_logistic)
    def predict_log_proba(self, X) -> np.ndarray:
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
