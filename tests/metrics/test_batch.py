"""Batch metrics against scikit-learn, imbalanced-learn and a brute-force O(n²) AUC."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from imblearn.metrics import geometric_mean_score, sensitivity_score, specificity_score
from sklearn import metrics as skm

from skewlearn.metrics import (
    ConfusionCounts,
    balanced_accuracy,
    confusion_counts,
    f1,
    fbeta,
    gmean,
    pr_auc,
    precision,
    roc_auc,
    sensitivity,
    specificity,
)
from tests.naive.metrics import roc_auc_pairs


@st.composite
def scored(draw, min_size=2, max_size=60, both=True):
    """Labels in {0, 1} with scores drawn from a few values, so ties are frequent."""
    n = draw(st.integers(min_size, max_size))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    if both:
        y[0], y[-1] = 0, 1
    pool = draw(
        st.lists(
            st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False), min_size=1, max_size=8
        )
    )
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    return y, np.array(pool)[idx]


@st.composite
def predicted(draw, both=True):
    n = draw(st.integers(2, 60))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    p = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    if both:
        y[0], y[-1] = 0, 1
    return y, p


# --------------------------------------------------------------------------- ranking
@settings(max_examples=200, deadline=None)
@given(scored())
def test_roc_auc_equals_sklearn_and_brute_force(data):
    y, s = data
    got = roc_auc(y, s)
    assert got == pytest.approx(skm.roc_auc_score(y, s), rel=1e-12, abs=1e-15)
    assert got == pytest.approx(roc_auc_pairs(y == 1, s), rel=1e-12, abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(scored(both=False, min_size=1))
def test_pr_auc_equals_sklearn(data):
    y, s = data
    if not y.any():
        with pytest.raises(ValueError, match="no positive"):
            pr_auc(y, s)
        return
    assert pr_auc(y, s) == pytest.approx(skm.average_precision_score(y, s), rel=1e-12)
    prec, rec, _ = skm.precision_recall_curve(y, s)
    assert pr_auc(y, s, method="trapezoid") == pytest.approx(skm.auc(rec, prec), rel=1e-12)


def test_roc_auc_ties_by_hand():
    # positives {0.4, 0.8}, negatives {0.1, 0.4}: pairs (0.4>0.1)=1, (0.4=0.4)=1/2,
    # (0.8>0.1)=1, (0.8>0.4)=1 -> 3.5 / 4
    assert roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.4, 0.8]) == 0.875
    # all scores equal -> every pair is a tie -> 1/2
    assert roc_auc([0, 1, 0, 1, 1], [3.0] * 5) == 0.5
    # infinite scores are ranked like any others
    assert roc_auc([0, 1], [-np.inf, np.inf]) == 1.0


def test_average_precision_by_hand():
    # scores desc: 0.9 (neg) -> P=0, R=0; 0.5, 0.5 (both pos) -> P=2/3, R=1; 0.1 (neg)
    # AP = (0-0)*0 + (1-0)*2/3 = 2/3; trapezoid over (0,1),(0,0),(1,2/3),(1,1/2) = 1/3
    y, s = [0, 1, 1, 0], [0.1, 0.5, 0.5, 0.9]
    assert pr_auc(y, s) == pytest.approx(2 / 3)
    assert pr_auc(y, s, method="trapezoid") == pytest.approx(1 / 3)


def test_score_metrics_pos_label_and_label_types():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 80)
    s = rng.normal(size=80) + y
    ref = roc_auc(y, s)
    assert roc_auc(np.array(["maj", "min"])[y], s) == ref  # "min" > "maj": positive
    assert roc_auc(y.astype(bool), s) == ref
    assert roc_auc(2 * y - 1, s) == ref
    assert roc_auc(y, -s, pos_label=0) == pytest.approx(ref, abs=1e-15)
    assert pr_auc(y, s, pos_label=0) == pytest.approx(
        skm.average_precision_score(y, s, pos_label=0)
    )


# --------------------------------------------------------------------------- labels
@settings(max_examples=200, deadline=None)
@given(predicted(), st.floats(0.1, 5.0))
def test_label_metrics_equal_sklearn_and_imblearn(data, beta):
    y, p = data
    tn, fp, fn, tp = skm.confusion_matrix(y, p, labels=[0, 1]).ravel()
    assert confusion_counts(y, p) == ConfusionCounts(tp, fp, tn, fn)
    assert f1(y, p) == pytest.approx(skm.f1_score(y, p, zero_division=0), rel=1e-12)
    assert fbeta(y, p, beta=beta) == pytest.approx(
        skm.fbeta_score(y, p, beta=beta, zero_division=0), rel=1e-12
    )
    assert precision(y, p) == pytest.approx(skm.precision_score(y, p, zero_division=0))
    assert sensitivity(y, p) == pytest.approx(sensitivity_score(y, p), rel=1e-12)
    assert specificity(y, p) == pytest.approx(specificity_score(y, p), rel=1e-12)
    assert gmean(y, p) == pytest.approx(geometric_mean_score(y, p), rel=1e-12)
    assert balanced_accuracy(y, p) == pytest.approx(skm.balanced_accuracy_score(y, p), rel=1e-12)
    # pos_label=0 swaps the roles of the classes
    assert f1(y, p, pos_label=0) == pytest.approx(skm.f1_score(y, p, pos_label=0, zero_division=0))
    assert sensitivity(y, p, pos_label=0) == pytest.approx(specificity(y, p))


def test_label_metrics_any_label_type():
    y = np.array(["no", "yes", "yes", "no", "no"])
    p = np.array(["no", "yes", "no", "yes", "no"])
    # "yes" > "no" is positive: tp=1 (idx 1), fn=1 (idx 2), fp=1 (idx 3), tn=2
    assert confusion_counts(y, p) == ConfusionCounts(tp=1, fp=1, tn=2, fn=1)
    assert f1(y, p) == 0.5
    assert confusion_counts(y, p, pos_label="no") == ConfusionCounts(tp=2, fp=1, tn=1, fn=1)
    assert gmean(y == "yes", p == "yes") == gmean(y, p)


def test_f1_without_true_positive_is_zero():
    assert f1([0, 0, 0], [0, 0, 0]) == 0.0
    assert f1([0, 1, 0], [1, 0, 0]) == 0.0


def test_single_label_inference():
    # a lone 1/True is positive, a lone 0/-1 negative
    assert confusion_counts([1, 1], [1, 1]) == ConfusionCounts(2, 0, 0, 0)
    assert confusion_counts([True], [True]) == ConfusionCounts(1, 0, 0, 0)
    assert confusion_counts([-1, -1], [-1, -1]) == ConfusionCounts(0, 0, 2, 0)
    assert confusion_counts([0], [0]) == ConfusionCounts(0, 0, 1, 0)
    with pytest.raises(ValueError, match=r"positive class cannot be inferred.*pos_label"):
        f1(["a", "a"], ["a", "a"])
    assert f1(["a", "a"], ["a", "a"], pos_label="a") == 1.0
    assert pr_auc([1, 1], [0.3, 0.1]) == 1.0


# --------------------------------------------------------------------------- errors
def test_errors():
    with pytest.raises(ValueError, match=r"only one class.*no positive"):
        roc_auc([0, 0, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"only one class.*no negative"):
        roc_auc([1, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match="same length; got 3 and 2"):
        roc_auc([0, 1, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match="same length; got 2 and 3"):
        f1([0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match=r"NaN at 1 position.*index 1"):
        roc_auc([0, 1, 1], [0.1, np.nan, 0.3])
    with pytest.raises(ValueError, match="NaN"):
        pr_auc([0, 1], [np.nan, 0.3])
    with pytest.raises(ValueError, match="3 classes"):
        f1([0, 1, 2], [0, 1, 1])
    with pytest.raises(ValueError, match="pos_label=2 is not one of the labels"):
        roc_auc([0, 1], [0.1, 0.2], pos_label=2)
    with pytest.raises(ValueError, match="G-mean is undefined: y_true has no positive"):
        gmean([0, 0], [0, 1])
    with pytest.raises(ValueError, match="specificity is undefined: y_true has no negative"):
        specificity([1, 1], [0, 1])
    with pytest.raises(ValueError, match="sensitivity is undefined"):
        sensitivity([0, 0], [0, 0])
    with pytest.raises(ValueError, match="balanced accuracy is undefined"):
        balanced_accuracy([1, 1], [1, 1])
    with pytest.raises(ValueError, match="method must be one of"):
        pr_auc([0, 1], [0.1, 0.2], method="interp")
    with pytest.raises(ValueError, match="beta must be a finite real number > 0"):
        fbeta([0, 1], [0, 1], beta=0)
    with pytest.raises(ValueError, match="beta must be a finite real number > 0"):
        fbeta([0, 1], [0, 1], beta=math.inf)  # it would give NaN
    # ints against strings: no label can match, so f1 would be 0 where it is 1 (scikit-learn
    # also refuses: "Mix of label input types")
    for t, p in (
        ([0, 1, 1, 0], ["0", "1", "1", "0"]),
        (np.array(["a", "b"], dtype=object), [1, 0]),
    ):
        for metric in (f1, gmean, confusion_counts):
            with pytest.raises(ValueError, match=r"holds (number|string)s and y_pred"):
                metric(t, p)
    assert f1([True, False, True], [1, 0, 1]) == 1.0  # bools are numbers
    with pytest.raises(ValueError, match="empty"):
        roc_auc([], [])
    with pytest.raises(ValueError, match="one-dimensional"):
        roc_auc(np.zeros((3, 2)), np.zeros(3))
    with pytest.raises(TypeError, match="y_score must hold numbers"):
        roc_auc([0, 1], ["a", "b"])


@pytest.mark.parametrize(
    "scores",
    [
        np.array([2**53, 2**53 + 1, 2**53 + 2, 2**53 + 3, 2**53 + 1], dtype=np.int64),
        np.array([2**63, 2**63 + 1, 2**63 + 2, 2**63 + 3, 2**63 + 1], dtype=np.uint64),
        np.array([10**30, 10**30 + 1, 10**30 + 2, 10**30 + 3, 10**30 + 1], dtype=object),
        1 + np.array([0, 2, 4, 2**60, 2], dtype=np.longdouble) * np.longdouble(2) ** -61,
    ],
    ids=["int64", "uint64", "python-int", "longdouble"],
)
def test_scores_float64_cannot_tell_apart_are_ranked_exactly(scores):
    """2**53 and 2**53 + 1 are one float64, so casting made distinct scores a tie (e.g.
    nanosecond timestamps). scikit-learn ranks them exactly; so do we, by their ranks."""
    if scores.dtype == np.longdouble and np.finfo(np.longdouble).nmant < 60:
        pytest.skip("long double is float64 on this platform")  # e.g. ARM, Windows
    y = np.array([0, 1, 0, 1, 1])
    ranks = np.array([0, 1, 2, 3, 1])  # the same order and ties, as small numbers
    assert len(np.unique(scores.astype(np.float64))) < 4  # the cast does merge
    assert roc_auc(y, scores) == roc_auc(y, ranks) == skm.roc_auc_score(y, ranks) == 4 / 6
    assert pr_auc(y, scores) == pr_auc(y, ranks) == skm.average_precision_score(y, ranks)
    with_nan = np.array([*scores[:4], np.nan], dtype=object)  # ranks must not hide a NaN
    with pytest.raises(ValueError, match="y_score contains NaN at 1 position"):
        roc_auc(y, with_nan)


def test_numeric_strings_are_not_scores():
    """'0.9' cast to a float silently; scikit-learn refuses text as y_score, and so do we."""
    for text in (np.array(["0.9", "0.1"]), np.array([b"0.9", b"0.1"]), ["0.9", 0.1]):
        with pytest.raises(TypeError, match=r"y_score must hold numbers \(.*\); got strings"):
            roc_auc([1, 0], text)
        with pytest.raises(TypeError, match="got strings"):
            pr_auc([1, 0], text)


def test_numpy_2_strings_are_not_scores_or_weights_either():
    """Session 25: numpy 2's variable-width strings (``dtype="T"``, StringDType, dtype
    kind "T") passed the text check, which looked at kinds "U" and "S": ``["0.9", "0.1"]``
    was cast to scores or weights where the same text as ``"U"`` is refused."""
    string_dtype = getattr(getattr(np, "dtypes", None), "StringDType", None)
    if string_dtype is None:  # numpy < 2
        pytest.skip("numpy has no StringDType")
    text = np.array(["0.9", "0.1"], dtype=string_dtype())
    with pytest.raises(TypeError, match=r"y_score must hold numbers \(.*\); got strings"):
        roc_auc([1, 0], text)
    with pytest.raises(TypeError, match="got strings"):
        pr_auc([1, 0], text)
    with pytest.raises(TypeError, match=r"sample_weight must hold numbers"):
        f1([0, 1], [0, 1], sample_weight=np.array(["1", "2"], dtype=string_dtype()))
    # and as labels beside numbers: the mixed-types message, not numpy's DTypePromotionError
    with pytest.raises(ValueError, match=r"y_true holds numbers and y_pred strings"):
        f1([0, 1], np.array(["0", "1"], dtype=string_dtype()))


# --------------------------------------------------------------------------- sample weights
_weight = st.sampled_from([0.0, 0.25, 1.0, 2.0, 3.5, 1e3])


@settings(max_examples=200, deadline=None)
@given(scored(), st.data())
def test_weighted_ranking_metrics_equal_sklearn(data, draw):
    y, s = data
    w = np.array(draw.draw(st.lists(_weight, min_size=len(y), max_size=len(y))))
    w[0] = w[-1] = 1.0  # a negative and a positive of weight > 0 (scored() puts them there)
    assert roc_auc(y, s, sample_weight=w) == pytest.approx(
        skm.roc_auc_score(y, s, sample_weight=w), rel=1e-12, abs=1e-15
    )
    assert pr_auc(y, s, sample_weight=w) == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w), rel=1e-12, abs=1e-15
    )
    prec, rec, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    assert pr_auc(y, s, method="trapezoid", sample_weight=w) == pytest.approx(
        skm.auc(rec, prec), rel=1e-12, abs=1e-15
    )


@settings(max_examples=200, deadline=None)
@given(predicted(), st.data())
def test_weighted_label_metrics_equal_sklearn_and_imblearn(data, draw):
    y, p = data
    w = np.array(draw.draw(st.lists(_weight, min_size=len(y), max_size=len(y))))
    w[0] = w[-1] = 1.0
    tn, fp, fn, tp = skm.confusion_matrix(y, p, labels=[0, 1], sample_weight=w).ravel()
    assert confusion_counts(y, p, sample_weight=w) == pytest.approx((tp, fp, tn, fn))
    kw = {"sample_weight": w}
    assert f1(y, p, **kw) == pytest.approx(skm.f1_score(y, p, zero_division=0, **kw))
    assert fbeta(y, p, beta=2.0, **kw) == pytest.approx(
        skm.fbeta_score(y, p, beta=2.0, zero_division=0, **kw)
    )
    assert precision(y, p, **kw) == pytest.approx(skm.precision_score(y, p, zero_division=0, **kw))
    assert sensitivity(y, p, **kw) == pytest.approx(sensitivity_score(y, p, **kw))
    # Not imbalanced-learn's specificity_score / geometric_mean_score here: with weights
    # (0.14) they count TN as n_samples - (weighted sums), mixing rows and weights (0.75
    # against its 0.667 on y=[0,1,0,0,1], p=[1,1,0,0,1], w=[1,1,3,0,1]). The negative
    # class's recall is the specificity, in scikit-learn.
    tnr = skm.recall_score(y, p, pos_label=0, **kw)
    assert specificity(y, p, **kw) == pytest.approx(tnr)
    assert gmean(y, p, **kw) == pytest.approx(math.sqrt(skm.recall_score(y, p, **kw) * tnr))
    assert balanced_accuracy(y, p, **kw) == pytest.approx(skm.balanced_accuracy_score(y, p, **kw))


def test_integer_weights_equal_repeated_rows_and_zero_removes():
    """Against the unweighted metric on expanded data: exact, not only close."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 40)
    y[:2] = 0, 1
    s = rng.integers(0, 6, 40).astype(float)  # many ties
    p = rng.integers(0, 2, 40)
    w = rng.integers(0, 4, 40)
    w[:2] = 1
    rows = np.repeat(np.arange(40), w)
    assert roc_auc(y, s, sample_weight=w) == roc_auc(y[rows], s[rows])
    assert pr_auc(y, s, sample_weight=w) == pytest.approx(pr_auc(y[rows], s[rows]), rel=1e-15)
    assert confusion_counts(y, p, sample_weight=w) == confusion_counts(y[rows], p[rows])
    assert gmean(y, p, sample_weight=w) == gmean(y[rows], p[rows])
    # weights of 1 give the unweighted values; the unweighted counts stay ints
    assert roc_auc(y, s, sample_weight=np.ones(40)) == roc_auc(y, s)
    assert isinstance(confusion_counts(y, p).tp, int)


