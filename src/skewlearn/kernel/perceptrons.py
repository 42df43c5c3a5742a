"""Kernel perceptron family: KernelPerceptron, RBP, Forgetron, Projectron, Projectron++.

The kernel baselines of KOIL's experiments (Hu et al., AAAI 2015, seed 000). Every
learner keeps its support vectors (SVs) in one segment of the buffers of
:mod:`skewlearn.kernel.budget` (``sv_``, ``alpha_``, ``segments_``) and runs one compiled
pass per batch: score each row with :math:`f(x) = \\sum_j \\alpha_j k(x_j, x)`, write the
score, then update.

Budgeted learners (``RBP``, ``Forgetron``, and ``Projectron`` with ``budget`` set) allocate
their buffers at the budget once; their memory never grows. Unbounded ones
(``KernelPerceptron``, ``Projectron`` with ``budget=None``) start at a small capacity;
when the buffer is full at the start of a row the compiled pass returns that row's index,
Python doubles the capacity (slots and their order kept) and the pass resumes at that
row. So Python runs once per doubling — :math:`O(\\log n)` times — never once per sample,
and memory stays within twice the number of stored SVs.
"""

from __future__ import annotations

import math
import numbers
import warnings
import weakref
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import scipy.sparse as sp
from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._config import NJIT, NJIT_INLINE
from .._docs import fill_doc
from .._rng import rng_int
from .._rows import canonical
from ..base import OnlineClassifier, read_only, user_stacklevel
from ..kernels import (
    KERNEL_CODES,
    kernel_buf_buf,
    kernel_from_parts,
    kernel_matrix,
    kernel_row_to_buf,
)
from . import budget as bd
from .budget import COUNT, expansion_scores, expansion_value, segment_offer, store_row

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["RBP", "Forgetron", "KernelPerceptron", "Projectron", "ProjectronPP"]

#: Capacity an unbounded learner starts with (doubled whenever it fills up).
INITIAL_CAPACITY = 32
#: Each started model's :meth:`_KernelLearner._kernel_args`, with the settings record
#: (``_started_with``) they were read from.
_KERNEL_ARGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# --------------------------------------------------------------------------- compiled helpers
@njit(**NJIT_INLINE)
def count_sample(counts, y):
    """Advance ``counts_ = [seen, positives, negatives, updates]`` for one label ``y``."""
    counts[0] += 1
    if y > 0:
        counts[1] += 1
    else:
        counts[2] += 1


@njit(**NJIT_INLINE)
def row_expansion(kind, gamma, degree, coef0, rows, i, sv, sq, alpha, seg, kx):
    """Fill ``kx[j] = k(x_i, sv_j)`` for the stored SVs of the single segment and return
    :math:`f(x_i) = \\sum_j \\alpha_j k(x_i, sv_j)` (the sum of :func:`expansion_scores`).

    Kept apart from the any-number-of-segments loop of :func:`expansion_scores` and KOIL
    on purpose: one shared helper cost NORMA, RBP and Forgetron 5-8 % CPU on CSR rows
    (the loop over segments, with starts read from ``seg``, compiles to a longer loop).
    """
    kernel_row_to_buf(kind, gamma, degree, coef0, rows, i, sv, sq, 0, seg[0, COUNT], kx)
    return expansion_value(alpha, seg, kx)


@njit(**NJIT_INLINE)
def row_self_kernel(kind, gamma, degree, coef0, rows, i):
    """:math:`k(x_i, x_i)` of batch row ``i`` (its ``d`` features only, never the bias)."""
    if kind == 0:
        return 1.0
    data, indices, indptr, d, sparse, bias = rows
    sq = 0.0
    if sparse:
        for p in range(indptr[i], indptr[i + 1]):
            sq += data[p] * data[p]
    else:
        for c in range(i * d, (i + 1) * d):
            sq += data[c] * data[c]
    return kernel_from_parts(kind, gamma, degree, coef0, sq, 0.0)


