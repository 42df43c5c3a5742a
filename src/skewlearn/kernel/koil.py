"""KOIL: kernelized online imbalanced learning with fixed budgets (Hu et al., AAAI 2015)."""

from __future__ import annotations

__all__: list[str] = []
