"""Second-order online linear learners: SOP, CW, AROW, NAROW, NHERD, IELLIP, SCW."""

from __future__ import annotations

__all__: list[str] = []
