"""Batch metrics for imbalanced binary classification.

Every function takes ``(y_true, y_score_or_pred, *, pos_label=None)`` like scikit-learn.
Labels may be of any type (strings, booleans, {0, 1}, {-1, +1}, ...), one type per array; a
missing label (None, NaN, ``pd.NA``) is an error naming its index, not a third class.
Scores are real numbers (text and complex values are refused).

**Positive class.** ``pos_label`` when given. Otherwise the larger of the two labels
present (``1`` in {0, 1} and {-1, +1}, ``True`` for booleans, the later string in sort
order), which is scikit-learn's ``classes_[1]``. The labels considered are those of
``y_true`` for score metrics and of ``y_true`` and ``y_pred`` together for label metrics.
When only one label is present and ``pos_label`` is None, it is the positive class if it
equals 1 (or ``True``), a negative one if it equals 0 or -1; any other single label is an
error that asks for ``pos_label``.

**Undefined values raise.** ROC AUC needs both classes in ``y_true``; PR AUC, sensitivity
need a positive; specificity needs a negative; G-mean and balanced accuracy need both. The
F-measure is 0 when there is no true positive (scikit-learn's ``zero_division=0``), also
in the 0/0 case without any positive, true or predicted.

ROC AUC counts ties between a positive and a negative score as ½ and runs in
O(n log n): one sort, then per distinct score the number of negatives strictly below it.
All pair counts are exact integers; the only rounding is the final division.

**Sample weights.** Every function takes ``sample_weight=None``: finite, non-negative
weights, one per sample (scikit-learn's meaning). The counts become sums of weights
(floats): TP is the total weight of the true positives, and so on; a ROC pair
(positive i, negative j) weighs :math:`w_i w_j`; precision and recall on the PR curve
are ratios of weight sums. A weight of 0 removes a sample, and integer weights equal
repeating the rows. Without weights the integer counts above are kept.

References
----------
.. [1] J. A. Hanley, B. J. McNeil, "The meaning and use of the area under a receiver
   operating characteristic (ROC) curve", Radiology 143(1):29-36, 1982 (AUC as the
   Mann-Whitney probability, ties ½).
.. [2] J. Davis, M. Goadrich, "The relationship between precision-recall and ROC curves",
   ICML 2006 (why linear interpolation in PR space is optimistic).
.. [3] M. Kubat, S. Matwin, "Addressing the curse of imbalanced training sets: one-sided
   selection", ICML 1997 (G-mean of the two class accuracies).
.. [4] C. J. van Rijsbergen, *Information Retrieval*, 2nd ed., Butterworths, 1979
   (the F-measure; ``beta`` weighs recall).
.. [5] K. H. Brodersen, C. S. Ong, K. E. Stephan, J. M. Buhmann, "The balanced accuracy
   and its posterior distribution", ICPR 2010.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .._values import plain, row_words, value_list

if TYPE_CHECKING:
    from .._typing import ArrayLike, Label

__all__ = [
    "ConfusionCounts",
    "balanced_accuracy",
    "confusion_counts",
    "f1",
    "fbeta",
    "gmean",
    "pr_auc",
    "precision",
    "roc_auc",
    "sensitivity",
    "specificity",
]


class ConfusionCounts(NamedTuple):
    """Counts of a binary confusion matrix (positive = ``pos_label``): ints, or float sums
    of weights when a metric is given ``sample_weight``."""

    tp: int | float
    fp: int | float
    tn: int | float
    fn: int | float


# --------------------------------------------------------------------------- validation
def _as_1d(values, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        if arr.ndim == 2 and 1 in arr.shape:
            arr = arr.ravel()
        else:
            raise ValueError(
                f"{name} must be one-dimensional; got an array of shape {arr.shape}. "
                "Pass one label or score per sample."
            )
    return arr


def _is_missing(value) -> bool:
    """Whether one label is missing: None, NaN or pandas' ``NA``/``NaT``."""
    if value is None:
        return True
    if isinstance(value, float | np.floating | np.datetime64 | np.timedelta64):
        return bool(np.isnan(value))
    return type(value).__name__ in ("NAType", "NaTType")


def _value_kind(value) -> str:
    if isinstance(value, str | bytes):
        return "string"
    if isinstance(value, numbers.Number | np.bool_ | np.number):
        return "number"
    return type(value).__name__


