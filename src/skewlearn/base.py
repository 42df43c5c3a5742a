"""Base classes shared by every skewlearn estimator.

Nothing here is algorithm-specific. :class:`BinaryClassifier` owns label handling (any
label type, ``pos_label``, mapping to ±1, scikit-learn's sign convention) for every
estimator. :class:`BatchClassifier` adds ``fit`` for batch learners, which implement
``_fit_binary(X, y)`` and ``_decision(X)``. :class:`OnlineClassifier` does what every online
learner needs at its edge — parameter validation, input validation, label mapping to
±1, the ``partial_fit`` driver, test-then-train scores — and hands clean arrays to one
compiled kernel per algorithm. :class:`OnlineLinearClassifier` adds a weight vector with
its intercept.

Subclasses implement two private methods:

``_allocate(n_features)``
    create the learned state (numpy arrays in attributes ending in ``_``);
``_learn(rows, y, scores)``
    run the compiled pass over the whole batch: for each row ``i`` write the score the
    model gave it *before* learning from it into ``scores[i]``, then update. ``y`` holds
    ±1 (+1 = ``pos_label``).

and, when they are not linear, ``_scores(rows, out)``.

Guards shared by every estimator (docs/reliability.md): input whose squared norms would
overflow float64 is refused with an error asking for scaling; a model whose state or
scores become inf/NaN while learning is discarded with an error naming the cause (later
learning and predicting calls refuse it until ``fit`` starts again); saved
models carry ``_skewlearn_version`` and refuse to load under another major.minor.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import numbers
import operator
import re
import struct
import warnings
import weakref
from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np
import scipy.sparse as sp
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import NotFittedError
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ._config import NJIT
from ._rng import seed_state
from ._rows import as_row, as_rows, linear_scores
from ._stability import warn_unstable_steps
from ._stack import user_stacklevel
from ._values import row_words, same_value, value_list

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ._typing import ArrayLike, MatrixLike

__all__ = ["BatchClassifier", "BinaryClassifier", "OnlineClassifier", "OnlineLinearClassifier"]

#: ``_input_dtypes`` of a learner that takes float32 input as it is, without a float64
#: copy: its compiled passes read each entry into float64 before any arithmetic (as the
#: accessors of :mod:`skewlearn._rows` do) and keep float64 state, so the model equals the
#: one learned from ``X.astype(np.float64)`` bit for bit (tests/perf/test_float32.py).
FLOAT32_ROWS: tuple = (np.float64, np.float32)


#: Input types that may skip scikit-learn's validation (``BinaryClassifier._ready_input``).
_READY_TYPES = (np.ndarray, sp.csr_matrix, sp.csr_array)

#: Up to this many labels or scores, a later call checks and maps them as Python values:
#: for a few rows, numpy's per-call overhead (~2-3 us an operation) is most of the cost of a
#: River-style one-row ``partial_fit``. Both ways compare with ``==``, so they agree.
_FEW = 16

#: A later call's ``y`` given as one of these (``partial_fit(X[i:i + 1], [y[i]])``) is
#: turned into the array validation would make of it when it holds a few plain labels
#: (:func:`_listed_labels`), and then takes the quick path of an array.
_LABEL_SEQUENCES = (list, tuple)
_PLAIN_LABEL_TYPES = frozenset(
    {bool, int, float, str, np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
     np.uint16, np.uint32, np.uint64, np.float32, np.float64, np.str_}
)  # fmt: skip


def _listed_labels(y: list | tuple, n: int) -> np.ndarray | None:
    """``np.asarray(y)`` for a list or tuple of ``n`` (at most :data:`_FEW`) plain labels
    (Python or numpy numbers and text), else None: what scikit-learn's validation turns
    such a ``y`` into (it calls ``np.asarray`` too; text mixed with numbers becomes text
    both ways), so the quick path's checks of an array (``_known_labels``) apply.
    Validating a list took ~0.17 ms a call against 12–24 us for the quick path
    (PassiveAggressive, 20 features; most of it scikit-learn looking for a dataframe in
    the list), nearly all the time of a stream learned one row and one listed label at a
    time. Anything else (missing labels, nested lists,
    longer lists) is left to validation."""
    if len(y) != n or n > _FEW:
        return None
    for v in y:
        if v.__class__ not in _PLAIN_LABEL_TYPES:
            return None
    return np.asarray(y)


def _unique_labels(y: np.ndarray) -> np.ndarray:
    """``np.unique(y)`` of a 1-D ``y``, without its sort when integer or boolean labels take
    at most two values (a binary ``fit`` on 10⁶ rows: two sorts cost ~27 ms of ~80 ms).

    The result is the same array: the sorted distinct values in ``y``'s dtype. Floats
    (``-0.0`` equals ``0.0``; NaN) and text go to ``np.unique``."""
    if y.dtype.kind not in "biu" or y.shape[0] <= _FEW:
        return np.unique(y)
    lo, hi = y.min(), y.max()
    if lo == hi:
        return np.array([lo], dtype=y.dtype)
    if ((y != lo) & (y != hi)).any():
        return np.unique(y)
    return np.array([lo, hi], dtype=y.dtype)


def _check_targets(y: np.ndarray) -> None:
    """scikit-learn's ``check_classification_targets`` of a validated 1-D ``y``, with its
    warning about a multiclass ``y`` of more distinct values than half its (over 20) rows
    given here, at the user's line (scikit-learn's names this module).

    Integer, boolean and text labels are always class labels ("binary" or "multiclass"
    for ``type_of_target``), so they are not typed: ``type_of_target`` validates ``y``
    again and costs ~0.22 ms, a third of a 100-row ``fit`` and of a later ``partial_fit``
    that takes the full validation (a list, a DataFrame). Other 1-D labels (floats,
    objects: pandas' nullable Int64 and "string" columns become these) are typed once;
    any type but "binary" or "multiclass" goes to the full check for its error."""
    if y.ndim != 1 or not y.shape[0]:
        check_classification_targets(y)
        return
    if y.dtype.kind not in "biuU":
        kind = type_of_target(y, input_name="y")
        if kind != "multiclass":
            if kind != "binary":
                check_classification_targets(y)  # "Unknown label type: ..."
            return
    n = y.shape[0]
    if n > 20 and _unique_labels(y).shape[0] > max(2, round(0.5 * n)):
        warnings.warn(
            "The number of unique classes is greater than 50% of the number "
            "of samples. `y` could represent a regression problem, not a "
            "classification problem.",
            UserWarning,
            stacklevel=user_stacklevel(),  # the user's line, not this module's (session 24)
        )


def _integral(values: np.ndarray) -> bool:
    """Whether every value is a whole number (so scikit-learn takes them as class labels)."""
    return bool(np.all(np.mod(values, 1) == 0))


#: Largest float64 (about 1.8e308).
_FLOAT_MAX = float(np.finfo(np.float64).max)


def max_abs_value(limit_for: int) -> float:
    """Largest ``|x|`` accepted in a row of ``limit_for`` features.

    Above it, the squared norm of a row (intercept feature included) can overflow
    float64, and every learner built on inner products would silently turn into
    inf/NaN; so skewlearn refuses such input with an error that asks for scaling.
    """
    return math.sqrt(_FLOAT_MAX / (limit_for + 1))  # (np.sqrt: the same value, 0.5 us more)


def _skewlearn_version() -> str:
    from . import __version__

    return __version__


def _major_minor(version: str) -> tuple[str, ...]:
    return tuple(str(version).split(".")[:2])


def _is_missing(value) -> bool:
    """Whether one label is missing: None, NaN or pandas' ``NA``/``NaT``."""
    if value is None:
        return True
    if isinstance(value, float | np.floating):
        return value != value
    return type(value).__name__ in ("NAType", "NaTType")


def _check_missing_labels(y) -> None:
    """Refuse a list, object array or pandas object/"string" column ``y`` holding None,
    NaN or ``pd.NA``, naming the first index. scikit-learn calls None an "Unknown label
    type", fails on ``pd.NA`` with "boolean value of NA is ambiguous" and reports NaN
    without its row. Numeric arrays are left to it ("Input y contains NaN"): they pay
    nothing here. pandas' nullable numbers and booleans (``Int64``, ``Float64``,
    ``boolean``: a 0/1 column with a gap), which scikit-learn reports as NaN without the
    row, are looked at through their vectorised ``isna``."""
    if y.__class__ is np.ndarray or isinstance(y, list | tuple):
        try:
            labels = np.asarray(y)  # a view of an array; a list of numbers is not object
        except (TypeError, ValueError):  # ragged: scikit-learn says so
            return
        if labels.dtype != object:
            return
    elif not isinstance(getattr(y, "dtype", np.float64), np.dtype) and hasattr(y, "isna"):
        # a pandas extension dtype ("string" and category too: their kind is "O", and a
        # Python loop over 10⁶ category labels cost ~0.3 s a fit, 6x the rest of it)
        gaps = np.flatnonzero(np.asarray(y.isna()).ravel())
        if gaps.size:
            labels = np.asarray(y, dtype=object).ravel()[gaps[:1]]
            raise ValueError(_missing_label_message(y, labels[0], int(gaps[0])))
        return
    elif getattr(getattr(y, "dtype", None), "kind", None) == "O":  # pandas object column
        labels = np.asarray(y, dtype=object)
    else:
        return
    values = labels.ravel().tolist()
    missing = next((i for i, v in enumerate(values) if _is_missing(v)), None)
    if missing is not None:
        raise ValueError(_missing_label_message(y, values[missing], missing))


#: The refusal of a missing label in ``y``, with the label and where it is.
_MISSING_LABEL = (
    "y holds a missing label ({value!r}) at {where}; every row needs one of the two "
    "classes. Drop the unlabelled rows or fill their labels first."
)


def _missing_label_message(y, value, position: int) -> str:
    """:data:`_MISSING_LABEL` for the label ``value`` at ``position`` in ``y``: "index 5",
    or, for a pandas ``y`` whose index is not the default ``RangeIndex`` (a filtered frame,
    a cross-validation fold), "position 5 (index label 105)": there ``y[5]`` or
    ``y.loc[5]`` is another row, or none (:func:`~skewlearn._values.row_words`)."""
    return _MISSING_LABEL.format(value=value, where=row_words(y, position))


def _classes_array(classes) -> np.ndarray:
    """The labels of a ``classes=`` argument as an array (repeats kept), refusing what
    is not an array-like of labels (a set, a string), a missing label (None, NaN, pandas'
    NA) and values scikit-learn calls continuous (as it refuses them in ``y``), each with
    the argument and the fix. numpy alone turned a set or a string into one "label",
    failed on None with "'<' not supported", and took NaN as a class."""
    if isinstance(classes, set | frozenset | dict | str | bytes):
        raise ValueError(
            "classes must be an array-like of the two labels (e.g. classes=[0, 1]); got a "
            f"{type(classes).__name__}: {classes!r}. Pass a list such as "
            f"{'sorted(classes)' if isinstance(classes, set | frozenset) else '[0, 1]'}."
        )
    labels = np.asarray(classes)
    shown = value_list(classes if isinstance(classes, list | tuple) else labels.ravel(), most=10)
    missing = next((v for v in labels.ravel().tolist() if _is_missing(v)), False)
    if missing is not False:
        raise ValueError(
            f"classes=[{shown}] holds a missing label ({missing!r}); it must name the two "
            "classes of the problem, e.g. classes=[0, 1] or classes=['no', 'yes']."
        )
    if labels.dtype.kind == "f" and not _integral(labels):
        raise ValueError(
            f"classes=[{shown}] holds values that are not class labels (continuous), which "
            "scikit-learn refuses in y as well. Use integers or strings as labels, e.g. "
            "classes=[0, 1]."
        )
    return labels


#: The end of numpy's message for a mapping where a number belongs: ``dict`` and its
#: subclasses ``collections.OrderedDict``, ``collections.defaultdict`` and ``Counter``.
_DICT_TYPE_NAME = re.compile(r"not '(?:collections\.)?(?:dict|OrderedDict|defaultdict|Counter)'$")

#: numpy's and pandas' messages for dates and times where a number belongs: a datetime64 or
#: timedelta64 column beside numbers (numpy's DTypePromotionError, or pandas' "Cannot cast
#: DatetimeArray" in a frame of mixed kinds), and an object column of pandas' Timestamp,
#: Timedelta or Period (a time-zone-aware column is one) or of Python's datetime values,
#: or whose first value is pandas' NaT (a missing time).
_DATETIME_MESSAGE = re.compile(
    r"(?:DateTime64|TimeDelta64)DType|Cannot cast (?:Datetime|Timedelta|Period)Array"
    r"|not '(?:Timestamp|Timedelta|Period|NaTType|datetime\.(?:datetime|date|time|timedelta))'$"
)


@contextlib.contextmanager
def _text_in_x_hint():
    """Add what to do to numpy's "could not convert string to float: 'x'" (a text column
    in ``X``, e.g. a DataFrame's categorical feature) and to its "float() argument must
    be a string or a real number, not 'dict'" (``X`` as a list of ``{feature: value}``
    rows, or a dict of columns), which say only what failed, and to numpy's and pandas'
    messages for a column of dates or times (:data:`_DATETIME_MESSAGE`) and to numpy's
    "... not 'NAType'" (pandas' NA in an object column). The type stays
    numpy's (its DTypePromotionError is a TypeError: a TypeError here)."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        message = str(exc)
        if isinstance(exc, ValueError) and message.startswith("could not convert string"):
            hint = (
                "X holds text, and skewlearn learners need numbers. Encode text columns "
                "first (e.g. sklearn.preprocessing.OneHotEncoder in a sklearn.compose."
                "ColumnTransformer) or drop them."
            )
        elif isinstance(exc, TypeError) and _DICT_TYPE_NAME.search(message):
            hint = (
                "X holds dicts, and skewlearn learners need a 2-D array, a DataFrame or a "
                "sparse matrix. Turn a list of {feature: value} rows into one with "
                "sklearn.feature_extraction.DictVectorizer (sparse; text values one-hot "
                "encoded) or pandas.DataFrame(rows), and a dict of columns with "
                "pandas.DataFrame(X). For rows that arrive one at a time as dicts, "
                "skewlearn.compat.river.RiverClassifier takes them as they are."
            )
        elif isinstance(exc, TypeError) and _DATETIME_MESSAGE.search(message):
            hint = (
                "X holds dates or times (e.g. a timestamp column), and skewlearn learners "
                "need numbers. Turn each such column into numbers first, e.g. its hour or "
                "weekday (df['when'].dt.hour, .dt.dayofweek) or the seconds since a start "
                "((df['when'] - start).dt.total_seconds()), or drop it."
            )
        elif isinstance(exc, TypeError) and message.endswith("not 'NAType'"):
            hint = (
                "X holds pandas' missing value NA (in an object column), and skewlearn "
                "learners need numbers. Make numbers of such columns first, with NA as "
                "NaN (df.apply(pd.to_numeric)), then impute the gaps (e.g. sklearn.impute."
                "SimpleImputer, which fails on NA itself) or drop those rows."
            )
        else:
            raise
        kind = ValueError if isinstance(exc, ValueError) else TypeError
        raise kind(f"{message}: {hint}") from exc


#: scikit-learn's meta-estimators that fit their copies of a classifier on ``y`` re-encoded
#: as 0, 1, ... in sorted order (``LabelEncoder`` / ``np.unique(return_inverse=True)``), and
#: imbalanced-learn's bagging ensembles, which inherit BaggingClassifier's encoding.
ENCODING_META_ESTIMATORS = (
    "scikit-learn's cross_val_predict(method='decision_function', 'predict_proba' or "
    "'predict_log_proba'), BaggingClassifier, VotingClassifier, StackingClassifier, "
    "OneVsOneClassifier and OneVsRestClassifier, and imbalanced-learn's "
    "BalancedBaggingClassifier and EasyEnsembleClassifier,"
)


def _encoded_labels_hint(
    classes: np.ndarray,
    what: str = "pos_label",
    fix: str = "Leave pos_label=None (then 1 is positive)",
) -> str:
    """The end of an error about a label setting (``what``: ``pos_label``, class_weight's
    keys) that is not one of the classes, when the classes are 0 and 1: most likely a
    scikit-learn meta-estimator re-encoded the user's labels (the setting named an
    original one), which the bare message does not explain. ``fix``: what to do instead."""
    if classes.dtype.kind not in "iuf" or classes.tolist() != [0, 1]:
        return ""
    return (
        f" If you passed other labels: {ENCODING_META_ESTIMATORS} fit their "
        "copies of the learner on labels re-encoded as 0 and 1 (1 = the later label in "
        f"sorted order; for OneVsRestClassifier, the class against the rest), so {what} "
        f"cannot name an original label there. {fix} or encode y yourself first."
    )


#: The parameters by which a learner weighs one class against the other, in the order the
#: sample_weight message names them.
_CLASS_COST_SETTINGS = (
    "c_pos", "c_neg", "C_pos", "C_neg", "r_pos", "r_neg", "m_pos", "m_neg",
    "class_weight", "imbalance_ratio",
)  # fmt: skip


def refuse_fit_params(est: BaseEstimator, method: str, params: dict) -> None:
    """Refuse keyword arguments a learning method does not take (``params``: what its
    ``**params`` caught). ``sample_weight`` gets a message of its own: scikit-learn's
    meta-estimators (Stacking, Voting, pipelines, searches) pass it on when the user gives
    it, and Python's bare "unexpected keyword argument" neither says that skewlearn's
    learners weigh no rows nor names what they have instead. The signature keeps no
    ``sample_weight`` parameter, so scikit-learn still sees a learner without sample
    weights (``has_fit_parameter`` is False: BaggingClassifier bootstraps by indexing, and
    metadata routing offers no ``set_fit_request``)."""
    if not params:
        return
    name = f"{type(est).__name__}.{method}()"
    if "sample_weight" not in params:
        raise TypeError(f"{name} got an unexpected keyword argument {next(iter(params))!r}")
    # a learner may say it in its own words (``_cost_hint``: OMCSL chooses its costs)
    own = [k for k in _CLASS_COST_SETTINGS if k in est.get_params(deep=False)]
    costs = getattr(est, "_cost_hint", None) or (
        f"set its class costs ({', '.join(own)})"
        if own
        else "use a learner with class costs (CostSensitiveOGD or CostSensitivePA: c_pos, "
        "c_neg; NORMA: c_pos, c_neg)"
    )
    raise TypeError(
        f"{name} takes no sample_weight: skewlearn's learners do not weigh single rows. "
        f"To weigh one class against the other, {costs}; to weigh rows, resample them "
        "(imbalanced-learn's RandomOverSampler or RandomUnderSampler in an imbalanced-learn "
        "Pipeline, shuffled afterwards for an online learner, which learns in the given "
        "order) or repeat each row in proportion to its weight."
    )


#: The start of the hint for -1/+1 labels against other classes (the first call's and a
#: later call's messages end it each in their own way).
_READERS_LABELS = (
    " skewlearn.datasets' readers and iter_chunks label the positive class +1 and the "
    "others -1: pass classes=[-1, 1]"
)

#: The end of the messages about more than two classes.
_MULTICLASS_FIX = (
    " Map the labels to two classes (e.g. minority vs rest) or wrap the learner in "
    "sklearn.multiclass.OneVsRestClassifier."
)


def _unknown_labels_fix(classes: np.ndarray, unknown: np.ndarray, labels: np.ndarray) -> str:
    """What to do when a first ``partial_fit``'s ``y`` holds labels outside ``classes=``:
    most often the labels' type differs, e.g. the -1/+1 of skewlearn.datasets' readers
    against a file's text labels, which the bare "not in classes" does not say; or the
    readers' -1/+1 against the file's own numbers (0/1, 1/2). ``labels``: y's labels."""
    y_text, classes_text = isinstance(unknown[0], str), isinstance(classes[0], str)
    readers = f"{_READERS_LABELS}." if not y_text and set(labels.tolist()) <= {-1, 1} else ""
    if y_text == classes_text:
        return readers or (
            " classes must name the two labels of the whole stream, as y holds them: pass "
            "them, or map y to the classes first."
        )
    if y_text:
        return (
            " y holds strings and classes numbers: classes must name the labels as y holds "
            "them. Convert one to the other's type, or pass y's two labels as classes."
        )
    readers = readers or " Pass y's two labels as classes, or convert y to the classes' type."
    return f" y holds numbers and classes strings.{readers}"


