"""Batch and streaming metrics for imbalanced binary classification."""

from . import batch, histogram, streaming
from .batch import *  # noqa: F403
from .histogram import *  # noqa: F403
from .streaming import *  # noqa: F403

__all__ = [
    *batch.__all__,
    *streaming.__all__,
    *histogram.__all__,
]
