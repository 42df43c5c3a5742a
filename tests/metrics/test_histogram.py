"""Histogram AUROC/AUPRC: the paper's recurrences, the derived bin-error bounds, the contract."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skewlearn.metrics import HistogramPRAUC, HistogramROCAUC, pr_auc, roc_auc
from skewlearn.metrics.histogram import auroc_gain2, score_bin
from tests.naive.omcsl import PaperAUROC, bin_of, paper_auprc


@st.composite
def stream(draw, max_size=80):
    """Labels in {-1, +1} and decision values, often tied and often sharing a bin."""
    n = draw(st.integers(1, max_size))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    pool = draw(st.lists(st.floats(-6, 6, allow_nan=False), min_size=1, max_size=12))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    return y, np.array(pool)[idx], draw(st.sampled_from([1, 2, 5, 20, 100]))


@settings(max_examples=60, deadline=None)
@given(stream(), st.sampled_from([0.05, 0.5, 3.0, 40.0]))
def test_scale_bins_f_over_scale_and_keeps_the_bound(data, scale):
    """scale = tau bins sigma(f / tau): the paper's rules on f / tau, the bound still holds."""
    y, s, m = data
    roc = HistogramROCAUC(n_bins=m, scale=scale).update_many(y, s)
    prc = HistogramPRAUC(n_bins=m, scale=scale).update_many(y, s)
    paper = PaperAUROC(m)
    for t in range(len(y)):
        paper.add(y[t], s[t] / scale)
    assert [bin_of(v / scale, m) for v in s] == roc.bins(s).tolist()
    assert _close(roc.get(), paper.get())
    assert _close(prc.get(), paper_auprc(list(prc.pos_counts), list(prc.neg_counts)))
    if len(set(y)) == 2:
        assert abs(roc.get() - roc_auc(y, s)) <= roc.bin_error() + 1e-12
    if (y == 1).any():
        assert abs(prc.get() - pr_auc(y, s)) <= prc.bin_error() + 1e-12


def test_large_scores_saturate_the_sigmoid_and_scale_restores_the_ranking():
    # decision values of size ~100: sigma puts every one in the first or last of 100 bins
    y = np.array([1, 0, 1, 0, 0, 1, 0, 0])
    s = np.array([250.0, 120.0, 90.0, 60.0, -40.0, -70.0, -150.0, -300.0])
    flat = HistogramROCAUC().update_many(y, s)
    assert set(flat.bins(s).tolist()) == {0, 99}
    # bin 0 holds -40, -70, -150, -300 (1 pos, 3 neg), bin 99 holds 250, 120, 90, 60
    # (2 pos, 2 neg): 3 + 4 of the 15 pairs are tied
    assert flat.bin_error() == pytest.approx((1 * 3 + 2 * 2) / (2 * 3 * 5))
    spread = HistogramROCAUC(scale=100.0).update_many(y, s)
    assert spread.bin_error() == 0.0 and spread.get() == pytest.approx(roc_auc(y, s))
    assert abs(flat.get() - roc_auc(y, s)) > 0.05


def _close(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-14)


@settings(max_examples=80, deadline=None)
@given(stream())
def test_every_prefix_within_bin_error_and_equal_to_the_papers_rules(data):
    y, s, m = data
    roc, prc = HistogramROCAUC(n_bins=m), HistogramPRAUC(n_bins=m)
    paper = PaperAUROC(m)
    for t in range(len(y)):
        roc.update(y[t], s[t])
        prc.update(y[t], s[t])
        paper.add(y[t], s[t])
        yt, st_ = y[: t + 1], s[: t + 1]
        # the paper's incremental rule and its AUPRC formula, on the same tables
        assert _close(roc.get(), paper.get())
        assert _close(prc.get(), paper_auprc(list(prc.pos_counts), list(prc.neg_counts)))
        if len(set(yt)) == 2:
            err = abs(roc.get() - roc_auc(yt, st_))
            assert err <= roc.bin_error() + 1e-12
        if (yt == 1).any():
            for method in ("average_precision", "trapezoid"):
                err = abs(prc.get() - pr_auc(yt, st_, method=method))
                assert err <= prc.bin_error() + 1e-12, method
        else:
            assert math.isnan(prc.get()) and math.isnan(prc.bin_error())


@settings(max_examples=60, deadline=None)
@given(
    stream(max_size=120),
    st.lists(st.integers(1, 30), min_size=1, max_size=6),
    st.sampled_from([1.0, 0.25, 8.0]),
)
def test_update_many_and_merge_equal_one_by_one(data, sizes, scale):
    """(``scale`` since session 25: ``update`` binning without it went unnoticed.)"""
    y, s, m = data
    for cls in (HistogramROCAUC, HistogramPRAUC):
        one = cls(n_bins=m, scale=scale)
        for t in range(len(y)):
            one.update(y[t], s[t])
        many, parts = cls(n_bins=m, scale=scale), []
        lo, k = 0, 0
        while lo < len(y):
            hi = lo + sizes[k % len(sizes)]
            many.update_many(y[lo:hi], s[lo:hi])
            parts.append(cls(n_bins=m, scale=scale).update_many(y[lo:hi], s[lo:hi]))
            lo, k = hi, k + 1
        merged = parts[0]
        for p in parts[1:]:
            merged.merge(p)
        for other in (many, merged):
            np.testing.assert_array_equal(other.pos_counts, one.pos_counts)
            np.testing.assert_array_equal(other.neg_counts, one.neg_counts)
            assert _close(other.get(), one.get())