def test_sample_weight_errors():
    y, s = [0, 1, 1], [0.1, 0.5, 0.3]
    with pytest.raises(ValueError, match="one weight per sample; got 2 weights for 3"):
        roc_auc(y, s, sample_weight=[1, 1])
    with pytest.raises(ValueError, match=r"finite and >= 0; 1 weight\(s\).*-1.0 at index 2"):
        pr_auc(y, s, sample_weight=[1, 1, -1])
    with pytest.raises(ValueError, match=r"finite and >= 0.*nan at index 0"):
        f1(y, [0, 1, 0], sample_weight=[np.nan, 1, 1])
    with pytest.raises(ValueError, match="inf at index 1"):
        gmean(y, [0, 1, 0], sample_weight=[1, np.inf, 1])
    with pytest.raises(TypeError, match="sample_weight must hold numbers"):
        roc_auc(y, s, sample_weight=["1", "1", "1"])
    # all the positives weigh 0: as undefined as having none
    with pytest.raises(ValueError, match="no positive sample of weight > 0"):
        roc_auc(y, s, sample_weight=[1, 0, 0])
    with pytest.raises(ValueError, match="no positive sample of weight > 0"):
        pr_auc(y, s, sample_weight=[1, 0, 0])
    with pytest.raises(ValueError, match="no negative sample of weight > 0"):
        gmean(y, [0, 1, 0], sample_weight=[0, 1, 1])


