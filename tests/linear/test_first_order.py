"""First-order learners against hand-computed updates, numpy references and scikit-learn."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.linear_model import SGDClassifier

from skewlearn import ALMA, OGD, ROMMA, PassiveAggressive, Perceptron
from tests import naive
from tests.naive import first_order as naive_fo

# A 3-sample stream used for the hand-computed checks.
X3 = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]])
Y3 = np.array([1, -1, -1])


def test_perceptron_three_samples_by_hand():
    # t=1: w=0, score 0 -> update w = [1, 2, 1]
    # t=2: score 2-2+1 = 1, y=-1 -> mistake -> w = [1-2, 2+1, 1-1] = [-1, 3, 0]
    # t=3: score 1+3+0 = 4, y=-1 -> mistake -> w = [0, 2, -1]
    clf = Perceptron().fit(X3, Y3)
    np.testing.assert_array_equal(clf.weights_, [0.0, 2.0, -1.0])
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def test_pa1_three_samples_by_hand():
    # C=0.1. t=1: loss 1, ||x||^2 = 1+4+1 = 6, tau = min(.1, 1/6) = .1 -> w = [.1,.2,.1]
    # t=2: score .2-.2+.1 = .1, loss 1.1, ||x||^2 = 4+1+1 = 6, tau = .1 -> w = [-.1,.3,0]
    # t=3: score .1+.3 = .4, loss 1.4, ||x||^2 = 3, tau = .1 -> w = [0, .2, -.1]
    clf = PassiveAggressive(C=0.1, variant="pa1").fit(X3, Y3)
    np.testing.assert_allclose(clf.weights_, [0.0, 0.2, -0.1], atol=1e-15)


def test_pa_and_pa2_three_samples_by_hand():
    # PA: t=1 tau = 1/6 -> w = [1/6, 2/6, 1/6]; t=2 score = (2-2+1)/6 = 1/6, loss 7/6,
    # tau = 7/36 -> w = [1/6 - 14/36, 2/6 + 7/36, 1/6 - 7/36] = [-8/36, 19/36, -1/36]
    clf = PassiveAggressive(variant="pa").partial_fit(X3[:2], Y3[:2], classes=[-1, 1])
    np.testing.assert_allclose(clf.weights_, np.array([-8, 19, -1]) / 36, atol=1e-15)
    # PA-II, C=0.5: tau_1 = 1/(6 + 1) -> w = [1, 2, 1]/7
    clf2 = PassiveAggressive(C=0.5, variant="pa2").partial_fit(X3[:1], Y3[:1], classes=[-1, 1])
    np.testing.assert_allclose(clf2.weights_, np.array([1, 2, 1]) / 7, atol=1e-15)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("variant", ["pa", "pa1", "pa2"])
def test_pa_matches_numpy_reference(variant, fit_intercept):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 7))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=400) > 1.0, 1, -1)
    clf = PassiveAggressive(C=0.3, variant=variant, fit_intercept=fit_intercept)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    w, ref_scores = naive.passive_aggressive(naive.augment(X, fit_intercept), y, 0.3, variant)
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-10)
    np.testing.assert_allclose(scores, ref_scores, rtol=1e-10, atol=1e-12)


def test_perceptron_equals_sklearn_perceptron():
    rng = np.random.default_rng(42)
    X = rng.normal(size=(2000, 10))
    y = (X @ rng.normal(size=10) + 0.5 * rng.normal(size=2000) > 1.5).astype(int)
    ours = Perceptron().fit(X, y)
    ref = SkPerceptron(max_iter=1, tol=None, shuffle=False, eta0=1.0).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_allclose(ours.coef_, ref.coef_)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_)
    # and on CSR input
    ours_sp = Perceptron().fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(ours_sp.predict(X), ref.predict(X))


def test_pa1_equals_sklearn_sgd_pa1():
    """scikit-learn leaves the intercept out of ||x||^2; we follow the papers' augmented x.

    So the two agree exactly without an intercept (see docs/decisions.md).
    """
    rng = np.random.default_rng(7)
    X = rng.normal(size=(2000, 10))
    y = (X @ rng.normal(size=10) + 0.5 * rng.normal(size=2000) > 1.5).astype(int)
    ours = PassiveAggressive(C=0.05, variant="pa1", fit_intercept=False).fit(X, y)
    ref = SGDClassifier(
        loss="hinge",
        penalty=None,
        learning_rate="pa1",
        eta0=0.05,
        max_iter=1,
        tol=None,
        shuffle=False,
        fit_intercept=False,
    ).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-10)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


# --------------------------------------------------------------------------- OGD
def _random_stream(n=300, d=6, seed=0, density=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if density is not None:
        X[rng.random(size=X.shape) > density] = 0.0
    y = np.where(X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > 0.8, 1, -1)
    return X, y


def _scaled_weights(clf):
    """``[w, b]`` of a fitted OGD, ALMA or ROMMA (``weights_`` holds ``[v, b]`` with
    w = s v, s = ``weight_scale_[0]``)."""
    return np.r_[clf.coef_.ravel(), clf.intercept_]


def test_ogd_hinge_three_samples_by_hand():
    # eta_t = 1/sqrt(t), x augmented with 1.
    # t=1: f=0 < 1 -> w = 1*[1, 2, 1]
    # t=2: f = 2 - 2 + 1 = 1, y=-1, z=-1 < 1 -> w = [1,2,1] - [2,-1,1]/sqrt(2)
    # t=3: f = -(1 - sqrt2) + (2 + 1/sqrt2) + (1 - 1/sqrt2) = 2 + sqrt2, y=-1 -> step 1/sqrt3
    r2, r3 = np.sqrt(2.0), np.sqrt(3.0)
    clf = OGD().fit(X3, Y3)
    expected = [1 - r2 + 1 / r3, 2 + 1 / r2 - 1 / r3, 1 - 1 / r2 - 1 / r3]
    np.testing.assert_allclose(clf.weights_, expected, rtol=1e-14)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def test_ogd_logistic_and_squared_by_hand():
    # logistic, constant eta=1: t=1 slope sigmoid(0)=.5 -> w=[.5, 1, .5];
    # t=2: f = 1 - 1 + .5 = .5, y=-1, slope = 1/(1+e^{-.5}) -> w -= slope*[2,-1,1]
    s = 1.0 / (1.0 + np.exp(-0.5))
    clf = OGD(loss="logistic", schedule="constant").partial_fit(X3[:2], Y3[:2], classes=[-1, 1])
    np.testing.assert_allclose(clf.weights_, [0.5 - 2 * s, 1 + s, 0.5 - s], rtol=1e-14)
    # squared, eta=.1 constant, alpha=1: t=1 slope 1-0=1, w=[.1,.2,.1];
    # t=2: f=.1, z=-.1, slope 1.1; decay features by .9 -> [.09,.18,.1];
    # w = [.09,.18,.1] - .11*[2,-1,1] = [-.13, .29, -.01]  (intercept not decayed)
    clf = OGD(loss="squared", schedule="constant", eta=0.1, alpha=1.0)
    clf.partial_fit(X3[:2], Y3[:2], classes=[-1, 1])
    np.testing.assert_allclose(_scaled_weights(clf), [-0.13, 0.29, -0.01], rtol=1e-13)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"loss": "logistic", "schedule": "constant", "eta": 0.2, "alpha": 0.05},
        {"loss": "squared", "eta": 0.1, "alpha": 0.01},
    ],
)
def test_ogd_matches_numpy_reference(params, fit_intercept, sparse):
    X, y = _random_stream(density=0.4 if sparse else None)
    clf = OGD(fit_intercept=fit_intercept, **params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    w, ref = naive_fo.ogd(naive.augment(X, fit_intercept), y, **params)
    np.testing.assert_allclose(_scaled_weights(clf), w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "loss, sk_loss", [("hinge", "hinge"), ("logistic", "log_loss"), ("squared", "squared_error")]
)
def test_ogd_constant_equals_sklearn_sgd(loss, sk_loss):
    X, y = _random_stream(n=1000, d=8, seed=3)
    ours = OGD(loss=loss, schedule="constant", eta=0.01).fit(X, y)
    ref = SGDClassifier(
        loss=sk_loss,
        penalty=None,
        learning_rate="constant",
        eta0=0.01,
        max_iter=1,
        tol=None,
        shuffle=False,
    ).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-9)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-9)


def test_ogd_predict_proba_only_for_logistic():
    X, y = _random_stream()
    assert not hasattr(OGD(), "predict_proba")
    clf = OGD(loss="logistic").fit(X, y)
    p = clf.predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    np.testing.assert_allclose(p[:, 1], 1 / (1 + np.exp(-clf.decision_function(X))))
    np.testing.assert_allclose(np.exp(clf.predict_log_proba(X)), p, rtol=1e-12)
    # stable far in the tails
    clf.weights_[:] = 0.0
    clf.weights_[-1] = 1000.0
    p = clf.predict_proba(X[:1])
    assert np.all(np.isfinite(p)) and p[0, 1] == 1.0
    assert np.isfinite(clf.predict_log_proba(X[:1])).all()


def test_ogd_predict_proba_keeps_both_tails_and_mirrors_the_labels():
    """Column 0 was ``1 - sigmoid(z)``: for z above ~37 it rounded to exactly 0, so every
    confident row tied there (ranking by P(classes_[0]) lost the order decision_function
    keeps), log(predict_proba) was -inf where predict_log_proba (its documented log) was
    finite, and relabelling the classes (pos_label = classes_[0]) changed the
    probabilities. Each column is now the logistic of its own signed score."""
    X, y = _random_stream(seed=3)
    X = 8.0 * X  # confident rows: |z| up to ~300
    clf = OGD(loss="logistic").fit(X, y)
    z = clf.decision_function(X)
    assert z.max() > 50 and z.min() < -50
    p = clf.predict_proba(X)
    # independent reference: P(classes_[0]) = 1 / (1 + e^z), by the log-sum-exp identity
    # (|z| < 700: probabilities above float64's subnormal range, at full relative precision)
    assert np.abs(z).max() < 700 and (z > 40).sum() > 50 and (z < -40).sum() > 50
    np.testing.assert_allclose(p[:, 0], np.exp(-np.logaddexp(0.0, z)), rtol=1e-12, atol=0)
    np.testing.assert_allclose(p[:, 1], np.exp(-np.logaddexp(0.0, -z)), rtol=1e-12, atol=0)
    np.testing.assert_allclose(np.exp(clf.predict_log_proba(X)), p, rtol=1e-12, atol=0)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-15)
    # a class's probability, where it is small, orders the rows as the scores do (no ties)
    assert len(np.unique(p[z > 0, 0])) == len(np.unique(z[z > 0]))
    assert len(np.unique(p[z < 0, 1])) == len(np.unique(z[z < 0]))
    # the mirror image: classes_ = ["a", "b"] with "a" positive scores -z; its columns,
    # in classes_ order, are this model's columns swapped, bit for bit
    mirror = OGD(loss="logistic", pos_label="a").fit(X, np.where(y == 1, "a", "b"))
    np.testing.assert_array_equal(mirror.decision_function(X), -z)
    np.testing.assert_array_equal(mirror.predict_proba(X), p[:, ::-1])
    np.testing.assert_array_equal(mirror.predict_log_proba(X), clf.predict_log_proba(X)[:, ::-1])


def _one_sigmoid(z):
    """The two-sided sigmoid one score at a time (the reference below)."""
    return [1.0 / (1.0 + np.exp(-v)) if v >= 0 else np.exp(v) / (1.0 + np.exp(v)) for v in z]


def test_ogd_predict_proba_is_the_two_sided_sigmoid_bit_for_bit():
    """Session 19: the sigmoid is computed for every score at once; each value is still
    1 / (1 + exp(-z)) for z >= 0 and exp(z) / (1 + exp(z)) for z < 0, computed one score
    at a time here as the reference (tails, zeros of both signs, subnormals); column 0 is
    that of -z."""
    X, y = _random_stream()
    clf = OGD(loss="logistic").fit(X, y)
    rng = np.random.default_rng(3)
    for scale in (0.5, 30.0, 800.0):
        clf.weights_[:] = rng.normal(scale=scale, size=clf.weights_.shape)
        z = clf.decision_function(X)
        expected = np.column_stack([_one_sigmoid(-z), _one_sigmoid(z)])
        assert clf.predict_proba(X).tobytes() == expected.tobytes()
    from skewlearn.linear.first_order import _logistic_columns, _stable_sigmoid

    z = np.array([-745.2, -800.0, 800.0, 709.8, -1e-320, 1e-320, 0.0, -0.0, 36.7, -36.7])
    assert _stable_sigmoid(z).tobytes() == np.array(_one_sigmoid(z)).tobytes()
    both = np.column_stack([_one_sigmoid(-z), _one_sigmoid(z)])
    assert _logistic_columns(z).tobytes() == both.tobytes()
    assert z.tolist()[1] == -800.0  # the input is not changed


def test_ogd_one_row_predict_proba_is_the_batchs_row_bit_for_bit():
    """Session 26: one score goes through Python floats (``_logistic_pair``, numpy's exp
    of a float), not the array operations: each one-row ``predict_proba`` must equal its
    row of the batch's, bit for bit (numpy's exp, not math.exp, which differs in the last
    bit for ~5 % of scores; both tails; signed zeros; subnormals)."""
    from skewlearn.linear.first_order import _logistic_columns

    rng = np.random.default_rng(11)
    edges = [-745.2, -800.0, 800.0, 709.8, -1e-320, 1e-320, 0.0, -0.0, 36.7, -36.7, 40.0]
    z = np.concatenate([edges, rng.normal(size=2000), rng.normal(scale=30.0, size=500)])
    batch = _logistic_columns(z)
    both = np.column_stack([_one_sigmoid(-z), _one_sigmoid(z)])
    assert batch.tobytes() == both.tobytes()
    for i in range(z.shape[0]):
        one = _logistic_columns(z[i : i + 1])
        assert one.shape == (1, 2) and one.dtype == np.float64
        assert one.tobytes() == batch[i : i + 1].tobytes(), z[i]
    X, y = _random_stream()
    clf = OGD(loss="logistic").fit(X, y)
    clf.weights_[:] = rng.normal(scale=30.0, size=clf.weights_.shape)
    full = clf.predict_proba(X)
    rows = np.vstack([clf.predict_proba(X[i : i + 1]) for i in range(X.shape[0])])
    assert rows.tobytes() == full.tobytes()


def test_ogd_predict_proba_follows_the_loss_the_model_learned_with():
    """predict_proba was offered or withheld by the current ``loss``: after
    set_params(loss="logistic") a hinge-trained model returned sigmoid(hinge score) as a
    probability, and a logistic model lost predict_proba after set_params(loss="hinge").
    A fitted model scores with the settings it learned with (session 16's rule)."""
    X, y = _random_stream()
    hinge = OGD(loss="hinge").fit(X, y)
    hinge.set_params(loss="logistic")
    assert not hasattr(hinge, "predict_proba")
    with pytest.raises(AttributeError):
        hinge.predict_log_proba(X)
    logistic = OGD(loss="logistic").fit(X, y)
    expected = logistic.predict_proba(X)
    logistic.set_params(loss="hinge")
    np.testing.assert_array_equal(logistic.predict_proba(X), expected)
    np.testing.assert_allclose(np.exp(logistic.predict_log_proba(X[:3])), expected[:3], rtol=1e-12)
    # before any fit, the setting decides (as in scikit-learn's SGDClassifier)
    assert hasattr(OGD(loss="logistic"), "predict_proba")
    assert not hasattr(OGD(), "predict_proba")
    # fit with the new setting starts a model of that loss
    hinge.fit(X, y)
    assert hasattr(hinge, "predict_proba")


def test_ogd_predict_proba_of_a_hinge_model_names_the_loss_and_the_fix():
    """A hinge OGD (the default) asked for predict_proba said only "This 'OGD' has no
    attribute 'predict_proba'": no word of the loss, nor of loss="logistic" or
    calibration. scikit-learn's SGDClassifier chains the reason ("probability estimates
    are not available for loss='hinge'") as the error's cause; OGD now does the same,
    naming the loss the model learned with (a later set_params does not count)."""
    X, y = _random_stream()
    for model, said in (
        (OGD(), "loss='hinge'"),
        (OGD().fit(X, y), "learned with loss='hinge'"),
        (OGD().fit(X, y).set_params(loss="logistic"), "learned with loss='hinge'"),
    ):
        for method in ("predict_proba", "predict_log_proba"):
            with pytest.raises(AttributeError, match=f"has no attribute '{method}'") as info:
                getattr(model, method)(X)
            cause = str(info.value.__cause__)
            assert said in cause, cause
            assert 'loss="logistic"' in cause and "CalibratedClassifierCV" in cause, cause
        assert not hasattr(model, "predict_proba")  # meta-estimators still see no proba


def test_ogd_bad_hyperparameters():
    X, y = _random_stream()
    with pytest.raises(ValueError, match="eta \\* alpha must be < 1"):
        OGD(eta=1.0, alpha=2.0).fit(X, y)
    with pytest.raises(ValueError, match="'loss' parameter"):
        OGD(loss="exp").fit(X, y)
    with pytest.raises(ValueError, match="'eta' parameter"):
        OGD(eta=0.0).fit(X, y)
    with pytest.raises(ValueError, match="'schedule' parameter"):
        clone(OGD(schedule="sqrt")).fit(X, y)


def _csr_or_dense(X, sparse):
    return sp.csr_matrix(X) if sparse else X


@pytest.mark.parametrize("sparse", [False, True])
def test_ogd_l2_decay_three_samples_by_hand(sparse):
    """The L2 decay is kept as a scale s of the feature weights (w = s v, session 21).
    Hinge, eta = 0.1 constant, alpha = 1: each step multiplies the features by 0.9.
    t=1: f = 0 -> w = .1 [1, 2, 1] = [.1, .2, .1]
    t=2: f = .2 - .2 + .1 = .1, y = -1 -> decay [.09, .18], b = .1; w -= .1 [2, -1, 1]
         = [-.11, .28, 0]
    t=3: f = .11 + .28 = .39, y = -1 -> decay [-.099, .252], b = 0; w -= .1 [-1, 1, 1]
         = [.001, .152, -.1];  s = .9^3 = .729 (above the fold threshold)."""
    X = _csr_or_dense(X3, sparse)
    clf = OGD(schedule="constant", eta=0.1, alpha=1.0)
    scores = clf.test_then_train(X, Y3, classes=[-1, 1])
    np.testing.assert_allclose(scores, [0.0, 0.1, 0.39], rtol=1e-14, atol=1e-17)
    np.testing.assert_allclose(_scaled_weights(clf), [0.001, 0.152, -0.1], rtol=1e-12)
    np.testing.assert_allclose(clf.weight_scale_, [0.729], rtol=1e-15)
    np.testing.assert_allclose(clf.weights_[:-1], np.array([0.001, 0.152]) / 0.729, rtol=1e-12)
    # decision_function reads the scale: w^T x + b for new rows, dense, CSR and float32
    Z = np.array([[3.0, -2.0], [0.5, 4.0]])
    expected = Z @ [0.001, 0.152] - 0.1
    for Zin in (Z, sp.csr_matrix(Z), Z.astype(np.float32), sp.csr_matrix(Z.astype(np.float32))):
        np.testing.assert_allclose(clf.decision_function(Zin), expected, rtol=1e-12)
    # a fold: with the threshold at .8, s = .729 at t=3 is folded into v before the step
    folded = OGD(schedule="constant", eta=0.1, alpha=1.0)
    folded._scale_floor = 0.8
    folded.fit(X, Y3)
    np.testing.assert_array_equal(folded.weight_scale_, [1.0])
    np.testing.assert_allclose(folded.weights_, [0.001, 0.152, -0.1], rtol=1e-12)
    # the labels the other way round: coef_ and intercept_ negated, scale kept
    mirror = OGD(schedule="constant", eta=0.1, alpha=1.0, pos_label=-1).fit(X, -Y3)
    np.testing.assert_allclose(mirror.coef_, -clf.coef_, rtol=1e-15)
    np.testing.assert_allclose(mirror.intercept_, -clf.intercept_, rtol=1e-15)


def _decay_stream(sparse, n=300, d=12, seed=5):
    X, y = _random_stream(n=n, d=d, seed=seed, density=0.3)
    return _csr_or_dense(X, sparse), y


def _bounded(model, floor, ceiling=None):
    """``model`` with its scale folded below ``floor`` (and above ``ceiling``: ROMMA)."""
    model._scale_floor = floor
    if ceiling is not None:
        model._scale_ceiling = ceiling
    return model


def _pieces_equal_fit(make, X, y, pieces, names, unfolded):
    """``partial_fit`` over ``pieces`` of the stream leaves the very state of one ``fit``
    (the ``names``); ``unfolded``, the same learner without folds, differs from it in its
    state (so folds happened) and agrees in the model's weights to rounding. Returns the
    fitted model and ``unfolded`` fitted."""
    whole = make().fit(X, y)
    split = make()
    lo = 0
    for size in pieces:
        split.partial_fit(X[lo : lo + size], y[lo : lo + size], classes=[-1, 1])
        lo += size
    assert lo == len(y)
    for name in names:
        np.testing.assert_array_equal(getattr(split, name), getattr(whole, name), err_msg=name)
    unfolded.fit(X, y)
    assert not np.array_equal(unfolded.weights_, whole.weights_)
    np.testing.assert_allclose(unfolded.coef_, whole.coef_, rtol=1e-12)
    np.testing.assert_allclose(unfolded.intercept_, whole.intercept_, rtol=1e-12, atol=1e-15)
    return whole, unfolded


_PIECES = [[1] * 40 + [260], [37] * 8 + [4], [5, 100, 3, 150, 42]]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("pieces", _PIECES)
def test_ogd_l2_decay_in_pieces_equals_fit_bit_for_bit_across_folds(sparse, pieces):
    """The scale is state kept across calls: partial_fit in any pieces keeps the same
    (v, s, b) as one fit, bit for bit, with folds inside calls and at their edges
    (threshold .5 and a factor of .975 a step: a fold every ~28 rows)."""
    X, y = _decay_stream(sparse)
    params = {"schedule": "constant", "eta": 0.5, "alpha": 0.05, "loss": "logistic"}

    names = ("weights_", "weight_scale_", "counts_")
    whole, unfolded = _pieces_equal_fit(
        lambda: _bounded(OGD(**params), 0.5), X, y, pieces, names, _bounded(OGD(**params), 0.0)
    )
    assert 0.5 <= whole.weight_scale_[0] < 1.0
    assert unfolded.weight_scale_[0] < 0.975**250


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("floor", [None, 0.5])
def test_ogd_l2_decay_equals_the_eager_formula(sparse, floor):
    """The scaled form against the eager reference (every weight decayed at every step):
    2,000 rows at a factor of .975 take s below 1e-9 twice (a fold at the default
    threshold too)."""
    X, y = _random_stream(n=2000, d=20, seed=8, density=0.25)
    params = {"schedule": "constant", "eta": 0.5, "alpha": 0.05}
    clf = OGD(**params)
    if floor is not None:
        clf._scale_floor = floor
    scores = clf.test_then_train(_csr_or_dense(X, sparse), y, classes=[-1, 1])
    w, ref = naive_fo.ogd(naive.augment(X), y, **params)
    scale = np.abs(w).max()
    np.testing.assert_allclose(_scaled_weights(clf), w, rtol=1e-12, atol=1e-12 * scale)
    np.testing.assert_allclose(scores, ref, rtol=1e-12, atol=1e-12 * np.abs(ref).max())
    assert 1e-9 <= clf.weight_scale_[0] <= 1.0


def test_ogd_l2_decay_step_leaves_the_other_columns_alone():
    """A step on a sparse row writes only the row's columns and the intercept (the decay
    moves the scale): O(nnz), not O(d). Without a fold every other entry of weights_
    keeps its bits."""
    X, y = _decay_stream(True)
    clf = OGD(schedule="constant", eta=0.5, alpha=0.05).fit(X[:50], y[:50])
    before = clf.weights_.copy()
    row = sp.csr_matrix(([2.0, -1.0], ([0, 0], [3, 7])), shape=(1, X.shape[1]))
    clf.partial_fit(row, [1])
    moved = np.flatnonzero(clf.weights_ != before)
    assert set(moved) <= {3, 7, X.shape[1]} and len(moved) > 0
    assert clf.weight_scale_[0] < 1.0


def test_ogd_l2_decay_pickle_mid_stream_and_an_older_pickle():
    """The scale travels with the model; a model pickled before it existed (no
    weight_scale_: its weights_ is w) loads with s = 1 and continues as the eager
    formula does."""
    X, y = _random_stream(n=400, d=8, seed=9, density=0.5)
    params = {"schedule": "constant", "eta": 0.5, "alpha": 0.05}
    a = OGD(**params).partial_fit(X[:200], y[:200], classes=[-1, 1])
    b = pickle.loads(pickle.dumps(a))
    a.partial_fit(X[200:], y[200:])
    b.partial_fit(X[200:], y[200:])
    for name in ("weights_", "weight_scale_", "counts_"):
        np.testing.assert_array_equal(a.__dict__[name], b.__dict__[name], err_msg=name)
    old = OGD(**params).partial_fit(X[:200], y[:200], classes=[-1, 1])
    state = old.__getstate__()
    state["weights_"] = np.r_[old.coef_.ravel(), old.intercept_]  # as the old code kept w
    del state["weight_scale_"]
    c = OGD.__new__(OGD)
    c.__setstate__(state)
    np.testing.assert_array_equal(c.weight_scale_, [1.0])
    np.testing.assert_allclose(c.decision_function(X), old.decision_function(X), rtol=1e-13)
    c.partial_fit(X[200:], y[200:])
    w, _ = naive_fo.ogd(naive.augment(X), y, **params)
    np.testing.assert_allclose(_scaled_weights(c), w, rtol=1e-12, atol=1e-12 * np.abs(w).max())


# --------------------------------------------------------------------------- ALMA
@pytest.mark.parametrize("sparse", [False, True])
def test_alma_three_samples_by_hand(sparse):
    # alpha = .5 -> B = 2, C = sqrt2; x_hat = x / ||x|| (x augmented with 1)
    # t=1: k=1, threshold (1-.5)*2/1 = 1 >= 0 -> w' = sqrt2 [1,2,1]/sqrt6, ||w'||^2 = 2
    #      -> project: w = [1,2,1]/sqrt6; k=2
    # t=2: y=-1, w.x_hat = (2-2+1)/6, margin -1/6 <= .5*2/sqrt2 -> eta_2 = sqrt2/sqrt2 = 1
    #      w' = [1,2,1]/sqrt6 - [2,-1,1]/sqrt6 = [-1,3,0]/sqrt6, ||w'||^2 = 10/6 -> [-1,3,0]/sqrt10
    # t=3: y=-1, margin -4/sqrt30 <= threshold -> eta_3 = sqrt2/sqrt3, x_hat = [-1,1,1]/sqrt3
    #      w' = [-1,3,0]/sqrt10 - (sqrt2/3)[-1,1,1];
    #      ||w'||^2 = 1 + 2 eta_3 (-4/sqrt30) + eta_3^2 = 1 + 2/3 - 8/(3 sqrt5) < 1: kept
    # The projections divide the scale s of the feature weights (w = s v, session 22):
    # s = 1/sqrt2 after t=1, 1/(sqrt2 sqrt(10/6)) = sqrt(.3) after t=2 (none at t=3).
    r10, a = np.sqrt(10.0), np.sqrt(2.0) / 3
    expected = np.array([-1 / r10 + a, 3 / r10 - a, -a])
    X = _csr_or_dense(X3, sparse)
    clf = ALMA(alpha=0.5)
    scores = clf.test_then_train(X, Y3, classes=[-1, 1])
    np.testing.assert_allclose(scores, [0.0, 1 / np.sqrt(6.0), 4 / r10], rtol=1e-14, atol=1e-17)
    np.testing.assert_allclose(_scaled_weights(clf), expected, rtol=1e-13)
    np.testing.assert_allclose(clf.weight_scale_, [np.sqrt(0.3)], rtol=1e-15)
    np.testing.assert_allclose(clf.weights_[:-1], expected[:-1] / np.sqrt(0.3), rtol=1e-13)
    np.testing.assert_allclose(clf.sqnorm_, [1 + 2 / 3 - 8 / (3 * np.sqrt(5))], rtol=1e-13)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])
    # decision_function reads the scale: w^T x + b for new rows, dense, CSR and float32
    Z = np.array([[3.0, -2.0], [0.5, 4.0]])
    want = Z @ expected[:-1] + expected[-1]
    for Zin in (Z, sp.csr_matrix(Z), Z.astype(np.float32), sp.csr_matrix(Z.astype(np.float32))):
        np.testing.assert_allclose(clf.decision_function(Zin), want, rtol=1e-13)
    # folds: with the threshold at .8, s = .707 (t=1) and .775 (t=2) are folded into v
    folded = ALMA(alpha=0.5)
    folded._scale_floor = 0.8
    folded.fit(X, Y3)
    np.testing.assert_array_equal(folded.weight_scale_, [1.0])
    np.testing.assert_allclose(folded.weights_, expected, rtol=1e-13)
    # the labels the other way round: coef_ and intercept_ negated
    mirror = ALMA(alpha=0.5, pos_label=-1).fit(X, -Y3)
    np.testing.assert_allclose(mirror.coef_, -clf.coef_, rtol=1e-15)
    np.testing.assert_allclose(mirror.intercept_, -clf.intercept_, rtol=1e-15)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("params", [{}, {"alpha": 0.3}, {"alpha": 1.0, "B": 0.5, "C": 0.7}])
