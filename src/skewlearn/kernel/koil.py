"""KOIL: kernelized online imbalanced learning with fixed budgets (Hu et al., AAAI 2015).

One compiled pass per batch (:func:`_koil_learn`) scores each row with the current
kernel expansion, then applies Eq. (12) and the buffer policy of
:mod:`skewlearn.kernel.budget`. The Gram matrix among support vectors and ``f`` at each
support vector are cached and updated incrementally, so a step costs
:math:`O(M d + k M)` for ``M`` stored support vectors.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._config import NJIT
from .._docs import fill_doc
from ..base import THRESHOLD_DOC, read_only
from ..kernels import kernel_row_to_buf
from . import budget as bd
from .budget import (
    CAPACITY,
    COUNT,
    SEEN,
    START,
    budget_insert,
    cache_add_sv,
    expansion_value,
)
from .perceptrons import _KERNEL_DOC, _KernelLearner

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["KOIL"]

_SCHEDULES = {"constant": 0, "inverse_sqrt": 1}


@njit(**NJIT)
def _koil_learn(
    sv,
    sq_in,
    alpha,
    gram,
    fsv,
    seg,
    counts,
    rng,
    rows,
    y,
    scores,
    eta0,
    schedule,
    C,
    k,
    policy,
    kind,
    gamma,
    degree,
    coef0,
    start,
):
    total = sv.shape[0]
    kx = np.zeros(total)
    sq = sq_in.copy()  # a local copy: no aliasing with the buffers (vectorised loops)
    viol = np.empty(total, dtype=np.int64)
    sel = np.empty(max(k, total), dtype=np.int64)
    selv = np.empty(max(k, total))
    for i in range(start, y.shape[0]):
        yt = y[i]
        if policy == 4 and seg[0 if yt > 0 else 1, COUNT] == seg[0 if yt > 0 else 1, CAPACITY]:
            sq_in[:] = sq
            return i  # infinite budget, own buffer full: Python doubles it, resumes at row i
        # kernel values against every stored SV, and the pre-update score
        for q in range(seg.shape[0]):
            lo = seg[q, START]
            kernel_row_to_buf(
                kind, gamma, degree, coef0, rows, i, sv, sq, lo, lo + seg[q, COUNT], kx
            )
        ft = expansion_value(alpha, seg, kx)
        scores[i] = ft

        counts[0] += 1
        if schedule == 1:
            eta = eta0 / np.sqrt(counts[0])
        else:
            eta = eta0
        s = 0 if yt > 0 else 1  # own segment (0 = positives, 1 = negatives)
        o = 1 - s
        if yt > 0:
            counts[1] += 1
        else:
            counts[2] += 1
        seg[s, SEEN] += 1

        # violating opposite SVs: 1 - y (f(x_t) - f(x_j)) > 0   (Eqs. 3, 11)
        olo = seg[o, START]
        ohi = olo + seg[o, COUNT]
        nv = 0
        for j in range(olo, ohi):
            if 1.0 - yt * (ft - fsv[j]) > 0.0:
                viol[nv] = j
                nv += 1
        step = eta * C * yt
        # start-up rules (authors' code): empty opposite buffer, or empty own buffer and
        # no violation -> a_t = eta C y and no opposite SV moves
        if seg[o, COUNT] == 0 or (seg[s, COUNT] == 0 and nv == 0):
            a = step
            nsel = 0
        elif nv <= k:
            nsel = nv
            for r in range(nv):
                sel[r] = viol[r]
            a = step * nv
        else:
            # the k violators with the largest kernel value (ties: lower slot first), by
            # insertion into a sorted list of length k, in one pass
            nsel = 0
            for r in range(nv):
                j = viol[r]
                v = kx[j]
                if nsel == k and not v > selv[k - 1]:
                    continue
                p = nsel if nsel < k else k - 1
                while p > 0 and v > selv[p - 1]:
                    selv[p] = selv[p - 1]
                    sel[p] = sel[p - 1]
                    p -= 1
                selv[p] = v
                sel[p] = j
                if nsel < k:
                    nsel += 1
            a = step * k

        # decay every weight by (1 - eta), then move the selected SVs (Eq. 12)
        decay = 1.0 - eta
        for q in range(seg.shape[0]):
            lo = seg[q, START]
            n = seg[q, COUNT]
            aq = alpha[lo : lo + n]
            fq = fsv[lo : lo + n]
            for j in range(n):
                aq[j] *= decay
                fq[j] *= decay
        for r in range(nsel):
            j = sel[r]
            alpha[j] -= step
            cache_add_sv(fsv, gram, seg, j, -step)
        if a != 0.0:
            fx = expansion_value(alpha, seg, kx)
            slot, removed, c = budget_insert(
                policy,
                seg,
                s,
                sv,
                sq,
                alpha,
                gram,
                fsv,
                rows,
                i,
                a,
                kx,
                fx,
                rng,
                kind,
                gamma,
                degree,
                coef0,
            )
            if slot >= 0:
                counts[3] += 1
    sq_in[:] = sq
    return y.shape[0]


class KOIL(_KernelLearner):
    """Kernelized Online Imbalanced Learning with fixed budgets (KOIL) [1]_.

    The model is a kernel expansion over two buffers of support vectors, one per class,
    with budgets :math:`N^+` and :math:`N^-` (Eq. 1),
    :math:`f_t(x) = \\sum_{i \\in I^+_t} \\alpha_i k(x_i, x)
    + \\sum_{j \\in I^-_t} \\alpha_j k(x_j, x)`.
    For a new sample :math:`(x_t, y_t)`, the opposite SVs that violate the pairwise hinge
    loss, :math:`1 - y_t (f_t(x_t) - f_t(x_i)) > 0`, are found; :math:`V_t` keeps the
    (at most) ``k`` of them most similar to :math:`x_t` (largest kernel value; ties: the
    lower slot). This is the authors' code (MATLAB and C++): Eq. (11) as printed first
    takes the ``k`` nearest opposite SVs and keeps those that violate, which can leave
    fewer than ``k`` when more violate (``docs/decisions.md``, session 20). Then (Eq. 12),
    with the step :math:`\\eta_t`,

    .. math::

        \\alpha_{t} = \\eta C y_t |V_t|, \\qquad
        \\alpha_{i} \\leftarrow (1 - \\eta)\\alpha_{i} - \\eta C y_t \\ (i \\in V_t), \\qquad
        \\alpha_{i} \\leftarrow (1 - \\eta)\\alpha_{i} \\ (\\text{every other SV}).

    As in the authors' code, :math:`\\alpha_t = \\eta C y_t` when the opposite buffer is
    empty, or when the own buffer is empty and nothing violates; the sample is stored only
    if :math:`\\alpha_t \\ne 0`. When its buffer is full, the policy decides (``"RS"``:
    keep with probability :math:`N/t`, :math:`t` = samples of that class so far,
    overwriting a random SV; ``"FIFO"``: overwrite the oldest). The ``++`` policies then
    compensate (Eqs. 13–14): the weight of the SV that left (or of the new sample, when
    RS drops it) is added to the most similar SV of the same buffer,
    :math:`\\alpha_c \\leftarrow \\alpha_c + \\alpha_r`, so
    :math:`f^{++}_{t+1} = f_{t+1} + \\alpha_r (k(x_c, \\cdot) - k(x_r, \\cdot))`.

    Memory is fixed by the budgets (``(N^+ + N^-) × (d + N^+ + N^- + 3)`` floats,
    whatever the stream length), except for ``policy="infinite"``, which stores every
    sample with a non-zero weight: its buffers (and the Gram cache, quadratically) grow
    with the number of stored SVs (a full buffer doubles between compiled calls, so
    capacity stays within twice the stored SVs or the initial budget; a learning call
    that grew them past 1 GiB ends with a ``RuntimeWarning``). Each step costs
    :math:`O(M d + k M)` for :math:`M` stored SVs: the Gram matrix among SVs and
    :math:`f` at every SV are cached and updated incrementally.

    There is no intercept: the AUC ranking does not depend on one. ``threshold`` moves the
    cut of :meth:`predict` only.

    Parameters
    ----------
    C : float, default=1.0
        Penalty of the pairwise hinge losses, > 0 (Eq. 4).
    eta : float, default=0.01
        Learning rate, in (0, 1] (the paper uses 0.01); the decay factor is ``1 - eta``.
    eta_schedule : {"constant", "inverse_sqrt"}, default="constant"
        ``"inverse_sqrt"`` uses :math:`\\eta_t = \\eta / \\sqrt{t}` (``t`` = samples seen,
        this one included), the :math:`O(1/\\sqrt{T})` rate of the regret bound.
    budget_pos, budget_neg : int, default=100
        Budgets :math:`N^+`, :math:`N^-` (≥ 1). With ``policy="infinite"`` they are the
        initial capacities, but with ``k=None`` they also set ``k`` (below), the same
        ``k`` as a budgeted policy at the same budgets (the comparison of KOIL's Figure
        1), so they change the model; set ``k`` for an infinite model that does not
        depend on them.
    k : int or None, default=None
        Number of nearest violating opposite SVs updated, ≥ 1. ``None`` means 10% of the
        smaller budget, ``max(1, min(budget_pos, budget_neg) // 10)``, for every policy.
    policy : {"RS", "FIFO", "RS++", "FIFO++", "infinite"}, default="RS++"
        Buffer update policy.
    {kernel}
    {threshold}
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Seeds reservoir sampling (``"RS"``, ``"RS++"``).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    pos_label_ : label
    sv_ : ndarray of shape (capacity, n_features)
        Support-vector buffer: positives in slots ``[0, budget_pos)``, negatives after.
    alpha_ : ndarray of shape (capacity,)
        Weights of the slots (for ``pos_label`` as the positive class).
    segments_ : ndarray of shape (2, 5)
        ``[start, capacity, count, seen, head]`` of the positive and negative buffers.
    gram_ : ndarray of shape (capacity, capacity)
        Cached kernel values among stored SVs.
    fsv_ : ndarray of shape (capacity,)
        Cached decision value (raw, for ``pos_label``) at each stored SV.
    counts_ : ndarray of shape (4,)
        ``[seen, positives, negatives, stored]``.
    rng_state_ : ndarray of shape (1,)
        Generator state (:mod:`skewlearn._rng`).
    support_vectors_ : ndarray of shape (n_SV, n_features)
    dual_coef_ : ndarray of shape (1, n_SV)
        Weights with the sign convention of :meth:`decision_function`.
    n_support_ : ndarray of shape (2,)
        Stored SVs of ``[positive, negative]`` class.

    References
    ----------
    .. [1] J. Hu, H. Yang, I. King, M. R. Lyu and A. M.-C. So, "Kernelized online
       imbalanced learning with fixed budgets", AAAI 2015 (seed 000), Algorithm 1 and
       Eqs. (6)–(14); details as in the authors' code (JunjieHu/koil).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import roc_auc_score
    >>> from skewlearn import KOIL
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(2000, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.4).astype(int)   # about 8% positives, a disc
    >>> clf = KOIL(budget_pos=50, budget_neg=50, C=1.0, eta=0.05, random_state=0).fit(X, y)
    >>> bool(roc_auc_score(y, clf.decision_function(X)) > 0.95)
    True
    """

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("eta", "smaller"),)
    #: The compiled pass writes the support vectors and the Gram cache only in
    #: :func:`~skewlearn.kernel.budget.budget_insert`'s store, which ``counts_[3]`` counts,
    #: and there only the stored slot's row of ``sv_`` and its row and column of
    #: ``gram_``: the state check skips them after a call that stored nothing and reads
    #: those of :meth:`_stored_slots` after one that stored a row.
    _written_with: ClassVar[dict[str, tuple[str, int]]] = {
        "gram_": ("counts_", 3),
        "sv_": ("counts_", 3),
    }

    _parameter_constraints: ClassVar[dict] = {
        **_KernelLearner._parameter_constraints,
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "eta": [Interval(numbers.Real, 0, 1, closed="right")],
        "eta_schedule": [StrOptions(set(_SCHEDULES))],
        "budget_pos": [Interval(numbers.Integral, 1, None, closed="left")],
        "budget_neg": [Interval(numbers.Integral, 1, None, closed="left")],
        "k": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "policy": [StrOptions(set(bd.POLICY_CODES))],
        "threshold": [Interval(numbers.Real, None, None, closed="neither"), None],
    }

    _test_params: ClassVar[list[dict]] = [
        {"budget_pos": 20, "budget_neg": 20, "policy": "RS++", "eta": 0.1, "random_state": 0},
        {
            "budget_pos": 15,
            "budget_neg": 25,
            "policy": "FIFO",
            "k": 3,
            "eta": 0.1,
            "random_state": 0,
        },
        {
            "budget_pos": 8,
            "budget_neg": 8,
            "policy": "infinite",
            "kernel": "poly",
            "gamma": 0.5,
            "random_state": 0,
        },
    ]
    _id_keys = ("policy", "kernel")

    def __init__(
        self,
        C: float = 1.0,
        eta: float = 0.01,
        eta_schedule: str = "constant",
        budget_pos: int = 100,
        budget_neg: int = 100,
        k: int | None = None,
        policy: str = "RS++",
        kernel: str = "rbf",
        gamma: float = 1.0,
        degree: int = 3,
        coef0: float = 1.0,
        threshold: float | None = None,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.C = C
        self.eta = eta
        self.eta_schedule = eta_schedule
        self.budget_pos = budget_pos
        self.budget_neg = budget_neg
        self.k = k
        self.policy = policy
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.threshold = threshold
        self.pos_label = pos_label
        self.random_state = random_state

    # ------------------------------------------------------------------ state
    def _k(self) -> int:
        if self.k is not None:
            return int(self.k)
        return max(1, min(int(self.budget_pos), int(self.budget_neg)) // 10)

    def _state(self) -> dict:
        return {
            "sv": self.sv_,
            "alpha": self.alpha_,
            "seg": self.segments_,
            "gram": self.gram_,
            "fsv": self.fsv_,
        }

    def _set_state(self, state: dict) -> None:
        self.sv_ = state["sv"]
        self.alpha_ = state["alpha"]
        self.segments_ = state["seg"]
        self.gram_ = state["gram"]
        self.fsv_ = state["fsv"]

    def _memory_advice(self) -> str:
        """First remedy of the buffer-size warning (:func:`budget.warn_large_buffers`)."""
        if self.policy == "infinite":
            return (
                "KOIL(policy='infinite') stores every sample with a non-zero weight, and its "
                "Gram cache grows with their square: use policy='RS++' or 'FIFO++' (fixed "
                "budgets)"
            )
        return bd.BUDGET_ADVICE

    def _allocate(self, n_features: int) -> None:
        self._set_state(
            bd.allocate_buffers(
                [int(self.budget_pos), int(self.budget_neg)],
                n_features,
                advice=self._memory_advice(),
            )
        )
        self.counts_ = np.zeros(4, dtype=np.int64)
        self.rng_state_ = self._new_rng()

    def _grow(self, label: float) -> None:
        # policy="infinite" and the buffer of the row's class is full: double it (O(log n)
        # times per stream; memory stays within twice the stored SVs)
        self._set_state(bd.grow_segments(self._state(), [1, 0] if label > 0 else [0, 1]))

    def _pass(self, rows, y, scores, start: int) -> int:
        return _koil_learn(
            self.sv_,
            self._sv_norms(rows),
            self.alpha_,
            self.gram_,
            self.fsv_,
            self.segments_,
            self.counts_,
            self.rng_state_,
            rows,
            y,
            scores,
            float(self.eta),
            _SCHEDULES[self.eta_schedule],
            float(self.C),
            # a k beyond the buffers means every violator (there are at most that many);
            # the pass allocates scratch arrays of length k (k = 1e12 raised MemoryError)
            min(self._k(), self.sv_.shape[0]),
            bd.POLICY_CODES[self.policy],
            *self._kernel_args(),
            start,
        )

    # ------------------------------------------------------------------ views
    def _active(self) -> np.ndarray:
        check_is_fitted(self, "segments_")
        return bd.active_slots(self.segments_)

    @property
    def support_vectors_(self) -> np.ndarray:
        """Stored support vectors, positives first, shape (n_SV, n_features); read-only (a
        copy of the active slots: a write would be lost)."""
        return read_only(self.sv_[self._active()])

    @property
    def dual_coef_(self) -> np.ndarray:
        """Weights of :attr:`support_vectors_`, sign convention of ``decision_function``;
        read-only (a copy: a write would be lost)."""
        a = self.alpha_[self._active()][None, :]
        return read_only(a if self._pos_is_last() else -a)

    @property
    def n_support_(self) -> np.ndarray:
        """Number of stored SVs of the ``[positive, negative]`` class."""
        check_is_fitted(self, "segments_")
        return self.segments_[:, COUNT].copy()


fill_doc(KOIL, kernel=_KERNEL_DOC, threshold=THRESHOLD_DOC)