def test_exact_when_every_score_has_its_own_bin():
    # scores already in [0, 1], one per bin of 10: binning loses nothing
    u = np.array([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95])
    y = np.array([0, 1, 0, 0, 1, 0, 1, 1, 0, 1])
    roc = HistogramROCAUC(n_bins=10, transform="identity").update_many(y, u)
    prc = HistogramPRAUC(n_bins=10, transform="identity").update_many(y, u)
    assert roc.get() == pytest.approx(roc_auc(y, u)) and roc.bin_error() == 0.0
    assert prc.get() == pytest.approx(pr_auc(y, u, method="trapezoid"))
    # average precision is a step curve, not the trapezoids: it differs, within the bound
    assert abs(prc.get() - pr_auc(y, u)) <= prc.bin_error()


def test_hand_computed_tables():
    # m = 4, identity: pos at .9 (bin 3), .6 (bin 2), .1 (bin 0); neg at .65 (bin 2), .3 (bin 1)
    y = np.array([1, 1, 1, 0, 0])
    u = np.array([0.9, 0.6, 0.1, 0.65, 0.3])
    roc = HistogramROCAUC(n_bins=4, transform="identity").update_many(y, u)
    # pairs won: .9 beats both (2); .6 ties .65 (1/2), beats .3 (1); .1 beats none -> 3.5/6
    assert roc.get() == pytest.approx(3.5 / 6)
    assert roc.bin_error() == pytest.approx(1 / 12)  # one same-bin pair, 1/(2*3*2)
    prc = HistogramPRAUC(n_bins=4, transform="identity").update_many(y, u)
    # thresholds from the top: (R, P) = (0, 1), (1/3, 1), (2/3, 2/3), (2/3, 1/2), (1, 3/5)
    # areas: 1/3 * (1 + 1)/2 + 1/3 * (1 + 2/3)/2 + 0 + 1/3 * (1/2 + 3/5)/2
    expect = (1 / 3) * 1 + (1 / 3) * (5 / 6) + (1 / 3) * (1.1 / 2)
    assert prc.get() == pytest.approx(expect)


def test_compiled_helpers_match_the_python_bins():
    rng = np.random.default_rng(0)
    s = np.concatenate([rng.normal(scale=5, size=200), [0.0, 40.0, -40.0, 800.0, -800.0]])
    m = HistogramROCAUC(n_bins=37)
    for v in s:
        assert score_bin(v, 37, 0) == bin_of(v, 37) == m.bins([v])[0]
    table = np.array([3, 0, 2, 5], dtype=np.int64)
    assert auroc_gain2(table, 2, True) == 2 * 3 + 2
    assert auroc_gain2(table, 1, False) == 2 * 7 + 0


def test_undefined_and_errors():
    roc, prc = HistogramROCAUC(), HistogramPRAUC()
    assert math.isnan(roc.get()) and math.isnan(prc.get())
    roc.update(1, 0.3)
    assert math.isnan(roc.get())
    with pytest.raises(ValueError, match="n_bins must be an integer >= 1"):
        HistogramROCAUC(n_bins=0)
    with pytest.raises(ValueError, match="transform must be one of"):
        HistogramPRAUC(transform="probit")
    for bad in (1.5, -0.25):  # one by one and in a batch (session 25: untested)
        with pytest.raises(ValueError, match=f"needs scores in .*; got {bad}"):
            HistogramPRAUC(transform="identity").update(1, bad)
        with pytest.raises(ValueError, match=f"needs scores in .*; got {bad}"):
            HistogramROCAUC(transform="identity").update_many([1, 0, 1], [0.5, bad, 1.0])
    with pytest.raises(ValueError, match="NaN"):
        roc.update(0, float("nan"))
    with pytest.raises(ValueError, match="same settings"):
        HistogramROCAUC(n_bins=10).merge(HistogramROCAUC(n_bins=20))
    with pytest.raises(ValueError, match="same settings"):
        HistogramROCAUC(scale=2.0).merge(HistogramROCAUC())
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="scale must be finite and > 0"):
            HistogramPRAUC(scale=bad)
    with pytest.raises(ValueError, match="scale must be a positive number"):
        HistogramPRAUC(scale="10")
    with pytest.raises(ValueError, match="Drop scale, or use transform='sigmoid'"):
        HistogramROCAUC(transform="identity", scale=2.0)
    with pytest.raises(TypeError, match="same kind"):
        HistogramROCAUC().merge(HistogramPRAUC())


def test_pickle_and_pos_label():
    m = HistogramROCAUC(pos_label="yes").update_many(["yes", "no", "no"], [2.0, -1.0, 3.0])
    assert m.get() == pytest.approx(0.5)
    assert pickle.loads(pickle.dumps(m)).get() == m.get()


