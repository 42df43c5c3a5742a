"""OMCSL's online baselines: OFO, and the resampling ensembles OOB and UOB.

References
----------
.. [1] R. Busa-Fekete, B. Szörényi, K. Dembczyński and E. Hüllermeier, "Online F-measure
   optimization", NIPS 2015.
.. [2] S. Wang, L. L. Minku and X. Yao, "Resampling-based ensemble methods for online
   class imbalance learning", IEEE TKDE 27(5):1356-1368, 2015.
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
from .._rng import rng_uniform
from .._rows import row_axpy, row_dot
from ..base import OnlineClassifier, OnlineLinearClassifier
from ..linear.first_order import SCHEDULES, count_sample, loss_slope, sigmoid, step_size

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["OFO", "OOB", "UOB"]

_LOSSES = {"hinge": 0, "logistic": 1}


# --------------------------------------------------------------------------- OFO
@njit(**NJIT)
def _ofo_learn(w, counts, ab, rows, y, scores, eta, schedule):
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        tau = ab[0] / ab[1] if ab[1] > 0 else 0.0
        s = sigmoid(f) - tau
        scores[i] = s
        predicted = 1 if s > 0.0 else 0
        truth = 1 if y[i] > 0 else 0
        ab[0] += truth * predicted
        ab[1] += truth + predicted
        count_sample(counts, y[i])
        g = loss_slope(1, y[i] * f)
        if g != 0.0:
            row_axpy(step_size(eta, schedule, counts[0]) * g * y[i], rows, i, w)
            counts[3] += 1


@njit(**NJIT)
def _ofo_scores(w, ab, rows, out):
    tau = ab[0] / ab[1] if ab[1] > 0 else 0.0
    for i in range(out.shape[0]):
        out[i] = sigmoid(row_dot(w, rows, i)) - tau


class OFO(OnlineLinearClassifier):
    """Online F-measure optimisation (Busa-Fekete et al., 2015) over logistic OGD.

    A probabilistic learner gives :math:`\\hat\\eta(x_t) = \\sigma(w_t^T x_t)`; the
    prediction is :math:`\\hat y_t = \\mathbb{I}(\\hat\\eta(x_t) > \\tau_{t-1})` with the
    threshold set to half the online F-measure of the predictions so far,

    .. math::

        a_t = a_{t-1} + y_t \\hat y_t, \\qquad b_t = b_{t-1} + y_t + \\hat y_t, \\qquad
        \\tau_t = \\frac{a_t}{b_t} = \\frac{F_t}{2}

    (:math:`y_t \\in \\{0, 1\\}` here; :math:`\\tau_0 = 0`), and the learner is the OGD
    logistic step :math:`w_{t+1} = w_t + \\eta_t \\sigma(-y_t w_t^T x_t) y_t x_t`
    (:class:`~skewlearn.OGD` with ``loss="logistic"``, same defaults; the weights are
    exactly OGD's). The decision value is :math:`\\sigma(w^T x) - \\tau`, positive iff the
    row is predicted positive (ties go to the negative class).

    Parameters
    ----------
    eta : float, default=1.0
        OGD step size, > 0.
    schedule : {"invsqrt", "constant"}, default="invsqrt"
        OGD's step :math:`\\eta / \\sqrt{t}` or a constant :math:`\\eta`.
    fit_intercept : bool, default=True
        The OGD learner learns an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic).

    Attributes
    ----------
    weights_, coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`~skewlearn.OGD`: the logistic model :math:`w`, so
        ``X @ coef_.T + intercept_`` is :math:`w^T x`, **not** the decision value
        :math:`\\sigma(w^T x) - \\tau`: a row is predicted positive iff
        :math:`w^T x > \\operatorname{logit}(\\tau)`, not iff :math:`w^T x > 0`.
    f_counts_ : ndarray of shape (2,)
        ``[a_t, b_t]``.
    threshold_ : float
        :math:`\\tau_t`.

    References
    ----------
    .. [1] R. Busa-Fekete, B. Szörényi, K. Dembczyński and E. Hüllermeier, "Online
       F-measure optimization", NIPS 2015 (Algorithm OFO).

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import OFO
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(2000, 3))
    >>> y = (X[:, 0] + 0.5 * rng.normal(size=2000) > 1.8).astype(int)
    >>> clf = OFO().fit(X, y)
    >>> bool(0.0 < clf.threshold_ < 0.5)
    True
    """

    #: A step writes the row's columns and the intercept (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)
    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "schedule": [StrOptions(set(SCHEDULES))],
    }

    def __init__(
        self,
        eta: float = 1.0,
        schedule: str = "invsqrt",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.eta = eta
        self.schedule = schedule
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        self.f_counts_ = np.zeros(2, dtype=np.int64)

    def _learn(self, rows, y, scores):
        _ofo_learn(
            self.weights_,
            self.counts_,
            self.f_counts_,
            rows,
            y,
            scores,
            float(self.eta),
            SCHEDULES[self.schedule],
        )

    def _scores(self, rows, out):
        _ofo_scores(self.weights_, self.f_counts_, rows, out)

    @property
    def threshold_(self) -> float:
        """:math:`\\tau_t = a_t / b_t` (0 before any positive or positive prediction)."""
        check_is_fitted(self, "f_counts_")
        a, b = self.f_counts_
        return float(a / b) if b else 0.0


# --------------------------------------------------------------------------- OOB / UOB
@njit(**NJIT_INLINE)
def _poisson_small(lam, rng):
    """Inverse-CDF draw from Poisson(lam) for lam <= 30 (one uniform)."""
    u = rng_uniform(rng)
    p = math.exp(-lam)
    cdf = p
    k = 0
    while u > cdf and p > 0.0:
        k += 1
        p *= lam / k
        cdf += p
    return k


@njit(**NJIT_INLINE)
def poisson(lam, rng):
    """A Poisson(lam) draw: sum of Poisson(30) draws and one of the rest (exact law)."""
    k = 0
    while lam > 30.0:
        k += _poisson_small(30.0, rng)
        lam -= 30.0
    return k + _poisson_small(lam, rng)


@njit(**NJIT)
def _bagging_votes(W, rows, out):
    M = W.shape[0]
    for i in range(out.shape[0]):
        v = 0.0
        for m in range(M):
            v += 1.0 if row_dot(W[m], rows, i) > 0.0 else -1.0
        out[i] = v / M


@njit(**NJIT)
def _resampled_bagging_learn(
    W, steps, counts, sizes, rng, rows, y, scores, undersample, theta, eta, schedule, loss
):
    M = W.shape[0]
    for i in range(y.shape[0]):
        v = 0.0
        for m in range(M):
            v += 1.0 if row_dot(W[m], rows, i) > 0.0 else -1.0
        scores[i] = v / M
        count_sample(counts, y[i])
        own = 1 if y[i] > 0 else 0
        sizes[own] = theta * sizes[own] + (1.0 - theta)
        sizes[1 - own] = theta * sizes[1 - own]
        lam = 1.0
        if undersample:
            if sizes[1 - own] < sizes[own]:
                lam = sizes[1 - own] / sizes[own]
        elif sizes[1 - own] > sizes[own]:
            lam = sizes[1 - own] / sizes[own]
        for m in range(M):
            k = poisson(lam, rng)
            for _ in range(k):  # k OGD steps on the same sample
                steps[m] += 1
                f = row_dot(W[m], rows, i)
                g = loss_slope(loss, y[i] * f)
                if g != 0.0:
                    row_axpy(step_size(eta, schedule, steps[m]) * g * y[i], rows, i, W[m])
                    counts[3] += 1


class _ResampledBagging(OnlineClassifier):
    _undersample: ClassVar[bool] = False
    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)

    #: A step writes the row's columns and the intercept of each member's weights
    #: (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineClassifier._parameter_constraints,
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "decay": [Interval(numbers.Real, 0, 1, closed="neither")],
        "loss": [StrOptions(set(_LOSSES))],
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "schedule": [StrOptions(set(SCHEDULES))],
    }
    _test_params: ClassVar[list[dict]] = [
        {"n_estimators": 5, "random_state": 0},
        {"n_estimators": 4, "loss": "hinge", "schedule": "constant", "eta": 0.1, "random_state": 0},
    ]

    def __init__(
        self,
        n_estimators: int = 11,
        decay: float = 0.9,
        loss: str = "logistic",
        eta: float = 1.0,
        schedule: str = "invsqrt",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.n_estimators = n_estimators
        self.decay = decay
        self.loss = loss
        self.eta = eta
        self.schedule = schedule
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        M = int(self.n_estimators)
        self.weights_ = np.zeros((M, n_features + 1), dtype=np.float64)
        self.steps_ = np.zeros(M, dtype=np.int64)
        self.counts_ = np.zeros(4, dtype=np.int64)
        self.class_sizes_ = np.zeros(2, dtype=np.float64)
        self.rng_state_ = self._new_rng()

    def _learn(self, rows, y, scores):
        _resampled_bagging_learn(
            self.weights_,
            self.steps_,
            self.counts_,
            self.class_sizes_,
            self.rng_state_,
            rows,
            y,
            scores,
            self._undersample,
            float(self.decay),
            float(self.eta),
            SCHEDULES[self.schedule],
            _LOSSES[self.loss],
        )

    def _scores(self, rows, out):
        _bagging_votes(self.weights_, rows, out)


_BAGGING_DOC = """{title}

    Wang, Minku and Yao's {name} [1]_ with online gradient descent base learners. Class
    sizes decay with time (Eq. of [1]_, :math:`\\theta` = ``decay``):

    .. math::

        w_k^{{(t)}} = \\theta\\, w_k^{{(t-1)}} + (1 - \\theta)\\, \\mathbb{{I}}(y_t = k),
        \\qquad w_k^{{(0)}} = 0,

    then each of the M base learners learns from :math:`(x_t, y_t)` K times,
    :math:`K \\sim \\text{{Poisson}}(\\lambda)`, with {rule}
    and :math:`\\lambda = 1` otherwise (the improved versions of [1]_, which use the
    class-size ratio directly; for two classes they are the same rule). The class sizes
    are updated before :math:`\\lambda` is computed. A base learner is
    :class:`~skewlearn.OGD` (``loss``, ``eta``, ``schedule``) run on its own resampled
    stream: its step counter counts the copies it learnt from. Prediction is the majority
    vote; ``decision_function`` is the mean vote in [-1, 1] (a tie votes negative).

    All M learners live in one ``(M, n_features + 1)`` array and one compiled pass per batch
    does the votes, the class sizes and the Poisson draws (inverse CDF on the model's
    SplitMix64 state, Poisson(30) pieces above 30; exact law) and the steps; the result is
    seeded by ``random_state`` and does not depend on the batching.

    Parameters
    ----------
    n_estimators : int, default=11
        M, >= 1 (odd avoids ties).
    decay : float, default=0.9
        :math:`\\theta`, in (0, 1) ([1]_ uses 0.9).
    loss : {{"logistic", "hinge"}}, default="logistic"
        The base OGD learner's loss.
    eta : float, default=1.0
        OGD step size, > 0.
    schedule : {{"invsqrt", "constant"}}, default="invsqrt"
        OGD's step :math:`\\eta / \\sqrt{{t}}` or a constant :math:`\\eta`.
    fit_intercept : bool, default=True
        Each OGD learner learns an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Seeds the Poisson draws.

    Attributes
    ----------
    weights_ : ndarray of shape (M, n_features + 1)
    steps_ : ndarray of shape (M,)
        Copies each learner has learnt from.
    class_sizes_ : ndarray of shape (2,)
        :math:`[w_-, w_+]`.
    counts_, classes_, pos_label_

    References
    ----------
    .. [1] S. Wang, L. L. Minku and X. Yao, "Resampling-based ensemble methods for online
       class imbalance learning", IEEE TKDE 27(5):1356-1368, 2015.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import {name}
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(2000, 3))
    >>> y = (X[:, 0] + 0.5 * rng.normal(size=2000) > 1.8).astype(int)
    >>> clf = {name}(random_state=0).fit(X, y)
    >>> clf.weights_.shape
    (11, 4)
    """


class OOB(_ResampledBagging):
    __doc__ = _BAGGING_DOC.format(
        title="Oversampling-based online bagging (OOB) for imbalanced streams.",
        name="OOB",
        rule=":math:`\\lambda = w_{\\max} / w_{y_t}` when :math:`y_t` is the smaller class",
    )
    _undersample = False


class UOB(_ResampledBagging):
    __doc__ = _BAGGING_DOC.format(
        title="Undersampling-based online bagging (UOB) for imbalanced streams.",
        name="UOB",
        rule=":math:`\\lambda = w_{\\min} / w_{y_t}` when :math:`y_t` is the larger class",
    )
    _undersample = True
