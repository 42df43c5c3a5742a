"""Streaming (prequential) metrics: update one sample at a time."""

from __future__ import annotations

__all__: list[str] = []
