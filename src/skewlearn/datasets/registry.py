"""The registry of offline benchmark datasets and load()."""

from __future__ import annotations

__all__: list[str] = []