def _one_vs_one_text_hint(classes: np.ndarray, unknown: np.ndarray) -> str:
    """The end of the "not in classes" error when scikit-learn's
    ``OneVsOneClassifier.partial_fit`` made the labels: it encodes each pair of text
    labels with ``np.zeros_like(y)``, i.e. as the strings '' and '1', and passes
    ``classes=[0, 1]`` (scikit-learn's own learners fail there too)."""
    if classes.dtype.kind not in "iu" or classes.tolist() != [0, 1]:
        return ""
    if not set(unknown.tolist()) <= {"", "1"}:
        return ""
    return (
        " scikit-learn's OneVsOneClassifier.partial_fit passes text labels to its binary "
        "learners as the strings '' and '1' against classes=[0, 1] (its own learners fail "
        "the same way). Encode y as integers first (sklearn.preprocessing.LabelEncoder) "
        "and pass the codes as classes; OneVsRestClassifier.partial_fit takes text labels."
    )


def _max_abs(X) -> float:
    """Largest ``|x|`` of a validated float64 matrix (dense or sparse), for messages."""
    data = X.data if sp.issparse(X) else np.asarray(X).reshape(-1)
    return _scan_values(np.ascontiguousarray(data))[0] if data.size else 0.0


_ABS_BITS = np.uint64(0x7FFFFFFFFFFFFFFF)
_INF_BITS = np.uint64(0x7FF0000000000000)
#: The same for float32 (bit patterns as ``uint32``).
_ABS_BITS32 = np.uint32(0x7FFFFFFF)
_INF_BITS32 = np.uint32(0x7F800000)


