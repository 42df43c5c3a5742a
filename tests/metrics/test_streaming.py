"""Streaming metrics: after every update equal to the batch metric on the prefix."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from imblearn.metrics import geometric_mean_score
from sklearn import metrics as skm

from skewlearn.metrics import (
    F1,
    ROCAUC,
    Confusion,
    ConfusionCounts,
    FBeta,
    GMean,
    MistakeRate,
    StreamingMetric,
)
from tests.naive.metrics import prefix_roc_auc


@st.composite
def stream(draw, max_size=50):
    """Labels in {-1, +1}, tied scores from a small pool, and predicted labels."""
    n = draw(st.integers(1, max_size))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    pool = draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=6))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    s = np.array(pool)[idx]
    return y, s, np.where(s > 0, 1, -1)


def _prefix_ok(got, expected):
    if math.isnan(expected):
        return math.isnan(got)
    return got == pytest.approx(expected, rel=1e-12, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(stream(max_size=30))
def test_every_prefix_equals_sklearn(data):
    y, s, p = data
    auc, f1, gm, mr, conf = ROCAUC(), F1(), GMean(), MistakeRate(), Confusion()
    brute = prefix_roc_auc(y == 1, s)
    for t in range(len(y)):
        auc.update(y[t], s[t])
        for m in (f1, gm, mr, conf):
            m.update(y[t], p[t])
        yt, st_, pt = y[: t + 1], s[: t + 1], p[: t + 1]
        both = len(set(yt)) == 2
        assert _prefix_ok(auc.get(), skm.roc_auc_score(yt, st_) if both else math.nan)
        assert _prefix_ok(auc.get(), brute[t])
        assert f1.get() == pytest.approx(
            skm.f1_score(yt, pt, labels=[-1, 1], zero_division=0), rel=1e-12
        )
        assert _prefix_ok(gm.get(), geometric_mean_score(yt, pt) if both else math.nan)
        assert mr.get() == pytest.approx(1.0 - skm.accuracy_score(yt, pt), abs=1e-15)
        tn, fp, fn, tp = skm.confusion_matrix(yt, pt, labels=[-1, 1]).ravel()
        assert conf.get() == ConfusionCounts(tp, fp, tn, fn)


@settings(max_examples=100, deadline=None)
@given(stream(max_size=120), st.lists(st.integers(1, 30), min_size=1, max_size=10))
def test_update_many_in_any_batches_equals_one_by_one(data, sizes):
    y, s, p = data
    one = [ROCAUC(), FBeta(beta=2.0), GMean(), MistakeRate()]
    many = [ROCAUC(), FBeta(beta=2.0), GMean(), MistakeRate()]
    for t in range(len(y)):
        for m in one:
            m.update(y[t], s[t] if m.requires_scores else p[t])
    lo, k = 0, 0
    while lo < len(y):
        hi = lo + sizes[k % len(sizes)]
        for m in many:
            m.update_many(y[lo:hi], s[lo:hi] if m.requires_scores else p[lo:hi])
        lo, k = hi, k + 1
    for a, b in zip(one, many):
        assert a.get() == b.get() or (math.isnan(a.get()) and math.isnan(b.get()))


@settings(max_examples=100, deadline=None)
@given(stream(max_size=80), st.integers(0, 80))
def test_merge_equals_the_union(data, cut):
    y, s, p = data
    for cls in (ROCAUC, F1, GMean, MistakeRate, Confusion):
        v = s if cls.requires_scores else p
        whole = cls().update_many(y, v)
        left = cls().update_many(y[:cut], v[:cut])
        right = cls().update_many(y[cut:], v[cut:])
        merged = left.merge(right)
        a, b = whole.get(), merged.get()
        assert a == b or (math.isnan(a) and math.isnan(b))


def test_auc_large_stream_matches_sklearn_and_run_count_stays_logarithmic():
    rng = np.random.default_rng(0)
    y = (rng.random(20_000) < 0.1).astype(int)
    s = np.round(rng.normal(size=20_000) + y, 2)  # rounding makes many ties
    m = ROCAUC()
    for lo in range(0, 20_000, 1):
        if lo < 300 or lo % 997 == 0:
            m.update(y[lo], s[lo])
        else:
            m.update_many(y[lo : lo + 1], s[lo : lo + 1])
    assert m.get() == pytest.approx(skm.roc_auc_score(y, s), rel=1e-12)
    assert len(m._pos.runs) <= 1 + math.log2(m.n_pos)
    assert len(m._neg.runs) <= 1 + math.log2(m.n_neg)


def test_auc_order_does_not_matter_exactly():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 500)
    s = rng.integers(0, 20, 500).astype(float)
    a = ROCAUC().update_many(y, s).get()
    perm = rng.permutation(500)
    b = ROCAUC()
    for i in perm:
        b.update(y[i], s[i])
    assert a == b.get()


def test_pos_label_and_label_types():
    y = np.array(["min", "maj", "maj", "min", "maj"])
    s = np.array([0.9, 0.1, 0.5, 0.5, 0.2])
    auc = ROCAUC(pos_label="min").update_many(y, s)
    assert auc.get() == pytest.approx(skm.roc_auc_score(y == "min", s))
    assert ROCAUC().update_many([True, False], [0.3, 0.1]).get() == 1.0
    f = F1(pos_label="min").update_many(y, np.where(s > 0.4, "min", "maj"))
    # predictions: min, maj, min, min, maj -> tp=2, fp=1, fn=0 -> F1 = 4/5
    assert f.get() == pytest.approx(0.8)
    assert f.counts == ConfusionCounts(tp=2, fp=1, tn=2, fn=0)


def test_undefined_values_are_nan_and_f1_starts_at_zero():
    assert math.isnan(ROCAUC().update(1, 0.3).get())
    assert math.isnan(GMean().update(0, 0).get())
    assert math.isnan(MistakeRate().get())
    assert F1().update(0, 0).get() == 0.0
    assert "ROCAUC: nan" in repr(ROCAUC())


def test_errors():
    with pytest.raises(ValueError, match="NaN"):
        ROCAUC().update(1, float("nan"))
    with pytest.raises(ValueError, match="same length; got 2 and 1"):
        ROCAUC().update_many([0, 1], [0.5])
    with pytest.raises(TypeError, match="Cannot merge F1 into ROCAUC"):
        ROCAUC().merge(F1())
    with pytest.raises(ValueError, match="different pos_label"):
        ROCAUC().merge(ROCAUC(pos_label=0))
    with pytest.raises(ValueError, match=r"beta=2.0 into beta=1.0"):
        FBeta().merge(FBeta(beta=2.0))
    with pytest.raises(ValueError, match="beta must be"):
        FBeta(beta=-1)
    assert issubclass(ROCAUC, StreamingMetric) and ROCAUC.requires_scores
    assert not F1.requires_scores


def test_update_takes_a_length_one_array_and_refuses_more():
    """m.update(y[i], model.decision_function(X[i:i + 1])) is the natural loop: ROCAUC
    crashed on the length-1 array and Confusion counted [1] as a negative prediction."""
    from skewlearn.metrics import PRAUC, HistogramROCAUC

    for m in (ROCAUC(), PRAUC(), HistogramROCAUC()):
        a, b = type(m)(), type(m)()
        for yt, s in [(1, 0.9), (0, 0.2), (1, 0.1), (0, 0.4)]:
            a.update(yt, s)
            b.update(np.array([yt]), np.array([s]))
        assert a.get() == b.get()
        with pytest.raises(ValueError, match="update takes one score; got 2 values"):
            type(m)().update(1, np.array([0.1, 0.2]))
    for m in (Confusion(), F1()):
        m.update(1, [1]).update([0], np.array([1])).update(np.array([1]), 0)
    assert m.get() == pytest.approx(skm.f1_score([1, 0, 1], [1, 1, 0]))
    c = Confusion().update(1, [1]).update([0], np.array([1])).update(np.array([1]), 0)
    assert c.get() == ConfusionCounts(tp=1, fp=1, tn=0, fn=1)
    with pytest.raises(ValueError, match="update takes one predicted label; got 2"):
        Confusion().update(1, [1, 0])


def test_streaming_ranking_refuses_scores_float64_would_merge():
    """The exact metrics keep float64 scores; integers beyond 2**53 would silently tie, so
    they are refused with the fix (the batch metrics rank them exactly instead)."""
    from skewlearn.metrics import PRAUC

    big = np.array([2**53, 2**53 + 1], dtype=np.int64)
    for m in (ROCAUC(), PRAUC()):
        with pytest.raises(ValueError, match=r"beyond 2\*\*53 .*Subtract a common offset"):
            m.update_many([0, 1], big)
        with pytest.raises(ValueError, match=r"beyond 2\*\*53"):
            m.update(1, 2**60 + 1)
        m.update_many([0, 1], big - 2**53)  # the fix: offsets are small, and exact
        assert m.get() == 1.0
    from skewlearn.metrics import HistogramPRAUC, HistogramROCAUC

    for m in (ROCAUC(), PRAUC(), HistogramROCAUC(), HistogramPRAUC()):
        with pytest.raises(TypeError, match="got strings"):
            m.update_many([0, 1], np.array(["0.2", "0.9"]))
        with pytest.raises(TypeError, match="got strings"):
            m.update(1, "0.9")


def test_fbeta_refuses_a_beta_that_is_not_a_number():
    for beta in ("2", True, 0, -1.0, math.inf):
        with pytest.raises(ValueError, match="beta must be a finite real number > 0"):
            FBeta(beta=beta)


def test_fbeta_of_an_extreme_beta_is_its_limit_not_nan():
    """beta**2 overflowed (beta > 1.3e154) and (1 + beta**2) * TP too (large weights), so
    F-beta was inf / inf = NaN, silently (scikit-learn raises OverflowError). The value
    tends to recall as beta grows and to precision as it shrinks; reference: the formula
    in exact rational arithmetic."""
    from fractions import Fraction

    from skewlearn.metrics import fbeta

    def exact(tp, fp, fn, beta):
        b2 = Fraction(beta) ** 2
        return float((1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp))

    y, p = [1, 1, 0, 0, 1], [1, 0, 1, 0, 1]  # tp 2, fp 1, fn 1
    for beta in (1e-200, 1e-160, 0.5, 2.0, 1e10, 1e154, 1e160, 1e200, 1e300):
        want = exact(2, 1, 1, beta)
        assert FBeta(beta=beta).update_many(y, p).get() == pytest.approx(want, rel=1e-15)
        assert fbeta(y, p, beta=beta) == pytest.approx(want, rel=1e-15)
    w = [1e300, 1e300, 1.0, 1.0, 1e300]  # weighted counts near the float64 limit
    got = fbeta(y, p, beta=1e10, sample_weight=w)
    assert got == pytest.approx(exact(Fraction(2e300), 1, Fraction(1e300), 1e10), rel=1e-15)


def test_labels_that_can_never_equal_pos_label_are_refused():
    """Strings against the default pos_label=1 (or numbers against a string pos_label)
    were all counted negative, silently: ROC AUC stayed NaN forever and F1 at 0, while
    the batch metrics give 1.0 on the same labels."""
    from skewlearn.metrics import (
        PRAUC,
        HistogramPRAUC,
        HistogramROCAUC,
        WindowedPRAUC,
        WindowedROCAUC,
    )

    y = np.array(["neg", "pos", "pos"])
    s = np.array([0.1, 0.9, 0.4])
    for cls in (ROCAUC, PRAUC, WindowedROCAUC, WindowedPRAUC, HistogramROCAUC, HistogramPRAUC):
        with pytest.raises(ValueError, match=r"y holds strings.*pos_label=1 is a number"):
            cls().update_many(y, s)
        with pytest.raises(ValueError, match=r"pos_label=<the positive label>.*'pos'"):
            cls().update("pos", 0.9)
        with pytest.raises(ValueError, match=r"y holds numbers.*pos_label='1' is a string"):
            cls(pos_label="1").update_many([0, 1, 1], s)
        m = cls(pos_label="pos")
        assert m.update_many(y, s).get() == cls(pos_label=1).update_many([0, 1, 1], s).get()
    for cls in (Confusion, F1, GMean, MistakeRate):
        with pytest.raises(ValueError, match=r"y holds strings.*pos_label=1"):
            cls().update_many(["0", "1"], ["0", "1"])
        with pytest.raises(ValueError, match=r"y_pred holds strings.*pos_label=1"):
            cls().update_many([0, 1], ["0", "1"])
        with pytest.raises(ValueError, match=r"y holds strings.*pos_label=1"):
            cls().update("1", 1)
        with pytest.raises(ValueError, match=r"y_pred holds strings.*pos_label=1"):
            cls().update(1, "1")
        m = cls().update(1, 1).update_many([0, 1], [1, 1])  # numbers of any kind still pass
        m.update_many([True, False], [np.int8(1), 0.0]).update_many([-1.0], [-1])
    assert F1(pos_label="1").update_many(["0", "1"], ["0", "1"]).get() == 1.0
    # a refused batch leaves the metric as it was
    m = ROCAUC().update_many([0, 1], [0.2, 0.8])
    with pytest.raises(ValueError):
        m.update_many(["0", "1"], [0.9, 0.1])
    assert (m.n_pos, m.n_neg, m.get()) == (1, 1, 1.0)


def test_an_object_array_mixing_strings_and_numbers_is_refused():
    """Session 25: labels of an object array that mixes numbers and text (two frames
    concatenated, one with 1/0, one with "1"/"0") passed the check above, which only
    refused an array whose elements all had the wrong type: ``F1().update_many`` counted
    the strings as negatives (0.8 here, silently), while ``update`` refuses each string
    and the batch ``f1`` the array."""
    from skewlearn.metrics import PRAUC, HistogramROCAUC, WindowedROCAUC

    mixed = np.array([1, "1", 0, 1], dtype=object)
    s = [0.9, 0.8, 0.1, 0.7]
    for cls in (Confusion, F1, GMean, MistakeRate):
        with pytest.raises(ValueError, match=r"y holds strings.*pos_label=1.*labels here: '1'"):
            cls().update_many(mixed, [1, 1, 0, 1])
        with pytest.raises(ValueError, match=r"y_pred holds strings.*pos_label=1"):
            cls().update_many([1, 1, 0, 1], mixed)
        with pytest.raises(ValueError, match=r"y holds numbers.*pos_label='1' is a string"):
            cls(pos_label="1").update_many(mixed, mixed)
    for cls in (ROCAUC, PRAUC, WindowedROCAUC, HistogramROCAUC):
        with pytest.raises(ValueError, match=r"y holds strings.*pos_label=1"):
            cls().update_many(mixed, s)
    # numbers of several types (bool, int, whole float) stay one kind
    both = np.array([True, 0, 1.0, np.int8(1)], dtype=object)
    assert F1().update_many(both, both).get() == 1.0


def test_numpy_2_string_labels_are_text():
    """Session 25: labels in numpy 2's variable-width strings (``dtype="T"``) were of no
    known type, so against the default pos_label=1 every one counted as negative (F1 0.0,
    ROC AUC NaN forever, silently), where the same labels as ``"U"`` are refused; and
    such text given as scores was cast to numbers."""
    from skewlearn.metrics import PRAUC, HistogramROCAUC, WindowedROCAUC

    string_dtype = getattr(getattr(np, "dtypes", None), "StringDType", None)
    if string_dtype is None:  # numpy < 2
        pytest.skip("numpy has no StringDType")
    y = np.array(["neg", "pos", "pos"], dtype=string_dtype())
    s = [0.1, 0.9, 0.4]
    for cls in (Confusion, F1, GMean, MistakeRate):
        with pytest.raises(ValueError, match=r"y holds strings.*pos_label=1 is a number"):
            cls().update_many(y, y)
        assert cls(pos_label="pos").update_many(y, y).counts == ConfusionCounts(2, 0, 1, 0)
    for cls in (ROCAUC, PRAUC, WindowedROCAUC, HistogramROCAUC):
        with pytest.raises(ValueError, match=r"y holds strings.*pos_label=1 is a number"):
            cls().update_many(y, s)
        assert cls(pos_label="pos").update_many(y, s).get() == 1.0
        with pytest.raises(TypeError, match="y_score must hold numbers"):
            cls().update_many([0, 1, 1], np.array(["0.1", "0.9", "0.4"], dtype=string_dtype()))


def test_numpy_2_string_labels_with_missing_values_are_refused():
    """Session 25 (probe r): a StringDType array built with an ``na_object`` (None, NaN,
    ``pd.NA``) holds missing labels; read as text (kind "T", above), a missing one never
    equalled ``pos_label`` and counted as a negative, silently (F1 0.667 here), where the
    same labels in an object array are refused as missing."""
    import pandas as pd

    from skewlearn.metrics import PRAUC, WindowedROCAUC

    string_dtype = getattr(getattr(np, "dtypes", None), "StringDType", None)
    if string_dtype is None:  # numpy < 2
        pytest.skip("numpy has no StringDType")
    for na in (None, math.nan, pd.NA):
        y = np.array(["pos", na, "neg"], dtype=string_dtype(na_object=na))
        full = np.array(["pos", "pos", "neg"], dtype=string_dtype(na_object=na))
        for cls in (Confusion, F1, GMean, MistakeRate):
            with pytest.raises(ValueError, match=r"y holds a missing label"):
                cls(pos_label="pos").update_many(y, full)
            with pytest.raises(ValueError, match=r"y_pred holds a missing label"):
                cls(pos_label="pos").update_many(full, y)
            assert cls(pos_label="pos").update_many(full, full).counts.tp == 2  # none missing
        for cls in (ROCAUC, PRAUC, WindowedROCAUC):
            with pytest.raises(ValueError, match=r"y holds a missing label"):
                cls(pos_label="pos").update_many(y, [0.9, 0.5, 0.1])


def test_scores_where_labels_belong_are_refused():
    """F1().update_many(y, model.decision_function(X)) counted every score as a negative
    prediction (F1 0.0, G-mean 0.0, silently), and ROCAUC().update_many(scores, y) with the
    arguments swapped stayed NaN; the batch metrics refuse such labels."""
    from skewlearn.metrics import PRAUC, HistogramROCAUC, WindowedROCAUC

    scores = np.array([0.3, 0.9, -0.2])
    for cls in (Confusion, F1, GMean, MistakeRate):
        with pytest.raises(ValueError, match=r"y_pred holds values that are not labels.*0\.3"):
            cls().update_many([0, 1, 1], scores)
        with pytest.raises(ValueError, match=r"y_pred holds .*predict\(X\).*ROCAUC"):
            cls().update(1, 0.9)
        with pytest.raises(ValueError, match=r"y holds values that are not labels"):
            cls().update_many(scores, [0, 1, 1])
        m = cls().update_many([0.0, 1.0, -1.0], [1.0, 1.0, -1.0])  # whole floats are labels
        assert m.update(1.0, np.float32(1.0)).counts == ConfusionCounts(tp=2, fp=1, tn=1, fn=0)
    for cls in (ROCAUC, PRAUC, WindowedROCAUC, HistogramROCAUC):
        with pytest.raises(ValueError, match=r"y holds values that are not labels.*label y first"):
            cls().update_many(scores, [0, 1, 1])
        with pytest.raises(ValueError, match=r"y holds values that are not labels"):
            cls().update(0.9, 1)
        assert cls().update_many([1.0, -1.0], [0.9, 0.1]).get() == 1.0
    assert F1(pos_label=0.5).update_many([0.5, 0.25], [0.5, 0.5]).get() == pytest.approx(2 / 3)


def test_scores_where_labels_belong_are_refused_from_an_object_array_too():
    """Session 23: scores in an object array (a pandas ``object`` column) slipped past the
    check above, which looked at float arrays only: ``F1().update_many(y, s)`` gave 0.0
    silently, while the same scores as floats, one by one, or given to the batch ``f1``
    are refused."""
    import pandas as pd

    from skewlearn.metrics import PRAUC, HistogramROCAUC, WindowedROCAUC

    scores = [0.3, 0.9, -0.2]
    as_objects = (np.array(scores, dtype=object), pd.Series(scores, dtype=object))
    for cls in (Confusion, F1, GMean, MistakeRate):
        for s in as_objects:
            with pytest.raises(ValueError, match=r"y_pred holds values that are not labels.*0\.3"):
                cls().update_many([0, 1, 1], s)
            with pytest.raises(ValueError, match=r"y holds values that are not labels"):
                cls().update_many(s, [0, 1, 1])
        # whole numbers of any type stay labels in an object array
        m = cls().update_many([1, 0, 1], np.array([1.0, np.float32(0.0), 1], dtype=object))
        assert m.counts == ConfusionCounts(tp=2, fp=0, tn=1, fn=0)
    for cls in (ROCAUC, PRAUC, WindowedROCAUC, HistogramROCAUC):
        with pytest.raises(ValueError, match=r"y holds values that are not labels.*label y first"):
            cls().update_many(as_objects[0], [0, 1, 1])
    # a fractional pos_label keeps fractional labels, as with float arrays
    objects = np.array([0.5, 0.25], dtype=object)
    assert F1(pos_label=0.5).update_many(objects, objects).get() == 1.0


def test_a_missing_label_is_refused_as_the_batch_metrics_do():
    """Session 13: a None (or pandas NA) label counted as a negative sample, silently:
    `F1().update_many([0, 1, None], [0, 1, 1])` gave 2/3 where the batch f1 refuses the
    missing label."""
    import pandas as pd

    from skewlearn.metrics import PRAUC

    for cls in (Confusion, F1, GMean, MistakeRate):
        for missing in (None, pd.NA):
            with pytest.raises(ValueError, match=r"y holds a missing label \((None|<NA>)\)"):
                cls().update_many([0, 1, missing], [0, 1, 1])
            with pytest.raises(ValueError, match=r"y_pred holds a missing label"):
                cls().update_many([0, 1, 1], [0, 1, missing])
            with pytest.raises(ValueError, match=r"y holds a missing label"):
                cls().update(missing, 1)
            with pytest.raises(ValueError, match=r"y_pred holds a missing label"):
                cls().update(1, missing)
    for cls in (ROCAUC, PRAUC):
        with pytest.raises(ValueError, match=r"y holds a missing label \(None\)"):
            cls().update_many(np.array([0, 1, None], dtype=object), [0.1, 0.9, 0.5])
        with pytest.raises(ValueError, match=r"y holds a missing label"):
            cls().update(None, 0.5)
    m = F1().update_many([0, 1], [0, 1])
    with pytest.raises(ValueError):
        m.update_many([1, None], [1, 1])
    assert m.counts == ConfusionCounts(tp=1, fp=0, tn=1, fn=0)  # a refused batch changes nothing


def test_a_nan_label_is_missing_not_a_score():
    """Session 25: NaN among float labels (a pandas nullable ``Int64`` column with ``NA``
    reads as float64 with NaN) was refused as "values that are not labels (nan) ... take
    the true label y first", i.e. told the user to swap the arguments; the batch metrics
    call it a missing label. Under a fractional ``pos_label`` it counted as a negative."""
    import pandas as pd

    from skewlearn.metrics import PRAUC, WindowedROCAUC

    y = pd.Series([1, None, 0], dtype="Int64")
    for cls in (Confusion, F1, GMean, MistakeRate):
        with pytest.raises(ValueError, match=r"y holds a missing label \(nan\)"):
            cls().update_many(y, [1, 1, 0])
        with pytest.raises(ValueError, match=r"y_pred holds a missing label \(nan\)"):
            cls().update_many([1, 1, 0], np.array([1.0, np.nan, 0.0]))
        with pytest.raises(ValueError, match=r"y holds a missing label \(nan\)"):
            cls().update(math.nan, 1)
        with pytest.raises(ValueError, match=r"y_pred holds a missing label \(nan\)"):
            cls().update(1, np.float64("nan"))
        with pytest.raises(ValueError, match=r"y holds a missing label"):
            cls(pos_label=0.5).update_many([0.5, math.nan], [0.5, 0.5])
    for cls in (ROCAUC, PRAUC, WindowedROCAUC):
        with pytest.raises(ValueError, match=r"y holds a missing label \(nan\)"):
            cls().update_many(y, [0.1, 0.9, 0.5])
        with pytest.raises(ValueError, match=r"y holds a missing label \(nan\)"):
            cls().update(math.nan, 0.5)


def test_objects_that_are_no_labels_are_refused():
    """F1().update(y, model.predict_proba_one(x)) (River's dict of probabilities where a
    predicted label belongs) counted the dict as a negative prediction, silently (F1 0.0),
    and so did any object that can never equal pos_label; scikit-learn's f1_score refuses
    such labels ("unknown label type"). Labels must be numbers or text (any label type
    still works with a pos_label of its own type)."""
    from skewlearn.metrics import PRAUC, HistogramROCAUC, WindowedROCAUC

    proba = {True: 0.7, False: 0.3}
    with pytest.raises(ValueError):
        skm.f1_score([1], np.array([proba], dtype=object))
    for cls in (Confusion, F1, GMean, MistakeRate):
        with pytest.raises(ValueError, match=r"y_pred holds \{True: 0\.7, False: 0\.3\}.*a dict"):
            cls().update(True, proba)
        with pytest.raises(ValueError, match=r"y holds \{True: 0\.7, False: 0\.3\}"):
            cls().update(proba, True)
        with pytest.raises(ValueError, match=r"y_pred holds \{True: 0\.7"):
            cls().update_many([1, 0], np.array([proba, 1], dtype=object))
        with pytest.raises(ValueError, match=r"y holds .*datetime64"):
            cls().update_many(np.array(["2020-01-01"], dtype="datetime64[D]"), [1])
    for cls in (ROCAUC, PRAUC, WindowedROCAUC, HistogramROCAUC):
        with pytest.raises(ValueError, match=r"y holds \{True: 0\.7"):
            cls().update(proba, 0.5)
        with pytest.raises(ValueError, match=r"y holds \{True: 0\.7"):
            cls().update_many(np.array([1, proba], dtype=object), [0.1, 0.5])
    # labels of other types pair with a pos_label of their type, as before
    import enum

    Label = enum.Enum("Label", "NEG POS")
    m = F1(pos_label=Label.POS).update(Label.POS, Label.POS)
    m.update_many(np.array([Label.POS, Label.NEG], dtype=object), [Label.NEG, Label.NEG])
    assert m.get() == pytest.approx(2 / 3)
    assert F1().update_many(np.array([1, 0], dtype=object), [1, 0]).get() == 1.0
    # a 0-d array holds its label, as a length-1 one does
    assert F1().update(np.array(1), np.array([1])).update(np.array(0), 0).get() == 1.0
    assert ROCAUC().update(np.array(1), np.array(0.9)).update(np.array(0), 0.1).get() == 1.0


def test_an_empty_batch_changes_nothing_whatever_the_label_type():
    # An empty list is a float64 array to numpy: against a text pos_label it was refused
    # as "y holds numbers ... (labels here: )", and an empty str array against a number
    # pos_label as strings; the last chunk of a text-labelled stream can be empty.
    from skewlearn.metrics import (
        PRAUC,
        HistogramPRAUC,
        HistogramROCAUC,
        WindowedPRAUC,
        WindowedROCAUC,
    )

    label_metrics = (Confusion, F1, GMean, MistakeRate)
    score_metrics = (ROCAUC, PRAUC, WindowedROCAUC, WindowedPRAUC, HistogramROCAUC, HistogramPRAUC)
    for pos, labels in (("pos", ["neg", "pos"]), (1, [0, 1])):
        for cls in label_metrics + score_metrics:
            m = cls(pos_label=pos)
            values = [0.2, 0.7] if cls in score_metrics else labels
            m.update_many(labels, values)
            before = m.get()
            for empty in ([], np.array([]), np.array([], dtype=str), np.array([], dtype=object)):
                preds = [] if cls in score_metrics else empty
                assert m.update_many(empty, preds) is m
            assert m.get() == before or (math.isnan(m.get()) and math.isnan(before))
            wrong = "a" if pos == 1 else 0  # a non-empty batch of the other type still is
            with pytest.raises(ValueError, match="labels here"):
                m.update_many([wrong], values[:1])


def test_a_batch_of_two_columns_is_refused_as_the_batch_metrics_refuse_it():
    # update_many flattened any array: one-hot labels beside predict_proba's two columns
    # gave a value over 2n "samples" (F1, ROC AUC 0.75 here) where the batch metrics
    # refuse them, and predict_proba beside n labels was told "got 4 and 8".
    from skewlearn.metrics import (
        PRAUC,
        HistogramPRAUC,
        HistogramROCAUC,
        WindowedPRAUC,
        WindowedROCAUC,
        roc_auc,
    )

    one_hot = np.eye(2, dtype=int)[[0, 1, 1, 0]]
    proba = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
    with pytest.raises(ValueError, match=r"y_score must be one-dimensional; got .* \(4, 2\)"):
        roc_auc([0, 1, 1, 0], proba)
    for cls in (ROCAUC, PRAUC, WindowedROCAUC, WindowedPRAUC, HistogramROCAUC, HistogramPRAUC):
        with pytest.raises(ValueError, match=r"y_score must be one-dimensional; got .* \(4, 2\)"):
            cls().update_many([0, 1, 1, 0], proba)
        with pytest.raises(ValueError, match=r"y must be one-dimensional; got .* \(4, 2\)"):
            cls().update_many(one_hot, proba)
        # a column (or row) vector is one score per sample, as in the batch metrics
        m = cls().update_many(np.array([[0], [1], [1], [0]]), proba[:, 1:])
        assert m.get() == cls().update_many([0, 1, 1, 0], proba[:, 1]).get()
    for cls in (Confusion, F1, GMean, MistakeRate):
        with pytest.raises(ValueError, match=r"y_pred must be one-dimensional; got .* \(4, 2\)"):
            cls().update_many([0, 1, 1, 0], one_hot)
        with pytest.raises(ValueError, match=r"y must be one-dimensional"):
            cls().update_many(one_hot, one_hot)
        m = cls().update_many([[0, 1, 1, 0]], np.array([[0], [1], [0], [0]]))
        assert m.get() == cls().update_many([0, 1, 1, 0], [0, 1, 0, 0]).get()


def test_a_missing_score_is_named_as_nan_is_not_as_a_label():
    # pd.NA (a nullable Float64 column read row by row, or a list holding it) failed
    # float() and was told "y_score must hold numbers ...; got dtype object. Pass scores,
    # not predicted labels"; None in the same place is named as NaN.
    import pandas as pd

    from skewlearn.metrics import (
        PRAUC,
        HistogramPRAUC,
        HistogramROCAUC,
        WindowedPRAUC,
        WindowedROCAUC,
        pr_auc,
        roc_auc,
    )

    column = pd.Series([0.2, None, 0.7], dtype="Float64")
    for missing in (pd.NA, pd.NaT, column.iloc[1]):
        for batch in (roc_auc, pr_auc):
            with pytest.raises(ValueError, match=r"y_score contains NaN at 1 position\(s\)"):
                batch([0, 1, 1], [0.2, missing, 0.7])
        for cls in (ROCAUC, PRAUC, WindowedROCAUC, WindowedPRAUC, HistogramROCAUC, HistogramPRAUC):
            with pytest.raises(ValueError, match=r"y_score (is|contains) NaN"):
                cls().update(1, missing)
            with pytest.raises(ValueError, match=r"y_score (is|contains) NaN"):
                cls().update_many([0, 1, 1], np.array([0.2, missing, 0.7], dtype=object))
    # what is no number at all keeps its message
    with pytest.raises(TypeError, match="y_score must hold numbers"):
        ROCAUC().update_many([0, 1], np.array([0.2, {"a": 1}], dtype=object))


def test_a_date_or_duration_column_is_no_score():
    # Session 27, probe w: datetime64 and timedelta64 scores were cast to float64, so a
    # date column passed for the scores (df["when"] for df["score"]) was ranked by its
    # nanoseconds, and its NaT, a missing value, became -9.2e18, the lowest score, where
    # pd.NaT among objects gets the NaN message.
    import pandas as pd

    from skewlearn.metrics import HistogramROCAUC, WindowedPRAUC, pr_auc, roc_auc

    days = pd.to_datetime(["2024-01-01", "2024-01-03", "2024-01-02"])
    spans = np.array([1, "NaT", 3], dtype="m8[s]")
    for scores in (days, days.to_numpy(), spans, pd.Series(spans)):
        for batch in (roc_auc, pr_auc):
            with pytest.raises(TypeError, match=r"y_score must hold numbers .*got dtype"):
                batch([0, 1, 1], scores)
        for metric in (ROCAUC(), HistogramROCAUC(), WindowedPRAUC(window=2)):
            with pytest.raises(TypeError, match=r"y_score must hold numbers .*got dtype"):
                metric.update_many([0, 1, 1], scores)
            with pytest.raises(TypeError, match=r"y_score must hold numbers .*got dtype"):
                metric.update(1, np.asarray(scores)[1])
