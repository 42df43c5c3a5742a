"""Evaluation protocols, prequential runs and significance tests."""

from . import prequential, protocols, stats
from .prequential import *  # noqa: F403
from .protocols import *  # noqa: F403
from .stats import *  # noqa: F403

__all__ = [
    *prequential.__all__,
    *protocols.__all__,
    *stats.__all__,
]
