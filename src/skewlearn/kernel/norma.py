"""NORMA (Kivinen, Smola and Williamson, 2004) with the hinge loss."""

from __future__ import annotations

import numbers
import warnings
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._config import NJIT
from .._docs import fill_doc
from ..base import user_stacklevel
from .budget import COUNT, segment_offer, store_row
from .perceptrons import _KERNEL_DOC, _KernelExpansionClassifier, count_sample, row_expansion

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["NORMA"]

_SCHEDULES = {"constant": 0, "inverse_sqrt": 1}


@njit(**NJIT)
def _norma_learn(
    sv,
    sq_in,
    alpha,
    seg,
    counts,
    offsets,
    rng,
    rows,
    y,
    scores,
    start,
    grow,
    eta0,
    schedule,
    lam,
    nu,
    adapt_rho,
    intercept,
    c_pos,
    c_neg,
    kind,
    gamma,
    degree,
    coef0,
):
    cap = sv.shape[0]
    kx = np.zeros(cap)
    sq = sq_in.copy()  # a local copy: no aliasing with the buffers (vectorised loops)
    for i in range(start, y.shape[0]):
        m = seg[0, COUNT]
        if grow and m == cap:
            sq_in[:] = sq
            return i  # full: Python doubles the buffers and resumes at row i
        f = row_expansion(kind, gamma, degree, coef0, rows, i, sv, sq, alpha, seg, kx) + offsets[0]
        scores[i] = f
        yt = y[i]
        count_sample(counts, yt)
        eta = eta0 / np.sqrt(counts[0]) if schedule == 1 else eta0
        sigma = 1.0 if yt * f < offsets[1] else 0.0
        decay = 1.0 - eta * lam
        for j in range(m):
            alpha[j] *= decay
        if sigma > 0.0:
            step = eta * (c_pos if yt > 0 else c_neg) * yt
            # truncation: a full buffer overwrites its oldest term (FIFO)
            slot, replaced = segment_offer(1, seg, 0, rng)
            store_row(rows, i, sv, sq, slot)
            alpha[slot] = step
            if intercept:
                offsets[0] += step
            counts[3] += 1
        if adapt_rho:
            offsets[1] += eta * (nu - sigma)
    sq_in[:] = sq
    return y.shape[0]


