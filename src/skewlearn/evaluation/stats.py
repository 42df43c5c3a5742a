"""Significance tests: paired t-test, win/tie/loss, Friedman, Nemenyi."""

from __future__ import annotations

__all__: list[str] = []