@njit(**NJIT)
def _max_abs_bits(bits, abs_mask):
    """Largest ``|x|`` of floats given as their unsigned-integer bit patterns
    (``uint64`` for float64, ``uint32`` for float32; ``abs_mask`` clears the sign bit).

    With the sign bit cleared, IEEE-754 floats order like their bit patterns, and
    ±inf and NaN have the largest patterns (≥ ``_INF_BITS``). An integer max
    vectorises, so one memory-bound pass answers "all finite?" and "how large?".
    """
    biggest = abs_mask ^ abs_mask  # zero of the mask's unsigned type
    for k in range(bits.shape[0]):
        b = bits[k] & abs_mask
        biggest = b if b > biggest else biggest
    return biggest


def _scan_values(data: np.ndarray) -> tuple[float, bool]:
    """``(max |x|, all finite)`` of a contiguous float64 or float32 array in one compiled
    pass (a few values as Python floats: the compiled call's overhead is larger)."""
    if data.size <= _FEW:
        return _scan_list(data.tolist())
    if data.dtype == np.float32:
        top32 = _max_abs_bits(data.view(np.uint32), _ABS_BITS32)
        top_value = np.array([top32], dtype=np.uint32).view(np.float32)[0]
        return float(top_value), bool(top32 < _INF_BITS32)
    top = _max_abs_bits(data.view(np.uint64), _ABS_BITS)
    return struct.unpack("<d", struct.pack("<Q", int(top)))[0], bool(top < _INF_BITS)


def _scan_list(values: list[float]) -> tuple[float, bool]:
    """:func:`_scan_values` of Python floats."""
    if values and math.isfinite(sum(values)):  # then none is NaN or inf (~0.2 us)
        return max(max(values), -min(values)), True
    if all(map(math.isfinite, values)):  # (or the sum overflowed)
        return max(map(abs, values), default=0.0), True
    return (math.nan if any(v != v for v in values) else math.inf), False


#: Up to this many entries, :func:`_all_finite` checks a float array as Python floats: a
#: linear learner's weights on a River stream's few features (21 for 20 features: 0.5 us,
#: against 1.3 us for the compiled scan's call).
_FEW_FINITE = 64


def _all_finite(values: np.ndarray) -> bool:
    """Whether every entry of a float array is finite; a few values (up to
    :data:`_FEW_FINITE`) are checked as Python floats (``np.isfinite(...).all()`` costs
    ~1.7 us a call, most of it overhead), and a
    writable C-contiguous float64 array by :func:`_max_abs_bits` in one compiled pass:
    ``np.isfinite`` first writes a boolean array as large as the input, which made the
    state check after a one-row ``partial_fit`` of KOIL with 2 × 1,000 support vectors
    (a 2,000 × 2,000 ``gram_``) take 1.9 ms of its 2.4 ms. (Read-only arrays go to numpy:
    they would compile another specialisation.)"""
    if values.size <= _FEW_FINITE and values.dtype.kind == "f":
        listed = values.ravel().tolist()
        # a finite sum has no NaN or inf; one that overflowed is checked value by value
        return math.isfinite(sum(listed)) or all(map(math.isfinite, listed))
    if values.dtype == np.float64 and values.flags.c_contiguous and values.flags.writeable:
        return bool(_max_abs_bits(values.reshape(-1).view(np.uint64), _ABS_BITS) < _INF_BITS)
    return bool(np.isfinite(values).all())


_NO_SLOTS = np.zeros(0, dtype=np.intp)


def _slots_finite(values: np.ndarray, slots: np.ndarray) -> bool:
    """Whether the rows ``slots`` of a state array (and its columns, when square) are
    finite: what a learning call that stored into those slots can have written."""
    if slots.size == 0:
        return True
    if not _all_finite(np.ascontiguousarray(values[slots])):
        return False
    square = values.ndim == 2 and values.shape[0] == values.shape[1]
    return not square or _all_finite(np.ascontiguousarray(values[:, slots]))


def _not_finite_message(data: np.ndarray) -> str:
    what = "NaN" if np.isnan(data).any() else "infinity or a value too large for dtype('float64')"
    return (
        f"Input X contains {what}. skewlearn learners need finite values: drop or impute "
        "them first (e.g. sklearn.impute.SimpleImputer)."
    )


@njit(**NJIT)
def _csr_fault(indices, indptr, nnz, n_cols):
    """``(row, kind, value)`` of the first structural fault of a CSR matrix, ``(-1, 0, 0)``
    if there is none: kind 1, ``indptr`` decreases at ``row`` or leaves ``[0, nnz]``
    (``value`` = the entry ``indptr[row + 1]``); kind 2, ``row`` holds the column index
    ``value`` outside ``[0, n_cols)``. One pass over ``indptr`` and ``indices``."""
    if indptr[0] < 0 or indptr[0] > nnz:
        return 0, 1, indptr[0]
    for i in range(indptr.shape[0] - 1):
        start = indptr[i]
        stop = indptr[i + 1]
        if stop < start or stop > nnz:
            return i, 1, stop
        for p in range(start, stop):
            col = indices[p]
            if col < 0 or col >= n_cols:
                return i, 2, col
    return -1, 0, 0


#: The unsigned integer type of each width, for :func:`_csr_holds`'s view of the indices.
_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


@njit(**NJIT)
def _csr_holds(unsigned_indices, indptr, nnz, n_cols):
    """Whether a CSR matrix holds together (what :func:`_csr_fault` finds nothing in), by
    reductions without early exits, which vectorise: ``indptr`` never decreases and stays
    in ``[0, nnz]``, and the largest stored column index is below ``n_cols``.

    ``unsigned_indices`` is ``indices`` viewed as the unsigned integers of its width
    (``uint32`` for ``int32``), so a negative index reads above ``n_cols`` when ``n_cols``
    is at most ``2**(bits - 1)`` (:func:`check_csr_structure` calls it only then). The column
    part is the maximum of a slice, which numba compiles to a vectorised loop: indexing
    ``indices[p]`` element by element with a signed ``p`` (as before session 25) did not
    vectorise, and that pass took 36 of the 94 ms of a ``Perceptron.fit`` on 10⁶ CSR rows
    of 15 non-zeros (~2.4 ns an entry against ~0.15 ns now)."""
    first = indptr[0]
    last = indptr[indptr.shape[0] - 1]
    if first < 0 or last > nnz or last < first:
        return False
    drops = False
    for i in range(indptr.shape[0] - 1):
        drops |= indptr[i + 1] < indptr[i]
    if drops:
        return False
    if last == first:
        return True
    return unsigned_indices[first:last].max() < np.uint64(n_cols)


