import numpy as np
import pytest
import scipy.sparse as sp

from skewlearn._rows import as_rows
from skewlearn.kernels import (
    gamma_from_sigma,
    kernel_code,
    kernel_matrix,
)
from tests.naive import kernels as naive

PARAMS = [
    ("rbf", 0.3, 3, 1.0),
    ("poly", 0.5, 3, 1.0),
    ("poly", 1.0, 2, 0.0),
    ("linear", 1.0, 3, 1.0),
]


def _data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(7, 5))
    X[np.abs(X) < 0.6] = 0.0
    Y = rng.normal(size=(4, 5))
    return X, Y


@pytest.mark.parametrize("kind,gamma,degree,coef0", PARAMS)
@pytest.mark.parametrize("sparse", [False, True])
def test_kernel_matrix_matches_definition(kind, gamma, degree, coef0, sparse):
    X, Y = _data()
    Xin = sp.csr_matrix(X) if sparse else X
    got = kernel_matrix(Xin, Y, kind, gamma=gamma, degree=degree, coef0=coef0)
    want = naive.kernel_matrix(X, Y, kind, gamma, degree, coef0)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_bias_entry_is_ignored():
    X, Y = _data(2)
    from skewlearn.kernels import gram_rows_buf

    a = np.empty((7, 4))
    b = np.empty((7, 4))
    gram_rows_buf(0, 0.5, 3, 1.0, as_rows(X, True), Y, 4, a)
    gram_rows_buf(0, 0.5, 3, 1.0, as_rows(X, False), Y, 4, b)
    np.testing.assert_array_equal(a, b)


def test_sigma_mapping():
    # exp(-||d||^2 / (2 sigma^2)) with sigma = 2, ||d||^2 = 1 -> exp(-1/8)
    g = gamma_from_sigma(2.0)
    assert g == 0.125
    K = kernel_matrix(np.zeros((1, 1)), np.ones((1, 1)), "rbf", gamma=g)
    assert np.isclose(K[0, 0], np.exp(-1.0 / 8.0))
    with pytest.raises(ValueError, match="sigma must be a finite real number > 0"):
        gamma_from_sigma(0.0)


@pytest.mark.parametrize("sigma", [np.inf, True, 1e-200, 1e-160, 1e200])
def test_sigma_whose_gamma_is_not_a_usable_float_is_refused(sigma):
    """gamma_from_sigma returned 0.0 (sigma = inf or 1e200: the rbf kernel then is 1
    everywhere, and every learner refused gamma=0.0 without mentioning sigma), inf
    (1e-160) or raised a bare ZeroDivisionError (1e-200); True counted as sigma = 1."""
    with pytest.raises(ValueError, match=r"sigma"):
        gamma_from_sigma(sigma)
    for ok in (1e-150, 0.25, 1e150):  # the extremes that still give a finite gamma > 0
        g = gamma_from_sigma(ok)
        assert 0.0 < g < np.inf and g == 1.0 / (2.0 * ok * ok)


def test_unknown_kernel_message():
    with pytest.raises(ValueError, match=r"kernel must be one of .*'sigmoid'"):
        kernel_code("sigmoid")
    with pytest.raises(ValueError, match="same number of columns"):
        kernel_matrix(np.zeros((2, 3)), np.zeros((2, 4)))


@pytest.mark.parametrize("offset", [1e4, 1e6, 1e8])
def test_sparse_rbf_far_from_zero_matches_dense(offset):
    # CSR rows computed ||x - b||^2 as ||b||^2 plus corrections at x's non-zeros, which
    # cancels when the features sit far from 0: at an offset of 1e8 the kernel values were
    # off by up to 1 (a Gaussian of distance 1 read as 0 or 2), so KOIL learned another
    # model from the CSR copy of the same data. Reference: the definition, row by row.
    rng = np.random.default_rng(3)
    X = offset + rng.normal(size=(12, 4))
    X[:, 3] = 0.0  # an implicit zero in every CSR row
    Y = X[:5] + 0.01 * rng.normal(size=(5, 4))
    Y[0] = X[0]  # a duplicate: distance 0, kernel 1
    want = naive.kernel_matrix(X, Y, "rbf", 0.5)
    got = kernel_matrix(sp.csr_matrix(X), Y, "rbf", gamma=0.5)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def test_sparse_rbf_far_from_zero_same_koil_model():
    from skewlearn import KOIL

    rng = np.random.default_rng(4)
    Z = rng.normal(size=(300, 3))
    y = (np.hypot(Z[:, 0], Z[:, 1]) < 0.7).astype(int)
    X = Z + 1e7
    params = {"budget_pos": 20, "budget_neg": 20, "eta": 0.1, "random_state": 0}
    dense = KOIL(**params).fit(X, y)
    csr = KOIL(**params).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(csr.support_vectors_, dense.support_vectors_)
    np.testing.assert_allclose(csr.alpha_, dense.alpha_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(
        csr.decision_function(X), dense.decision_function(X), rtol=1e-9, atol=1e-12
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"gamma": -1.0}, r"gamma must be a finite real number > 0; got -1\.0"),
        ({"gamma": 0.0}, "gamma must be"),
        ({"gamma": float("nan")}, "gamma must be"),
        ({"gamma": "scale"}, "gamma must be"),
        ({"kernel": "poly", "degree": 2.5}, r"degree must be an integer >= 1.*got 2\.5"),
        ({"kernel": "poly", "degree": 0}, "degree must be an integer >= 1"),
        ({"kernel": "poly", "degree": True}, "degree must be an integer >= 1"),
        ({"kernel": "poly", "coef0": float("inf")}, "coef0 must be a finite real number"),
    ],
)
def test_kernel_matrix_refuses_settings_it_cannot_use(kwargs, match):
    """kernel_matrix took any gamma/degree/coef0: a negative rbf gamma gave values above 1
    (exp of a positive number), degree 2.5 was truncated to 2 without a word."""
    X, Y = _data()
    with pytest.raises(ValueError, match=match):
        kernel_matrix(X, Y, **kwargs)


