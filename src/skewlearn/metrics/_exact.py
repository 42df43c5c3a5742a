"""Compiled kernels of the exact streaming ranking metrics (:mod:`.streaming`).

Everything counts pairs exactly in integers: ``2U`` (twice the Mann-Whitney count, ties
worth 1) for AUROC, and the true/false positive counts at each distinct threshold for
average precision. No kernel rounds anything but the final divisions.

* :func:`rank_sum_sorted` — for ascending queries, :math:`\\sum_i \\#\\{r < q_i\\} +
  \\#\\{r \\le q_i\\}` against one sorted run ``r``, by galloping (exponential then binary)
  search from the previous query's position: O(b log(n/b)) for b queries into n values.
* :func:`merge_sorted` — linear merge of two sorted runs.
* :func:`average_precision_sorted` — average precision of two sorted class arrays, one
  descending walk over the distinct scores (scikit-learn's ``average_precision_score``).
* :func:`window_step` / :func:`window_batch` — the sliding window of the windowed
  metrics: insertion and deletion in sorted per-class arrays (one binary search, one
  block move) with the change of ``2U``, or for large batches a Fenwick tree over the
  ranks of the values the batch can meet (coordinate compression per batch).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._config import NJIT, NJIT_INLINE


# --------------------------------------------------------------------------- searches
@njit(**NJIT_INLINE)
def _before(v, x, right):
    """Whether ``v`` lies before the boundary: ``v < x`` (left) or ``v <= x`` (right)."""
    return v <= x if right else v < x


@njit(**NJIT_INLINE)
def _gallop(a, n, x, start, right):
    """First index ``i >= start`` of ``a[:n]`` not before ``x`` (``a[i] >= x`` for the left
    boundary, ``a[i] > x`` for the right one), every index below ``start`` being before."""
    lo = start
    hi = start
    step = 1
    while hi < n and _before(a[hi], x, right):
        lo = hi + 1
        hi = lo + step
        step *= 2
    if hi > n:
        hi = n
    while lo < hi:
        mid = (lo + hi) >> 1
        if _before(a[mid], x, right):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(**NJIT_INLINE)
def _bisect(a, n, x, right):
    """:func:`numpy.searchsorted` of ``x`` in ``a[:n]`` (side left or right)."""
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) >> 1
        if _before(a[mid], x, right):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(**NJIT)
def rank_sum_sorted(run, q):
    """:math:`\\sum_i \\#\\{r < q_i\\} + \\#\\{r \\le q_i\\}` over ascending ``q``."""
    n = run.shape[0]
    total = 0
    lo = 0
    for i in range(q.shape[0]):
        x = q[i]
        lo = _gallop(run, n, x, lo, False)
        hi = _gallop(run, n, x, lo, True)
        total += lo + hi
    return total


@njit(**NJIT)
def runs_rank_sum_sorted(buf, bounds, state, q):
    """:func:`rank_sum_sorted` of ascending ``q`` summed over every run of a run buffer
    (see "growing runs" below): one compiled call for the whole multiset."""
    total = 0
    for r in range(state[0]):
        a = bounds[r]
        b = bounds[r + 1] if r + 1 < state[0] else state[1]
        total += rank_sum_sorted(buf[a:b], q)
    return total


@njit(**NJIT_INLINE)
def _merge_into(a, b, out):
    """Write the sorted union (with repetitions) of ascending ``a`` and ``b`` to
    ``out[:len(a) + len(b)]``; on ties ``a``'s element comes first."""
    na = a.shape[0]
    nb = b.shape[0]
    i = 0
    j = 0
    k = 0
    while i < na and j < nb:
        if b[j] < a[i]:
            out[k] = b[j]
            j += 1
        else:
            out[k] = a[i]
            i += 1
        k += 1
    while i < na:
        out[k] = a[i]
        i += 1
        k += 1
    while j < nb:
        out[k] = b[j]
        j += 1
        k += 1


@njit(**NJIT)
def merge_sorted(a, b):
    """The sorted union (with repetitions) of two ascending arrays."""
    out = np.empty(a.shape[0] + b.shape[0], dtype=np.float64)
    _merge_into(a, b, out)
    return out