def _check_labels(
    arr: np.ndarray, name: str, needs: str = "a metric needs a label for every sample", given=None
) -> np.ndarray:
    """``arr`` unless it holds a missing label (None, NaN, ``pd.NA``) or, as objects, labels
    of more than one type: np.unique would count NaN as a class, or fail on ``None < 0``
    with numpy's message. ``needs``: the message's words on who needs every label; ``given``:
    the labels as the user passed them (a pandas ``y``'s index names the row:
    :func:`~skewlearn._values.row_words`)."""
    if arr.dtype.kind == "f":
        missing = np.flatnonzero(np.isnan(arr))
    elif arr.dtype.kind == "O":
        missing = np.flatnonzero([_is_missing(v) for v in arr])
    else:
        return arr
    if len(missing):
        first = arr[missing[0]]
        first = first.item() if isinstance(first, np.generic) else first
        raise ValueError(
            f"{name} holds {len(missing)} missing label{'s' if len(missing) > 1 else ''} "
            f"({first!r} at {row_words(given, int(missing[0]))}); {needs}. "
            "Drop those samples (in both arrays) or fill the labels in first."
        )
    if arr.dtype.kind == "O":
        kinds = sorted({_value_kind(v) for v in arr})
        if len(kinds) > 1:
            shown = " and ".join(f"{k}s" if k in ("number", "string") else k for k in kinds)
            raise ValueError(
                f"{name} mixes {shown} as labels, so they cannot be ordered or compared. "
                "Convert them to one type first (e.g. all strings: y.astype(str))."
            )
    return arr


def _check_lengths(y_true: np.ndarray, other: np.ndarray, other_name: str) -> None:
    if len(y_true) != len(other):
        raise ValueError(
            f"y_true and {other_name} must have the same length; got {len(y_true)} and "
            f"{len(other)}."
        )
    if len(y_true) == 0:
        raise ValueError("y_true is empty; a metric needs at least one sample.")


def _weights(sample_weight, n: int) -> np.ndarray | None:
    """``sample_weight`` as finite, non-negative float64 of length ``n``; None stays None."""
    if sample_weight is None:
        return None
    w = _as_1d(sample_weight, "sample_weight")
    if len(w) != n:
        raise ValueError(
            f"sample_weight must hold one weight per sample; got {len(w)} weights for {n} samples."
        )
    if w.dtype.kind in "USVT" or (  # T: numpy 2's StringDType
        w.dtype.kind == "O" and any(isinstance(v, str | bytes) for v in w.ravel())
    ):
        raise TypeError(
            "sample_weight must hold numbers, one weight per sample; got strings (convert "
            "them with astype(float) if they are weights)."
        )
    _refuse_complex(w, "sample_weight")
    try:
        w = w.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"sample_weight must hold numbers; got dtype {w.dtype}. Pass one number per sample."
        ) from exc
    bad = np.flatnonzero(~np.isfinite(w) | (w < 0))
    if len(bad):
        raise ValueError(
            f"sample_weight must be finite and >= 0; {len(bad)} weight(s) are not (first "
            f"{float(w[bad[0]])!r} at index {int(bad[0])}). Give such samples weight 0 to leave "
            "them out, or fix the weights."
        )
    return w


def _power_of_two_scaled(w: np.ndarray | None, by: np.ndarray | None = None) -> np.ndarray | None:
    """``w`` times the power of two that brings the largest weight of ``by`` (default
    ``w``) into [0.5, 1). A ranking metric does not depend on the weights' scale, but its
    pair products and sums do: weights of 1e-200 made every product 0 and of 1e160
    infinite. A power of two is exact, so ordinary weights give the same value, bit for
    bit. Weights far above ``by``'s may become inf (not warned: the callers expect it)."""
    if w is None or len(w) == 0:
        return w
    top = float((w if by is None else by).max(initial=0.0))
    if top == 0.0:
        return w
    with np.errstate(over="ignore"):
        return np.ldexp(w, -math.frexp(top)[1])


