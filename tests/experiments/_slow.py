"""A deliberately slow classifier, so a test can kill a run part-way."""

from __future__ import annotations

import time

from sklearn.linear_model import RidgeClassifier


class SlowRidge(RidgeClassifier):
    """RidgeClassifier that sleeps ``delay`` seconds in every fit."""

    def __init__(self, alpha=1.0, delay=0.0):
        super().__init__(alpha=alpha)
        self.delay = delay

    def fit(self, X, y, sample_weight=None):
        time.sleep(self.delay)
        return super().fit(X, y, sample_weight)
