"""Online AUC maximisation (OAM, Zhao, Hoi, Jin and Yang, ICML 2011).

One compiled pass per batch (:func:`_oam_learn`) scores each row with ``w``, offers it to
its class buffer (policies of :mod:`skewlearn.kernel.budget`) and updates ``w`` against
every instance of the opposite buffer with the pairwise hinge loss
:math:`\\max(0, 1 - y_t w^T (x_t - x))`.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from numba import njit
from sklearn.utils._param_validation import Interval, StrOptions

from .._config import NJIT
from .._docs import fill_doc
from .._rows import row_dot, row_to_dense
from ..base import THRESHOLD_DOC, OnlineClassifier, OnlineLinearClassifier
from ..kernel import budget as bd
from ..kernel.budget import CAPACITY, COUNT, SEEN, START, segment_offer

if TYPE_CHECKING:
    from .._typing import Label, RandomStateLike

__all__ = ["OAM"]

#: Buffer names -> policy codes of :mod:`skewlearn.kernel.budget`.
_BUFFERS = {"reservoir": bd.RS, "fifo": bd.FIFO, "infinite": bd.INFINITE}
#: Classifier updates: 0 sequential (PA-I per pair), 1 gradient (all pairs at ``w_t``).
_UPDATES = {"sequential": 0, "gradient": 1}


@njit(**NJIT)
def _oam_learn(w, sv, seg, counts, rng, rows, y, scores, C, policy, update):
    d = sv.shape[1]
    x = np.empty(d + 1)  # the current row, densified once
    grad = np.empty(d)
    for i in range(y.shape[0]):
        yt = y[i]
        scores[i] = row_dot(w, rows, i)
        counts[0] += 1
        own = 0 if yt > 0 else 1
        opp = 1 - own
        counts[1 + own] += 1
        # C_t = C max(1, N_t^opp / N_opp): the buffer stands for every opposite sample seen
        ct = C
        if policy != 4:
            ratio = seg[opp, SEEN] / seg[opp, CAPACITY]
            if ratio > 1.0:
                ct = C * ratio
        row_to_dense(rows, i, x)
        # UpdateBuffer on the own class (the opposite buffer, used below, is untouched)
        seg[own, SEEN] += 1
        slot, _ = segment_offer(policy, seg, own, rng)
        if slot >= 0:
            for c in range(d):
                sv[slot, c] = x[c]
        # UpdateClassifier against the opposite buffer B_t
        lo = seg[opp, START]
        n = seg[opp, COUNT]
        if update == 0:
            for j in range(lo, lo + n):
                # the sums in a loop that stores nothing (see _config), x - sv[j] twice
                f = 0.0
                sq = 0.0
                for c in range(d):
                    e = x[c] - sv[j, c]
                    f += w[c] * e
                    sq += e * e
                loss = 1.0 - yt * f
                if loss <= 0.0 or sq == 0.0:
                    continue
                tau = loss / sq
                if tau > 0.5 * ct:
                    tau = 0.5 * ct
                a = tau * yt
                for c in range(d):
                    w[c] += a * (x[c] - sv[j, c])
                counts[3] += 1
        else:
            wx = 0.0
            for c in range(d):
                wx += w[c] * x[c]
            for c in range(d):
                grad[c] = 0.0
            k = 0
            for j in range(lo, lo + n):
                wb = 0.0
                for c in range(d):
                    wb += w[c] * sv[j, c]
                if yt * (wx - wb) < 1.0:
                    k += 1
                    for c in range(d):
                        grad[c] += x[c] - sv[j, c]
            if k > 0:
                a = 0.5 * ct * yt
                for c in range(d):
                    w[c] += a * grad[c]
                counts[3] += k


class OAM(OnlineLinearClassifier):
    """Online AUC Maximisation (OAM) with sequential or gradient updates.

    OAM minimises :math:`\\tfrac12\\|w\\|^2 + C \\sum_{i,j}
    \\max(0, 1 - w^T(x_i^+ - x_j^-))`, a convex surrogate of :math:`1 - \\mathrm{AUC}`
    (Eq. 1 of [1]_), online. Two buffers :math:`B^+, B^-` of sizes :math:`N_+, N_-` keep a
    sample of each class. On receiving :math:`(x_t, y_t)`, with :math:`N_t^{\\pm}` the
    number of samples of each class seen so far and :math:`\\bar y = -y_t` the opposite
    class (the "OAM Framework" slide of [2]_, Algorithm 1 of [1]_),

    .. math::

        C_t = C \\max\\big(1, N_t^{\\bar y} / N_{\\bar y}\\big),\\qquad
        B^{y_t} \\leftarrow \\mathrm{UpdateBuffer}(B^{y_t}, x_t),\\qquad
        w_{t+1} = \\mathrm{UpdateClassifier}(w_t, x_t, y_t, C_t, B^{\\bar y}).

    ``UpdateBuffer`` is reservoir sampling (Vitter, 1985): append while the buffer has
    room, else with probability :math:`N/N_t` overwrite a uniformly drawn slot
    (``"fifo"`` overwrites the oldest; ``"infinite"`` keeps every sample, :math:`C_t = C`).
    ``UpdateClassifier`` loops over :math:`x \\in B^{\\bar y}` ("Update Classifier"
    slide of [2]_, Algorithms 2 and 3 of [1]_) in slot order: a replacement overwrites
    a slot in place, so once ``"fifo"`` has wrapped around the loop is not oldest-first
    (the order matters to the sequential update only). The sequential update is a PA-I
    step on each pair, :math:`\\arg\\min_w \\|w - w'\\|^2 + C_t \\ell(w, y_t(x_t - x))`,

    .. math::

        w \\leftarrow w + \\min\\Big\\{\\frac{C_t}{2},
        \\frac{\\max(0, 1 - y_t w^T(x_t - x))}{\\|x_t - x\\|^2}\\Big\\}\\, y_t (x_t - x),

    and the gradient update adds :math:`\\tfrac{C_t}{2} y_t (x_t - x)` for every
    :math:`x` with :math:`y_t w_t^T (x_t - x) < 1`, all tested at the same :math:`w_t`.

    OAM learns a ranking: pairwise differences cancel any intercept, so there is none
    (``intercept_`` is 0) and the score is :math:`w^T x`. ``threshold`` moves the cut of
    :meth:`predict` only; the AUC depends on the scores alone.

    Each step costs :math:`O(|B^{\\bar y}|\\, d)`; a CSR row is densified into one
    length-``d`` scratch row (and copied into the buffer when kept), the batch never is.

    Parameters
    ----------
    C : float, default=1.0
        Penalty :math:`C` of the pairwise hinge losses, > 0. The paper picks it by cross
        validation over :math:`2^{[-10:10]}`; the gradient step is :math:`C_t/2`, so no
        separate step size is needed.
    update : {"sequential", "gradient"}, default="sequential"
        OAM\\ :sub:`seq` (PA-I per pair) or OAM\\ :sub:`gra`.
    buffer : {"reservoir", "fifo", "infinite"}, default="reservoir"
        Buffer policy. ``"infinite"`` stores every sample (OAM\\ :sub:`inf`): memory and
        time per step grow with the stream.
    budget_pos, budget_neg : int, default=100
        Buffer sizes :math:`N_+, N_-` (≥ 1; 100 each, as in [1]_ and in KOIL's
        experiments). With ``buffer="infinite"`` they are the initial capacities.
    {threshold}
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.
    random_state : int, RandomState or None, default=None
        Seeds reservoir sampling.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    pos_label_ : label
    weights_ : ndarray of shape (n_features + 1,)
        ``[w, 0]``: the last entry is the (always zero) intercept.
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
        Always 0.
    sv_ : ndarray of shape (capacity, n_features)
        The buffers: positives in slots ``[0, budget_pos)``, negatives after.
    segments_ : ndarray of shape (2, 5)
        ``[start, capacity, count, seen, head]`` of the positive and negative buffers
        (:mod:`skewlearn.kernel.budget`).
    counts_ : ndarray of shape (4,)
        ``[seen, positives, negatives, pairwise steps]``.
    rng_state_ : ndarray of shape (1,)
        Generator state (:mod:`skewlearn._rng`).

    References
    ----------
    .. [1] P. Zhao, S. C. H. Hoi, R. Jin and T. Yang, "Online AUC maximization",
       ICML 2011, pp. 233–240.
    .. [2] S. C. H. Hoi, Online learning tutorial (seed 002), slides "OAM Framework",
       "Update Buffer" and "Update Classifier".

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics import roc_auc_score
    >>> from skewlearn import OAM
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(2000, 5))
    >>> y = (X[:, 0] + X[:, 1] > 2.2).astype(int)          # about 6% positives
    >>> clf = OAM(C=0.1, budget_pos=50, budget_neg=50, random_state=0)
    >>> scores = clf.test_then_train(X, y, classes=[0, 1])  # prequential scores
    >>> bool(roc_auc_score(y, scores) > 0.95)
    True
    >>> int(clf.segments_[:, 2].max())                      # never above the budget
    50
    """

    _step_params: ClassVar[tuple[tuple[str, str], ...]] = (("C", "smaller"),)
    _parameter_constraints: ClassVar[dict] = {
        **{
            key: rule
            for key, rule in OnlineClassifier._parameter_constraints.items()
            if key != "fit_intercept"
        },
        "C": [Interval(numbers.Real, 0, None, closed="neither")],
        "update": [StrOptions(set(_UPDATES))],
        "buffer": [StrOptions(set(_BUFFERS))],
        "budget_pos": [Interval(numbers.Integral, 1, None, closed="left")],
        "budget_neg": [Interval(numbers.Integral, 1, None, closed="left")],
        "threshold": [Interval(numbers.Real, None, None, closed="neither"), None],
    }
    _test_params: ClassVar[list[dict]] = [
        {"budget_pos": 10, "budget_neg": 20, "random_state": 0},
        {"update": "gradient", "C": 0.1, "budget_pos": 10, "budget_neg": 10, "random_state": 0},
        {"buffer": "infinite", "budget_pos": 2, "budget_neg": 2, "C": 0.5},
    ]
    _id_keys = ("update", "buffer")

    def __init__(
        self,
        C: float = 1.0,
        update: str = "sequential",
        buffer: str = "reservoir",
        budget_pos: int = 100,
        budget_neg: int = 100,
        threshold: float | None = None,
        pos_label: Label | None = None,
        random_state: RandomStateLike = None,
    ):
        self.C = C
        self.update = update
        self.buffer = buffer
        self.budget_pos = budget_pos
        self.budget_neg = budget_neg
        self.threshold = threshold
        self.pos_label = pos_label
        self.random_state = random_state

    def _memory_advice(self) -> str:
        """First remedy of the buffer-size warning (:func:`skewlearn.kernel.budget.
        warn_large_buffers`)."""
        if self.buffer == "infinite":
            return "OAM(buffer='infinite') stores every sample: use buffer='reservoir' or 'fifo'"
        return "use smaller budget_pos and budget_neg"

    def _allocate(self, n_features: int) -> None:
        super()._allocate(n_features)
        state = bd.allocate_buffers(
            [int(self.budget_pos), int(self.budget_neg)],
            n_features,
            caches=False,
            advice=self._memory_advice(),
        )
        self.sv_ = state["sv"]
        self.segments_ = state["seg"]
        self.rng_state_ = self._new_rng()

    def _grow(self, y: np.ndarray) -> bool:
        """Make room for this batch in the infinite buffers (capacity at least doubles);
        whether they grew."""
        n_pos = int(np.count_nonzero(y > 0))
        state = {
            "sv": self.sv_,
            "alpha": np.zeros(self.sv_.shape[0]),
            "seg": self.segments_,
            "gram": np.zeros((0, 0)),
            "fsv": np.zeros(0),
        }
        grown = bd.grow_segments(state, [n_pos, y.shape[0] - n_pos])
        self.sv_ = grown["sv"]
        self.segments_ = grown["seg"]
        return grown is not state

    def _learn(self, rows, y, scores):
        policy = _BUFFERS[self.buffer]
        grown = policy == bd.INFINITE and self._grow(y)
        _oam_learn(
            self.weights_,
            self.sv_,
            self.segments_,
            self.counts_,
            self.rng_state_,
            rows,
            y,
            scores,
            float(self.C),
            policy,
            _UPDATES[self.update],
        )
        if grown:  # after the pass: a warning turned into an error cannot stop it halfway
            bd.warn_large_buffers(*self.sv_.shape, advice=self._memory_advice())


fill_doc(OAM, threshold=THRESHOLD_DOC)
