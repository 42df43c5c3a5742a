"""Multi-Nyström with multiple kernel learning (reduced-gradient MKL), and SimpleMKL.

The MKL problem of [1]_ (Eq. 14), with kernel weights :math:`\\mu` on the simplex,

.. math::  \\min_{\\mu \\in \\Delta} J(\\mu),\\qquad
           J(\\mu) = \\min_{f, b, \\xi}\\ \\tfrac12 \\sum_m \\frac{\\|f_m\\|^2}{\\mu_m}
           + \\sum_i C_i \\xi_i \\ \\text{ s.t. } y_i \\big(\\textstyle\\sum_m f_m(x_i) + b\\big)
           \\ge 1 - \\xi_i,\\ \\xi_i \\ge 0,

is solved by the reduced-gradient method of SimpleMKL [2]_ (Algorithm 1 of [1]_).
:math:`J(\\mu)` is an SVM's optimal objective for the kernel :math:`\\sum_m \\mu_m K_m`
(Eq. 15), and by Danskin's theorem (Eq. 18)

.. math::  \\frac{\\partial J}{\\partial \\mu_m}
           = -\\tfrac12 \\sum_{ij} \\alpha_i \\alpha_j y_i y_j K_m(x_i, x_j)
           = -\\tfrac12 \\|\\Phi_m^T (\\alpha \\circ y)\\|^2
           = -\\tfrac12 \\frac{\\|w_m\\|^2}{\\mu_m}

where the last two forms hold for the low-rank kernels :math:`\\tilde K_m = \\Phi_m \\Phi_m^T`
of the multi-Nyström method: with the features :math:`[\\sqrt{\\mu_1}\\Phi_1, \\dots]` the
SVM is *linear* with weight blocks :math:`w_m = \\sqrt{\\mu_m}\\, \\Phi_m^T(\\alpha \\circ y)`,
so each :math:`J(\\mu)` costs one linear-SVM solve, O(n · Σ k_m) per epoch, never an
n × n matrix. The reduced gradient (Eqs. 19–21) fixes the largest weight
:math:`\\mu_{\\hat m}` and moves the others along

.. math::  D_m = -\\Big(\\frac{\\partial J}{\\partial \\mu_m}
           - \\frac{\\partial J}{\\partial \\mu_{\\hat m}}\\Big)
           \\ (\\text{0 if } \\mu_m = 0 \\text{ and that is } < 0),\\qquad
           D_{\\hat m} = -\\sum_{m \\ne \\hat m} D_m ,

first as far as the objective keeps decreasing while weights hit zero (the inner loop of
Algorithm 1; each such boundary probe only asks whether J went up, so its solve stops as
soon as its dual value proves it, by weak duality), then by a line search on the last
segment (:func:`line_search`: the slope :math:`-\\tfrac12 D^T g` comes free with every
solve, so a few secant steps on it replace SimpleMKL's golden-section search). It stops
when the MKL duality gap :math:`J + \\tfrac12 \\max_m g_m - \\sum_i \\alpha_i` (with the
intercept's term; :func:`mkl_duality_gap`), :math:`g_m = -2\\, \\partial J/\\partial \\mu_m`,
falls below ``tol`` · J (SimpleMKL's criterion; ``J`` is the SVM's primal value, so the gap
includes the SVM's own), when no descent direction is left, or when the line search finds
no decrease.

The linear SVM is solved by dual coordinate descent (Hsieh et al., 2008 [3]_, the
algorithm of liblinear's hinge-loss solver, so the intercept is the regularised weight of a
constant feature ``intercept_scaling``, as in scikit-learn's ``LinearSVC``), warm-started
from the previous ``α`` at every evaluation of :math:`J`: successive weights differ little,
so most solves take a few epochs. The solves are loose (``descent_svm_tol``) while the MKL
descends; the point where a stopping test passes is solved again at ``svm_tol`` and the
test repeated on that solve (inexact inner solves that tighten at the end, as in
SimpleMKL-type codes), so the returned μ, SVM and gap are those of a converged solve.
Blocks at weight 0 are left out of the coordinate descent.

References
----------
.. [1] "Multi-Nyström method based on multiple kernel learning for large scale imbalanced
   classification" (seed 003), Section 3.2 and Algorithm 1.
.. [2] A. Rakotomamonjy, F. Bach, S. Canu, Y. Grandvalet, "SimpleMKL", JMLR 9, 2008.
.. [3] C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi, S. Sundararajan, "A dual
   coordinate descent method for large-scale linear SVM", ICML 2008.
"""

from __future__ import annotations

import itertools
import numbers
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numba import njit
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions

from .._config import NJIT, NJIT_INLINE
from .._rng import rng_int, seed_state
from .._stack import user_stacklevel
from .._values import value_list
from ..base import BatchClassifier, _encoded_labels_hint, _max_abs, warn_large_fit
from ..kernels import kernel_matrix
from .nystrom import (
    MultiNystroem,
    check_kernel_values,
    libsvm_kernel_error,
    resolve_kernels,
    score_chunks,
)

if TYPE_CHECKING:
    from .._typing import ArrayLike, Label, RandomStateLike

__all__ = ["MultiNystroemMKL", "SimpleMKL"]

#: Weights below this are set to exactly zero (and the rest renormalised).
MU_ZERO = 1e-12


# --------------------------------------------------------------------------- linear SVM
@njit(**NJIT)
def _feature_product(Z, v, out):
    """``out = Z.T @ v`` in row order, skipping the rows where ``v_i = 0`` (most rows of
    an SVM's ``α∘y`` are 0; a BLAS product reads them all)."""
    out[:] = 0.0
    for i in range(Z.shape[0]):
        vi = v[i]
        if vi != 0.0:
            zi = Z[i]
            for r in range(zi.shape[0]):
                out[r] += vi * zi[r]
    return out


@njit(**NJIT_INLINE)
def _row_score(Z, i, beta, b, col_lo, col_hi):
    """``b + Z_i · beta`` over the column ranges ``[col_lo[j], col_hi[j])`` (the blocks of
    nonzero weight). Slices (views) of the row, not ``Z[i, r]`` over a range: this
    vectorises."""
    f = b
    for j in range(len(col_lo)):
        zi = Z[i, col_lo[j] : col_hi[j]]
        bj = beta[col_lo[j] : col_hi[j]]
        for r in range(zi.shape[0]):
            f += bj[r] * zi[r]
    return f


@njit(**NJIT)
def _gradient_pass(Z, y, upper, qdiag, alpha, beta, b, col_lo, col_hi, G):
    """``G_i = y_i (Z_i · beta + b) - 1`` for every row (in order, ``w`` fixed) and the
    largest and smallest projected gradient, both taken with 0 included: the range is then
    ≤ ``tol`` exactly when every :math:`|PG_i| \\le` ``tol`` with one sign, and in practice
    (some row at a bound with PG = 0) it is liblinear's range. Rows with ``qdiag = 0``
    are left out of the extremes (as in the coordinate descent)."""
    n = Z.shape[0]
    pg_max = 0.0
    pg_min = 0.0
    for i in range(n):
        g = y[i] * _row_score(Z, i, beta, b, col_lo, col_hi) - 1.0
        G[i] = g
        a = alpha[i]
        if qdiag[i] <= 0.0:
            continue
        if a <= 0.0:
            pg_min = min(pg_min, g)
        elif a >= upper[i]:
            pg_max = max(pg_max, g)
        else:
            pg_max = max(pg_max, g)
            pg_min = min(pg_min, g)
    return pg_max, pg_min


