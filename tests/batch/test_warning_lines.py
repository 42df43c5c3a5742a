"""Every warning of the batch learners names the user's line, however the learner is
called: ``fit``, ``fit_transform``, inside a scikit-learn ``Pipeline`` or under
``cross_val_score`` / ``GridSearchCV``.

The warnings had stack levels counted for a direct ``fit`` (``here < _fit_binary < fit <
caller``), so a transformer's ``fit_transform`` (scikit-learn's ``TransformerMixin``
calls ``fit``) named sklearn/base.py, and a ``Pipeline`` or ``cross_val_score`` named
sklearn/pipeline.py or sklearn/model_selection/_validation.py: the user could not tell
which of their lines (or which step) the warning was about."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from skewlearn import base
from skewlearn._stack import user_stacklevel
from skewlearn.batch.asls import SVMSDC, KernelASLS, LinearASLS, ProximalSVMDEC
from skewlearn.batch.mkl import MultiNystroemMKL, SimpleMKL
from skewlearn.batch.nystrom import MultiNystroem, StratifiedNystroem


def _data(n=30, d=3, n_pos=10, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), (np.arange(n) < n_pos).astype(int)


def _near_collinear():
    """Two columns equal up to 1e-9 at scale 1e7 (tests/reliability/test_asls_numerics.py):
    the primal stage matrix is factored with a shifted diagonal, with a RuntimeWarning."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = (rng.random(30) < 0.3).astype(int)
    y[0], y[1] = 1, 0
    rng = np.random.default_rng(1)
    return np.c_[X[:, :2], X[:, 0] + 1e-9 * rng.normal(size=30)] * 1e7, y


def _far_from_zero():
    """Wide rows at an offset of 1e6 with a large nu: the closed form lost its accuracy."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 200)) + 1e6
    y = (np.arange(50) < 10).astype(int)
    X[:, 0] += 2 * y
    return X, y


def _steep():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    s = X[:, 0] ** 2 + np.sin(2 * X[:, 1]) + 0.3 * rng.normal(size=300)
    return X, (s > np.quantile(s, 0.85)).astype(int)


#: (estimator factory, data factory, warning text, LARGE_STATE or None)
CASES = {
    "KASLS-theta": (lambda: KernelASLS(theta=1e9), _data, "drops every expansion", None),
    "SVMSDC-one-positive": (lambda: SVMSDC(), lambda: _data(n_pos=1), "needs at least 2", None),
    "KASLS-large": (lambda: KernelASLS(), _data, "GiB", 8 * 30 * 30 - 1),
    "KASLS_R-large": (lambda: KernelASLS(reduced_rate=0.5), _data, "GiB", 1),
    "LASLS-large": (lambda: LinearASLS(), _data, "GiB", 1),
    "PSVM-kernel-large": (lambda: ProximalSVMDEC(kernel="rbf"), _data, "GiB", 1),
    "PSVM-linear-large": (lambda: ProximalSVMDEC(), _data, "GiB", 1),
    "SimpleMKL-large": (lambda: SimpleMKL(max_iter=2), _data, "GiB", 1),
    "LASLS-shifted-diagonal": (
        lambda: LinearASLS(solver="primal", nu=67.0, m_pos=40.0, max_stages=1),
        _near_collinear, "diagonal scaled by", None,
    ),
    "PSVM-shifted-diagonal": (
        lambda: ProximalSVMDEC(solver="primal", C_neg=67.0),
        _near_collinear, "diagonal scaled by", None,
    ),
    "LASLS-smw-fallback": (
        lambda: LinearASLS(solver="smw", nu=67.0, m_pos=40.0, max_stages=12),
        lambda: (_data()[0] * 1e7, _data()[1]), "primal form, Eq. (8)", None,
    ),
    "LASLS-lost-accuracy": (
        lambda: LinearASLS(nu=1e4, r_pos=3.0, m_pos=1.5, max_stages=1),
        _far_from_zero, "lost its accuracy", None,
    ),
    "KASLS-linear-lost-accuracy": (
        lambda: KernelASLS(kernel="linear", nu=1e4, r_pos=3.0, max_stages=1),
        _far_from_zero, "lost its accuracy", None,
    ),
    "MKL-capped-landmarks": (
        lambda: MultiNystroemMKL(n_landmarks=50, random_state=0),
        lambda: _data(n=20), "n_landmarks=50 > n_samples=20", None,
    ),
    "MKL-empty-map": (
        lambda: MultiNystroemMKL(
            kernels=[{"kernel": "poly", "coef0": 0.0}, {"gamma": 0.5}], n_landmarks=6,
            jitter=0.0, class_weight=None, tol=1e-6, random_state=0,
        ),
        lambda: (np.zeros((40, 2)), (np.arange(40) < 10).astype(int)), "kept no eigenvalue", None,
    ),
    "MKL-stop-above-tol": (
        lambda: MultiNystroemMKL(n_landmarks=30, C=100.0, random_state=0, max_iter=3),
        _steep, "above tol", None,
    ),
    "SimpleMKL-max-iter": (
        lambda: SimpleMKL(C=1.0, max_iter=2), lambda: tuple(a[:200] for a in _steep()),
        "stopped at max_iter=2", None,
    ),
}  # fmt: skip

#: The transformers' warnings (they have ``fit_transform`` and sit first in a pipeline).
TRANSFORMER_CASES = {
    "Nystroem-capped": (
        lambda: StratifiedNystroem(n_landmarks=50, random_state=0),
        lambda: _data(n=20), "n_landmarks=50 > n_samples=20",
    ),
    "MultiNystroem-capped": (
        lambda: MultiNystroem(n_landmarks=50, random_state=0),
        lambda: _data(n=20), "n_landmarks=50 > n_samples=20",
    ),
    "Nystroem-empty": (
        lambda: StratifiedNystroem(kernel="linear", n_landmarks=6, jitter=0.0, random_state=0),
        lambda: (np.zeros((30, 2)), _data()[1]), "kept no eigenvalue",
    ),
    "MultiNystroem-empty": (
        lambda: MultiNystroem(
            kernels=[{"kernel": "linear"}, {"gamma": 1.0}], n_landmarks=6, jitter=0.0,
            random_state=0,
        ),
        lambda: (np.zeros((30, 2)), _data()[1]), "kept no eigenvalue",
    ),
}  # fmt: skip


def _files(call, text: str) -> list[str]:
    """The files named by the warnings containing ``text`` that ``call()`` raised."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        call()
    hits = [w.filename for w in record if text in str(w.message)]
    assert hits, f"no warning with {text!r}: {[str(w.message)[:80] for w in record]}"
    return hits


