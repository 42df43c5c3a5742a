"""The experiment engine: definitions, runner, results database, reports and plots."""

from . import config, runner, store
from .config import *  # noqa: F403
from .runner import *  # noqa: F403
from .store import *  # noqa: F403

__all__ = [
    *config.__all__,
    *runner.__all__,
    *store.__all__,
]