@njit(**NJIT_INLINE)
def _active_rows(order, grad, alpha, upper, qdiag, pg_max_old, pg_min_old):
    """Write into ``order[:active]`` the rows, in index order, that liblinear's shrinking
    rule keeps given every gradient ``grad`` (rows with ``qdiag = 0`` never move and are
    left out); returns ``active``."""
    active = 0
    for i in range(order.shape[0]):
        if qdiag[i] <= 0.0:
            continue
        if alpha[i] <= 0.0:
            if grad[i] > pg_max_old:
                continue
        elif alpha[i] >= upper[i]:
            if grad[i] < pg_min_old:
                continue
        order[active] = i
        active += 1
    return active


@njit(**NJIT)
def _dcd_hinge(
    Z, colw, y, upper, qdiag, alpha, beta, bias, s, tol, max_epochs, rng_state, col_lo, col_hi,
    stop_above, grad,
):  # fmt: skip
    """Dual coordinate descent with shrinking for the hinge-loss linear SVM on features
    ``z_i = √colw ∘ Z_i`` plus a constant feature ``s`` (Hsieh et al. 2008, Algorithm 3).

    Minimises :math:`\\tfrac12 \\alpha^T Q \\alpha - \\mathbf 1^T\\alpha`,
    :math:`0 \\le \\alpha_i \\le U_i`, one coordinate at a time in random order:
    :math:`\\alpha_i \\leftarrow \\min(\\max(\\alpha_i - G_i / Q_{ii}, 0), U_i)`,
    :math:`G_i = y_i w^T z_i - 1`. Keeps ``beta = colw ∘ Σ α_i y_i Z_i`` (the score is
    ``Z_i · beta + bias·s``) and ``bias = s Σ α_i y_i``. Coordinates at a bound whose
    gradient points outside by more than last pass's projected-gradient range are shrunk
    (left out). When the range over the active set is ≤ ``tol`` (and at a warm start),
    a *gradient pass* (:func:`_gradient_pass`) computes every ``G_i`` at the current, fixed
    ``w`` without updating: the solve stops if the projected-gradient range over all
    coordinates is ≤ ``tol`` there; otherwise the active set is rebuilt from those
    gradients by the same shrinking rule (liblinear instead unshrinks everything and makes
    two updating passes over all rows). It also stops after ``max_epochs`` full passes'
    worth of coordinate visits (a gradient pass counts 1, a pass over a shrunk active set
    of ``a`` rows ``a / n``: late passes over a few free coordinates are cheap, and at
    large C the solve needs many of them). From ``α = 0`` the first gradient pass is
    skipped (every ``G_i = -1``). When the solve converged, ``grad`` holds the ``G_i`` of
    the final gradient pass, i.e. at the returned ``w`` (``1 - G_i`` is row i's margin
    term).

    Only the columns in the ranges ``[col_lo[j], col_hi[j])`` are read: blocks with
    ``colw = 0`` (kernels at weight 0) add exactly 0 to every score and update, so leaving
    them out changes nothing but the summation order, and a solve at a face of the simplex
    (Algorithm 1's boundary probes) reads fewer columns per coordinate.

    ``stop_above``: the solve also stops after a pass whose dual value
    :math:`\\sum_i\\alpha_i - \\tfrac12\\|w\\|^2 - \\tfrac12 b_w^2` (``b_w = bias``, the
    constant feature's weight) exceeds it — a certificate that the SVM's optimum, hence
    :math:`J`, is above ``stop_above`` (``inf``: never). Returns (passes, converged,
    stopped above).
    """
    n = Z.shape[0]
    nr = len(col_lo)
    order = np.empty(n, dtype=np.int64)  # the active rows are order[:active]
    active = 0
    check = True  # next pass: the gradient of every row at the current w
    pg_max_old = np.inf
    pg_min_old = -np.inf
    passes = 0
    work = 0  # coordinates visited; the cap is max_epochs full passes' worth
    converged = False
    above = False
    check_above = stop_above < np.inf
    cold = True
    for i in range(n):
        if alpha[i] != 0.0:
            cold = False
            break
    if cold:  # w = 0: every G_i = −1, no pass needed to know it; no row is shrunk
        grad[:] = -1.0
        active = _active_rows(order, grad, alpha, upper, qdiag, pg_max_old, pg_min_old)
        check = False
    while work < max_epochs * n:
        passes += 1
        if check:
            # all rows, w fixed: the stopping test on the exact projected gradients, and
            # the active set (liblinear's shrinking rule with this pass's extremes)
            work += n
            pg_max, pg_min = _gradient_pass(
                Z, y, upper, qdiag, alpha, beta, bias[0] * s, col_lo, col_hi, grad
            )
            if pg_max - pg_min <= tol:
                converged = True
                break
            pg_max_old = pg_max if pg_max > 0.0 else np.inf
            pg_min_old = pg_min if pg_min < 0.0 else -np.inf
            active = _active_rows(order, grad, alpha, upper, qdiag, pg_max_old, pg_min_old)
            check = False
            continue
        work += max(active, 1)
        for k in range(active - 1, 0, -1):
            j = rng_int(rng_state, k + 1)
            order[k], order[j] = order[j], order[k]
        pg_max = -np.inf
        pg_min = np.inf
        k = 0
        while k < active:
            i = order[k]
            G = y[i] * _row_score(Z, i, beta, bias[0] * s, col_lo, col_hi) - 1.0
            a = alpha[i]
            PG = 0.0
            if a <= 0.0:
                if G > pg_max_old:  # shrink: stays at 0
                    active -= 1
                    order[k], order[active] = order[active], order[k]
                    continue
                if G < 0.0:
                    PG = G
            elif a >= upper[i]:
                if G < pg_min_old:  # shrink: stays at U_i
                    active -= 1
                    order[k], order[active] = order[active], order[k]
                    continue
                if G > 0.0:
                    PG = G
            else:
                PG = G
            pg_max = max(pg_max, PG)
            pg_min = min(pg_min, PG)
            if abs(PG) > 1e-12:
                new = min(max(a - G / qdiag[i], 0.0), upper[i])
                d = (new - a) * y[i]
                alpha[i] = new
                for j in range(nr):
                    zi = Z[i, col_lo[j] : col_hi[j]]
                    bj = beta[col_lo[j] : col_hi[j]]
                    cj = colw[col_lo[j] : col_hi[j]]
                    for r in range(zi.shape[0]):
                        bj[r] += d * cj[r] * zi[r]
                bias[0] += d * s
            k += 1
        if check_above:
            dual = -0.5 * bias[0] * bias[0]
            for i in range(n):
                dual += alpha[i]
            for j in range(nr):
                for r in range(col_lo[j], col_hi[j]):
                    dual -= 0.5 * beta[r] * beta[r] / colw[r]
            if dual > stop_above:
                above = True
                break
        if pg_max - pg_min <= tol:
            check = True  # converged on the active set: test every row
            continue
        pg_max_old = pg_max if pg_max > 0.0 else np.inf
        pg_min_old = pg_min if pg_min < 0.0 else -np.inf
    return passes, converged, above


