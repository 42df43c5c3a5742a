"""Adapters to other streaming libraries.

:mod:`skewlearn.compat.river` makes skewlearn's online learners River classifiers and its
streaming metrics River metrics. It is not imported here, so skewlearn does not need River
unless that module is used.
"""

from __future__ import annotations

__all__: list[str] = []
