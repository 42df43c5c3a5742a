"""Slow readable kernel functions, straight from their definitions."""

from __future__ import annotations

import numpy as np


def kernel(x, y, kind="rbf", gamma=1.0, degree=3, coef0=1.0):
    """One kernel value k(x, y) for dense vectors."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if kind == "rbf":
        return float(np.exp(-gamma * np.sum((x - y) ** 2)))
    if kind == "poly":
        return float((gamma * np.dot(x, y) + coef0) ** degree)
    return float(np.dot(x, y))


def kernel_matrix(X, Y, kind="rbf", gamma=1.0, degree=3, coef0=1.0):
    """K[i, j] = kernel(X[i], Y[j]) by a double loop."""
    return np.array([[kernel(x, y, kind, gamma, degree, coef0) for y in Y] for x in X])
