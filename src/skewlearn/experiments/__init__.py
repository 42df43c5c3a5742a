"""The experiment engine: definitions, runner, results database, reports and plots.

Names are imported on first use (PEP 562), so ``import skewlearn.experiments.cli`` (the
command line's ``run``/``report``/``reproduce``) does not load the runner, scikit-learn or
numba until an experiment is run.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Modules whose ``__all__`` make up this package's public names, searched in this order.
_MODULES = ("config", "runner", "store")


def __getattr__(name: str) -> Any:
    if name == "__all__":
        value: Any = [
            n for m in _MODULES for n in importlib.import_module(f".{m}", __name__).__all__
        ]
    elif name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    else:
        for m in _MODULES:
            mod = importlib.import_module(f".{m}", __name__)
            if name in mod.__all__:
                value = getattr(mod, name)
                break
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
