"""Dataset readers and the offline benchmark registry."""

from . import cache, readers, registry, streaming
from .cache import *  # noqa: F403
from .readers import *  # noqa: F403
from .registry import *  # noqa: F403
from .streaming import *  # noqa: F403

__all__ = [
    *readers.__all__,
    *registry.__all__,
    *cache.__all__,
    *streaming.__all__,
]