@pytest.mark.parametrize(
    "missing", [None, np.nan, float("nan")], ids=["None", "np.nan", "float-nan"]
)
def test_a_missing_label_is_named_not_counted_as_a_class(missing):
    """Session 13: a None label raised numpy's "'<' not supported between instances of
    'NoneType' and 'int'", and a NaN label was "3 classes (0.0, 1.0, nan). Map them to two
    classes"; both are missing labels, and the message now says so and where."""
    t = [0, 1, missing, 1]
    match = r"y_true holds 1 missing label \(.*at index 2\)"
    for metric in (f1, gmean, confusion_counts):
        with pytest.raises(ValueError, match=match):
            metric(t, [0, 1, 1, 1])
        with pytest.raises(ValueError, match=match.replace("y_true", "y_pred")):
            metric([0, 1, 1, 1], t)
    for metric in (roc_auc, pr_auc):
        with pytest.raises(ValueError, match=match):
            metric(t, [0.1, 0.2, 0.3, 0.4])


def test_a_pandas_missing_label_is_named():
    import pandas as pd

    t = pd.Series([0, 1, None, 1], dtype="Int64")
    with pytest.raises(ValueError, match=r"y_true holds 1 missing label \(nan at index 2\)"):
        f1(t, [0, 1, 1, 1])
    with pytest.raises(ValueError, match=r"y_true holds 1 missing label \(<NA> at index 2\)"):
        f1(t.astype(object), [0, 1, 1, 1])


