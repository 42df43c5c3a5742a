"""Budgeted online kernel learners."""

from . import koil, norma, perceptrons
from .koil import *  # noqa: F403
from .norma import *  # noqa: F403
from .perceptrons import *  # noqa: F403

__all__ = [
    *koil.__all__,
    *perceptrons.__all__,
    *norma.__all__,
]
