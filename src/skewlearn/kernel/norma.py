"""NORMA (Kivinen, Smola and Williamson, 2004) with the hinge loss."""

from __future__ import annotations

__all__: list[str] = []
