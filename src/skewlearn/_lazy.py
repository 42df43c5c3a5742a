"""PEP 562 lazy loading shared by the packages whose modules are imported on first use."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any


def lazy_getattr(
    package: str, modules: Sequence[str], namespace: dict, eager: Sequence[str] = ()
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: a public name is looked up in the
    ``__all__`` of each of ``modules`` (imported on first use, in that order) and cached in
    ``namespace`` (the package's ``globals()``); ``__all__`` is ``eager`` (names already
    imported) followed by every lazy module's ``__all__``."""

    def __getattr__(name: str) -> Any:
        if name == "__all__":
            value: Any = [*eager]
            for m in modules:
                value.extend(importlib.import_module(f".{m}", package).__all__)
        elif name.startswith("__"):
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        else:
            for m in modules:
                mod = importlib.import_module(f".{m}", package)
                if name in mod.__all__:
                    value = getattr(mod, name)
                    break
            else:
                raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value
        return value

    return __getattr__
