"""Support-vector buffers and budget policies shared by every budgeted kernel learner.

A learner keeps its support vectors (SVs) in **segments** of one preallocated dense
buffer — KOIL has two (positives, negatives), a budgeted perceptron one. All state is
plain numpy arrays, so the model pickles and continues identically:

``sv``     (capacity_total, d)  float64 — the SVs, stored densely (CSR rows are copied in);
``alpha``  (capacity_total,)    float64 — their weights;
``seg``    (n_segments, 5)      int64   — per segment ``[start, capacity, count, seen, head]``;
``gram``   (capacity_total,)*2  float64 — optional cache ``gram[i, j] = k(sv_i, sv_j)``;
``fsv``    (capacity_total,)    float64 — optional cache ``fsv[j] = f(sv_j)``, the current
           kernel expansion :math:`f = \\sum_i \\alpha_i k(sv_i, \\cdot)` at each SV.

Segment ``q`` occupies slots ``start .. start + count - 1`` (filled in arrival order;
a replacement overwrites a slot in place). ``seen`` counts every sample offered to the
segment (reservoir sampling's ``t``), ``head`` is the oldest slot (FIFO's pointer).
Learners that do not need the caches pass ``gram`` of shape ``(0, 0)`` and ``fsv`` of
shape ``(0,)``: they are then neither read nor written.

Policies (:data:`POLICY_CODES`), applied when a sample with a **non-zero** weight is
offered to a full segment of capacity ``N`` (below capacity it is appended):

``"RS"``        reservoir sampling: keep it with probability ``N / t`` (``t`` = ``seen``),
                overwriting a slot drawn uniformly; otherwise drop it;
``"FIFO"``      overwrite the oldest SV;
``"RS++"``, ``"FIFO++"``
                the same, then **compensate** (KOIL, Eqs. 13–14): the weight of the SV that
                left — the overwritten one, or the new sample itself when RS drops it — is
                added to the most similar SV of the segment (largest kernel value, after
                insertion; the first slot on ties);
``"infinite"``  always append. The caller keeps room with :func:`grow_segments`: KOIL's
                compiled pass stops at a row whose segment is full and the segment
                doubles before it resumes, so memory grows with the number of stored SVs
                (and the Gram cache quadratically); OAM, which stores every sample,
                reserves a batch's rows before its pass.

Randomness comes from the model's generator state (:mod:`skewlearn._rng`): RS draws one
uniform for the keep decision and, if kept, one integer for the slot.

Compiled helpers (to be called from a learner's own batch kernel):
:func:`segment_offer`, :func:`store_row`, :func:`budget_insert`,
:func:`cache_add_sv`, :func:`expansion_value`, and :func:`expansion_scores`;
Python helpers: :func:`new_segments`, :func:`allocate_buffers`,
:func:`warn_large_buffers`, :func:`grow_segments`, :func:`active_slots`.
"""

from __future__ import annotations

import warnings
import weakref
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from .._config import NJIT, NJIT_INLINE
from .._rng import rng_int, rng_uniform
from ..base import LARGE_STATE, user_stacklevel
from ..kernels import kernel_buf_buf, kernel_row_to_buf, row_sq, sparse_rbf_norms

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__: list[str] = []  # helpers only

#: Policy name -> integer code taken by the compiled helpers.
POLICY_CODES: dict[str, int] = {"RS": 0, "FIFO": 1, "RS++": 2, "FIFO++": 3, "infinite": 4}
RS, FIFO, RS_PP, FIFO_PP, INFINITE = 0, 1, 2, 3, 4

#: Columns of the segment table.
START, CAPACITY, COUNT, SEEN, HEAD = 0, 1, 2, 3, 4


#: Each kernel learner's support-vector norms (:func:`sv_norms`) with a weak reference to
#: the buffer they belong to: kept between calls, never part of the model's state.
_NORMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_NO_NORMS = np.zeros(0)


