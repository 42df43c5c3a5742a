"""Histogram ("hash table") streaming AUROC and AUPRC of the OMCSL paper.

Yan et al. (AAAI 2017, section "OMCSL for AUROC and AUPRC") keep, instead of every score,
two tables :math:`L^+` and :math:`L^-` of ``m`` counters: :math:`L^\\pm[i]` counts the
positives / negatives whose mapped score :math:`u = \\sigma(f)` falls in the bin
:math:`[(i-1)/m, i/m)`. Both areas are then functions of the two tables only, so memory
is O(m) whatever the length of the stream, and each area costs O(m) to evaluate.

Binning keeps the order *between* bins (the mapping is monotone) and loses it *within*
a bin. :meth:`HistogramROCAUC.bin_error` and :meth:`HistogramPRAUC.bin_error` bound the
resulting error from the tables alone; the tests check the bound against the exact
metrics on random streams.

The compiled helpers (:func:`score_bin`, :func:`auroc_gain2`, :func:`hist_auprc`) are
what OMCSL's kernel calls for each of its K learners.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np
from numba import njit

from .._config import NJIT, NJIT_INLINE
from .batch import _float_scores
from .streaming import StreamingMetric, _paired

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["HistogramPRAUC", "HistogramROCAUC"]

#: Score transforms -> codes used inside kernels.
TRANSFORMS = {"sigmoid": 0, "identity": 1}


# --------------------------------------------------------------------------- kernels
@njit(**NJIT_INLINE)
def score_bin(s, n_bins, transform):
    """Bin of score ``s``: ``floor(u m)`` with :math:`u = \\sigma(s)` (transform 0) or
    :math:`u = s \\in [0, 1]` (transform 1); ``u = 1`` goes to the last bin."""
    if transform == 0:
        if s >= 0.0:
            u = 1.0 / (1.0 + math.exp(-s))
        else:
            e = math.exp(s)
            u = e / (1.0 + e)
    else:
        u = s
    b = int(u * n_bins)
    if b >= n_bins:
        b = n_bins - 1
    if b < 0:
        b = 0
    return b


@njit(**NJIT)
def score_bins(s, n_bins, transform, scale):
    """:func:`score_bin` of every ``s[i] / scale``, the expression of OMCSL's kernel, so
    a metric's tables and OMCSL's hold the same scores in the same bins (numpy's ``exp``
    differs from the compiled one in the last bit for some scores, which moved a score at
    a bin edge into the neighbouring bin)."""
    out = np.empty(s.shape[0], dtype=np.int64)
    for i in range(s.shape[0]):
        out[i] = score_bin(s[i] if scale == 1.0 else s[i] / scale, n_bins, transform)
    return out


@njit(**NJIT_INLINE)
def auroc_gain2(opposite, b, positive):
    """Twice the Mann-Whitney count a new sample in bin ``b`` adds against the other
    class's table ``opposite``: pairs in a lower (positive) or higher (negative) bin count
    2, pairs in the same bin 1 (a tie, ½ of a pair)."""
    strict = 0
    if positive:
        for j in range(b):
            strict += opposite[j]
    else:
        for j in range(b + 1, opposite.shape[0]):
            strict += opposite[j]
    return 2 * strict + opposite[b]


@njit(**NJIT_INLINE)
def hist_auprc(pos, neg):
    """The paper's AUPRC of the tables: trapezoids between the thresholds at the bin
    edges, from the top; precision 1 where nothing is predicted positive. NaN without a
    positive."""
    n_pos = 0
    for b in range(pos.shape[0]):
        n_pos += pos[b]
    if n_pos == 0:
        return math.nan
    area = 0.0
    tp = 0
    fp = 0
    prev = 1.0
    for b in range(pos.shape[0] - 1, -1, -1):
        if pos[b] == 0 and neg[b] == 0:
            continue
        tp += pos[b]
        fp += neg[b]
        p = tp / (tp + fp)
        if pos[b] > 0:
            area += pos[b] * (prev + p)
        prev = p
    return area / (2.0 * n_pos)


def auroc_bin_error(pos: np.ndarray, neg: np.ndarray) -> float:
    """Bound on |histogram AUROC − exact AUROC| from two tables (NaN while undefined):
    :math:`\\frac{1}{2 N_+ N_-}\\sum_i L^+[i] L^-[i]` (see :class:`HistogramROCAUC`)."""
    n_pos, n_neg = int(pos.sum()), int(neg.sum())
    if n_pos == 0 or n_neg == 0:
        return math.nan
    # in float64: the int64 dot wraps once the products pass 9.2e18 (~4e9 balanced rows)
    return float(np.dot(pos.astype(np.float64), neg)) / (2.0 * n_pos * n_neg)


def auprc_bin_error(pos: np.ndarray, neg: np.ndarray) -> float:
    """Bound on |histogram AUPRC − exact AUPRC| from two tables (NaN before a positive):
    :math:`\\sum_i w_i (P^{hi}_i - P^{lo}_i)` (see :class:`HistogramPRAUC`)."""
    n_pos = int(pos.sum())
    if n_pos == 0:
        return math.nan
    pos = pos[::-1]
    neg = neg[::-1]
    above_pos = np.cumsum(pos) - pos
    above_neg = np.cumsum(neg) - neg
    hi = (above_pos + pos) / np.maximum(above_pos + pos + above_neg, 1)
    lo_den = above_pos + above_neg + neg
    lo = np.where(lo_den > 0, above_pos / np.maximum(lo_den, 1), 1.0)
    has = pos > 0
    return float(np.sum(pos[has] * (hi[has] - lo[has])) / n_pos)


def check_scale(
    scale: float | np.integer[Any] | np.floating[Any], transform: str = "sigmoid"
) -> float:
    """``scale`` as a float: finite and > 0, and 1 unless ``transform`` is the sigmoid."""
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.integer, np.floating)):
        raise ValueError(f"scale must be a positive number; got {scale!r}.")
    scale = float(scale)
    if not (math.isfinite(scale) and scale > 0.0):
        raise ValueError(f"scale must be finite and > 0; got {scale!r}.")
    if transform != "sigmoid" and scale != 1.0:
        raise ValueError(
            f"scale={scale!r} divides decision values before the sigmoid; with "
            f"transform={transform!r} the scores are used as they are. Drop scale, or use "
            "transform='sigmoid'."
        )
    return scale


# --------------------------------------------------------------------------- metrics
def _outside_unit(bad: float) -> ValueError:
    """The error for a score outside [0, 1] under ``transform='identity'``."""
    return ValueError(
        f"transform='identity' needs scores in [0, 1]; got {bad!r}. Pass probabilities, or "
        "use transform='sigmoid' for decision values."
    )


class _HistogramMetric(StreamingMetric):
    """Two count tables of ``n_bins`` bins over mapped scores (shared by both areas)."""

    requires_scores: ClassVar[bool] = True
    _exact_scores: ClassVar[bool] = False  # binned: scores beyond 2**53 tie anyway

    def __init__(
        self,
        n_bins: int = 100,
        transform: str = "sigmoid",
        pos_label: Any = 1,
        scale: float = 1.0,
    ) -> None:
        if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
            raise ValueError(f"n_bins must be an integer >= 1; got {n_bins!r}.")
        if transform not in TRANSFORMS:
            raise ValueError(
                f"transform must be one of {sorted(TRANSFORMS)}; got {transform!r}. Use "
                "'sigmoid' for unbounded decision values, 'identity' for probabilities."
            )
        scale = check_scale(scale, transform)
        super().__init__(pos_label)
        self.n_bins = int(n_bins)
        self.transform = transform
        self.scale = scale
        self.pos_counts = np.zeros(self.n_bins, dtype=np.int64)
        self.neg_counts = np.zeros(self.n_bins, dtype=np.int64)

    @property
    def n_pos(self) -> int:
        """Positives seen."""
        return int(self.pos_counts.sum())

    @property
    def n_neg(self) -> int:
        """Negatives seen."""
        return int(self.neg_counts.sum())

    def bins(self, values: ArrayLike) -> np.ndarray:
        """Bin index of each score (the table entry it is counted in)."""
        s = _float_scores(values, "y_score").reshape(-1)
        if np.isnan(s).any():
            raise ValueError(
                "y_score contains NaN; a ranking metric needs comparable scores. Check the "
                "model output."
            )
        if self.transform != "sigmoid" and ((s < 0.0) | (s > 1.0)).any():
            raise _outside_unit(float(s[(s < 0.0) | (s > 1.0)][0]))  # 1.5, not np.float64(1.5)
        return score_bins(s, self.n_bins, TRANSFORMS[self.transform], self.scale)

    def update(self, y: ArrayLike, value: ArrayLike) -> Self:
        positive, s = self._one_scored(y, value)
        if self.transform != "sigmoid" and not 0.0 <= s <= 1.0:
            raise _outside_unit(s)
        # the compiled binning of update_many and OMCSL, on one score
        b = int(score_bins(np.array([s]), self.n_bins, TRANSFORMS[self.transform], self.scale)[0])
        if positive:
            self.pos_counts[b] += 1
        else:
            self.neg_counts[b] += 1
        return self

    def update_many(self, y: ArrayLike, values: ArrayLike) -> Self:
        y, values = _paired(y, values, "y_score")
        b = self.bins(values)
        t = self._positive(y)
        self.pos_counts += np.bincount(b[t], minlength=self.n_bins)
        self.neg_counts += np.bincount(b[~t], minlength=self.n_bins)
        return self

    def _merge(self, other) -> None:
        if (other.n_bins, other.transform, other.scale) != (
            self.n_bins,
            self.transform,
            self.scale,
        ):
            raise ValueError(
                f"Cannot merge tables of n_bins={other.n_bins}, transform="
                f"{other.transform!r}, scale={other.scale!r} into n_bins={self.n_bins}, "
                f"transform={self.transform!r}, scale={self.scale!r}; build both metrics "
                "with the same settings."
            )
        self.pos_counts += other.pos_counts
        self.neg_counts += other.neg_counts


class HistogramROCAUC(_HistogramMetric):
    """Streaming AUROC from two tables of ``n_bins`` counts (Yan et al., 2017).

    With :math:`L^\\pm` the tables, :math:`N_\\pm` the class sizes and the pairs of a
    same bin counted as ties,

    .. math::

        \\mathrm{AUROC} = \\frac{1}{N_+ N_-} \\sum_{i=1}^m L^+[i]
        \\Big( \\sum_{j<i} L^-[j] + \\tfrac12 L^-[i] \\Big),

    which is what the paper's incremental rule (a new positive in bin ``i`` adds
    :math:`\\sum_{j<i} L^-[j] + L^-[i]/2` pairs) accumulates. ``update`` is O(1) (one
    counter), ``get`` O(m). NaN until both classes have been seen.

    Error: binning changes only the pairs of one bin, each worth 1, ½ or 0 exactly and ½
    here, so :math:`|\\mathrm{AUROC}_{hist} - \\mathrm{AUROC}| \\le
    \\frac{1}{2 N_+ N_-}\\sum_i L^+[i] L^-[i]` (:meth:`bin_error`).

    Parameters
    ----------
    n_bins : int, default=100
        ``m``, >= 1 (the paper leaves it open).
    transform : {"sigmoid", "identity"}, default="sigmoid"
        How scores are mapped to [0, 1]: the paper's :math:`\\sigma(f)` for decision values,
        or none for probabilities (then scores outside [0, 1] raise).
    pos_label : label, default=1
        The positive class; every other label is negative (``1`` also matches ``True``).
    scale : float, default=1.0
        With the sigmoid, scores are binned by :math:`\\sigma(f/\\tau)`, ``tau = scale``
        (1: the paper's mapping). Decision values far above 1 in size (an unregularised
        linear learner's grow with the stream) all land in the first or last bin, and the
        area then sees little more than their sign (:meth:`bin_error` says how much is
        lost); a ``scale`` near the typical ``|f|`` spreads them over the bins.

    References
    ----------
    .. [1] Y. Yan, T. Yang, Y. Yang and J. Chen, "A framework of online learning with
       imbalanced streaming data", AAAI 2017, section "OMCSL for AUROC and AUPRC".

    Examples
    --------
    >>> from skewlearn.metrics import HistogramROCAUC
    >>> m = HistogramROCAUC(n_bins=10, transform="identity")
    >>> _ = m.update_many([0, 1, 0, 1], [0.1, 0.42, 0.48, 0.8])
    >>> m.get()      # 0.42 and 0.48 share a bin: one tie -> (1 + 0.5 + 1 + 1) / 4
    0.875
    >>> m.bin_error()
    0.125
    """

    def get(self) -> float:
        n_pos, n_neg = self.n_pos, self.n_neg
        if n_pos == 0 or n_neg == 0:
            return math.nan
        below = np.cumsum(self.neg_counts) - self.neg_counts
        # float64: exact below 2**53, and no int64 wrap-around (2 N+ N- > 9.2e18) beyond
        u2 = np.dot(self.pos_counts.astype(np.float64), 2 * below + self.neg_counts)
        return float(u2) / (2.0 * n_pos * n_neg)

    def bin_error(self) -> float:
        """Bound on ``|get() - exact AUROC|`` from the tables (NaN while undefined)."""
        return auroc_bin_error(self.pos_counts, self.neg_counts)


class HistogramPRAUC(_HistogramMetric):
    """Streaming AUPRC from two tables of ``n_bins`` counts (Yan et al., 2017).

    With thresholds at the bin edges, recall :math:`R(i) = \\sum_{j>i} L^+[j] / N_+` and
    precision :math:`P(i) = \\sum_{j>i} L^+[j] / \\sum_{j>i} (L^+[j] + L^-[j])`,

    .. math::

        \\mathrm{AUPRC} = \\tfrac12 \\sum_{i=0}^{m-1} \\big(R(i) - R(i+1)\\big)
        \\big(P(i) + P(i+1)\\big),

    the paper's formula, with two corrections (see docs/decisions.md): the numerator of
    :math:`P` is :math:`L^+` (the paper prints :math:`L^-`, which would be the false
    discovery rate), and where nothing is predicted positive :math:`P = 1` (the (0, 1)
    start point of the PR curve, as in scikit-learn; the authors' code uses 0, which gives
    a perfect ranker whose positives share one bin an AUPRC of ½). ``update`` is O(1),
    ``get`` O(m). NaN before the first positive.

    Error: over the recall interval of bin ``i`` (width :math:`w_i = L^+[i]/N_+`) every
    precision reachable by a threshold inside the bin — so both the exact curve's and the
    two trapezoid end points — lies between :math:`P^{lo}_i = A_i / (A_i + B_i + L^-[i])`
    and :math:`P^{hi}_i = (A_i + L^+[i]) / (A_i + L^+[i] + B_i)`, with :math:`A_i, B_i` the
    positives and negatives of the bins above. Hence
    :math:`|\\mathrm{AUPRC}_{hist} - \\mathrm{AUPRC}| \\le \\sum_i w_i (P^{hi}_i - P^{lo}_i)`
    (:meth:`bin_error`), both for average precision and for the trapezoidal area.

    Parameters
    ----------
    n_bins, transform, pos_label, scale
        As in :class:`HistogramROCAUC`.

    References
    ----------
    .. [1] Y. Yan, T. Yang, Y. Yang and J. Chen, "A framework of online learning with
       imbalanced streaming data", AAAI 2017, section "OMCSL for AUROC and AUPRC".

    Examples
    --------
    >>> from skewlearn.metrics import HistogramPRAUC
    >>> m = HistogramPRAUC(n_bins=10, transform="identity")
    >>> _ = m.update_many([0, 1, 0, 1], [0.1, 0.45, 0.25, 0.85])
    >>> round(m.get(), 4)   # points (0, 1), (.5, 1), (1, 1), (1, 2/3), (1, .5)
    1.0
    """

    def get(self) -> float:
        return float(hist_auprc(self.pos_counts, self.neg_counts))

    def bin_error(self) -> float:
        """Bound on ``|get() - exact AUPRC|`` from the tables (NaN before a positive)."""
        return auprc_bin_error(self.pos_counts, self.neg_counts)
