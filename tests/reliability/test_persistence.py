"""Pickle and joblib round trips of every public estimator continue bit-identically,
mid-stream included; saved classifiers carry the skewlearn version."""

from __future__ import annotations

import io
import pickle

import joblib
import numpy as np
import pytest
from sklearn.base import clone, is_classifier

import skewlearn
from skewlearn._discovery import all_estimators
from skewlearn.base import BinaryClassifier

from .test_table import data, make, out


def _pickle(est):
    return pickle.loads(pickle.dumps(est))


def _joblib(est):
    buf = io.BytesIO()
    joblib.dump(est, buf)
    buf.seek(0)
    return joblib.load(buf)


ROUND_TRIPS = {"pickle": _pickle, "joblib": _joblib}
ESTIMATORS = all_estimators()


@pytest.mark.parametrize("trip", ROUND_TRIPS)
@pytest.mark.parametrize("cls", ESTIMATORS.values(), ids=ESTIMATORS.keys())
def test_round_trip_is_bit_identical(cls, trip):
    X, y = data(n=80)
    est = make(cls)
    if hasattr(est, "partial_fit"):
        est.partial_fit(X[:40], y[:40], classes=[0, 1])
        copy = ROUND_TRIPS[trip](est)
        np.testing.assert_array_equal(out(copy, X), out(est, X))
        # both continue the stream (random draws included) identically
        a = est.test_then_train(X[40:], y[40:])
        b = copy.test_then_train(X[40:], y[40:])
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(out(copy, X), out(est, X))
    else:
        est.fit(X, y)
        copy = ROUND_TRIPS[trip](est)
        np.testing.assert_array_equal(out(copy, X), out(est, X))
        if is_classifier(est):
            np.testing.assert_array_equal(copy.predict(X), est.predict(X))
        # a refit of the copy equals a refit of a clone
        np.testing.assert_array_equal(
            out(copy.fit(X[:60], y[:60]), X), out(clone(est).fit(X[:60], y[:60]), X)
        )


@pytest.mark.parametrize(
    "cls",
    [c for c in ESTIMATORS.values() if issubclass(c, BinaryClassifier)],
    ids=[n for n, c in ESTIMATORS.items() if issubclass(c, BinaryClassifier)],
)
def test_saved_classifier_records_the_version(cls):
    X, y = data()
    est = make(cls).fit(X, y)
    assert est.__getstate__()["_skewlearn_version"] == skewlearn.__version__
    state = dict(est.__getstate__(), _skewlearn_version="0.0.1")
    blank = cls.__new__(cls)
    with pytest.raises(ValueError, match=r"saved by skewlearn 0\.0\.1.*Refit"):
        blank.__setstate__(state)
