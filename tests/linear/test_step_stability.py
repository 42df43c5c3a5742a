"""The squared-loss step-size check of OGD and TruncatedGradient (skewlearn._stability).

A squared-loss step changes the row's own error by 1 - eta_t |[x, 1]|^2; with a gain above
2 it overshoots. The counts are checked by hand on a 3-row stream and against a brute-force
count on random streams; the warning's suggested eta is checked to be stable.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from skewlearn import OGD, OPAUC, TruncatedGradient
from skewlearn._stability import _round_down
from skewlearn.base import max_abs_value

# |[x, 1]|^2 = 2, 6, 2 (intercept feature included)
X3 = np.array([[1.0, 0.0], [2.0, 1.0], [0.0, 1.0]])
Y3 = np.array([1, -1, 1])


def _brute_force(X, eta, schedule, fit_intercept=True):
    """(steps with eta_t |[x, b]|^2 > 2, largest eta_t |[x, b]|^2), t = 1, 2, ..."""
    t = np.arange(1, len(X) + 1)
    eta_t = eta / np.sqrt(t) if schedule == "invsqrt" else np.full(len(X), eta)
    gains = eta_t * ((X**2).sum(axis=1) + (1.0 if fit_intercept else 0.0))
    return float((gains > 2.0).sum()), float(gains.max())


def _outlier_stream(seed, n=500, d=6):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 1.2, 1, -1)
    X[rng.choice(n, size=5, replace=False)] *= 10.0  # five outlying rows
    return X, y


def test_ogd_squared_three_rows_by_hand():
    # constant eta = .5: gains 1, 3, 1 -> the second step overshoots
    clf = OGD(loss="squared", schedule="constant", eta=0.5)
    with pytest.warns(RuntimeWarning, match=r"OGD: 1 of the 3 rows .*largest so far 3\b") as w:
        clf.fit(X3, Y3)
    assert w[0].filename == __file__  # the warning points at the caller's line
    np.testing.assert_array_equal(clf.stability_, [1.0, 3.0])
    with pytest.warns(RuntimeWarning, match="OGD: 1 of the 3 rows") as w:
        OGD(loss="squared", schedule="constant", eta=0.5).partial_fit(X3, Y3)
    assert w[0].filename == __file__
    # the named eta is 2 * .5 / 3 = .333 rounded down
    with pytest.warns(RuntimeWarning, match=r"Lower eta to 0\.333 or less"):
        OGD(loss="squared", schedule="constant", eta=0.5).fit(X3, Y3)
    # invsqrt, eta = 1: gains 2, 6/sqrt 2 = 4.24, 2/sqrt 3 = 1.15 -> one (gain 2 is not > 2)
    clf = OGD(loss="squared", eta=1.0)
    with pytest.warns(RuntimeWarning, match="OGD: 1 of the 3 rows"):
        clf.fit(X3, Y3)
    np.testing.assert_allclose(clf.stability_, [1.0, 6.0 / np.sqrt(2.0)], rtol=1e-15)
    # without the intercept feature the norms are 1, 5, 1: gains .5, 2.5, .5
    clf = OGD(loss="squared", schedule="constant", eta=0.5, fit_intercept=False)
    with pytest.warns(RuntimeWarning, match="OGD: 1 of the 3 rows"):
        clf.fit(X3, Y3)
    np.testing.assert_array_equal(clf.stability_, [1.0, 2.5])


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize(
    ("cls", "params"),
    [
        (OGD, {"schedule": "invsqrt", "eta": 0.3}),
        (OGD, {"schedule": "constant", "eta": 0.02, "alpha": 0.01}),
        (TruncatedGradient, {"schedule": "constant", "eta": 0.02, "gravity": 0.01}),
        (TruncatedGradient, {"schedule": "invsqrt", "eta": 0.3, "gravity": 0.0}),
    ],
    ids=["ogd-invsqrt", "ogd-constant-l2", "tg-constant", "tg-invsqrt"],
)
def test_counts_equal_brute_force_and_named_eta_is_stable(cls, params, sparse):
    X, y = _outlier_stream(seed=1)
    ref = _brute_force(X, params["eta"], params["schedule"])
    assert ref[0] >= 1
    clf = cls(loss="squared", **params)
    with pytest.warns(RuntimeWarning, match=rf"{cls.__name__}: {int(ref[0])} of the 500 rows"):
        clf.fit(sp.csr_matrix(X) if sparse else X, y)
    np.testing.assert_allclose(clf.stability_, ref, rtol=1e-12)
    safe = _round_down(2.0 * params["eta"] / ref[1])
    assert _brute_force(X, safe, params["schedule"])[0] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning at the named eta
        stable = cls(loss="squared", **{**params, "eta": safe}).fit(X, y)
    assert stable.stability_[0] == 0


def test_counts_accumulate_over_batches_and_float32_counts_the_same():
    X, y = _outlier_stream(seed=2)
    clf = OGD(loss="squared", schedule="constant", eta=0.02)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for lo in range(0, 500, 125):
            clf.partial_fit(X[lo : lo + 125], y[lo : lo + 125], classes=[-1, 1])
        one = OGD(loss="squared", schedule="constant", eta=0.02).fit(X.astype(np.float32), y)
    np.testing.assert_allclose(clf.stability_, _brute_force(X, 0.02, "constant"), rtol=1e-12)
    np.testing.assert_allclose(
        one.stability_, _brute_force(X.astype(np.float32).astype(np.float64), 0.02, "constant"),
        rtol=1e-12,
    )  # fmt: skip


@pytest.mark.parametrize("cls", [OGD, TruncatedGradient])
@pytest.mark.parametrize("loss", ["hinge", "logistic"])
def test_bounded_losses_are_never_counted(cls, loss):
    X, y = _outlier_stream(seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = cls(loss=loss, schedule="constant", eta=5.0).fit(X * 100.0, y)
    np.testing.assert_array_equal(clf.stability_, [0.0, 0.0])


def test_round_down_never_rounds_up():
    for x in [0.00108780843, 1.0, 2.0 / 3.0, 123456.0, 9.9999e-7]:
        r = _round_down(x)
        assert r <= x and r > x * 0.99
    assert _round_down(0.00108780843) == pytest.approx(0.00108)


def test_round_down_never_rounds_up_just_below_a_three_digit_decimal():
    """One ulp below a 3-digit decimal, ``floor(x / unit) * unit`` came back as that
    decimal, above ``x`` (e.g. 1.15e-10 from 1.1499999999999999e-10; about 3 % of such
    values below 1e-10 or above 1e10), so the "eta … or less" of the warning could exceed
    2 * eta / gain."""
    rng = np.random.default_rng(0)
    for e in range(-300, 300, 3):
        for m in rng.integers(100, 1000, 20):
            below = float(np.nextafter(float(f"{m}e{e}"), 0.0))
            r = _round_down(below)
            assert r <= below and r > below * 0.99, (below, r)
    assert _round_down(1.1499999999999999e-10) == pytest.approx(1.14e-10, rel=1e-12)
    assert _round_down(5e-324) == 5e-324 and _round_down(1.7976931348623157e308) == 1.79e308


@pytest.mark.parametrize(
    "est",
    [OGD(loss="squared", eta=10.0), TruncatedGradient(loss="squared", eta=10.0), OPAUC()],
    ids=["ogd", "tg", "opauc"],
)
def test_an_overflowing_gain_warns_and_asks_for_scaling(est):
    """Values just inside the accepted magnitude make the gain (eta_t |[x, 1]|^2, or OPAUC's
    eta (lam + |x - c|^2)) overflow to inf; naming a step size then divided by inf and
    ``math.log10(0)`` raised a bare "math domain error" instead of the warning and the
    overflow error."""
    big = 0.9 * max_abs_value(2)
    X = np.array([[big, 0.0], [-big, 0.0], [big, 0.0]])
    with (
        pytest.warns(RuntimeWarning, match=r"largest so far inf\).* overflowed float64.*scale"),
        pytest.raises(ValueError, match="non-finite"),
    ):
        est.fit(X, np.array([1, 0, 1]))
    assert not hasattr(est, "weights_")  # the overflowed model was discarded


@pytest.mark.parametrize("route", ["test_then_train", "prequential", "river"])
def test_the_unstable_step_warning_names_the_callers_line_on_every_route(route):
    # The warning was raised with a fixed stack level that was right for fit and
    # partial_fit only; through prequential (or anything else that adds a frame) it named
    # a line inside skewlearn. It now walks to the first frame outside the package.
    from skewlearn.evaluation import prequential

    clf = OGD(loss="squared", schedule="constant", eta=0.5)
    with pytest.warns(RuntimeWarning, match="unstable step") as w:
        if route == "test_then_train":
            clf.test_then_train(X3, Y3)
        elif route == "prequential":
            prequential(clf, X3, Y3)
        elif route == "river":
            from skewlearn.compat.river import RiverClassifier

            model = RiverClassifier(clf)
            for row, label in zip(X3, Y3, strict=True):
                model.learn_one(dict(enumerate(row)), bool(label == 1))
    named = {x.filename for x in w if "unstable step" in str(x.message)}
    assert named == {__file__}