@pytest.mark.parametrize("where", ["X", "Y"])
@pytest.mark.parametrize("sparse", [False, True])
def test_kernel_matrix_refuses_nan_rows(where, sparse):
    X, Y = _data()
    (X if where == "X" else Y)[1, 1] = np.nan
    with pytest.raises(ValueError, match=f"{where} contains NaN or infinity"):
        kernel_matrix(sp.csr_matrix(X) if sparse else X, Y)


def test_kernel_matrix_refuses_a_sparse_y_by_name():
    """Y (the support-vector side) is dense; a sparse Y failed inside numpy with "setting
    an array element with a sequence", which names neither Y nor the fix."""
    X, Y = _data()
    with pytest.raises(ValueError, match=r"Y must be dense.*Y\.toarray\(\)"):
        kernel_matrix(X, sp.csr_matrix(Y))
    np.testing.assert_array_equal(kernel_matrix(X, sp.csr_matrix(Y).toarray()), kernel_matrix(X, Y))


@pytest.mark.parametrize("pos_first", [False, True], ids=["pos_last", "pos_first"])
@pytest.mark.parametrize(
    "name",
    ["KernelPerceptron", "RBP", "Forgetron", "Projectron", "ProjectronPP", "NORMA", "KOIL"],
)
def test_support_vectors_and_dual_coef_refuse_writes(name, pos_first):
    """Session 27: as ``coef_`` (session 26), the kernel learners' views gave a write
    to the model or lost it depending on the learner and ``pos_label``. A write into
    ``support_vectors_`` (a view of ``sv_``) changed the dense scores but not the kept
    rbf norms, so the CSR scores of the same rows then differed by up to 0.9 (and the
    Projectron's Cholesky factor no longer was its SVs'); ``dual_coef_`` was a view for
    ``pos_label = classes_[1]`` and a negated copy otherwise, and KOIL's two are copies
    (the active slots), so the same line did nothing there. Both are read-only now."""
    import skewlearn

    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 4))
    y = (X[:, 0] > 0.3).astype(int)
    params = {"gamma": 0.5, "pos_label": 0 if pos_first else 1}
    if name in ("RBP", "Forgetron", "NORMA"):
        params["budget"] = 8
    if name == "KOIL":
        params.update(budget_pos=5, budget_neg=5, random_state=0)
    if name.startswith("Projectron"):
        params["eta"] = 0.5
    clf = getattr(skewlearn, name)(**params).fit(X, y)
    Xs = sp.csr_matrix(X)
    dense, csr = clf.decision_function(X), clf.decision_function(Xs)
    assert clf.n_support_ if np.ndim(clf.n_support_) == 0 else clf.n_support_.sum()
    with pytest.raises(ValueError, match="read-only"):
        clf.support_vectors_[0] += 1.0
    with pytest.raises(ValueError, match="read-only"):
        clf.dual_coef_[0, 0] += 10.0
    np.testing.assert_array_equal(clf.decision_function(X), dense)
    np.testing.assert_array_equal(clf.decision_function(Xs), csr)
    clf.partial_fit(X[:20], 1 - y[:20])  # the model's own state still learns in place
    assert clf.sv_.flags.writeable and clf.alpha_.flags.writeable


@pytest.mark.parametrize("pos_first", [False, True], ids=["pos_last", "pos_first"])
@pytest.mark.parametrize("name", ["KernelPerceptron", "Projectron", "NORMA", "KOIL"])
def test_public_attributes_rebuild_the_scores_for_both_positive_labels(name, pos_first):
    """``decision_function(X) = kernel_matrix(X, support_vectors_) @ dual_coef_.T +
    intercept_`` (scikit-learn's ``SVC`` convention), whichever class is ``pos_label``:
    with ``pos_label = classes_[0]`` the scores are the negated raw expansion, so
    ``dual_coef_`` and NORMA's ``intercept_`` must be negated too. Session 27: dropping
    either negation passed tests/kernel and tests/auc."""
    import skewlearn

    rng = np.random.default_rng(6)
    X = rng.normal(size=(80, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0.4).astype(int)
    params = {"gamma": 0.7, "pos_label": 0 if pos_first else 1}
    if name == "NORMA":  # an offset that moves (class costs make it uneven)
        params.update(fit_intercept=True, c_pos=0.9, c_neg=0.3, budget=None)
    if name == "KOIL":
        params.update(budget_pos=6, budget_neg=6, random_state=0)
    if name == "Projectron":
        params["eta"] = 0.4
    clf = getattr(skewlearn, name)(**params).fit(X, y)
    K = kernel_matrix(X, clf.support_vectors_.copy(), "rbf", gamma=0.7)
    rebuilt = K @ clf.dual_coef_[0] + getattr(clf, "intercept_", 0.0)
    if name == "NORMA":
        assert abs(clf.intercept_) > 0.05  # the offset is part of the check
    np.testing.assert_allclose(clf.decision_function(X), rebuilt, rtol=1e-12, atol=1e-12)
