"""Evaluation protocols, prequential runs and significance tests.

:mod:`~skewlearn.evaluation.prequential` is imported here; the protocols (which import
scikit-learn's model selection and metrics) and the tests (SciPy's statistics) are
imported on first use of one of their names (PEP 562), so a prequential run from the
command line does not load them.
"""

# The module ``prequential`` exports a function of the same name, which replaces the module
# as an attribute of this package after the star import; keep the module under an alias.
from __future__ import annotations

import importlib
from typing import Any

from . import prequential as _prequential_module
from .prequential import *  # noqa: F403

#: Modules imported on first use, searched in this order.
_LAZY = ("protocols", "stats")


def __getattr__(name: str) -> Any:
    if name == "__all__":
        value: Any = [*_prequential_module.__all__]
        for m in _LAZY:
            value.extend(importlib.import_module(f".{m}", __name__).__all__)
    elif name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    else:
        for m in _LAZY:
            mod = importlib.import_module(f".{m}", __name__)
            if name in mod.__all__:
                value = getattr(mod, name)
                break
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
