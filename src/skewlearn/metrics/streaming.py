"""Streaming (prequential) metrics: one small contract, exact values.

Every metric is a :class:`StreamingMetric`:

``update(y, value)``
    one sample: its true label and either its score (``requires_scores = True``) or its
    predicted label;
``update_many(y, values)``
    the same for arrays, in one vectorised step; the result equals calling ``update`` on
    each pair in order;
``get()``
    the metric over every sample seen so far (NaN while it is undefined, e.g. the AUC
    before both classes have been seen);
``merge(other)``
    fold in a metric of the same kind computed on another part of the stream (the value
    is that of the union of both parts).

The positive class is ``pos_label`` (default 1, which also covers ``True`` and the
{-1, +1} convention); every other label is negative. A learner's predictions are labels
too; the prequential evaluator passes ``±1``.

The values equal the batch metrics of :mod:`skewlearn.metrics.batch` on the samples seen,
where those are defined (the F-measure is 0 before the first true positive).

A later metric that approximates (histogram AUROC/AUPRC) fits the same contract: it sets
``requires_scores = True`` and implements the four methods.
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from .batch import (
    ConfusionCounts,
    _fbeta_from,
    _gmean_from,
    _pair_count2,
)

__all__ = [
    "F1",
    "ROCAUC",
    "Confusion",
    "FBeta",
    "GMean",
    "MistakeRate",
    "StreamingMetric",
]


class StreamingMetric:
    """Base of the streaming metrics (see the module docstring for the contract).

    Subclasses implement ``update_many``, ``get`` and ``_merge``.
    """

    #: True when ``update`` takes a score, False when it takes a predicted label.
    requires_scores: ClassVar[bool] = False

    def __init__(self, pos_label=1):
        self.pos_label = pos_label

    def update(self, y, value) -> StreamingMetric:
        """Add one sample: true label ``y`` and its score or predicted label."""
        return self.update_many(np.asarray([y]), np.asarray([value]))

    def update_many(self, y, values) -> StreamingMetric:  # pragma: no cover - abstract
        raise NotImplementedError

    def get(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def merge(self, other: StreamingMetric) -> StreamingMetric:
        """Fold in ``other`` (same class and ``pos_label``), computed on other samples."""
        if type(other) is not type(self):
            raise TypeError(
                f"Cannot merge {type(other).__name__} into {type(self).__name__}; merge "
                "metrics of the same kind."
            )
        if not _same_label(other.pos_label, self.pos_label):
            raise ValueError(
                f"Cannot merge metrics with different pos_label ({self.pos_label!r} and "
                f"{other.pos_label!r})."
            )
        self._merge(other)
        return self

    def _merge(self, other) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _positive(self, y) -> np.ndarray:
        y = np.asarray(y)
        return np.asarray(y == self.pos_label, dtype=bool).reshape(y.shape)

    def __repr__(self) -> str:
        return f"{type(self).__name__}: {self.get():.6g}"


def _same_label(a, b) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # pragma: no cover - exotic labels
        return a is b


def _paired(y, values, name: str) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(y).reshape(-1)
    values = np.asarray(values).reshape(-1)
    if len(y) != len(values):
        raise ValueError(f"y and {name} must have the same length; got {len(y)} and {len(values)}.")
    return y, values


# --------------------------------------------------------------------------- confusion
class Confusion(StreamingMetric):
    """Running confusion counts of predicted labels; the base of the label metrics.

    ``update`` is O(1), ``update_many`` O(batch). ``get()`` returns a
    :class:`~skewlearn.metrics.ConfusionCounts` ``(tp, fp, tn, fn)``.

    Parameters
    ----------
    pos_label : label, default=1

    Examples
    --------
    >>> from skewlearn.metrics import Confusion
    >>> m = Confusion()
    >>> for yt, yp in [(1, 1), (0, 1), (0, 0), (1, 0)]:
    ...     _ = m.update(yt, yp)
    >>> m.get()
    ConfusionCounts(tp=1, fp=1, tn=1, fn=1)
    """

    def __init__(self, pos_label=1):
        super().__init__(pos_label)
        self.tp = self.fp = self.tn = self.fn = 0

    def update(self, y, value) -> Confusion:
        t = _same_label(y, self.pos_label)
        p = _same_label(value, self.pos_label)
        if t:
            if p:
                self.tp += 1
            else:
                self.fn += 1
        elif p:
            self.fp += 1
        else:
            self.tn += 1
        return self

    def update_many(self, y, values) -> Confusion:
        y, values = _paired(y, values, "y_pred")
        t = self._positive(y)
        p = self._positive(values)
        tp = int(np.count_nonzero(t & p))
        fp = int(np.count_nonzero(p)) - tp
        fn = int(np.count_nonzero(t)) - tp
        self.tp += tp
        self.fp += fp
        self.fn += fn
        self.tn += len(t) - tp - fp - fn
        return self

    def _merge(self, other: Confusion) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.tn += other.tn
        self.fn += other.fn

    @property
    def counts(self) -> ConfusionCounts:
        """The counts so far."""
        return ConfusionCounts(self.tp, self.fp, self.tn, self.fn)

    @property
    def n(self) -> int:
        """Samples seen."""
        return self.tp + self.fp + self.tn + self.fn

    def get(self) -> ConfusionCounts:  # type: ignore[override]
        return self.counts

    def __repr__(self) -> str:
        return f"{type(self).__name__}: {self.counts}"


class MistakeRate(Confusion):
    """Share of wrong predictions so far, :math:`(FP + FN) / n` (NaN before any sample).

    For a prequential run this is the online mistake rate of the papers.

    Examples
    --------
    >>> from skewlearn.metrics import MistakeRate
    >>> MistakeRate().update_many([1, 0, 0, 1], [1, 1, 0, 1]).get()
    0.25
    """

    @property
    def mistakes(self) -> int:
        """Number of wrong predictions so far."""
        return self.fp + self.fn

    def get(self) -> float:  # type: ignore[override]
        return self.mistakes / self.n if self.n else math.nan

    def __repr__(self) -> str:
        return StreamingMetric.__repr__(self)


class FBeta(Confusion):
    """Exact incremental F-beta, O(1) per sample:
    :math:`F_\\beta = \\frac{(1+\\beta^2)TP}{(1+\\beta^2)TP + \\beta^2 FN + FP}`, 0 without a true
    positive.

    Parameters
    ----------
    beta : float, default=1.0
        > 0.
    pos_label : label, default=1

    Examples
    --------
    >>> from skewlearn.metrics import FBeta
    >>> FBeta(beta=2.0).update_many([1, 1, 0, 0], [1, 0, 1, 0]).get()
    0.5
    """

    def __init__(self, beta: float = 1.0, pos_label=1):
        if not beta > 0:
            raise ValueError(f"beta must be a real number > 0; got {beta!r}.")
        super().__init__(pos_label)
        self.beta = float(beta)

    def _merge(self, other: FBeta) -> None:
        if other.beta != self.beta:
            raise ValueError(f"Cannot merge FBeta with beta={other.beta} into beta={self.beta}.")
        super()._merge(other)

    def get(self) -> float:  # type: ignore[override]
        return _fbeta_from(self.counts, self.beta)

    def __repr__(self) -> str:
        return StreamingMetric.__repr__(self)


class F1(FBeta):
    """Exact incremental F1 = :math:`2TP / (2TP + FP + FN)`, O(1) per sample.

    Examples
    --------
    >>> from skewlearn.metrics import F1
    >>> m = F1()
    >>> _ = m.update(1, 1); _ = m.update(0, 1)
    >>> round(m.get(), 4)
    0.6667
    """

    def __init__(self, pos_label=1):
        super().__init__(beta=1.0, pos_label=pos_label)


class GMean(Confusion):
    """Geometric mean of sensitivity and specificity, :math:`\\sqrt{TPR\\cdot TNR}`.

    NaN until both classes have been seen (a rate without a denominator).

    Examples
    --------
    >>> from skewlearn.metrics import GMean
    >>> GMean().update_many([1, 1, 0, 0], [1, 0, 0, 0]).get()
    0.7071067811865476
    """

    def get(self) -> float:  # type: ignore[override]
        c = self.counts
        if c.tp + c.fn == 0 or c.tn + c.fp == 0:
            return math.nan
        return _gmean_from(c)

    def __repr__(self) -> str:
        return StreamingMetric.__repr__(self)


# --------------------------------------------------------------------------- exact AUROC
class _SortedRuns:
    """A multiset of floats kept as a few sorted runs with amortised merging.

    The logarithmic method (Bentley and Saxe, 1980): a new batch becomes a sorted run at
    the end; while the previous run is at most twice as long as the last, the two are
    merged. Run lengths thus shrink geometrically, so there are O(log n) runs; an element
    is merged O(log n) times (amortised O(log n) per insertion); counting the elements
    below a value is one binary search per run, O(log² n).
    """

    __slots__ = ("runs", "size")

    def __init__(self):
        self.runs: list[np.ndarray] = []
        self.size = 0

    def add(self, values: np.ndarray) -> None:
        if len(values) == 0:
            return
        runs = self.runs
        runs.append(np.sort(values))
        self.size += len(values)
        self._restore()

    def _restore(self) -> None:
        runs = self.runs
        while len(runs) > 1 and len(runs[-2]) <= 2 * len(runs[-1]):
            last = runs.pop()
            runs[-1] = np.sort(np.concatenate((runs[-1], last)), kind="stable")

    def add_one(self, value: float) -> None:
        self.runs.append(np.array([value]))
        self.size += 1
        self._restore()

    def rank_sum_one(self, x: float) -> int:
        """:meth:`rank_sum` of one value."""
        total = 0
        for run in self.runs:
            total += int(run.searchsorted(x, "left")) + int(run.searchsorted(x, "right"))
        return total

    def rank_sum(self, x: np.ndarray) -> np.ndarray:
        """For each ``x``: #(elements < x) + #(elements ≤ x), i.e. 2·below + equal."""
        out = np.zeros(len(x), dtype=np.int64)
        for run in self.runs:
            out += np.searchsorted(run, x, side="left")
            out += np.searchsorted(run, x, side="right")
        return out

    def values(self) -> np.ndarray:
        return np.concatenate(self.runs) if self.runs else np.zeros(0)