def sv_norms(owner: object, kind: int, rows: tuple, sv: np.ndarray, writes: int = -1) -> np.ndarray:
    """``‖sv[j]‖²`` of every slot for the rbf kernel on CSR rows (else an empty array),
    as :func:`skewlearn.kernels.sparse_rbf_norms` computes them, kept for ``owner``
    between calls while its buffer ``sv`` is the same array and ``writes`` (the owner's
    count of stores into it) is the value :func:`norms_written` last recorded.

    A compiled pass keeps them current as it stores rows (:func:`store_row`), and
    every write into a buffer goes through it or makes a new buffer (growing, copying a
    memory-mapped model, unpickling), so the kept norms are the ones a fresh
    computation gives, bit for bit (one ``row_sq`` computes them all). Computing them
    at every call cost O(capacity·d): a one-row call of KOIL (2 × 100 SVs) at
    d = 10⁵ took ~19 ms. A learning call on dense rows stores rows without them and
    drops them (:func:`forget_norms`). Not state: not pickled, cloned or copied.

    ``writes`` covers the one write that does not go through the owner: a shallow copy
    (``copy.copy``) shares the buffer, and its learning calls store rows there, keeping
    its own norms current but not the owner's; the owner's count, shared too, has moved
    since its last learning call, so its norms are computed afresh."""
    if kind != 0 or not rows[4]:
        return _NO_NORMS
    try:
        kept = _NORMS.get(owner)
    except TypeError:  # a subclass that defines __eq__ without __hash__: no keeping
        return sparse_rbf_norms(kind, rows, sv, sv.shape[0])
    if kept is not None and kept[0]() is sv and kept[2] == writes:
        return kept[1]
    sq = sparse_rbf_norms(kind, rows, sv, sv.shape[0])
    _NORMS[owner] = (weakref.ref(sv), sq, writes)
    return sq


def norms_written(owner: object, writes: int) -> None:
    """After a learning call of ``owner`` that kept its norms current as it stored rows:
    record its count of stores ``writes`` with them (:func:`sv_norms`)."""
    try:
        kept = _NORMS.get(owner)
    except TypeError:
        return
    if kept is not None:
        _NORMS[owner] = (kept[0], kept[1], writes)


def forget_norms(owner: object) -> None:
    """Drop the norms kept for ``owner`` (:func:`sv_norms`)."""
    try:
        _NORMS.pop(owner, None)
    except TypeError:
        pass


def new_segments(capacities: ArrayLike) -> np.ndarray:
    """Segment table for empty segments with the given capacities, laid out one after
    the other."""
    caps = np.asarray(capacities, dtype=np.int64)
    seg = np.zeros((len(caps), 5), dtype=np.int64)
    seg[:, CAPACITY] = caps
    seg[1:, START] = np.cumsum(caps)[:-1]
    return seg


#: Buffer size above which :func:`allocate_buffers` warns (bytes): the same 1 GiB as the
#: linear learners' matrix state (:data:`skewlearn.base.LARGE_STATE`).
LARGE_BUFFER = LARGE_STATE

#: What a buffer-size warning tells a learner with a fixed budget to do (the default
#: ``advice`` of :func:`allocate_buffers`); learners whose buffers grow pass their own.
BUDGET_ADVICE = "use a smaller budget"


def warn_large_buffers(
    total: int, n_features: int, m: int = 0, factor: bool = False, advice: str = BUDGET_ADVICE
) -> None:
    """Warn (``RuntimeWarning``, at the user's line) when ``total`` dense support-vector
    rows of ``n_features``, an ``m × m`` Gram cache and, with ``factor``, a
    ``total × total`` matrix (the Projectron's Cholesky factor) together pass
    :data:`LARGE_BUFFER`. The SVs are dense, so sparse high-dimensional rows (text, hashed
    features) cost ``total × n_features × 8`` bytes however few non-zeros they hold.
    ``advice`` is the first remedy (:data:`BUDGET_ADVICE` for a fixed budget; a learner
    whose buffers grow names the setting that bounds them)."""
    size = 8 * (total * int(n_features) + m * m + (total * total if factor else 0))
    if size <= LARGE_BUFFER:
        return
    square = f" and a {m} × {m} Gram cache" if m else ""
    if factor:
        square += f" and a {total} × {total} Cholesky factor of the Gram matrix"
    warnings.warn(
        f"the support-vector buffer takes {size / 2**30:.1f} GiB ({total} dense rows of "
        f"{n_features} features{square}). "
        f"Support vectors are stored dense, even from sparse input; {advice}, or "
        "reduce the features first (e.g. sklearn.random_projection or TruncatedSVD).",
        RuntimeWarning,
        stacklevel=user_stacklevel(),
    )


