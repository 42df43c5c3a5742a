"""ASLS: asymmetric stagewise least squares (LASLS, KASLS, KASLS_R)."""

from __future__ import annotations

__all__: list[str] = []
