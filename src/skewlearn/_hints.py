"""One "Did you mean ...?" for every place a user names something from a fixed list."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: object, choices: Iterable[str]) -> str:
    """``" Did you mean 'a', 'b' or 'c'?"`` for the choices closest to ``name``, else ``""``.

    Matching ignores case (so 'PIMA' finds 'pima'), takes at most three, closest first, with
    :func:`difflib.get_close_matches` at its default cutoff of 0.6.
    """
    lower: dict[str, str] = {}
    for c in choices:
        lower.setdefault(c.lower(), c)
    close = [lower[c] for c in difflib.get_close_matches(str(name).lower(), list(lower), n=3)]
    if not close:
        return ""
    quoted = [repr(c) for c in close]
    listed = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f" Did you mean {listed}?"