def allocate_buffers(
    capacities: ArrayLike,
    n_features: int,
    caches: bool = True,
    factor: bool = False,
    advice: str = BUDGET_ADVICE,
    warn: bool = True,
) -> dict[str, np.ndarray]:
    """Fresh state arrays ``{"sv", "alpha", "seg", "gram", "fsv"}`` (see module doc).

    With ``caches=False``, ``gram`` is ``(0, 0)`` and ``fsv`` is ``(0,)``. With ``warn``,
    :func:`warn_large_buffers` checks their size first (``factor=True`` counts one more
    capacity-square matrix that the caller allocates itself, the Projectron's Cholesky
    factor; ``advice``: the warning's first remedy).
    """
    seg = new_segments(capacities)
    total = int(seg[:, CAPACITY].sum())
    m = total if caches else 0
    if warn:
        warn_large_buffers(total, n_features, m, factor, advice)
    return {
        "sv": np.zeros((total, n_features), dtype=np.float64),
        "alpha": np.zeros(total, dtype=np.float64),
        "seg": seg,
        "gram": np.zeros((m, m), dtype=np.float64),
        "fsv": np.zeros(m, dtype=np.float64),
    }


def slots_holding(sv: np.ndarray, row: np.ndarray) -> np.ndarray:
    """The slots of ``sv`` whose stored vector equals ``row`` (every slot, occupied or not;
    :func:`store_row` copies a row exactly, so a slot just stored is among them)."""
    return np.flatnonzero((sv == row).all(axis=1))


def slots_holding_sparse(sv: np.ndarray, columns: np.ndarray, values: np.ndarray) -> np.ndarray:
    """:func:`slots_holding` of the row with ``values`` at the distinct ``columns`` and
    zeros elsewhere (one canonical CSR row), without building the dense row: the slots
    that hold the values at those columns, O(slots · nnz), and of those the ones with no
    other non-zero entry, O(d) each (a stored vector equals the row exactly where it
    matches at its columns and its non-zeros are only there). The same slots as
    ``slots_holding(sv, dense_row)``: comparing all ``d`` entries of every slot took
    ~17 ms after a one-row call that stored a sparse row at d = 10⁵ (KOIL, 2 × 100 SVs)."""
    match = np.flatnonzero((sv[:, columns] == values).all(axis=1))
    if match.size == 0:
        return match
    nonzero = np.count_nonzero(values)
    keep = [j for j in match.tolist() if np.count_nonzero(sv[j]) == nonzero]
    return np.asarray(keep, dtype=np.intp)


def active_slots(seg: np.ndarray) -> np.ndarray:
    """Indices of the occupied slots, segment by segment, in slot order."""
    return np.concatenate([np.arange(s, s + c, dtype=np.int64) for s, c in seg[:, [START, COUNT]]])