class ROCAUC(StreamingMetric):
    """Exact ROC AUC of every score seen so far, updated incrementally; ties count ½.

    The Mann-Whitney count :math:`U = \\#\\{s_+ > s_-\\} + \\tfrac12 \\#\\{s_+ = s_-\\}`
    changes, when a positive with score :math:`s` arrives, by the number of negatives below
    :math:`s` plus half those equal to it (and symmetrically for a negative), so
    :math:`\\mathrm{AUC}_t = U_t / (N_+ N_-)` needs one rank query per sample. Scores of
    each class are kept in an order-statistics structure of sorted runs with amortised
    merging: insertion is amortised O(log n), a query O(log² n). ``2U`` is an exact
    integer, so the value equals the batch AUC of the same scores (only the final division
    rounds) whatever the order or batching of the updates.

    ``get()`` is NaN until both classes have been seen. Memory: one float per sample.

    Parameters
    ----------
    pos_label : label, default=1

    Examples
    --------
    >>> from skewlearn.metrics import ROCAUC
    >>> m = ROCAUC()
    >>> for yt, s in [(0, 0.1), (1, 0.4), (0, 0.4), (1, 0.8)]:
    ...     _ = m.update(yt, s)
    >>> m.get()   # pairs: 0.4>0.1, 0.4=0.4 (1/2), 0.8>0.1, 0.8>0.4 -> 3.5/4
    0.875
    """

    requires_scores = True

    def __init__(self, pos_label=1):
        super().__init__(pos_label)
        self._pos = _SortedRuns()
        self._neg = _SortedRuns()
        self.u2 = 0  # 2 U, an exact integer

    @property
    def n_pos(self) -> int:
        """Positives seen."""
        return self._pos.size

    @property
    def n_neg(self) -> int:
        """Negatives seen."""
        return self._neg.size

    def update(self, y, value) -> ROCAUC:
        s = float(value)
        if s != s:
            raise ValueError(
                "y_score is NaN; a ranking metric needs comparable scores. Check the model output."
            )
        if _same_label(y, self.pos_label):
            self.u2 += self._neg.rank_sum_one(s)
            self._pos.add_one(s)
        else:
            self.u2 += 2 * self._pos.size - self._pos.rank_sum_one(s)
            self._neg.add_one(s)
        return self

    def update_many(self, y, values) -> ROCAUC:
        y, values = _paired(y, values, "y_score")
        scores = np.asarray(values, dtype=np.float64)
        if np.isnan(scores).any():
            raise ValueError(
                "y_score contains NaN; a ranking metric needs comparable scores. Check the "
                "model output."
            )
        is_pos = self._positive(y)
        self._absorb(scores[is_pos], scores[~is_pos], _pair_count2(is_pos, scores))
        return self

    def _absorb(self, pos: np.ndarray, neg: np.ndarray, within2: int) -> None:
        # new positive s: 2·#(old neg < s) + #(old neg = s) = left + right
        gain = int(self._neg.rank_sum(pos).sum())
        # new negative s: 2·#(old pos > s) + #(old pos = s) = 2 N+ − left − right
        gain += 2 * self._pos.size * len(neg) - int(self._pos.rank_sum(neg).sum())
        self.u2 += gain + within2
        self._pos.add(pos)
        self._neg.add(neg)

    def _merge(self, other: ROCAUC) -> None:
        self._absorb(other._pos.values(), other._neg.values(), other.u2)

    def get(self) -> float:
        if self._pos.size == 0 or self._neg.size == 0:
            return math.nan
        return self.u2 / (2.0 * self._pos.size * self._neg.size)
