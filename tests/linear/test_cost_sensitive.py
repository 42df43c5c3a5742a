"""Cost-sensitive learners against hand-computed updates and numpy references."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from skewlearn import CostSensitiveOGD, CostSensitivePA, PassiveAggressive
from tests import naive
from tests.naive import cost_sensitive as naive_cs

X3 = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]])


def _random_stream(n=300, d=6, seed=0, density=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if density is not None:
        X[rng.random(size=X.shape) > density] = 0.0
    y = np.where(X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > 1.2, 1, -1)
    return X, y


# --------------------------------------------------------------------------- CSOGD
def test_csogd_sum_running_ratio_by_hand():
    # labels -1, -1, +1; lambda = 0.1; eta_p = eta_n = .5 so rho = T_n / T_p (running).
    # t=1 (y=-1): f=0, max(0, 1 - 0) > 0 -> w = -.1*[1, 2, 1] = [-.1, -.2, -.1]
    # t=2 (y=-1): f = -.2 + .2 - .1 = -.1, y f = .1 < 1 -> w -= .1*[2,-1,1] -> [-.3, -.1, -.2]
    # t=3 (y=+1): T_p=1, T_n=2 -> rho = 2; f = .3 - .1 - .2 = 0
    #   variant I : max(0, 2 - 0) > 0 -> w += .1*[-1, 1, 1]    -> [-.4, 0, -.1]
    #   variant II: 2*max(0, 1 - 0) > 0 -> w += .1*2*[-1, 1, 1] -> [-.5, .1, 0]
    y = np.array([-1, -1, 1])
    one = CostSensitiveOGD(variant="I").fit(X3, y)
    np.testing.assert_allclose(one.weights_, [-0.4, 0.0, -0.1], atol=1e-15)
    two = CostSensitiveOGD(variant="II").fit(X3, y)
    np.testing.assert_allclose(two.weights_, [-0.5, 0.1, 0.0], atol=1e-15)


def test_csogd_running_ratio_counts_the_current_positive_by_hand():
    # labels -1, +1, +1; variant II, lambda = .1, rho = T_n / T_p with this sample counted.
    # t=1 (-1): f = 0 -> w = -.1*[1, 2, 1] = [-.1, -.2, -.1]
    # t=2 (+1): T_p = 1, T_n = 1 -> rho = 1; f = -.2 + .2 - .1 = -.1 -> w += .1*[2, -1, 1]
    #           -> [.1, -.3, 0]
    # t=3 (+1): T_p = 2, T_n = 1 -> rho = 1/2; f = -.1 - .3 = -.4 -> w += .05*[-1, 1, 1]
    #           -> [.05, -.25, .05]   (rho = 1, the ratio before this sample, gives [0, -.2, .1])
    clf = CostSensitiveOGD(variant="II").fit(X3, np.array([-1, 1, 1]))
    np.testing.assert_allclose(clf.weights_, [0.05, -0.25, 0.05], atol=1e-15)


def test_csogd_cost_margin_and_weighted_by_hand():
    y = np.array([1, 1, -1])
    # cost, variant I, c = (.75, .25) -> rho = 3, lambda = 1:
    # t=1 (+1): f=0, max(0, 3 - 0) > 0 -> w = [1, 2, 1]
    # t=2 (+1): f = 2 - 2 + 1 = 1; the plain hinge is 0 here but max(0, 3 - 1) > 0 -> w = [3, 1, 2]
    # t=3 (-1): f = -3 + 1 + 2 = 0 -> w -= [-1, 1, 1] -> [4, 0, 1]
    clf = CostSensitiveOGD(objective="cost", variant="I", c_pos=0.75, c_neg=0.25, eta=1.0).fit(
        X3, y
    )
    np.testing.assert_allclose(clf.weights_, [4.0, 0.0, 1.0], atol=1e-15)
    # weighted (OMCSL Eq. 1), hinge, lambda = 1: step c_y * y * x while y f < 1
    # t=1: w = .75*[1, 2, 1] = [.75, 1.5, .75]
    # t=2: f = .75 - 1.5 + .75 = 0 -> w += .75*[2, -1, 1] -> [2.25, .75, 1.5]
    # t=3: f = -2.25 + .75 + 1.5 = 0 -> w -= .25*[-1, 1, 1] -> [2.5, .5, 1.25]
    clf = CostSensitiveOGD(objective="weighted", variant="II", c_pos=0.75, c_neg=0.25, eta=1.0)
    clf.fit(X3, y)
    np.testing.assert_allclose(clf.weights_, [2.5, 0.5, 1.25], atol=1e-15)
    # same with the logistic loss: slopes sigmoid(-y f) = .5 at f = 0 for the first step
    # t=1: w = .75 * .5 * [1, 2, 1]; then the reference formula for the next two
    clf = CostSensitiveOGD(
        objective="weighted", variant="II", loss="logistic", c_pos=0.75, c_neg=0.25, eta=1.0
    ).partial_fit(X3[:1], y[:1], classes=[-1, 1])
    np.testing.assert_allclose(clf.weights_, [0.375, 0.75, 0.375], atol=1e-15)


def test_csogd_variant_one_is_passive_from_the_class_margin_on_by_hand():
    # cost, variant I, c = (.75, .25) -> rho = 3, lambda = 1; l^I = max(0, rho_y - y f).
    # t=1 (+1, x = [1, 2, 1]): f = 0 < 3 -> w = [1, 2, 1]
    # t=2 (+1, x = [.5, 1, 1]): f = .5 + 2 + 1 = 3.5 >= rho = 3 -> passive
    # t=3 (-1, x = [-2.5, 0, 1]): f = -2.5 + 1 = -1.5, y f = 1.5 >= 1 -> passive
    X = np.array([[1.0, 2.0], [0.5, 1.0], [-2.5, 0.0]])
    clf = CostSensitiveOGD(objective="cost", variant="I", c_pos=0.75, c_neg=0.25, eta=1.0)
    scores = clf.test_then_train(X, np.array([1, 1, -1]), classes=[-1, 1])
    np.testing.assert_array_equal(scores, [0.0, 3.5, -1.5])
    np.testing.assert_array_equal(clf.weights_, [1.0, 2.0, 1.0])
    np.testing.assert_array_equal(clf.counts_, [3, 2, 1, 1])


CS_CONFIGS = [
    {},
    {"variant": "I"},
    {"variant": "I", "loss": "logistic", "schedule": "invsqrt", "eta": 0.5},
    {"variant": "I", "imbalance_ratio": 9.0, "eta_p": 0.3},
    {"objective": "cost", "variant": "I", "c_pos": 0.9, "c_neg": 0.1, "loss": "logistic"},
    {"objective": "cost", "variant": "II", "c_pos": 0.7, "c_neg": 0.3},
    {"objective": "weighted", "variant": "II", "c_pos": 0.95, "c_neg": 0.05},
]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("params", CS_CONFIGS)
def test_csogd_matches_numpy_reference(params, fit_intercept, sparse):
    X, y = _random_stream(density=0.4 if sparse else None)
    clf = CostSensitiveOGD(fit_intercept=fit_intercept, **params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    w, ref = naive_cs.csogd(naive.augment(X, fit_intercept), y, **params)
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, ref, rtol=1e-10, atol=1e-12)


def test_csogd_weighted_is_rescaled_cost_objective():
    """Variant II: the paper's rho-weights (c_p/c_n, 1) are OMCSL's (c_p, c_n) / c_n."""
    X, y = _random_stream(seed=4)
    a = CostSensitiveOGD(objective="cost", variant="II", c_pos=0.8, c_neg=0.2, eta=0.05)
    b = CostSensitiveOGD(objective="weighted", variant="II", c_pos=0.8, c_neg=0.2, eta=0.25)
    np.testing.assert_allclose(a.fit(X, y).weights_, b.fit(X, y).weights_, rtol=1e-12)


def test_csogd_higher_positive_cost_raises_recall():
    X, y = _random_stream(n=2000, seed=5)
    recalls = []
    for c_pos in (0.5, 0.95):
        clf = CostSensitiveOGD(objective="cost", c_pos=c_pos, c_neg=1 - c_pos).fit(X, y)
        recalls.append(np.mean(clf.predict(X)[y == 1] == 1))
    assert recalls[1] > recalls[0]


def test_csogd_bad_hyperparameters():
    X, y = _random_stream()
    with pytest.raises(ValueError, match=r"objective='weighted' .* variant 'II'"):
        CostSensitiveOGD(objective="weighted", variant="I").fit(X, y)
    with pytest.raises(ValueError, match=r"'eta_p' parameter .* range \(0\.0, 1\.0\)"):
        CostSensitiveOGD(eta_p=1.0).fit(X, y)
    with pytest.raises(ValueError, match="'c_neg' parameter"):
        CostSensitiveOGD(c_neg=0.0).fit(X, y)
    with pytest.raises(ValueError, match="'loss' parameter"):
        CostSensitiveOGD(loss="squared").fit(X, y)
    with pytest.raises(ValueError, match="'imbalance_ratio' parameter"):
        CostSensitiveOGD(imbalance_ratio=-1.0).fit(X, y)


# --------------------------------------------------------------------------- CPA
def test_cpa_three_samples_by_hand():
    # c_pos = 4, c_neg = 1 -> margins sqrt(c_y) = 2 (positives) and 1 (negatives); PA (no C)
    # t=1 (+1): f = 0, loss 2 - 0 = 2, ||x||^2 = 6, tau = 1/3 -> w = [1,2,1]/3
    # t=2 (-1): f = (2 - 2 + 1)/3 = 1/3, loss 1 + 1/3, tau = (4/3)/6 = 2/9
    #           -> w = [1,2,1]/3 - (2/9)[2,-1,1] = [-1, 8, 1]/9
    # t=3 (-1): f = (1 + 8 + 1)/9 = 10/9, loss 19/9, ||x||^2 = 3, tau = 19/27
    #           -> w = [-1,8,1]/9 - (19/27)[-1,1,1] = [16, 5, -16]/27
    y = np.array([1, -1, -1])
    for update in ("max_loss", "prediction"):  # every step is a mistake: both agree
        clf = CostSensitivePA(c_pos=4.0, variant="pa", update=update).fit(X3, y)
        np.testing.assert_allclose(clf.weights_, np.array([16, 5, -16]) / 27, rtol=1e-13)
    # third sample [1, 1] labelled +1: f = (-1 + 8 + 1)/9 = 8/9 > 0 is a correct prediction,
    # so prediction-based CPA stays at [-1,8,1]/9; max-loss has loss 2 - 8/9 = 10/9 > 0,
    # tau = (10/9)/3 = 10/27 -> w = [-1,8,1]/9 + (10/27)[1,1,1] = [7, 34, 13]/27
    Xb, yb = np.array([[1.0, 2.0], [2.0, -1.0], [1.0, 1.0]]), np.array([1, -1, 1])
    pb = CostSensitivePA(c_pos=4.0, variant="pa", update="prediction").fit(Xb, yb)
    np.testing.assert_allclose(pb.weights_, np.array([-1, 8, 1]) / 9, rtol=1e-13)
    ml = CostSensitivePA(c_pos=4.0, variant="pa", update="max_loss").fit(Xb, yb)
    np.testing.assert_allclose(ml.weights_, np.array([7, 34, 13]) / 27, rtol=1e-13)
    # PA-I with C = 0.1 caps every tau above at 0.1: w = .1*([1,2,1] - [2,-1,1] - [-1,1,1])
    pa1 = CostSensitivePA(c_pos=4.0, C=0.1).fit(X3, y)
    np.testing.assert_allclose(pa1.weights_, [0.0, 0.2, -0.1], atol=1e-15)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"c_pos": 9.0, "c_neg": 0.5, "variant": "pa"},
        {"c_pos": 3.0, "variant": "pa2", "C": 0.2, "update": "prediction"},
        {"c_pos": 5.0, "C": 0.05, "update": "prediction"},
    ],
)
def test_cpa_matches_numpy_reference(params, fit_intercept, sparse):
    X, y = _random_stream(density=0.4 if sparse else None)
    clf = CostSensitivePA(fit_intercept=fit_intercept, **params)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    w, ref = naive_cs.cpa(naive.augment(X, fit_intercept), y, **params)
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(scores, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("variant", ["pa", "pa1", "pa2"])
def test_cpa_with_unit_costs_is_pa(variant):
    X, y = _random_stream(seed=8)
    a = CostSensitivePA(variant=variant, C=0.3).fit(X, y)
    b = PassiveAggressive(variant=variant, C=0.3).fit(X, y)
    np.testing.assert_array_equal(a.weights_, b.weights_)


def test_cpa_bad_hyperparameters():
    X, y = _random_stream()
    with pytest.raises(ValueError, match="'c_pos' parameter of CostSensitivePA must be a float"):
        CostSensitivePA(c_pos=0).fit(X, y)
    with pytest.raises(ValueError, match="'update' parameter"):
        CostSensitivePA(update="max").fit(X, y)


def test_a_setting_refused_on_the_first_call_leaves_the_learner_unfitted():
    """The cost check runs when the model is allocated, after the classes are known; a
    refused first call must not leave a half-fitted object behind."""
    from sklearn.exceptions import NotFittedError

    from skewlearn import NORMA, OGD, OMCSL, Perceptron

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] > 0).astype(int)
    for est, fix in (
        (CostSensitiveOGD(objective="weighted", variant="I"), {"variant": "II"}),
        (OGD(alpha=2.0), {"alpha": 0.5}),
        (NORMA(eta=1.0, lam=2.0), {"lam": 0.5}),
        (
            OMCSL(base_estimator=Perceptron(), random_state=0),
            {"base_estimator": CostSensitiveOGD(objective="weighted")},
        ),
    ):
        with pytest.raises(ValueError):
            est.partial_fit(X, y)
        assert not hasattr(est, "classes_") and not hasattr(est, "n_features_in_")
        with pytest.raises(NotFittedError):
            est.predict(X[:1])
        est.set_params(**fix).partial_fit(X, y)
        np.testing.assert_array_equal(
            est.decision_function(X), clone(est).fit(X, y).decision_function(X)
        )