def check_csr_structure(X: sp.csr_matrix | sp.csr_array) -> None:
    """Refuse a CSR matrix whose column indices leave its shape or whose ``indptr``
    decreases. scipy builds such a matrix from ``(data, indices, indptr)`` arrays without
    checking either (only ``check_format(full_check=True)`` does), and the compiled passes,
    which index the weights by column without bounds checks, would read and write outside
    them: silently wrong scores and weights, or a segmentation fault."""
    indptr = X.indptr
    if indptr.shape[0] == 0:
        return
    nnz = min(X.indices.shape[0], X.data.shape[0])
    indices = X.indices
    width = indices.dtype.itemsize
    # viewed unsigned, a negative index reads as 2**(8 * width) - k: above every column only
    # while n_cols <= 2**(8 * width - 1); not so for int8/int16 indices set by hand on a
    # wider matrix (-1 read as column 255 of 300), which the element loop below checks
    if (X.shape[1] <= 1 << (8 * width - 1) or indices.dtype.kind != "i") and _csr_holds(
        indices.view(_UNSIGNED[width]), indptr, nnz, X.shape[1]
    ):
        return
    row, kind, value = _csr_fault(X.indices, indptr, nnz, X.shape[1])
    if kind == 0:
        return
    if kind == 2:
        fault = (
            f"row {row} holds column index {value}, outside 0..{X.shape[1] - 1} for its "
            f"{X.shape[1]} columns"
        )
    else:
        fault = (
            f"its indptr is not non-decreasing within [0, {nnz}] at row {row} "
            f"(indptr[{row + 1}] = {value})"
        )
    raise ValueError(
        f"X is a CSR matrix of shape {X.shape} that does not hold together: {fault}. scipy "
        "does not check this when the matrix is built from (data, indices, indptr) arrays "
        "(X.check_format(full_check=True) does). Build it again with indices inside its "
        "shape, e.g. scipy.sparse.csr_matrix((data, (rows, cols)), shape=(n_rows, "
        "n_features)), which refuses out-of-range entries."
    )


def check_magnitude(
    est: object,
    X: np.ndarray | sp.csr_matrix | sp.csr_array,
    consequence: str,
    values: list[float] | None = None,
) -> None:
    """Refuse NaN/inf in ``X`` (dense or CSR), and values whose squares overflow float64
    (above :func:`max_abs_value`), in one compiled pass; the message names ``est``, the
    ``consequence`` of going on, and asks for scaling. ``values``: ``X``'s values as Python
    floats when the caller built ``X`` from them (one row of a River dict), scanned as such.
    A CSR ``X`` whose structure leaves its shape is refused first
    (:func:`check_csr_structure`)."""
    if values is None and sp.issparse(X) and X.format == "csr":
        check_csr_structure(X)
    if values is not None:
        biggest, finite = _scan_list(values)
        data = X
    else:
        if X.__class__ is np.ndarray and X.flags.c_contiguous:
            data = X.reshape(-1)  # a view
        else:
            data = np.ascontiguousarray(X.data if sp.issparse(X) else X.reshape(-1))
        if data.size == 0:
            return
        biggest, finite = _scan_values(data)
    if not finite:
        raise ValueError(_not_finite_message(data))
    limit = max_abs_value(X.shape[1])
    if biggest > limit:
        raise ValueError(
            f"X holds a value of magnitude {biggest:.3g}, beyond the {limit:.3g} that "
            f"{type(est).__name__} accepts with {X.shape[1]} features: {consequence}. Scale "
            "the features first, e.g. with sklearn.preprocessing.StandardScaler or "
            "MaxAbsScaler."
        )


#: Size (bytes) of a learner's state above which it warns: d × d matrices here, and the
#: support-vector buffers (:data:`skewlearn.kernel.budget.LARGE_BUFFER` is this value).
LARGE_STATE = 2**30


def warn_large_matrices(est: object, count: int, n: int, alternative: str) -> None:
    """Warn (``RuntimeWarning``) when ``est``'s ``count`` dense ``n × n`` float64 matrices
    (``covariance="full"``) pass :data:`LARGE_STATE`: every step updates all of them
    (O(n²) time per sample), and high-dimensional input (text, hashed or one-hot
    features) would otherwise exhaust memory or run for hours without a word. The
    message names ``alternative``, the setting that avoids the matrices."""
    size = 8 * count * n * n
    if size > LARGE_STATE:
        what = f"a {n} × {n} matrix" if count == 1 else f"{count} {n} × {n} matrices"
        warnings.warn(
            f"{type(est).__name__}(covariance='full') keeps {what} ({size / 2**30:.1f} GiB) "
            "and updates every entry at every step (O(d²) time per sample). For input with "
            f"this many features use covariance={alternative!r}, or reduce the features "
            "first (e.g. sklearn.random_projection or TruncatedSVD).",
            RuntimeWarning,
            stacklevel=user_stacklevel(),  # fit, partial_fit, River's learn_one, OMCSL...
        )


def warn_large_fit(est: object, size: int, what: str, alternative: str) -> None:
    """Warn (``RuntimeWarning``) before a batch fit allocates dense matrices of ``size``
    bytes above :data:`LARGE_STATE`: the kernel and least-squares systems of the batch
    learners grow with the square of the rows (or features), so a fit that would need
    tens of GiB otherwise ends in a MemoryError or an out-of-memory kill without a word.
    ``what`` names the matrices, ``alternative`` the setting that avoids them; the
    warning names the user's line (:func:`user_stacklevel`)."""
    if size > LARGE_STATE:
        warnings.warn(
            f"{type(est).__name__} needs {what} for this fit ({size / 2**30:.1f} GiB of "
            f"float64). {alternative}",
            RuntimeWarning,
            stacklevel=user_stacklevel(),
        )


#: The ``threshold`` entry of the docstrings of the learners that take one (KOIL, OAM,
#: OPAUC), put in place of ``{threshold}``.
THRESHOLD_DOC = """threshold : float or None, default=None
        :meth:`predict` votes ``pos_label`` where the score exceeds it (``None`` = 0).
        :meth:`decision_function` is unaffected, so with a threshold set ``predict`` is
        not ``decision_function > 0`` (scikit-learn's convention), and meta-estimators
        that cut ``decision_function`` themselves (``OneVsRestClassifier``,
        ``CalibratedClassifierCV``, ``StackingClassifier``) do not see it. To carry the
        cut through them, leave ``threshold=None`` and wrap the learner in
        ``sklearn.model_selection.FixedThresholdClassifier(threshold=np.nextafter(
        threshold, np.inf), pos_label=...)``, which predicts the same: it votes
        ``pos_label`` at a score >= its own threshold, :meth:`predict` only above
        ``threshold`` (a tie is not positive)."""


def decision_cut(estimator: object) -> float:
    """The score above which ``estimator`` predicts its positive class: its ``threshold``
    (KOIL, OAM, OPAUC) when set, else 0. Every protocol that turns scores into labels uses
    this, so a learner is scored with the rule of its own ``predict``."""
    threshold = getattr(estimator, "threshold", None)
    if threshold is None:
        return 0.0
    if isinstance(threshold, numbers.Real) and math.isfinite(threshold):
        return float(threshold)
    # set after fitting (set_params) to what fit refuses: NaN voted nothing positive, a
    # string was cut at its number. Refuse it with fit's own message.
    validate = getattr(estimator, "_validate_params", None)
    if validate is not None:
        validate()
    raise ValueError(
        f"threshold must be a finite real number or None; got {threshold!r}. Set a finite "
        "threshold, or None for 0."
    )


#: Per class, its parameter names (see :meth:`BinaryClassifier._get_param_names`).
_PARAM_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

#: Per estimator, its float state arrays' names and what they were found among (see
#: :meth:`BinaryClassifier._float_state_names`); weak, so it holds no estimator alive.
_FLOAT_STATE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class VersionedPickleMixin:
    """Pickles carry ``_skewlearn_version``; a pickle from another major.minor version
    refuses to load, saying which version saved it and how to proceed. Used by every
    skewlearn estimator and transformer (place it before ``BaseEstimator`` in the bases)."""

    def __getstate__(self):
        state = super().__getstate__()
        if type(state) is dict:
            state = {**state, "_skewlearn_version": _skewlearn_version()}
        return state

    def __setstate__(self, state):
        if type(state) is dict and "_skewlearn_version" in state:
            state = dict(state)
            saved = state.pop("_skewlearn_version")
            current = _skewlearn_version()
            if _major_minor(saved) != _major_minor(current):
                raise ValueError(
                    f"This {type(self).__name__} was saved by skewlearn {saved}, but "
                    f"skewlearn {current} is installed; models are only loaded by the same "
                    f"major.minor version ({'.'.join(_major_minor(saved))}.x). Refit the "
                    f"model with skewlearn {current}, or load it with the version that "
                    f"saved it (pip install 'skewlearn=={saved}')."
                )
        if type(state) is dict:
            state = {k: v for k, v in state.items() if k != "_mapped_state"}
        super().__setstate__(state)
        if any(
            isinstance(v, np.ndarray) and not v.flags.writeable for v in vars(self).values()
        ):  # memory-mapped by joblib: copied before learning (BinaryClassifier._writable_state)
            self._mapped_state = True


