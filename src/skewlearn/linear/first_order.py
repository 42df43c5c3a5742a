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

import numbers
from typing import ClassVar

from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions

from .._config import NJIT, NJIT_INLINE
from .._rows import row_axpy, row_dot, row_sqnorm
from ..base import OnlineLinearClassifier

__all__ = ["PassiveAggressive", "Perceptron"]


@njit(**NJIT_INLINE)
def count_sample(counts, y):
    """Advance ``counts_ = [seen, positives, negatives, updates]`` for one label ``y``."""
    counts[0] += 1
    if y > 0:
        counts[1] += 1
    else:
        counts[2] += 1


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
    >>>     >>> from skewlearn import Perceptron
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
    >>>     >>> from skewlearn import PassiveAggressive
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