@pytest.mark.parametrize("dtype", ["Int64", object, float, "category"])
def test_a_missing_label_of_a_filtered_series_is_named_by_its_index_label(dtype):
    """Session 26 (probe q): session 25 had ``fit`` name a missing label of a pandas
    ``y`` without the default RangeIndex by its position and index label; the metrics
    and ``prequential`` still said "at index 5" of the 5th position, where ``y.loc[5]``
    is another row (here, reversed, a labelled one) or none, and so the same ``y`` got
    two answers. They now use ``fit``'s words; the default index keeps "at index 5"."""
    import pandas as pd

    from skewlearn.evaluation import prequential
    from skewlearn.linear import Perceptron

    values = [1, 0, 1, 0, 1, None, 1, 0]
    X = np.random.default_rng(0).normal(size=(8, 2))
    for index, where in [
        (range(7, -1, -1), r"position 5 \(index label 2\)"),
        (range(100, 108), r"position 5 \(index label 105\)"),
        (None, "index 5"),
    ]:
        y = pd.Series(values, dtype=dtype, index=index)
        found = rf"\((nan|<NA>|None) at {where}\)"
        with pytest.raises(ValueError, match=rf"y_true holds 1 missing label {found}; a metric"):
            f1(y, np.ones(8, dtype=int))
        # session 27: the whole phrase (a default of "a metric" alone passed the tests)
        with pytest.raises(ValueError, match=r"; a metric needs a label for every sample\. Drop"):
            f1(y, np.ones(8, dtype=int))
        with pytest.raises(ValueError, match=rf"y_pred holds 1 missing label {found}; a metric"):
            confusion_counts(np.ones(8, dtype=int), y)
        with pytest.raises(ValueError, match=rf"y_true holds 1 missing label {found}; a metric"):
            roc_auc(y, np.arange(8.0))
        with pytest.raises(ValueError, match=rf"y holds 1 missing label {found}; prequential"):
            prequential(Perceptron(), X, y)
        if dtype is not float:  # (float NaN labels keep scikit-learn's message in fit)
            with pytest.raises(ValueError, match=rf"\) at {where}; every row"):  # fit's words
                Perceptron().fit(X, y)