class BinaryClassifier(VersionedPickleMixin, ClassifierMixin, BaseEstimator):
    """Label handling shared by every skewlearn estimator (binary only).

    Labels can be of any type (strings, {0, 1}, {-1, +1}, ...). The positive class is
    ``pos_label`` when given, else ``classes_[1]`` (scikit-learn's convention).
    ``decision_function`` follows scikit-learn's sign convention: a positive value votes
    for ``classes_[1]``, whichever class is ``pos_label``. Subclasses return the raw score
    of ``pos_label`` from ``_scores_of(X)`` on validated input.
    """

    _parameter_constraints: ClassVar[dict] = {"pos_label": "no_validation"}

    #: Small constructor arguments for the common test-suite (like River's
    #: ``_unit_test_params``). Each dict is one configuration to check.
    _test_params: ClassVar[list[dict[str, Any]]] = [{}]

    #: What sparse input the estimator takes ("csr", or False for dense only).
    _accept_sparse: ClassVar[str | bool] = "csr"

    #: Float types taken as they are (no copy); any other input is converted to the first.
    #: Learners whose compiled code reads float32 rows (with float64 arithmetic) add
    #: ``np.float32`` (docs/decisions.md, "Performance at scale").
    _input_dtypes: ClassVar[tuple] = (np.float64,)

    @classmethod
    def _get_param_names(cls) -> list[str]:
        """scikit-learn's parameter names of the class (``__init__``'s arguments, sorted),
        found once per class: scikit-learn reads ``__init__``'s signature on every
        ``get_params`` (~16 us), which ``fit`` calls twice (the parameter validation, and
        :attr:`_started_with`), as ``clone`` and ``set_params`` do."""
        names = _PARAM_NAMES.get(cls)
        if names is None:
            names = _PARAM_NAMES[cls] = tuple(super()._get_param_names())
        return list(names)

    def _dtype(self):
        """The ``dtype`` argument of ``validate_data``: one type, or a list to keep."""
        return list(self._input_dtypes) if len(self._input_dtypes) > 1 else np.float64

    def _scores_of(self, X) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def decision_function(self, X: MatrixLike) -> np.ndarray:
        """Signed confidence; positive values vote for ``classes_[1]``.

        A value of exactly 0 (either sign) votes for the class that is not
        ``pos_label`` (see :meth:`predict`): ``classes_[0]`` by default, as in
        scikit-learn, but ``classes_[1]`` when ``pos_label`` is ``classes_[0]``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Rows to score.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        raw = self._raw_scores(X)
        return raw if self._pos_is_last() else -raw

    def predict(self, X: MatrixLike) -> np.ndarray:
        """Predict ``pos_label`` where the model's score for it is > 0 (> ``threshold`` if set).

        A tie (a score of exactly 0, or -0.0, or equal to ``threshold``) goes to the other
        class, whichever of ``classes_`` is positive, so a model and its mirror with the
        labels renamed predict alike. With ``pos_label = classes_[1]`` (the default) this
        is scikit-learn's ``decision_function(X) > 0``; with ``pos_label = classes_[0]``
        it is ``classes_[1]`` where ``decision_function(X) >= 0``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Rows to label.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        pos = self._raw_scores(X) > decision_cut(self)
        # indices into classes_, so the labels keep its dtype (object labels stayed object
        # in scikit-learn but became '<U3' or int64 through np.where of two scalars)
        index = pos.view(np.int8) if self._pos_is_last() else (~pos).view(np.int8)
        return self.classes_.take(index)

    # ------------------------------------------------------------------ driver
    def _pos_is_last(self) -> bool:
        return bool(self.classes_[1] == self.pos_label_)

    def _neg_label(self):
        return self.classes_[0] if self._pos_is_last() else self.classes_[1]

    def _ready_input(self, X):
        """``X`` itself when it is already what ``validate_data(self, X, reset=False, ...)``
        would return for it, else None (then the caller validates in full).

        That is a C-contiguous 2-D ndarray, or a CSR matrix when sparse input is taken, of
        an accepted float type (``_input_dtypes``), with ``n_features_in_`` columns and at
        least one row, given to a model fitted without feature names. Full validation
        costs about 0.2 ms a call (mostly scikit-learn looking for a dataframe), which is
        most of the time of a small ``partial_fit`` or ``decision_function``: a River-style
        stream calls them once per row.
        """
        if hasattr(self, "feature_names_in_") or X.__class__ not in _READY_TYPES:
            return None
        if X.__class__ is np.ndarray:
            if X.ndim != 2 or not X.flags.c_contiguous:
                return None
        elif not self._accept_sparse:
            return None
        if (
            X.dtype not in self._input_dtypes
            or X.shape[0] < 1
            or X.shape[1] != getattr(self, "n_features_in_", -1)
        ):
            return None
        return X

    def _raw_scores(self, X) -> np.ndarray:
        if not hasattr(self, "classes_"):  # (check_is_fitted costs ~6 us when fitted)
            self._refuse_discarded(NotFittedError)
            check_is_fitted(self, "classes_")
        ready = self._ready_input(X)
        X = ready if ready is not None else self._validate_x(X)
        self._check_magnitude(X)
        raw = self._scores_of(X)
        if not _all_finite(raw):
            raise ValueError(
                f"{type(self).__name__} produced non-finite decision values (inf or NaN): "
                f"the computation overflowed float64 for inputs up to |x| = "
                f"{_max_abs(X):.3g}. Scale the features (e.g. sklearn.preprocessing."
                "StandardScaler) before fitting and predicting."
            )
        return raw

    def _check_magnitude(self, X, values: list[float] | None = None) -> None:
        """Refuse NaN/inf, and values whose squares overflow float64 (see
        :func:`max_abs_value`), in one compiled pass over the values (``values``: see
        :func:`check_magnitude`)."""
        check_magnitude(self, X, "squared norms would overflow float64 and the model would "
                        "become inf/NaN", values)  # fmt: skip

    #: The settings that make the updates larger, each with the direction that makes them
    #: smaller (``(("eta", "smaller"),)``; AROW: ``(("r", "larger"),)``): the overflow
    #: error names them (:meth:`_overflow_advice`).
    _step_params: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: A class's own end of the overflow error message, replacing the advice built from
    #: ``_step_params`` (ROMMA: scaling does not help there).
    _overflow_fix: ClassVar[str | None] = None

    def _step_settings(self) -> tuple[tuple[str, str], ...]:
        """``_step_params`` for the current settings (PA without C: none)."""
        return self._step_params

    def _overflow_advice(self) -> str:
        """What to do when the updates overflow float64 (the end of that error message),
        naming this learner's own step-size settings."""
        if self._overflow_fix is not None:
            return self._overflow_fix
        scale = "Scale the features (e.g. sklearn.preprocessing.StandardScaler)"
        steps = " or ".join(f"a {way} {name}" for name, way in self._step_settings())
        return f"{scale}{f' or use {steps}' if steps else ''}, then call fit again."

    #: State arrays that a learning call writes only when a counter moves, and then only in
    #: the rows (and, for a square array, the columns) of the slots it stored, as
    #: ``{array name: (counter array name, index)}``: KOIL's ``gram_`` and ``sv_`` change
    #: only when a row is stored, which ``counts_[3]`` counts. After a call that left the
    #: counter and the array object as they were, the state check skips the array (it was
    #: checked when it was last written); after one whose stored slots
    #: :meth:`_stored_slots` names, it reads only those rows and columns. So a one-row call
    #: costs what it changed: the scan of a 2,000 x 2,000 ``gram_`` took ~1.5 ms of a
    #: 1.6 ms one-row ``partial_fit``.
    _written_with: ClassVar[dict[str, tuple[str, int]]] = {}

    def _stored_slots(self, X, stored: int) -> np.ndarray | None:
        """The slots (a superset) that a call learning ``X`` and storing ``stored`` rows can
        have written in the :attr:`_written_with` arrays; None: not known, read them all."""
        return None

    def _write_marks(self) -> dict[str, tuple] | None:
        """Before a learning call: each :attr:`_written_with` array with its counter's value
        (None when the class declares none)."""
        if not self._written_with:
            return None
        state = vars(self)
        marks = {}
        for name, (counter, index) in self._written_with.items():
            count = state.get(counter)
            if name in state and isinstance(count, np.ndarray):
                marks[name] = (state[name], count, int(count[index]))
        return marks

    def _written_parts(self, X, marks: dict[str, tuple] | None) -> dict[str, Any]:
        """After a learning call: for each :attr:`_written_with` array it cannot have
        written in full (the same object, and the same object counting writes), the slots
        it can have written (an empty array when the counter did not move)."""
        if not marks:
            return {}
        state = vars(self)
        parts: dict[str, Any] = {}
        slots = {}
        for name, (array, count, value) in marks.items():
            counter, index = self._written_with[name]
            if state.get(name) is not array or state.get(counter) is not count:
                continue
            stored = int(count[index]) - value
            if stored == 0:
                parts[name] = _NO_SLOTS
                continue
            if stored not in slots:
                slots[stored] = self._stored_slots(X, stored)
            if slots[stored] is not None:
                parts[name] = slots[stored]
        return parts

    def _check_finite_state(self, X, written: dict[str, Any] | None = None) -> None:
        """After learning: refuse (and forget) a model whose state overflowed.

        Every float array attribute ending in ``_`` must be finite; otherwise the fitted
        state is deleted, so the broken model can neither predict nor keep learning
        silently, and a ValueError says how to avoid the overflow. ``written``: arrays of
        which the call can have written only the given slots (:meth:`_written_parts`);
        only those rows (and columns of a square array) are read.
        """
        state = vars(self)
        written = written or {}
        bad = [
            name
            for name in self._float_state_names(state)
            if not (
                _slots_finite(state[name], written[name])
                if name in written
                else _all_finite(state[name])
            )
        ]
        if not bad:
            return
        self._discard()
        raise ValueError(
            f"{type(self).__name__}'s state ({', '.join(bad)}) became non-finite (inf or "
            f"NaN) while learning from inputs up to |x| = {_max_abs(X):.3g}: the updates "
            f"overflowed float64. {self._overflow_advice()} The broken model was discarded."
        )

    #: True on a model unpickled with read-only arrays (:meth:`VersionedPickleMixin.
    #: __setstate__`), until :meth:`_writable_state` has copied them.
    _mapped_state: ClassVar[bool] = False

    def _writable_state(self) -> None:
        """Replace read-only state arrays by writable copies before learning in place.

        A model loaded with ``joblib.load(path, mmap_mode="r")``, or handed to a joblib
        worker that memory-maps large arguments, holds its fitted arrays as read-only
        memory maps: predicting works (and keeps the memory saving), but the compiled
        updates write into the arrays and failed with a Numba typing error
        (scikit-learn's SGDClassifier crashes the process there). The copy detaches the
        model from the file, which is left unchanged. Unpickling sets
        :attr:`_mapped_state`, so other learning calls pay one attribute lookup."""
        for name, value in list(vars(self).items()):
            if name[-1:] == "_" and isinstance(value, np.ndarray) and not value.flags.writeable:
                setattr(self, name, np.array(value, order="K"))  # a plain ndarray copy
        self.__dict__.pop("_mapped_state", None)

    def _float_state_names(self, state: Mapping[str, Any]) -> tuple[str, ...]:
        """Names of the float array attributes ending in ``_`` (``state`` is ``vars(self)``).

        Kept (in :data:`_FLOAT_STATE`) with the attribute names and the identities of their
        values: a learning call updates its arrays in place, so the scan (~3 us, a one-row
        ``partial_fit``'s largest check) runs again only when an attribute comes, goes or is
        assigned a new object."""
        key = (tuple(state), tuple(map(id, state.values())))
        try:
            cached = _FLOAT_STATE.get(self)
        except TypeError:  # a subclass that defines __eq__ without __hash__: no cache
            cached = False
        if cached and cached[0] == key:
            return cached[1]
        names = tuple(
            name
            for name, value in state.items()
            if isinstance(value, np.ndarray) and name[-1:] == "_" and value.dtype.kind in "fc"
        )
        if cached is not False:
            _FLOAT_STATE[self] = (key, names)
        return names

    #: Parameters read only when predicting (``decision_cut``): ``set_params`` may change
    #: them between learning calls, and the change takes effect at once.
    _predict_only_params: ClassVar[frozenset] = frozenset({"threshold"})

    def _check_params_unchanged(self) -> None:
        """Refuse a later ``partial_fit``/``test_then_train`` after ``set_params`` changed a
        setting: the running model was built with the old one (its buffers, budgets,
        covariance form, learners, validated values), so the new one would be ignored,
        used unvalidated, or crash the compiled update. Parameters that only predicting
        reads (:attr:`_predict_only_params`) are validated and free to change."""
        before = getattr(self, "_started_with", None)
        if before is None:  # a model pickled before session 9
            return
        now = map(getattr, itertools.repeat(self, len(before)), before)
        if all(map(operator.is_, now, before.values())):
            return  # the very objects it started with (set_params assigns new ones)
        # the started-with keys are the parameter names (get_params would rebuild them
        # from the signature, ~20 us a call)
        now = {k: getattr(self, k) for k in before if k not in self._predict_only_params}
        moved = [k for k in before if k not in now and not same_value(before[k], getattr(self, k))]
        if moved:
            self._validate_params()  # a new threshold is checked as fit checks it
            before.update({k: getattr(self, k) for k in moved})
        refuse_changed(self, before, now)

    def _learned(self, name: str) -> Any:
        """The setting ``name`` the model learned with (:attr:`_started_with`): ``set_params``
        after fitting changes the setting, which the next learning call refuses, but must not
        change what the fitted model predicts (as scikit-learn's ``SVC`` keeps its fitted
        ``gamma``). Before the first learning call, and for a model pickled before session 9,
        the setting itself."""
        started = self.__dict__.get("_started_with") or {}
        return started.get(name, getattr(self, name))

    def _forget(self) -> None:
        for name in [n for n in vars(self) if n.endswith("_") and not n.startswith("__")]:
            delattr(self, name)

    def _discard(self) -> None:
        """Forget a model whose updates overflowed, and mark it so that a later
        ``partial_fit``/``test_then_train`` or ``predict`` refuses it (:meth:`_refuse_discarded`)
        instead of silently starting a new model from that batch. ``fit`` clears the mark.

        The model is not restored to its state before the failing call: that needs a copy
        of the state at every call, 0.2 to 2 times the time of a one-row call
        (docs/decisions.md, session 20)."""
        self._forget()
        self._discarded = True

    def _refuse_discarded(self, error=ValueError) -> None:
        """Raise ``error`` when the model was discarded after an overflow (:meth:`_discard`)."""
        if self.__dict__.get("_discarded"):
            raise error(
                f"This {type(self).__name__} instance is not fitted: its model was discarded "
                "when its updates overflowed float64 (the ValueError of an earlier call), so "
                "it cannot predict or go on learning from where it was. Call fit to start "
                "again (after scaling the features or lowering the step), or clone() it for "
                "a new stream. To keep a long stream's model through such an error, save it "
                "between calls (joblib.dump or copy.deepcopy) and go on from the copy."
            )

    def _validation(self, reset: bool) -> dict[str, Any]:
        """``validate_data``'s options: C-ordered float input of ``_input_dtypes``, CSR if
        ``_accept_sparse``; NaN/inf are left to :meth:`_check_magnitude`'s message."""
        return {
            "reset": reset,
            "accept_sparse": self._accept_sparse,
            "dtype": self._dtype(),
            "order": "C",
            "ensure_all_finite": False,
        }

    def _validate_x(self, X):
        """``validate_data`` of a later call's ``X`` (no ``y``; nothing is reset)."""
        with _text_in_x_hint():
            return validate_data(self, X, **self._validation(False))

    def _validate_xy(self, X, y, reset: bool) -> tuple[Any, np.ndarray]:
        _check_missing_labels(y)  # before scikit-learn, which fails on pandas' NA
        with _text_in_x_hint():
            X, y = validate_data(self, X, y, y_numeric=False, **self._validation(reset))
        if y.dtype == object:  # scikit-learn: "Unknown label type", or a failed sort
            values = y.tolist()
            texts = [isinstance(v, str | bytes) for v in values]
            if any(texts) and not all(texts):
                other = values[texts.index(False)]
                raise ValueError(
                    f"y mixes strings and {type(other).__name__} values as labels "
                    f"({values[texts.index(True)]!r} at index {texts.index(True)}, {other!r} "
                    f"at index {texts.index(False)}), so they cannot be ordered or compared. "
                    "Convert them to one type first (e.g. all strings: y.astype(str))."
                )
        _check_targets(y)
        self._check_magnitude(X)
        return X, y

    def _signed_labels(self, y: np.ndarray) -> np.ndarray:
        """y mapped to +1 (``pos_label_``) and -1 (the other class)."""
        if y.shape[0] <= _FEW:
            pos = self.pos_label_
            return np.array([1.0 if v == pos else -1.0 for v in y.tolist()], dtype=np.float64)
        return np.where(y == self.pos_label_, 1.0, -1.0)

    def _set_classes(self, y: np.ndarray, classes) -> None:
        if classes is None:
            found = _unique_labels(y)
            if len(found) != 2:
                if len(found) < 2:
                    hint = (
                        "Pass classes=[negative, positive] to the first partial_fit or "
                        "test_then_train call, or fit on data with both classes."
                        if hasattr(self, "partial_fit")
                        else "Fit on data with both classes (with class-stratified splits "
                        "when the positives are rare)."
                    )
                    raise ValueError(
                        f"{type(self).__name__} needs both classes to start: y contains one class, "
                        f"{value_list(found)}. {hint}"
                    )
                raise ValueError(self._multiclass_message(found))
            classes = found
        else:
            classes = np.unique(_classes_array(classes))
            if len(classes) > 2:
                raise ValueError(
                    f"classes must hold exactly two labels for a binary learner; got "
                    f"{len(classes)} ({value_list(classes, most=10)}). Wrap the learner in "
                    "sklearn.multiclass.OneVsRestClassifier for more classes."
                )
            if len(classes) < 2:
                got = f"one ({value_list(classes)})" if len(classes) else "none"
                raise ValueError(
                    f"classes must hold exactly two labels for a binary learner; got {got}. "
                    "Pass both labels, the negative and the positive one, as y holds them "
                    "(e.g. classes=[0, 1] or classes=['fraud', 'ok'])."
                )
            labels = _unique_labels(y)
            unknown = np.setdiff1d(labels, classes)
            if len(unknown):
                fix = _one_vs_one_text_hint(classes, unknown) or _unknown_labels_fix(
                    classes, unknown, labels
                )
                raise ValueError(
                    f"y contains labels {value_list(unknown, most=10)} that are not in classes="
                    f"[{value_list(classes)}].{fix}"
                )
        self.classes_ = classes
        if self.pos_label is None:
            self.pos_label_ = classes[1]
        else:
            if isinstance(self.pos_label, list | tuple | set | dict) or np.ndim(self.pos_label):
                del self.classes_
                raise ValueError(
                    f"pos_label must be one label (a number, string or bool), the positive "
                    f"one of the classes [{value_list(classes)}]; got {self.pos_label!r}. "
                    "Set pos_label to one of them, or None to use classes_[1]."
                )
            matches = [c for c in classes if c == self.pos_label]
            if not matches:
                del self.classes_
                raise ValueError(
                    f"pos_label={self.pos_label!r} is not one of the classes "
                    f"[{value_list(classes)}]. Set pos_label to one of them, or None to use "
                    f"classes_[1].{_encoded_labels_hint(classes)}"
                )
            self.pos_label_ = matches[0]

    def _check_classes_argument(self, classes) -> None:
        if classes is None:
            return
        given = np.unique(_classes_array(classes))
        if not np.array_equal(given, self.classes_):
            raise ValueError(
                f"classes=[{value_list(given, most=10)}] differs from the "
                f"classes of earlier calls [{value_list(self.classes_)}]; call fit to start "
                "a new model."
            )

    def _known_labels(self, y, n: int) -> bool:
        """Whether ``y`` is a 1-D array of ``n`` labels, each one of ``classes_``, of a
        type for which that alone settles everything validation checks of ``y`` on a later
        call (finite, a binary target, no new class): integers, booleans or integral
        floats against numeric classes, or strings against strings. Non-integral float
        classes are excluded: scikit-learn calls such labels continuous."""
        if y.__class__ is not np.ndarray or y.ndim != 1 or y.shape[0] != n:
            return False
        kind, known = y.dtype.kind, self.classes_.dtype.kind
        if kind == "U":
            if known != "U":
                return False
        elif kind not in "biuf" or known not in "biuf":
            return False
        elif kind == "f" and not _integral(self.classes_):
            return False
        if n <= _FEW:
            c0, c1 = self.classes_.tolist()
            return all(v == c0 or v == c1 for v in y.tolist())
        c0, c1 = self.classes_
        return bool(((y == c0) | (y == c1)).all())

    def _check_classes(self, y: np.ndarray, classes) -> None:
        self._check_classes_argument(classes)
        unknown = np.setdiff1d(_unique_labels(y), self.classes_)
        if len(unknown):
            # e.g. "0"/"1" or "2"/"1" after 0/1: strings against numbers is a type mismatch,
            # whether or not the union looks binary (every row would be learned as negative)
            mismatch = isinstance(unknown[0], str) != isinstance(self.classes_[0], str)
            if not mismatch:  # (numpy cannot sort a union of strings and numbers)
                labels = np.union1d(self.classes_, unknown)
                if len(labels) > 2:
                    raise ValueError(self._later_class_message(labels, unknown, y))
            raise ValueError(
                f"this batch's labels [{value_list(np.unique(y), most=10)}] are not the classes of "
                f"earlier calls [{value_list(self.classes_)}] (numbers against strings?). "
                "Convert y to the classes' type, or call fit to start a new model."
            )

    def _multiclass_message(self, labels) -> str:
        return (
            "Only binary classification is supported. "
            f"{type(self).__name__} is a binary classifier but y has {len(labels)} classes "
            f"({value_list(labels, most=10)}).{_MULTICLASS_FIX}"
        )

    def _later_class_message(self, labels, unknown: np.ndarray, y: np.ndarray) -> str:
        """A later call's labels outside ``classes_``: the stream's classes so far are
        ``labels``. "This batch brings 3 classes (-1, 0, 1)" was said of a batch of -1/+1
        (the readers' labels) after ``classes=[0, 1]``: the batch held two, and the
        message hid which label was new and why."""
        seen = _unique_labels(y)
        readers = (
            f"{_READERS_LABELS} to the first call, or map y to the classes "
            f"({value_list(self.classes_)}) first."
            if set(seen.tolist()) <= {-1, 1}
            else _MULTICLASS_FIX
        )
        return (
            "Only binary classification is supported. "
            f"{type(self).__name__} has the classes ({value_list(self.classes_)}) from earlier "
            f"calls and this batch brings {value_list(unknown, most=10)} besides: {len(labels)} "
            f"classes ({value_list(labels, most=10)}).{readers}"
        )

    # ------------------------------------------------------------------ sklearn glue
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = bool(self._accept_sparse)
        tags.classifier_tags.multi_class = False
        return tags