def _scaled_per_class(w: np.ndarray | None, is_pos: np.ndarray) -> np.ndarray | None:
    """``w`` with each class's weights scaled by the power of two that brings that class's
    largest into [0.5, 1). ROC AUC does not depend on either class's scale (its numerator
    and denominator are bilinear in the two classes' weights); one scale for both turned a
    class whose weights lie ~1e308 below the other's into zeros or subnormals (session 26).
    Ordinary weights give the same value as one scale, bit for bit.

    The weights are finite and >= 0 (:func:`_weights`), so a class's largest is the
    largest of ``w`` times its mask, and one ``ldexp`` by a per-sample exponent scales
    both: copying each class's weights out by its mask cost ~10x (~3.5 ms at 2·10⁵)."""
    if w is None or len(w) == 0:
        return w
    pos, neg = (-math.frexp(float(np.max(w * side)))[1] for side in (is_pos, ~is_pos))
    k = is_pos.astype(np.int32)  # (frexp(0) is (0, 0): a class of zeros is left as it is)
    k *= pos - neg
    k += neg
    return np.ldexp(w, k)


def _is_one(label) -> bool:
    return isinstance(label, numbers.Number | np.bool_ | np.number) and label == 1


def _is_zero_or_minus_one(label) -> bool:
    return isinstance(label, numbers.Number | np.bool_ | np.number) and label in (0, -1)


def _resolve_pos_label(labels: np.ndarray, pos_label):
    """Return ``(pos, known)``: the positive label, and False when no present label is it."""
    if len(labels) > 2:
        raise ValueError(
            f"Only binary metrics are defined here, but the labels hold {len(labels)} classes "
            f"({value_list(labels, 6)}). Map them to two classes "
            "(e.g. minority vs rest)."
        )
    if pos_label is not None:
        held = {_value_kind(v) for v in labels}
        wanted = _value_kind(pos_label)
        if wanted in ("number", "string") and held == ({"number", "string"} - {wanted}):
            raise ValueError(
                f"the labels are {held.pop()}s but pos_label={pos_label!r} is a {wanted}, so no "
                "label can equal it and every sample would count as negative. Set pos_label "
                f"to one of the labels ({value_list(labels)})."
            )
        if len(labels) == 2 and not any(lab == pos_label for lab in labels):
            raise ValueError(
                f"pos_label={pos_label!r} is not one of the labels "
                f"[{value_list(labels)}]. Set pos_label to one of them."
            )
        return pos_label
    if len(labels) == 2:
        return labels[1]
    only = plain(labels[0])
    if _is_one(only):
        return labels[0]
    if _is_zero_or_minus_one(only):
        return None
    raise ValueError(
        f"Only one label ({only!r}) is present, so the positive class cannot be inferred. "
        "Pass pos_label=<the positive label>."
    )


def _positives(y: np.ndarray, pos) -> np.ndarray:
    if pos is None:
        return np.zeros(len(y), dtype=bool)
    return np.asarray(y == pos, dtype=bool).reshape(len(y))


def _float_scores(values, name: str) -> np.ndarray:
    """``values`` as float64 scores, refusing text, complex numbers and what is no number
    (the checks of :func:`_score_array` without its exactness rule, for binned scores)."""
    arr = _refuse_text(np.asarray(values), name)
    _refuse_complex(arr, name)
    return _as_floats(arr, name)


def _as_floats(arr: np.ndarray, name: str) -> np.ndarray:
    """``arr`` as float64, its missing values (None, ``pd.NA``, ``NaT``) as NaN, which the
    callers name; anything else that is no number is refused. (``pd.NA`` fails
    ``float()``, and was told to pass scores rather than predicted labels.) Dates and
    durations (numpy's kinds "M" and "m") are no scores: float64 took their ticks, and NaT,
    a missing value, as -9.2e18."""
    if arr.dtype.kind in "mM":
        raise TypeError(
            f"{name} must hold numbers (decision values or probabilities); got dtype "
            f"{arr.dtype} (dates or durations). Pass scores, not another column."
        )
    try:
        return arr.astype(np.float64)
    except (TypeError, ValueError) as exc:
        if arr.dtype.kind == "O":
            missing = np.array([_is_missing(v) for v in arr.ravel()], dtype=bool)
            if missing.any():
                try:
                    return np.where(missing.reshape(arr.shape), None, arr).astype(np.float64)
                except (TypeError, ValueError):
                    pass  # something else is no number either
        raise TypeError(
            f"{name} must hold numbers (decision values or probabilities); got dtype "
            f"{arr.dtype}. Pass scores, not predicted labels."
        ) from exc


