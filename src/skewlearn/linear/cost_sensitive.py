"""Cost-sensitive online learners: CostSensitiveOGD and CostSensitivePA."""

from __future__ import annotations

__all__: list[str] = []
