"""Prequential (test-then-train) evaluation of online learners.

Every sample is first predicted by the model that has seen the samples before it, then
learned from. The learner does both in one compiled pass per chunk
(``estimator.test_then_train``); this module only cuts the stream into chunks, feeds the
pre-update scores to streaming metrics and records them at checkpoints.

Results do not depend on ``chunk_size``: the learner's state after a chunk is the same
however the stream was cut (the partial_fit-in-pieces contract), and the metrics are exact
(integer counts), so every value except the timings is bit-identical.
"""

from __future__ import annotations

import math
import numbers
import sys
import time
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_array, column_or_1d

from .._values import plain, value_list
from ..base import _text_in_x_hint, _unique_labels, decision_cut
from ..metrics.batch import _check_labels
from ..metrics.streaming import F1, ROCAUC, Confusion, GMean, StreamingMetric

if TYPE_CHECKING:
    import pandas as pd

    from .._typing import ArrayLike, Chunks, MatrixLike, SupportsTestThenTrain

__all__ = ["PrequentialResult", "prequential"]

#: Columns of a checkpoint row that come from timing (they vary between runs).
TIMING_COLUMNS = ("seconds", "rows_per_s")


@dataclass
class PrequentialResult:
    """What :func:`prequential` measured.

    Attributes
    ----------
    estimator : str
        Class name of the learner.
    checkpoints : list of dict
        One row per checkpoint, in stream order: ``rows`` (samples seen), ``mistakes``,
        ``mistake_rate``, ``auc``, ``f1``, ``gmean`` (and any extra metric), all of the
        pre-update predictions so far, then ``seconds`` (time spent learning, metrics
        excluded) and ``rows_per_s`` (``rows / seconds``). The last row is at the end of
        the stream.
    scores : ndarray of shape (n_rows,)
        Every pre-update score in stream order, with the sign convention of
        ``decision_function`` (positive votes for ``classes_[1]``).
    pos_label : label
        The class counted as positive by the label metrics.
    rows_seen : int
        Samples in the stream (also when the scores were not kept).
    """

    estimator: str
    checkpoints: list[dict[str, Any]]
    scores: np.ndarray = field(repr=False)
    pos_label: Any = None
    rows_seen: int = -1

    @property
    def final(self) -> dict[str, Any]:
        """The values at the end of the stream (the last checkpoint)."""
        return dict(self.checkpoints[-1]) if self.checkpoints else {}

    @property
    def n_rows(self) -> int:
        """Samples in the stream."""
        return self.rows_seen if self.rows_seen >= 0 else len(self.scores)

    def to_dict(self) -> dict[str, Any]:
        """Plain dictionary of Python values (scores left out). An undefined metric (AUC
        before both classes have been seen) stays NaN, so the values still compute;
        Python's ``json.dumps`` writes it as ``NaN``, which is not JSON (jq and
        JavaScript reject it): :meth:`to_json` writes standard JSON."""
        pos = plain(self.pos_label)
        return {
            "estimator": self.estimator,
            "n_rows": self.n_rows,
            "pos_label": pos,
            "checkpoints": [dict(row) for row in self.checkpoints],
            "final": self.final,
        }

    def to_json(self, **kwargs: Any) -> str:
        """:meth:`to_dict` as standard JSON: an undefined (NaN) or infinite value is
        ``null``. ``kwargs`` go to :func:`json.dumps` (e.g. ``indent=2``)."""
        from .._json import dumps

        return dumps(self.to_dict(), **kwargs)

    def to_frame(self) -> pd.DataFrame:
        """Checkpoints as a :class:`pandas.DataFrame` (one row per checkpoint)."""
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - pandas is a test dependency
            raise ImportError(
                "to_frame needs pandas; install it (pip install pandas) or use as_table() "
                "or to_dict()."
            ) from exc
        return pd.DataFrame(self.checkpoints)

    def as_table(self) -> str:
        """Checkpoints as an aligned text table."""
        return format_table(self.checkpoints)

    def __str__(self) -> str:
        return f"Prequential evaluation of {self.estimator}\n{self.as_table()}"


def _fmt(value) -> str:
    if isinstance(value, bool | np.bool_):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isnan(v):
            return "nan"
        if abs(v) >= 1000:
            return f"{v:,.0f}"
        return f"{v:.4f}"
    return str(value)


def format_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    """Format dictionaries as an aligned text table (numbers right-aligned).

    Parameters
    ----------
    rows : sequence of mapping
    columns : sequence of str, default=None
        Columns to show, in order; default: the keys of the first row.

    Returns
    -------
    str
    """
    if not rows:
        return "(no rows)"
    columns = list(columns if columns is not None else rows[0].keys())
    cells = [[_fmt(row.get(c, "")) for c in columns] for row in rows]
    numeric = [
        all(isinstance(row.get(c), numbers.Number) for row in rows if c in row) for c in columns
    ]
    widths = [max(len(c), *(len(r[j]) for r in cells)) for j, c in enumerate(columns)]

    def line(values):
        return "  ".join(
            v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)
        ).rstrip()

    out = [line(columns), line(["-" * w for w in widths])]
    out.extend(line(r) for r in cells)
    return "\n".join(out)


