"""Small helpers for labels and parameter values of any type (numpy only)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np


def same_value(a, b) -> bool:
    """``a == b`` as one bool: True for the same object, False where the comparison raises
    or gives no single truth value (arrays and the like)."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def plain(value) -> Any:
    """The Python value of a numpy scalar (``np.int64(1)`` -> ``1``), so messages and JSON
    show labels as written and JSON can store them; anything else as it is."""
    return value.item() if isinstance(value, np.generic) else value


def value_list(values: Iterable, most: int | None = None) -> str:
    """``values`` as ``1, 'a', ...`` for a message: each :func:`plain` value's repr, the
    first ``most`` of them (then ``...``) when ``most`` is given."""
    values = list(values)
    shown = values if most is None else values[:most]
    more = ", ..." if most is not None and len(values) > most else ""
    return ", ".join(repr(plain(v)) for v in shown) + more