# --------------------------------------------------------------------------- shared bases
class _KernelLearner(OnlineClassifier):
    """What every budgeted kernel learner shares (private): the kernel parameters
    (``kernel``, ``gamma``, ``degree``, ``coef0``; no ``fit_intercept``), scoring with the
    kernel expansion over ``sv_``/``alpha_``/``segments_`` and the sample count.

    Subclasses implement ``_allocate``, ``_pass(rows, y, scores, start) -> next_row`` (one
    compiled call, which stops at a row that finds its buffer full), ``_grow(label)`` (make
    room for a row of class ``label``, ±1) and the support-vector views.
    """

    _parameter_constraints: ClassVar[dict] = {
        **{
            key: rule
            for key, rule in OnlineClassifier._parameter_constraints.items()
            if key != "fit_intercept"
        },
        "kernel": [StrOptions(set(KERNEL_CODES))],
        "gamma": [Interval(numbers.Real, 0, None, closed="neither")],
        "degree": [Interval(numbers.Integral, 1, None, closed="left")],
        "coef0": [Interval(numbers.Real, None, None, closed="neither")],
    }
    _id_keys = ("kernel",)
    #: The compiled passes write the support vectors only when they store a row, which
    #: ``counts_[3]`` counts (with the other updates of Projectron), and there only the
    #: stored slot: the state check skips ``sv_`` after a call that did not move the
    #: count and reads the slots of :meth:`_stored_slots` after a one-row call that did
    #: (KOIL adds its Gram cache). A buffer grown by the call is a new array, read whole.
    _written_with: ClassVar[dict[str, tuple[str, int]]] = {"sv_": ("counts_", 3)}

    def _stored_slots(self, X, stored: int) -> np.ndarray | None:
        """After a one-row call that moved ``counts_[3]`` by one: the slots whose support
        vector equals that row (the stored one among them, if it stored it: the store
        copies the row exactly). None otherwise (the whole arrays are checked)."""
        if stored != 1 or X.shape[0] != 1:
            return None
        if sp.issparse(X):
            X = canonical(X.tocsr())  # (repeated columns summed, as the store sums them)
            slots = bd.slots_holding_sparse(self.sv_, X.indices, X.data)
        else:
            slots = bd.slots_holding(self.sv_, X[0])
        return slots if slots.size else None

    def _kernel_args(self) -> tuple:
        """``(kind, gamma, degree, coef0)`` of the kernel the model learned with.

        ``set_params`` may change these parameters after fitting (the next learning call
        refuses it), but the support vectors' weights belong to the kernel they were
        learned with, as scikit-learn's ``SVC`` keeps predicting with its fitted
        ``gamma``: reading the parameters at predict time silently changed the scores
        (KOIL with ``gamma`` set from 1 to 10: by up to 0.87). Before the first learning
        call (and for a model saved before session 9) the parameters are the settings.

        Read once per started model (:data:`_KERNEL_ARGS`, kept while ``_started_with`` is
        the same record: a new fit makes a new one, and ``set_params`` changes only the
        settings, not the record): a one-row call reads them twice, ~1 us each time."""
        started = self.__dict__.get("_started_with")
        try:
            kept = _KERNEL_ARGS.get(self) if started is not None else None
        except TypeError:  # a subclass that defines __eq__ without __hash__: not kept
            kept = started = None
        if kept is not None and kept[0] is started:
            return kept[1]
        kernel, gamma, degree, coef0 = (
            self._learned(name) for name in ("kernel", "gamma", "degree", "coef0")
        )
        args = (KERNEL_CODES[kernel], float(gamma), int(degree), float(coef0))
        if started is not None:
            _KERNEL_ARGS[self] = (started, args)
        return args

    def _scores(self, rows, out):
        expansion_scores(
            *self._kernel_args(),
            self.sv_,
            self._sv_norms(rows),
            self.alpha_,
            self.segments_,
            rows,
            out,
        )

    @property
    def n_samples_seen_(self) -> int:
        """Number of samples learned from so far."""
        check_is_fitted(self, "counts_")
        return int(self.counts_[0])

    def _pass(self, rows, y, scores, start: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def _grow(self, label: float) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    #: Whether the learner also keeps a capacity-square matrix (counted in the size warning).
    _square_state: ClassVar[bool] = False

    def _memory_advice(self) -> str:
        """First remedy of the buffer-size warning (:func:`budget.warn_large_buffers`)."""
        return bd.BUDGET_ADVICE

    def _sv_norms(self, rows) -> np.ndarray:
        """The support vectors' squared norms for a pass over ``rows`` (kept between
        calls: :func:`budget.sv_norms`)."""
        return bd.sv_norms(self, self._kernel_args()[0], rows, self.sv_, self._sv_writes())

    def _sv_writes(self) -> int:
        """The count of stores into ``sv_`` (its :attr:`_written_with` counter): a shallow
        copy that shares the buffer moves it too (:func:`budget.sv_norms`)."""
        counter, index = self._written_with["sv_"]
        return int(getattr(self, counter)[index])

    def _learn(self, rows, y, scores):
        """Compiled passes from row 0; a pass that stops at a row whose buffer is full
        (unbounded learners) resumes there once Python has grown the buffer. A call that
        grew the buffers checks their size once, after the whole batch is learned."""
        if not rows[4]:
            bd.forget_norms(self)  # dense rows are stored without updating the norms
        start = 0
        grown = False
        while True:
            start = self._pass(rows, y, scores, start)
            if start >= y.shape[0]:
                break
            self._grow(y[start])
            grown = True
        if rows[4]:
            bd.norms_written(self, self._sv_writes())
        if grown:
            gram = getattr(self, "gram_", None)
            bd.warn_large_buffers(
                self.sv_.shape[0],
                self.sv_.shape[1],
                0 if gram is None else gram.shape[0],
                self._square_state,
                self._memory_advice(),
            )


class _KernelExpansionClassifier(_KernelLearner):
    """Shared driver of the single-buffer kernel learners (private).

    Subclasses implement ``_pass(rows, y, scores, start) -> next_row`` (one compiled call)
    and ``_budget()`` (``None`` = unbounded).
    """

    # ------------------------------------------------------------------ state
    def _budget(self) -> int | None:
        return getattr(self, "budget", None)

    #: The buffer-size warning's first remedy when there is no budget (``{name}``: the
    #: class name): the setting or learner that bounds the memory.
    _unbounded_advice: ClassVar[str] = "set budget"

    def _memory_advice(self) -> str:
        """First remedy of the buffer-size warning (:func:`budget.allocate_buffers`):
        a smaller budget, or, without one, what bounds the growing buffers."""
        if self._budget() is not None:
            return bd.BUDGET_ADVICE
        return self._unbounded_advice.format(name=type(self).__name__)

    def _allocate(self, n_features: int) -> None:
        budget = self._budget()
        cap = INITIAL_CAPACITY if budget is None else int(budget)
        state = bd.allocate_buffers(
            [cap],
            n_features,
            caches=False,
            factor=self._square_state,
            advice=self._memory_advice(),
        )
        self.sv_ = state["sv"]
        self.alpha_ = state["alpha"]
        self.segments_ = state["seg"]
        self.counts_ = np.zeros(4, dtype=np.int64)
        self.rng_state_ = self._new_rng()

    def _grow(self, label: float) -> None:
        """Double the capacity (unbounded learners, between compiled calls; one buffer for
        both classes, so ``label`` does not matter)."""
        state = bd.grow_segments(
            {
                "sv": self.sv_,
                "alpha": self.alpha_,
                "seg": self.segments_,
                "gram": np.zeros((0, 0)),
                "fsv": np.zeros(0),
            },
            [1],
        )
        self.sv_, self.alpha_, self.segments_ = state["sv"], state["alpha"], state["seg"]

    # ------------------------------------------------------------------ views
    @property
    def support_vectors_(self) -> np.ndarray:
        """Stored support vectors in slot order, shape (n_SV, n_features); read-only (a
        view of ``sv_``: a write would bypass the kept rbf norms, so the CSR scores would
        no longer be the dense ones)."""
        check_is_fitted(self, "segments_")
        return read_only(self.sv_[: self.segments_[0, COUNT]])

    @property
    def dual_coef_(self) -> np.ndarray:
        """Weights of :attr:`support_vectors_`, sign convention of ``decision_function``;
        read-only (a view of ``alpha_`` or, for ``pos_label = classes_[0]``, a negated
        copy: a write would be taken or lost depending on ``pos_label``)."""
        check_is_fitted(self, "segments_")
        a = self.alpha_[None, : self.segments_[0, COUNT]]
        return read_only(a if self._pos_is_last() else -a)

    @property
    def n_support_(self) -> int:
        """Number of stored support vectors."""
        check_is_fitted(self, "segments_")
        return int(self.segments_[0, COUNT])


_KERNEL_DOC = """kernel : {"rbf", "poly", "linear"}, default="rbf"
        ``rbf``: :math:`\\exp(-\\gamma\\|x - y\\|^2)` — a Gaussian width σ is
        :math:`\\gamma = 1/(2\\sigma^2)` (:func:`skewlearn.kernels.gamma_from_sigma`);
        ``poly``: :math:`(\\gamma x^T y + c_0)^p`; ``linear``: :math:`x^T y`.
    gamma : float, default=1.0
        Kernel coefficient, > 0.
    degree : int, default=3
        Degree of ``poly``, ≥ 1.
    coef0 : float, default=1.0
        Constant :math:`c_0` of ``poly``."""


# --------------------------------------------------------------------------- perceptron, RBP
@njit(**NJIT)
def _kperceptron_learn(
    sv, sq_in, alpha, seg, counts, rng, rows, y, scores, start, grow, kind, gamma, degree, coef0
):
    cap = sv.shape[0]
    kx = np.zeros(cap)
    sq = sq_in.copy()  # a local copy: no aliasing with the buffers (vectorised loops)
    for i in range(start, y.shape[0]):
        m = seg[0, COUNT]
        if grow and m == cap:
            sq_in[:] = sq
            return i  # full: Python doubles the buffers and resumes at row i
        f = row_expansion(kind, gamma, degree, coef0, rows, i, sv, sq, alpha, seg, kx)
        scores[i] = f
        yt = y[i]
        count_sample(counts, yt)
        if yt * f > 0.0:
            continue
        if m < cap:
            slot = m
            seg[0, COUNT] = m + 1
        else:
            slot = rng_int(rng, cap)  # RBP: a uniformly drawn SV leaves
        store_row(rows, i, sv, sq, slot)
        alpha[slot] = yt
        counts[3] += 1
    sq_in[:] = sq
    return y.shape[0]


class KernelPerceptron(_KernelExpansionClassifier):
    """The kernel Perceptron (Rosenblatt 1958, in dual form), unbounded.

    Predict with :math:`f_t(x) = \\sum_{j \\in S_t} y_j k(x_j, x)`; on a mistake,
    :math:`y_t f_t(x_t) \\le 0`, add the example to the support set:

    .. math::  f_{t+1} = f_t + y_t\\, k(x_t, \\cdot) .

    Every mistake is stored, so memory grows with the number of mistakes (the buffers
    double between compiled calls when full; no Python runs per sample; a learning call
    that grew them past 1 GiB ends with a ``RuntimeWarning``). Updating on a
    zero margin makes the first sample count, as in :class:`skewlearn.Perceptron`.

    Parameters
    ----------
    {kernel}
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner); kept for a uniform constructor surface.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    pos_label_ : label
    sv_ : ndarray of shape (capacity, n_features)
        Support-vector buffer (the first ``n_support_`` slots are in use).
    alpha_ : ndarray of shape (capacity,)
        Weights :math:`y_j` of the slots (for ``pos_label`` as the positive class).
    segments_ : ndarray of shape (1, 5)
        ``[start, capacity, count, seen, head]`` of the buffer.
    counts_ : ndarray of shape (4,)
        ``[seen, positives, negatives, mistakes]``.
    rng_state_ : ndarray of shape (1,)
    support_vectors_, dual_coef_, n_support_
        Stored SVs, their weights (sign convention of ``decision_function``), their number.

    References
    ----------
    .. [1] F. Rosenblatt, "The perceptron", Psychological Review 65(6), 1958; the
       "Perceptron" baseline of Hu et al., AAAI 2015 (seed 000), in kernel form.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import roc_auc_score
    >>> from skewlearn import KernelPerceptron
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(1000, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.4).astype(int)   # about 8% positives, a disc
    >>> clf = KernelPerceptron(gamma=2.0).fit(X, y)
    >>> bool(roc_auc_score(y, clf.decision_function(X)) > 0.9)
    True
    """

    _test_params: ClassVar[list[dict]] = [{}, {"kernel": "poly", "gamma": 0.5, "degree": 2}]
    _unbounded_advice: ClassVar[str] = (
        "{name} stores every mistake, so its buffer grows with the stream: use RBP or "
        "Forgetron (budget=...) for fixed memory"
    )

    def __init__(
        self,
        kernel: str = "rbf",
        gamma: float = 1.0,
        degree: int = 3,
        coef0: float = 1.0,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.pos_label = pos_label
        self.random_state = random_state

    def _pass(self, rows, y, scores, start):
        return _kperceptron_learn(
            self.sv_,
            self._sv_norms(rows),
            self.alpha_,
            self.segments_,
            self.counts_,
            self.rng_state_,
            rows,
            y,
            scores,
            start,
            self._budget() is None,
            *self._kernel_args(),
        )


class RBP(KernelPerceptron):
    """Randomized Budget Perceptron (Cavallanti, Cesa-Bianchi and Gentile, 2007).

    The kernel Perceptron with at most ``budget`` support vectors: on a mistake,
    :math:`y_t f_t(x_t) \\le 0`, if the support set is full one SV drawn uniformly at
    random is discarded, then :math:`(x_t, y_t)` is added:

    .. math::

        S_{t+1} = S_t \\setminus \\{r_t\\} \\cup \\{t\\},\\quad r_t \\sim U(S_t)
        \\ \\text{(only when } |S_t| = B\\text{)}, \\qquad
        f_{t+1} = \\sum_{j \\in S_{t+1}} y_j k(x_j, \\cdot) .

    The new SV takes the slot of the discarded one. The draw comes from the model's
    generator (``rng_state_``), so a seeded run is bit-identical and a pickled model
    continues its random stream.

    Parameters
    ----------
    budget : int, default=100
        Maximum number of support vectors :math:`B`, ≥ 1 (100 in KOIL's experiments).
    {kernel}
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Seeds the removal draws.

    Attributes
    ----------
    sv_, alpha_, segments_, counts_, rng_state_, support_vectors_, dual_coef_, n_support_
        As in :class:`KernelPerceptron`; the buffers hold exactly ``budget`` slots.

    References
    ----------
    .. [1] G. Cavallanti, N. Cesa-Bianchi and C. Gentile, "Tracking the best hyperplane
       with a simple budget Perceptron", Machine Learning 69(2–3), 2007 (the Randomized
       Budget Perceptron, Section 3).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import roc_auc_score
    >>> from skewlearn import RBP
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(1000, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.4).astype(int)
    >>> clf = RBP(budget=50, gamma=2.0, random_state=0).fit(X, y)
    >>> clf.n_support_ <= 50
    True
    >>> bool(roc_auc_score(y, clf.decision_function(X)) > 0.85)
    True
    """

    _parameter_constraints: ClassVar[dict] = {
        **KernelPerceptron._parameter_constraints,
        "budget": [Interval(numbers.Integral, 1, None, closed="left")],
    }
    _test_params: ClassVar[list[dict]] = [
        {"budget": 20, "random_state": 0},
        {"budget": 10, "kernel": "linear", "random_state": 0},
    ]

    def __init__(
        self,
        budget: int = 100,
        kernel: str = "rbf",
        gamma: float = 1.0,
        degree: int = 3,
        coef0: float = 1.0,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.budget = budget
        super().__init__(
            kernel=kernel,
            gamma=gamma,
            degree=degree,
            coef0=coef0,
            pos_label=pos_label,
            random_state=random_state,
        )


# --------------------------------------------------------------------------- Forgetron
@njit(**NJIT)
def _forgetron_learn(
    sv, sq_in, alpha, seg, counts, damage, rng, rows, y, scores, kind, gamma, degree, coef0
):
    cap = sv.shape[0]
    kx = np.zeros(cap)
    sq = sq_in.copy()  # a local copy: no aliasing with the buffers (vectorised loops)
    for i in range(y.shape[0]):
        m = seg[0, COUNT]
        f = row_expansion(kind, gamma, degree, coef0, rows, i, sv, sq, alpha, seg, kx)
        scores[i] = f
        yt = y[i]
        count_sample(counts, yt)
        if yt * f > 0.0:
            continue
        counts[3] += 1  # M_t, this mistake included
        slot, replaced = segment_offer(1, seg, 0, rng)  # FIFO: slot = oldest SV r_t
        phi = 1.0
        if replaced:
            r = slot
            sigma = abs(alpha[r])
            if sigma > 0.0:
                yr = 1.0 if alpha[r] > 0.0 else -1.0
                # f'_t(x_r) with f'_t = f_t + y_t k(x_t, .): the Perceptron step comes first
                fr = yt * kx[r]
                for j in range(m):
                    fr += alpha[j] * kernel_buf_buf(kind, gamma, degree, coef0, sv, j, sv, r)
                mu = yr * fr
                # Psi(phi sigma, phi mu) + Q_t = a phi^2 + b phi + c, largest phi in (0, 1]
                # with a value <= 0 (c < 0 always: Q_t <= 15/32 M_{t-1})
                a = sigma * sigma - 2.0 * sigma * mu
                b = 2.0 * sigma
                c = damage[0] - 15.0 / 32.0 * counts[3]
                if a + b + c > 0.0:
                    disc = b * b - 4.0 * a * c
                    if disc < 0.0:
                        disc = 0.0
                    phi = -2.0 * c / (b + math.sqrt(disc))  # the root in (0, 1), stably
                s = phi * sigma
                damage[0] += s * s + 2.0 * s - 2.0 * s * (phi * mu)  # Q_{t+1}
            if phi != 1.0:
                for j in range(m):
                    alpha[j] *= phi
        store_row(rows, i, sv, sq, slot)
        alpha[slot] = phi * yt
    sq_in[:] = sq
    return y.shape[0]


class Forgetron(_KernelExpansionClassifier):
    """The self-tuned Forgetron (Dekel, Shalev-Shwartz and Singer, 2008).

    A kernel Perceptron on a budget of ``B`` support vectors,
    :math:`f_t = \\sum_{i \\in I_t} \\sigma_{i,t} y_i k(x_i, \\cdot)`. On a mistake
    (:math:`y_t f_t(x_t) \\le 0`; :math:`M_t` counts them) the Perceptron step
    :math:`f'_t = f_t + y_t k(x_t, \\cdot)` adds :math:`t` to the active set; if that
    exceeds the budget, the oldest SV :math:`r_t = \\min I_t` is removed after every
    weight is shrunk by :math:`\\phi_t`. With the removal damage
    :math:`\\Psi(\\lambda, \\mu) = \\lambda^2 + 2\\lambda - 2\\lambda\\mu`, the self-tuned
    rule (Section 5, Figure 3 of [1]_) is

    .. math::

        \\mu_t = y_{r_t} f'_t(x_{r_t}), \\qquad
        \\phi_t = \\max\\{\\phi \\in (0, 1] :
            \\Psi(\\phi\\,\\sigma_{r_t,t}, \\phi\\,\\mu_t) + Q_t \\le \\tfrac{15}{32} M_t\\},

        \\sigma_{i,t+1} = \\phi_t \\sigma_{i,t}, \\qquad
        Q_{t+1} = Q_t + \\Psi(\\phi_t\\sigma_{r_t,t}, \\phi_t\\mu_t), \\qquad
        I_{t+1} = I_t \\cup \\{t\\} \\setminus \\{r_t\\} .

    :math:`\\phi_t` is 1 when :math:`\\phi = 1` is feasible, else a root of the quadratic
    :math:`\\Psi(\\phi\\sigma, \\phi\\mu) + Q_t - \\tfrac{15}{32} M_t` in :math:`\\phi`, computed
    in closed form: the positive one when :math:`\\sigma > 2\\mu` (it opens upward), the
    smaller one otherwise (it opens downward and is feasible again beyond its larger
    root, which lies above 1). The new SV takes the removed SV's slot (a circular FIFO).
    The mistake bound assumes :math:`k(x, x) \\le 1`, true for ``rbf``; other kernels run
    the same rule without that guarantee.

    Parameters
    ----------
    budget : int, default=100
        Budget :math:`B`, ≥ 1 (100 in KOIL's experiments; the bound needs B ≥ 84).
    {kernel}
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    sv_, alpha_, segments_, counts_, rng_state_, support_vectors_, dual_coef_, n_support_
        As in :class:`KernelPerceptron` (``alpha_`` holds :math:`\\sigma_i y_i`;
        ``counts_[3]`` is :math:`M_t`).
    damage_ : ndarray of shape (1,)
        :math:`Q_t`, the accumulated removal damage.

    References
    ----------
    .. [1] O. Dekel, S. Shalev-Shwartz and Y. Singer, "The Forgetron: a kernel-based
       Perceptron on a budget", SIAM Journal on Computing 37(5), 2008 (self-tuned
       Forgetron).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import roc_auc_score
    >>> from skewlearn import Forgetron
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(1000, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.4).astype(int)
    >>> clf = Forgetron(budget=50, gamma=2.0).fit(X, y)
    >>> bool(roc_auc_score(y, clf.decision_function(X)) > 0.85)
    True
    """

    _parameter_constraints: ClassVar[dict] = {
        **_KernelExpansionClassifier._parameter_constraints,
        "budget": [Interval(numbers.Integral, 1, None, closed="left")],
    }
    _test_params: ClassVar[list[dict]] = [
        {"budget": 10},
        {"budget": 5, "kernel": "poly", "gamma": 0.3, "degree": 2},
    ]

    def __init__(
        self,
        budget: int = 100,
        kernel: str = "rbf",
        gamma: float = 1.0,
        degree: int = 3,
        coef0: float = 1.0,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.budget = budget
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        self.damage_ = np.zeros(1)

    def _pass(self, rows, y, scores, start):
        return _forgetron_learn(
            self.sv_,
            self._sv_norms(rows),
            self.alpha_,
            self.segments_,
            self.counts_,
            self.damage_,
            self.rng_state_,
            rows,
            y,
            scores,
            *self._kernel_args(),
        )


# --------------------------------------------------------------------------- Projectron
@njit(**NJIT)
def _projectron_learn(
    sv,
    sq_in,
    alpha,
    chol,
    seg,
    counts,
    rows,
    y,
    scores,
    start,
    eta,
    plus,
    capped,
    kind,
    gamma,
    degree,
    coef0,
):
    cap = sv.shape[0]
    kx = np.zeros(cap)
    sq = sq_in.copy()  # a local copy: no aliasing with the buffers (vectorised loops)
    c = np.zeros(cap)
    dstar = np.zeros(cap)
    for i in range(start, y.shape[0]):
        m = seg[0, COUNT]
        if not capped and m == cap:
            sq_in[:] = sq
            return i  # full: Python doubles the buffers and the factor, then resumes at row i
        f = row_expansion(kind, gamma, degree, coef0, rows, i, sv, sq, alpha, seg, kx)
        scores[i] = f
        yt = y[i]
        count_sample(counts, yt)
        z = yt * f
        mistake = z <= 0.0
        if not mistake and not (plus and z < 1.0):
            continue
        # projection of k(x_t, .) onto span{k(x_j, .)} through K = L L^T: c = L^{-1} k_t
        # (forward substitution), ||P k_t||^2 = k_t.d* = c.c, ||delta_t||^2 = k(x_t, x_t) - c.c
        kpk = 0.0
        for a in range(m):
            row = chol[a]
            s = kx[a]
            for b in range(a):
                s -= row[b] * c[b]
            s /= row[a]
            c[a] = s
            kpk += s * s
        d2 = row_self_kernel(kind, gamma, degree, coef0, rows, i) - kpk
        if d2 < 0.0:
            d2 = 0.0
        delta = math.sqrt(d2)
        if mistake and delta > eta and m < cap:
            # new SV: the factor grows by the row [c^T, ||delta_t||] (Cholesky append)
            row = chol[m]
            for a in range(m):
                row[a] = c[a]
            row[m] = delta
            store_row(rows, i, sv, sq, m)
            alpha[m] = yt
            seg[0, COUNT] = m + 1
            counts[3] += 1
            continue
        step = yt
        if not mistake:
            # Projectron++ on a margin error, 0 < y f < 1: projected step of size beta
            loss = 1.0 - z
            slack = loss - delta / eta
            if not (kpk > 0.0 and slack > 0.0):
                continue
            step = min(loss / kpk, 2.0 * slack / kpk, 1.0) * yt
        # projected step f + step P k_t, with d* = L^{-T} c (back substitution by columns)
        for a in range(m):
            dstar[a] = c[a]
        for a in range(m - 1, -1, -1):
            row = chol[a]
            v = dstar[a] / row[a]
            dstar[a] = v
            for b in range(a):
                dstar[b] -= row[b] * v
        for a in range(m):
            alpha[a] += step * dstar[a]
        counts[3] += 1
    sq_in[:] = sq
    return y.shape[0]


class Projectron(_KernelExpansionClassifier):
    """The Projectron (Orabona, Keshet and Caputo, 2009).

    A kernel Perceptron that adds a support vector only when the new example cannot be
    well represented by the current ones. On a mistake, :math:`y_t f_{t-1}(x_t) \\le 0`,
    let :math:`P_{t-1} k(x_t, \\cdot) = \\sum_{j \\in S} d^*_j k(x_j, \\cdot)` be the projection
    of :math:`k(x_t, \\cdot)` onto the span of the SVs, with (Section 3 of [1]_)

    .. math::

        d^* = K_{t-1}^{-1} k_t, \\qquad
        \\|\\delta_t\\|^2 = k(x_t, x_t) - k_t^T d^* ;

        f_t = \\begin{cases}
            f_{t-1} + y_t P_{t-1} k(x_t, \\cdot) & \\|\\delta_t\\| \\le \\eta, \\\\
            f_{t-1} + y_t k(x_t, \\cdot),\\ S_t = S_{t-1} \\cup \\{t\\} & \\text{otherwise,}
        \\end{cases}

    The paper keeps :math:`K_{t-1}^{-1}` by rank-one updates. skewlearn keeps the Cholesky
    factor :math:`K_{t-1} = L L^T` instead, at the same :math:`O(|S|^2)` cost per update,
    and computes the same quantities by two triangular solves:

    .. math::

        c = L^{-1} k_t, \\qquad \\|P_{t-1} k(x_t, \\cdot)\\|^2 = k_t^T d^* = c^T c, \\qquad
        d^* = L^{-T} c ;

    when :math:`x_t` joins, :math:`L` grows by the row :math:`[c^T, \\|\\delta_t\\|]`. The
    inverse loses accuracy once :math:`K` is ill-conditioned (small ``eta``: condition
    numbers of 1e10–1e14 at ``eta=1e-3``–``1e-4``, where it moved scores by up to 1);
    the factor does not (``docs/decisions.md``, session 14).

    ``K_chol_`` is part of the model state. The support set is bounded
    implicitly by ``eta``; ``budget`` adds a hard cap: once ``budget`` SVs are stored, every
    update is the projected one (whatever :math:`\\|\\delta_t\\|`), so nothing is discarded and
    memory stays fixed.

    Parameters
    ----------
    eta : float, default=0.1
        Threshold :math:`\\eta` on the projection error :math:`\\|\\delta_t\\|`, > 0. Larger
        values store fewer SVs; from :math:`\\sqrt{k(x, x)}` on (1 for ``rbf``) none at all,
        and the model stays 0 (a ``RuntimeWarning`` says so). (DOGMA, the first author's
        toolbox, compares :math:`\\|\\delta_t\\|^2` with its ``eta``: its value is our
        :math:`\\eta^2`.)
    budget : int or None, default=None
        Hard cap on the number of SVs, ≥ 1; ``None`` leaves the paper's implicit bound
        (capacity then doubles between compiled calls when full, and a learning call
        whose buffers and ``K_chol_`` grew past 1 GiB ends with a ``RuntimeWarning``). A cap
        allocates ``K_chol_`` (``budget²`` floats) at once; a ``RuntimeWarning`` says so
        above 1 GiB.
    {kernel}
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    Attributes
    ----------
    sv_, alpha_, segments_, counts_, rng_state_, support_vectors_, dual_coef_, n_support_
        As in :class:`KernelPerceptron`; ``counts_[3]`` counts updates.
    K_chol_ : ndarray of shape (capacity, capacity)
        Lower-triangular Cholesky factor :math:`L` of the stored SVs' Gram matrix,
        :math:`K = L L^T`, in its top-left ``n_support_`` block.

    References
    ----------
    .. [1] F. Orabona, J. Keshet and B. Caputo, "Bounded kernel-based online learning",
       JMLR 10, 2009 (Projectron, Figure 1; Projectron++, Figure 2).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import roc_auc_score
    >>> from skewlearn import Projectron
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(1000, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.4).astype(int)
    >>> clf = Projectron(eta=0.3, gamma=2.0).fit(X, y)
    >>> bool(clf.n_support_ < 100)
    True
    >>> bool(roc_auc_score(y, clf.decision_function(X)) > 0.9)
    True
    """

    _plus: ClassVar[bool] = False
    _square_state: ClassVar[bool] = True  # K_chol_
    #: Projections move ``counts_[3]`` without storing; a store adds an SV and none is
    #: ever removed, so the number of stored SVs counts the writes into ``sv_``.
    _written_with: ClassVar[dict[str, tuple]] = {"sv_": ("segments_", (0, COUNT))}
    _unbounded_advice: ClassVar[str] = (
        "{name}(budget=None) keeps every support vector it adds, and K_chol_ grows with "
        "their square: set budget (a hard cap) or a larger eta"
    )
    _parameter_constraints: ClassVar[dict] = {
        **_KernelExpansionClassifier._parameter_constraints,
        "eta": [Interval(numbers.Real, 0, None, closed="neither")],
        "budget": [Interval(numbers.Integral, 1, None, closed="left"), None],
    }
    _test_params: ClassVar[list[dict]] = [
        {"eta": 0.2},
        {"eta": 0.05, "budget": 8},
        {"kernel": "poly", "gamma": 0.5, "degree": 2, "eta": 0.01},
    ]

    def __init__(
        self,
        eta: float = 0.1,
        budget: int | None = None,
        kernel: str = "rbf",
        gamma: float = 1.0,
        degree: int = 3,
        coef0: float = 1.0,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.eta = eta
        self.budget = budget
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.pos_label = pos_label
        self.random_state = random_state

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        cap = self.sv_.shape[0]
        self.K_chol_ = np.zeros((cap, cap))

    def __setstate__(self, state):
        # Models pickled before session 14 (same version number, 0.1.0.dev0) kept the
        # paper's K^{-1} as ``K_inv_``; rebuild the factor from their SVs so they go on learning.
        if isinstance(state, dict) and "K_inv_" in state and "K_chol_" not in state:
            state = dict(state)
            kinv = state.pop("K_inv_")
            m = int(state["segments_"][0, COUNT])
            sv = state["sv_"][:m]
            gram = kernel_matrix(
                sv, sv, state["kernel"], state["gamma"], state["degree"], state["coef0"]
            )
            chol = np.zeros_like(kinv)
            try:
                chol[:m, :m] = np.linalg.cholesky(gram)
            except np.linalg.LinAlgError:
                raise ValueError(
                    f"This {type(self).__name__} was saved by an earlier skewlearn that kept "
                    "the inverse Gram matrix K_inv_, and its support vectors' Gram matrix is "
                    "numerically singular, so the Cholesky factor K_chol_ that replaces it "
                    "cannot be rebuilt. Refit the model with this skewlearn."
                ) from None
            state["K_chol_"] = chol
        super().__setstate__(state)

    def _grow(self, label: float) -> None:
        m = int(self.segments_[0, COUNT])
        super()._grow(label)
        cap = self.sv_.shape[0]
        chol = np.zeros((cap, cap))
        chol[:m, :m] = self.K_chol_[:m, :m]
        self.K_chol_ = chol

    def _learn(self, rows, y, scores):
        before = int(self.counts_[3])
        super()._learn(rows, y, scores)
        # once per model: in the call whose mistakes were the first (support vectors are
        # never removed, so a model with updates and no SV had none at its earlier calls)
        if before == 0 and self.counts_[3] > 0 and self.segments_[0, COUNT] == 0:
            warnings.warn(
                f"{type(self).__name__}(eta={self.eta!r}) has no support vector after "
                f"{int(self.counts_[3])} mistakes: on an empty support set a mistake's "
                "projection error is sqrt(k(x, x)) (1 for the rbf kernel), never above eta "
                "here, so every update was the projection onto the empty set and the model "
                "stays 0. Use eta < sqrt(k(x, x)) (eta < 1 for rbf).",
                RuntimeWarning,
                stacklevel=user_stacklevel(),  # fit, partial_fit or River's learn_one
            )

    def _pass(self, rows, y, scores, start):
        return _projectron_learn(
            self.sv_,
            self._sv_norms(rows),
            self.alpha_,
            self.K_chol_,
            self.segments_,
            self.counts_,
            rows,
            y,
            scores,
            start,
            float(self.eta),
            self._plus,
            self.budget is not None,
            *self._kernel_args(),
        )


class ProjectronPP(Projectron):
    """Projectron++ (Orabona, Keshet and Caputo, 2009).

    The :class:`Projectron`, plus projected updates on margin errors. On a mistake it acts
    as the Projectron; on a margin error, :math:`0 < y_t f_{t-1}(x_t) < 1`, with the hinge
    loss :math:`\\ell_t = 1 - y_t f_{t-1}(x_t)`, :math:`d^*` and :math:`\\|\\delta_t\\|` as in
    :class:`Projectron` and :math:`\\|P_{t-1} k(x_t, \\cdot)\\|^2 = k_t^T d^*`, it updates
    only within the span of the SVs, and only when :math:`\\ell_t > \\|\\delta_t\\| / \\eta`
    (Figure 2 of [1]_):

    .. math::

        \\beta_t = \\min\\Big\\{\\frac{\\ell_t}{\\|P_{t-1} k(x_t,\\cdot)\\|^2},\\;
            \\frac{2(\\ell_t - \\|\\delta_t\\|/\\eta)}{\\|P_{t-1} k(x_t,\\cdot)\\|^2},\\; 1\\Big\\},
        \\qquad f_t = f_{t-1} + \\beta_t y_t P_{t-1} k(x_t, \\cdot) .

    Margin errors never add support vectors. Parameters, attributes and the ``budget``
    cap are those of :class:`Projectron`.

    Parameters
    ----------
    eta : float, default=0.1
        Threshold on :math:`\\|\\delta_t\\|`, > 0 (also scales the margin-error condition).
    budget : int or None, default=None
        Hard cap on the number of SVs (see :class:`Projectron`).
    {kernel}
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Unused (deterministic learner).

    References
    ----------
    .. [1] F. Orabona, J. Keshet and B. Caputo, "Bounded kernel-based online learning",
       JMLR 10, 2009 (Projectron++, Figure 2).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import roc_auc_score
    >>> from skewlearn import ProjectronPP
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(1000, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.4).astype(int)
    >>> clf = ProjectronPP(eta=0.3, gamma=2.0, budget=100).fit(X, y)
    >>> bool(roc_auc_score(y, clf.decision_function(X)) > 0.9)
    True
    """

    _plus: ClassVar[bool] = True


for _cls in (KernelPerceptron, RBP, Forgetron, Projectron, ProjectronPP):
    fill_doc(_cls, kernel=_KERNEL_DOC)
del _cls
