"""float32 input without a copy: the online linear learners keep float32 rows as they are
and, since every entry is read into float64 before any arithmetic, end with exactly the
model (and scores) that the float64 copy of the same data gives."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

import skewlearn
from skewlearn.base import FLOAT32_ROWS, OnlineLinearClassifier

FLOAT32 = sorted(
    name
    for name in skewlearn.__all__
    if isinstance(getattr(skewlearn, name), type)
    and getattr(getattr(skewlearn, name), "_input_dtypes", None) == FLOAT32_ROWS
)
LINEAR = sorted(
    name
    for name in skewlearn._NAMES["linear"].split()
    if issubclass(getattr(skewlearn, name), OnlineLinearClassifier)
)


def _state(est):
    return {k: v for k, v in vars(est).items() if k.endswith("_") and isinstance(v, np.ndarray)}


def _data(sparse: bool):
    rng = np.random.default_rng(3)
    X = rng.normal(scale=2.0, size=(600, 12)).astype(np.float32)
    X[rng.random(X.shape) < 0.3] = 0.0
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=600) > 1.2, "pos", "neg")
    return (sp.csr_matrix(X) if sparse else X), y


def test_every_online_linear_learner_takes_float32():
    assert FLOAT32 == LINEAR


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("name", FLOAT32)
def test_float32_gives_the_float64_model_bit_for_bit(name, sparse):
    cls = getattr(skewlearn, name)
    X32, y = _data(sparse)
    X64 = X32.astype(np.float64)
    for params in cls._test_params:
        a = cls(**params, random_state=0) if "random_state" in cls().get_params() else cls(**params)
        b = a.__class__(**a.get_params())
        sa = a.test_then_train(X32[:300], y[:300], classes=["neg", "pos"])
        sb = b.test_then_train(X64[:300], y[:300], classes=["neg", "pos"])
        a.partial_fit(X32[300:], y[300:])
        b.partial_fit(X64[300:], y[300:])
        np.testing.assert_array_equal(sa.view(np.int64), sb.view(np.int64))
        state_a, state_b = _state(a), _state(b)
        assert state_a.keys() == state_b.keys()
        for key in state_a:
            assert state_a[key].dtype == state_b[key].dtype, key
            np.testing.assert_array_equal(state_a[key], state_b[key], err_msg=f"{name} {key}")
        np.testing.assert_array_equal(a.decision_function(X32), b.decision_function(X64))
        np.testing.assert_array_equal(a.predict(X32), b.predict(X64))


@pytest.mark.parametrize("name", ["PassiveAggressive", "AROW"])
def test_float32_is_not_copied(name):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100_000, 50)).astype(np.float32)  # 20 MB; a float64 copy is 40 MB
    y = (X[:, 0] > 1.6).astype(int)
    est = getattr(skewlearn, name)()
    est.fit(X[:100], y[:100])  # compile / load the float32 code first
    tracemalloc.start()
    est.fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 10e6, peak  # scores (0.8 MB), labels (0.8 MB): no copy of X


def test_nonfinite_float32_is_refused():
    X = np.ones((4, 3), dtype=np.float32)
    X[2, 1] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        skewlearn.PassiveAggressive().fit(X, [0, 1, 0, 1])
    X[2, 1] = np.inf
    with pytest.raises(ValueError, match="Input X contains infinity"):
        skewlearn.PassiveAggressive().fit(X, [0, 1, 0, 1])