class LinearSVMObjective:
    """:math:`J(\\mu)` and its gradient for the multi-Nyström features (one linear SVM each).

    Parameters
    ----------
    Z : ndarray (n, R)
        Unscaled concatenated maps :math:`[\\Phi_1, \\dots, \\Phi_M]`.
    block_sizes : ndarray (M,)
    y : ndarray (n,) of ±1
    upper : ndarray (n,)
        Box constraints :math:`C_i` (class costs).
    intercept_scaling, tol, max_epochs, rng_state
        Of the dual coordinate descent.
    descent_tol : float or None
        Looser tolerance of the solves made until :meth:`tighten` is called (``None`` or
        ≤ ``tol``: every solve at ``tol``); see :func:`reduced_gradient_mkl`.

    ``self(mu)`` returns ``(J, g, state)`` with :math:`g_m = \\|\\Phi_m^T(\\alpha\\circ y)\\|^2
    = -2\\,\\partial J/\\partial\\mu_m` and
    ``state = (alpha, beta, b, epochs, S, converged)``; ``J`` is
    the primal objective :math:`\\tfrac12\\|w\\|^2 + \\tfrac12 (b/s)^2 + \\sum_i C_i \\xi_i`
    at :math:`w = \\sum_i \\alpha_i y_i z_i`, :math:`S = \\sum_i\\alpha_i - \\tfrac12 (b/s)^2`
    (:meth:`dual_constant`) and ``converged`` says whether the solve met its tolerance
    (else it stopped at ``max_epochs`` or on a probe's certificate). Each call warm-starts
    from the ``α`` of the nearest of the last few ``μ`` evaluated (:meth:`_warm_start`).
    """

    def __init__(
        self,
        Z: np.ndarray,
        block_sizes: ArrayLike,
        y: np.ndarray,
        upper: np.ndarray,
        intercept_scaling: float,
        tol: float,
        max_epochs: int,
        rng_state: np.ndarray,
        descent_tol: float | None = None,
    ):
        self.Z = Z
        self.sizes = np.asarray(block_sizes)
        self.starts = np.concatenate([[0], np.cumsum(self.sizes)])
        self.y = y
        self.upper = upper
        self.s = float(intercept_scaling)
        self.final_tol = float(tol)
        self.tol = max(self.final_tol, float(descent_tol or 0.0))
        self.max_epochs = int(max_epochs)
        self.rng_state = rng_state
        # per-row squared norm of each block, without an n × R temporary
        pairs = itertools.pairwise(self.starts)
        self.block_sqnorms = np.stack(
            [np.einsum("ij,ij->i", Z[:, a:b], Z[:, a:b]) for a, b in pairs], axis=1
        )
        self.alpha = np.zeros(Z.shape[0])
        self.u = np.zeros(Z.shape[1])  # Φ^T(α∘y) of self.alpha
        self._starts: list[tuple] = []  # recent (μ, α, converged, Φ^T(α∘y))
        self.epochs: list[int] = []

    #: Solutions kept for warm starts.
    KEEP = 6

    def _warm_start(self, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A copy of the ``α`` of the kept solve whose ``μ`` is nearest (L1) to ``mu``, and
        its :math:`\\Phi^T(\\alpha\\circ y)` (computed after that solve, so the start costs
        no pass over the features).

        The reduced gradient evaluates J far out (where a weight reaches 0) and then back
        inside the segment; starting each solve from the nearest previous ``μ``'s ``α``
        instead of the last one's saves most of the passes of those returns. Only solves
        that reached the tolerance are candidates, the latest of equally near ones; after
        a capped solve (the most work done so far) its ``α`` is continued.
        """
        done = [(m, a, u) for m, a, converged, u in self._starts if converged]
        if not self._starts or not self._starts[-1][2] or not done:
            # the last solve hit its cap: it holds the most work, continue it
            return self.alpha.copy(), self.u
        dist = [float(np.abs(m - mu).sum()) for m, _, _ in done]
        # ties (MKL re-solving at the same μ) go to the latest: it holds the most work
        nearest = len(dist) - 1 - int(np.argmin(dist[::-1]))
        _, a, u = done[nearest]
        return a.copy(), u

    @staticmethod
    def solved(state: tuple[Any, ...]) -> bool:
        """Whether the solve of ``state`` met its tolerance (after :meth:`tighten`, the
        final one): solving again at the same ``μ`` would then change nothing."""
        return bool(state[5])

    def tighten(self) -> bool:
        """Switch the later solves from the descent tolerance to the final one; ``True``
        if that changed anything (the caller then re-solves at its current ``μ``)."""
        if self.tol <= self.final_tol:
            return False
        self.tol = self.final_tol
        return True

    def _column_ranges(self, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Column ranges of the blocks with ``μ_m > 0`` (adjacent blocks merged)."""
        lo: list[int] = []
        hi: list[int] = []
        for m in np.flatnonzero(mu > 0):
            a, b = int(self.starts[m]), int(self.starts[m + 1])
            if hi and hi[-1] == a:
                hi[-1] = b
            else:
                lo.append(a)
                hi.append(b)
        return np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64)

    def block_norms(self, v: np.ndarray) -> np.ndarray:
        """:math:`\\|v_m\\|^2` per block of a length-R vector; 0 for a block without
        columns (a kernel that kept no eigenvalue: ``np.add.reduceat`` would read an empty
        slice as the next entry, and fail on an empty last block)."""
        out = np.zeros(len(self.sizes))
        filled = self.sizes > 0
        if filled.any():
            out[filled] = np.add.reduceat(v * v, self.starts[:-1][filled])
        return out

    #: ``self(mu, stop_above=J)`` is supported (see :func:`reduced_gradient_mkl`).
    stops_above = True

    def __call__(self, mu: np.ndarray, stop_above: float = np.inf):
        """``(J, g, state)`` at ``mu``; with a finite ``stop_above`` the solve may end as
        soon as its dual value proves :math:`J(\\mu) >` ``stop_above``: then ``J`` and ``g``
        are those of that partial ``α`` (``J`` still the primal value, above the
        certificate) and the solve is not kept as a warm start."""
        colw = np.repeat(mu, self.sizes)
        qdiag = self.block_sqnorms @ mu + self.s * self.s
        alpha, u = self._warm_start(mu)
        ay = alpha * self.y
        beta = colw * u
        bias = np.array([self.s * ay.sum()])
        col_lo, col_hi = self._column_ranges(mu)
        grad = np.empty(self.Z.shape[0])
        epochs, converged, above = _dcd_hinge(
            self.Z, colw, self.y, self.upper, qdiag, alpha, beta, bias, self.s, self.tol,
            self.max_epochs, self.rng_state, col_lo, col_hi, float(stop_above), grad,
        )  # fmt: skip
        ay = alpha * self.y
        u = _feature_product(self.Z, ay, np.empty(self.Z.shape[1]))  # Φ^T(α∘y), recomputed
        if not above:
            self.alpha, self.u = alpha, u
            self._starts = [
                *self._starts[-(self.KEEP - 1) :],
                (mu.copy(), alpha.copy(), converged, u),
            ]
        self.epochs.append(int(epochs))
        g = self.block_norms(u)
        beta = colw * u
        wb = self.s * ay.sum()
        b = wb * self.s
        if converged:
            # the solve's last pass computed every y_i w·z_i − 1 at its final w
            margins = -grad
        else:
            margins = 1.0 - self.y * (self.Z @ beta + b)
        J = 0.5 * float(mu @ g) + 0.5 * wb * wb + float(self.upper @ np.maximum(margins, 0.0))
        S = float(alpha.sum()) - 0.5 * wb * wb
        return J, g, (alpha, beta, b, int(epochs), S, bool(converged))

    @staticmethod
    def dual_constant(state: tuple[Any, ...]) -> float:
        """:math:`\\sum_i \\alpha_i - \\tfrac12 (b/s)^2`: the MKL dual at ``α`` is this minus
        :math:`\\tfrac12 \\max_m g_m` (see :func:`mkl_duality_gap`)."""
        return state[4]


