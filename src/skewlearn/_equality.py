"""One equality test for labels and parameters of any type (no heavy imports)."""

from __future__ import annotations


def same_value(a, b) -> bool:
    """``a == b`` as one bool: True for the same object, False where the comparison raises
    or gives no single truth value (arrays and the like)."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False
