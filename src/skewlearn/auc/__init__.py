"""Online AUC maximisation."""

from . import oam, opauc
from .oam import *  # noqa: F403
from .opauc import *  # noqa: F403

__all__ = [
    *oam.__all__,
    *opauc.__all__,
]
