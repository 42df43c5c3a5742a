"""One-pass AUC optimisation (OPAUC, Gao et al. 2013)."""

from __future__ import annotations

__all__: list[str] = []