def test_labels_of_mixed_types_in_one_array_are_refused_with_the_types():
    """Session 13: `f1(np.array([0, "a"], dtype=object), ...)` raised numpy's "'<' not
    supported between instances of 'str' and 'int'"."""
    mixed = np.array([0, "a", 0, "a"], dtype=object)
    for metric in (f1, confusion_counts):
        with pytest.raises(ValueError, match=r"y_true mixes numbers and strings"):
            metric(mixed, mixed)
    with pytest.raises(ValueError, match=r"y_true mixes numbers and strings"):
        roc_auc(mixed, [0.1, 0.2, 0.3, 0.4])


def test_complex_scores_are_refused_not_cut_to_their_real_part():
    """Session 13: complex scores were cast to float64 with a ComplexWarning, dropping the
    imaginary part silently for the result (scikit-learn refuses complex input)."""
    for metric in (roc_auc, pr_auc):
        with pytest.raises(TypeError, match=r"y_score must hold real numbers; got complex"):
            metric([0, 1], [1 + 1j, 2])
    with pytest.raises(TypeError, match=r"sample_weight must hold real numbers; got complex"):
        f1([0, 1], [0, 1], sample_weight=[1 + 1j, 1])


def test_text_weights_get_a_message_about_weights_not_scores():
    """Session 13: `sample_weight=["1", "2"]` was told "must hold numbers (decision values
    or probabilities) ... Pass scores, not predicted labels"."""
    with pytest.raises(TypeError, match=r"sample_weight must hold numbers") as info:
        f1([0, 1], [0, 1], sample_weight=["1", "2"])
    assert "scores" not in str(info.value) and "probabilities" not in str(info.value)
    assert "astype(float)" in str(info.value)


