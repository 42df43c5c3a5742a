"""Readers for KEEL .dat, LIBSVM/svmlight, CSV and ARFF files."""

from __future__ import annotations

__all__: list[str] = []
