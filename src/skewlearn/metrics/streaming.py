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
{-1, +1} convention); every other label is negative. Labels that can never equal it
(strings against a numeric ``pos_label``, numbers against a string one, and objects that
are neither, such as a dict of class probabilities) are refused with a ValueError, and so
are fractional numbers as labels (scores given in a label's place) unless ``pos_label`` is
one, and missing labels (None, NaN, ``pd.NA``). A learner's
predictions are labels too; the prequential evaluator passes ``±1``.

The values equal the batch metrics of :mod:`skewlearn.metrics.batch` on the samples seen,
where those are defined (the F-measure is 0 before the first true positive).

Ranking metrics (``requires_scores = True``): the exact :class:`ROCAUC` and :class:`PRAUC`
of every score seen (amortised O(log n) updates, compiled batch updates), their windowed
versions :class:`WindowedROCAUC` and :class:`WindowedPRAUC` over the last ``window`` scores
(exact after every update), and the approximate histogram metrics of
:mod:`skewlearn.metrics.histogram` (O(m) memory).
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np

from .._values import same_value, value_list
from ._exact import (
    MAX_RUNS,
    auroc_add_one,
    average_precision_sorted,
    rank_sum_sorted,
    runs_merge_all,
    runs_push,
    runs_rank_sum_sorted,
    runs_restore,
    window_batch,
    window_restart,
    window_sorted,
    window_step,
)
from .batch import (
    ConfusionCounts,
    _as_1d,
    _check_beta,
    _fbeta_from,
    _float_scores,
    _gmean_from,
    _is_missing,
    _score_array,
)

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = [
    "F1",
    "PRAUC",
    "ROCAUC",
    "Confusion",
    "FBeta",
    "GMean",
    "MistakeRate",
    "StreamingMetric",
    "WindowedPRAUC",
    "WindowedROCAUC",
]


class StreamingMetric:
    """Base of the streaming metrics (see the module docstring for the contract).

    Subclasses implement ``update_many``, ``get`` and ``_merge``.
    """

    #: True when ``update`` takes a score, False when it takes a predicted label.
    requires_scores: ClassVar[bool] = False

    def __init__(self, pos_label: Any = 1) -> None:
        self.pos_label = pos_label

    def update(self, y: ArrayLike, value: ArrayLike) -> Self:
        """Add one sample: true label ``y`` and its score or predicted label (a scalar,
        or an array or list of length 1)."""
        what = "score" if self.requires_scores else "predicted label"
        return self.update_many(np.asarray([_one(y, "label")]), np.asarray([_one(value, what)]))

    def update_many(self, y: ArrayLike, values: ArrayLike) -> Self:  # pragma: no cover - abstract
        raise NotImplementedError

    #: Whether scores float64 cannot tell apart (integers beyond 2**53) are refused: the
    #: exact metrics would count them as ties; a histogram bins them as it bins any score.
    _exact_scores: ClassVar[bool] = True

    def _one_scored(self, y, value) -> tuple[bool, float]:
        """``(is positive, score)`` of one sample of a ranking metric, checked as
        :meth:`update_many` checks a batch (the per-sample fast path of ``update``)."""
        if isinstance(value, float):  # the common case (np.float64 too), kept fast
            s = value
        elif self._exact_scores:
            s = float(_score_array(_one(value, "score"), "y_score", exact_ranks=False))
        else:
            s = float(_float_scores(_one(value, "score"), "y_score"))
        y = _one(y, "label")
        self._check_one(y, "y")
        if s != s:
            raise ValueError(
                "y_score is NaN; a ranking metric needs comparable scores. Check the model output."
            )
        return bool(same_value(y, self.pos_label)), s

    def get(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def merge(self, other: Self) -> Self:
        """Fold in ``other`` (same class and ``pos_label``), computed on other samples."""
        if type(other) is not type(self):
            raise TypeError(
                f"Cannot merge {type(other).__name__} into {type(self).__name__}; merge "
                "metrics of the same kind."
            )
        if not same_value(other.pos_label, self.pos_label):
            raise ValueError(
                f"Cannot merge metrics with different pos_label ({self.pos_label!r} and "
                f"{other.pos_label!r})."
            )
        self._merge(other)
        return self

    def _merge(self, other) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _positive(self, y, name: str = "y") -> np.ndarray:
        y = np.asarray(y)
        # (numpy 2's StringDType built with an na_object holds that object where missing)
        if y.dtype.kind == "O" or (y.dtype.kind == "T" and hasattr(y.dtype, "na_object")):
            missing = [v for v in y.ravel() if _is_missing(v)]
            if missing:
                raise ValueError(_missing_label(name, missing[0]))
        elif y.dtype.kind == "f" and np.isnan(y).any():  # NA of a pandas Int64 column
            raise ValueError(_missing_label(name, math.nan))
        pos_type = _label_type(self.pos_label)
        if pos_type is not None and y.size:  # an empty batch (a float64 [] to numpy) holds none
            found = _array_label_type(y)
            if found is None:
                other = _no_label_in(y)
                if other is not None:
                    raise ValueError(self._no_label(name, other))
                if y.dtype.kind == "O":  # numbers and text: the other type never matches
                    wrong = [v for v in y.ravel() if _label_type(v) != pos_type]
                    raise ValueError(_type_mismatch(name, dict.fromkeys(wrong), self.pos_label))
            elif found != pos_type and found is not None:
                raise ValueError(_type_mismatch(name, np.unique(y), self.pos_label))
        if y.dtype.kind in "fO" and _whole(self.pos_label):
            if y.dtype.kind == "f":
                fractional = y[np.mod(y, 1.0) != 0.0]  # NaN and inf too
            else:  # floats among objects (a pandas object column), as _check_one sees them
                fractional = [v for v in y.ravel() if _fractional(v)]
            if len(fractional):
                raise ValueError(self._not_labels(name, fractional))
        return np.asarray(y == self.pos_label, dtype=bool).reshape(y.shape)

    def _check_one(self, value, name: str) -> None:
        """Refuse one label that can never equal ``pos_label`` (a string against a number,
        or a number against a string) or that is no label at all (a fractional number),
        as :meth:`_positive` does for arrays."""
        if type(value) in _INTEGER_TYPES and type(self.pos_label) in _INTEGER_TYPES:
            return  # the common case, decided at once: two integers (or booleans)
        if value is None or (not isinstance(value, _SCALARS) and _is_missing(value)):
            raise ValueError(_missing_label(name, value))
        if isinstance(value, float | np.floating) and value != value:  # NaN: missing too
            raise ValueError(_missing_label(name, math.nan))
        pos_type = _label_type(self.pos_label)
        if pos_type is not None:
            found = _label_type(value)
            if found is None:
                raise ValueError(self._no_label(name, value))
            if found != pos_type:
                raise ValueError(_type_mismatch(name, [value], self.pos_label))
        if _fractional(value):
            if _whole(self.pos_label):
                raise ValueError(self._not_labels(name, [value]))

    def _no_label(self, name: str, value) -> str:
        """The message for an object that is neither a number nor text (a dict of class
        probabilities, a date, ...) where a label belongs: it can never equal a numeric or
        text ``pos_label``, so it would count as negative, silently."""
        what = type(value).__name__
        hint = ""
        if isinstance(value, dict) and name == "y_pred":
            hint = (
                " (class probabilities, as River's predict_proba_one returns: "
                f"{type(self).__name__} counts predicted labels, so pass predict_one's "
                "label, or wrap the metric in skewlearn.compat.river.RiverMetric)"
            )
        return (
            f"{name} holds {value!r}, a {what}{hint}; labels are numbers or text, and "
            f"this one can never equal pos_label={self.pos_label!r}, so it would count as "
            "negative. Pass the labels themselves."
        )

    def _not_labels(self, name: str, values) -> str:
        """The message for fractional numbers given as labels (scores in their place)."""
        shown = ", ".join(repr(float(v)) for v in list(values)[:3])
        cls = type(self).__name__
        if name == "y_pred":
            fix = (
                f"{cls} counts predicted labels: pass the model's predict(X), or use ROCAUC "
                "or PRAUC for decision values"
            )
        else:
            second = "scores" if self.requires_scores else "predicted labels"
            fix = f"{cls}.update and update_many take the true label y first, then the {second}"
        return (
            f"{name} holds values that are not labels ({shown}{', ...' if len(values) > 3 else ''}"
            f"; pos_label={self.pos_label!r}). {fix}."
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}: {self.get():.6g}"


def _label_type(value) -> str | None:
    """``"text"`` for a string (or bytes), ``"number"`` for a number or boolean, else None."""
    if isinstance(value, str | bytes):
        return "text"
    if isinstance(value, numbers.Number | np.bool_):
        return "number"
    return None


def _array_label_type(arr: np.ndarray) -> str | None:
    """:func:`_label_type` shared by every element of ``arr``, else None."""
    kind = arr.dtype.kind
    if kind in "UST":  # T: numpy 2's StringDType
        return "text"
    if kind in "biufc":
        return "number"
    if kind == "O" and arr.size:
        types = {_label_type(v) for v in arr.ravel()}
        if len(types) == 1:
            return types.pop()
    return None


def _no_label_in(arr: np.ndarray):
    """The first element of ``arr`` that is neither a number nor text, else None (an array
    of dates or times is reported by its first element)."""
    kind = arr.dtype.kind
    if kind in "mMV":
        return arr.ravel()[0]
    if kind == "O":
        return next((v for v in arr.ravel() if _label_type(v) is None), None)
    return None


def _type_mismatch(name: str, labels, pos_label) -> str:
    """The message for labels of ``name`` that can never equal ``pos_label``."""
    labels = list(labels)
    shown = value_list(labels, 6)
    held = "strings" if _label_type(pos_label) == "number" else "numbers"
    pos_is = "a number" if held == "strings" else "a string"
    return (
        f"{name} holds {held} but pos_label={pos_label!r} is {pos_is}, so no such label would "
        "ever equal it and every sample holding one would count as negative. Pass "
        "pos_label=<the positive label> when building the metric, and labels of one type "
        f"(labels here: {shown})."
    )


def _missing_label(name: str, value) -> str:
    """The message for a missing label (None, ``pd.NA``): it is no class, so it must not
    count as a negative sample (the batch metrics refuse it too)."""
    return (
        f"{name} holds a missing label ({value!r}); a metric needs a label for every sample. "
        "Leave such samples out (from both arguments), or fill the labels in."
    )


def _whole(label) -> bool:
    """Whether ``label`` is a whole number (labels of a float dtype are then checked to be
    whole too: a fractional one is a score given in a label's place)."""
    return isinstance(label, numbers.Real | np.bool_) and float(label).is_integer()


def _fractional(value) -> bool:
    """Whether one value is a float that is not a whole number (NaN and inf included): a
    score given in a label's place."""
    return isinstance(value, float | np.floating) and not float(value).is_integer()


#: Label types that are always valid against a ``pos_label`` of these types: whole numbers,
#: never missing (:meth:`StreamingMetric._check_one`'s fast path).
_INTEGER_TYPES = frozenset({int, bool, np.int64, np.int32, np.bool_})

#: Types ``_one`` passes through without numpy (a per-row ``update`` must stay cheap).
_SCALARS = (int, float, str, bytes, np.generic)


def _one(value, what: str):
    """One sample's ``value``, also from a length-1 array or list (e.g. the output of
    ``decision_function(X[i:i + 1])``); several values are an error, not a silent miss."""
    if isinstance(value, _SCALARS):
        return value
    if np.ndim(value) == 0:  # a 0-d array gives its element, as a length-1 one does
        return value[()] if isinstance(value, np.ndarray) else value
    arr = np.asarray(value).reshape(-1)
    if arr.size != 1:
        raise ValueError(
            f"update takes one {what}; got {arr.size} values. Use update_many for a batch."
        )
    return arr[0]


def _paired(y, values, name: str) -> tuple[np.ndarray, np.ndarray]:
    # one label or score per sample, as the batch metrics take them (a row or column
    # vector too); two columns (predict_proba, one-hot labels) are refused, not flattened
    y = _as_1d(y, "y")
    values = _as_1d(values, name)
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
        The positive class; every other label is negative (``1`` also matches ``True``).

    Examples
    --------
    >>> from skewlearn.metrics import Confusion
    >>> m = Confusion()
    >>> for yt, yp in [(1, 1), (0, 1), (0, 0), (1, 0)]:
    ...     _ = m.update(yt, yp)
    >>> m.get()
    ConfusionCounts(tp=1, fp=1, tn=1, fn=1)
    """

    def __init__(self, pos_label: Any = 1) -> None:
        super().__init__(pos_label)
        self.tp = self.fp = self.tn = self.fn = 0

    def update(self, y: ArrayLike, value: ArrayLike) -> Self:
        y = _one(y, "label")
        value = _one(value, "predicted label")
        self._check_one(y, "y")
        self._check_one(value, "y_pred")
        t = same_value(y, self.pos_label)
        p = same_value(value, self.pos_label)
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

    def update_many(self, y: ArrayLike, values: ArrayLike) -> Self:
        y, values = _paired(y, values, "y_pred")
        t = self._positive(y)
        p = self._positive(values, "y_pred")
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
        The positive class; every other label is negative (``1`` also matches ``True``).

    Examples
    --------
    >>> from skewlearn.metrics import FBeta
    >>> FBeta(beta=2.0).update_many([1, 1, 0, 0], [1, 0, 1, 0]).get()
    0.5
    """

    def __init__(self, beta: float = 1.0, pos_label: Any = 1) -> None:
        _check_beta(beta)
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

    def __init__(self, pos_label: Any = 1) -> None:
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
#: Bound of the number of runs of a :class:`_SortedRuns` (at most log2(size) + 1).
MAX_SORTED_RUNS = 66


class _SortedRuns:
    """A multiset of floats kept as a few sorted runs with amortised merging.

    The logarithmic method (Bentley and Saxe, 1980): a new batch becomes a sorted run at
    the end; while the previous run is at most twice as long as the last, the two are
    merged (a compiled linear merge). Run lengths thus shrink geometrically, so there are
    O(log n) runs; an element is merged O(log n) times (amortised O(log n) per insertion);
    counting the elements below a value is one binary search per run, O(log² n), and for
    a sorted batch of b values one galloping walk per run, O(b log(n/b)) per run.

    The runs lie one after another in one buffer (``buf``, grown by doubling), with their
    starts in ``bounds`` and ``state = [n_runs, size]``, so that adding one value and
    counting below one value are each a single compiled call
    (:func:`~skewlearn.metrics._exact.runs_push`, ``auroc_add_one``) rather than a Python loop
    over the runs (~25 µs per value at 100,000 values; ~1 µs now).
    """

    __slots__ = ("bounds", "buf", "state")

    def __init__(self):
        self.buf = np.empty(16, dtype=np.float64)
        self.bounds = np.zeros(MAX_SORTED_RUNS, dtype=np.int64)
        self.state = np.zeros(2, dtype=np.int64)  # [n_runs, size]

    @property
    def size(self) -> int:
        return int(self.state[1])

    @property
    def runs(self) -> list[np.ndarray]:
        """The sorted runs, as views of the buffer (valid until the next change)."""
        k, n = int(self.state[0]), int(self.state[1])
        if k == 0:
            return []
        ends = [*self.bounds[1:k].tolist(), n]
        return [self.buf[a:e] for a, e in zip(self.bounds[:k].tolist(), ends, strict=True)]

    def reserve(self, extra: int) -> None:
        """Room for ``extra`` more values (the buffer at least doubles when it grows)."""
        n = int(self.state[1])
        if n + extra > len(self.buf):
            grown = np.empty(max(2 * len(self.buf), n + extra), dtype=np.float64)
            grown[:n] = self.buf[:n]
            self.buf = grown

    def add_sorted(self, values: np.ndarray) -> None:
        """Add an ascending array (copied)."""
        k = len(values)
        if k == 0:
            return
        self.reserve(k)
        n = int(self.state[1])
        self.buf[n : n + k] = values
        self.bounds[self.state[0]] = n
        self.state[0] += 1
        self.state[1] = n + k
        runs_restore(self.buf, self.bounds, self.state)

    def rank_sum_sorted(self, q: np.ndarray) -> int:
        """Σ over an ascending ``q`` of #(elements < q_i) + #(elements ≤ q_i) (2·below +
        equal), in one compiled call over the runs (a Python loop over them, with a view
        and a compiled call per run, was a third of a 10-row ``ROCAUC.update_many``)."""
        if len(q) == 0:
            return 0
        return int(runs_rank_sum_sorted(self.buf, self.bounds, self.state, q))

    def sorted_values(self) -> np.ndarray:
        """All elements, ascending (a view of the buffer, valid until the next change);
        the runs are merged into one (later calls are free)."""
        runs_merge_all(self.buf, self.bounds, self.state)
        return self.buf[: self.state[1]]

    def add_one(self, value: float) -> None:
        self.reserve(1)
        runs_push(self.buf, self.bounds, self.state, value)

    def __getstate__(self) -> dict:
        n = int(self.state[1])  # the used part only
        return {
            "buf": self.buf[:n].copy(),
            "bounds": self.bounds.copy(),
            "state": self.state.copy(),
        }

    def __setstate__(self, state) -> None:
        if isinstance(state, tuple):  # pickled before session 15: (None, {"runs", "size"})
            runs = state[1]["runs"]
            lengths = [len(r) for r in runs]
            self.buf = np.concatenate(runs) if runs else np.empty(16)
            self.bounds = np.zeros(MAX_SORTED_RUNS, dtype=np.int64)
            self.bounds[: len(runs)] = np.cumsum([0, *lengths[:-1]]) if runs else []
            self.state = np.array([len(runs), sum(lengths)], dtype=np.int64)
            return
        self.buf = state["buf"] if len(state["buf"]) else np.empty(16)
        self.bounds, self.state = state["bounds"], state["state"]


def _checked_scores(y, values, metric) -> tuple[np.ndarray, np.ndarray]:
    """``(is_pos, scores)`` of a batch; NaN scores raise."""
    y, values = _paired(y, values, "y_score")
    scores = _score_array(values, "y_score", exact_ranks=False)
    if np.isnan(scores).any():
        raise ValueError(
            "y_score contains NaN; a ranking metric needs comparable scores. Check the "
            "model output."
        )
    return metric._positive(y), scores


class ROCAUC(StreamingMetric):
    """Exact ROC AUC of every score seen so far, updated incrementally; ties count ½.

    The Mann-Whitney count :math:`U = \\#\\{s_+ > s_-\\} + \\tfrac12 \\#\\{s_+ = s_-\\}`
    changes, when a positive with score :math:`s` arrives, by the number of negatives below
    :math:`s` plus half those equal to it (and symmetrically for a negative), so
    :math:`\\mathrm{AUC}_t = U_t / (N_+ N_-)` needs one rank query per sample. Scores of
    each class are kept in an order-statistics structure of sorted runs with amortised
    merging: insertion is amortised O(log n), a query O(log² n). ``update_many`` sorts
    the batch's scores of each class and counts, in compiled code, its pairs within the
    batch and against each run by one galloping walk, O(b log b + b log(n/b) log n) for a
    batch of b. ``2U`` is an exact integer, so the value equals the batch AUC of the same
    scores (only the final division rounds) whatever the order or batching of the
    updates, and two metrics merge exactly.

    ``get()`` is NaN until both classes have been seen. Memory: one float per sample.

    Parameters
    ----------
    pos_label : label, default=1
        The positive class; every other label is negative (``1`` also matches ``True``).

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

    def __init__(self, pos_label: Any = 1) -> None:
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

    def update(self, y: ArrayLike, value: ArrayLike) -> Self:
        positive, s = self._one_scored(y, value)
        own, other = (self._pos, self._neg) if positive else (self._neg, self._pos)
        if own.state[1] == len(own.buf):
            own.reserve(1)
        self.u2 += int(auroc_add_one(own.buf, own.bounds, own.state, other.buf, other.bounds,
                                     other.state, s, positive))  # fmt: skip
        return self

    def update_many(self, y: ArrayLike, values: ArrayLike) -> Self:
        is_pos, scores = _checked_scores(y, values, self)
        pos = np.sort(scores[is_pos])
        neg = np.sort(scores[~is_pos])
        self._absorb(pos, neg, int(rank_sum_sorted(neg, pos)) if len(pos) else 0)
        return self

    def _absorb(self, pos: np.ndarray, neg: np.ndarray, within2: int) -> None:
        """Add ascending class arrays whose own 2U is ``within2``."""
        # new positive s: 2·#(old neg < s) + #(old neg = s) = left + right
        gain = self._neg.rank_sum_sorted(pos)
        # new negative s: 2·#(old pos > s) + #(old pos = s) = 2 N+ − left − right
        gain += 2 * self._pos.size * len(neg) - self._pos.rank_sum_sorted(neg)
        self.u2 += gain + within2
        self._pos.add_sorted(pos)
        self._neg.add_sorted(neg)

    def _merge(self, other: ROCAUC) -> None:
        self._absorb(other._pos.sorted_values(), other._neg.sorted_values(), other.u2)

    def get(self) -> float:
        if self._pos.size == 0 or self._neg.size == 0:
            return math.nan
        return self.u2 / (2.0 * self._pos.size * self._neg.size)


# --------------------------------------------------------------------------- exact AUPRC
class PRAUC(StreamingMetric):
    """Exact area under the precision-recall curve (average precision) of every score seen
    so far.

    With thresholds at the distinct scores from the highest down, precision :math:`P_k`
    and recall :math:`R_k`,

    .. math::

        \\mathrm{AP} = \\sum_k (R_k - R_{k-1})\\, P_k,

    scikit-learn's ``average_precision_score`` (and
    :func:`~skewlearn.metrics.pr_auc`). The scores of each class are kept in the same
    order-statistics structure as :class:`ROCAUC`: ``update_many`` is amortised
    O(log n) per sample. ``get()`` merges the runs into one sorted array per class and walks
    the distinct scores once, O(n) (then O(1) amortised per later sample until the next
    merge); unlike AUROC no O(log n) rule for the area itself exists — one new negative
    above every positive changes every precision. The counts are exact integers, so the
    value equals the batch AP up to the rounding of the final sum, whatever the order or
    batching of the updates; two metrics merge exactly.

    ``get()`` is NaN before the first positive. Memory: one float per sample.

    Parameters
    ----------
    pos_label : label, default=1
        The positive class; every other label is negative (``1`` also matches ``True``).

    Examples
    --------
    >>> from skewlearn.metrics import PRAUC
    >>> m = PRAUC()
    >>> for yt, s in [(0, 0.1), (1, 0.5), (1, 0.5), (0, 0.9)]:
    ...     _ = m.update(yt, s)
    >>> m.get()   # thresholds 0.9: R 0, P 0; 0.5: R 1, P 2/3
    0.6666666666666666
    """

    requires_scores = True

    def __init__(self, pos_label: Any = 1) -> None:
        super().__init__(pos_label)
        self._pos = _SortedRuns()
        self._neg = _SortedRuns()

    @property
    def n_pos(self) -> int:
        """Positives seen."""
        return self._pos.size

    @property
    def n_neg(self) -> int:
        """Negatives seen."""
        return self._neg.size

    def update(self, y: ArrayLike, value: ArrayLike) -> Self:
        positive, s = self._one_scored(y, value)
        (self._pos if positive else self._neg).add_one(s)
        return self

    def update_many(self, y: ArrayLike, values: ArrayLike) -> Self:
        is_pos, scores = _checked_scores(y, values, self)
        self._pos.add_sorted(np.sort(scores[is_pos]))
        self._neg.add_sorted(np.sort(scores[~is_pos]))
        return self

    def _merge(self, other: PRAUC) -> None:
        self._pos.add_sorted(other._pos.sorted_values())
        self._neg.add_sorted(other._neg.sorted_values())

    def get(self) -> float:
        pos = self._pos.sorted_values()
        neg = self._neg.sorted_values()
        return float(average_precision_sorted(pos, len(pos), neg, len(neg)))


# --------------------------------------------------------------------------- windows
#: Bytes a window keeps per score: the ring's score (8) and label (1), both classes' old
#: values, counts and Fenwick entries (3 × 16), the new values (16) and scratch (8).
_WINDOW_BYTES = 81


class _Window(StreamingMetric):
    """The last ``window`` (label, score) pairs: a ring buffer, the window's scores of each
    class in an epoch structure (old values that can leave, new ones that arrived since;
    see :mod:`._exact`), and 2U of the window."""

    requires_scores: ClassVar[bool] = True

    def __init__(self, window: int = 1000, pos_label: Any = 1) -> None:
        if isinstance(window, bool) or not isinstance(window, (int, np.integer)) or window < 1:
            raise ValueError(f"window must be an integer >= 1; got {window!r}.")
        super().__init__(pos_label)
        W = self.window = int(window)
        self._warn_large(W)
        self._ring_s = np.zeros(W)
        self._ring_p = np.zeros(W, dtype=np.bool_)
        self._state = np.zeros(5, dtype=np.int64)  # head, count, n_pos, n_neg, arrivals
        self._old_val = np.zeros((2, W))
        self._old_cnt = np.zeros((2, W), dtype=np.int64)
        self._old_fen = np.zeros((2, W + 1), dtype=np.int64)
        self._old_nu = np.zeros(2, dtype=np.int64)
        self._dyn = np.zeros((2, W))
        self._runs = np.zeros((2, MAX_RUNS), dtype=np.int64)
        self._n_runs = np.zeros(2, dtype=np.int64)
        self._dyn_n = np.zeros(2, dtype=np.int64)
        self._scratch = np.zeros(W)
        self._u2 = np.zeros(1, dtype=np.int64)

    def _restart(self) -> None:
        window_restart(self._ring_s, self._ring_p, self._state, self._old_val, self._old_cnt,
                       self._old_fen, self._old_nu, self._dyn_n, self._n_runs)  # fmt: skip

    def _warn_large(self, W: int) -> None:
        """Warn (``RuntimeWarning``) when the window's arrays (:data:`_WINDOW_BYTES` a score) pass
        :data:`skewlearn.base.LARGE_STATE` (1 GiB) once full: ``window=10**9``, meant as
        "the whole stream", asked for 75 GiB without a word (the pages are taken as the
        window fills, so the end was an out-of-memory kill, not an error)."""
        from ..base import LARGE_STATE, user_stacklevel

        size = _WINDOW_BYTES * W
        if size > LARGE_STATE:
            name = type(self).__name__
            whole = name.removeprefix("Windowed")
            warnings.warn(
                f"{name}(window={W:,}) keeps {_WINDOW_BYTES} bytes a score, "
                f"{size / 2**30:.1f} GiB once the window is full. For the measure of the "
                f"whole stream use {whole} (exact, memory grows with the scores seen); "
                f"window <= {LARGE_STATE // _WINDOW_BYTES:,} keeps a window under 1 GiB.",
                RuntimeWarning,
                stacklevel=user_stacklevel(),
            )

    def update(self, y: ArrayLike, value: ArrayLike) -> Self:
        positive, s = self._one_scored(y, value)
        if self.window < 4:  # a batch of one is a quarter of the window: the batch path
            return self._update_mask(np.array([positive]), np.array([s]))
        window_step(self._ring_s, self._ring_p, self._state, self._old_val, self._old_cnt,
                    self._old_fen, self._old_nu, self._dyn, self._runs, self._n_runs,
                    self._dyn_n, self._scratch, self._u2, np.array([s]),
                    np.array([positive]))  # fmt: skip
        return self

    def update_many(self, y: ArrayLike, values: ArrayLike) -> Self:
        is_pos, scores = _checked_scores(y, values, self)
        return self._update_mask(is_pos, scores)

    def _update_mask(self, is_pos: np.ndarray, scores: np.ndarray):
        """:meth:`update_many` on checked input: ``is_pos`` (bool) and float scores."""
        if len(scores) == 0:
            return self
        if len(scores) > self.window:
            # only the batch's last `window` samples stay; the others enter and leave
            # without a get() in between, so they are skipped
            is_pos, scores = is_pos[-self.window :], scores[-self.window :]
            self._state[:] = 0
            self._u2[0] = 0
        scores = np.ascontiguousarray(scores)
        is_pos = np.ascontiguousarray(is_pos)
        if 4 * len(scores) >= self.window:
            window_batch(self._ring_s, self._ring_p, self._state, self._u2, scores, is_pos)
            self._restart()
        else:
            window_step(self._ring_s, self._ring_p, self._state, self._old_val, self._old_cnt,
                        self._old_fen, self._old_nu, self._dyn, self._runs, self._n_runs,
                        self._dyn_n, self._scratch, self._u2, scores, is_pos)  # fmt: skip
        return self

    def _sorted(self, c: int) -> np.ndarray:
        return window_sorted(self._old_val, self._old_cnt, self._old_nu, self._dyn, self._runs,
                             self._n_runs, self._dyn_n, c)  # fmt: skip

    @property
    def n_pos(self) -> int:
        """Positives in the window."""
        return int(self._state[2])

    @property
    def n_neg(self) -> int:
        """Negatives in the window."""
        return int(self._state[3])

    def values(self) -> tuple[np.ndarray, np.ndarray]:
        """The window's labels (True = positive) and scores, oldest first."""
        head, count = int(self._state[0]), int(self._state[1])
        order = np.arange(head - count, head) % self.window
        return self._ring_p[order].copy(), self._ring_s[order].copy()

    def _merge(self, other) -> None:
        if other.window != self.window:
            raise ValueError(
                f"Cannot merge a window of {other.window} into a window of {self.window}; "
                "build both metrics with the same window."
            )
        # the window of the concatenated stream (self first, then other) is the last
        # `window` samples of both
        is_pos, scores = other.values()
        self._update_mask(is_pos, scores)  # masks, not labels: any pos_label type


class WindowedROCAUC(_Window):
    """Exact ROC AUC of the last ``window`` scores, updated incrementally; ties count ½.

    A sample entering the window changes :math:`2U` by the pairs it forms with the
    window's other class (as in :class:`ROCAUC`), and the oldest sample leaving it
    removes its pairs the same way, so each step is two rank queries on the window's
    sorted class arrays (O(log W)) and two block moves of at most W values (a sorted
    insertion and deletion). Batches of at least ``window / 4`` samples instead run
    through Fenwick trees over the ranks of the window's and the batch's values,
    O((W + b) log(W + b)) per batch, i.e. O(log W) per sample. ``2U`` is an exact
    integer: after every update the value equals the batch AUC of the window's scores.

    ``get()`` is NaN while the window lacks a class. Memory: 81 bytes a score of the window
    (a ``RuntimeWarning`` when that passes 1 GiB).

    Parameters
    ----------
    window : int, default=1000
        ``W``, the number of most recent samples, >= 1.
    pos_label : label, default=1
        The positive class; every other label is negative (``1`` also matches ``True``).

    Examples
    --------
    >>> from skewlearn.metrics import WindowedROCAUC
    >>> m = WindowedROCAUC(window=3)
    >>> _ = m.update_many([1, 0, 0, 1], [0.9, 0.8, 0.1, 0.05])
    >>> m.get()   # window: (0, 0.8), (0, 0.1), (1, 0.05) -> the positive beats nobody
    0.0
    """

    def get(self) -> float:
        n_pos, n_neg = self.n_pos, self.n_neg
        if n_pos == 0 or n_neg == 0:
            return math.nan
        return int(self._u2[0]) / (2.0 * n_pos * n_neg)


class WindowedPRAUC(_Window):
    """Exact average precision (:class:`PRAUC`) of the last ``window`` scores.

    The window's scores of each class are kept sorted under insertion and deletion
    exactly as in :class:`WindowedROCAUC` (O(log W) searches and a block move per sample,
    or Fenwick trees for batches of at least ``window / 4``); ``get()`` walks the two
    sorted arrays once, O(W). After every update the value equals scikit-learn's
    ``average_precision_score`` of the window. NaN while the window has no positive.

    Parameters
    ----------
    window : int, default=1000
        ``W``, >= 1.
    pos_label : label, default=1
        The positive class; every other label is negative (``1`` also matches ``True``).

    Examples
    --------
    >>> from skewlearn.metrics import WindowedPRAUC
    >>> m = WindowedPRAUC(window=3)
    >>> _ = m.update_many([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> round(m.get(), 4)   # window (0, .8), (1, .7), (0, .1): one positive, below a negative
    0.5
    """

    def get(self) -> float:
        pos, neg = self._sorted(1), self._sorted(0)
        return float(average_precision_sorted(pos, len(pos), neg, len(neg)))
