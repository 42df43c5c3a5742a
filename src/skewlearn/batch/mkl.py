"""Multi-Nyström with multiple kernel learning (reduced-gradient MKL)."""

from __future__ import annotations

__all__: list[str] = []