class BatchClassifier(BinaryClassifier):
    """Base of the batch learners: ``fit`` validates, maps labels to ±1 and calls
    ``_fit_binary(X, y)``; ``decision_function`` calls ``_decision(X)`` (raw score of
    ``pos_label``). Both receive validated float64 arrays."""

    def _fit_binary(self, X, y: np.ndarray) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _decision(self, X) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def fit(self, X: MatrixLike, y: ArrayLike, **params: Any) -> Self:
        """Fit on ``X, y`` (exactly two classes).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training rows.
        y : array-like of shape (n_samples,)
            Labels; exactly two distinct values.
        **params : dict
            Refused: there is no ``sample_weight`` (the error names the learner's class
            costs and imbalanced-learn's samplers instead).

        Returns
        -------
        self : object
        """
        refuse_fit_params(self, "fit", params)
        self._validate_params()
        self.__dict__.pop("_discarded", None)
        try:
            X, y = self._validate_xy(X, y, reset=True)
            self._set_classes(y, None)
            self._fit_binary(X, self._signed_labels(y))
        except Exception:
            # scikit-learn's validation sets n_features_in_ for the new X before the checks
            # after it refuse the data; an earlier model kept under the new width was read
            # past the end of its arrays (and written, by partial_fit). A refused or failed
            # fit leaves the learner unfitted, as a refused first call does.
            self._forget()
            raise
        self._check_finite_state(X)
        return self

    def _scores_of(self, X) -> np.ndarray:
        return self._decision(X)