def test_a_pos_label_of_the_other_type_is_refused_with_one_class_too():
    """Session 13: with two labels present `pos_label="1"` against 0/1 was refused, but
    with one (`specificity([1, 1, 1], [1, 1, 1], pos_label="1")`) every sample counted as
    negative, silently: specificity 1.0, f1 0.0. The streaming metrics refuse it."""
    for metric in (f1, specificity, confusion_counts):
        with pytest.raises(ValueError, match=r"labels are numbers but pos_label='1' is a string"):
            metric([1, 1, 1], [1, 1, 1], pos_label="1")
        with pytest.raises(ValueError, match=r"labels are strings but pos_label=1 is a number"):
            metric(["a", "a"], ["a", "a"], pos_label=1)
    with pytest.raises(ValueError, match=r"labels are numbers but pos_label='1' is a string"):
        roc_auc([1, 1, 0], [0.3, 0.2, 0.1], pos_label="1")
    assert specificity([0, 0], [0, 1], pos_label=1) == 0.5  # the same type still passes
    assert f1([True, True], [True, False], pos_label=1) == pytest.approx(2 / 3)


def test_a_pos_label_that_is_no_label_names_the_labels_as_written():
    """The error printed numpy's reprs, "[np.int64(0), np.int64(1)]", where the user wrote
    0 and 1 (numpy 2 shows the type in a scalar's repr)."""
    with pytest.raises(ValueError, match=r"pos_label=2 is not one of the labels \[0, 1\]\."):
        gmean([0, 1], [0, 1], pos_label=2)
    with pytest.raises(ValueError, match=r"pos_label='c' is not one of the labels \['a', 'b'\]"):
        roc_auc(["a", "b"], [0.1, 0.2], pos_label="c")


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-160, 1e160, 1e200, 1e300, 1e307])
def test_weighted_ranking_metrics_do_not_depend_on_the_weights_scale(scale):
    """The weighted AUC counts w_p·w_n per pair: weights of 1e-200 made every product 0
    (ZeroDivisionError), 1e-160 subnormal (0.301711 where the value is 0.301719), 1e160
    infinite (NaN); the cumulative sums of PR AUC overflowed for 1e307. Both metrics are
    invariant to scaling the weights, so they equal the unscaled values, and
    scikit-learn's (which normalises)."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 30)
    s = rng.normal(size=30)
    w = rng.random(30)
    for metric, reference in ((roc_auc, skm.roc_auc_score), (pr_auc, skm.average_precision_score)):
        want = metric(y, s, sample_weight=w)
        assert want == pytest.approx(reference(y, s, sample_weight=w), rel=1e-12)
        assert metric(y, s, sample_weight=w * scale) == pytest.approx(want, rel=1e-12)
    # a power of two changes no bit
    assert roc_auc(y, s, sample_weight=w * 2.0**-900) == roc_auc(y, s, sample_weight=w)
    assert pr_auc(y, s, sample_weight=w * 2.0**900) == pr_auc(y, s, sample_weight=w)
    y60, s60 = np.tile(y, 2), np.tile(s, 2)  # 60 weights of 1e307: the sums overflow
    for metric in (roc_auc, pr_auc):
        equal = metric(y60, s60, sample_weight=np.full(60, 1e307))
        assert equal == pytest.approx(metric(y60, s60), rel=1e-14)


@pytest.mark.parametrize(
    ("pos_scale", "neg_scale"), [(1e300, 1e-300), (1e-300, 1e300), (1e-20, 1e300)]
)
def test_weighted_ranking_metrics_keep_a_class_far_below_the_largest_weight(pos_scale, neg_scale):
    """One scale for all the weights (the largest into [0.5, 1)) turned a class whose
    weights lie ~1e308 or more below the other's into zeros or subnormals: roc_auc said
    "no negative sample of weight > 0" of a class that has them (1e300 / 1e-300), or lost
    digits (0.633711 for 0.633684 at 1e-20 / 1e300), and pr_auc refused positives of weight
    1e-300. ROC AUC does not depend on either class's scale (its numerator and denominator
    are bilinear in the two classes' weights); PR AUC does, and equals scikit-learn's."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 30)
    s = rng.normal(size=30) + y
    u = rng.random(30) + 0.1
    w = np.where(y == 1, u * pos_scale, u * neg_scale)
    assert roc_auc(y, s, sample_weight=w) == pytest.approx(
        roc_auc(y, s, sample_weight=u), rel=1e-14
    )
    assert roc_auc(y, s, sample_weight=w) == pytest.approx(
        skm.roc_auc_score(y, s, sample_weight=w), rel=1e-12
    )
    assert pr_auc(y, s, sample_weight=w) == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w), rel=1e-12
    )


