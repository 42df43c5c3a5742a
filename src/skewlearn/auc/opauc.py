"""One-pass AUC optimisation (OPAUC, Gao, Jin, Zhu and Zhou, ICML 2013).

One compiled pass per batch (:func:`_opauc_learn`) scores each row with ``w``, updates the
statistics of its class (count, mean, covariance or its Gaussian sketch) and takes one
gradient step on the square pairwise loss against the opposite class's statistics.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions

from .. import base as _base
from .._config import NJIT, NJIT_INLINE
from .._docs import fill_doc
from .._rng import rng_uniform
from .._rows import row_dot, row_to_dense
from .._stability import note_step_gain
from ..base import (
    THRESHOLD_DOC,
    OnlineClassifier,
    OnlineLinearClassifier,
    user_stacklevel,
    warn_large_matrices,
)

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["OPAUC"]

_COVARIANCES = {"full": 0, "low_rank": 1}


@njit(**NJIT_INLINE)
def _fill_gaussian(rng, out, scale):
    """``out[k] = scale * N(0, 1)``: Box-Muller, two normals per pair of uniforms
    (the second of the last pair is dropped when ``len(out)`` is odd)."""
    n = out.shape[0]
    for k in range(0, n, 2):
        u1 = rng_uniform(rng)
        u2 = rng_uniform(rng)
        r = math.sqrt(-2.0 * math.log(1.0 - u1))
        out[k] = scale * r * math.cos(2.0 * math.pi * u2)
        if k + 1 < n:
            out[k + 1] = scale * r * math.sin(2.0 * math.pi * u2)


@njit(**NJIT)
def _opauc_learn(
    w, counts, means, cov, sketch, ssum, rng, rows, y, scores, eta, lam, lowrank, stability
):  # fmt: skip
    d = means.shape[1]
    x = np.empty(d + 1)  # the current row, densified once
    diff = np.empty(d)
    grad = np.empty(d)
    tau = ssum.shape[1]
    r = np.empty(tau)
    u = np.empty(tau)
    for i in range(y.shape[0]):
        yt = y[i]
        scores[i] = row_dot(w, rows, i)
        counts[0] += 1
        own = 0 if yt > 0 else 1
        opp = 1 - own
        counts[1 + own] += 1
        T = counts[1 + own]
        row_to_dense(rows, i, x)
        # ---- statistics of the own class (Algorithm 1)
        c = means[own]
        if lowrank:
            # Z += x r^T, s += r with r ~ N(0, I / tau): the Gaussian sketch of the class
            _fill_gaussian(rng, r, 1.0 / math.sqrt(tau))
            for a in range(d):
                if x[a] != 0.0:
                    for b in range(tau):
                        sketch[own, a, b] += x[a] * r[b]
            for b in range(tau):
                ssum[own, b] += r[b]
            for a in range(d):
                c[a] += (x[a] - c[a]) / T
        else:
            # Eq. (7) in its numerically stable form, with delta = x - c_{t-1}:
            # Gamma_t = (T-1)/T (Gamma_{t-1} + delta delta^T / T), c_t = c_{t-1} + delta / T
            for a in range(d):
                diff[a] = x[a] - c[a]
                c[a] += diff[a] / T
            keep = (T - 1.0) / T
            G = cov[own]
            for a in range(d):
                da = diff[a] / T
                for b in range(d):
                    G[a, b] = keep * (G[a, b] + da * diff[b])
        Topp = counts[1 + opp]
        if Topp == 0:
            continue  # nothing of the other class yet: no pairwise loss, no step
        # ---- gradient of L_t at w (Algorithm 1):
        # lam w - y (x - c') + (x - c')(x - c')^T w + Gamma' w,  c', Gamma' of the other class
        co = means[opp]
        for a in range(d):
            diff[a] = x[a] - co[a]
        # the sums in a loop of their own, which stores nothing (see _config)
        dw = 0.0
        dd = 0.0
        for a in range(d):
            dw += diff[a] * w[a]
            dd += diff[a] * diff[a]
        # the step's matrix lam I + d d^T + Gamma' has an eigenvalue >= lam + |d|^2
        # (Gamma' is PSD): above 2 / eta the step overshoots along d and amplifies w there
        note_step_gain(stability, eta * (lam + dd))
        for a in range(d):
            grad[a] = lam * w[a] - yt * diff[a] + diff[a] * dw
        if lowrank:
            # Gamma_hat w = (Z - c s^T)(Z - c s^T)^T w / T'
            Z = sketch[opp]
            s = ssum[opp]
            cw = 0.0
            for a in range(d):
                cw += co[a] * w[a]
            for b in range(tau):
                u[b] = -s[b] * cw
            for a in range(d):
                for b in range(tau):
                    u[b] += Z[a, b] * w[a]
            su = 0.0
            for b in range(tau):
                su += s[b] * u[b]
            for a in range(d):
                acc = -co[a] * su
                for b in range(tau):
                    acc += Z[a, b] * u[b]
                grad[a] += acc / Topp
        else:
            G = cov[opp]
            for a in range(d):
                acc = 0.0
                for b in range(d):
                    acc += G[a, b] * w[b]
                grad[a] += acc
        for a in range(d):
            w[a] -= eta * grad[a]
        counts[3] += 1


class OPAUC(OnlineLinearClassifier):
    """One-Pass AUC optimisation (OPAUC) with full or low-rank covariance statistics.

    OPAUC minimises the square pairwise loss of the ranking,
    :math:`\\frac{\\lambda}{2}\\|w\\|^2 + \\sum_{i,j}\\frac{(1 - w^T(x_i^+ - x_j^-))^2}
    {2 T^+ T^-}`, in one pass by keeping, for each class, the count :math:`T^\\pm`, the mean
    :math:`c^\\pm` and the covariance :math:`\\Gamma^\\pm` (Algorithm 1 of [1]_). On
    receiving :math:`(x_t, y_t)` the statistics of class :math:`y_t` are updated
    (:math:`c_t = c_{t-1} + (x_t - c_{t-1})/T_t` and Eq. (7) for :math:`\\Gamma`), then,
    with :math:`c, \\Gamma` those of the other class,

    .. math::

        w_t = w_{t-1} - \\eta \\big[\\lambda w_{t-1} - y_t (x_t - c)
              + (x_t - c)(x_t - c)^T w_{t-1} + \\Gamma w_{t-1}\\big],

    the gradient of the pairwise loss of :math:`x_t` against every earlier sample of the
    other class, averaged. No step is taken while the other class is unseen (as in the
    authors' code).

    ``covariance="low_rank"`` (OPAUC for high-dimensional data, Section 3.2 of [1]_) keeps
    instead the Gaussian sketch :math:`Z = \\sum_i x_i r_i^T` and :math:`s = \\sum_i r_i`,
    :math:`r_i \\sim N(0, I_\\tau/\\tau)` drawn from the model's generator, and uses

    .. math::

        \\hat\\Gamma = \\tfrac{1}{T} (Z - c s^T)(Z - c s^T)^T
                    = \\tfrac{1}{T} \\tilde X R R^T \\tilde X^T,

    the covariance of the centred data :math:`\\tilde X` seen through the random
    projection :math:`R`; it is positive semi-definite and :math:`E_R[\\hat\\Gamma] = \\Gamma`
    (see docs/decisions.md for how this differs from the authors' code). Memory is
    :math:`O(d^2)` (full) or :math:`O(\\tau d)` (low rank), whatever the stream length;
    a step costs the same.

    OPAUC learns a ranking: the differences cancel any intercept, so there is none
    (``intercept_`` is 0) and the score is :math:`w^T x`. ``threshold`` moves the cut of
    :meth:`predict` only.

    **Step-size check.** The step multiplies the component of :math:`w` along
    :math:`x_t - c` by :math:`1 - \\eta(\\lambda + \\|x_t - c\\|^2)` or less (:math:`\\Gamma` is
    positive semi-definite); when :math:`\\eta(\\lambda + \\|x_t - c\\|^2) > 2` that factor is
    below −1, the step overshoots and amplifies :math:`w`, and a few such rows (outliers
    of standardised data) can blow :math:`w` up to 1e30 and beyond without any overflow,
    leaving a meaningless ranking. Every learning call counts those steps
    (``stability_``) and warns (``RuntimeWarning``) with the ``eta`` that would have kept
    them stable.

    Parameters
    ----------
    eta : float, default=0.01
        Step size :math:`\\eta`, > 0. The step is stable when :math:`\\eta` times the
        largest eigenvalue of :math:`\\lambda I + (x - c)(x - c)^T + \\Gamma` stays below 2;
        scale the features or lower ``eta`` for large ``‖x‖`` (a warning counts the steps
        that break :math:`\\eta(\\lambda + \\|x - c\\|^2) \\le 2`). The paper tunes it by
        cross validation.
    lam : float, default=1e-4
        Regulariser :math:`\\lambda`, ≥ 0 (tuned by cross validation in the paper).
    covariance : {"full", "low_rank"}, default="full"
        Keep :math:`\\Gamma^\\pm` exactly (``d × d`` each; a ``RuntimeWarning`` when the
        two pass 1 GiB) or sketched with rank ``rank``.
    rank : int, default=50
        Sketch size :math:`\\tau` ≥ 1 of ``covariance="low_rank"``.
    {threshold}
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Seeds the sketch of ``covariance="low_rank"`` (unused by ``"full"``).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    pos_label_ : label
    weights_ : ndarray of shape (n_features + 1,)
        ``[w, 0]``: the last entry is the (always zero) intercept.
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
        Always 0.
    means_ : ndarray of shape (2, n_features)
        Class means :math:`[c^+, c^-]`.
    cov_ : ndarray of shape (2, n_features, n_features)
        :math:`[\\Gamma^+, \\Gamma^-]` (``covariance="full"`` only).
    sketch_ : ndarray of shape (2, n_features, rank)
        :math:`[Z^+, Z^-]` (``covariance="low_rank"`` only).
    sketch_sum_ : ndarray of shape (2, rank)
        :math:`[s^+, s^-]` (``covariance="low_rank"`` only).
    counts_ : ndarray of shape (4,)
        ``[seen, positives, negatives, steps]``.
    stability_ : ndarray of shape (2,)
        ``[steps with η(λ + ‖x − c‖²) > 2, largest η(λ + ‖x − c‖²) of any step]`` over
        everything learned (see "Step-size check").
    rng_state_ : ndarray of shape (1,)
        Generator state (:mod:`skewlearn._rng`).

    References
    ----------
    .. [1] W. Gao, R. Jin, S. Zhu and Z.-H. Zhou, "One-pass AUC optimization", ICML 2013,
       pp. 906–914 (arXiv:1305.1363), Algorithm 1, Eq. (7) and Section 3.2.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import roc_auc_score
    >>> from skewlearn import OPAUC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(2000, 5))
    >>> y = (X[:, 0] + X[:, 1] > 2.2).astype(int)          # about 6% positives
    >>> scores = OPAUC().test_then_train(X, y, classes=[0, 1])
    >>> bool(roc_auc_score(y, scores) > 0.95)
    True
    >>> clf = OPAUC(covariance="low_rank", rank=3, random_state=0).fit(X, y)
    >>> clf.sketch_.shape
    (2, 5, 3)
    """

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **{
            key: rule
            for key, rule in OnlineClassifier._parameter_constraints.items()
            if key != "fit_intercept"
        },
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "lam": [Interval(numbers.Real, 0, None, closed="left")],
        "covariance": [StrOptions(set(_COVARIANCES))],
        "rank": [Interval(numbers.Integral, 1, None, closed="left")],
        "threshold": [Interval(numbers.Real, None, None, closed="neither"), None],
    }
    _test_params: ClassVar[list[dict]] = [
        {},
        {"covariance": "low_rank", "rank": 3, "eta": 0.05, "lam": 0.01, "random_state": 0},
    ]
    _id_keys = ("covariance",)
    _step_gain = "eta * (lam + |x - c|^2) (c: the other class's mean)"

    def __init__(
        self,
        eta: float = 0.01,
        lam: float = 1e-4,
        covariance: str = "full",
        rank: int = 50,
        threshold: float | None = None,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.eta = eta
        self.lam = lam
        self.covariance = covariance
        self.rank = rank
        self.threshold = threshold
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        # a refit replaces the model: drop the statistics of a covariance form set before
        # (set_params), which would otherwise stay beside the new ones, of the old width
        for name in ("cov_", "sketch_", "sketch_sum_"):
            self.__dict__.pop(name, None)
        self.means_ = np.zeros((2, n_features))
        if self.covariance == "full":
            warn_large_matrices(self, 2, n_features, "low_rank")
            self.cov_ = np.zeros((2, n_features, n_features))
        else:
            self._warn_large_sketch(n_features)
            self.sketch_ = np.zeros((2, n_features, int(self.rank)))
            self.sketch_sum_ = np.zeros((2, int(self.rank)))
        self.rng_state_ = self._new_rng()

    def _warn_large_sketch(self, n_features: int) -> None:
        """Warn, as ``covariance="full"`` does (:func:`skewlearn.base.warn_large_matrices`),
        when the two ``d × rank`` sketches pass :data:`skewlearn.base.LARGE_STATE`: every
        row updates and reads them (O(d · rank) time), so a large ``rank`` on wide input
        would otherwise exhaust memory or run for hours without a word."""
        rank = int(self.rank)
        size = 16 * n_features * rank
        if size > _base.LARGE_STATE:
            fits = max(1, _base.LARGE_STATE // (16 * n_features))
            warnings.warn(
                f"OPAUC(covariance='low_rank') keeps two {n_features} × {rank} sketches "
                f"({size / 2**30:.1f} GiB) and updates them at every step (O(d · rank) time "
                f"per sample). Use rank={fits} or less to stay under "
                f"{_base.LARGE_STATE / 2**30:.3g} GiB, or reduce the features first (e.g. "
                "sklearn.random_projection).",
                RuntimeWarning,
                stacklevel=user_stacklevel(),  # fit, partial_fit or River's learn_one
            )

    def _learn(self, rows, y, scores):
        lowrank = self.covariance == "low_rank"
        d = self.means_.shape[1]
        _opauc_learn(
            self.weights_,
            self.counts_,
            self.means_,
            np.zeros((2, 0, 0)) if lowrank else self.cov_,
            self.sketch_ if lowrank else np.zeros((2, d, 0)),
            self.sketch_sum_ if lowrank else np.zeros((2, 0)),
            self.rng_state_,
            rows,
            y,
            scores,
            float(self.eta),
            float(self.lam),
            lowrank,
            self.stability_,
        )


fill_doc(OPAUC, threshold=THRESHOLD_DOC)
