"""Properties every online linear learner must have."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import skewlearn
from skewlearn.base import OnlineLinearClassifier

LINEAR = [
    c
    for c in (getattr(skewlearn, n) for n in skewlearn.linear.__all__)
    if isinstance(c, type) and issubclass(c, OnlineLinearClassifier)
]


def separable_stream(n=5000, d=20, pos_rate=0.05, seed=0):
    """A linearly separable stream with ``pos_rate`` positives and a margin."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    X = rng.normal(size=(n, d))
    s = X @ w
    thr = np.quantile(s, 1 - pos_rate)
    keep = np.abs(s - thr) > 0.1  # a margin around the boundary
    X, s = X[keep], s[keep]
    return X, (s > thr).astype(int)


@pytest.mark.parametrize("cls", LINEAR, ids=lambda c: c.__name__)
def test_online_auc_on_separable_imbalanced_stream(cls):
    """Prequential AUC (each row scored before it is learned) ≥ 0.9 with defaults."""
    X, y = separable_stream()
    params = getattr(cls, "_separable_params", {})
    scores = cls(**params).test_then_train(X, y, classes=[0, 1])
    assert roc_auc_score(y, scores) >= 0.9
