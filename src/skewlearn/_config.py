"""Numba settings used by every compiled kernel, in one place.

``FASTMATH`` lists LLVM fast-math flags explicitly and leaves out ``nnan`` and
``ninf``: NaN and infinity keep their IEEE behaviour, so a guard such as
``if denom > 0`` or ``np.isfinite`` is never optimised away. ``reassoc`` lets
LLVM vectorise dot products and norms, adding them in another order than the
scalar loop does.

That is deterministic (same binary, same input, same bits) only while the same
loop version always runs. A loop that stores into an array is vectorised behind
a run-time alias check that compares addresses (``dst - src < 128`` bytes takes
the scalar loop, even for arrays that do not overlap), so a sum in such a loop
would round differently depending on where malloc put the arrays. Every sum in
a kernel therefore sits in a loop that stores nothing;
tests/reliability/test_vectorised_sums.py compiles every kernel and checks its
LLVM IR for a checked vector loop that carries a floating-point reduction.

The bits also depend on the processor the code is compiled for: numba targets the
host CPU (vector width, FMA), so another machine adds the same numbers in another
order. Results agree to rounding there, not bit for bit
(tests/reliability/test_determinism.py compiles for ``NUMBA_CPU_NAME=generic``).
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