# --------------------------------------------------------------------------- reduced gradient
def _project(mu: np.ndarray) -> np.ndarray:
    mu = np.where(mu > MU_ZERO, mu, 0.0)
    return mu / mu.sum()


def reduced_direction(mu: np.ndarray, grad: np.ndarray) -> tuple[np.ndarray, int]:
    """Descent direction on the simplex (Eqs. 19–21): returns ``(D, m̂)``, m̂ = argmax μ."""
    top = int(np.argmax(mu))
    rg = grad - grad[top]
    D = np.where((mu > 0) | (rg < 0), -rg, 0.0)
    D[top] = 0.0
    D[top] = -D.sum()
    return D, top


def line_search(
    objective: Callable,
    mu: np.ndarray,
    D: np.ndarray,
    step_max: float,
    at_zero: tuple[float, np.ndarray, Any],
    at_max: tuple[float, np.ndarray, Any],
    slope_tol: float = 0.1,
    max_evals: int = 8,
) -> tuple[float, float, np.ndarray, Any, int]:
    """Minimise ``J(μ + γD)`` over ``γ ∈ [0, step_max]`` using the directional derivative.

    Every evaluation of ``J`` also gives its gradient, hence the slope
    :math:`J'(\\gamma) = -\\tfrac12 D^T g(\\gamma)`; ``J`` is convex along the segment, so
    its minimiser is the zero of the slope, bracketed by ``J'(0) < 0`` and the slope at
    ``step_max``. The zero is found by regula falsi with the Illinois modification
    (bisection while an end has no finite slope, and, while no point has lowered ``J``,
    for the next point whenever the bracket did not halve over the last two evaluations:
    with slopes of very different sizes at its ends regula falsi creeps from the far end
    and used up its evaluations above ``J(0)``), and the search stops when
    :math:`|J'(\\gamma)| \\le` ``slope_tol`` · :math:`|J'(0)|` (a strong Wolfe condition) at a
    point that did not certainly raise ``J`` (its ``J`` less the solve's own gap,
    :func:`svm_gap`, is at most ``J(0)``), or after ``max_evals`` evaluations. A small slope
    where ``J`` certainly went up does not stop it: ``J`` then fell steeply from 0 and rose
    slowly past its minimiser (a kernel whose gradient blows up at weight 0), which lies
    before that point, so the bracket shrinks to it (stopping there returned γ = 0 and ended
    MKL far from its optimum).
    ``at_zero``, ``at_max`` are ``(J, g, state)`` at the ends. Returns ``(γ, J, g, state)``
    and the number of evaluations: the point that met the slope test when it lowered ``J``
    below ``J(0)`` (with inexact solves, the ``J`` of nearby points differ by less than each
    solve's own gap, so "lowest ``J``" there picks noise), otherwise the evaluated point
    with the lowest ``J``.
    """
    d0 = -0.5 * float(D @ at_zero[1])
    best = min((0.0, *at_zero), (step_max, *at_max), key=lambda t: t[1])
    with np.errstate(invalid="ignore"):
        d_max = -0.5 * float(D @ at_max[1])
    if np.isfinite(d_max) and d_max <= 0.0 and at_max[0] > at_zero[0]:
        # J rose along a convex segment, so its slope at the end is positive: a slope ≤ 0
        # there is an artefact of an inexact solve (e.g. a stopped probe); bisect instead
        d_max = np.inf
    if not d0 < 0.0 or (np.isfinite(d_max) and d_max <= 0.0):
        return (*best, 0)
    lo, d_lo, hi, d_hi = 0.0, d0, step_max, d_max
    side = 0
    count = 0
    widths = [np.inf, np.inf]  # of the bracket before the last two evaluations
    while count < max_evals:
        # safeguard: while no point has lowered J, regula falsi whose bracket did not halve
        # in two evaluations (slopes of very different sizes at its ends, e.g. next to a
        # kernel whose gradient blows up at weight 0) bisects instead; searches that found
        # a decrease keep their points
        slow = best[0] == 0.0 and hi - lo > 0.5 * widths[0]
        widths = [widths[1], hi - lo]
        if np.isfinite(d_hi) and not slow:
            gamma = lo - d_lo * (hi - lo) / (d_hi - d_lo)
            gamma = min(max(gamma, lo + 1e-3 * (hi - lo)), hi - 1e-3 * (hi - lo))
        else:
            gamma = 0.5 * (lo + hi)
        point = _project(np.maximum(mu + gamma * D, 0.0))
        J, g, st = objective(point)
        count += 1
        if J < best[1]:
            best = (gamma, J, g, st)
        with np.errstate(invalid="ignore"):
            d = -0.5 * float(D @ g)
        # a small slope ends the search unless J is certainly above J(0) there: its value
        # less the solve's own gap (J of the exact SVM lies between) still exceeds J(0)
        if abs(d) <= slope_tol * abs(d0) and (
            J < at_zero[0] or J - svm_gap(objective, point, J, g, st) <= at_zero[0]
        ):
            if J < at_zero[0]:
                best = (gamma, J, g, st)
            break
        if d < 0.0:
            lo, d_lo = gamma, d
            if side == -1:  # Illinois: the other end was kept twice, halve its slope
                d_hi *= 0.5
            side = -1
        else:
            hi, d_hi = gamma, d
            if side == 1:
                d_lo *= 0.5
            side = 1
    return (*best, count)


def mkl_duality_gap(
    objective: Callable, mu: np.ndarray, J: float, g: np.ndarray, state: object
) -> float:
    """SimpleMKL's duality gap [2]_: :math:`J + \\tfrac12 \\max_m g_m - S(\\alpha)`.

    :math:`S(\\alpha) - \\tfrac12\\max_m g_m` is the MKL dual at the SVM's ``α``, a lower bound
    of :math:`\\min_\\mu J`, and ``J`` (an SVM objective at μ) an upper bound; ``S`` comes from
    ``objective.dual_constant(state)``. For an objective without that method ``J`` is taken
    to be the SVM's exact dual value :math:`\\sum\\alpha - \\tfrac12 \\mu^T g`, so
    :math:`S = J + \\tfrac12 \\mu^T g` and the gap is :math:`\\tfrac12(\\max_m g_m - \\mu^T g)`.

    With :class:`LinearSVMObjective` ``J`` is the *primal* objective at the current ``α``, so
    the gap also contains the SVM's own primal–dual gap: a solve stopped early (a capped
    number of epochs, large C) cannot make the relative gap look small, which the
    :math:`\\tfrac12(\\max_m g_m - \\mu^T g)` form alone did (it ended MKL at μ = 1/M).
    """
    dual_constant = getattr(objective, "dual_constant", None)
    if dual_constant is None:
        return 0.5 * float(g.max() - mu @ g)
    return float(J) + 0.5 * float(g.max()) - float(dual_constant(state))


def svm_gap(objective: Callable, mu: np.ndarray, J: float, g: np.ndarray, state: object) -> float:
    """The SVM solve's own primal–dual gap at ``μ``: :math:`J - (S - \\tfrac12\\mu^T g)`
    (0 for an objective without ``dual_constant``, whose ``J`` is taken as exact)."""
    dual_constant = getattr(objective, "dual_constant", None)
    if dual_constant is None:
        return 0.0
    return float(J) - (float(dual_constant(state)) - 0.5 * float(mu @ g))


