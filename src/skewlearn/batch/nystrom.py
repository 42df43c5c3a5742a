"""Nyström and class-stratified multi-Nyström feature maps."""

from __future__ import annotations

__all__: list[str] = []
