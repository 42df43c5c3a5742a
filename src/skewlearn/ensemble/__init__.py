"""Online ensembles for imbalanced streams."""

from . import omcsl
from .omcsl import *  # noqa: F403

__all__ = [
    *omcsl.__all__,
]
