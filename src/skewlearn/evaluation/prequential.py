"""Prequential (test-then-train) evaluation of online learners."""

from __future__ import annotations

__all__: list[str] = []
