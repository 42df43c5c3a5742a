"""Kernel functions (rbf, poly, linear) as compiled row and Gram helpers."""

from __future__ import annotations

__all__: list[str] = []
