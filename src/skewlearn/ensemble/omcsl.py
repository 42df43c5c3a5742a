"""OMCSL: online multiple cost-sensitive learning (Yan et al., AAAI 2017)."""

from __future__ import annotations

__all__: list[str] = []