# --------------------------------------------------------------------------- growing runs
# The logarithmic method of :class:`~skewlearn.metrics.streaming._SortedRuns` on one
# buffer: run r holds ``buf[bounds[r]:bounds[r + 1]]`` (the last one ends at ``size``),
# ``state = [n_runs, size]``. Each run is sorted; a run at most twice as long as the next
# is merged with it, so lengths fall by more than half from one run to the next and there
# are at most log2(size) + 1 runs.


@njit(**NJIT_INLINE)
def _run_end(bounds, state, r):
    return bounds[r + 1] if r + 1 < state[0] else state[1]


@njit(**NJIT)
def runs_restore(buf, bounds, state):
    """Merge the last two runs while the second-last is at most twice as long as the last
    (amortised O(log n) moves per value), in place through a scratch copy."""
    n = state[1]
    while state[0] > 1:
        k = state[0]
        a = bounds[k - 2]
        m = bounds[k - 1]
        if m - a > 2 * (n - m):
            break
        first = buf[a:m].copy()
        _merge_into(first, buf[m:n], buf[a:n])  # (writes never pass the unread second run)
        state[0] = k - 1


@njit(**NJIT)
def runs_merge_all(buf, bounds, state):
    """Merge every run into one: ``buf[:size]`` is then sorted."""
    n = state[1]
    while state[0] > 1:
        k = state[0]
        a = bounds[k - 2]
        m = bounds[k - 1]
        first = buf[a:m].copy()
        _merge_into(first, buf[m:n], buf[a:n])
        state[0] = k - 1


@njit(**NJIT_INLINE)
def _runs_rank2(buf, bounds, state, x):
    """#{values < x} + #{values <= x} over all runs: two binary searches per run."""
    total = 0
    for r in range(state[0]):
        a = bounds[r]
        b = _run_end(bounds, state, r)
        left = _bisect_range(buf, a, b, x, False)
        total += left - a + _bisect_range(buf, left, b, x, True) - a
    return total


@njit(**NJIT)
def runs_push(buf, bounds, state, x):
    """Append ``x`` as a one-value run (``buf`` has room) and restore the run lengths."""
    n = state[1]
    buf[n] = x
    bounds[state[0]] = n
    state[0] += 1
    state[1] = n + 1
    runs_restore(buf, bounds, state)


@njit(**NJIT)
def auroc_add_one(own, own_bounds, own_state, other, other_bounds, other_state, x, positive):
    """Add score ``x`` of one sample to its class's runs (``own``, which has room) and
    return the change of 2U: for a positive, 2·#(negatives < x) + #(negatives = x); for a
    negative, 2·#(positives > x) + #(positives = x) = 2N₊ − rank2. One compiled call per
    :meth:`ROCAUC.update <skewlearn.metrics.ROCAUC.update>`."""
    rank = _runs_rank2(other, other_bounds, other_state, x)
    gain = rank if positive else 2 * other_state[1] - rank
    runs_push(own, own_bounds, own_state, x)
    return gain


@njit(**NJIT)
def average_precision_sorted(pos, n_pos, neg, n_neg):
    """Average precision :math:`\\sum_k (R_k - R_{k-1}) P_k` with thresholds at the distinct
    scores, from the ascending class arrays ``pos[:n_pos]`` and ``neg[:n_neg]``; NaN
    without a positive."""
    if n_pos == 0:
        return np.nan
    i = n_pos - 1
    j = n_neg - 1
    tp = 0
    fp = 0
    total = 0.0
    while i >= 0:
        x = pos[i]
        if j >= 0 and neg[j] > x:
            x = neg[j]
        d = 0
        while i >= 0 and pos[i] == x:
            d += 1
            i -= 1
        while j >= 0 and neg[j] == x:
            fp += 1
            j -= 1
        tp += d
        if d > 0:
            total += d * (tp / (tp + fp))
    return total / n_pos


# --------------------------------------------------------------------------- windows
# The window of the last W samples, per class c (0 = negative, 1 = positive), is split
# into an *epoch*: ``old`` = the class's window values when the epoch began (distinct
# values ``old_val[c, :old_nu[c]]``, multiplicities ``old_cnt`` and a Fenwick tree
# ``old_fen`` over them, so they can leave), and ``dyn`` = the values that arrived since
# (insertion only: sorted runs with logarithmic merging in ``dyn[c, :dyn_n[c]]``, run
# starts ``runs[c, :n_runs[c]]``). The oldest sample of the window is always an old one,
# so deletions only touch the Fenwick tree; after W arrivals the window is exactly the
# arrivals and the epoch restarts (a sort of W values, O(log W) per sample amortised).
# ``state = [head, count, n_pos, n_neg, arrivals in this epoch]``.