def _whole(X, y):
    """One split that trains on every row (the warnings depend on the rows seen)."""
    return [(np.arange(len(y)), np.arange(len(y)))]


@pytest.mark.parametrize("case", list(CASES))
def test_a_classifiers_warning_names_the_users_line(case, monkeypatch):
    make, data, text, limit = CASES[case]
    if limit is not None:
        monkeypatch.setattr(base, "LARGE_STATE", limit)
    X, y = data()
    assert set(_files(lambda: make().fit(X, y), text)) == {__file__}
    pipe = make_pipeline(FunctionTransformer(), make())
    assert set(_files(lambda: pipe.fit(X, y), text)) == {__file__}
    score = lambda: cross_val_score(make(), X, y, cv=_whole(X, y), error_score="raise")  # noqa: E731
    assert set(_files(score, text)) == {__file__}


@pytest.mark.parametrize("case", list(TRANSFORMER_CASES))
def test_a_transformers_warning_names_the_users_line(case):
    make, data, text = TRANSFORMER_CASES[case]
    X, y = data()
    assert set(_files(lambda: make().fit(X, y), text)) == {__file__}
    assert set(_files(lambda: make().fit_transform(X, y), text)) == {__file__}
    pipe = make_pipeline(make(), FunctionTransformer())
    assert set(_files(lambda: pipe.fit(X, y), text)) == {__file__}


def test_grid_search_warning_names_the_users_line():
    X, y = _data()
    search = GridSearchCV(
        make_pipeline(FunctionTransformer(), KernelASLS()),
        {"kernelasls__theta": [1e9]},
        cv=_whole(X, y),
        error_score="raise",
        refit=False,
    )
    assert set(_files(lambda: search.fit(X, y), "drops every expansion")) == {__file__}


def test_user_stacklevel_counts_the_callers_frames_only():
    """Without scikit-learn's frames between, the level is the plain count of skewlearn's
    frames plus one (here: the test calls user_stacklevel directly, so 1)."""
    assert user_stacklevel() == 1


def test_an_online_learners_warning_names_the_users_line_through_a_pipeline(monkeypatch):
    """The walk is shared: AROW's full-covariance size warning (skewlearn.base
    .warn_large_matrices) named sklearn/pipeline.py when AROW was a Pipeline's last step."""
    from skewlearn import AROW

    monkeypatch.setattr(base, "LARGE_STATE", 1)
    X, y = _data()
    pipe = make_pipeline(FunctionTransformer(), AROW(covariance="full"))
    assert set(_files(lambda: pipe.fit(X, y), "covariance='full'")) == {__file__}