# --------------------------------------------------------------------------- stream input
def _array_chunks(X, y, chunk_size: int) -> Iterator[tuple[Any, np.ndarray]]:
    for lo in range(0, len(y), chunk_size):
        yield X[lo : lo + chunk_size], y[lo : lo + chunk_size]


def _checkpoint_rows(checkpoints, n: int | None) -> list[int] | None:
    """Row counts at which to record; None = at the end of every incoming chunk."""
    if isinstance(checkpoints, numbers.Integral) and not isinstance(checkpoints, bool):
        k = int(checkpoints)
        if k < 1:
            raise ValueError(
                f"checkpoints must be a positive number of checkpoints or a list of row "
                f"counts; got {checkpoints!r}."
            )
        if n is None:
            return None
        return sorted({max(1, math.ceil(n * j / k)) for j in range(1, k + 1)})
    try:
        rows = [int(c) for c in checkpoints]
    except (TypeError, ValueError) as exc:
        raise TypeError(
            "checkpoints must be an int (how many, evenly spaced) or a sequence of row "
            f"counts; got {checkpoints!r}."
        ) from exc
    if any(r < 1 for r in rows):
        raise ValueError(f"checkpoints must be row counts >= 1; got {sorted(rows)}.")
    if n is not None and any(r > n for r in rows):
        raise ValueError(_beyond_message(sorted({r for r in rows if r > n}), n))
    return sorted(set(rows))


def _beyond_message(rows: list[int], n: int) -> str:
    return (
        f"checkpoints {rows} lie beyond the stream's {n} rows, so they would never be "
        "reported (the end of the stream always is). Give row counts up to the length."
    )


def _two_classes(classes: np.ndarray, where: str) -> np.ndarray:
    """``classes``, the labels found in ``where`` (y, or the first chunk) when the caller
    gave none, if they are two; otherwise an error naming ``where``: the learner's would
    name a ``classes`` argument the user never wrote (and, for three, a wrapper without
    ``test_then_train``)."""
    if len(classes) == 1:
        raise ValueError(
            f"{where} holds one class ({classes.tolist()}), so the learner cannot know the "
            "other; pass prequential(..., classes=[negative, positive])."
        )
    if len(classes) > 2:
        raise ValueError(
            f"{where} has {len(classes)} classes ({value_list(classes, most=10)}), and prequential "
            "runs a binary learner. Map the labels to two classes first (e.g. the "
            "minority class against the rest)."
        )
    return classes