def test_auroc_of_tables_past_int64_products_does_not_wrap():
    """O(m) memory whatever the stream's length: tables of ~1e10 rows (as merging many
    chunked evaluations gives) made the int64 dot wrap and get() came out negative."""
    m = HistogramROCAUC(n_bins=4, transform="identity")
    m.update_many([0, 0, 1, 1, 0, 1], [0.1, 0.6, 0.6, 0.9, 0.3, 0.2])
    k = 3_000_000_000
    m.pos_counts *= k
    m.neg_counts *= k
    pos, neg = [int(v) for v in m.pos_counts], [int(v) for v in m.neg_counts]
    u2 = sum(p * (2 * sum(neg[:b]) + neg[b]) for b, p in enumerate(pos))  # exact ints
    assert m.get() == pytest.approx(u2 / (2 * sum(pos) * sum(neg)), rel=1e-15)
    ties = sum(p * q for p, q in zip(pos, neg))
    assert m.bin_error() == pytest.approx(ties / (2 * sum(pos) * sum(neg)), rel=1e-15)


def test_complex_scores_are_refused_as_by_the_exact_metrics():
    """Session 13: the histogram metrics dropped the imaginary part of complex scores with
    only a ComplexWarning; ROCAUC, PRAUC and the batch metrics refuse them."""
    for cls in (HistogramROCAUC, HistogramPRAUC):
        with pytest.raises(TypeError, match=r"y_score must hold real numbers; got complex"):
            cls().update_many([0, 1], [0.1 + 1j, 0.3])
        with pytest.raises(TypeError, match=r"y_score must hold real numbers; got complex"):
            cls().update(1, 0.3 + 1j)


def test_scores_at_bin_edges_land_in_the_bin_omcsl_counts_them_in():
    """HistogramROCAUC/PRAUC binned with numpy's exp, OMCSL's kernel with the compiled
    score_bin (libm's exp); the two differ in the last bit for some scores, so a score at
    a bin edge could land in neighbouring bins (-2.9444389791664407 of m = 100: bin 4 here,
    5 in OMCSL's table), and OMCSL's measure was not the metric's of the same scores."""
    m = 100
    u = np.arange(1, m) / m
    edges = np.log(u / (1.0 - u))
    s = (edges[:, None] * (1.0 + np.linspace(-1e-14, 1e-14, 41))[None, :]).ravel()
    s = np.concatenate([s, [-2.9444389791664407, -1.3249254147435985, 0.8472978603872033]])
    for scale in (1.0, 0.7):
        metric = HistogramROCAUC(n_bins=m, scale=scale)
        compiled = [score_bin(v if scale == 1.0 else v / scale, m, 0) for v in s]
        np.testing.assert_array_equal(metric.bins(s), compiled)
        assert [metric.bins([v])[0] for v in s[-3:]] == compiled[-3:]
        if scale == 1.0:  # the naive reference's bins too
            assert [bin_of(v, m) for v in s[-3:]] == compiled[-3:]
    # the same scores through OMCSL's tables (one learner whose pre-update scores are s)
    from skewlearn.ensemble.omcsl import _omcsl_track

    y = np.where(np.arange(len(s)) % 3 == 0, 1.0, -1.0)
    K = 1
    tables = (np.zeros((K, m), dtype=np.int64), np.zeros((K, m), dtype=np.int64))
    counts = np.zeros(4, dtype=np.int64)
    _omcsl_track(
        s[:, None].copy(), counts, y, np.empty(len(s)), np.empty(len(s), dtype=np.int64),
        np.empty(len(s), dtype=np.int64), 1, 50.0, 1.0, np.zeros((K, 2), dtype=np.int64),
        tables[0], tables[1], np.zeros(K, dtype=np.int64), np.zeros(K), np.ones(K),
        np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.int64), True,
    )  # fmt: skip
    metric = HistogramROCAUC(n_bins=m).update_many(y, s)
    np.testing.assert_array_equal(metric.pos_counts, tables[0][0])
    np.testing.assert_array_equal(metric.neg_counts, tables[1][0])


def test_update_takes_the_integer_scores_update_many_takes():
    """``update`` refused integers beyond 2**53 ("distinct scores would count as ties",
    the exact metrics' rule) while ``update_many`` binned them: the contract says the two
    are the same. A histogram ties them anyway (sigma(2**70) is the last bin), so both
    take them."""
    for cls in (HistogramROCAUC, HistogramPRAUC):
        one = cls()
        for y, s in [(1, 2**70 + 1), (0, -(2**60) - 3), (1, 2**53 + 1), (0, 5)]:
            one.update(y, s)
        many = cls().update_many(
            [1, 0, 1, 0], np.array([2**70 + 1, -(2**60) - 3, 2**53 + 1, 5], dtype=object)
        )
        assert np.array_equal(one.pos_counts, many.pos_counts)
        assert np.array_equal(one.neg_counts, many.neg_counts)
        assert one.get() == many.get()
