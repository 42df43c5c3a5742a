"""OMCSL: online multiple cost-sensitive learning (Yan, Yang, Yang & Chen, AAAI 2017).

K cost-sensitive learners are trained on every sample; the prediction comes from one of
them, sampled with probabilities that grow exponentially with each learner's online
F-measure, AUROC or AUPRC (Algorithm 1). Learning never depends on which learner was
selected, so the selection, the measures and the probabilities are one compiled pass over
the K pre-update scores of each row — fused with the K OGD steps for the built-in linear
learners, run after the learners' own compiled passes for any other base learner.

References
----------
.. [1] Y. Yan, T. Yang, Y. Yang and J. Chen, "A framework of online learning with
   imbalanced streaming data", AAAI 2017.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple, Self, overload

import numpy as np
import scipy.sparse as sp
from numba import njit
from sklearn.base import clone
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .. import base as _base
from .._config import NJIT, NJIT_INLINE
from .._rng import rng_uniform
from .._rows import linear_scores, row_dot
from .._values import plain, same_value
from ..base import OnlineClassifier, refuse_changed
from ..linear.cost_sensitive import CostSensitiveOGD, CostSensitivePA, csogd_update
from ..linear.first_order import SCHEDULES, count_sample, step_size
from ..metrics.histogram import (
    auprc_bin_error,
    auroc_bin_error,
    auroc_gain2,
    hist_auprc,
    score_bin,
)

if TYPE_CHECKING:
    from .._typing import ArrayLike, Label, MatrixLike, RandomStateLike

__all__ = ["OMCSL", "SelectionTrace"]

_MEASURES = {"f1": 0, "auroc": 1, "auprc": 2}
_LOSSES = {"hinge": 0, "logistic": 1}
_SELECTIONS = {"sample": 0, "best": 1}


class SelectionTrace(NamedTuple):
    """Which learner scored each row of a :meth:`OMCSL.test_then_train` call.

    ``learner``: index of the learner whose score was returned (sampled or best);
    ``leader``: index of the learner of largest selection probability at that row (the
    paper's "selected best cost", Table 4); ``cost`` and ``leader_cost``: their
    :math:`c_+`.
    """

    learner: np.ndarray
    leader: np.ndarray
    cost: np.ndarray
    leader_cost: np.ndarray


# --------------------------------------------------------------------------- kernels
@njit(**NJIT_INLINE)
def _pick(prob, meas, rng, best):
    """Next predictor: the first learner of largest measure (``best``), or a draw from
    ``prob`` by inverse CDF (first ``j`` with ``u < p_1 + ... + p_j``)."""
    K = prob.shape[0]
    if best:
        j_best = 0
        v_best = -1.0
        for j in range(K):
            if meas[j] > v_best:
                v_best = meas[j]
                j_best = j
        return j_best
    u = rng_uniform(rng)
    acc = 0.0
    for j in range(K):
        acc += prob[j]
        if u < acc:
            return j
    return K - 1


@njit(**NJIT_INLINE)
def _leader(prob):
    j_best = 0
    for j in range(1, prob.shape[0]):
        if prob[j] > prob[j_best]:
            j_best = j
    return j_best


@njit(**NJIT_INLINE)
def _track_row(
    f, y, counts, measure, gamma, scale, f1, pos_tab, neg_tab, u2, meas, prob, rng, sel, best
):
    """Measures of the K learners after one more (label, pre-update score) pair, then
    Eq. (2) and the next predictor. ``counts`` already count this sample; scores are
    binned by :math:`\\sigma(f/\\tau)`, ``tau = scale``."""
    K = f.shape[0]
    n_bins = pos_tab.shape[1]
    positive = y > 0
    for j in range(K):
        if measure == 0:  # Eq. (4)
            if positive and f[j] > 0.0:
                f1[j, 0] += 1
                f1[j, 1] += 2
            elif positive or f[j] > 0.0:
                f1[j, 1] += 1
            meas[j] = 2.0 * f1[j, 0] / f1[j, 1] if f1[j, 1] > 0 else 0.0
        else:
            b = score_bin(f[j] if scale == 1.0 else f[j] / scale, n_bins, 0)
            if positive:
                if measure == 1:
                    u2[j] += auroc_gain2(neg_tab[j], b, True)
                pos_tab[j, b] += 1
            else:
                if measure == 1:
                    u2[j] += auroc_gain2(pos_tab[j], b, False)
                neg_tab[j, b] += 1
            if measure == 1:
                if counts[1] > 0 and counts[2] > 0:
                    meas[j] = u2[j] / (2.0 * counts[1] * counts[2])
                else:
                    meas[j] = 0.0
            elif counts[1] > 0:
                meas[j] = hist_auprc(pos_tab[j], neg_tab[j])
            else:
                meas[j] = 0.0
    # Eq. (2) with the largest exponent subtracted (undefined measures count 0: they are
    # undefined for every learner at once, since all see the same labels)
    top = -math.inf
    for j in range(K):
        v = gamma * meas[j]
        prob[j] = v
        if v > top:
            top = v
    total = 0.0
    for j in range(K):
        prob[j] = math.exp(prob[j] - top)
        total += prob[j]
    for j in range(K):
        prob[j] /= total
    sel[0] = _pick(prob, meas, rng, best)


@njit(**NJIT)
def _omcsl_linear_learn(
    W,
    counts,
    rows,
    y,
    scores,
    chosen,
    leader,
    c_pos,
    c_neg,
    eta,
    schedule,
    loss,
    measure,
    gamma,
    scale,
    f1,
    pos_tab,
    neg_tab,
    u2,
    meas,
    prob,
    rng,
    sel,
    best,
):
    K = W.shape[0]
    f = np.empty(K)
    for i in range(y.shape[0]):
        for j in range(K):
            f[j] = row_dot(W[j], rows, i)
        scores[i] = f[sel[0]]
        chosen[i] = sel[0]
        leader[i] = _leader(prob)
        count_sample(counts, y[i])
        eta_t = step_size(eta, schedule, counts[0])
        for j in range(K):  # Eq. (3) on the loss (1): c_y * l(y w^T x)
            rho = c_pos[j] if y[i] > 0 else c_neg[j]
            if csogd_update(W[j], rows, i, y[i], f[j], eta_t, rho, 2, loss):
                counts[3] += 1
        _track_row(
            f, y[i], counts, measure, gamma, scale, f1, pos_tab, neg_tab, u2, meas, prob, rng, sel,
            best,
        )  # fmt: skip


@njit(**NJIT)
def _omcsl_track(
    S,
    counts,
    y,
    scores,
    chosen,
    leader,
    measure,
    gamma,
    scale,
    f1,
    pos_tab,
    neg_tab,
    u2,
    meas,
    prob,
    rng,
    sel,
    best,
):
    """The selection pass over the (n, K) pre-update scores of the generic path."""
    for i in range(y.shape[0]):
        scores[i] = S[i, sel[0]]
        chosen[i] = sel[0]
        leader[i] = _leader(prob)
        count_sample(counts, y[i])
        _track_row(
            S[i],
            y[i],
            counts,
            measure,
            gamma,
            scale,
            f1,
            pos_tab,
            neg_tab,
            u2,
            meas,
            prob,
            rng,
            sel,
            best,
        )


@njit(**NJIT)
def _first_pick(prob, meas, rng, best):
    return _pick(prob, meas, rng, best)


def _rows_to_matrix(rows):
    """The validated batch behind a kernel tuple (a view, or CSR arrays as they are)."""
    data, indices, indptr, d, sparse, _ = rows
    if sparse:
        return sp.csr_matrix((data, indices, indptr), shape=(len(indptr) - 1, d))
    return data.reshape(-1, d)


# --------------------------------------------------------------------------- estimator
class OMCSL(OnlineClassifier):
    """Online multiple cost-sensitive learning (Yan et al., 2017), Algorithm 1.

    K learners are trained on every sample, learner ``j`` on the cost-sensitive loss of
    Eq. (1) with :math:`\\theta_j = j / (K + 1)`,

    .. math::

        \\ell_c^j(f(x), y) = (1 - \\theta_j/2)\\, \\mathbb{I}(y = 1)\\, \\ell(f(x))
        + (\\theta_j/2)\\, \\mathbb{I}(y = -1)\\, \\ell(-f(x)),

    i.e. :math:`c_+ = 1 - \\theta_j/2`, :math:`c_- = \\theta_j/2` (``costs_`` holds the
    :math:`c_+`; K = 9 gives 0.95, 0.90, ..., 0.55), by the OGD step of Eq. (3),
    :math:`w^j_{t+1} = w^j_t - \\eta_t \\nabla \\ell_c^j(x_t^T w^j_t, y_t)`. Row ``t`` is
    predicted by learner :math:`j_t` drawn from

    .. math::

        p_t^j = \\frac{\\exp(\\gamma M_t^j)}{\\sum_{k=1}^K \\exp(\\gamma M_t^k)}
        \\qquad (2)

    (computed with the largest exponent subtracted), where :math:`M_t^j` is learner
    ``j``'s measure on its own pre-update scores of rows ``1..t-1``: the online F-measure
    :math:`2a_t/c_t` of Eq. (4) (predictions :math:`\\mathbb{I}(f > 0)`; 0 while
    :math:`c_t = 0`), or the histogram AUROC / AUPRC of ``n_bins`` bins over
    :math:`\\sigma(f/\\tau)` (:math:`\\tau` = ``score_scale``, 1 in the paper;
    :class:`~skewlearn.metrics.HistogramROCAUC`, :class:`~skewlearn.metrics.HistogramPRAUC`
    with ``scale=tau``; while a measure is undefined it is
    undefined for every learner and counts 0, so :math:`p` is uniform).
    ``selection="best"`` takes the first learner of largest measure instead
    (:math:`\\gamma \\to \\infty`).

    The draw for row ``t`` is made right after row ``t - 1`` (it does not depend on
    :math:`x_t`), so ``decision_function`` on new data uses the learner that would
    predict the next row of the stream: ``selected_``.

    Two paths, the same algorithm:

    * ``base_estimator=None`` (fast path): the K linear OGD learners live in one
      ``(K, n_features + 1)`` array ``weights_`` and one compiled pass per batch does, for
      each row, the K scores, the selection, the K steps (the shared
      :func:`~skewlearn.linear.cost_sensitive.csogd_update`, so learner ``j`` is exactly
      ``CostSensitiveOGD(objective="weighted", c_pos=c_+, c_neg=c_-)``), the K measures
      and Eq. (2). O(K·nnz) per row, plus O(K·n_bins) for AUPRC.
    * ``base_estimator`` given (generic path): K clones of any skewlearn online learner
      that takes class costs as parameters (``cost_params`` names them), e.g.
      ``CostSensitiveOGD(objective="weighted")``, :class:`~skewlearn.CostSensitivePA`,
      or the kernel learner :class:`~skewlearn.NORMA` (``c_pos``/``c_neg``, a budget of
      support vectors per learner). Per batch, each clone runs
      its own compiled ``test_then_train``; since learning never depends on the
      selection, the selection pass then replays the batch row by row over the K
      pre-update scores. Results are therefore exact per sample and independent of the
      batching, as on the fast path (the fast path with per-row batches and the generic
      path over ``CostSensitiveOGD`` agree; tested). The Python loop is per batch and per
      learner.

    Parameters
    ----------
    n_learners : int, default=9
        K, >= 1 (the paper's experiments: 9, i.e. :math:`c_+ \\in \\{0.55, ..., 0.95\\}`).
    measure : {"f1", "auroc", "auprc"}, default="f1"
        :math:`M_t`, the online measure of each learner's pre-update scores that the
        selection weighs: the F-measure (Eq. 4), AUROC or AUPRC (histograms, above).
    gamma : float, default=50.0
        :math:`\\gamma` of Eq. (2), > 0 (not given in the paper's text; a learner ahead by
        0.02 in the measure is then e times as likely).
    selection : {"sample", "best"}, default="sample"
        Sample the predictor from :math:`p_t` (Algorithm 1) or take the best learner.
    loss : {"hinge", "logistic"}, default="hinge"
        :math:`\\ell` of the fast path.
    eta : float, default=0.1
        Step size of the fast path, > 0 (constant by default, as in the authors' code).
    schedule : {"constant", "invsqrt"}, default="constant"
        :math:`\\eta_t = \\eta` or :math:`\\eta/\\sqrt{t}` (Proposition 1).
    n_bins : int, default=100
        ``m``, the number of bins of the AUROC/AUPRC tables, >= 1.
    score_scale : float, default=1.0
        :math:`\\tau > 0`: the AUROC/AUPRC tables bin :math:`\\sigma(f/\\tau)`; 1 is the
        paper's :math:`\\sigma(f)`. The constant-step learners' weights grow with the
        stream, and once most :math:`|f|` exceed ~4.6 (:math:`\\sigma` within 1/100 of 0
        or 1) nearly every score lands in the first or last bin: the measure then sees
        little more than the sign of the score and may rank the learners wrongly (the
        Table 3 streams of docs/results/omcsl.md: median :math:`|f|` 1.6–5.6 standardised,
        40–1.7e5 unscaled; §4d there).
        Once at least half of the K learners' scores in the tables lie in an end bin and a
        learner's bin-error bound (:attr:`bin_errors_`) exceeds :math:`1/\\gamma` (judged
        after each learning call, from 100 rows on), a ``RuntimeWarning`` is raised, once
        per model, naming a value: the median :math:`|f|` of that call's returned scores,
        or of the last 100 returned when the calls are smaller (one row per call through
        River's ``learn_one``) (not with K = 1, where the measure selects nothing).
    base_estimator : skewlearn online classifier or None, default=None
        Selects the generic path (see above); ``loss``, ``eta``, ``schedule`` and
        ``fit_intercept`` are then the base estimator's business and ignored. Its
        ``pos_label``, when set, must be OMCSL's positive class (OMCSL's ``pos_label``
        decides which class gets :math:`c_+`), else ValueError.
    cost_params : dict or None, default=None
        ``{"c_pos": name, "c_neg": name}``: the base estimator's parameters that receive
        :math:`c_+` and :math:`c_-`. ``None`` means ``{"c_pos": "c_pos", "c_neg": "c_neg"}``.
    fit_intercept : bool, default=True
        Intercept of the fast path's learners (the paper's constant feature).
    pos_label : label, default=None
        The positive class (whose cost is :math:`c_+`).
    random_state : int, RandomState or None, default=None
        Seeds the sampling (state ``rng_state_`` in the model) and the base estimators.

    Attributes
    ----------
    classes_, pos_label_
    costs_ : ndarray of shape (K,)
        :math:`c_+` of each learner (:math:`c_- = 1 - c_+`).
    weights_ : ndarray of shape (K, n_features + 1)
        Fast path only: ``[w, b]`` of each learner.
    estimators_ : list of K estimators
        Generic path only.
    probabilities_ : ndarray of shape (K,)
        :math:`p` for the next row.
    measures_ : ndarray of shape (K,)
        :math:`M^j` on the rows seen (NaN while undefined); ``measure_values_`` holds the
        same with 0 where undefined, as Eq. (2) uses them.
    selected_ : int
        Index of the learner that scores the next row and ``decision_function``;
        ``selected_cost_`` is its :math:`c_+`.
    counts_ : ndarray of shape (4,)
        ``[seen, positives, negatives, learner updates]`` (updates: fast path only).
    bin_errors_ : ndarray of shape (K,)
        Bound on :math:`|M^j - \\text{exact measure}|` from each learner's tables (0 for
        the F-measure, which is exact).

    References
    ----------
    .. [1] Y. Yan, T. Yang, Y. Yang and J. Chen, "A framework of online learning with
       imbalanced streaming data", AAAI 2017, Algorithm 1, Eqs. (1)-(4).

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import OMCSL
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(3000, 4))
    >>> y = (X[:, 0] + 0.5 * rng.normal(size=3000) > 1.8).astype(int)   # ~6% positives
    >>> clf = OMCSL(measure="f1", random_state=0)
    >>> scores, trace = clf.test_then_train(X, y, return_trace=True)
    >>> clf.costs_
    array([0.95, 0.9 , 0.85, 0.8 , 0.75, 0.7 , 0.65, 0.6 , 0.55])
    >>> bool(clf.probabilities_.max() > 1 / 9)
    True
    >>> bool(np.isclose(clf.probabilities_.sum(), 1.0))
    True
    """

    #: The linear path's step writes the row's columns and the intercept of each of the
    #: K weight vectors (:class:`OnlineClassifier`; with a ``base_estimator`` there is no
    #: ``weights_``, and each member checks its own state).
    _column_state: ClassVar[tuple[str, ...]] = ("weights_",)
    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **OnlineClassifier._parameter_constraints,
        "n_learners": [Interval(numbers.Integral, 1, None, closed="left")],
        "measure": [StrOptions(set(_MEASURES))],
        "gamma": [Interval(numbers.Real, 0, None, closed="neither")],
        "selection": [StrOptions(set(_SELECTIONS))],
        "loss": [StrOptions(set(_LOSSES))],
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "schedule": [StrOptions(set(SCHEDULES))],
        "n_bins": [Interval(numbers.Integral, 1, None, closed="left")],
        "score_scale": [Interval(numbers.Real, 0, None, closed="neither")],
        "base_estimator": [HasMethods(["test_then_train", "decision_function"]), None],
        "cost_params": [dict, None],
    }
    _test_params: ClassVar[list[dict]] = [
        {"random_state": 0},
        {"measure": "auroc", "loss": "logistic", "n_learners": 3, "n_bins": 20, "random_state": 0},
        {"measure": "auprc", "selection": "best", "n_learners": 4, "schedule": "invsqrt"},
        {"measure": "auprc", "n_learners": 3, "score_scale": 5.0, "random_state": 0},
        {"base_estimator": CostSensitivePA(C=0.1), "n_learners": 3, "random_state": 0},
        {
            "base_estimator": CostSensitiveOGD(objective="weighted", loss="logistic"),
            "measure": "auroc",
            "n_learners": 2,
            "random_state": 0,
        },
    ]
    _id_keys = ("measure", "selection", "base_estimator")

    def __init__(
        self,
        n_learners: int = 9,
        measure: str = "f1",
        gamma: float = 50.0,
        selection: str = "sample",
        loss: str = "hinge",
        eta: float = 0.1,
        schedule: str = "constant",
        n_bins: int = 100,
        score_scale: float = 1.0,
        base_estimator: OnlineClassifier | None = None,
        cost_params: dict | None = None,
        fit_intercept: bool = True,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.n_learners = n_learners
        self.measure = measure
        self.gamma = gamma
        self.selection = selection
        self.loss = loss
        self.eta = eta
        self.schedule = schedule
        self.n_bins = n_bins
        self.score_scale = score_scale
        self.base_estimator = base_estimator
        self.cost_params = cost_params
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.random_state = random_state

    #: What the sample_weight error (:func:`skewlearn.base.refuse_fit_params`) offers.
    _cost_hint = (
        "let OMCSL choose the class costs (it selects them by measure=...; a base_estimator "
        "with class costs, e.g. CostSensitivePA, receives them)"
    )

    # ------------------------------------------------------------------ state
    def set_params(self, **params: Any) -> Self:
        """Set parameters, as :meth:`sklearn.base.BaseEstimator.set_params`.

        A nested ``base_estimator__<name>`` needs a base estimator: with
        ``base_estimator=None`` (the built-in linear learners) scikit-learn failed with
        "'NoneType' object has no attribute 'set_params'"; this names the fix.

        Returns
        -------
        self : object
        """
        nested = sorted(k for k in params if k.startswith("base_estimator__"))
        base = params.get("base_estimator", self.base_estimator)
        if nested and base is None:
            raise ValueError(
                f"OMCSL cannot set {nested[0]}={params[nested[0]]!r}: base_estimator is None "
                "(OMCSL's built-in linear cost-sensitive OGD learners, set through eta, loss "
                "and schedule). Give a base estimator in the same call or grid, e.g. "
                "base_estimator=CostSensitivePA(), or drop the base_estimator__ settings."
            )
        return super().set_params(**params)

    def _uses_intercept(self) -> bool:
        return self.base_estimator is None and bool(self.fit_intercept)

    def _cost_names(self) -> tuple[str, str]:
        names = (
            {"c_pos": "c_pos", "c_neg": "c_neg"} if self.cost_params is None else self.cost_params
        )
        if not isinstance(names, Mapping) or set(names) != {"c_pos", "c_neg"}:
            raise ValueError(
                "cost_params must map exactly the keys 'c_pos' and 'c_neg' to the base "
                f"estimator's parameter names; got {self.cost_params!r}. Example: "
                "{'c_pos': 'c_pos', 'c_neg': 'c_neg'}."
            )
        if names["c_pos"] == names["c_neg"]:
            raise ValueError(
                f"cost_params names {names['c_pos']!r} for both c_pos and c_neg; the two "
                "class costs need two parameters of the base estimator (e.g. {'c_pos': "
                "'c_pos', 'c_neg': 'c_neg'}), otherwise the second would overwrite the first."
            )
        return names["c_pos"], names["c_neg"]

    def _make_estimators(self, c_pos: np.ndarray) -> list:
        base = self.base_estimator
        if isinstance(base, type):
            raise TypeError(
                f"base_estimator is the class {base.__name__}, not an instance of it; pass "
                f"an instance, e.g. base_estimator={base.__name__}(), with the settings the "
                "K learners share (OMCSL sets their class costs)."
            )
        if not isinstance(base, OnlineClassifier):
            raise TypeError(
                "base_estimator must be a skewlearn online classifier (a subclass of "
                f"skewlearn.base.OnlineClassifier); got {type(base).__name__}. Use e.g. "
                "CostSensitiveOGD(objective='weighted') or CostSensitivePA()."
            )
        pos_name, neg_name = self._cost_names()
        params = base.get_params(deep=False)
        missing = [n for n in (pos_name, neg_name) if n not in params]
        if missing:
            raise ValueError(
                f"base_estimator {type(base).__name__} has no parameter {missing[0]!r} to "
                "receive a class cost; pass cost_params={'c_pos': ..., 'c_neg': ...} naming "
                "its cost parameters, or use a learner that accepts class costs "
                "(CostSensitiveOGD(objective='weighted'), CostSensitivePA)."
            )
        if (
            isinstance(base, CostSensitiveOGD)
            and base.objective == "sum"
            and (pos_name, neg_name) == ("c_pos", "c_neg")
        ):
            raise ValueError(
                "base_estimator CostSensitiveOGD(objective='sum') ignores c_pos and c_neg "
                "(its class weights come from eta_p and the class ratio), so OMCSL's "
                f"{len(c_pos)} learners would all be the same learner. Use "
                "CostSensitiveOGD(objective='weighted') (the cost-weighted loss of Eq. (1), "
                "as on the fast path) or objective='cost'."
            )
        self._check_base_pos_label(params.get("pos_label"))
        seeds = np.random.RandomState(int(self.rng_state_[0] % np.uint64(2**32))).randint(
            0, 2**31 - 1, size=len(c_pos)
        )
        out = []
        for cp, seed in zip(c_pos, seeds):
            est = clone(base).set_params(**{pos_name: float(cp), neg_name: float(1.0 - cp)})
            extra = {"pos_label": None, "random_state": int(seed)}
            est.set_params(**{k: v for k, v in extra.items() if k in params})
            out.append(est)
        return out

    def _check_base_pos_label(self, pos) -> None:
        """The clones learn OMCSL's +1/-1 labels with their own ``pos_label`` unset, so the
        base estimator's ``pos_label`` must be OMCSL's positive class (or None): any other
        value would be dropped silently and the costs :math:`c_+` go to the other class."""
        if pos is None or same_value(pos, self.pos_label_):
            return
        known = [plain(c) for c in self.classes_]
        if any(same_value(pos, c) for c in known):
            raise ValueError(
                f"base_estimator's pos_label={pos!r} is not OMCSL's positive class "
                f"{plain(self.pos_label_)!r} (OMCSL(pos_label={self.pos_label!r})); OMCSL's "
                "pos_label decides which class gets the costs c+, and the base estimator's "
                f"is not used. Set OMCSL(pos_label={pos!r}) instead."
            )
        raise ValueError(
            f"base_estimator's pos_label={pos!r} is not one of the classes {known!r}. "
            "OMCSL's pos_label decides which class gets the costs c+: set it on OMCSL and "
            "drop the base estimator's."
        )

    def _allocate(self, n_features: int) -> None:
        K = int(self.n_learners)
        theta = np.arange(1, K + 1) / (K + 1)
        self.costs_ = 1.0 - theta / 2.0
        self.rng_state_ = self._new_rng()
        self._base_started_with = None
        if self.base_estimator is None:
            self.weights_ = np.zeros((K, n_features + 1), dtype=np.float64)
        else:
            self.estimators_ = self._make_estimators(self.costs_)
            # the members are clones: a later set_params(base_estimator__...) would not
            # reach them (see _check_params_unchanged)
            self._base_started_with = self.base_estimator.get_params(deep=True)
        self.counts_ = np.zeros(4, dtype=np.int64)
        bins = int(self.n_bins) if self.measure != "f1" else 1
        self._warn_large_tables(K, bins)
        self.f1_counts_ = np.zeros((K, 2), dtype=np.int64)
        self.pos_table_ = np.zeros((K, bins), dtype=np.int64)
        self.neg_table_ = np.zeros((K, bins), dtype=np.int64)
        self.u2_ = np.zeros(K, dtype=np.int64)
        self.measure_values_ = np.zeros(K)  # M^j, 0 while undefined (see measures_)
        self.probabilities_ = np.full(K, 1.0 / K)
        self._saturation_warned = False  # see _warn_saturated
        self._recent_scores = np.empty(0)  # see _typical_scores
        self.selection_ = np.zeros(1, dtype=np.int64)
        self.selection_[0] = _first_pick(
            self.probabilities_, self.measure_values_, self.rng_state_, self.selection == "best"
        )

    def _check_params_unchanged(self) -> None:
        """The base class's check, and the same for the base estimator's own settings,
        which ``set_params(base_estimator__name=...)`` changes in place."""
        super()._check_params_unchanged()
        before = getattr(self, "_base_started_with", None)
        if before is not None and self.base_estimator is not None:
            refuse_changed(
                self, before, self.base_estimator.get_params(deep=True), "base_estimator__"
            )

    def _learn(self, rows, y, scores):
        n = y.shape[0]
        chosen = np.empty(n, dtype=np.int64)
        leader = np.empty(n, dtype=np.int64)
        common = (
            _MEASURES[self.measure],
            float(self.gamma),
            float(self.score_scale),
            self.f1_counts_,
            self.pos_table_,
            self.neg_table_,
            self.u2_,
            self.measure_values_,
            self.probabilities_,
            self.rng_state_,
            self.selection_,
            self.selection == "best",
        )
        if self.base_estimator is None:
            _omcsl_linear_learn(
                self.weights_,
                self.counts_,
                rows,
                y,
                scores,
                chosen,
                leader,
                self.costs_,
                1.0 - self.costs_,
                float(self.eta),
                SCHEDULES[self.schedule],
                _LOSSES[self.loss],
                *common,
            )
        else:
            X = _rows_to_matrix(rows)
            S = np.empty((n, len(self.estimators_)), dtype=np.float64)
            for j, est in enumerate(self.estimators_):
                try:
                    S[:, j] = est.test_then_train(X, y, classes=[-1.0, 1.0])
                except ValueError as exc:
                    # the member discarded itself; the ensemble must not go on with one
                    # learner restarted and the others keeping their history
                    cost = float(self.costs_[j])
                    self._discard()
                    raise ValueError(
                        f"OMCSL's learner {j} (c+ = {cost:.4g}) stopped: {exc} The whole "
                        "OMCSL model was discarded with it."
                    ) from exc
            _omcsl_track(S, self.counts_, y, scores, chosen, leader, *common)
        self._trace = (chosen, leader)

    def _scores(self, rows, out):
        j = int(self.selection_[0])
        if self.base_estimator is None:
            linear_scores(self.weights_[j], rows, out)
        else:
            out[:] = self.estimators_[j].decision_function(_rows_to_matrix(rows))

    def _run(self, X, y, classes, reset, traced: bool = False):
        scores = super()._run(X, y, classes, reset)
        trace = self.__dict__.pop("_trace")
        self._warn_saturated(self._typical_scores(scores))
        return (scores, trace) if traced else scores

    #: Rows a model must have seen before its tables are judged saturated; also the
    #: number of recent scores whose median |f| the saturation warning names.
    _SATURATION_MIN_ROWS: ClassVar[int] = 100

    def _typical_scores(self, scores: np.ndarray) -> np.ndarray:
        """The scores the saturation warning takes the typical |f| from: this call's when
        it returned at least 100, else the last 100 returned over the calls so far. One
        call per row (River's ``learn_one``) returns one score, and that single |f| named
        a scale 10x off the median. Kept only while the warning can still come."""
        if (
            self.measure == "f1"
            or self.pos_table_.shape[0] < 2
            or self.pos_table_.shape[1] < 3
            or getattr(self, "_saturation_warned", False)
        ):
            self.__dict__.pop("_recent_scores", None)
            return scores
        keep = self._SATURATION_MIN_ROWS
        if len(scores) < keep:
            before = getattr(self, "_recent_scores", None)  # (None: pickled before session 17)
            if before is not None:
                scores = np.concatenate((before, scores))[-keep:]
        self._recent_scores = scores[-keep:].copy()
        return scores

    def _warn_large_tables(self, K: int, bins: int) -> None:
        """Warn (``RuntimeWarning``) before allocating the two ``K × n_bins`` count tables
        when they pass :data:`skewlearn.base.LARGE_STATE` (1 GiB): ``n_bins=10**8`` asked
        for 14 GiB without a word, and AUPRC reads a whole row of the table per sample."""
        size = 2 * 8 * K * bins
        if size > _base.LARGE_STATE:
            fits = max(1, _base.LARGE_STATE // (16 * K))
            warnings.warn(
                f"OMCSL(n_bins={bins}) keeps two {K} × {bins} count tables "
                f"({size / 2**30:.1f} GiB of int64), and measure='auprc' reads a learner's "
                "whole table at every row (O(K·n_bins) time per sample). A histogram "
                "measure's bin error falls as 1/n_bins, so a few thousand bins are plenty: "
                f"use n_bins <= {fits:,} (1 GiB), or measure='f1' (no tables).",
                RuntimeWarning,
                stacklevel=_base.user_stacklevel(),
            )

    def _warn_saturated(self, scores: np.ndarray) -> None:
        """Warn, once per model, when at least half of the K learners' scores counted in
        the tables so far (at least 100 rows) lie in the first or last bin and a learner's
        bin-error bound exceeds 1/gamma. One learner has nothing to select: no warning.
        ``scores``: recent returned scores (:meth:`_typical_scores`), whose median |f|
        the warning names."""
        n_bins = self.pos_table_.shape[1]
        if (
            self.measure == "f1"
            or self.pos_table_.shape[0] < 2
            or n_bins < 3
            or self.counts_[0] < self._SATURATION_MIN_ROWS
            or getattr(self, "_saturation_warned", False)
        ):
            return
        ends = int(self.pos_table_[:, [0, -1]].sum() + self.neg_table_[:, [0, -1]].sum())
        total = int(self.counts_[0]) * self.pos_table_.shape[0]
        if 2 * ends < total:
            return
        errors = self.bin_errors_
        err = float(np.nanmax(errors)) if not np.isnan(errors).all() else math.nan
        if not err > 1.0 / self.gamma:  # the bins cost less than Eq. (2) can resolve
            return
        self._saturation_warned = True
        name = "AUROC" if self.measure == "auroc" else "AUPRC"
        typical = float(np.median(np.abs(scores)))
        advice = (
            f"Set score_scale={float(f'{typical:.2g}')!r} (the median |score| of the last "
            f"{len(scores)} rows)"
            if typical > 0.0
            else "Set score_scale near the typical |score|"
        )
        warnings.warn(
            f"{type(self).__name__}'s histogram {name} is saturated: {ends / total:.0%} of "
            f"the {self.pos_table_.shape[0]} learners' scores so far fell in the first "
            f"or last of the {n_bins} bins (sigma(f / score_scale) within 1/{n_bins} of 0 or "
            f"1 at score_scale={self.score_scale!r}). The measure then sees little more than "
            f"each score's sign: a learner's {name} may be off by up to {err:.3g} "
            f"(bin_errors_), while a difference of 1/gamma = {1.0 / self.gamma:.3g} already "
            f"changes its selection probability by a factor e. {advice}, or select by "
            "measure='f1'.",
            RuntimeWarning,
            stacklevel=_base.user_stacklevel(),
        )

    # ------------------------------------------------------------------ public API
    @overload
    def test_then_train(
        self,
        X: MatrixLike,
        y: ArrayLike,
        classes: ArrayLike | None = None,
        return_trace: Literal[False] = False,
        **params: Any,
    ) -> np.ndarray: ...

    @overload
    def test_then_train(
        self,
        X: MatrixLike,
        y: ArrayLike,
        classes: ArrayLike | None = None,
        *,
        return_trace: Literal[True],
        **params: Any,
    ) -> tuple[np.ndarray, SelectionTrace]: ...

    @overload
    def test_then_train(
        self,
        X: MatrixLike,
        y: ArrayLike,
        classes: ArrayLike | None,
        return_trace: Literal[True],
        **params: Any,
    ) -> tuple[np.ndarray, SelectionTrace]: ...

    @overload
    def test_then_train(
        self,
        X: MatrixLike,
        y: ArrayLike,
        classes: ArrayLike | None = None,
        return_trace: bool = False,
        **params: Any,
    ) -> np.ndarray | tuple[np.ndarray, SelectionTrace]: ...

    def test_then_train(
        self,
        X: MatrixLike,
        y: ArrayLike,
        classes: ArrayLike | None = None,
        return_trace: bool = False,
        **params: Any,
    ) -> np.ndarray | tuple[np.ndarray, SelectionTrace]:
        """Score each row with the selected learner before learning from it (prequential).

        Parameters
        ----------
        X, y, classes
            As in :meth:`partial_fit`.
        return_trace : bool, default=False
            Also return a :class:`SelectionTrace`: which learner scored each row, the
            learner of largest probability at that row, and their :math:`c_+`.
        **params : dict
            Refused: there is no ``sample_weight`` (as in :meth:`fit`).

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            The selected learner's pre-update decision value of each row (sign convention
            of :meth:`decision_function`).
        trace : SelectionTrace
            Only when ``return_trace=True``.
        """
        _base.refuse_fit_params(self, "test_then_train", params)
        out = self._run(X, y, classes, not hasattr(self, "classes_"), traced=return_trace)
        if not return_trace:
            return out
        scores, (chosen, leader) = out
        return scores, SelectionTrace(chosen, leader, self.costs_[chosen], self.costs_[leader])

    def _learnt_measure(self) -> str:
        """The measure the fitted state was learnt with: ``set_params(measure=...)`` changes
        the setting at once but is refused at the next learning call, so until ``fit`` the
        tables and values are still those of the old one."""
        started = getattr(self, "_started_with", None)  # (None: pickled before session 9)
        return self.measure if started is None else started["measure"]

    @property
    def measures_(self) -> np.ndarray:
        """:math:`M^j` of each learner on the rows seen; NaN while undefined (AUROC before
        both classes, AUPRC before a positive). Eq. (2) counts an undefined measure as 0."""
        check_is_fitted(self, "measure_values_")
        out = self.measure_values_.copy()
        pos, neg = self.counts_[1], self.counts_[2]
        measure = self._learnt_measure()
        if (measure == "auroc" and not (pos and neg)) or (measure == "auprc" and not pos):
            out[:] = math.nan
        return out

    @property
    def bin_errors_(self) -> np.ndarray:
        """Bound on :math:`|M^j - \\text{exact measure}|` for each learner, from its tables
        (:meth:`HistogramROCAUC.bin_error <skewlearn.metrics.HistogramROCAUC.bin_error>`,
        :meth:`HistogramPRAUC.bin_error <skewlearn.metrics.HistogramPRAUC.bin_error>`);
        NaN while the measure is undefined, 0 for the F-measure (Eq. (4) is exact)."""
        check_is_fitted(self, "pos_table_")
        K = self.pos_table_.shape[0]
        measure = self._learnt_measure()
        if measure == "f1":
            return np.zeros(K)
        bound = auroc_bin_error if measure == "auroc" else auprc_bin_error
        return np.array([bound(self.pos_table_[j], self.neg_table_[j]) for j in range(K)])

    @property
    def selected_(self) -> int:
        """Index of the learner that scores the next row (and ``decision_function``)."""
        check_is_fitted(self, "selection_")
        return int(self.selection_[0])

    @property
    def selected_cost_(self) -> float:
        """:math:`c_+` of :attr:`selected_`."""
        return float(self.costs_[self.selected_])
