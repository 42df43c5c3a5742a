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


def row_words(y, position: int) -> str:
    """Where the value at ``position`` of a label array-like ``y`` is, for a message:
    "index 5", or, for a pandas ``y`` whose index is not the default ``RangeIndex`` (a
    filtered frame, a cross-validation fold), "position 5 (index label 105)": there
    ``y[5]`` or ``y.loc[5]`` is another row, or none. A ``y`` of several columns keeps
    "index N" of its flattened values (N names no row, so no label is given)."""
    where = f"index {position}"
    index = getattr(y, "index", None)
    one_column = getattr(y, "shape", (0,))[1:] in ((), (1,))  # else position is not a row
    if index is not None and not callable(index) and one_column and len(index) > position:
        default = type(index).__name__ == "RangeIndex" and index.start == 0 and index.step == 1
        if not default:
            label = index[position : position + 1].tolist()[0]  # Python values, not numpy's
            where = f"position {position} (index label {label!r})"
    return where
