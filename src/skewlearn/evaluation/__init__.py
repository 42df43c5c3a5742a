"""Evaluation protocols, prequential runs and significance tests."""

# The module ``prequential`` exports a function of the same name, which replaces the module
# as an attribute of this package after the star import; keep the module under an alias.
from . import prequential as _prequential_module
from . import protocols, stats
from .prequential import *  # noqa: F403
from .protocols import *  # noqa: F403
from .stats import *  # noqa: F403

__all__ = [
    *_prequential_module.__all__,
    *protocols.__all__,
    *stats.__all__,
]
