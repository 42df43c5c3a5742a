"""Exact streaming AUPRC and the windowed exact AUROC/AUPRC against scikit-learn, and the
compiled batch path of the exact AUROC against pair counting."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from skewlearn.metrics import PRAUC, ROCAUC, WindowedPRAUC, WindowedROCAUC
from skewlearn.metrics._exact import average_precision_sorted, merge_sorted, rank_sum_sorted
from tests.naive.metrics import roc_auc_pairs


@st.composite
def stream(draw, max_size=120):
    """Labels in {0, 1} and scores drawn from a small pool (many ties)."""
    n = draw(st.integers(1, max_size))
    y = np.array(draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n)))
    pool = draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=8))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    return y, np.array(pool)[idx]


def _batches(n, sizes):
    lo, k = 0, 0
    while lo < n:
        hi = min(n, lo + sizes[k % len(sizes)])
        yield lo, hi
        lo, k = hi, k + 1


def _ap(y, s):
    return skm.average_precision_score(y, s) if (y == 1).any() else math.nan


def _auc(y, s):
    return skm.roc_auc_score(y, s) if len(set(y.tolist())) == 2 else math.nan


def _same(got, expected):
    if math.isnan(expected):
        return math.isnan(got)
    return got == pytest.approx(expected, rel=1e-12, abs=1e-14)


@settings(max_examples=80, deadline=None)
@given(stream(), st.lists(st.integers(1, 25), min_size=1, max_size=6))
def test_exact_auroc_and_auprc_equal_sklearn_at_every_checkpoint(data, sizes):
    y, s = data
    roc, prc = ROCAUC(), PRAUC()
    for lo, hi in _batches(len(y), sizes):
        roc.update_many(y[lo:hi], s[lo:hi])
        prc.update_many(y[lo:hi], s[lo:hi])
        assert _same(roc.get(), _auc(y[:hi], s[:hi]))
        assert _same(prc.get(), _ap(y[:hi], s[:hi]))


@settings(max_examples=60, deadline=None)
@given(stream(max_size=60))
def test_exact_auprc_one_by_one_and_merge(data):
    y, s = data
    one = PRAUC()
    for t in range(len(y)):
        one.update(y[t], s[t])
        assert _same(one.get(), _ap(y[: t + 1], s[: t + 1]))
    cut = len(y) // 3
    merged = PRAUC().update_many(y[:cut], s[:cut]).merge(PRAUC().update_many(y[cut:], s[cut:]))
    assert _same(merged.get(), _ap(y, s))
    assert merged.n_pos == int((y == 1).sum()) and merged.n_neg == int((y == 0).sum())


@settings(max_examples=120, deadline=None)
@given(
    stream(max_size=150),
    st.integers(1, 40),
    st.lists(st.integers(1, 60), min_size=1, max_size=6),
)
def test_windowed_equal_sklearn_on_every_window(data, window, sizes):
    """After every batch (one-by-one steps, Fenwick batches, batches longer than the
    window), the windowed metrics equal sklearn on the last `window` samples."""
    y, s = data
    roc, prc = WindowedROCAUC(window), WindowedPRAUC(window)
    # the same stream one `update` at a time (session 15: its own compiled step)
    roc1, prc1 = WindowedROCAUC(window), WindowedPRAUC(window)
    for lo, hi in _batches(len(y), sizes):
        roc.update_many(y[lo:hi], s[lo:hi])
        prc.update_many(y[lo:hi], s[lo:hi])
        for t in range(lo, hi):
            roc1.update(int(y[t]), float(s[t]))
            prc1.update(int(y[t]), float(s[t]))
        yw, sw = y[max(0, hi - window) : hi], s[max(0, hi - window) : hi]
        assert _same(roc.get(), _auc(yw, sw)) and _same(roc1.get(), _auc(yw, sw))
        assert _same(prc.get(), _ap(yw, sw)) and _same(prc1.get(), _ap(yw, sw))
        assert roc.n_pos + roc.n_neg == len(yw) == prc.n_pos + prc.n_neg
        labels, scores = roc.values()
        np.testing.assert_array_equal(labels, yw == 1)
        np.testing.assert_array_equal(scores, sw)


def test_windowed_long_stream_single_updates_cross_many_epochs():
    rng = np.random.default_rng(0)
    y = (rng.random(3000) < 0.3).astype(int)
    s = np.round(rng.normal(size=3000) + y, 1)
    roc, prc = WindowedROCAUC(97), WindowedPRAUC(97)
    for t in range(3000):
        roc.update(y[t], s[t])
        prc.update(y[t], s[t])
        if t % 37 == 0 or t > 2950:
            yw, sw = y[max(0, t - 96) : t + 1], s[max(0, t - 96) : t + 1]
            assert _same(roc.get(), _auc(yw, sw))
            assert _same(prc.get(), _ap(yw, sw))
            if len(set(yw.tolist())) == 2:
                assert roc.get() == pytest.approx(roc_auc_pairs(yw == 1, sw), rel=1e-12)


def test_windowed_merge_pickle_and_errors():
    rng = np.random.default_rng(1)
    y = (rng.random(200) < 0.4).astype(int)
    s = rng.integers(0, 9, 200).astype(float)
    for cls in (WindowedROCAUC, WindowedPRAUC):
        whole = cls(50).update_many(y, s)
        merged = cls(50).update_many(y[:130], s[:130]).merge(cls(50).update_many(y[130:], s[130:]))
        assert merged.get() == pytest.approx(whole.get(), rel=1e-12)
        clone = pickle.loads(pickle.dumps(whole))
        clone.update_many(y[:10], s[:10])
        whole.update_many(y[:10], s[:10])
        assert clone.get() == whole.get()
    m = WindowedROCAUC(5, pos_label="yes").update_many(["yes", "no", "no"], [0.9, 0.1, 0.95])
    assert m.get() == pytest.approx(0.5)
    # merging replays the other window's samples; with string labels too
    for cls, ref in (
        (WindowedROCAUC, skm.roc_auc_score),
        (WindowedPRAUC, skm.average_precision_score),
    ):
        a = cls(4, pos_label="b").update_many(["a", "b", "a"], [0.1, 0.9, 0.4])
        a.merge(cls(4, pos_label="b").update_many(["a", "b"], [0.5, 0.3]))
        assert a.get() == pytest.approx(ref([1, 0, 0, 1], [0.9, 0.4, 0.5, 0.3]))
    assert math.isnan(WindowedPRAUC(3).update_many([0, 0], [0.1, 0.2]).get())
    with pytest.raises(ValueError, match="window must be an integer >= 1"):
        WindowedROCAUC(0)
    with pytest.raises(ValueError, match="same window"):
        WindowedROCAUC(5).merge(WindowedROCAUC(6))
    with pytest.raises(ValueError, match="NaN"):
        WindowedPRAUC(5).update(1, math.nan)
    with pytest.raises(TypeError, match="same kind"):
        PRAUC().merge(ROCAUC())


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(-20, 20), max_size=60),
    st.lists(st.integers(-20, 20), max_size=60),
)
def test_compiled_kernels_against_numpy(run, q):
    run = np.sort(np.array(run, dtype=float))
    q = np.sort(np.array(q, dtype=float))
    expect = int(np.searchsorted(run, q, "left").sum() + np.searchsorted(run, q, "right").sum())
    assert rank_sum_sorted(run, q) == expect
    np.testing.assert_array_equal(merge_sorted(run, q), np.sort(np.concatenate([run, q])))
    if len(q):
        ap = average_precision_sorted(q, len(q), run, len(run))
        y = np.r_[np.ones(len(q)), np.zeros(len(run))]
        assert ap == pytest.approx(skm.average_precision_score(y, np.r_[q, run]), rel=1e-12)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.lists(st.integers(-20, 20), max_size=30), max_size=8),
    st.lists(st.integers(-20, 20), max_size=40),
)
def test_rank_sum_over_all_runs_is_numpys(batches, q):
    """Session 19: ``_SortedRuns.rank_sum_sorted`` is one compiled call over the runs
    (``runs_rank_sum_sorted``); it counts as searchsorted over every value does."""
    from skewlearn.metrics._exact import runs_rank_sum_sorted
    from skewlearn.metrics.streaming import _SortedRuns

    runs = _SortedRuns()
    for batch in batches:
        runs.add_sorted(np.sort(np.array(batch, dtype=float)))
    every = np.sort(np.array([v for b in batches for v in b], dtype=float))
    q = np.sort(np.array(q, dtype=float))
    expect = int(np.searchsorted(every, q, "left").sum() + np.searchsorted(every, q, "right").sum())
    assert runs_rank_sum_sorted(runs.buf, runs.bounds, runs.state, q) == expect
    assert runs.rank_sum_sorted(q) == expect


def test_large_batches_match_pair_counting():
    rng = np.random.default_rng(2)
    y = (rng.random(50_000) < 0.08).astype(int)
    s = np.round(rng.normal(size=50_000) + y, 2)
    roc, prc = ROCAUC(), PRAUC()
    for lo in range(0, 50_000, 7_919):
        roc.update_many(y[lo : lo + 7_919], s[lo : lo + 7_919])
        prc.update_many(y[lo : lo + 7_919], s[lo : lo + 7_919])
    assert roc.get() == pytest.approx(skm.roc_auc_score(y, s), rel=1e-12)
    assert prc.get() == pytest.approx(skm.average_precision_score(y, s), rel=1e-12)


@settings(max_examples=80, deadline=None)
@given(stream(max_size=150), st.lists(st.integers(0, 9), min_size=1, max_size=8))
def test_exact_auroc_row_by_row_and_in_batches_equals_pair_counting(data, sizes):
    """Session 15: one ``update`` is one compiled call over runs kept in one buffer
    (``auroc_add_one``); mixed with batches (size 0 = a single ``update``), the
    value equals the O(n²) pair count at every step, the runs stay sorted and at most
    log2(n) + 1, and a pickle taken mid-stream continues identically."""
    import copy

    y, s = data
    m = ROCAUC()
    t, k, saved = 0, 0, None
    while t < len(y):
        b = sizes[k % len(sizes)]
        k += 1
        if b == 0:
            m.update(int(y[t]), float(s[t]))
            t += 1
        else:
            m.update_many(y[t : t + b], s[t : t + b])
            t = min(len(y), t + b)
        assert _same(m.get(), roc_auc_pairs(y[:t], s[:t]) if len(set(y[:t].tolist())) == 2
                     else math.nan)  # fmt: skip
        for runs in (m._pos, m._neg):
            assert runs.size == sum(len(r) for r in runs.runs)
            assert len(runs.runs) <= 1 + math.log2(max(runs.size, 1))
            assert all((np.diff(r) >= 0).all() for r in runs.runs)
        if saved is None and t >= len(y) // 2:
            saved = (t, pickle.loads(pickle.dumps(m)), copy.deepcopy(m))
    cut, *copies = saved
    for other in copies:
        for j in range(cut, len(y)):
            other.update(int(y[j]), float(s[j]))
        assert other.u2 == ROCAUC().update_many(y, s).u2


def test_a_rocauc_pickled_before_session_15_loads_and_goes_on():
    """Before session 15 the runs were a list of arrays (``__slots__ = ("runs", "size")``,
    pickled as ``(None, {"runs": [...], "size": n})``)."""
    from skewlearn.metrics.streaming import _SortedRuns

    rng = np.random.default_rng(0)
    y = (rng.random(300) < 0.3).astype(int)
    s = np.round(rng.normal(size=300), 1)  # ties
    m = ROCAUC().update_many(y[:100], s[:100])
    for j in range(100, 150):
        m.update(int(y[j]), float(s[j]))
    for name in ("_pos", "_neg"):
        runs = getattr(m, name).runs
        old = _SortedRuns.__new__(_SortedRuns)
        old.__setstate__((None, {"runs": [r.copy() for r in runs], "size": sum(map(len, runs))}))
        assert [r.tolist() for r in old.runs] == [r.tolist() for r in runs]
        setattr(m, name, old)
    for j in range(150, 300):
        m.update(int(y[j]), float(s[j]))
    assert m.get() == pytest.approx(skm.roc_auc_score(y, s), rel=1e-14)
    assert m.u2 == ROCAUC().update_many(y, s).u2


@pytest.mark.parametrize(("cls", "whole"), [(WindowedROCAUC, "ROCAUC"), (WindowedPRAUC, "PRAUC")])
def test_a_window_whose_arrays_pass_a_gib_is_announced(cls, whole):
    """Session 24: ``window=10**9`` (meant as "the whole stream") asked for 75 GiB without
    a word; the pages are taken as the window fills, so it ended in an out-of-memory kill.
    A window whose arrays (81 bytes a score) pass 1 GiB warns at the user's line, naming
    the whole-stream measure; one score fewer does not. (numpy's zeros are not touched
    until used, so building these costs no memory.)"""
    import warnings

    limit = 2**30 // 81
    with pytest.warns(RuntimeWarning, match=rf"window=13,256,072\) .* use {whole} ") as rec:
        cls(window=limit + 1)
    assert rec[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cls(window=limit)
