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

import math
import warnings

from numba import njit

from ._config import NJIT_INLINE

__all__ = ["note_step_gain", "warn_unstable_steps"]


@njit(**NJIT_INLINE)
def note_step_gain(stability, gain):
    """Record one step of ``gain`` in ``stability = [steps with gain > 2, largest gain]``."""
    if gain > 2.0:
        stability[0] += 1.0
    if gain > stability[1]:
        stability[1] = gain


def _round_down(x: float, digits: int = 3) -> float:
    """``x`` > 0 rounded down to ``digits`` significant digits."""
    unit = 10.0 ** (math.floor(math.log10(x)) - (digits - 1))
    return math.floor(x / unit) * unit


def warn_unstable_steps(est, before: float, n_rows: int, gain: str) -> None:
    """Warn (``RuntimeWarning``) if ``est.stability_[0]`` rose above ``before`` during the
    learning call of ``n_rows`` rows that just ran.

    The gains are proportional to ``est.eta``, so ``2 * eta / largest gain``, rounded
    down, is a step size at which every step seen so far would have been stable.
    ``gain`` is the gain's formula as the message prints it.
    """
    stability = est.stability_
    unstable = int(stability[0] - before)
    if unstable <= 0:
        return
    largest = float(stability[1])
    safe = _round_down(2.0 * float(est.eta) / largest)
    warnings.warn(
        f"{type(est).__name__}: {unstable} of the {n_rows} rows of this call took an "
        f"unstable step, {gain} > 2 (largest so far {largest:.3g}): each such step "
        "overshoots and amplifies the weights, so they may grow without bound and the "
        f"scores become meaningless. Lower eta to {safe:.3g} or less (2 * eta / the "
        "largest value so far, rounded down) or scale the features so that outlying "
        "rows are small (e.g. sklearn.preprocessing.MinMaxScaler). The counts are in "
        "stability_.",
        RuntimeWarning,
        stacklevel=4,  # warn_unstable_steps < OnlineClassifier._run < fit/partial_fit < caller
    )
