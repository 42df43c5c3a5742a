"""The experiment engine: definitions, runner, results database, reports and plots.

Names are imported on first use (PEP 562), so ``import skewlearn.experiments.cli`` (the
command line's ``run``/``report``/``reproduce``) does not load the runner, scikit-learn or
numba until an experiment is run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_getattr

#: Modules whose ``__all__`` make up this package's public names, searched in this order.
_MODULES = ("config", "runner", "store")

if TYPE_CHECKING:  # a type checker sees the lazy names (else they are Any)
    from .config import *  # noqa: F403
    from .runner import *  # noqa: F403
    from .store import *  # noqa: F403

__getattr__ = lazy_getattr(__name__, _MODULES, globals())
