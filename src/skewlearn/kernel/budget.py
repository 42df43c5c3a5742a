"""Support-vector buffers and budget policies shared by every budgeted kernel learner."""

from __future__ import annotations

__all__: list[str] = []
