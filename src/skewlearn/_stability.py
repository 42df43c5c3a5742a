"""Step-size checks for the online learners whose step can overshoot (squared losses).

A gradient step on a squared loss multiplies the error along the row it learns from by
``1 - gain``, where ``gain`` is the step size times the loss's curvature along that row
(``eta_t * |[x, 1]|^2`` for OGD's squared loss, the LMS stability condition;
``eta * (lam + |x - c|^2)`` or more for OPAUC). With ``gain > 2`` the factor is below
-1: the step overshoots and amplifies the weights, and a few such rows (outliers of
standardised data) can grow them to 1e30 and beyond without ever overflowing, which the
finite-state checks of :mod:`skewlearn.base` cannot see. The compiled passes record each
step's gain in a learner's ``stability_ = [steps with gain > 2, largest gain]`` with
:func:`note_step_gain`; after the pass, :func:`warn_unstable_steps` (called by
:class:`skewlearn.base.OnlineClassifier` for every learner that sets ``_step_gain``) warns if
the call added such steps and names a step size that keeps all of them stable.
"""

from __future__ import annotations

import warnings
from decimal import ROUND_FLOOR, Decimal, localcontext
from typing import Any

from numba import njit

from ._config import NJIT_INLINE
from ._stack import user_stacklevel

__all__ = ["note_step_gain", "warn_unstable_steps"]


@njit(**NJIT_INLINE)
def note_step_gain(stability, gain):
    """Record one step of ``gain`` in ``stability = [steps with gain > 2, largest gain]``."""
    if gain > 2.0:
        stability[0] += 1.0
    if gain > stability[1]:
        stability[1] = gain


def _round_down(x: float, digits: int = 3) -> float:
    """``x`` > 0 rounded down to ``digits`` significant digits, never above ``x``.

    The rounding is done on ``x``'s exact decimal value: ``floor(x / unit) * unit`` in
    floats returned the decimal itself for some ``x`` one ulp below it (598 of the 3-digit
    decimals from 1e-12 to 1e12, e.g. 1.1499999999999999e-10 → 1.15e-10). The nearest
    float to a decimal at most ``x`` is at most ``x``, as ``x`` is a float itself.
    """
    exact = Decimal(x)
    with localcontext() as ctx:
        ctx.prec = digits + 2
        unit = Decimal(1).scaleb(exact.adjusted() - (digits - 1))
        return float(exact.quantize(unit, rounding=ROUND_FLOOR))


def warn_unstable_steps(est: Any, before: float, n_rows: int, gain: str) -> None:
    """Warn (``RuntimeWarning``) if ``est.stability_[0]`` rose above ``before`` during the
    learning call of ``n_rows`` rows that just ran.

    The gains are proportional to ``est.eta``, so ``2 * eta / largest gain``, rounded
    down, is a step size at which every step seen so far would have been stable. A gain
    that overflowed float64 (a row whose squared distance or norm is inf, from values
    near the accepted magnitude limit) leaves no such step size: the warning then asks
    for scaling only.
    ``gain`` is the gain's formula as the message prints it. The warning names the first
    line outside skewlearn (:func:`skewlearn._stack.user_stacklevel`), however the learning
    call was reached (``fit``, ``test_then_train``, ``prequential``, the River adapter).
    """
    stability = est.stability_
    unstable = int(stability[0] - before)
    if unstable <= 0:
        return
    largest = float(stability[1])
    safe = 2.0 * float(est.eta) / largest
    if safe > 0.0:  # 0 when the gain overflowed float64 (inf) or the ratio underflowed
        fix = (
            f"Lower eta to {_round_down(safe):.3g} or less (2 * eta / the largest value so "
            "far, rounded down) or scale the features so that outlying rows are small"
        )
    else:
        fix = (
            "The gain overflowed float64, so no step size can keep such a row stable: "
            "scale the features first"
        )
    warnings.warn(
        f"{type(est).__name__}: {unstable} of the {n_rows} rows of this call took an "
        f"unstable step, {gain} > 2 (largest so far {largest:.3g}): each such step "
        "overshoots and amplifies the weights, so they may grow without bound and the "
        f"scores become meaningless. {fix} (e.g. sklearn.preprocessing.MinMaxScaler). "
        "The counts are in stability_.",
        RuntimeWarning,
        stacklevel=user_stacklevel(),
    )