def prequential(
    estimator: SupportsTestThenTrain,
    X: MatrixLike | Chunks,
    y: ArrayLike | None = None,
    *,
    chunk_size: int = 1000,
    checkpoints: int | Sequence[int] = 10,
    classes: ArrayLike | None = None,
    progress: bool = False,
    metrics: Mapping[str, StreamingMetric] | None = None,
    keep_scores: bool = True,
    auc_bins: int | None = None,
) -> PrequentialResult:
    """Run ``estimator`` test-then-train over a stream and measure it as it goes.

    For each chunk the learner scores every row with the model of the rows before it,
    then learns from it, in one compiled pass (``estimator.test_then_train``). The
    prediction of a row is its ``pos_label`` when the score of ``pos_label`` is above the
    learner's ``threshold`` (0 if it has none), as in its ``predict``.

    Parameters
    ----------
    estimator : online skewlearn classifier
        Anything with ``test_then_train(X, y, classes=None)``. It learns in place: pass
        ``sklearn.base.clone(estimator)`` for a fresh copy. A fitted learner continues.
    X : {array-like, sparse matrix} of shape (n_rows, n_features), or iterable
        The stream in order. Or, with ``y=None``, an iterable of ``(X_chunk, y_chunk)``
        pairs, e.g. :func:`skewlearn.datasets.iter_chunks` reading a file from disk in
        bounded memory; such chunks are used as they come. An iterable with an ``n_rows``
        attribute (not None) gets evenly spaced checkpoints, and its ``classes``
        attribute is used when ``classes`` is not given.
    y : array-like of shape (n_rows,), default=None
        Labels (any two values). None when ``X`` is an iterable of chunks.
    chunk_size : int, default=1000
        Rows per compiled pass for array input (>= 1). Does not change any result.
    checkpoints : int or sequence of int, default=10
        An int ``k``: ``k`` checkpoints evenly spaced over the stream (for an iterable of
        chunks, whose length is unknown, one at the end of every chunk). A sequence: the row
        counts to report at, at most the stream's length (larger ones are refused, or for
        chunks of unknown length named in a warning). The end of the stream is always
        reported.
    classes : array-like of shape (2,), default=None
        Both labels, passed on the first call. For array input the default is the labels
        of ``y``; an iterable's first chunk must then hold both, or pass them.
    progress : bool, default=False
        Show a tqdm progress bar on stderr.
    metrics : mapping of str to StreamingMetric, default=None
        Extra metrics to report beside the default ones, each updated in place (pass
        fresh ones: a metric that saw another stream keeps its counts). They receive labels ±1
        (+1 = the estimator's ``pos_label_``) and the score of the positive class (or
        the predicted ±1 label when ``requires_scores`` is False).
    keep_scores : bool, default=True
        Keep every pre-update score in the result (8 bytes a row). False for streams
        too long to hold: ``scores`` is then empty and ``n_rows`` still counts the rows.
    auc_bins : int, default=None
        None: the ``auc`` column is the exact ROC AUC (:class:`~skewlearn.metrics.ROCAUC`,
        8 bytes a row). An int ``m``: the histogram AUROC of ``m`` bins
        (:class:`~skewlearn.metrics.HistogramROCAUC`), O(m) memory whatever the stream's
        length, within its ``bin_error()`` of the exact value.

    Returns
    -------
    PrequentialResult
        Checkpoint rows with ``rows``, ``mistakes``, ``mistake_rate``, ``auc``, ``f1``,
        ``gmean`` (of every pre-update prediction so far; NaN while undefined), learning
        ``seconds`` and ``rows_per_s``; plus every score.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import PassiveAggressive
    >>> from skewlearn.evaluation import prequential
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(2000, 5))
    >>> y = (X[:, 0] + 0.3 * rng.normal(size=2000) > 1.3).astype(int)   # ~10% positives
    >>> res = prequential(PassiveAggressive(C=0.1), X, y, chunk_size=500, checkpoints=4)
    >>> [row["rows"] for row in res.checkpoints]
    [500, 1000, 1500, 2000]
    >>> res.final["auc"] > 0.9
    True
    """
    is_class = isinstance(estimator, type)
    if is_class and hasattr(estimator, "test_then_train"):
        raise TypeError(
            f"estimator is the class {estimator.__name__}, not an instance of it; pass an "
            f"instance, e.g. prequential({estimator.__name__}(), X, y)."
        )
    if not hasattr(estimator, "test_then_train"):
        name = estimator.__name__ if is_class else type(estimator).__name__
        if hasattr(estimator, "learn_one"):  # before "steps": a River pipeline has them too
            why = (
                f"an online skewlearn learner; {name} is a River model, which River's own "
                "evaluate.progressive_val_score evaluates row by row."
            )
        elif hasattr(estimator, "steps"):
            why = (
                "an online skewlearn learner. A Pipeline cannot learn one row at a time: to "
                "scale a stream, transform X with statistics a stream would know, e.g. "
                "StandardScaler().fit(X[:1000]).transform(X) for those of its first 1000 "
                "rows, and pass the learner itself."
            )
        elif hasattr(estimator, "partial_fit"):  # e.g. scikit-learn's SGDClassifier
            why = (
                f"an online skewlearn learner, whose test_then_train scores each chunk "
                f"before learning from it ({name}'s partial_fit only learns); use one, e.g. "
                "OGD or PassiveAggressive."
            )
        else:
            why = "an online skewlearn learner (one with partial_fit)."
        raise TypeError(f"{name} has no test_then_train method; prequential evaluation needs {why}")
    if not (isinstance(chunk_size, numbers.Integral) and chunk_size >= 1):
        raise ValueError(f"chunk_size must be an int >= 1; got {chunk_size!r}.")
    extra = dict(metrics or {})
    seen: dict[int, str] = {}
    for name, metric in extra.items():
        if id(metric) in seen:
            raise ValueError(
                f"metrics {seen[id(metric)]!r} and {name!r} are the same object, which would "
                "count every sample twice; give each name its own metric."
            )
        seen[id(metric)] = name
        if not isinstance(metric, StreamingMetric):
            raise TypeError(
                f"metrics[{name!r}] must be a skewlearn StreamingMetric; got "
                f"{type(metric).__name__}."
            )

    if auc_bins is not None and not (
        isinstance(auc_bins, numbers.Integral) and not isinstance(auc_bins, bool) and auc_bins >= 2
    ):
        raise ValueError(f"auc_bins must be None (exact AUC) or an int >= 2; got {auc_bins!r}.")
    if y is None:
        if isinstance(X, np.ndarray) or sp.issparse(X):
            raise ValueError(
                "y is missing: pass prequential(estimator, X, y) for arrays, or an iterable "
                "of (X_chunk, y_chunk) pairs as X."
            )
        if not isinstance(X, Iterable):
            raise TypeError(
                f"X must be an array or an iterable of (X, y) chunks; got {type(X).__name__}."
            )
        n_total = getattr(X, "n_rows", None)
        if classes is None and not hasattr(estimator, "classes_"):
            classes = getattr(X, "classes", None)
        chunks: Iterable = X
    else:
        # float32 stays float32 (learners that take it need no copy; the others convert)
        with _text_in_x_hint():  # a text column or {feature: value} rows: say what to do
            X = check_array(X, accept_sparse="csr", dtype=[np.float64, np.float32], order="C")
        # (a None would fail np.unique)
        y = _check_labels(
            column_or_1d(y, warn=True), "y", "prequential evaluation needs a label for every row", y
        )
        if X.shape[0] != len(y):
            raise ValueError(
                f"X and y must have the same number of rows; got {X.shape[0]} and {len(y)}."
            )
        n_total = len(y)
        if classes is None and not hasattr(estimator, "classes_"):
            classes = _two_classes(_unique_labels(y), "y")
        chunks = _array_chunks(X, y, int(chunk_size))

    marks = _checkpoint_rows(checkpoints, n_total)
    if auc_bins is None:
        auc: StreamingMetric = ROCAUC()
    else:
        from ..metrics.histogram import HistogramROCAUC

        auc = HistogramROCAUC(n_bins=int(auc_bins))
    named: dict[str, StreamingMetric] = {"auc": auc, "f1": F1(), "gmean": GMean()}
    clash = set(extra) & {*named, "rows", "mistakes", "mistake_rate", *TIMING_COLUMNS}
    if clash:
        raise ValueError(f"metrics names {sorted(clash)} are taken by the default columns.")
    named.update(extra)
    confusion = Confusion()

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_total, unit="rows", file=sys.stderr, unit_scale=True, leave=False)

    rows_seen = 0
    seconds = 0.0
    all_scores: list[np.ndarray] = []
    records: list[dict[str, Any]] = []
    next_mark = 0
    pos = sign = None

    def record():
        row: dict[str, Any] = {
            "rows": rows_seen,
            "mistakes": confusion.fp + confusion.fn,
            "mistake_rate": (confusion.fp + confusion.fn) / rows_seen,
        }
        row.update({name: float(m.get()) for name, m in named.items()})
        row["seconds"] = seconds
        row["rows_per_s"] = rows_seen / seconds if seconds > 0 else math.nan
        records.append(row)

    try:
        for Xc, yc in chunks:
            yc = np.asarray(yc).reshape(-1)
            if len(yc) and classes is None and pos is None and not hasattr(estimator, "classes_"):
                # a checkpoint may cut the first chunk into pieces
                classes = _two_classes(np.unique(yc), "the first chunk")
            lo = 0
            while lo < len(yc):
                hi = len(yc)
                if marks is not None and next_mark < len(marks):
                    hi = min(hi, lo + marks[next_mark] - rows_seen)
                Xp, yp = Xc[lo:hi], yc[lo:hi]
                first = pos is None and not hasattr(estimator, "classes_")
                t0 = time.perf_counter()
                s = estimator.test_then_train(Xp, yp, classes=classes if first else None)
                seconds += time.perf_counter() - t0
                if pos is None:
                    pos = getattr(estimator, "pos_label_", estimator.classes_[1])
                    sign = 1.0 if estimator.classes_[1] == pos else -1.0
                    cut = decision_cut(estimator)
                s = np.asarray(s, dtype=np.float64)
                if keep_scores:
                    all_scores.append(s)
                raw = sign * s
                ypm = np.where(yp == pos, 1, -1)
                pred = np.where(raw > cut, 1, -1)
                confusion.update_many(ypm, pred)
                for m in named.values():
                    m.update_many(ypm, raw if m.requires_scores else pred)
                rows_seen += hi - lo
                lo = hi
                if bar is not None:
                    bar.update(len(yp))
                if marks is not None:
                    while next_mark < len(marks) and marks[next_mark] <= rows_seen:
                        next_mark += 1
                        record()
            if marks is None and len(yc):
                record()
    finally:
        if bar is not None:
            bar.close()

    if rows_seen == 0:
        raise ValueError("The stream is empty: prequential evaluation needs at least one row.")
    if not records or records[-1]["rows"] != rows_seen:
        record()
    if marks is not None and next_mark < len(marks):  # a stream of unknown length
        warnings.warn(_beyond_message(marks[next_mark:], rows_seen), UserWarning, stacklevel=2)
    return PrequentialResult(
        estimator=type(estimator).__name__,
        checkpoints=records,
        scores=np.concatenate(all_scores) if keep_scores else np.empty(0),
        pos_label=pos,
        rows_seen=rows_seen,
    )