def _score_array(values, name: str, *, exact_ranks: bool) -> np.ndarray:
    """``values`` as float64 scores for a ranking metric, which needs only their order.

    Strings (even numeric ones such as "0.9") are refused: they are predicted labels or
    unparsed text, as scikit-learn says. Integers beyond 2**53 (e.g. nanosecond timestamps)
    and long doubles can merge in float64 (2**53 and 2**53 + 1 are one float); then, with
    ``exact_ranks``, their dense ranks are returned instead (same order, same ties, so
    the same AUC), else a ValueError says what to do.
    """
    arr = _refuse_text(np.asarray(values), name)
    _refuse_complex(arr, name)
    scores = _as_floats(arr, name)
    if _float64_keeps_ties(arr, scores) or np.isnan(scores).any():
        return scores  # NaN (or None): the caller names it; ranks would hide it
    if exact_ranks:
        _, ranks = np.unique(arr, return_inverse=True)
        return ranks.reshape(arr.shape).astype(np.float64)
    raise ValueError(
        f"{name} holds integers beyond 2**53 (or long doubles) that float64 cannot tell "
        "apart, so distinct scores would count as ties. Subtract a common offset first (e.g. "
        "the first timestamp), or use the batch roc_auc / pr_auc, which rank them exactly."
    )


def _refuse_text(arr: np.ndarray, name: str) -> np.ndarray:
    """``arr`` unless it holds text (or raw bytes): a score is a number, and '0.9' read as
    one would hide predicted labels or an unparsed column (scikit-learn refuses them)."""
    if arr.dtype.kind in "USVT" or (  # T: numpy 2's StringDType
        arr.dtype.kind == "O" and any(isinstance(v, str | bytes) for v in arr.ravel())
    ):
        raise TypeError(
            f"{name} must hold numbers (decision values or probabilities); got "
            f"{'strings' if arr.dtype.kind != 'V' else arr.dtype}. Pass scores, not predicted "
            "labels (convert text with astype(float) if it really holds scores)."
        )
    return arr


def _refuse_complex(arr: np.ndarray, name: str) -> None:
    """Refuse complex numbers: the cast to float64 would drop the imaginary part, with
    only a ComplexWarning (scikit-learn refuses them)."""
    if arr.dtype.kind == "c" or (
        arr.dtype.kind == "O"
        and any(isinstance(v, complex | np.complexfloating) for v in arr.ravel())
    ):
        raise TypeError(
            f"{name} must hold real numbers; got complex values. Pass their real part "
            "(np.real) or their modulus (np.abs), whichever is meant."
        )


def _float64_keeps_ties(arr: np.ndarray, scores: np.ndarray) -> bool:
    """Whether distinct values of ``arr`` stay distinct as float64 ``scores``."""
    kind = arr.dtype.kind
    if kind in "iu":
        return arr.size == 0 or (-(2**53) <= int(arr.min()) and int(arr.max()) <= 2**53)
    if kind == "f" and arr.dtype.itemsize > 8:  # long double: as many distinct values
        return len(np.unique(arr)) == len(np.unique(scores))
    if kind == "O":  # Python ints of any size
        return all(
            -(2**53) <= v <= 2**53
            for v in arr.ravel()
            if isinstance(v, int | np.integer) and not isinstance(v, bool)
        )
    return True