def grow_segments(state: dict, needed: ArrayLike) -> dict:
    """Return ``state`` with every segment ``q`` able to hold ``needed[q]`` more SVs.

    Capacities at least double when they grow; occupied slots keep their order and
    their cached values. Returns the same dict (unchanged) when nothing needs to grow.
    Used between compiled calls by the ``"infinite"`` policy and the unbounded learners:
    no Python runs per sample. It never warns: a learner that grew calls
    :func:`warn_large_buffers` once after its pass, so a warning turned into an error
    (``-W error``) cannot stop it halfway through a batch.
    """
    seg = state["seg"]
    needed = np.asarray(needed, dtype=np.int64)
    want = seg[:, COUNT] + needed
    if np.all(want <= seg[:, CAPACITY]):
        return state
    caps = np.where(
        want > seg[:, CAPACITY], np.maximum(want, 2 * seg[:, CAPACITY]), seg[:, CAPACITY]
    )
    new = allocate_buffers(
        caps, state["sv"].shape[1], caches=state["gram"].shape[0] > 0, warn=False
    )
    new["seg"][:, COUNT:] = seg[:, COUNT:]
    old = active_slots(seg)
    moved = active_slots(new["seg"])
    new["sv"][moved] = state["sv"][old]
    new["alpha"][moved] = state["alpha"][old]
    if new["gram"].shape[0]:
        new["gram"][np.ix_(moved, moved)] = state["gram"][np.ix_(old, old)]
        new["fsv"][moved] = state["fsv"][old]
    return new


# --------------------------------------------------------------------------- compiled
@njit(**NJIT_INLINE)
def segment_offer(policy, seg, q, rng):
    """Choose where a sample with non-zero weight goes in segment ``q``.

    Returns ``(slot, replaced)``: ``slot = -1`` when the sample is dropped (RS);
    ``replaced`` tells whether ``slot`` held an SV that is being overwritten. Updates
    ``count`` and ``head``; ``seen`` is advanced by the caller for *every* sample of
    the segment's class (stored or not), before the offer.
    """
    start = seg[q, START]
    cap = seg[q, CAPACITY]
    count = seg[q, COUNT]
    if count < cap:
        seg[q, COUNT] = count + 1
        return start + count, False
    if policy == 4:
        raise RuntimeError("infinite budget segment is full: grow_segments was not called")
    if policy == 1 or policy == 3:
        slot = start + seg[q, HEAD]
        seg[q, HEAD] = (seg[q, HEAD] + 1) % cap
        return slot, True
    # reservoir sampling: keep with probability N / t
    if rng_uniform(rng) < cap / seg[q, SEEN]:
        return start + rng_int(rng, cap), True
    return -1, False


@njit(**NJIT_INLINE)
def store_row(rows, i, sv, sq, slot):
    """Copy the ``d`` features of batch row ``i`` (dense or CSR) into ``sv[slot]``, and
    keep ``sq[slot] = ‖sv[slot]‖²`` current when the pass keeps norms (``sq`` not empty:
    :func:`skewlearn.kernels.sparse_rbf_norms`)."""
    data, indices, indptr, d, sparse, bias = rows
    if sparse:
        for c in range(d):
            sv[slot, c] = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            sv[slot, indices[p]] = data[p]
    else:
        base = i * d
        for c in range(d):
            sv[slot, c] = data[base + c]
    if sq.shape[0] > 0:
        sq[slot] = row_sq(sv[slot])


@njit(**NJIT_INLINE)
def cache_add_sv(fsv, gram, seg, c, a):
    """``fsv[j] += a * gram[c, j]`` for every occupied slot ``j``: the cached ``f`` after
    the weight of SV ``c`` changed by ``a``."""
    for q in range(seg.shape[0]):
        lo = seg[q, START]
        n = seg[q, COUNT]
        g = gram[c, lo : lo + n]
        f = fsv[lo : lo + n]
        for j in range(n):
            f[j] += a * g[j]


@njit(**NJIT_INLINE)
def expansion_value(alpha, seg, kx):
    """:math:`\\sum_j \\alpha_j k_j` over the occupied slots, for kernel values ``kx``
    of one point against every slot."""
    s = 0.0
    for q in range(seg.shape[0]):
        lo = seg[q, START]
        n = seg[q, COUNT]
        a = alpha[lo : lo + n]
        k = kx[lo : lo + n]
        for j in range(n):
            s += a[j] * k[j]
    return s


