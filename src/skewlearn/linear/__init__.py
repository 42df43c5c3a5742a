"""Online linear learners: first order, second order, sparse and cost-sensitive."""

from . import cost_sensitive, first_order, second_order, sparse
from .cost_sensitive import *  # noqa: F403
from .first_order import *  # noqa: F403
from .second_order import *  # noqa: F403
from .sparse import *  # noqa: F403

__all__ = [
    *first_order.__all__,
    *second_order.__all__,
    *sparse.__all__,
    *cost_sensitive.__all__,
]