#: Capacity of the run-start table (runs at least double leftwards: log2(W) + 1 of them).
MAX_RUNS = 64


@njit(**NJIT_INLINE)
def _fen_add(tree, c, i, v):
    i += 1
    while i < tree.shape[1]:
        tree[c, i] += v
        i += i & (-i)


@njit(**NJIT_INLINE)
def _fen_prefix(tree, c, i):
    """Sum of the counts of indices ``< i``."""
    total = 0
    while i > 0:
        total += tree[c, i]
        i -= i & (-i)
    return total


@njit(**NJIT_INLINE)
def _bisect_range(a, lo, hi, x, right):
    while lo < hi:
        mid = (lo + hi) >> 1
        if _before(a[mid], x, right):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(**NJIT_INLINE)
def _class_rank2(old_val, old_nu, old_fen, dyn, runs, n_runs, dyn_n, c, x):
    """#{window values of class c < x} + #{window values of class c <= x}."""
    nu = old_nu[c]
    lo = _bisect(old_val[c], nu, x, False)
    hi = lo + 1 if lo < nu and old_val[c, lo] == x else lo
    total = _fen_prefix(old_fen, c, lo) + _fen_prefix(old_fen, c, hi)
    row = dyn[c]
    nr = n_runs[c]
    for r in range(nr):
        a = runs[c, r]
        b = runs[c, r + 1] if r + 1 < nr else dyn_n[c]
        left = _bisect_range(row, a, b, x, False)
        total += left - a + _bisect_range(row, left, b, x, True) - a
    return total


@njit(**NJIT_INLINE)
def _dyn_insert(dyn, runs, n_runs, dyn_n, scratch, c, x):
    """Append ``x`` as a one-value run; merge while the previous run is at most twice as
    long as the last (amortised O(log W) moves)."""
    row = dyn[c]
    n = dyn_n[c]
    row[n] = x
    runs[c, n_runs[c]] = n
    n_runs[c] += 1
    n += 1
    dyn_n[c] = n
    while n_runs[c] > 1:
        k = n_runs[c]
        a = runs[c, k - 2]
        m = runs[c, k - 1]
        if m - a > 2 * (n - m):
            break
        # merge row[a:m] and row[m:n] through the scratch buffer
        _merge_into(row[a:m], row[m:n], scratch)
        row[a:n] = scratch[: n - a]
        n_runs[c] = k - 1


@njit(**NJIT)
def window_restart(ring_s, ring_p, state, old_val, old_cnt, old_fen, old_nu, dyn_n, n_runs):
    """Start a new epoch: ``old`` := the window, ``dyn`` := empty. O(W log W)."""
    count = state[1]
    for c in range(2):
        vals = np.empty(count, dtype=np.float64)
        m = 0
        for k in range(count):
            if (1 if ring_p[k] else 0) == c:
                vals[m] = ring_s[k]
                m += 1
        vals = np.sort(vals[:m])
        nu = 0
        for k in range(m):
            if nu == 0 or vals[k] != old_val[c, nu - 1]:
                old_val[c, nu] = vals[k]
                old_cnt[c, nu] = 0
                nu += 1
            old_cnt[c, nu - 1] += 1
        old_nu[c] = nu
        old_fen[c, :] = 0
        for k in range(nu):
            _fen_add(old_fen, c, k, old_cnt[c, k])
        dyn_n[c] = 0
        n_runs[c] = 0
    state[4] = 0


