"""Evaluation protocols: repeated k-fold, repeated splits, prequential runs, nested search.

Every protocol is deterministic given ``(seed, dataset, repetition, fold)``: the split, the
order in which an online learner sees its training rows and the learner's ``random_state``
all come from :func:`task_seed`, a stable hash of those keys. A task therefore gives the same
numbers in any process, on any machine, in any order — which is what lets the experiment
runner farm tasks out to a Dask cluster and resume killed runs.

Metrics are named (``"roc_auc"``, ``"gmean"``, ...; :mod:`skewlearn.metrics`). Metrics of a
ranking (ROC AUC, PR AUC) come from ``decision_function`` (or, for a classifier without one
such as a random forest, the probability of the class +1); threshold metrics from ``predict``.
Labels are ±1 with the minority class +1 (the convention of :mod:`skewlearn.datasets`).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import numbers
import re
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import (
    GridSearchCV,
    ShuffleSplit,
    StratifiedKFold,
    StratifiedShuffleSplit,
)
from sklearn.model_selection import KFold as SkKFold

if TYPE_CHECKING:
    from sklearn.base import BaseEstimator

    from .._typing import Matrix, SupportsTestThenTrain

__all__ = [
    "METRICS",
    "KFold",
    "Metric",
    "Prequential",
    "RandomSplits",
    "evaluate_split",
    "expand_grid",
    "get_metric",
    "nested_search",
    "parse_grid",
    "prequential_run",
    "task_seed",
]


# --------------------------------------------------------------------------- seeds
def task_seed(*parts: Any) -> int:
    """A seed in ``[0, 2**32)`` from a stable hash of ``parts``.

    Unlike :func:`hash`, the value does not depend on the process (``PYTHONHASHSEED``),
    the platform or the Python version: it is BLAKE2b with a 4-byte digest
    (``digest_size=4``, which is not the first 4 bytes of the default 64-byte digest) of
    the UTF-8 ``str`` of each part joined by the unit separator U+001F, read as a
    little-endian unsigned integer.

    Examples
    --------
    >>> task_seed(0, "sonar", 1, 3) == task_seed(0, "sonar", 1, 3)
    True
    >>> import hashlib
    >>> digest = hashlib.blake2b("0\x1fsonar\x1f1\x1f3".encode(), digest_size=4).digest()
    >>> task_seed(0, "sonar", 1, 3) == int.from_bytes(digest, "little")
    True
    >>> task_seed(0, "sonar", 1, 3) == task_seed(0, "sonar", 1, 4)
    False
    """
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=4).digest(), "little")


# --------------------------------------------------------------------------- grids
_RANGE = re.compile(
    r"^\s*(?P<base>[0-9.]+)\s*\^\s*\[\s*(?P<a>[-+]?\d+)\s*:\s*(?P<b>[-+]?\d+)\s*"
    r"(?::\s*(?P<step>[-+]?\d+)\s*)?\]\s*$"
)


def parse_grid(spec: Any, *, name: str = "grid") -> list:
    """Values of one hyperparameter from a list or a ``base^[a:b]`` range string.

    ``"2^[-10:10]"`` is :math:`2^{-10}, 2^{-9}, \\dots, 2^{10}` (21 values, both ends
    included, as in the papers' ``2^[-10:10]``); ``"2^[-10:10:2]"`` steps the exponent by 2;
    any positive base works (``"10^[-3:3]"``). A list, tuple, 1-D array or generator is its
    values; a set is refused (it has no order); anything else is one value.

    Parameters
    ----------
    spec : list, scalar or str
        The values, a ``base^[a:b]`` or ``base^[a:b:step]`` string, or one value.
    name : str, default="grid"
        Where the value came from, for error messages (e.g. ``estimators[0].grid.C``).

    Examples
    --------
    >>> parse_grid("2^[-2:2]")
    [0.25, 0.5, 1.0, 2.0, 4.0]
    >>> parse_grid("10^[0:4:2]")
    [1.0, 100.0, 10000.0]
    >>> parse_grid([1, 3])
    [1, 3]
    >>> parse_grid(np.array([0.5, 2.0]))
    [0.5, 2.0]
    """
    if isinstance(spec, str):
        m = _RANGE.match(spec)
        if m is None:
            raise ValueError(
                f"{name}: cannot read the range {spec!r}. Write 'base^[a:b]' or "
                "'base^[a:b:step]' with integer exponents, e.g. '2^[-10:10]', or give a list."
            )
        try:
            base = float(m["base"])
        except ValueError:
            raise ValueError(
                f"{name}: the base {m['base']!r} of the range {spec!r} is not a number; "
                "write e.g. '2^[-10:10]' or '0.5^[0:4]'."
            ) from None
        a, b = int(m["a"]), int(m["b"])
        step = int(m["step"]) if m["step"] else 1
        if base <= 0 or step <= 0 or b < a:
            raise ValueError(
                f"{name}: the range {spec!r} needs base > 0, step > 0 and a <= b "
                f"(got base={base:g}, a={a}, b={b}, step={step})."
            )
        try:
            return [base**k for k in range(a, b + 1, step)]
        except OverflowError:
            raise ValueError(
                f"{name}: the range {spec!r} goes beyond the largest float (about 1.8e308); "
                "use smaller exponents."
            ) from None
    if isinstance(spec, np.ndarray) and spec.ndim == 1:
        spec = spec.tolist()  # a 1-D array is a list of values (np.logspace(...))
    if isinstance(spec, set | frozenset):
        shown = sorted(spec, key=repr)
        raise TypeError(
            f"{name}: a set has no order; the search breaks ties by grid order, so give "
            f"a list, e.g. {shown!r}."
        )
    if isinstance(spec, Iterator):
        spec = list(spec)  # a generator or map(...): its values
    if isinstance(spec, Sequence) and not isinstance(spec, str | bytes):
        values = list(spec)
        if not values:
            raise ValueError(f"{name}: the list of values is empty; give at least one value.")
        return [_plain(v) for v in values]
    return [_plain(spec)]


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python number it holds (``np.int64(3)`` -> ``3``): a chosen
    value goes into the results database as JSON, which numpy integers are not."""
    return value.item() if isinstance(value, np.generic) else value


def expand_grid(grid: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Every combination of a grid ``{param: values or range string}``, keys sorted.

    Examples
    --------
    >>> expand_grid({"C": [1, 2], "eta": "2^[0:1]"})
    [{'C': 1, 'eta': 1.0}, {'C': 1, 'eta': 2.0}, {'C': 2, 'eta': 1.0}, {'C': 2, 'eta': 2.0}]
    >>> expand_grid({})
    [{}]
    """
    if not grid:
        return [{}]
    keys = sorted(grid)
    values = [parse_grid(grid[k], name=f"grid.{k}") for k in keys]
    return [dict(zip(keys, combo)) for combo in itertools.product(*values)]


# --------------------------------------------------------------------------- metrics
@dataclass(frozen=True)
class Metric:
    """A named metric. ``needs_scores``: computed from ``decision_function`` (a ranking
    metric) rather than from ``predict``."""

    name: str
    func: Callable[..., float]
    needs_scores: bool

    def __call__(self, y_true, y_score_or_pred) -> float:
        return float(self.func(y_true, y_score_or_pred, pos_label=1))


# name -> needs scores (a ranking metric) rather than predictions. The implementations are
# skewlearn.metrics' batch metrics, signature (y_true, y_score_or_pred, *, pos_label).
_NEEDS_SCORES: dict[str, bool] = {
    "roc_auc": True,
    "pr_auc": True,
    "f1": False,
    "gmean": False,
    "sensitivity": False,
    "specificity": False,
    "balanced_accuracy": False,
}

#: Names accepted by :func:`get_metric`.
METRICS: tuple[str, ...] = tuple(_NEEDS_SCORES)


def get_metric(name: str) -> Metric:
    """The metric called ``name`` (one of :data:`METRICS`), from :mod:`skewlearn.metrics`.

    Examples
    --------
    >>> m = get_metric("gmean")
    >>> m([1, 1, -1, -1], [1, -1, -1, -1])  # sensitivity 1/2, specificity 1
    0.7071...
    """
    if name not in _NEEDS_SCORES:
        from .._hints import did_you_mean  # here: task_seed's test loads this file alone

        raise ValueError(
            f"unknown metric {name!r}.{did_you_mean(name, METRICS)} Choose one of "
            f"{', '.join(METRICS)}."
        )
    from .. import metrics as _metrics

    return Metric(name, getattr(_metrics, name), _NEEDS_SCORES[name])


def _predict_from_scores(scores: np.ndarray, estimator) -> np.ndarray:
    """``predict``'s rule on the scores of a learner fitted with classes ±1: its
    ``pos_label_`` where the score *of that label* is above the learner's threshold (0 if
    it has none), the other label elsewhere."""
    from ..base import decision_cut  # here: task_seed's test loads this file alone

    pos = getattr(estimator, "pos_label_", 1)
    raw = scores if pos == 1 else -scores  # decision_function scores classes_[1] = +1
    return np.where(raw > decision_cut(estimator), pos, -pos)


# --------------------------------------------------------------------------- protocols
@dataclass(frozen=True)
class KFold:
    """Repeated (stratified) k-fold cross-validation.

    Repetition ``r`` shuffles with seed ``task_seed(seed, dataset, "kfold", r)``; task
    ``(r, f)`` trains on all folds but ``f`` and tests on fold ``f``. The training rows are
    presented in a shuffled order (seeded per task) so that online learners never see a
    file sorted by class.
    """

    n_splits: int = 5
    n_repeats: int = 1
    stratified: bool = True

    @property
    def n_folds(self) -> int:
        return self.n_splits

    def split(
        self, y: np.ndarray, seed: int, dataset: str, rep: int, fold: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(train, test)`` index arrays of task ``(rep, fold)``."""
        rs = task_seed(seed, dataset, "kfold", rep)
        cv = (StratifiedKFold if self.stratified else SkKFold)(
            self.n_splits, shuffle=True, random_state=rs
        )
        for i, (train, test) in enumerate(cv.split(np.zeros(len(y)), y)):
            if i == fold:
                order = np.random.default_rng(task_seed(seed, dataset, rep, fold, "order"))
                return order.permutation(train), test
        raise ValueError(f"fold={fold} is out of range for n_splits={self.n_splits}.")


@dataclass(frozen=True)
class RandomSplits:
    """Repeated random (stratified) train/test splits; ``test_size`` is a fraction."""

    n_repeats: int = 10
    test_size: float = 0.2
    stratified: bool = True

    @property
    def n_folds(self) -> int:
        return 1

    def split(
        self, y: np.ndarray, seed: int, dataset: str, rep: int, fold: int = 0
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(train, test)`` index arrays of repetition ``rep`` (train rows shuffled)."""
        rs = task_seed(seed, dataset, "split", rep)
        cv = (StratifiedShuffleSplit if self.stratified else ShuffleSplit)(
            n_splits=1, test_size=self.test_size, random_state=rs
        )
        train, test = next(cv.split(np.zeros(len(y)), y))
        return train, np.sort(test)


@dataclass(frozen=True)
class Prequential:
    """Test-then-train over the whole stream (every row is first a test row, then a
    training row). With ``shuffle`` each repetition permutes the stream with a seeded
    permutation; without it the file order is kept (time-ordered streams)."""

    n_repeats: int = 1
    shuffle: bool = False
    checkpoints: int = 50

    @property
    def n_folds(self) -> int:
        return 1

    def order(self, n: int, seed: int, dataset: str, rep: int) -> np.ndarray:
        """The row order of repetition ``rep``."""
        if not self.shuffle:
            return np.arange(n)
        return np.random.default_rng(task_seed(seed, dataset, "prequential", rep)).permutation(n)


# --------------------------------------------------------------------------- running
def _curve_points(y, scores, n_points: int = 51) -> dict[str, list[float]]:
    """ROC (TPR at a fixed FPR grid) and PR (precision at a fixed recall grid)."""
    from sklearn.metrics import precision_recall_curve, roc_curve

    pos = np.asarray(y) == 1
    if pos.all() or not pos.any() or not np.all(np.isfinite(scores)):
        return {}
    grid = np.linspace(0.0, 1.0, n_points)
    fpr, tpr, _ = roc_curve(pos, scores)
    precision, recall, _ = precision_recall_curve(pos, scores)
    roc = np.interp(grid, fpr, tpr)
    pr = np.interp(grid, recall[::-1], precision[::-1])
    return {"roc_tpr": np.round(roc, 5).tolist(), "pr_precision": np.round(pr, 5).tolist()}


def _ranking_scores(est, X) -> np.ndarray:
    """The scores a ranking metric is computed from: ``decision_function`` when the fitted
    classifier has one, else ``predict_proba``'s column of the class +1 (random forests,
    naive Bayes, k-nearest neighbours: scikit-learn's own order, as in its scorers)."""
    if hasattr(est, "decision_function"):
        return est.decision_function(X)
    if hasattr(est, "predict_proba"):
        return est.predict_proba(X)[:, list(est.classes_).index(1)]
    raise TypeError(
        f"{type(est).__name__} has neither decision_function nor predict_proba, so it gives "
        "no scores to rank by (roc_auc, pr_auc)."
    )


def _score(metrics: Sequence[Metric], y, scores, pred) -> dict[str, float]:
    out = {}
    for m in metrics:
        if m.needs_scores and not np.all(np.isfinite(scores)):
            out[m.name] = float("nan")
        else:
            out[m.name] = m(y, scores if m.needs_scores else pred)
    return out


def evaluate_split(
    estimator: BaseEstimator,
    X: Matrix,
    y: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
    metrics: Sequence[Metric | str],
    *,
    grid: Mapping[str, Any] | None = None,
    search_metric: Metric | str | None = None,
    inner_splits: int = 5,
    seed: int = 0,
    curves: bool = False,
) -> dict[str, Any]:
    """Fit ``estimator`` on ``train`` (in that row order) and score ``test``.

    With a ``grid`` of more than one candidate, the hyperparameters are first chosen by
    :func:`nested_search` on the training part only (metric ``search_metric``, default the
    first of ``metrics``), and the best candidate refit on the whole training part.

    Returns
    -------
    dict
        ``metrics`` ({name: value}), ``params`` (the chosen grid point), ``fit_time``
        (search and refit) and ``score_time`` in seconds; with a search, ``search``
        (every candidate's mean inner score); with ``curves`` the ROC/PR points of the
        test scores (``roc_tpr``, ``pr_precision``).
    """
    metrics = [get_metric(m) if isinstance(m, str) else m for m in metrics]
    candidates = expand_grid(grid)
    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    if len(candidates) > 1:
        est, params, search = nested_search(
            estimator,
            grid,
            X[train],
            y[train],
            metric=search_metric or metrics[0],
            inner_splits=inner_splits,
            seed=seed,
        )
        out["search"] = search
    else:
        params = candidates[0]
        est = clone(estimator).set_params(**params).fit(X[train], y[train])
    t1 = time.perf_counter()
    Xt = X[test]
    scores = _ranking_scores(est, Xt) if any(m.needs_scores for m in metrics) or curves else None
    pred = est.predict(Xt) if any(not m.needs_scores for m in metrics) else None
    t2 = time.perf_counter()
    out.update(
        metrics=_score(metrics, y[test], scores, pred),
        params=params,
        fit_time=t1 - t0,
        score_time=t2 - t1,
    )
    if curves:
        out["curves"] = _curve_points(y[test], scores)
    return out


def prequential_run(
    estimator: SupportsTestThenTrain,
    X: Matrix,
    y: np.ndarray,
    metrics: Sequence[Metric | str],
    *,
    order: np.ndarray | None = None,
    checkpoints: int = 50,
) -> dict[str, Any]:
    """Test-then-train over the stream ``X[order], y[order]`` in one compiled pass.

    Uses ``estimator.test_then_train``: each row's score is the one the model gave it
    before learning from it. The metrics are computed over all those pre-update scores
    (threshold metrics from ``score > threshold``, 0 if the learner has none, i.e.
    ``predict``'s rule); ``stream`` holds each metric over the prefix of the stream at
    ``checkpoints`` evenly spaced positions, rows :math:`\\lfloor j n / k \\rfloor` for
    :math:`j = 1, \\dots, k` (``k = checkpoints``; repeated positions and 0 left out).
    """
    if not hasattr(estimator, "test_then_train"):
        raise TypeError(
            f"{type(estimator).__name__} has no test_then_train method, so it cannot run the "
            "prequential protocol; use an online skewlearn learner, or the 'kfold' / 'split' "
            "protocol for batch learners."
        )
    metrics = [get_metric(m) if isinstance(m, str) else m for m in metrics]
    if (
        isinstance(checkpoints, bool)
        or not isinstance(checkpoints, numbers.Integral)
        or checkpoints < 1
    ):
        raise ValueError(f"checkpoints must be a positive integer; got {checkpoints!r}.")
    if order is not None:
        X, y = X[order], y[order]
    bad = np.setdiff1d(np.unique(y), [-1, 1])
    if len(bad):
        raise ValueError(
            f"prequential_run takes labels in {{-1, +1}} (+1 the positive class), as the "
            f"experiment runner's datasets have; y holds {bad[:5].tolist()}. Map them first, "
            "e.g. np.where(y == positive, 1, -1)."
        )
    est = clone(estimator)
    t0 = time.perf_counter()
    scores = np.asarray(est.test_then_train(X, y, classes=np.array([-1, 1])), dtype=float)
    t1 = time.perf_counter()
    pred = _predict_from_scores(scores, est)
    n = len(y)
    # row floor(j n / k) for j = 1..k, in integers: linspace's floats fall an ulp short of
    # some whole rows (58 rows, 50 checkpoints: 28.999999999999996 for row 29)
    positions = np.unique(np.arange(1, checkpoints + 1, dtype=np.int64) * n // checkpoints)
    positions = positions[positions > 0]  # more checkpoints than rows: no empty prefix
    curve: dict[str, list] = {"position": positions.tolist()}
    for m in metrics:
        values = []
        for p in positions:
            yp = y[:p]
            if np.all(yp == 1) or np.all(yp != 1):
                # a prefix with one class: ranking metrics, G-mean, sensitivity, ... are
                # undefined there (NaN on the curve), the others still count
                if m.needs_scores:
                    values.append(float("nan"))
                    continue
                try:
                    values.append(_score([m], yp, scores[:p], pred[:p])[m.name])
                except ValueError:
                    values.append(float("nan"))
                continue
            values.append(_score([m], yp, scores[:p], pred[:p])[m.name])
        curve[m.name] = values
    return {
        "metrics": _score(metrics, y, scores, pred),
        "fit_time": t1 - t0,
        "score_time": 0.0,
        "stream": curve,
    }


#: scikit-learn's warnings from inside the search that come once per failed inner fold or
#: candidate, most with a whole traceback (hundreds of stderr lines for one run whose
#: smaller class is tiny). :func:`nested_search` folds them into one line.
_SEARCH_NOISE = (
    "Scoring failed.",
    "One or more of the test scores are non-finite",
    "The least populated class in y has only",
)


def _error_line(text: str) -> str:
    """The ``SomeError: message`` line of a warning that embeds a traceback (its last such
    line), else the warning's first line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        if re.match(r"^[\w.]*(Error|Exception)\b", line):
            return line
    return lines[0] if lines else text


_RECORD_LOCK = threading.Lock()
_RECORD_STATE: dict[str, Any] = {"active": 0, "saved": None, "show": warnings.showwarning}
_RECORDS = threading.local()


def _to_thread_records(message, category, filename, lineno, file=None, line=None):
    """``warnings.showwarning`` while :func:`recorded_warnings` is active somewhere: the
    warning goes to this thread's record, or (a thread not recording) is shown as usual."""
    records = getattr(_RECORDS, "list", None)
    if records is None:
        return _RECORD_STATE["show"](message, category, filename, lineno, file, line)
    records.append(warnings.WarningMessage(message, category, filename, lineno, file, line))


@contextlib.contextmanager
def recorded_warnings() -> Iterator[list]:
    """Record every warning raised in this thread in the block, each occurrence (filter
    "always"), into the yielded list; nothing is shown.

    ``warnings.catch_warnings(record=True)`` saves and restores the process-wide filters
    and ``showwarning`` when each block starts and ends, so two threads' blocks that
    overlap (searches on a threaded Dask worker) restore each other's state: the second to
    end put back the first's recorder, and every later warning of the process went into a
    list nobody read. Here the first block to start saves that state and the last to end
    restores it; in between each thread records its own warnings. (With Python's
    context-aware warnings, ``sys.flags.context_aware_warnings``, ``catch_warnings`` is
    thread-safe itself and is used.)"""
    if getattr(sys.flags, "context_aware_warnings", False):  # pragma: no cover - 3.14t
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield caught
        return
    with _RECORD_LOCK:
        if _RECORD_STATE["active"] == 0:
            saved = warnings.catch_warnings()
            saved.__enter__()
            warnings.simplefilter("always")
            _RECORD_STATE["show"] = warnings.showwarning
            warnings.showwarning = _to_thread_records
            _RECORD_STATE["saved"] = saved
        _RECORD_STATE["active"] += 1
    outer = getattr(_RECORDS, "list", None)
    caught: list = []
    _RECORDS.list = caught
    try:
        yield caught
    finally:
        _RECORDS.list = outer
        with _RECORD_LOCK:
            _RECORD_STATE["active"] -= 1
            if _RECORD_STATE["active"] == 0:
                saved, _RECORD_STATE["saved"] = _RECORD_STATE["saved"], None
                saved.__exit__(None, None, None)


def nested_search(
    estimator: BaseEstimator,
    grid: Mapping[str, Any],
    X: Matrix,
    y: np.ndarray,
    *,
    metric: Metric | str = "roc_auc",
    inner_splits: int = 5,
    seed: int = 0,
) -> tuple[BaseEstimator, dict[str, Any], dict[str, Any]]:
    """Pick hyperparameters by inner stratified k-fold on ``X, y`` and refit the best.

    Every candidate of :func:`expand_grid` ``(grid)`` is scored by the mean of ``metric``
    over ``inner_splits`` folds (shuffled with ``seed``); the best (first in grid order on a
    tie) is refit on all of ``X, y``. A candidate whose fit fails, or whose metric is
    undefined on an inner fold, scores NaN and is never chosen; when every candidate scores
    NaN this raises ``ValueError``.

    Returns
    -------
    best_estimator : fitted estimator
    best_params : dict
    search : dict
        ``params`` (list of candidate dicts), ``scores`` (mean inner score of each),
        ``time`` (seconds).
    """
    from sklearn.metrics import make_scorer

    metric = get_metric(metric) if isinstance(metric, str) else metric
    candidates = expand_grid(grid)
    param_grid = [{k: [v] for k, v in c.items()} for c in candidates]

    def _inner(y_true, y_out):
        return metric(y_true, y_out)

    scorer = make_scorer(
        _inner,
        # as _ranking_scores: a classifier without decision_function ranks by probability
        response_method=("decision_function", "predict_proba")
        if metric.needs_scores
        else "predict",
    )
    search = GridSearchCV(
        estimator,
        param_grid,
        scoring=scorer,
        cv=StratifiedKFold(inner_splits, shuffle=True, random_state=seed),
        refit=True,
        error_score=np.nan,
        n_jobs=None,
    )
    from sklearn.exceptions import FitFailedWarning

    t0 = time.perf_counter()
    with recorded_warnings() as caught:
        search.fit(X, y)
    reasons: list[str] = []  # why candidates scored NaN, each once
    for w in caught:
        text = str(w.message)
        if isinstance(w.message, FitFailedWarning) or text.startswith(_SEARCH_NOISE[0]):
            if _error_line(text) not in reasons:
                reasons.append(_error_line(text))
        elif not text.startswith(_SEARCH_NOISE[1:]):  # implied by the NaN scores
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    scores = np.asarray(search.cv_results_["mean_test_score"], dtype=float)
    if not np.isfinite(scores).any():
        # GridSearchCV would refit the first candidate as if it had won
        labels, counts = np.unique(np.asarray(y), return_counts=True)
        raise ValueError(
            f"every one of the {len(candidates)} candidates scored NaN on the "
            f"{inner_splits} inner folds ({metric.name}), so the search cannot choose. "
            f"The training part's classes have {dict(zip(labels.tolist(), counts.tolist()))} "
            f"rows: with fewer than {inner_splits} of a class an inner fold lacks it and "
            f"{metric.name} is undefined there; otherwise every fit failed"
            + (f" (first error: {reasons[0]})" if reasons else "")
            + ". Use fewer inner_splits, another search metric, or a grid the learner accepts."
        )
    failed = int(np.count_nonzero(~np.isfinite(scores)))
    if failed:
        warnings.warn(
            f"nested search: {failed} of {len(candidates)} candidates scored NaN on an inner "
            f"fold and were not chosen ({reasons[0] if reasons else 'no error recorded'}).",
            UserWarning,
            stacklevel=2,
        )
    return (
        search.best_estimator_,
        dict(search.best_params_),
        {
            "params": candidates,
            "scores": [None if not np.isfinite(s) else float(s) for s in scores],
            "time": time.perf_counter() - t0,
        },
    )
