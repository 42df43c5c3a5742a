"""Online ensembles for imbalanced streams."""

from . import baselines, omcsl
from .baselines import *  # noqa: F403
from .omcsl import *  # noqa: F403

__all__ = [
    *omcsl.__all__,
    *baselines.__all__,
]
