"""Properties every online linear learner must have."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
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


def _malformed_csr(X, bad: str):
    """``X`` (dense, 3 rows at least) as a CSR matrix that scipy builds without a word
    (``csr_matrix((data, indices, indptr), shape=...)`` checks neither the column indices
    nor the order of ``indptr``) but that is not a matrix of ``X``'s shape."""
    A = sp.csr_matrix(X)
    data, indices, indptr = A.data.copy(), A.indices.copy(), A.indptr.copy()
    if bad == "column = n_features":
        indices[1] = X.shape[1]
    elif bad == "negative column":
        indices[1] = -1
    else:  # indptr decreasing: row 1 ends before it starts
        indptr[1], indptr[2] = indptr[2], indptr[1]
    return sp.csr_matrix((data, indices, indptr), shape=X.shape)


@pytest.mark.parametrize("bad", ["column = n_features", "negative column", "indptr decreasing"])
@pytest.mark.parametrize("cls", LINEAR, ids=lambda c: c.__name__)
def test_a_csr_matrix_with_out_of_range_structure_is_refused(cls, bad):
    """scipy accepts a CSR matrix built from arrays whose column indices pass its shape or
    whose indptr decreases; the compiled passes, which do not check bounds, then read and
    wrote outside the row (index n_features: the intercept's weight, silently; larger
    ones: past the end of the weights, a segmentation fault or corrupted memory). Such a
    matrix is refused, on every call, before anything is learned."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 4))
    y = (X[:, 0] > 0).astype(int)
    bad_X = _malformed_csr(X, bad)
    fresh = cls()
    with pytest.raises(ValueError, match="CSR"):
        fresh.fit(bad_X, y)
    assert not hasattr(fresh, "weights_")  # a refused fit leaves the learner unfitted
    model = cls().fit(X, y)
    before = model.weights_.copy()
    with pytest.raises(ValueError, match="CSR"):
        model.partial_fit(bad_X, y)
    np.testing.assert_array_equal(model.weights_, before)
    with pytest.raises(ValueError, match="CSR"):
        model.decision_function(bad_X)
    # the well-formed matrix is still accepted (equal to rounding: the dense dot product
    # is vectorised and the sparse one is not, so their sums round differently on a CPU
    # whose vector width covers these 4 features, e.g. AVX-512; docs/decisions.md, session 20)
    np.testing.assert_allclose(
        model.decision_function(sp.csr_matrix(X)),
        model.decision_function(X),
        rtol=1e-12,
        atol=1e-15,
    )


@pytest.mark.parametrize("bad", ["column = n_features", "negative column", "column 2**40", None])
def test_csr_structure_check_reads_64_bit_column_indices(bad):
    """The structure check reads the column indices as unsigned integers of their own
    width (a negative one then reads above every width): scipy keeps int64 indices on a
    matrix whose arrays are set to them, and the check must refuse their faults, including
    an index beyond int32's range (in the last row: a view of the wrong width covers
    only part of the entries), and accept a sound one (the same model as int32's)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20, 4))
    y = (X[:, 0] > 0).astype(int)
    A = sp.csr_matrix(X)
    A.indices = A.indices.astype(np.int64)
    A.indptr = A.indptr.astype(np.int64)
    if bad == "column = n_features":
        A.indices[-1] = X.shape[1]
    elif bad == "negative column":
        A.indices[-1] = -1
    elif bad == "column 2**40":
        A.indices[-1] = 2**40
    assert A.indices.dtype == np.int64
    if bad is None:
        model = skewlearn.Perceptron().fit(A, y)
        expected = skewlearn.Perceptron().fit(sp.csr_matrix(X), y).weights_
        np.testing.assert_array_equal(model.weights_, expected)
        return
    with pytest.raises(ValueError, match="does not hold together: row 19 holds column index"):
        skewlearn.Perceptron().fit(A, y)


@pytest.mark.parametrize(
    ("dtype", "n_cols", "bad"),
    [(np.int8, 300, -1), (np.int8, 200, -100), (np.int16, 70_000, -1), (np.int16, 40_000, -30_000)],
)  # (-100 reads 156 of 200 columns, -30,000 reads 35,536 of 40,000: width 2**(bits - 1))
@pytest.mark.parametrize("call", ["fit", "partial_fit", "decision_function"])
def test_csr_structure_check_reads_narrow_column_indices_on_a_wider_matrix(
    dtype, n_cols, bad, call
):
    """Session 25 (probe r): viewed unsigned, a negative int8 or int16 index reads as
    2**8 - k or 2**16 - k, inside the shape of a matrix with more columns (-1 is column
    255 of 300): the vectorised check passed it and the learners read the weight at
    index -1 (the intercept's), silently. scipy builds int32 indices, but keeps narrower
    ones set on the matrix afterwards; the pre-session-25 check refused them."""
    rng = np.random.default_rng(2)
    cols = rng.choice(120, size=(6, 2), replace=False).ravel()  # fit in either width
    X = sp.csr_matrix((rng.normal(size=12), (np.repeat(np.arange(6), 2), cols)), (6, n_cols))
    X.indices = X.indices.astype(dtype)
    X.indptr = X.indptr.astype(dtype)
    y = np.array([0, 1, 0, 1, 1, 0])
    sound = skewlearn.Perceptron().fit(X, y)  # a sound narrow matrix is learned as ever
    np.testing.assert_array_equal(
        sound.weights_, skewlearn.Perceptron().fit(sp.csr_matrix(X.toarray()), y).weights_
    )
    X.indices[-1] = bad
    assert X.indices.dtype == dtype
    model = skewlearn.Perceptron().fit(rng.normal(size=(6, n_cols)), y)
    with pytest.raises(
        ValueError, match=f"does not hold together: row 5 holds column index {bad},"
    ):
        if call == "fit":
            skewlearn.Perceptron().fit(X, y)
        elif call == "partial_fit":
            model.partial_fit(X, y)
        else:
            model.decision_function(X)


SYMMETRIC = [c for c in LINEAR if c.__name__ != "CostSensitiveOGD"]  # CSOGD weighs classes


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("cls", SYMMETRIC, ids=lambda c: c.__name__)
def test_naming_the_other_class_positive_gives_the_mirror_model(cls, fit_intercept):
    """Every rule here depends on y and f only through y·f (a mistake is y·f ≤ 0), so the
    learner run with the other class as positive is the same model negated, bit for bit,
    also at exact ties f = 0 (the first sample; CSR rows that meet no learned weight). The
    slide's Perceptron (predict positive iff f > 0, update on a mistake) and LIBOL's
    (+1 iff f ≥ 0) treat the two classes differently at f = 0 and would fail this (see
    docs/decisions.md, session 20). CostSensitivePA runs at its default equal costs."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 6))
    X[rng.random(size=X.shape) < 0.7] = 0.0
    y = np.where(X[:, 0] - X[:, 1] + 0.3 * rng.normal(size=300) > 0.2, "p", "n")
    X = sp.csr_matrix(X)
    a = cls(pos_label="p", fit_intercept=fit_intercept)
    b = cls(pos_label="n", fit_intercept=fit_intercept)
    sa = a.test_then_train(X, y, classes=["n", "p"])
    sb = b.test_then_train(X, y, classes=["n", "p"])
    np.testing.assert_array_equal(a.weights_, -b.weights_)
    np.testing.assert_array_equal(sa, sb)  # decision_function's sign follows classes_[1]
    np.testing.assert_array_equal(a.counts_[[0, 3]], b.counts_[[0, 3]])
    if not fit_intercept:  # the stream does hold ties after the first sample
        assert np.count_nonzero(sa == 0.0) > 1


@pytest.mark.parametrize("pos_first", [False, True], ids=["pos_last", "pos_first"])
@pytest.mark.parametrize("cls", [*LINEAR, skewlearn.LinearASLS], ids=lambda c: c.__name__)
def test_coef_and_intercept_refuse_writes_instead_of_ignoring_some(cls, pos_first):
    """Session 26 (probe l's left-alone): ``clf.coef_[0, 0] += 100`` changed a Perceptron's
    scores (a view of ``weights_``) but did nothing for OGD with ``alpha > 0`` (a scaled
    copy), for any model whose ``pos_label`` is ``classes_[0]`` (a negated copy), or for a
    lazy TruncatedGradient (a copy brought up to date): a write was taken or silently
    lost depending on the model's state. Both are read-only now, so every write is
    refused, and the model is unchanged."""
    X, y = separable_stream(n=400, d=5)
    params = {"pos_label": 0} if pos_first else {}
    if cls is skewlearn.OGD:
        params["alpha"] = 0.01
    clf = cls(**params).fit(X, y)
    before = clf.decision_function(X)
    for name in ("coef_", "intercept_"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(clf, name)[0] += 100.0
    np.testing.assert_array_equal(clf.decision_function(X), before)
    w = clf.coef_.copy()  # a copy is the user's to change
    w[0, 0] += 1.0
    if hasattr(clf, "partial_fit"):  # and the model's own state still learns in place
        clf.partial_fit(X[:50], 1 - y[:50])
        assert clf.weights_.flags.writeable
