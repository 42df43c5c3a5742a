"""Enumerate skewlearn's public estimators (used by the CLI and the common tests)."""

from __future__ import annotations

import inspect

from sklearn.base import BaseEstimator


def all_estimators() -> dict[str, type[BaseEstimator]]:
    """Every public estimator class exported by :mod:`skewlearn`, by class name.

    Returns
    -------
    dict
        ``{"Perceptron": Perceptron, ...}`` in alphabetical order.
    """
    import skewlearn

    found = {}
    for name in sorted(skewlearn.__all__):
        obj = getattr(skewlearn, name)
        if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
            found[name] = obj
    return found
