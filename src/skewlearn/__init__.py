"""skewlearn: online and kernel learning for class-imbalanced data.

Every estimator is a scikit-learn binary classifier; online learners add
``partial_fit`` and ``test_then_train`` (score each row before learning from it).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from . import auc, batch, ensemble, kernel, linear
from .auc import *  # noqa: F403
from .batch import *  # noqa: F403
from .ensemble import *  # noqa: F403
from .kernel import *  # noqa: F403
from .linear import *  # noqa: F403

try:
    __version__ = version("skewlearn")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = [
    *linear.__all__,
    *auc.__all__,
    *kernel.__all__,
    *ensemble.__all__,
    *batch.__all__,
    "__version__",
]
