"""Numba settings used by every compiled kernel, in one place.

``FASTMATH`` lists LLVM fast-math flags explicitly and leaves out ``nnan`` and
``ninf``: NaN and infinity keep their IEEE behaviour, so a guard such as
``if denom > 0`` or ``np.isfinite`` is never optimised away. ``reassoc`` lets
LLVM vectorise dot products and norms; the result is still deterministic
(same binary, same input, same bits).
"""

from __future__ import annotations

from typing import Any

FASTMATH: set[str] = {"nsz", "arcp", "contract", "afn", "reassoc"}

#: Options for a self-contained compiled kernel: cached on disk so it compiles
#: once per installation, GIL released so joblib threads can run it.
NJIT: dict[str, Any] = {"cache": True, "nogil": True, "fastmath": FASTMATH}

#: Options for tiny helpers that are inlined into their callers.
NJIT_INLINE: dict[str, Any] = {
    "cache": True,
    "nogil": True,
    "fastmath": FASTMATH,
    "inline": "always",
}