def warn_mkl_stop(est: MultiNystroemMKL | SimpleMKL, res: dict) -> None:
    """A ConvergenceWarning when :func:`reduced_gradient_mkl` stopped with a duality gap
    above ``tol`` · J: at ``max_iter`` (more than 1: ``max_iter=1`` is the documented way to
    keep μ = 1/M), or where no step lowered J. ``duality_gap_`` alone left such a result
    (up to 16 × ``tol`` on ordinary data at C = 100) looking like a converged one."""
    J, gap = float(res["J"]), float(res["gap_history"][-1])
    if not gap > est.tol * abs(J):
        return
    name = type(est).__name__
    if res["stop"] == "max_iter":
        if est.max_iter <= 1:
            return
        why = (
            f"stopped at max_iter={est.max_iter} iterations with an MKL duality gap of "
            f"{gap / abs(J):.2g} × J, above tol={est.tol}: the kernel weights mu_ may be "
            "far from optimal. Increase max_iter."
        )
    else:
        why = (
            f"stopped where no step of the kernel weights lowered J, with an MKL duality "
            f"gap of {gap / abs(J):.2g} × J, above tol={est.tol} (after {res['n_iter']} "
            f"of max_iter={est.max_iter} iterations): the comparisons of J are as exact as "
            "the SVM solves, so mu_ may be far from optimal. A smaller svm_tol may let the "
            "descent go on; duality_gap_ is the bound on J − min J."
        )
    warnings.warn(f"{name}: {why}", ConvergenceWarning, stacklevel=user_stacklevel())


def reduced_gradient_mkl(
    objective: Callable, n_kernels: int, max_iter: int, tol: float, slope_tol: float = 0.1
) -> dict:
    """SimpleMKL's reduced-gradient descent of ``objective(mu) -> (J, g, state)``.

    ``g_m = -2 ∂J/∂μ_m``. Stops when :func:`mkl_duality_gap` ≤ ``tol`` · J (SimpleMKL's
    relative criterion), after ``max_iter`` iterations, or when an iteration cannot move μ
    — unless the SVM's own gap (:func:`svm_gap`) is above ``tol/2`` · J: then the
    comparisons of J were not reliable, and the iteration continues the (warm-started) solve
    at the same μ instead, provided that solve has not met the final tolerance already (an
    objective's ``solved(state)``; solving it again would change nothing, so the fit stops
    with a gap limited by the SVM's tolerance). Returns a dict with ``mu``, ``J``, ``g``,
    ``state``, ``n_iter``, ``objective_history`` (J after each iteration, first entry at
    μ = 1/M),
    ``gap_history`` (duality gap at each of those points), ``n_evaluations`` and ``stop``:
    ``"tol"`` (the gap met ``tol``), ``"max_iter"`` or ``"no_move"`` (no step lowered J).
    A final iteration that could not move μ adds nothing to the history or to ``n_iter``
    (it is the point before it, whose J is already the last entry).

    Inexact solves: an objective with a ``tighten()`` method (:class:`LinearSVMObjective`
    with a ``descent_tol``) solves loosely during the descent. When a stopping test passes
    on such a solve, ``tighten()`` switches to the final tolerance, the SVM at the same μ is
    solved again (warm-started; it replaces the point's J in the history) and the test is
    repeated on it; if it no longer passes the descent continues with tight solves. An
    iteration whose J comparisons were unreliable (SVM gap above ``tol/2`` · J, see above)
    also switches to the final tolerance. So the returned μ and SVM always come from a
    solve at the final tolerance, and the duality gap of the stop is that solve's.
    """
    mu = np.full(n_kernels, 1.0 / n_kernels)
    J, g, state = objective(mu)
    n_eval = 1
    history, gaps = [float(J)], []
    n_iter = 1  # iterations of the outer loop; each has J(μ) and its gradient
    tighten = getattr(objective, "tighten", None)

    def continue_solve() -> bool:
        # the SVM at μ is not solved well enough to trust the comparisons of J: continue
        # its solve at the final tolerance, unless it already met that tolerance (solving
        # again would change nothing; the gap is then limited by the SVM's tolerance)
        nonlocal J, g, state, n_eval
        tightened = tighten is not None and tighten()
        solved = getattr(objective, "solved", None)
        if not tightened and solved is not None and solved(state):
            return False
        J, g, state = objective(mu)
        n_eval += 1
        return True

    def refine() -> bool:
        # a stop decided on a descent-tolerance solve: redo that solve at the final tolerance
        nonlocal J, g, state, n_eval
        if tighten is None or not tighten():
            return False
        J, g, state = objective(mu)
        n_eval += 1
        history[-1] = float(J)
        return True

    while True:
        gap = mkl_duality_gap(objective, mu, J, g, state)
        if (gap <= tol * abs(J) or n_iter >= max_iter) and refine():
            gap = mkl_duality_gap(objective, mu, J, g, state)
        gaps.append(gap)
        if gap <= tol * abs(J) or n_iter >= max_iter:
            stop = "tol" if gap <= tol * abs(J) else "max_iter"
            break
        stop = "no_move"
        D, top = reduced_direction(mu, -0.5 * g)
        if not (D < 0).any():
            if svm_gap(objective, mu, J, g, state) <= 0.5 * tol * abs(J):
                if refine():
                    gaps.pop()
                    continue
                break
            # μ is optimal for this α, but the SVM is not solved: continue its solve (at
            # the final tolerance: a loose solve is what made the comparisons unreliable)
            if not continue_solve():
                break
            history.append(float(J))
            n_iter += 1
            continue
        start = mu
        # Algorithm 1, lines 10-15: go to the boundary while J decreases
        while True:
            neg = np.flatnonzero(D < 0)
            ratios = -mu[neg] / D[neg]
            step_max = float(ratios.min())
            mu_b = mu + step_max * D
            mu_b[neg[np.argmin(ratios)]] = 0.0
            mu_b = _project(np.maximum(mu_b, 0.0))
            if getattr(objective, "stops_above", False):
                # the probe only asks whether J went up: its solve may stop once its dual
                # proves J(μ_b) > J (then J_b, g_b are of that partial solve)
                J_b, g_b, st_b = objective(mu_b, stop_above=J)
            else:
                J_b, g_b, st_b = objective(mu_b)
            n_eval += 1
            if J_b >= J:
                break
            mu, J, g, state = mu_b, J_b, g_b, st_b
            # weights at zero stop moving; the fixed weight m̂ balances the rest
            D = np.where((mu > 0) | (D > 0), D, 0.0)
            D[top] = 0.0
            D[top] = -D.sum()
            if not (D < 0).any():
                step_max = 0.0
                break
        # line 16: line search on [0, step_max]
        if step_max > 0.0:
            gamma, J_new, g_new, st_new, k = line_search(
                objective, mu, D, step_max, (J, g, state), (J_b, g_b, st_b), slope_tol
            )
            n_eval += k
            if gamma > 0.0:
                mu = _project(np.maximum(mu + gamma * D, 0.0))
                J, g, state = J_new, g_new, st_new
        if (
            np.array_equal(mu, start)
            and svm_gap(objective, mu, J, g, state) > 0.5 * tol * abs(J)
            and continue_solve()
        ):
            # no step, but the SVM at μ is not solved well enough to trust the comparisons
            # of J (its own gap is most of the MKL gap): its solve was continued at the
            # same μ, at the final tolerance
            start = None
        history.append(float(J))
        n_iter += 1
        if start is not None and np.array_equal(mu, start):
            if refine():
                continue
            # the iteration moved nothing: it is the point before it, not a new one
            # (history and n_iter would list the last J twice)
            history.pop()
            n_iter -= 1
            gaps[-1] = mkl_duality_gap(objective, mu, J, g, state)
            break
    return {
        "mu": mu,
        "J": J,
        "g": g,
        "state": state,
        "n_iter": n_iter,
        "objective_history": history,
        "gap_history": gaps,
        "n_evaluations": n_eval,
        "stop": stop,
    }