def test_each_class_is_scaled_by_the_power_of_two_of_its_own_largest_weight():
    """Session 26 (probe w): the per-class scaling finds each class's largest weight without
    copying the class out (the copies made weighted roc_auc ~8 % slower than one scale).
    Reference: each class's weights, copied out, times 2**-e with its largest in
    [0.5, 1) (a class of zeros unchanged), compared bit for bit; scales 1e-320 to 1e300,
    zeros, -0.0, subnormals, an empty or all-zero class."""
    from skewlearn.metrics.batch import _scaled_per_class

    rng = np.random.default_rng(3)
    for trial in range(600):
        n = int(rng.integers(0, 40))
        is_pos = rng.random(n) < rng.random()
        w = rng.exponential(size=n) * 10.0 ** rng.integers(-320, 300, n).astype(float)
        w[rng.random(n) < 0.2] = 0.0
        w[rng.random(n) < 0.05] = -0.0
        if trial % 5 == 0:
            w = w * 1e-310
        if trial % 11 == 0:
            w[is_pos] = 0.0
        w = np.where(np.isfinite(w), w, 1.0)
        want = w.copy()
        for side in (is_pos, ~is_pos):
            top = float(w[side].max(initial=0.0))
            if top != 0.0:
                want[side] = np.ldexp(w[side], -math.frexp(top)[1])
        got = _scaled_per_class(w, is_pos)
        assert got.dtype == np.float64 and got.tobytes() == want.tobytes(), (w, is_pos)
    assert _scaled_per_class(None, np.ones(3, dtype=bool)) is None


def test_weighted_label_metrics_survive_weight_sums_beyond_float64():
    """Sixty weights of 1e307 sum past float64's largest number: the counts were inf and
    every ratio inf / inf = NaN. The ratios do not depend on the weights' scale; they
    equal the unweighted values (confusion_counts itself still returns the true sums)."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 60)
    p = rng.integers(0, 2, 60)
    w = np.full(60, 1e307)
    for metric in (f1, precision, sensitivity, specificity, gmean, balanced_accuracy):
        assert metric(y, p, sample_weight=w) == pytest.approx(metric(y, p), rel=1e-14)
    assert fbeta(y, p, beta=2.0, sample_weight=w) == pytest.approx(fbeta(y, p, beta=2.0))
    assert confusion_counts(y, p, sample_weight=np.ones(60)) == confusion_counts(y, p)
