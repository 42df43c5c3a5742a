"""A tiny seeded generator whose whole state is one ``uint64`` array.

The state lives in the model (``rng_state_``), so a pickled model continues its random
stream exactly where the original would. The generator is SplitMix64 (Steele, Lea and
Flood, 2014): a Weyl sequence passed through a bijective mixer; one ``uint64`` of state,
full period 2**64, and statistically strong enough for sampling decisions.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.utils import check_random_state

from ._config import NJIT_INLINE

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0


def seed_state(random_state) -> np.ndarray:
    """Make a generator state from a scikit-learn ``random_state`` (None, int or RandomState)."""
    rs = check_random_state(random_state)
    return np.array([rs.randint(0, 2**63 - 1, dtype=np.int64)], dtype=np.uint64)


@njit(**NJIT_INLINE)
def rng_next(state):
    """Next raw 64-bit output; advances ``state[0]``."""
    state[0] = state[0] + _GOLDEN
    z = state[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(**NJIT_INLINE)
def rng_uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return float(rng_next(state) >> _S11) * _INV53


@njit(**NJIT_INLINE)
def rng_int(state, n):
    """An integer in ``[0, n)`` (n ≥ 1)."""
    return min(int(rng_uniform(state) * n), n - 1)
