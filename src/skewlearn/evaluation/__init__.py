"""Evaluation protocols, prequential runs and significance tests.

:mod:`~skewlearn.evaluation.prequential` is imported here; the protocols (which import
scikit-learn's model selection and metrics) and the tests (SciPy's statistics) are
imported on first use of one of their names (PEP 562), so a prequential run from the
command line does not load them.
"""

# The module ``prequential`` exports a function of the same name, which replaces the module
# as an attribute of this package after the star import; keep the module under an alias.
from __future__ import annotations

from .._lazy import lazy_getattr
from . import prequential as _prequential_module
from .prequential import *  # noqa: F403

#: Modules imported on first use, searched in this order.
_LAZY = ("protocols", "stats")

__getattr__ = lazy_getattr(__name__, _LAZY, globals(), eager=_prequential_module.__all__)