# --------------------------------------------------------------------------- estimators
def _class_weight_value(value) -> float:
    """A class weight as a float, or NaN (refused by the caller) for text and anything
    ``float`` does not take."""
    if isinstance(value, (str, bytes)):
        return float("nan")
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def class_costs(est: MultiNystroemMKL | SimpleMKL, y: np.ndarray) -> np.ndarray:
    """Per-sample box constraints ``C · weight(class)`` from ``est.C`` and ``est.class_weight``.

    ``"balanced"``: weight ``n / (2 n_c)`` (scikit-learn's rule); a dict maps each class
    label (original labels) to its weight, so ``{pos: C+/C, neg: C-/C}`` gives explicit
    costs; ``None``: weight 1.
    """
    pos = y > 0
    cw = est.class_weight
    if cw is None:
        wp = wn = 1.0
    elif isinstance(cw, str):
        wp = len(y) / (2.0 * pos.sum())
        wn = len(y) / (2.0 * (~pos).sum())
    else:
        labels = set(cw)
        known = {est.pos_label_, est._neg_label()}
        if not labels <= known:
            raise ValueError(
                f"class_weight keys [{value_list(sorted(labels, key=repr))}] must be class "
                f"labels [{value_list(sorted(known, key=repr))}]; use a dict keyed by the "
                "labels of y."
                + _encoded_labels_hint(
                    est.classes_, "class_weight", "Key class_weight by 0 and 1, use 'balanced'"
                )
            )
        # text is not read as a number, and an infinite cost would leave the SVM solves
        # without a bound (MultiNystroemMKL's looped forever on NaN objectives)
        weights = [_class_weight_value(cw.get(c, 1.0)) for c in (est.pos_label_, est._neg_label())]
        if not all(0 < w < np.inf for w in weights):
            raise ValueError(
                f"class_weight values must be > 0 and finite numbers; got {cw!r}. Give each "
                "class a positive float weight (its cost is C × weight)."
            )
        wp, wn = weights
    with np.errstate(over="ignore"):
        costs = (float(np.float64(est.C) * wp), float(np.float64(est.C) * wn))
    if not all(np.isfinite(costs)):
        raise ValueError(
            f"C × class_weight overflows float64 (C={est.C!r}, weights {wp!r} and {wn!r}); "
            "use a smaller C or smaller class weights."
        )
    return np.where(pos, costs[0], costs[1])


#: Cap on the SMO iterations of each of SimpleMKL's ``SVC`` solves (SVMDEC's default
#: ``max_iter``): libsvm never meets a ``svm_tol`` below float64's rounding, and without a
#: cap such a solve never returned. Ordinary solves need far fewer; a capped one ends with
#: scikit-learn's ConvergenceWarning.
_SVC_MAX_ITER = 10_000_000

_MKL_CONSTRAINTS: dict = {
    "C": [Interval(numbers.Real, 0, None, closed="neither")],
    "class_weight": [StrOptions({"balanced"}), dict, None],
    "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
    "tol": [Interval(numbers.Real, 0, None, closed="left")],
}


