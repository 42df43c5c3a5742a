"""Standard JSON for everything skewlearn writes (numpy and the standard library only).

Python's ``json`` writes NaN and ±inf as ``NaN``/``Infinity``/``-Infinity``, which are not
JSON: strict parsers (``jq``, JavaScript's ``JSON.parse``, SQLite's ``json_extract`` before
3.42, Go, Rust's serde) reject the whole document. skewlearn writes standard JSON
(``allow_nan=False``) with one of two documented encodings of a non-finite float:

* :func:`dumps` (reports, summaries, the command line's ``--json``): ``null``, as pandas'
  ``to_json`` does. The value is gone; these files are read by people and other tools.
* :func:`dumps_exact` / :func:`loads_exact` (the results database's ``params`` and
  ``extra``, which skewlearn reads back and refits with): the strings ``"NaN"``,
  ``"Infinity"`` and ``"-Infinity"``, read back as the float.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

__all__ = ["dumps", "dumps_exact", "finite_or_none", "loads_exact", "nan_for_none"]

#: The strings :func:`dumps_exact` writes for the non-finite floats.
_NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _convert(value: Any, non_finite) -> Any:
    if isinstance(value, dict):
        return {k: _convert(v, non_finite) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_convert(v, non_finite) for v in value]
    if isinstance(value, np.ndarray):
        return [_convert(v, non_finite) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return non_finite(value)
    return value


def _spelling(value: float) -> str:
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


def finite_or_none(value: Any) -> Any:
    """``value`` with every non-finite float (also inside dicts, lists, tuples, numpy
    arrays and scalars) replaced by None, and numpy scalars and arrays by Python values."""
    return _convert(value, lambda v: None)


def dumps(value: Any, **kwargs) -> str:
    """Standard JSON of ``value``: a non-finite float is ``null`` (``kwargs`` go to
    :func:`json.dumps`)."""
    return json.dumps(finite_or_none(value), allow_nan=False, **kwargs)


def dumps_exact(value: Any, **kwargs) -> str:
    """Standard JSON of ``value`` that :func:`loads_exact` reads back exactly: a
    non-finite float is the string ``"NaN"``, ``"Infinity"`` or ``"-Infinity"``."""
    return json.dumps(_convert(value, _spelling), allow_nan=False, **kwargs)


def _revive(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _revive(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_revive(v) for v in value]
    if isinstance(value, str):
        return _NON_FINITE.get(value, value)
    return value


def loads_exact(text: str) -> Any:
    """Read :func:`dumps_exact`'s JSON (and Python's own ``NaN``/``Infinity``, as written
    before session 20): the three strings become the floats again."""
    return _revive(json.loads(text))


def nan_for_none(value: Any) -> Any:
    """``value`` with every None (also inside dicts and lists) read as NaN: the inverse of
    :func:`finite_or_none` for values that are numbers (metrics)."""
    if value is None:
        return math.nan
    if isinstance(value, dict):
        return {k: nan_for_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [nan_for_none(v) for v in value]
    return value
