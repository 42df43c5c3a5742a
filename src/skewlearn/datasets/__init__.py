"""Dataset readers and the offline benchmark registry."""

from . import cache, readers, registry
from .cache import *  # noqa: F403
from .readers import *  # noqa: F403
from .registry import *  # noqa: F403

__all__ = [
    *readers.__all__,
    *registry.__all__,
    *cache.__all__,
]