class MultiNystroemMKL(BatchClassifier):
    """Multi-Nyström SVM with mixture weights learned by reduced-gradient MKL.

    Builds ``M`` Nyström maps on class-stratified landmark subsets (one kernel each, see
    :class:`~skewlearn.MultiNystroem`) and learns the weights :math:`\\mu \\in \\Delta`
    jointly with a cost-sensitive SVM on
    :math:`\\tilde K_\\mu = \\sum_m \\mu_m \\Phi_m \\Phi_m^T` (Eqs. 13–15 of [1]_):

    .. math::  \\min_{\\mu \\in \\Delta} J(\\mu),\\qquad
               \\frac{\\partial J}{\\partial \\mu_m} = -\\tfrac12 \\frac{\\|w_m\\|^2}{\\mu_m}
               = -\\tfrac12 \\|\\Phi_m^T(\\alpha \\circ y)\\|^2 \\quad \\text{(Eq. 18)}

    by the reduced gradient with line search of Algorithm 1 (Eqs. 19–21; SimpleMKL [2]_).
    Each :math:`J(\\mu)` is a linear SVM on :math:`[\\sqrt{\\mu_m}\\Phi_m]_m` solved by
    warm-started dual coordinate descent (see :mod:`skewlearn.batch.mkl`). The decision is
    :math:`f(x) = \\sum_m \\mu_m \\Phi_m(x)^T \\Phi_m^T(\\alpha\\circ y) + b`.

    Parameters
    ----------
    kernels : list or tuple of dict, or None, default=None
        One kernel per landmark subset (see :class:`~skewlearn.MultiNystroem`); ``None`` =
        three Gaussians at ``gamma`` = ``"scale"`` × (1/4, 1, 4).
    n_landmarks : int ≥ 1, default=100
        Landmarks per subset.
    rank : int ≥ 1 or None, default=None
        Rank per subset (``None`` = ``n_landmarks``).
    sampling : {"stratified", "uniform"}, default="stratified"
        Class-stratified (balanced) landmarks, the paper's scheme, or uniform.
    jitter : float ≥ 0, default=1e-10
        Added to the diagonal of each ``W_m``.
    C : float > 0, default=1.0
        SVM cost (the paper uses 100).
    class_weight : "balanced", dict or None, default="balanced"
        Class costs :math:`C_\\pm = C \\cdot` weight: ``"balanced"`` = ``n / (2 n_c)``; a dict
        ``{label: weight}`` gives explicit costs; ``None`` = equal.
    intercept_scaling : float > 0, default=1.0
        Value of the constant feature whose (regularised) weight is the intercept.
    max_iter : int ≥ 1, default=20
        Maximum iterations of the outer loop of Algorithm 1 (each solves the SVM at the
        current μ and takes one descent step unless it stops); ``1`` keeps ``μ = 1/M``.
    tol : float ≥ 0, default=0.01
        Stop when the MKL duality gap (SimpleMKL's, which here also counts the SVM solve's
        own primal–dual gap) ≤ ``tol`` · J (SimpleMKL's default 0.01). A fit that stops
        above it (at ``max_iter`` > 1, or where no step of μ lowers J) ends with a
        ConvergenceWarning that names the cause.
    svm_tol : float > 0, default=1e-2
        Stop each SVM solve when the projected-gradient range ≤ ``svm_tol`` (liblinear's
        default for this solver is 0.1, scikit-learn ``LinearSVC``'s 1e-4).
    descent_svm_tol : float > 0 or None, default=0.1
        Looser ``svm_tol`` for the solves made while the MKL descends (liblinear's default
        for this solver). The solve at which a stopping test passes is redone at
        ``svm_tol`` and the test repeated on it (the descent continues with tight solves if
        it fails), so ``mu_``, the SVM and ``duality_gap_`` come from a converged solve.
        ``None`` (or a value ≤ ``svm_tol``): every solve at ``svm_tol``.
    svm_max_epochs : int ≥ 1, default=200
        Cap on the work of each solve, in full passes over the rows (a pass over a shrunk
        active set of ``a`` rows counts ``a / n``). The solves are warm-started, so a capped
        solve is continued by the next one; a ConvergenceWarning says when the SVM at the
        returned ``mu_`` itself stopped at the cap and the duality gap is above ``tol``.
    n_jobs : int or None, default=None
        joblib workers for the feature maps (threads; Dask inside
        ``joblib.parallel_config(backend="dask")``, see :class:`~skewlearn.MultiNystroem`).
    random_state : int, RandomState or None, default=None
        Seeds the landmark draws and the coordinate order.
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.

    Attributes
    ----------
    classes_, pos_label_
    feature_map_ : MultiNystroem
        The fitted maps, with ``mu_`` set to the learned weights.
    mu_ : ndarray of shape (M,)
        Learned mixture weights (on the simplex).
    block_coef_ : ndarray of shape (n_components,)
        :math:`\\mu_m \\Phi_m^T(\\alpha\\circ y)` per block: the weights on the unscaled maps.
    bias_ : float
        Intercept.
    n_iter_ : int
        Iterations of the outer loop (descent steps taken + 1; 1 when μ = 1/M was optimal;
        a final iteration that found no step lowering J is not counted).
    objective_history_ : list of float
        J(μ) at the start of each counted iteration, ``n_iter_`` values, the last at the
        returned μ (non-increasing when the SVM solves converge; a capped solve makes it
        noisy).
    duality_gap_ : float
        Final MKL duality gap.
    n_svm_solves_ : int

    References
    ----------
    .. [1] Multi-Nyström with MKL for imbalanced classification (seed 003), Algorithm 1.
    .. [2] A. Rakotomamonjy et al., "SimpleMKL", JMLR 9, 2008.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import MultiNystroemMKL
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(400, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.5).astype(int)
    >>> clf = MultiNystroemMKL(kernels=[{"gamma": 0.05}, {"gamma": 2.0}], n_landmarks=30,
    ...                        random_state=0).fit(X, y)
    >>> bool(np.isclose(clf.mu_.sum(), 1.0)), bool(clf.mu_[1] > clf.mu_[0])
    (True, True)
    >>> float(clf.score(X, y)) > 0.9
    True
    """

    _parameter_constraints: ClassVar[dict] = {
        **BatchClassifier._parameter_constraints,
        "kernels": [list, tuple, None],
        "n_landmarks": [Interval(numbers.Integral, 1, None, closed="left")],
        "rank": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "sampling": [StrOptions({"uniform", "stratified"})],
        "jitter": [Interval(numbers.Real, 0, None, closed="left")],
        **_MKL_CONSTRAINTS,
        "intercept_scaling": [Interval(numbers.Real, 0, None, closed="neither")],
        "svm_tol": [Interval(numbers.Real, 0, None, closed="neither")],
        "descent_svm_tol": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "svm_max_epochs": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_jobs": [numbers.Integral, None],
        "random_state": ["random_state"],
    }
    _test_params: ClassVar[list[dict[str, Any]]] = [
        {"n_landmarks": 10, "max_iter": 3},
        {"kernels": [{"gamma": 0.5}], "n_landmarks": 8, "sampling": "uniform", "C": 10.0},
    ]
    _accept_sparse = "csr"

    def __init__(
        self,
        kernels: list[dict] | tuple[dict, ...] | None = None,
        n_landmarks: int = 100,
        rank: int | None = None,
        sampling: str = "stratified",
        jitter: float = 1e-10,
        C: float = 1.0,
        class_weight: str | dict[Any, float] | None = "balanced",
        intercept_scaling: float = 1.0,
        max_iter: int = 20,
        tol: float = 0.01,
        svm_tol: float = 1e-2,
        descent_svm_tol: float | None = 0.1,
        svm_max_epochs: int = 200,
        n_jobs: int | None = None,
        random_state: RandomStateLike = None,
        pos_label: Label | None = None,
    ):
        self.kernels = kernels
        self.n_landmarks = n_landmarks
        self.rank = rank
        self.sampling = sampling
        self.jitter = jitter
        self.C = C
        self.class_weight = class_weight
        self.intercept_scaling = intercept_scaling
        self.max_iter = max_iter
        self.tol = tol
        self.svm_tol = svm_tol
        self.descent_svm_tol = descent_svm_tol
        self.svm_max_epochs = svm_max_epochs
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.pos_label = pos_label

    def _fit_binary(self, X, y):
        upper = class_costs(self, y)
        rs = self.random_state
        if isinstance(rs, np.random.RandomState):
            rs = rs.randint(0, 2**31 - 1)
        fm = MultiNystroem(
            kernels=self.kernels,
            n_landmarks=self.n_landmarks,
            rank=self.rank,
            sampling=self.sampling,
            jitter=self.jitter,
            n_jobs=self.n_jobs,
            random_state=rs,
        )
        fm._validate_params()
        fm._fit_maps(X, y, owner=self)
        # the input bookkeeping MultiNystroem.fit would have made (the public feature_map_
        # then checks the width and column names of what it transforms)
        fm.n_features_in_ = self.n_features_in_
        if hasattr(self, "feature_names_in_"):
            fm.feature_names_in_ = self.feature_names_in_
        Z = np.ascontiguousarray(fm._features(X))
        objective = LinearSVMObjective(
            Z, fm.block_sizes_, y, upper, self.intercept_scaling, self.svm_tol,
            self.svm_max_epochs, seed_state(rs), self.descent_svm_tol,
        )  # fmt: skip
        res = reduced_gradient_mkl(objective, len(fm.kernel_params_), self.max_iter, self.tol)
        _, beta, b, _, _, converged = res["state"]
        J, gap = float(res["J"]), float(res["gap_history"][-1])
        if not converged and gap > self.tol * J:
            # the result is not certified (a capped solve whose gap is within tol is)
            warnings.warn(
                f"MultiNystroemMKL: the SVM at the returned kernel weights stopped at "
                f"svm_max_epochs={self.svm_max_epochs} passes before reaching "
                f"svm_tol={self.svm_tol}, and the MKL duality gap is {gap / J:.2g} × J "
                f"(tol={self.tol}): the weights were chosen by comparing unconverged "
                "objectives, and the model may be far from the optimum. Increase "
                "svm_max_epochs, or scale the features (e.g. sklearn.preprocessing."
                "StandardScaler), use a smaller C or an intercept_scaling near 1.",
                ConvergenceWarning,
                stacklevel=user_stacklevel(),
            )
        else:
            warn_mkl_stop(self, res)
        fm.mu_ = res["mu"]
        self.feature_map_ = fm
        self.mu_ = res["mu"]
        self.block_coef_ = beta
        self.bias_ = float(b)
        self.n_iter_ = res["n_iter"]
        self.objective_history_ = res["objective_history"]
        self.duality_gap_ = res["gap_history"][-1]
        self.n_svm_solves_ = res["n_evaluations"]

    def _decision(self, X):
        # CHUNK_ROWS rows at a time (score_chunks): the maps of every row (n × k per
        # kernel) are never held whole, and the scores keep the whole product's bits
        fm = self.feature_map_
        starts = np.concatenate([[0], np.cumsum(fm.block_sizes_)])
        active = [m for m in range(len(self.mu_)) if self.mu_[m] > 0]
        out = np.full(X.shape[0], self.bias_)
        for r0, r1 in score_chunks(X.shape[0]):
            part = out[r0:r1]
            for m, B in zip(active, fm._blocks(X[r0:r1], active)):
                part += B @ self.block_coef_[starts[m] : starts[m + 1]]
        return out