class OnlineClassifier(BinaryClassifier):
    """Common driver of every skewlearn online binary classifier.

    Subclasses implement ``_allocate(n_features)``, ``_learn(rows, y, scores)`` and
    ``_scores(rows, out)`` (see the module docstring).

    A learner whose step can overshoot sets ``_step_gain`` (its gain's formula as the
    warning prints it): then ``stability_`` is allocated with the model, its compiled pass
    records every step's gain there (:func:`skewlearn._stability.note_step_gain`), and each
    learning call that adds unstable steps warns (:mod:`skewlearn._stability`).
    """

    _parameter_constraints: ClassVar[dict] = {
        **BinaryClassifier._parameter_constraints,
        "fit_intercept": ["boolean"],
        "random_state": ["random_state"],
    }
    #: The step gain's formula of a learner whose step can overshoot (None: bounded steps).
    _step_gain: ClassVar[str | None] = None
    #: State vectors (length ``n_features + 1``, the intercept's entry last) that a learning
    #: call on CSR rows writes only at the rows' columns and the intercept: every other entry
    #: is left alone, multiplied by a factor in [0, 1] (a decay, a projection onto a ball)
    #: or set to 0, none of which makes a finite value non-finite. After such a call the
    #: state check reads only those entries (:meth:`_column_state_names`).
    _column_state: ClassVar[tuple[str, ...]] = ()

    # ------------------------------------------------------------------ state hooks
    def _allocate(self, n_features: int) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _learn(self, rows: tuple, y: np.ndarray, scores: np.ndarray) -> None:  # pragma: no cover
        raise NotImplementedError

    def _scores(self, rows: tuple, out: np.ndarray) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _uses_intercept(self) -> bool:
        return bool(getattr(self, "fit_intercept", False))

    def _column_state_names(self) -> tuple[str, ...]:
        """The :attr:`_column_state` of this model's settings (a full covariance matrix
        moves every weight: learners with one return fewer names then)."""
        return self._column_state

    def _column_writes(self, rows: tuple, written: dict[str, Any]) -> dict[str, Any]:
        """Check, after a learning call on the CSR batch ``rows``, the entries that it can
        have written in the :meth:`_column_state_names` arrays (vectors of length
        ``d + 1``, or one such vector per row of a matrix: OMCSL's and the bagging
        ensembles' weights): the batch's column indices (repeats included) and the
        intercept's entry. An array found finite there is added to ``written``
        (:meth:`_written_parts`) with no slots left to read; one that is not is left out,
        so :meth:`_check_finite_state` reads it whole and names it.

        Checking only those keeps a call's cost O(nnz), not O(d): scanning a
        million-wide weight vector after a one-row ``partial_fit`` took ~0.4 ms, 20× the
        rest of the call. A batch with more non-zeros than a vector has entries reads
        the arrays whole, which is then cheaper."""
        if not rows[4]:
            return written
        indices, d = rows[1], rows[3]
        if indices.shape[0] >= d:
            return written
        state = vars(self)
        slots = None
        for name in self._column_state_names():
            value = state.get(name)
            if (
                name in written
                or not isinstance(value, np.ndarray)
                or value.ndim > 2
                or value.shape[-1] != d + 1
            ):
                continue
            if slots is None:
                slots = np.empty(indices.shape[0] + 1, dtype=np.intp)
                slots[:-1] = indices
                slots[-1] = d
            if _all_finite(np.ascontiguousarray(value[..., slots])):
                written[name] = _NO_SLOTS
        return written

    def _intercept_feature(self) -> bool:
        """Whether the model's rows carry the constant intercept feature: as decided by
        :meth:`_uses_intercept` when the model started (``_bias_feature``). ``set_params``
        may change ``fit_intercept`` afterwards (the next learning call refuses it), but
        the learned weights keep the setting they were learned with, as scikit-learn's
        ``intercept_`` does: reading the parameter at predict time silently dropped the
        learned intercept from the scores. (A model saved before session 16: the
        parameter.)"""
        started = self.__dict__.get("_bias_feature")
        return self._uses_intercept() if started is None else started

    def _new_rng(self) -> np.ndarray:
        """A fresh generator state seeded from ``random_state`` (see :mod:`skewlearn._rng`)."""
        return seed_state(self.random_state)

    # ------------------------------------------------------------------ public API
    def fit(self, X: MatrixLike, y: ArrayLike, **params: Any) -> Self:
        """Learn from ``X, y`` in one pass, in the given order, starting from scratch.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training rows. Sparse input is converted to CSR and never densified (kernel
            learners copy the rows they keep as support vectors into a dense buffer).
        y : array-like of shape (n_samples,)
            Labels; exactly two distinct values.
        **params : dict
            Refused: there is no ``sample_weight`` (the error names the learner's class
            costs and imbalanced-learn's samplers instead).

        Returns
        -------
        self : object
        """
        refuse_fit_params(self, "fit", params)
        self.__dict__.pop("_discarded", None)
        self._run(X, y, classes=None, reset=True)
        return self

    def partial_fit(
        self, X: MatrixLike, y: ArrayLike, classes: ArrayLike | None = None, **params: Any
    ) -> Self:
        """Learn from one more batch of the stream.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The batch's rows, in stream order.
        y : array-like of shape (n_samples,)
            Their labels.
        classes : array-like of shape (2,), default=None
            Both labels of the problem. Required on the first call unless that batch
            already contains both; ignored afterwards (it must match if given).
        **params : dict
            Refused: there is no ``sample_weight`` (as in :meth:`fit`).

        Returns
        -------
        self : object
        """
        refuse_fit_params(self, "partial_fit", params)
        self._run(X, y, classes=classes, reset=not hasattr(self, "classes_"))
        return self

    def test_then_train(
        self, X: MatrixLike, y: ArrayLike, classes: ArrayLike | None = None, **params: Any
    ) -> np.ndarray:
        """Score each row *before* learning from it, then learn from it (prequential).

        One compiled pass over the batch: row ``i`` is scored by the model that has seen
        rows ``0..i-1`` of this and every earlier batch, then used to update the model.

        Parameters
        ----------
        X, y, classes
            As in :meth:`partial_fit`.
        **params : dict
            Refused: there is no ``sample_weight`` (as in :meth:`fit`).

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            The decision value each row had before the update, with the sign convention
            of :meth:`decision_function`.
        """
        refuse_fit_params(self, "test_then_train", params)
        return self._run(X, y, classes=classes, reset=not hasattr(self, "classes_"))

    def _scores_of(self, X) -> np.ndarray:
        rows = as_rows(X, self._intercept_feature())
        out = np.empty(X.shape[0], dtype=np.float64)
        self._scores(rows, out)
        return out

    def _raw_score_row(self, values: list[float]) -> float:
        """:meth:`_scores_of` of the one dense row ``values`` (Python floats, already
        validated: the model's width, finite, within the magnitude limit), without building
        the 1-row matrix (:func:`~skewlearn._rows.as_row`): the River adapter scores one
        feature dict at a time."""
        out = np.empty(1, dtype=np.float64)
        self._scores(as_row(values, self._intercept_feature()), out)
        return float(out[0])

    def _run(self, X, y, classes, reset: bool) -> np.ndarray:
        if reset:
            self._refuse_discarded()  # partial_fit after an overflow (fit clears the mark)
            self._validate_params()
        else:
            self._check_params_unchanged()
        ready = None if reset else self._ready_input(X)
        labels = y
        if ready is not None and y.__class__ in _LABEL_SEQUENCES:
            labels = _listed_labels(y, ready.shape[0])
        known = (
            labels is not None and ready is not None and self._known_labels(labels, ready.shape[0])
        )
        if known:  # already what validation returns (see _ready_input)
            X, y = ready, labels
            self._check_magnitude(X)
        else:
            try:
                X, y = self._validate_xy(X, y, reset)
            except Exception:
                if reset:
                    self._forget()  # (see BatchClassifier.fit)
                raise
        if reset:
            try:
                self._set_classes(y, classes)
                self._allocate(X.shape[1])
            except Exception:
                # a refused setting (checked against the data in _allocate), a memory
                # error or a size warning turned into an error leaves the learner
                # unfitted, so the corrected call starts cleanly
                self._forget()
                raise
            self._started_with = self.get_params(deep=False)
            self._bias_feature = self._uses_intercept()
            if self._step_gain:
                self.stability_ = np.zeros(2)
        elif known:
            self._check_classes_argument(classes)
        else:
            self._check_classes(y, classes)
        return self._learn_signed(X, self._signed_labels(y))

    def _learn_signed(self, X, ypm: np.ndarray) -> np.ndarray:
        """Learn from validated rows ``X`` (magnitude checked) and labels ``ypm`` in
        {+1 (``pos_label_``), -1}: the compiled pass, then the step-size and overflow
        checks. Returns the pre-update scores with :meth:`decision_function`'s sign.
        (:class:`skewlearn.compat.river.RiverClassifier` calls it directly for one row.)"""
        if self._mapped_state:
            self._writable_state()
        rows = as_rows(X, self._intercept_feature())
        scores = np.empty(X.shape[0], dtype=np.float64)
        marks = self._write_marks()
        if self._step_gain:
            before = float(self.stability_[0])
            self._learn(rows, ypm, scores)
            try:
                warn_unstable_steps(self, before, X.shape[0], self._step_gain)
            except BaseException:
                # the warning turned into an error (-W error): the overflow checks still
                # run, or the model would keep a non-finite state that the next CSR call,
                # which reads only its columns (_column_writes), need not see
                self._check_learned(X, rows, scores, marks)
                raise
        else:
            self._learn(rows, ypm, scores)
        self._check_learned(X, rows, scores, marks)
        return scores if self._pos_is_last() else -scores

    def _check_learned(self, X, rows: tuple, scores: np.ndarray, marks) -> None:
        """After a learning call: discard the model, with the error naming the overflow,
        when its scores or its state became non-finite."""
        if not _all_finite(scores):
            self._discard()
            raise ValueError(
                f"{type(self).__name__} produced non-finite scores (inf or NaN) while "
                f"learning from inputs up to |x| = {_max_abs(X):.3g}: the updates overflowed "
                f"float64. {self._overflow_advice()} The broken model was discarded."
            )
        written = self._column_writes(rows, self._written_parts(X, marks))
        self._check_finite_state(X, written)