@njit(**NJIT)
def window_step(
    ring_s, ring_p, state, old_val, old_cnt, old_fen, old_nu, dyn, runs, n_runs, dyn_n,
    scratch, u2, scores, is_pos,
):  # fmt: skip
    """Slide the window over a batch, one sample at a time: the oldest sample leaves when
    the window is full (a Fenwick decrement), the new one enters (a run insertion); ``2U``
    changes by the pairs each forms with the window's other class (O(log² W) counts)."""
    W = ring_s.shape[0]
    for t in range(scores.shape[0]):
        head = state[0]
        if state[1] == W:
            so = ring_s[head]
            co = 1 if ring_p[head] else 0
            k = _bisect(old_val[co], old_nu[co], so, False)
            _fen_add(old_fen, co, k, -1)
            old_cnt[co, k] -= 1
            if co == 1:
                state[2] -= 1
                u2[0] -= _class_rank2(old_val, old_nu, old_fen, dyn, runs, n_runs, dyn_n, 0, so)
            else:
                state[3] -= 1
                u2[0] -= 2 * state[2] - _class_rank2(
                    old_val, old_nu, old_fen, dyn, runs, n_runs, dyn_n, 1, so
                )
        else:
            state[1] += 1
        s = scores[t]
        if is_pos[t]:
            u2[0] += _class_rank2(old_val, old_nu, old_fen, dyn, runs, n_runs, dyn_n, 0, s)
            _dyn_insert(dyn, runs, n_runs, dyn_n, scratch, 1, s)
            state[2] += 1
        else:
            u2[0] += 2 * state[2] - _class_rank2(
                old_val, old_nu, old_fen, dyn, runs, n_runs, dyn_n, 1, s
            )
            _dyn_insert(dyn, runs, n_runs, dyn_n, scratch, 0, s)
            state[3] += 1
        ring_s[head] = s
        ring_p[head] = is_pos[t]
        state[0] = head + 1 if head + 1 < W else 0
        state[4] += 1
        if state[4] == W:
            window_restart(ring_s, ring_p, state, old_val, old_cnt, old_fen, old_nu, dyn_n, n_runs)


@njit(**NJIT)
def window_batch(ring_s, ring_p, state, u2, scores, is_pos):
    """The window's ``2U`` over a large batch in O((W + b) log(W + b)): the values the
    batch can meet (the window's and the batch's) are ranked once, and a Fenwick tree per
    class over the ranks counts the window's values below and equal to any score in
    O(log(W + b)). The caller restarts the epoch afterwards."""
    W = ring_s.shape[0]
    b = scores.shape[0]
    filled = state[1]
    allv = np.empty(filled + b, dtype=np.float64)
    allv[:filled] = ring_s[:filled]
    allv[filled:] = scores
    uniq = np.unique(allv)
    tree = np.zeros((2, uniq.shape[0] + 1), dtype=np.int64)
    for k in range(filled):
        _fen_add(tree, 1 if ring_p[k] else 0, np.searchsorted(uniq, ring_s[k]), 1)
    rank_new = np.searchsorted(uniq, scores)
    for t in range(b):
        head = state[0]
        if state[1] == W:
            ro = np.searchsorted(uniq, ring_s[head])
            if ring_p[head]:
                _fen_add(tree, 1, ro, -1)
                u2[0] -= _fen_prefix(tree, 0, ro) + _fen_prefix(tree, 0, ro + 1)
                state[2] -= 1
            else:
                _fen_add(tree, 0, ro, -1)
                u2[0] -= 2 * state[2] - _fen_prefix(tree, 1, ro) - _fen_prefix(tree, 1, ro + 1)
                state[3] -= 1
        else:
            state[1] += 1
        r = rank_new[t]
        if is_pos[t]:
            u2[0] += _fen_prefix(tree, 0, r) + _fen_prefix(tree, 0, r + 1)
            _fen_add(tree, 1, r, 1)
            state[2] += 1
        else:
            u2[0] += 2 * state[2] - _fen_prefix(tree, 1, r) - _fen_prefix(tree, 1, r + 1)
            _fen_add(tree, 0, r, 1)
            state[3] += 1
        ring_s[head] = scores[t]
        ring_p[head] = is_pos[t]
        state[0] = head + 1 if head + 1 < W else 0


@njit(**NJIT)
def window_sorted(old_val, old_cnt, old_nu, dyn, runs, n_runs, dyn_n, c):
    """The window's values of class ``c``, ascending (O(W log W) at worst)."""
    out = np.empty(0, dtype=np.float64)
    total = 0
    for k in range(old_nu[c]):
        total += old_cnt[c, k]
    out = np.empty(total, dtype=np.float64)
    o = 0
    for k in range(old_nu[c]):
        for _ in range(old_cnt[c, k]):
            out[o] = old_val[c, k]
            o += 1
    for r in range(n_runs[c]):
        a = runs[c, r]
        b = runs[c, r + 1] if r + 1 < n_runs[c] else dyn_n[c]
        out = merge_sorted(out, dyn[c, a:b])
    return out
