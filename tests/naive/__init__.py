"""Slow, readable references that the compiled kernels are compared with.

Each function takes dense numpy rows already augmented with the intercept feature
(``[x, 1]``) and labels in {-1, +1}, and returns the weights after one pass and the
pre-update scores. Written from the papers' equations, independently of the kernels.
"""

from __future__ import annotations

import numpy as np


def augment(X: np.ndarray, fit_intercept: bool = True) -> np.ndarray:
    """Append the constant intercept feature (1, or 0 when there is no intercept)."""
    return np.hstack([X, np.full((X.shape[0], 1), 1.0 if fit_intercept else 0.0)])


def perceptron(Xa, y, eta=1.0):
    w = np.zeros(Xa.shape[1])
    scores = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y)):
        scores[t] = w @ x
        if yt * scores[t] <= 0:
            w = w + eta * yt * x
    return w, scores


def passive_aggressive(Xa, y, C=1.0, variant="pa1"):
    w = np.zeros(Xa.shape[1])
    scores = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y)):
        scores[t] = w @ x
        loss = max(0.0, 1.0 - yt * scores[t])
        if loss == 0.0:
            continue
        sq = x @ x
        if variant == "pa":
            tau = loss / sq
        elif variant == "pa1":
            tau = min(C, loss / sq)
        else:
            tau = loss / (sq + 1.0 / (2.0 * C))
        w = w + tau * yt * x
    return w, scores