@njit(**NJIT)
def expansion_scores(kind, gamma, degree, coef0, sv, sq_in, alpha, seg, rows, out):
    """``out[i] = Σ_j alpha_j k(x_i, sv_j)`` over the occupied slots, for every batch row;
    ``sq_in``: the norms of :func:`skewlearn.kernels.sparse_rbf_norms` (:func:`sv_norms`).

    The compiled passes read the kept norms through a local copy: an argument array
    may alias the others for the compiler, which then kept the distance loops scalar
    (a whole-stream fit ran ~40 % slower than with norms computed in the pass)."""
    kx = np.zeros(sv.shape[0])
    sq = sq_in.copy()
    for i in range(out.shape[0]):
        for q in range(seg.shape[0]):
            lo = seg[q, START]
            kernel_row_to_buf(
                kind, gamma, degree, coef0, rows, i, sv, sq, lo, lo + seg[q, COUNT], kx
            )
        out[i] = expansion_value(alpha, seg, kx)


@njit(**NJIT_INLINE)
def budget_insert(
    policy, seg, q, sv, sq, alpha, gram, fsv, rows, i, a, kx, fx, rng, kind, gamma, degree, coef0
):
    """Offer batch row ``i`` with weight ``a`` (non-zero) to segment ``q``, apply the
    policy, compensate (``++`` policies) and keep the caches exact.

    ``kx[j]`` must hold :math:`k(x_i, sv_j)` for every occupied slot and ``fx`` the
    current expansion at :math:`x_i` (both *before* this call). ``seen`` must already
    count this sample; ``sq`` is passed on to :func:`store_row`. With caches
    (``gram.shape[0] > 0``), ``gram`` and ``fsv`` are updated in :math:`O(M)` for ``M``
    occupied slots (plus :math:`O(d)` for the new SV).

    Returns ``(slot, removed_weight, compensated_slot)``: ``slot = -1`` if the sample
    was dropped; ``compensated_slot = -1`` when no compensation took place.
    """
    caches = gram.shape[0] > 0
    slot, replaced = segment_offer(policy, seg, q, rng)
    compensate = policy == 2 or policy == 3
    lo = seg[q, START]
    hi = lo + seg[q, COUNT]
    if slot < 0:
        # RS dropped the sample: with RS++ its weight goes to its most similar SV
        if not compensate:
            return -1, a, -1
        c = lo
        best = kx[lo]
        for j in range(lo + 1, hi):
            if kx[j] > best:
                best = kx[j]
                c = j
        alpha[c] += a
        if caches:
            cache_add_sv(fsv, gram, seg, c, a)
        return -1, a, c
    removed = 0.0
    c = -1
    if replaced:
        removed = alpha[slot]
        if compensate:
            # most similar SV to the removed one among the segment after insertion; the
            # new sample takes the removed SV's slot, so its similarity is kx[slot]
            best = -np.inf
            for j in range(lo, hi):
                if j == slot:
                    v = kx[slot]
                elif caches:
                    v = gram[slot, j]
                else:
                    v = kernel_buf_buf(kind, gamma, degree, coef0, sv, slot, sv, j)
                if v > best:
                    best = v
                    c = j
        if caches:
            # take the removed SV out of f (its own slot is rewritten below)
            cache_add_sv(fsv, gram, seg, slot, -removed)
            fx -= removed * kx[slot]
    store_row(rows, i, sv, sq, slot)
    alpha[slot] = a
    kself = kernel_buf_buf(kind, gamma, degree, coef0, sv, slot, sv, slot)
    if caches:
        # row and column ``slot`` of the Gram cache, and f += a k(x_i, .) at every SV
        # (the entries of ``slot`` itself are overwritten just after)
        for qq in range(seg.shape[0]):
            s0 = seg[qq, START]
            n = seg[qq, COUNT]
            kq = kx[s0 : s0 + n]
            gq = gram[slot, s0 : s0 + n]
            fq = fsv[s0 : s0 + n]
            for j in range(n):
                gq[j] = kq[j]
                fq[j] += a * kq[j]
            for j in range(n):
                gram[s0 + j, slot] = kq[j]
        gram[slot, slot] = kself
        fsv[slot] = fx + a * kself
    if c >= 0:
        alpha[c] += removed
        if caches:
            cache_add_sv(fsv, gram, seg, c, removed)
    return slot, removed, c
