"""Cost-sensitive online learners: CostSensitiveOGD and CostSensitivePA.

References
----------
.. [1] J. Wang, P. Zhao and S. C. H. Hoi, "Cost-sensitive online classification",
   ICDM 2012; extended in IEEE TKDE 26(10), 2014. Seed 002, "Cost-Sensitive Online
   Gradient Descent" slides.
.. [2] K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
   passive-aggressive algorithms", JMLR 7, 2006, Section 6 (cost-sensitive updates).
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, ClassVar

from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions

from .._config import NJIT, NJIT_INLINE
from .._rows import row_axpy, row_dot, row_sqnorm
from ..base import FLOAT32_ROWS, OnlineLinearClassifier
from .first_order import SCHEDULES, count_sample, loss_slope, step_size

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["CostSensitiveOGD", "CostSensitivePA"]

_CS_LOSSES = {"hinge": 0, "logistic": 1}
_VARIANTS = {"I": 1, "II": 2}


# --------------------------------------------------------------------------- CSOGD
@njit(**NJIT_INLINE)
def csogd_update(w, rows, i, y, f, eta_t, rho_y, variant, loss):
    """One CSOGD step on row ``i`` with score ``f``; returns True if ``w`` moved.

    ``rho_y`` is the class factor of this sample's label (``rho`` or 1, or the class
    cost). Variant 1 shifts the margin, :math:`\\ell(y f - (\\rho_y - 1))`; variant 2
    scales the loss, :math:`\\rho_y\\, \\ell(y f)`. ``loss``: 0 hinge, 1 logistic.
    Usable from other kernels (OMCSL updates K learners with it).
    """
    if variant == 1:
        g = loss_slope(loss, y * f - (rho_y - 1.0))
    else:
        g = rho_y * loss_slope(loss, y * f)
    if g != 0.0:
        row_axpy(eta_t * g * y, rows, i, w)
        return True
    return False


@njit(**NJIT)
def _csogd_learn(
    w, counts, rows, y, scores, eta, schedule, loss, variant, pos_factor, neg_factor, running
):
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        if y[i] > 0:
            rho_y = pos_factor
            if running:  # rho = (eta_p / eta_n) * T_n / T_p from the counts so far
                rho_y = pos_factor * max(counts[2], 1) / max(counts[1], 1)
        else:
            rho_y = neg_factor
        if csogd_update(
            w, rows, i, y[i], f, step_size(eta, schedule, counts[0]), rho_y, variant, loss
        ):
            counts[3] += 1


class CostSensitiveOGD(OnlineLinearClassifier):
    """Cost-sensitive online gradient descent (CSOGD) of Wang, Zhao and Hoi.

    From :math:`w_1 = 0`, the online gradient step
    :math:`w_{t+1} = w_t - \\lambda_t \\nabla \\ell_t(w_t)` of the CSOGD slides of [1]_ on
    the hinge losses :math:`\\ell^{I}`, :math:`\\ell^{II}` defined below:

    .. math::

        w_{t+1} = w_t + \\lambda_t\\, y_t x_t \\text{ if } \\ell^{I}_t > 0\\ (\\text{I}),\\qquad
        w_{t+1} = w_t + \\lambda_t \\rho_{y_t} y_t x_t \\text{ if } \\ell^{II}_t > 0\\ (\\text{II}),

    with :math:`\\lambda_t = \\lambda` (``schedule="constant"``) or :math:`\\lambda/\\sqrt{t}`
    and the class factor :math:`\\rho_{y}` below.

    Proposition 1 of [1]_: maximising the weighted sum
    :math:`\\eta_p\\,\\text{sensitivity} + \\eta_n\\,\\text{specificity}`, or minimising the
    weighted cost :math:`c_p M_p + c_n M_n` (:math:`M_p, M_n` the mistakes on positives and
    negatives), both amount to minimising
    :math:`\\rho \\sum_{y_t=+1} \\mathbb{I}(y_t f(x_t) < 0)
    + \\sum_{y_t=-1} \\mathbb{I}(y_t f(x_t) < 0)` with

    .. math::

        \\rho_{\\text{sum}} = \\frac{\\eta_p T_n}{\\eta_n T_p}, \\qquad
        \\rho_{\\text{cost}} = \\frac{c_p}{c_n},

    (:math:`T_p, T_n` the numbers of positives and negatives). With
    :math:`\\rho_y = \\rho` for :math:`y = +1` and 1 for :math:`y=-1`, CSOGD relaxes the
    indicator by one of the two losses of [1]_ (the slides' :math:`\\ell^{I}`, :math:`\\ell^{II}`)

    .. math::

        \\ell^{I}(w; x, y) = \\max(0, \\rho_y - y\\, w^T x), \\qquad
        \\ell^{II}(w; x, y) = \\rho_y \\max(0, 1 - y\\, w^T x),

    whose gradient steps are the update above. ``loss="logistic"`` replaces
    :math:`\\max(0, 1 - z)` by :math:`\\log(1 + e^{-z})` in the same two places (variant I:
    :math:`\\log(1 + e^{\\rho_y - 1 - z})`), the "-l" learners of the OMCSL paper.

    ``objective="weighted"`` is the cost-weighted loss of OMCSL (Yan et al., 2017, Eq. (1))
    :math:`c_{y}\\, \\ell(y\\, w^T x)` with :math:`c_{+1} =` ``c_pos``,
    :math:`c_{-1} =` ``c_neg``: variant II with the class costs themselves as weights
    (requires ``variant="II"``).

    :math:`T_n / T_p` is rarely known before the stream ends: by default it is the ratio
    of negatives to positives seen so far, counting the current sample (each count at least
    1); pass ``imbalance_ratio`` to fix it.

    Parameters
    ----------
    objective : {"sum", "cost", "weighted"}, default="sum"
        Which :math:`\\rho` (see above).
    variant : {"I", "II"}, default="II"
        :math:`\\ell^{I}` (margin :math:`\\rho` for positives) or :math:`\\ell^{II}`
        (:math:`\\rho`-weighted loss). "II" is the default: with a large :math:`\\rho`
        (a rare positive class) the margin :math:`\\rho` of variant I pushes every score
        up and the learner tends to predict everything positive.
    loss : {"hinge", "logistic"}, default="hinge"
        The loss inside :math:`\\ell^{I}` and :math:`\\ell^{II}`.
    eta : float, default=0.1
        Learning rate :math:`\\lambda`, > 0.
    schedule : {"constant", "invsqrt"}, default="constant"
        :math:`\\lambda` at every step (as in [1]_) or :math:`\\lambda / \\sqrt{t}`.
    eta_p : float, default=0.5
        Weight of sensitivity in "sum", in (0, 1); :math:`\\eta_n = 1 - \\eta_p`. The default
        maximises balanced accuracy.
    c_pos, c_neg : float, default=0.5
        Costs of a false negative and of a false positive, > 0 ("cost" and "weighted").
    imbalance_ratio : float or None, default=None
        :math:`T_n / T_p` for "sum", > 0; ``None`` estimates it online (see above).
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The positive class (the one whose sensitivity / cost ``c_pos`` counts).
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    weights_, coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`~skewlearn.Perceptron`; ``counts_`` also gives the running
        :math:`T_p` (``counts_[1]``) and :math:`T_n` (``counts_[2]``).

    References
    ----------
    .. [1] J. Wang, P. Zhao and S. C. H. Hoi, "Cost-sensitive online classification",
       ICDM 2012, and IEEE TKDE 26(10):2425-2438, 2014; seed 002, CSOGD slides.
    .. [2] Y. Yan, T. Yang, Y. Yang and J. Chen, "A framework of online learning with
       imbalanced streaming data", AAAI 2017, Eq. (1) (``objective="weighted"``).

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import CostSensitiveOGD
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(500, 3))
    >>> y = (X[:, 0] > 1.5).astype(int)              # about 7% positives
    >>> clf = CostSensitiveOGD(objective="sum").fit(X, y)
    >>> from sklearn.metrics import balanced_accuracy_score
    >>> bool(balanced_accuracy_score(y, clf.predict(X)) > 0.85)
    True
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "objective": [StrOptions({"sum", "cost", "weighted"})],
        "variant": [StrOptions(set(_VARIANTS))],
        "loss": [StrOptions(set(_CS_LOSSES))],
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "schedule": [StrOptions(set(SCHEDULES))],
        "eta_p": [Interval(numbers.Real, 0, 1, closed="neither")],
        "c_pos": [Interval(numbers.Real, 0, None, closed="neither")],
        "c_neg": [Interval(numbers.Real, 0, None, closed="neither")],
        "imbalance_ratio": [Interval(numbers.Real, 0, None, closed="neither"), None],
    }
    _test_params: ClassVar[list[dict]] = [
        {},
        {"objective": "cost", "variant": "II", "loss": "logistic", "c_pos": 0.9, "c_neg": 0.1},
        {"objective": "weighted", "schedule": "invsqrt", "c_pos": 0.8},
        {"variant": "I", "loss": "logistic"},
    ]
    _id_keys = ("objective", "variant")

    def __init__(
        self,
        objective: str = "sum",
        variant: str = "II",
        loss: str = "hinge",
        eta: float = 0.1,
        schedule: str = "constant",
        eta_p: float = 0.5,
        c_pos: float = 0.5,
        c_neg: float = 0.5,
        imbalance_ratio: float | None = None,
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.objective = objective
        self.variant = variant
        self.loss = loss
        self.eta = eta
        self.schedule = schedule
        self.eta_p = eta_p
        self.c_pos = c_pos
        self.c_neg = c_neg
        self.imbalance_ratio = imbalance_ratio
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        if self.objective == "weighted" and self.variant != "II":
            raise ValueError(
                "objective='weighted' weights the loss by the class costs, which is "
                f"variant 'II'; got variant={self.variant!r}. Use variant='II', or "
                "objective='cost' for a margin (variant 'I') of c_pos / c_neg."
            )
        super()._allocate(n_features)

    def _class_factors(self) -> tuple[float, float, bool]:
        """(factor for positives, factor for negatives, whether rho is estimated online)."""
        if self.objective == "weighted":
            return float(self.c_pos), float(self.c_neg), False
        if self.objective == "cost":
            return float(self.c_pos) / float(self.c_neg), 1.0, False
        scale = float(self.eta_p) / (1.0 - float(self.eta_p))
        if self.imbalance_ratio is None:
            return scale, 1.0, True
        return scale * float(self.imbalance_ratio), 1.0, False

    def _learn(self, rows, y, scores):
        pos, neg, running = self._class_factors()
        _csogd_learn(
            self.weights_,
            self.counts_,
            rows,
            y,
            scores,
            float(self.eta),
            SCHEDULES[self.schedule],
            _CS_LOSSES[self.loss],
            _VARIANTS[self.variant],
            pos,
            neg,
            running,
        )


# --------------------------------------------------------------------------- CPA
_CPA_UPDATES = {"max_loss": 0, "prediction": 1}
_PA_VARIANTS = {"pa": 0, "pa1": 1, "pa2": 2}


@njit(**NJIT)
def _cpa_learn(w, counts, rows, y, scores, C, variant, update, margin_pos, margin_neg):
    for i in range(y.shape[0]):
        f = row_dot(w, rows, i)
        scores[i] = f
        count_sample(counts, y[i])
        if update == 1:  # prediction-based: learn only from a wrong prediction sign(f)
            predicted = 1.0 if f > 0.0 else -1.0
            if predicted == y[i]:
                continue
        margin = margin_pos if y[i] > 0 else margin_neg
        loss = margin - y[i] * f
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


class CostSensitivePA(OnlineLinearClassifier):
    """Cost-sensitive Passive-Aggressive learning (Crammer et al., 2006, Section 6).

    Crammer et al. make PA cost-sensitive through the cost :math:`\\rho(y, \\hat y)` of
    predicting :math:`\\hat y` for :math:`y`, in the loss
    :math:`\\ell = w^T\\Phi(x, \\hat y) - w^T\\Phi(x, y) + \\sqrt{\\rho(y, \\hat y)}`
    ([1]_, Section 6), with the update
    :math:`w \\leftarrow w + \\tau (\\Phi(x, y) - \\Phi(x, \\hat y))`. For two classes
    (:math:`\\Phi(x, r) = r x / 2`, :math:`\\rho(+1, -1) = c_+`, :math:`\\rho(-1, +1) = c_-`)
    this is, with :math:`f = w_t^T x_t`,

    .. math::

        \\ell_t = \\sqrt{c_{y_t}} - y_t f, \\qquad w_{t+1} = w_t + \\tau_t y_t x_t,

    and :math:`\\tau_t` is PA's, PA-I's or PA-II's (:math:`\\ell_t / \\|x_t\\|^2`,
    :math:`\\min\\{C, \\ell_t/\\|x_t\\|^2\\}`, :math:`\\ell_t / (\\|x_t\\|^2 + 1/(2C))`).
    The *max-loss* update (``update="max_loss"``) picks the label of largest loss, so it
    learns whenever :math:`\\ell_t > 0`: a hinge loss with a class-dependent margin
    :math:`\\sqrt{c_y}`. The *prediction-based* update learns only when the predicted label
    :math:`\\hat y_t = \\mathrm{sign}(f)` (positive iff :math:`f > 0`) is wrong. With
    ``c_pos = c_neg = 1`` the max-loss learner is :class:`~skewlearn.PassiveAggressive`.

    Parameters
    ----------
    c_pos : float, default=1.0
        Cost of a false negative (predicting the negative class for a positive), > 0.
    c_neg : float, default=1.0
        Cost of a false positive, > 0.
    C : float, default=1.0
        Aggressiveness of PA-I / PA-II, > 0 (LIBOL's default 1).
    variant : {"pa", "pa1", "pa2"}, default="pa1"
        PA, PA-I or PA-II: which :math:`\\tau_t` above.
    update : {"max_loss", "prediction"}, default="max_loss"
        Crammer et al.'s max-loss (ML) or prediction-based (PB) update.
    fit_intercept : bool, default=True
        Learn an intercept (the weight of a constant feature 1).
    pos_label : label, default=None
        The class whose misclassification costs ``c_pos``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    weights_, coef_, intercept_, counts_, classes_, pos_label_
        As in :class:`~skewlearn.Perceptron`.

    References
    ----------
    .. [1] K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
       passive-aggressive algorithms", JMLR 7:551-585, 2006, Section 6 (cost-sensitive
       multiclass, prediction-based and max-loss updates); the "CPA" baseline of the OAM
       paper (Zhao, Hoi, Jin and Yang, ICML 2011).

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import CostSensitivePA
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(500, 3))
    >>> y = (X[:, 0] > 1.5).astype(int)              # about 7% positives
    >>> def recall(clf):
    ...     return np.mean(clf.predict(X)[y == 1] == 1)
    >>> bool(recall(CostSensitivePA(c_pos=9.0).fit(X, y)) > recall(CostSensitivePA().fit(X, y)))
    True
    """

    _input_dtypes = FLOAT32_ROWS
    #: A step writes the row's columns and the intercept (:class:`OnlineClassifier`).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("C", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineLinearClassifier._parameter_constraints,
        "c_pos": [Interval(numbers.Real, 0, None, closed="neither")],
        "c_neg": [Interval(numbers.Real, 0, None, closed="neither")],
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "variant": [StrOptions(set(_PA_VARIANTS))],
        "update": [StrOptions(set(_CPA_UPDATES))],
    }
    _test_params: ClassVar[list[dict]] = [
        {},
        {"c_pos": 4.0, "variant": "pa2", "update": "prediction", "C": 0.1},
    ]
    _id_keys = ("update",)

    def _step_settings(self) -> tuple[tuple[str, str], ...]:
        return () if self.variant == "pa" else self._step_params  # plain PA has no C

    def __init__(
        self,
        c_pos: float = 1.0,
        c_neg: float = 1.0,
        C: float = 1.0,
        variant: str = "pa1",
        update: str = "max_loss",
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.c_pos = c_pos
        self.c_neg = c_neg
        self.C = C
        self.variant = variant
        self.update = update
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    def _learn(self, rows, y, scores):
        _cpa_learn(
            self.weights_,
            self.counts_,
            rows,
            y,
            scores,
            float(self.C),
            _PA_VARIANTS[self.variant],
            _CPA_UPDATES[self.update],
            math.sqrt(self.c_pos),
            math.sqrt(self.c_neg),
        )