class SimpleMKL(BatchClassifier):
    """SimpleMKL on full kernel matrices (the MKSVM baseline of [1]_; small data only).

    Reduced-gradient MKL (Algorithm 1 of [1]_, [2]_) where each :math:`J(\\mu)` is
    scikit-learn's ``SVC(kernel="precomputed")`` on :math:`\\sum_m \\mu_m K_m`
    (exact kernels, O(n²) memory):

    .. math::  J(\\mu) = \\sum_i \\alpha_i - \\tfrac12 \\sum_m \\mu_m
               (\\alpha\\circ y)^T K_m (\\alpha\\circ y),\\qquad
               \\frac{\\partial J}{\\partial \\mu_m}
               = -\\tfrac12 (\\alpha\\circ y)^T K_m (\\alpha\\circ y) \\quad \\text{(Eqs. 15, 18)}

    Parameters
    ----------
    kernels : list or tuple of dict, or None, default=None
        As in :class:`~skewlearn.MultiNystroem` (``None`` = three Gaussians around
        ``"scale"``).
    C : float > 0, default=1.0
        SVM cost.
    class_weight : "balanced", dict or None, default="balanced"
        As in :class:`MultiNystroemMKL`.
    max_iter : int ≥ 1, default=20
        As in :class:`MultiNystroemMKL`: outer iterations of the reduced gradient.
    tol : float ≥ 0, default=0.01
        Relative MKL duality gap; a fit that stops above it warns, as
        :class:`MultiNystroemMKL` does.
    svm_tol : float > 0, default=1e-3
        ``SVC``'s ``tol``. Each solve is capped at 10,000,000 SMO iterations (SVMDEC's
        ``max_iter``) and ends there with scikit-learn's ConvergenceWarning: a ``svm_tol``
        below float64's rounding (e.g. 1e-300) is never met.
    pos_label : label, default=None
        The positive class; ``None`` means ``classes_[1]``.

    Attributes
    ----------
    mu_, n_iter_, objective_history_, duality_gap_, n_svm_solves_
        As in :class:`MultiNystroemMKL`.
    kernel_params_ : list of dict
    support_vectors_ : ndarray (n_SV, n_features)
    dual_coef_ : ndarray (n_SV,)
        :math:`\\alpha_i y_i` (+1 = ``pos_label``).
    bias_ : float

    References
    ----------
    .. [1] Multi-Nyström with MKL for imbalanced classification (seed 003), Section 4 (MKSVM).
    .. [2] A. Rakotomamonjy et al., "SimpleMKL", JMLR 9, 2008.

    Examples
    --------
    >>> import numpy as np
    >>> from skewlearn import SimpleMKL
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(150, 2))
    >>> y = (np.hypot(X[:, 0], X[:, 1]) < 0.5).astype(int)
    >>> clf = SimpleMKL(kernels=[{"gamma": 0.05}, {"gamma": 2.0}]).fit(X, y)
    >>> bool(clf.mu_[1] > clf.mu_[0]), float(clf.score(X, y)) > 0.9
    (True, True)
    """

    _parameter_constraints: ClassVar[dict] = {
        **BatchClassifier._parameter_constraints,
        "kernels": [list, tuple, None],
        **_MKL_CONSTRAINTS,
        "svm_tol": [Interval(numbers.Real, 0, None, closed="neither")],
    }
    _test_params: ClassVar[list[dict[str, Any]]] = [
        {"max_iter": 3},
        {"kernels": [{"gamma": 0.5}, {"kernel": "linear"}], "class_weight": None, "C": 10.0},
    ]
    _accept_sparse = False

    def __init__(
        self,
        kernels: list[dict] | tuple[dict, ...] | None = None,
        C: float = 1.0,
        class_weight: str | dict[Any, float] | None = "balanced",
        max_iter: int = 20,
        tol: float = 0.01,
        svm_tol: float = 1e-3,
        pos_label: Label | None = None,
    ):
        self.kernels = kernels
        self.C = C
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.tol = tol
        self.svm_tol = svm_tol
        self.pos_label = pos_label

    def _fit_binary(self, X, y):
        from sklearn.svm import SVC

        upper = class_costs(self, y)
        wp = float(upper[y > 0][0] / self.C)
        wn = float(upper[y < 0][0] / self.C)
        specs = resolve_kernels(self.kernels, X)
        n = X.shape[0]
        warn_large_fit(
            self, 8 * (len(specs) + 1) * n * n,
            f"{len(specs)} {n} × {n} kernel matrices and their weighted sum",
            "Use MultiNystroemMKL (low-rank Nyström maps: O(N · landmarks) memory), or "
            "fewer rows.",
        )  # fmt: skip
        Ks = [kernel_matrix(X, X, **spec) for spec in specs]
        for m, (K, spec) in enumerate(zip(Ks, specs)):
            check_kernel_values(K, spec, f"The kernel matrix of kernel {m}")

        def objective(mu):
            K = sum(w * Km for w, Km in zip(mu, Ks) if w > 0)
            svc = SVC(
                kernel="precomputed",
                C=self.C,
                class_weight={1.0: wp, -1.0: wn},
                tol=self.svm_tol,
                max_iter=_SVC_MAX_ITER,
            )
            try:
                svc.fit(K, y)
            except ValueError as exc:
                # libsvm caches K as float32: values beyond ~3.4e38 become inf there
                if "not finite" not in str(exc):
                    raise
                names = " + ".join(
                    f"{w:.3g}·{spec['kernel']}" for w, spec in zip(mu, specs) if w > 0
                )
                raise libsvm_kernel_error(
                    "combined", float(np.max(np.abs(K))),
                    f"{names}; |x| up to {_max_abs(X):.3g}",
                    ", or use smaller gamma, coef0 or degree in the polynomial kernels",
                ) from exc  # fmt: skip
            sv = svc.support_
            ay = svc.dual_coef_[0]  # α_i y_i with +1 = classes_[1] = +1.0
            g = np.array([ay @ Km[np.ix_(sv, sv)] @ ay for Km in Ks])
            J = float(np.abs(ay).sum() - 0.5 * mu @ g)
            return J, g, (sv, ay, float(svc.intercept_[0]))

        res = reduced_gradient_mkl(objective, len(specs), self.max_iter, self.tol)
        warn_mkl_stop(self, res)
        sv, ay, b = res["state"]
        self.kernel_params_ = specs
        self.mu_ = res["mu"]
        self.support_vectors_ = X[sv]
        self.dual_coef_ = ay
        self.bias_ = b
        self.n_iter_ = res["n_iter"]
        self.objective_history_ = res["objective_history"]
        self.duality_gap_ = res["gap_history"][-1]
        self.n_svm_solves_ = res["n_evaluations"]

    def _decision(self, X):
        # CHUNK_ROWS rows at a time (score_chunks): the n × n_SV kernel matrices are never
        # held whole
        out = np.full(X.shape[0], self.bias_)
        sv, coef = self.support_vectors_, self.dual_coef_
        for r0, r1 in score_chunks(X.shape[0]):
            part, rows = out[r0:r1], X[r0:r1]
            for w, spec in zip(self.mu_, self.kernel_params_):
                if w > 0:  # (one kernel's values alive at a time)
                    part += w * (kernel_matrix(rows, sv, **spec) @ coef)
        return out