def refuse_changed(est: object, before: dict, now: dict, prefix: str = "") -> None:
    """Raise the ValueError of :meth:`BinaryClassifier._check_params_unchanged` when a
    setting of ``now`` differs from ``before`` (names shown with ``prefix``, e.g.
    ``"base_estimator__"`` for a nested estimator's settings)."""
    changed = [k for k in now if not same_value(before.get(k), now[k])]
    if changed:
        shown = ", ".join(f"{prefix}{k}={before.get(k)!r} -> {now[k]!r}" for k in changed)
        raise ValueError(
            f"{type(est).__name__}: {shown} changed (set_params) after the model started "
            "learning; a running model keeps the settings it started with. Call fit, or "
            "partial_fit on sklearn.base.clone(model), to start over with the new ones."
        )


def read_only(a: np.ndarray) -> np.ndarray:
    """``a`` (a view or a fresh array) marked read-only, for a fitted attribute computed
    from the model's state: a write into it would change the model when it is a view and
    be lost when it is a copy, so both are refused (numpy's "assignment destination is
    read-only"). The state it views stays writable."""
    a.flags.writeable = False
    return a


class WeightVectorMixin:
    """``coef_`` and ``intercept_`` of a model kept as ``weights_`` = ``[w, b]`` (length
    ``n_features + 1``, the intercept last), with ``classes_[1]`` as the positive side
    (scikit-learn's convention, the sign of :meth:`decision_function`): read-only views of
    ``weights_``, or negated copies of them when ``pos_label`` is ``classes_[0]``.

    Read-only (:func:`read_only`, session 26): a write into a view changed the model and
    one into a copy was lost, depending on ``pos_label`` and, for OGD and
    TruncatedGradient, on the state; every write is now refused. ``coef_.copy()`` is the
    user's to change."""

    @property
    def coef_(self) -> np.ndarray:
        """Weights of the features, shape (1, n_features), with ``classes_[1]`` as the
        positive side (scikit-learn's convention, the sign of :meth:`decision_function`);
        read-only."""
        check_is_fitted(self, "weights_")
        w = self.weights_[None, :-1]
        return read_only(w if self._pos_is_last() else -w)

    @property
    def intercept_(self) -> np.ndarray:
        """Intercept, shape (1,), with the sign convention of :meth:`decision_function`;
        read-only."""
        check_is_fitted(self, "weights_")
        b = self.weights_[-1:]
        return read_only(b if self._pos_is_last() else -b)


class OnlineLinearClassifier(WeightVectorMixin, OnlineClassifier):
    """An online learner whose model is a weight vector ``w`` and an intercept ``b``.

    Learned state: ``weights_`` of length ``n_features + 1`` (the last entry is the
    intercept; it is updated exactly like a weight whose feature is always 1, the
    augmented-vector convention of the papers), and ``counts_`` =
    ``[samples seen, positives seen, negatives seen, updates made]``.
    ``coef_`` (1, n_features) and ``intercept_`` (1,) come from ``weights_``
    (:class:`WeightVectorMixin`).
    """

    _parameter_constraints: ClassVar[dict] = {
        **OnlineClassifier._parameter_constraints,
    }

    def _allocate(self, n_features: int) -> None:
        self.weights_ = np.zeros(n_features + 1, dtype=np.float64)
        self.counts_ = np.zeros(4, dtype=np.int64)

    def _scores(self, rows: tuple, out: np.ndarray) -> None:
        linear_scores(self.weights_, rows, out)

    @property
    def n_samples_seen_(self) -> int:
        """Number of samples learned from so far."""
        check_is_fitted(self, "counts_")
        return int(self.counts_[0])