def _score_inputs(
    y_true, y_score, pos_label, sample_weight=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validate and return ``(is_pos, scores, weights)``."""
    y_true = _check_labels(_as_1d(y_true, "y_true"), "y_true", given=y_true)
    y_score = _as_1d(y_score, "y_score")
    _check_lengths(y_true, y_score, "y_score")
    scores = _score_array(y_score, "y_score", exact_ranks=True)
    if np.isnan(scores).any():
        raise ValueError(
            f"y_score contains NaN at {int(np.isnan(scores).sum())} position(s) (first at "
            f"index {int(np.flatnonzero(np.isnan(scores))[0])}); a ranking metric needs "
            "comparable scores. Check the model output."
        )
    w = _weights(sample_weight, len(y_true))
    pos = _resolve_pos_label(np.unique(y_true), pos_label)
    return _positives(y_true, pos), scores, w


def _label_kind(a: np.ndarray) -> str:
    """ "number", "string" or "other" (objects of mixed or other types)."""
    if a.dtype.kind in "biuf":
        return "number"
    if a.dtype.kind in "UST":
        return "string"
    if a.dtype.kind == "O" and len(a):
        if all(isinstance(v, str) for v in a):
            return "string"
        if all(isinstance(v, numbers.Number) for v in a):
            return "number"
    return "other"


def _label_inputs(
    y_true, y_pred, pos_label, sample_weight=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validate and return ``(true_is_pos, pred_is_pos, weights)``."""
    y_true = _check_labels(_as_1d(y_true, "y_true"), "y_true", given=y_true)
    y_pred = _check_labels(_as_1d(y_pred, "y_pred"), "y_pred", given=y_pred)
    _check_lengths(y_true, y_pred, "y_pred")
    kinds = {name: _label_kind(a) for name, a in (("y_true", y_true), ("y_pred", y_pred))}
    if {"number", "string"} <= set(kinds.values()):
        raise ValueError(
            f"y_true holds {kinds['y_true']}s and y_pred {kinds['y_pred']}s, so no label "
            "of one can equal a label of the other (scikit-learn: 'Mix of label input "
            "types'). Convert one to the other's type, e.g. y_pred.astype(int)."
        )
    w = _weights(sample_weight, len(y_true))
    labels = np.unique(np.concatenate([np.unique(y_true), np.unique(y_pred)]))
    pos = _resolve_pos_label(labels, pos_label)
    return _positives(y_true, pos), _positives(y_pred, pos), w


# --------------------------------------------------------------------------- counting
def _pair_count2(is_pos: np.ndarray, scores: np.ndarray, w: np.ndarray | None = None):
    """Twice the Mann-Whitney count: 2·#{(p, n): s_p > s_n} + #{(p, n): s_p = s_n}.

    One stable sort, then per group of equal scores: its positives times the negatives
    strictly below it (×2) plus its positives times its own negatives (a tie, ×1). An
    exact int; with weights ``w`` each pair counts :math:`w_p w_n` and the sum is a float.
    """
    n = len(scores)
    if n == 0:
        return 0
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    starts = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))
    if w is None:
        pos_g = np.add.reduceat(is_pos[order].astype(np.int64), starts)
        neg_g = np.diff(np.append(starts, n)) - pos_g
    else:
        pos_w = np.where(is_pos, w, 0.0)[order]
        pos_g = np.add.reduceat(pos_w, starts)
        neg_g = np.add.reduceat(w[order] - pos_w, starts)
    neg_below = np.cumsum(neg_g) - neg_g
    total = np.sum(2 * neg_below * pos_g + pos_g * neg_g)
    return int(total) if w is None else float(total)


def _counts(t: np.ndarray, p: np.ndarray, w: np.ndarray | None = None) -> ConfusionCounts:
    if w is not None:
        return ConfusionCounts(
            *(float(np.sum(w, where=m)) for m in (t & p, ~t & p, ~t & ~p, t & ~p))
        )
    tp = int(np.count_nonzero(t & p))
    fp = int(np.count_nonzero(~t & p))
    fn = int(np.count_nonzero(t & ~p))
    return ConfusionCounts(tp, fp, len(t) - tp - fp - fn, fn)


def _need(c: ConfusionCounts, positives: bool, negatives: bool, metric: str) -> None:
    if positives and c.tp + c.fn == 0:
        raise ValueError(
            f"{metric} is undefined: y_true has no positive sample (pos_label) of weight > 0. "
            "Pass pos_label if the positive class is another label, or evaluate on data "
            "with both classes."
        )
    if negatives and c.tn + c.fp == 0:
        raise ValueError(
            f"{metric} is undefined: y_true has no negative sample of weight > 0. "
            "Evaluate on data with both classes."
        )


