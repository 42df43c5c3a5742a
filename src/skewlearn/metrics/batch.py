"""Batch metrics for imbalanced binary classification."""

from __future__ import annotations

__all__: list[str] = []
