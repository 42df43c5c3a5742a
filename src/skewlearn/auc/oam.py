"""Online AUC maximisation (OAM, Zhao et al. 2011)."""

from __future__ import annotations

__all__: list[str] = []