class NORMA(_KernelExpansionClassifier):
    """NORMA: online learning with kernels (Kivinen, Smola and Williamson, 2004), for
    classification with the (soft-margin) hinge loss.

    Stochastic gradient descent in the RKHS on
    :math:`\\tfrac{\\lambda}{2}\\|f\\|^2 + c_y\\max(0, \\rho - y f(x)) \\ [- \\nu\\rho]`.
    With :math:`\\sigma_t = 1` if :math:`y_t f_t(x_t) < \\rho` and 0 otherwise, the update
    of the classification section of [1]_ is

    .. math::

        f_{t+1} = (1 - \\eta_t\\lambda) f_t + \\eta_t c_{y_t} \\sigma_t y_t k(x_t, \\cdot),
        \\qquad b \\leftarrow b + \\eta_t c_{y_t} \\sigma_t y_t ,

    i.e. every coefficient decays by :math:`(1 - \\eta_t\\lambda)` and the new one is
    :math:`\\alpha_t = \\eta_t c_{y_t} \\sigma_t y_t`. The class costs :math:`c_+, c_-`
    (``c_pos``, ``c_neg``; 1 and 1 in [1]_) weight the loss of each class, as the
    cost-sensitive OGD learners do (Wang, Zhao and Hoi, 2014), so that NORMA can serve as
    :class:`~skewlearn.OMCSL`'s base learner (``OMCSL(base_estimator=NORMA())``).
    The margin :math:`\\rho` is fixed (``nu=None``; :math:`\\rho = 1` is the hinge loss),
    or adapted by the ν-setting of [1]_,

    .. math::  \\rho \\leftarrow \\rho + \\eta_t (\\nu - \\sigma_t),

    so that about a fraction ν of the samples are margin errors (``rho`` is then the
    starting value). Truncation (Section 4 of [1]_) keeps the ``budget`` most recent terms:
    when the buffer is full, a new term overwrites the oldest one, whose coefficient has
    decayed most. Only non-zero terms are stored, so this equals the paper's truncation
    after :math:`\\tau` = ``budget`` steps when every step updates, and otherwise keeps the
    same number of older terms. Steps: :math:`\\eta_t = \\eta` or :math:`\\eta/\\sqrt{t}`.

    Parameters
    ----------
    eta : float, default=0.1
        Learning rate :math:`\\eta`, > 0, with ``eta * lam < 1`` (a positive decay factor).
    lam : float, default=0.01
        Regularisation :math:`\\lambda`, ≥ 0.
    rho : float, default=1.0
        Margin :math:`\\rho` (starting value when ``nu`` is set). A fixed
        :math:`\\rho \\le 0` never updates from :math:`f = 0`, so the model stays 0; the
        first learning call warns (``RuntimeWarning``).
    nu : float or None, default=None
        ν in (0, 1] adapts :math:`\\rho`; ``None`` keeps it fixed.
    eta_schedule : {"constant", "inverse_sqrt"}, default="constant"
        :math:`\\eta_t = \\eta` or :math:`\\eta / \\sqrt{t}` (``t`` = samples seen, this one
        included).
    budget : int or None, default=100
        Number of most recent terms kept, ≥ 1 (100 in KOIL's experiments); ``None`` keeps
        every term (capacity doubles between compiled calls when full; a learning call
        that grew it past 1 GiB ends with a ``RuntimeWarning``).
    fit_intercept : bool, default=False
        Learn the offset :math:`b` of [1]_ (KOIL's experiments, like the other kernel
        learners here, use none).
    c_pos, c_neg : float, default=1.0
        Class costs :math:`c_+` (``pos_label``) and :math:`c_-`, > 0. Only with a fixed
        margin (``nu=None``): the ν-setting's adaptation of :math:`\\rho` assumes equal
        costs.
    {kernel}
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    sv_, alpha_, segments_, counts_, rng_state_, support_vectors_, dual_coef_, n_support_
        As in :class:`KernelPerceptron`; ``counts_[3]`` counts steps with
        :math:`\\sigma_t = 1`.
    offsets_ : ndarray of shape (2,)
        ``[b, rho]`` (raw, for ``pos_label`` as the positive class).
    intercept_ : float
        :math:`b` with the sign convention of ``decision_function``.
    rho_ : float
        Current margin :math:`\\rho`.

    References
    ----------
    .. [1] J. Kivinen, A. J. Smola and R. C. Williamson, "Online learning with kernels",
       IEEE Transactions on Signal Processing 52(8), 2004 (Section III-B, classification
       with the soft-margin loss and the ν-setting; Section IV, truncation).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import roc_auc_score
    >>> from skewlearn import NORMA
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(1000, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.4).astype(int)
    >>> clf = NORMA(eta=0.2, lam=0.01, budget=100, gamma=2.0).fit(X, y)
    >>> clf.n_support_
    100
    >>> bool(roc_auc_score(y, clf.decision_function(X)) > 0.9)
    True
    """

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **_KernelExpansionClassifier._parameter_constraints,
        "fit_intercept": ["boolean"],
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "lam": [Interval(numbers.Real, 0, None, closed="left")],
        "rho": [Interval(numbers.Real, None, None, closed="neither")],
        "nu": [Interval(numbers.Real, 0, 1, closed="right"), None],
        "eta_schedule": [StrOptions(set(_SCHEDULES))],
        "budget": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "c_pos": [Interval(numbers.Real, 0, None, closed="neither")],
        "c_neg": [Interval(numbers.Real, 0, None, closed="neither")],
    }
    _test_params: ClassVar[list[dict]] = [
        {"budget": 20, "eta": 0.5},
        {"budget": 10, "nu": 0.3, "fit_intercept": True, "eta_schedule": "inverse_sqrt"},
        {"budget": None, "kernel": "poly", "gamma": 0.5, "degree": 2, "eta": 0.05},
        {"budget": 20, "eta": 0.5, "c_pos": 0.6, "c_neg": 0.4},
    ]
    _id_keys = ("kernel", "nu")
    _unbounded_advice: ClassVar[str] = (
        "{name}(budget=None) keeps every term, so its buffer grows with the stream: set "
        "budget to keep the newest terms only"
    )

    def __init__(
        self,
        eta: float = 0.1,
        lam: float = 0.01,
        rho: float = 1.0,
        nu: float | None = None,
        eta_schedule: str = "constant",
        budget: int | None = 100,
        fit_intercept: bool = False,
        c_pos: float = 1.0,
        c_neg: float = 1.0,
        kernel: str = "rbf",
        gamma: float = 1.0,
        degree: int = 3,
        coef0: float = 1.0,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.eta = eta
        self.lam = lam
        self.rho = rho
        self.nu = nu
        self.eta_schedule = eta_schedule
        self.budget = budget
        self.fit_intercept = fit_intercept
        self.c_pos = c_pos
        self.c_neg = c_neg
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        if not float(self.eta) * float(self.lam) < 1.0:
            raise ValueError(
                f"eta * lam must be < 1 so the decay factor 1 - eta*lam stays positive; got "
                f"eta={self.eta!r}, lam={self.lam!r} (product {self.eta * self.lam!r}). "
                "Lower eta or lam."
            )
        if self.nu is not None and (float(self.c_pos), float(self.c_neg)) != (1.0, 1.0):
            raise ValueError(
                f"Class costs (c_pos={self.c_pos!r}, c_neg={self.c_neg!r}) need a fixed "
                f"margin: the nu-setting (nu={self.nu!r}) adapts rho for equal costs, so "
                "c_pos and c_neg must be 1 when nu is set. Use nu=None to weight the classes."
            )
        if self.nu is None and not float(self.rho) > 0.0:
            # f starts at 0 and sigma_t = [y f < rho] is strict: no step ever fires, so the
            # model stays 0 whatever the data (docs/decisions.md, sessions 2 and 25)
            warnings.warn(
                f"NORMA(rho={self.rho!r}, nu=None) never updates: the model starts at f = 0 "
                "and steps only when y f(x) < rho, which a fixed rho <= 0 never allows, so "
                "it stays 0 and predicts the negative class for every row. Use rho > 0 "
                "(rho=1 is the hinge loss), or set nu to adapt rho.",
                RuntimeWarning,
                stacklevel=user_stacklevel(),  # fit, partial_fit or River's learn_one
            )
        super()._allocate(n_features)
        self.offsets_ = np.array([0.0, float(self.rho)])

    def _pass(self, rows, y, scores, start):
        return _norma_learn(
            self.sv_,
            self._sv_norms(rows),
            self.alpha_,
            self.segments_,
            self.counts_,
            self.offsets_,
            self.rng_state_,
            rows,
            y,
            scores,
            start,
            self.budget is None,
            float(self.eta),
            _SCHEDULES[self.eta_schedule],
            float(self.lam),
            0.0 if self.nu is None else float(self.nu),
            self.nu is not None,
            bool(self.fit_intercept),
            float(self.c_pos),
            float(self.c_neg),
            *self._kernel_args(),
        )

    def _scores(self, rows, out):
        super()._scores(rows, out)
        out += self.offsets_[0]

    @property
    def intercept_(self) -> float:
        """Offset :math:`b`, sign convention of ``decision_function``."""
        check_is_fitted(self, "offsets_")
        b = float(self.offsets_[0])
        return b if self._pos_is_last() else -b

    @property
    def rho_(self) -> float:
        """Current margin :math:`\\rho`."""
        check_is_fitted(self, "offsets_")
        return float(self.offsets_[1])


fill_doc(NORMA, kernel=_KERNEL_DOC)
