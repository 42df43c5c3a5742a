"""The local data cache, filled from pinned PyPI wheels."""

from __future__ import annotations

__all__: list[str] = []
