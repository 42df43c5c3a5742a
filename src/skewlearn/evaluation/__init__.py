"""Evaluation protocols, prequential runs and significance tests.

:mod:`~skewlearn.evaluation.prequential` is imported here; the protocols (which import
scikit-learn's model selection and metrics) and the tests (SciPy's statistics) are
imported on first use of one of their names (PEP 562), so a prequential run from the
command line does not load them.
"""

# The module ``prequential`` exports a function of the same name, which replaces the module
# as an attribute of this package after the star import; keep the module under an alias.
from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_getattr
from . import prequential as _prequential_module
from .prequential import *  # noqa: F403

#: Modules imported on first use, searched in this order.
_LAZY = ("protocols", "stats")

if TYPE_CHECKING:  # a type checker sees the lazy names (else they are Any)
    from .protocols import *  # noqa: F403
    from .stats import *  # noqa: F403

__getattr__ = lazy_getattr(__name__, _LAZY, globals(), eager=_prequential_module.__all__)
