"""Sparse online learners: truncated gradient and online feature selection (OFS)."""

from __future__ import annotations

__all__: list[str] = []
