"""Evaluation protocols: repeated k-fold, repeated splits, nested search."""

from __future__ import annotations

__all__: list[str] = []