# Formulas on counts, shared with the streaming metrics.
def _fbeta_from(c: ConfusionCounts, beta: float) -> float:
    """F-beta of counts. When ``beta**2`` or the weighted sums overflow float64 (beta above
    ~1e154, or weights near 1e300), the same value divided through by ``1 + beta**2``:
    ``TP / (TP + w FN + v FP)`` with ``w = beta**2 / (1 + beta**2)``, ``v = 1 - w``, which
    tends to recall as beta grows (the direct form gave inf / inf = NaN)."""
    if c.tp == 0:
        return 0.0
    b2 = beta * beta
    num = (1.0 + b2) * c.tp
    den = num + b2 * c.fn + c.fp
    if math.isfinite(den):
        return num / den
    if beta > 1.0:  # 1 / beta**2 cannot overflow
        r2 = (1.0 / beta) ** 2
        w, v = 1.0 / (1.0 + r2), r2 / (1.0 + r2)
    else:
        w, v = b2 / (1.0 + b2), 1.0 / (1.0 + b2)
    return c.tp / (c.tp + w * c.fn + v * c.fp)


def _tpr(c: ConfusionCounts) -> float:
    return c.tp / (c.tp + c.fn)


def _tnr(c: ConfusionCounts) -> float:
    return c.tn / (c.tn + c.fp)


def _gmean_from(c: ConfusionCounts) -> float:
    return float(np.sqrt(_tpr(c) * _tnr(c)))


# --------------------------------------------------------------------------- public
def confusion_counts(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Label | None = None,
    sample_weight: ArrayLike | None = None,
) -> ConfusionCounts:
    """Counts ``(tp, fp, tn, fn)`` of a binary prediction.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (any type, at most two distinct values together).
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights; the counts become sums of weights.

    Returns
    -------
    ConfusionCounts
        A named tuple ``(tp, fp, tn, fn)`` of ints, or of floats with ``sample_weight``.

    Examples
    --------
    >>> from skewlearn.metrics import confusion_counts
    >>> confusion_counts(["a", "b", "b", "a"], ["a", "b", "a", "b"])
    ConfusionCounts(tp=1, fp=1, tn=1, fn=1)
    """
    return _counts(*_label_inputs(y_true, y_pred, pos_label, sample_weight))


def _ratio_counts(y_true, y_pred, pos_label, sample_weight) -> ConfusionCounts:
    """:func:`confusion_counts` for a metric that is a ratio of counts: when the weighted
    sums overflow float64 (inf / inf gave NaN or 0), they are summed again with the
    weights scaled by a power of two (:func:`_power_of_two_scaled`), which leaves every
    ratio unchanged; other weights give the counts as they are."""
    t, p, w = _label_inputs(y_true, y_pred, pos_label, sample_weight)
    with np.errstate(over="ignore"):  # an overflow is handled below
        c = _counts(t, p, w)
    if w is not None and not all(math.isfinite(v) for v in c):
        c = _counts(t, p, _power_of_two_scaled(w))
    return c


def _check_beta(beta) -> None:
    if isinstance(beta, bool) or not (isinstance(beta, numbers.Real) and 0 < beta < math.inf):
        raise ValueError(
            f"beta must be a finite real number > 0; got {beta!r} (for recall alone, use "
            "sensitivity)."
        )