def test_alma_matches_numpy_reference(params, fit_intercept, sparse):
    X, y = _random_stream(density=0.4 if sparse else None)
    clf = ALMA(fit_intercept=fit_intercept, **params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    w, ref = naive_fo.alma(naive.augment(X, fit_intercept), y, **params)
    np.testing.assert_allclose(_scaled_weights(clf), w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(clf.sqnorm_[0], w @ w, rtol=1e-10)
    assert w @ w <= 1.0 + 1e-12


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("pieces", _PIECES)
def test_alma_in_pieces_equals_fit_bit_for_bit_across_folds(sparse, pieces):
    """The projection's scale is state kept across calls: partial_fit in any pieces keeps
    the same (v, s, b, |w|^2) as one fit, bit for bit, with folds inside calls and at
    their edges (threshold .7: the projections shrink s about as 1/k, so a fold comes
    after every ~40 % more updates)."""
    X, y = _decay_stream(sparse)

    names = ("weights_", "weight_scale_", "sqnorm_", "counts_")
    whole, unfolded = _pieces_equal_fit(
        lambda: _bounded(ALMA(), 0.7), X, y, pieces, names, _bounded(ALMA(), 0.0)
    )
    assert 0.7 <= whole.weight_scale_[0] < 1.0
    assert unfolded.weight_scale_[0] < 0.7**5


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("floor", [None, 0.5])
def test_alma_scaled_projection_equals_the_eager_formula(sparse, floor):
    """The scaled form against the eager reference (every weight divided at every
    projection) over 4,000 rows, without a fold (s ends near 1/k: the default threshold
    1e-9 takes ~1e9 updates) and with folds at .5."""
    X, y = _random_stream(n=4000, d=20, seed=8, density=0.25)
    clf = ALMA(alpha=0.5)
    if floor is not None:
        clf._scale_floor = floor
    scores = clf.test_then_train(_csr_or_dense(X, sparse), y, classes=[-1, 1])
    w, ref = naive_fo.alma(naive.augment(X), y, alpha=0.5)
    np.testing.assert_allclose(_scaled_weights(clf), w, rtol=1e-12, atol=1e-12 * np.abs(w).max())
    np.testing.assert_allclose(scores, ref, rtol=1e-12, atol=1e-12 * np.abs(ref).max())
    np.testing.assert_allclose(clf.sqnorm_[0], w @ w, rtol=1e-12)
    assert (floor or 1e-9) <= clf.weight_scale_[0] <= 1.0
    if floor is None:
        assert clf.weight_scale_[0] < 0.5**6  # so six folds or more at .5


def _one_row_leaves_other_columns(model):
    """A step on a sparse row writes only the row's columns and the intercept (the
    projection or c_t moves the scale): O(nnz), not O(d). Without a fold or a reset every
    other entry of weights_ keeps its bits."""
    X, y = _decay_stream(True)
    model.fit(X[:50], y[:50])
    before, scale = model.weights_.copy(), model.weight_scale_.copy()
    row = sp.csr_matrix(([2.0, -1.0], ([0, 0], [3, 7])), shape=(1, X.shape[1]))
    label = -1 if model.decision_function(row)[0] > 0 else 1  # a mistake: an update
    model.partial_fit(row, [label])
    moved = np.flatnonzero(model.weights_ != before)
    assert set(moved) <= {3, 7, X.shape[1]} and len(moved) > 0
    assert model.weight_scale_[0] != scale[0]
    return model


def test_alma_step_leaves_the_other_columns_alone():
    _one_row_leaves_other_columns(ALMA())


def _pickles_continue(make, names, reference):
    """The scale travels with the model; a model pickled before it existed (no
    weight_scale_: its weights_ is w) loads with s = 1 and continues as the eager
    formula does (``reference(X, y) -> w``)."""
    X, y = _random_stream(n=400, d=8, seed=9, density=0.5)
    a = make().partial_fit(X[:200], y[:200], classes=[-1, 1])
    b = pickle.loads(pickle.dumps(a))
    a.partial_fit(X[200:], y[200:])
    b.partial_fit(X[200:], y[200:])
    for name in names:
        np.testing.assert_array_equal(a.__dict__[name], b.__dict__[name], err_msg=name)
    old = make().partial_fit(X[:200], y[:200], classes=[-1, 1])
    state = old.__getstate__()
    state["weights_"] = np.r_[old.coef_.ravel(), old.intercept_]  # as the old code kept w
    for name in names:
        if name not in ("weights_", "counts_", "sqnorm_"):
            del state[name]
    c = type(old).__new__(type(old))
    c.__setstate__(state)
    np.testing.assert_array_equal(c.weight_scale_, [1.0])
    np.testing.assert_allclose(c.decision_function(X), old.decision_function(X), rtol=1e-13)
    c.partial_fit(X[200:], y[200:])
    w = reference(X, y)
    np.testing.assert_allclose(_scaled_weights(c), w, rtol=1e-12, atol=1e-12 * np.abs(w).max())
    return c


def test_alma_pickle_mid_stream_and_an_older_pickle():
    _pickles_continue(
        ALMA,
        ("weights_", "weight_scale_", "sqnorm_", "counts_"),
        lambda X, y: naive_fo.alma(naive.augment(X), y)[0],
    )


def test_alma_bad_hyperparameters():
    X, y = _random_stream()
    with pytest.raises(ValueError, match=r"'alpha' parameter of ALMA must be a float in the range"):
        ALMA(alpha=0.0).fit(X, y)
    with pytest.raises(ValueError, match="'B' parameter"):
        ALMA(B=-1.0).fit(X, y)


# --------------------------------------------------------------------------- ROMMA
@pytest.mark.parametrize("sparse", [False, True])
def test_romma_three_samples_by_hand(sparse):
    # t=1: w = 0 -> w = y x / ||x||^2 = [1,2,1]/6
    # t=2: y=-1, f = 1/6 (mistake); ||x||^2 ||w||^2 = 6 * 1/6 = 1, den = 1 - 1/36 = 35/36
    #      c = (1 + 1/6)/(35/36) = 6/5, d = (1/6)(-1 - 1/6)/(35/36) = -1/5 -> w = [-1,3,0]/5
    # t=3: y=-1, f = 4/5 (mistake); ||x||^2||w||^2 = 3 * 2/5 = 6/5, den = 6/5 - 16/25 = 14/25
    #      c = (6/5 + 4/5)/(14/25) = 25/7, d = (2/5)(-1 - 4/5)/(14/25) = -9/7
    #      w = (25/7)[-1,3,0]/5 - (9/7)[-1,1,1] = [4, 6, -9]/7
    # Kept as w = [s v, b] (session 22): t=1 v = [1,2]/6, s = 1, |v|^2 = 5/36; t=2 s = 6/5,
    # b = 1/5 - 1/5 = 0, v += (d/s) x = -[2,-1]/6 -> [-1,3]/6, |v|^2 = 5/36 + 2(-1/6)(0)
    # + (1/36) 5 = 10/36; t=3 s = 30/7, b = -9/7, v += (-3/10)[-1,1] -> [2/15, 1/5],
    # |v|^2 = 10/36 + 2(-3/10)(4/6) + (9/100) 2 = 13/225.
    X = _csr_or_dense(X3, sparse)
    clf = ROMMA()
    scores = clf.test_then_train(X, Y3, classes=[-1, 1])
    np.testing.assert_allclose(scores, [0.0, 1 / 6, 4 / 5], rtol=1e-14, atol=1e-17)
    np.testing.assert_allclose(_scaled_weights(clf), np.array([4.0, 6.0, -9.0]) / 7, rtol=1e-13)
    np.testing.assert_allclose(clf.weight_scale_, [30 / 7], rtol=1e-15)
    np.testing.assert_allclose(clf.weights_, [2 / 15, 1 / 5, -9 / 7], rtol=1e-14)
    np.testing.assert_allclose(clf.feature_sqnorm_, [13 / 225], rtol=1e-14)
    Z = np.array([[3.0, -2.0], [0.5, 4.0]])
    want = Z @ [4 / 7, 6 / 7] - 9 / 7
    for Zin in (Z, sp.csr_matrix(Z), Z.astype(np.float32), sp.csr_matrix(Z.astype(np.float32))):
        np.testing.assert_allclose(clf.decision_function(Zin), want, rtol=1e-13)
    # a fold above a ceiling of 2: s = 30/7 at t=3 is folded into v, |v|^2 recomputed
    folded = ROMMA()
    folded._scale_ceiling = 2.0
    folded.fit(X, Y3)
    np.testing.assert_array_equal(folded.weight_scale_, [1.0])
    np.testing.assert_allclose(folded.weights_, np.array([4.0, 6.0, -9.0]) / 7, rtol=1e-13)
    np.testing.assert_allclose(folded.feature_sqnorm_, [52 / 49], rtol=1e-14)
    # aggressive ROMMA on [1,2]+, [2,-1]-, [1,1]+: same first two steps; at t=3
    # f = (-1 + 3)/5 = .4 in (0, 1): plain ROMMA waits, aggressive updates:
    # ||x||^2||w||^2 = 6/5, den = 6/5 - 4/25 = 26/25, c = (6/5 - 2/5)/(26/25) = 10/13,
    # d = (2/5)(1 - 2/5)/(26/25) = 3/13 -> w = (10/13)[-1,3,0]/5 + (3/13)[1,1,1] = [1,9,3]/13
    Xa, ya = np.array([[1.0, 2.0], [2.0, -1.0], [1.0, 1.0]]), np.array([1, -1, 1])
    Xa = _csr_or_dense(Xa, sparse)
    plain = ROMMA().fit(Xa, ya)
    np.testing.assert_allclose(_scaled_weights(plain), np.array([-1, 3, 0]) / 5, atol=1e-15)
    agg = ROMMA(aggressive=True).fit(Xa, ya)
    np.testing.assert_allclose(_scaled_weights(agg), np.array([1.0, 9.0, 3.0]) / 13, rtol=1e-13)
    np.testing.assert_allclose(agg.weight_scale_, [12 / 13], rtol=1e-15)  # c shrinks s: 6/5 * 10/13


def test_aggressive_romma_takes_the_shortest_vector_when_c_would_be_negative():
    """w_1 = [1, 0]; x = [.6, .3], y = +1: f = .6 in (0, 1) and |x|^2 |w|^2 = .45 <= .6, so
    c_t = (.45 - .6) / .09 = -5/3 < 0. The closed form gives [1, 4/3] (|w|^2 = 25/9); the
    smallest w with w.x >= 1 and w.w_1 >= 1 is x / |x|^2 = [4/3, 2/3] (|w|^2 = 20/9), whose
    w.w_1 = 4/3 >= 1 (Li & Long's aggressive case)."""
    X, y = np.array([[1.0, 0.0], [0.6, 0.3]]), np.array([1, 1])
    agg = ROMMA(aggressive=True, fit_intercept=False).partial_fit(X, y, classes=[-1, 1])
    w = agg.coef_.ravel()
    np.testing.assert_allclose(w, [4 / 3, 2 / 3], rtol=1e-14)
    assert w @ X[1] == pytest.approx(1.0) and w @ [1.0, 0.0] >= 1.0
    # the reset restarts the scale: v is w, |v|^2 = |x|^2 / |x|^4
    np.testing.assert_array_equal(agg.weight_scale_, [1.0])
    np.testing.assert_allclose(agg.feature_sqnorm_, [20 / 9], rtol=1e-14)
    # plain ROMMA makes no mistake at t = 2
    plain = ROMMA(fit_intercept=False).partial_fit(X, y, classes=[-1, 1])
    np.testing.assert_allclose(plain.coef_.ravel(), [1.0, 0.0])


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("aggressive", [False, True])
def test_romma_skips_a_row_nearly_parallel_to_w(sparse, aggressive):
    """w_1 = [1, 0]; x = [-1, 1e-7], y = +1 is a mistake (f = -1) whose denominator
    |x|^2 |w|^2 - f^2 = 1e-14 is within 1e-12 of |x|^2 |w|^2: the step would multiply w
    by c ~ 2e14, so it is skipped and w stays. x = [-1, 1e-5] (1e-10 relative) updates."""
    X = _csr_or_dense(np.array([[1.0, 0.0], [-1.0, 1e-7]]), sparse)
    y = np.array([1, 1])
    clf = ROMMA(aggressive=aggressive, fit_intercept=False).partial_fit(X, y, classes=[-1, 1])
    np.testing.assert_array_equal(clf.coef_.ravel(), [1.0, 0.0])
    assert clf.counts_[3] == 1  # the first row's update only
    X = _csr_or_dense(np.array([[1.0, 0.0], [-1.0, 1e-5]]), sparse)
    clf = ROMMA(aggressive=aggressive, fit_intercept=False).partial_fit(X, y, classes=[-1, 1])
    assert clf.counts_[3] == 2
    w = clf.coef_.ravel()
    assert w @ [-1.0, 1e-5] == pytest.approx(1.0, rel=1e-4) and w @ [1.0, 0.0] >= 1.0 - 1e-6


def _romma_stream(sparse, n=300, d=12, seed=5):
    """A nearly separable stream (few mistakes late): ROMMA's scale grows then settles."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[rng.random(size=X.shape) > 0.4] = 0.0
    y = np.where(X @ rng.normal(size=d) + 0.05 * rng.normal(size=n) > 0.3, 1, -1)
    return _csr_or_dense(X, sparse), y


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("aggressive", [False, True])
@pytest.mark.parametrize("pieces", _PIECES)
def test_romma_in_pieces_equals_fit_bit_for_bit_across_folds(sparse, aggressive, pieces):
    """The scale and |v|^2 are state kept across calls: partial_fit in any pieces keeps
    the same (v, s, b, |v|^2) as one fit, bit for bit, with folds above a ceiling of 1.5
    (and below a floor of .9: aggressive steps shrink s) inside calls and at their edges."""
    X, y = _romma_stream(sparse)

    names = ("weights_", "weight_scale_", "feature_sqnorm_", "feature_sqnorm_bound_", "counts_")
    whole, unfolded = _pieces_equal_fit(
        lambda: _bounded(ROMMA(aggressive=aggressive), 0.9, 1.5),
        X,
        y,
        pieces,
        names,
        ROMMA(aggressive=aggressive),
    )
    assert 0.9 <= whole.weight_scale_[0] <= 1.5
    assert not 0.9 <= unfolded.weight_scale_[0] <= 1.5


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("aggressive", [False, True])
@pytest.mark.parametrize("bounds", [None, (0.9, 1.5)])
def test_romma_scaled_step_equals_the_eager_formula(sparse, aggressive, bounds):
    """The scaled form against the eager reference (every weight multiplied by c_t and
    |w|^2 summed at every step) over 3,000 rows of a noisy stream (|w| grows ~1e5x):
    weights and scores to 1e-12 relative, and |v|^2 kept by increments equal to the direct
    sum (and s^2 |v|^2 + b^2 to the eager |w|^2) to 1e-12."""
    X, y = _random_stream(n=3000, d=20, seed=8, density=0.25)
    clf = ROMMA(aggressive=aggressive)
    if bounds is not None:
        _bounded(clf, *bounds)
    scores = clf.test_then_train(_csr_or_dense(X, sparse), y, classes=[-1, 1])
    w, ref = naive_fo.romma(naive.augment(X), y, aggressive=aggressive)
    np.testing.assert_allclose(_scaled_weights(clf), w, rtol=1e-12, atol=1e-12 * np.abs(w).max())
    np.testing.assert_allclose(scores, ref, rtol=1e-12, atol=1e-12 * np.abs(ref).max())
    v = clf.weights_[:-1]
    np.testing.assert_allclose(clf.feature_sqnorm_[0], v @ v, rtol=1e-12)
    s, b = clf.weight_scale_[0], clf.weights_[-1]
    np.testing.assert_allclose(s * s * clf.feature_sqnorm_[0] + b * b, w @ w, rtol=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("aggressive", [False, True])
def test_romma_squared_norm_does_not_drift_on_random_labels(sparse, aggressive):
    """On labels independent of x the scale grows faster than |w|, so |v|^2 shrinks a few
    per cent at most steps (no single step cancels much) and by ~1e8 between folds: kept
    by increments alone it lost the bits of its earlier, larger values (1e-7 relative,
    and the weights 3e-7 from the eager formula, main's code 4e-15). The weights and
    |v|^2 stay at rounding distance."""
    rng = np.random.default_rng(99)
    X = rng.normal(size=(2500, 20))
    X[rng.random(size=X.shape) > (0.5 if sparse else 1.0)] = 0.0
    y = rng.choice([-1, 1], size=2500)
    clf = ROMMA(aggressive=aggressive)
    scores = clf.test_then_train(_csr_or_dense(X, sparse), y, classes=[-1, 1])
    w, ref = naive_fo.romma(naive.augment(X), y, aggressive=aggressive)
    np.testing.assert_allclose(_scaled_weights(clf), w, rtol=1e-10, atol=1e-10 * np.abs(w).max())
    np.testing.assert_allclose(scores, ref, rtol=1e-10, atol=1e-10 * np.abs(ref).max())
    v = clf.weights_[:-1]
    np.testing.assert_allclose(clf.feature_sqnorm_[0], v @ v, rtol=1e-11)
    # the bound is state: partial_fit in pieces sums |v|^2 again at the same steps as fit
    assert clf.feature_sqnorm_bound_[0] > 0.0
    split = ROMMA(aggressive=aggressive)
    for lo in range(0, 2500, 317):
        split.partial_fit(_csr_or_dense(X[lo : lo + 317], sparse), y[lo : lo + 317], [-1, 1])
    for name in ("weights_", "weight_scale_", "feature_sqnorm_", "feature_sqnorm_bound_"):
        np.testing.assert_array_equal(split.__dict__[name], clf.__dict__[name], err_msg=name)


@pytest.mark.parametrize("aggressive", [False, True])
def test_romma_tiny_rows_whose_steps_are_finite_keep_the_model(aggressive):
    """|v|^2's increment a^2 |x|^2 (and the reset's) overflowed as an intermediate where
    |a x|^2 is finite: a row of norm 1e-153 gives a = y / |x|^2 = 1e306 and a^2 = inf, so
    the model was discarded as overflowed where the formula's w = [1e153, ...] is fine.
    The first update resets w to y x / |x|^2; the second row, orthogonal to w, takes a
    step with d_t = |w|^2 y / |x|^2 = 1e306."""
    X = np.array([[1e-153, 0.0], [0.0, 1e-153]])
    y = np.array([1, -1])
    clf = ROMMA(aggressive=aggressive, fit_intercept=False).fit(X, y)
    w, _ = naive_fo.romma(X, y, aggressive=aggressive)
    np.testing.assert_allclose(clf.coef_.ravel(), [1e153, -1e153], rtol=1e-14)
    np.testing.assert_allclose(clf.coef_.ravel(), w, rtol=1e-14)
    v = clf.weights_[:-1]
    np.testing.assert_allclose(clf.feature_sqnorm_[0], v @ v, rtol=1e-14)


@pytest.mark.parametrize("sparse", [False, True])
def test_aggressive_romma_takes_no_step_at_a_margin_of_exactly_one(sparse):
    """Aggressive ROMMA updates while y f < 1, not at y f = 1 (its hinge loss is 0 there).
    w_1 = y x / |x|^2 = [0.5, 0] after x = [2, 0]; the same row again scores exactly 1
    (powers of two), so nothing is learned and counts_[3] stays 1 (a step there would
    reset w to the same vector and count it: the weights cannot tell)."""
    X = np.array([[2.0, 0.0], [2.0, 0.0], [0.0, 4.0]])
    y = np.array([1, 1, -1])
    clf = ROMMA(aggressive=True, fit_intercept=False)
    scores = clf.test_then_train(_csr_or_dense(X, sparse), y, classes=[-1, 1])
    np.testing.assert_array_equal(scores, [0.0, 1.0, 0.0])
    assert clf.counts_[3] == 2  # the first and the third row
    np.testing.assert_array_equal(clf.coef_.ravel(), [0.5, -0.25])


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("aggressive", [False, True])
def test_romma_huge_rows_learn_the_rescaled_model(sparse, aggressive):
    """Without an intercept ROMMA is scale-free: rows times c give w / c (the reset's
    y x / |x|^2, c_t unchanged, d_t divided by c^2), the same decisions and the same
    signs. |v|^2's increment a^2 |x|^2 underflowed on huge rows: with c = 2^300,
    a = y / |x|^2 ~ 2^-600 makes a^2 = 0 (it loses bits from |x| ~ 1e77), so |v|^2
    stayed 0, every mistake was taken for the first update and reset w (183 updates
    instead of 94 here), and half of the predictions changed. With |v|^2 summed from v
    where a^2 underflows, the weights are the unscaled model's times 2^-300 to the
    rounding of its |v|^2 increments (~2e-12 relative; the 2^16 bound allows 1.5e-11)."""
    X, y = _random_stream(n=400, d=6, seed=3, density=0.5)
    c = 2.0**300
    ref = ROMMA(aggressive=aggressive, fit_intercept=False).fit(_csr_or_dense(X, sparse), y)
    clf = ROMMA(aggressive=aggressive, fit_intercept=False).fit(_csr_or_dense(c * X, sparse), y)
    assert clf.counts_[3] == ref.counts_[3]
    w = ref.coef_.ravel()
    np.testing.assert_allclose(clf.coef_.ravel() * c, w, rtol=0, atol=1e-10 * np.abs(w).max())
    np.testing.assert_array_equal(clf.predict(c * X), ref.predict(X))
    v = clf.weights_[:-1]
    np.testing.assert_allclose(clf.feature_sqnorm_[0], v @ v, rtol=1e-12)


def test_romma_rounding_bound_does_not_overflow_before_the_weights():
    """|w|^2 = 1e306 is finite and so are ROMMA's steps while |x|^2 |w|^2 is; the bound
    of |v|^2's rounding, which may reach 2^16 |v|^2 before |v|^2 is summed again, is kept
    in units of 2^-16 so that it overflows no earlier than |v|^2 itself (in plain units
    it passed 1.8e308 after ~180 steps here and the model was discarded as overflowed).
    w_1 = y x_1 / |x_1|^2 = [1e153, 0, 0]; then 300 mistakes on unit rows orthogonal to
    the first axis, each adding about y x to w."""
    rng = np.random.default_rng(4)
    clf = ROMMA(fit_intercept=False)
    rows, labels = [np.array([1e-153, 0.0, 0.0])], [1]
    clf.partial_fit(rows[0][None, :], labels, classes=[-1, 1])
    for _ in range(300):
        z = rng.normal(size=2)
        x = np.r_[0.0, z / np.linalg.norm(z)]
        y = -1 if clf.decision_function(x[None, :])[0] > 0 else 1  # a mistake each time
        clf.partial_fit(x[None, :], [y])
        rows.append(x)
        labels.append(y)
    assert clf.counts_[3] == 301
    w, _ = naive_fo.romma(np.array(rows), np.array(labels))
    np.testing.assert_allclose(clf.coef_.ravel(), w, rtol=1e-12, atol=1e-12 * np.abs(w).max())


def test_romma_recomputes_the_squared_norm_after_a_cancelling_step():
    """A nearly anti-parallel mistake cancels most of v: the increment
    2 a v.x + a^2 |x|^2 takes back almost all of |v|^2, so q is summed from v instead
    (its increment would lose the bits the cancellation took). w_1 = [1, 0]; x = [-1, e],
    y = +1 with e = 1e-4: f = -1, |x|^2|w|^2 = 1 + e^2, den = e^2, c = (2 + e^2)/e^2,
    d = 2/e^2: w_2 = [1, 2/e], |w_2|^2 = 1 + 4/e^2; in v = w/c the first entry is
    1 - 2/(2 + e^2), and |v|^2's increment 2 a v.x + a^2 |x|^2 = -2a + a^2 (1 + e^2)
    (a = d/c) takes back all but ~e^2 of |v_1|^2 = 1. (den = |x|^2 - 1 is itself known to
    ~1e-8 relative, in the eager formula too: |w_2|^2 is compared with the eager one.)"""
    e = 1e-4
    X = np.array([[1.0, 0.0], [-1.0, e]])
    clf = ROMMA(fit_intercept=False).partial_fit(X, [1, 1], classes=[-1, 1])
    w = clf.coef_.ravel()
    np.testing.assert_allclose(w, [1.0, 2 / e], rtol=1e-7)
    v = clf.weights_[:-1]
    np.testing.assert_allclose(clf.feature_sqnorm_[0], v @ v, rtol=1e-15)  # summed
    q = clf.feature_sqnorm_[0]
    ref, _ = naive_fo.romma(X, np.array([1, 1]))
    np.testing.assert_allclose(clf.weight_scale_[0] ** 2 * q, ref @ ref, rtol=1e-12)


def test_romma_step_leaves_the_other_columns_alone():
    clf = _one_row_leaves_other_columns(ROMMA())
    v = clf.weights_[:-1]
    np.testing.assert_allclose(clf.feature_sqnorm_[0], v @ v, rtol=1e-14)


def test_romma_pickle_mid_stream_and_an_older_pickle():
    c = _pickles_continue(
        ROMMA,
        ("weights_", "weight_scale_", "feature_sqnorm_", "feature_sqnorm_bound_", "counts_"),
        lambda X, y: naive_fo.romma(naive.augment(X), y)[0],
    )
    v = c.weights_[:-1]
    np.testing.assert_allclose(c.feature_sqnorm_[0], v @ v, rtol=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("aggressive", [False, True])
def test_romma_matches_numpy_reference(aggressive, fit_intercept, sparse):
    X, y = _random_stream(density=0.4 if sparse else None)
    clf = ROMMA(aggressive=aggressive, fit_intercept=fit_intercept)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    w, ref = naive_fo.romma(naive.augment(X, fit_intercept), y, aggressive=aggressive)
    np.testing.assert_allclose(_scaled_weights(clf), w, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(scores, ref, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("aggressive", [False, True])
def test_romma_overflow_on_noise_names_the_cause_not_scaling(aggressive):
    """|w| grows at every ROMMA update (w.w_t >= |w_t|^2); on random labels it passes 1e308
    within 20,000 rows, scaled or not (standard or 10x). The error says so instead of the
    generic advice to scale the features."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20_000, 2)), rng.choice([-1, 1], size=20_000)
    for scale in (1.0, 10.0):
        with pytest.raises(ValueError, match="scaling the features only slows") as exc:
            ROMMA(aggressive=aggressive).fit(scale * X, y)
        assert "Scale the features" not in str(exc.value)
    # other learners keep the generic advice
    with pytest.raises(ValueError, match=r"Scale the features \(e\.g\. sklearn"):
        OGD(loss="squared", eta=100.0).fit(X, y)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("aggressive", [False, True])
def test_romma_whose_norm_product_overflows_reports_it_instead_of_freezing(sparse, aggressive):
    """|x|^2 |w|^2 can pass float64 while w is finite: a first row of norm 1e-153 makes
    w = [1e153, 0], and a mistake on x = [0, 1e10] needs |x|^2 |w|^2 = 1e326. c_t and d_t
    cannot be formed; the step was a skip (den = inf <= inf) and so was every later step,
    so the model froze without a word (4ec0987 and before: counts_ [4, 3, 1, 1]), where
    ROMMA's docstring says an overflow is reported. It is now reported, and the model
    discarded, as every other ROMMA overflow is (session 22, lead)."""
    X = np.array([[1e-153, 0.0], [0.0, 1e10], [0.0, 1e10], [0.0, -1e10]])
    y = np.array([1, 1, 1, 0])
    if sparse:
        X = sp.csr_matrix(X)
    clf = ROMMA(aggressive=aggressive, fit_intercept=False)
    clf.partial_fit(X[:1], y[:1], classes=[0, 1])
    np.testing.assert_array_equal(clf.coef_, [[1e153, 0.0]])
    with pytest.raises(ValueError, match=r"ROMMA's state \(feature_sqnorm_\) became non-finite"):
        clf.partial_fit(X[1:], y[1:])
    assert not hasattr(clf, "coef_")  # discarded, as after any other overflow
    with pytest.raises(ValueError, match="became non-finite"):
        ROMMA(aggressive=aggressive, fit_intercept=False).fit(X, y)


def test_romma_bad_hyperparameters():
    X, y = _random_stream()
    with pytest.raises(ValueError, match="'aggressive' parameter of ROMMA must be an instance"):
        ROMMA(aggressive="yes").fit(X, y)