def fbeta(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    beta: float = 1.0,
    pos_label: Label | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """F-beta measure :math:`\\frac{(1+\\beta^2)\\,TP}{(1+\\beta^2)\\,TP + \\beta^2 FN + FP}`.

    0 when there is no true positive (scikit-learn's ``zero_division=0``).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    beta : float, default=1.0
        Weight of recall, > 0.
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights; TP, FP and FN become sums of weights.

    Returns
    -------
    float

    Examples
    --------
    >>> from skewlearn.metrics import fbeta
    >>> round(fbeta([1, 1, 0, 0], [1, 0, 1, 0], beta=2.0), 4)
    0.5
    """
    _check_beta(beta)
    return _fbeta_from(
        _ratio_counts(y_true, y_pred, pos_label, sample_weight),
        float(beta),
    )


def f1(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Label | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """F1 measure :math:`2TP / (2TP + FP + FN)`; 0 without a true positive.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (any type, at most two distinct values together).
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights; the counts become sums of weights.

    Returns
    -------
    float

    Examples
    --------
    >>> from skewlearn.metrics import f1
    >>> f1([1, 1, 0, 0], [1, 0, 1, 0])
    0.5
    """
    return _fbeta_from(_ratio_counts(y_true, y_pred, pos_label, sample_weight), 1.0)


def precision(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Label | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Precision :math:`TP / (TP + FP)`; 0 when nothing is predicted positive.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (any type, at most two distinct values together).
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights; the counts become sums of weights.

    Returns
    -------
    float

    Examples
    --------
    >>> from skewlearn.metrics import precision
    >>> precision([1, 1, 0, 0], [1, 1, 1, 0])
    0.6666666666666666
    """
    c = _ratio_counts(y_true, y_pred, pos_label, sample_weight)
    return c.tp / (c.tp + c.fp) if c.tp + c.fp else 0.0


def sensitivity(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Label | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Sensitivity (recall, true positive rate) :math:`TP / (TP + FN)`.

    Raises ValueError when ``y_true`` has no positive.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (any type, at most two distinct values together).
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights; the counts become sums of weights.

    Returns
    -------
    float

    Examples
    --------
    >>> from skewlearn.metrics import sensitivity
    >>> sensitivity([1, 1, 0, 0], [1, 0, 0, 0])
    0.5
    """
    c = _ratio_counts(y_true, y_pred, pos_label, sample_weight)
    _need(c, True, False, "sensitivity")
    return _tpr(c)


def specificity(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Label | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Specificity (true negative rate) :math:`TN / (TN + FP)`.

    Raises ValueError when ``y_true`` has no negative.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (any type, at most two distinct values together).
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights; the counts become sums of weights.

    Returns
    -------
    float

    Examples
    --------
    >>> from skewlearn.metrics import specificity
    >>> specificity([1, 0, 0, 0], [1, 1, 0, 0])
    0.6666666666666666
    """
    c = _ratio_counts(y_true, y_pred, pos_label, sample_weight)
    _need(c, False, True, "specificity")
    return _tnr(c)


def gmean(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Label | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Geometric mean of sensitivity and specificity, :math:`\\sqrt{TPR \\cdot TNR}`.

    Equals imbalanced-learn's ``geometric_mean_score`` on binary data. Raises ValueError
    unless ``y_true`` holds both classes.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (any type, at most two distinct values together).
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights; the counts become sums of weights.

    Returns
    -------
    float

    Examples
    --------
    >>> from skewlearn.metrics import gmean
    >>> gmean([1, 1, 0, 0], [1, 0, 0, 0])
    0.7071067811865476
    """
    c = _ratio_counts(y_true, y_pred, pos_label, sample_weight)
    _need(c, True, True, "G-mean")
    return _gmean_from(c)


def balanced_accuracy(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    pos_label: Label | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Balanced accuracy :math:`(TPR + TNR) / 2`.

    Raises ValueError unless ``y_true`` holds both classes.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (any type, at most two distinct values together).
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights; the counts become sums of weights.

    Returns
    -------
    float

    Examples
    --------
    >>> from skewlearn.metrics import balanced_accuracy
    >>> balanced_accuracy([1, 1, 0, 0], [1, 0, 0, 0])
    0.75
    """
    c = _ratio_counts(y_true, y_pred, pos_label, sample_weight)
    _need(c, True, True, "balanced accuracy")
    return 0.5 * (_tpr(c) + _tnr(c))


def roc_auc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Label | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Area under the ROC curve: the probability that a random positive outscores a random
    negative, ties counted ½,

    .. math::

        \\mathrm{AUC} = \\frac{1}{N_+ N_-} \\sum_{i: y_i = +} \\sum_{j: y_j = -}
        \\Big( [s_i > s_j] + \\tfrac12 [s_i = s_j] \\Big).

    O(n log n). Equal to scikit-learn's ``roc_auc_score``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels; both classes must be present.
    y_score : array-like of shape (n_samples,)
        Scores, higher = more positive. NaN is rejected; ±inf are ranked.
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights: the pair (i, j) counts :math:`w_i w_j` and the
        denominator becomes :math:`W_+ W_-`, the classes' total weights (as scikit-learn).

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> from skewlearn.metrics import roc_auc
    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.4, 0.8])   # the tie at 0.4 counts 1/2
    0.875
    """
    is_pos, scores, w = _score_inputs(y_true, y_score, pos_label, sample_weight)
    w = _scaled_per_class(w, is_pos)
    if w is None:
        n_pos = int(np.count_nonzero(is_pos))
        n_neg = len(is_pos) - n_pos
    else:
        n_pos = float(np.sum(w, where=is_pos))
        n_neg = float(np.sum(w, where=~is_pos))
    if n_pos == 0 or n_neg == 0:
        raise ValueError(
            "ROC AUC is undefined when y_true holds only one class "
            f"({'no positive' if n_pos == 0 else 'no negative'} sample"
            f"{'' if w is None else ' of weight > 0'} among {len(is_pos)}). "
            "Evaluate on data with both classes."
        )
    return _pair_count2(is_pos, scores, w) / (2.0 * n_pos * n_neg)


def _pr_curve(
    is_pos: np.ndarray, scores: np.ndarray, w: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Precision and recall at each distinct threshold, from the highest score down.

    With weights ``w`` the counts are weight sums; a threshold above which all weight is
    0 has precision 1 (scikit-learn's convention; its recall is 0, so it adds no area).
    """
    order = np.argsort(-scores, kind="stable")
    s = scores[order]
    ends = np.flatnonzero(np.concatenate((s[1:] != s[:-1], [True])))
    if w is None:
        tps = np.cumsum(is_pos[order], dtype=np.int64)[ends]
        return tps / (ends + 1), tps / tps[-1]
    tps = np.cumsum(np.where(is_pos, w, 0.0)[order])[ends]
    predicted = np.cumsum(w[order])[ends]
    prec = np.divide(tps, predicted, out=np.ones_like(tps), where=predicted > 0)
    return prec, tps / tps[-1]


_PR_METHODS = ("average_precision", "trapezoid")


def pr_auc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: Label | None = None,
    method: str = "average_precision",
    sample_weight: ArrayLike | None = None,
) -> float:
    """Area under the precision-recall curve.

    With thresholds at the distinct scores, from the highest down, precision :math:`P_k`
    and recall :math:`R_k` (and :math:`R_0 = 0`):

    * ``method="average_precision"`` (scikit-learn's ``average_precision_score``):
      :math:`\\mathrm{AP} = \\sum_k (R_k - R_{k-1})\\, P_k`, a step function, no
      interpolation;
    * ``method="trapezoid"``: the trapezoidal area under the points
      :math:`(0, 1), (R_1, P_1), \\dots`, i.e. scikit-learn's
      ``auc(recall, precision)`` on ``precision_recall_curve``. Linear interpolation in PR
      space is optimistic; prefer average precision.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels; at least one positive.
    y_score : array-like of shape (n_samples,)
        Scores, higher = more positive.
    pos_label : label, default=None
        The positive class; None means the larger label (see the module docstring).
    method : {"average_precision", "trapezoid"}, default="average_precision"
        Average precision or the trapezoidal area (both above).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite, non-negative weights; true and predicted positives become weight sums.

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> from skewlearn.metrics import pr_auc
    >>> pr_auc([0, 1, 1, 0], [0.1, 0.5, 0.5, 0.9])
    0.6666666666666666
    """
    if method not in _PR_METHODS:
        raise ValueError(f"method must be one of {_PR_METHODS}; got {method!r}.")
    is_pos, scores, w = _score_inputs(y_true, y_score, pos_label, sample_weight)
    # scaled by the positives' largest weight: positives far below the negatives were
    # zeroed by one scale for all; negatives far above become inf, precision 0 where the
    # true one is below 1e-308 (session 26)
    w = None if w is None else _power_of_two_scaled(w, w[is_pos])
    if not (is_pos.any() if w is None else np.sum(w, where=is_pos) > 0):
        raise ValueError(
            "PR AUC is undefined when y_true has no positive sample"
            f"{'' if w is None else ' of weight > 0'} (recall has no denominator). Pass "
            "pos_label if the positive class is another label."
        )
    prec, rec = _pr_curve(is_pos, scores, w)
    if method == "average_precision":
        return float(np.sum(np.diff(rec, prepend=0.0) * prec))
    return float(np.trapezoid(np.concatenate(([1.0], prec)), np.concatenate(([0.0], rec))))
