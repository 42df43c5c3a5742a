"""Second-order learners against hand-computed updates and numpy references."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import ndtr, ndtri

from skewlearn import AROW, CW, IELLIP, NAROW, NHERD, SCW, SOP
from tests import naive
from tests.naive import second_order as ref

# A 3-sample stream for the hand-computed checks; with the intercept the augmented rows
# are x1 = [1, 2, 1], x2 = [2, -1, 1], x3 = [-1, 1, 1].
X3 = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]])
Y3 = np.array([1, -1, -1])
x1, x2, x3 = (np.append(x, 1.0) for x in X3)


def _stream(n=250, d=5, seed=0, sparse=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if sparse:
        X[np.abs(X) < 0.6] = 0.0
    y = np.where(X @ rng.normal(size=d) + 0.5 * rng.normal(size=n) > 0.8, 1, -1)
    return X, y


# --------------------------------------------------------------------------- by hand
def test_arow_full_three_samples_by_hand():
    # r = 1, Σ0 = I.
    # t=1: m = 0, v = |x1|^2 = 6, beta = 1/7, alpha = 1 * 1/7, Σx1 = x1
    #      mu1 = x1/7, Σ1 = I - x1 x1^T / 7
    # t=2: m = mu1.x2 = (2 - 2 + 1)/7 = 1/7, y = -1, loss = 8/7;
    #      Σ1 x2 = x2 - x1 (x1.x2)/7 = [2,-1,1] - [1,2,1]/7 = [13,-9,6]/7 =: z/7
    #      v = x2.Σ1x2 = (26 + 9 + 6)/7 = 41/7, beta = 1/(41/7 + 1) = 7/48,
    #      alpha = 8/7 * 7/48 = 1/6
    #      mu2 = [1,2,1]/7 - (1/6)[13,-9,6]/7 = [-7, 21, 0]/42 = [-1/6, 1/2, 0]
    #      Σ2 = Σ1 - (7/48) z z^T / 49 = Σ1 - z z^T / 336
    # t=3: m = mu2.x3 = 1/6 + 1/2 = 2/3, y = -1, loss = 5/3;
    #      Σ1 x3 = x3 - x1 (x1.x3)/7 = [-9, 3, 5]/7;  z.x3 = -13 - 9 + 6 = -16
    #      Σ2 x3 = [-9,3,5]/7 + 16 z/336 = [-27+13, 9-9, 15+6]/21 = [-2/3, 0, 1] =: u
    #      v = 2/3 + 1 = 5/3, beta = 3/8, alpha = 5/3 * 3/8 = 5/8
    #      mu3 = mu2 - (5/8) u = [-1/6 + 5/12, 1/2, -5/8] = [1/4, 1/2, -5/8]
    #      Σ3 = Σ2 - (3/8) u u^T
    clf = AROW(r=1.0, covariance="full").fit(X3, Y3)
    z = np.array([13.0, -9.0, 6.0])
    u = np.array([-2 / 3, 0.0, 1.0])
    S3 = np.eye(3) - np.outer(x1, x1) / 7 - np.outer(z, z) / 336 - 3 / 8 * np.outer(u, u)
    np.testing.assert_allclose(clf.weights_, [1 / 4, 1 / 2, -5 / 8], atol=1e-14)
    np.testing.assert_allclose(clf.covariance_, S3, atol=1e-14)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def test_arow_diag_three_samples_by_hand():
    # r = 1, s = diag(Σ) = [1, 1, 1].
    # t=1: v = 6, beta = 1/7, alpha = 1/7: mu1 = x1/7; 1/s += x1^2 -> s = [1/2, 1/5, 1/2]
    # t=2: m = 1/7, loss = 8/7; v = 4/2 + 1/5 + 1/2 = 27/10, beta = 10/37,
    #      alpha = 8/7 * 10/37 = 80/259;  s*x2 = [1, -1/5, 1/2]
    #      mu2 = [37, 74, 37]/259 - 80 [1, -1/5, 1/2]/259 = [-43, 90, -3]/259
    #      1/s = [2, 5, 2] + [4, 1, 1] = [6, 6, 3] -> s = [1/6, 1/6, 1/3]
    # t=3: m = mu2.x3 = (43 + 90 - 3)/259 = 130/259, loss = 389/259;
    #      v = 1/6 + 1/6 + 1/3 = 2/3, beta = 3/5, alpha = 389/259 * 3/5 = 1167/1295
    #      mu3 = mu2 - alpha [-1/6, 1/6, 1/3];  1/s = [7, 7, 4] -> s = [1/7, 1/7, 1/4]
    clf = AROW(r=1.0, covariance="diag").fit(X3, Y3)
    a = 1167 / 1295
    mu3 = np.array([-43, 90, -3]) / 259 - a * np.array([-1 / 6, 1 / 6, 1 / 3])
    np.testing.assert_allclose(clf.weights_, mu3, atol=1e-14)
    np.testing.assert_allclose(clf.covariance_, [1 / 7, 1 / 7, 1 / 4], atol=1e-15)


def _cw_gamma(M, V, phi=1.0):
    """Lemma 1 of Dredze et al. (2008), written out for the hand checks."""
    b = 1 + 2 * phi * M
    return (-b + np.sqrt(b * b - 8 * phi * (M - phi * V))) / (4 * phi * V)


def test_cw_full_three_samples_by_hand():
    # eta = Phi(1) so phi = 1; a = 1: Σ1 = I.
    # t=1: M = 0, V = 6: gamma = (-1 + sqrt(1 + 48))/24 = 1/4 = alpha
    #      mu = x1/4;  Σ^-1 += 2 alpha phi x1 x1^T = x1 x1^T/2
    #      -> Σ = I - (1/2)/(1 + 6/2) x1 x1^T = I - x1 x1^T/8
    # t=2: M = -mu.x2 = -1/4;  z := Σ x2 = x2 - x1 (x1.x2)/8 = [15, -10, 7]/8
    #      V = x2.z = (30 + 10 + 7)/8 = 47/8
    #      gamma = (-(1/2) + sqrt(1/4 + 8 * 49/8))/(47/2) = (sqrt(197) - 1)/47 = alpha2
    #      mu -= alpha2 z;  Σ -= beta2 z z^T, beta2 = 2 alpha2/(1 + 2 alpha2 V)
    # t=3: mu.x3 = 2/4 + alpha2 * 18/8 -> M3 = -(1/2 + 9 alpha2/4)
    #      Σ1 x3 = x3 - 2 x1/8 = [-5/4, 1/2, 3/4];  z.x3 = -9/4
    #      u := Σ x3 = [-5/4, 1/2, 3/4] + (9/4) beta2 z;  V3 = 5/2 - (81/16) beta2
    #      alpha3 = gamma(M3, V3); mu -= alpha3 u; Σ -= beta3 u u^T
    clf = CW(eta=ndtr(1.0), a=1.0, covariance="full").fit(X3, Y3)
    assert _cw_gamma(0.0, 6.0) == 0.25
    a2 = (np.sqrt(197) - 1) / 47
    assert np.isclose(_cw_gamma(-0.25, 47 / 8), a2)
    z = np.array([15.0, -10.0, 7.0]) / 8
    b2 = 2 * a2 / (1 + 2 * a2 * 47 / 8)
    M3 = -(0.5 + 9 * a2 / 4)
    u = np.array([-5 / 4, 1 / 2, 3 / 4]) + 9 / 4 * b2 * z
    V3 = 5 / 2 - 81 / 16 * b2
    assert np.isclose(x3 @ u, V3)
    a3 = _cw_gamma(M3, V3)
    b3 = 2 * a3 / (1 + 2 * a3 * V3)
    mu3 = x1 / 4 - a2 * z - a3 * u
    S3 = np.eye(3) - np.outer(x1, x1) / 8 - b2 * np.outer(z, z) - b3 * np.outer(u, u)
    np.testing.assert_allclose(clf.weights_, mu3, rtol=1e-12)
    np.testing.assert_allclose(clf.covariance_, S3, rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def test_cw_is_passive_when_the_constraint_holds():
    # After x1 (mu = x1/4, Σ = I - x1 x1^T/8), x1/2: M = 6/8 = 0.75,
    # V = (6 - 36/8)/4 = 0.375, and M > phi V for phi = 1 -> alpha = 0, nothing changes.
    clf = CW(eta=ndtr(1.0), covariance="full").partial_fit(X3[:1], [1], classes=[-1, 1])
    before = clf.weights_.copy(), clf.covariance_.copy()
    clf.partial_fit(X3[:1] / 2, [1])
    np.testing.assert_array_equal(clf.weights_, before[0])
    np.testing.assert_array_equal(clf.covariance_, before[1])
    assert clf.counts_[3] == 1


def _scw_su(alpha, v, phi=1.0):
    """sqrt(u) = (-alpha v phi + sqrt(alpha^2 v^2 phi^2 + 4 v))/2, literally."""
    return (-alpha * v * phi + np.sqrt((alpha * v * phi) ** 2 + 4 * v)) / 2


def test_scw1_full_three_samples_by_hand():
    # eta = Phi(1): phi = 1, psi = 3/2, zeta = 2; C = 1; Σ = I.
    # t=1: m = 0, v = 6, loss = sqrt(6) > 0
    #      alpha = min(1, sqrt(0 + 6 * 2)/(6 * 2)) = 1/sqrt(12) = 1/(2 sqrt(3))
    #      alpha v phi = sqrt(3): sqrt(u) = (-sqrt(3) + sqrt(3 + 24))/2 = sqrt(3)
    #      beta = alpha/(sqrt(3) + sqrt(3)) = 1/12
    #      mu = x1/(2 sqrt(3)),  Σ = I - x1 x1^T/12
    # t=2: m = -mu.x2 = -1/(2 sqrt(3)), m^2 = 1/12;  z := Σ x2 = x2 - x1/12 = [23, -14, 11]/12
    #      v = x2.z = (46 + 14 + 11)/12 = 71/12
    #      alpha2 = (-m psi + sqrt(m^2/4 + 2 v))/(2 v) = (sqrt(3)/4 + sqrt(569/48))/(71/6)
    #      beta2 = alpha2/(sqrt(u2) + v alpha2),  mu -= alpha2 z,  Σ -= beta2 z z^T
    # t=3: u3 := Σ x3 = (x3 - 2 x1/12) - beta2 z (z.x3), z.x3 = (-23 - 14 + 11)/12 = -13/6
    #      m3 = -(mu.x3), v3 = x3.u3; alpha3 as at t=2 with (m3, v3)
    clf = SCW(C=1.0, eta=ndtr(1.0), variant="scw1", covariance="full").fit(X3, Y3)
    a1 = 1 / (2 * np.sqrt(3))
    assert np.isclose(_scw_su(a1, 6.0), np.sqrt(3))
    z = np.array([23.0, -14.0, 11.0]) / 12
    v2 = 71 / 12
    a2 = (np.sqrt(3) / 4 + np.sqrt(569 / 48)) / (71 / 6)
    b2 = a2 / (_scw_su(a2, v2) + v2 * a2)
    mu2 = x1 * a1 - a2 * z
    u3 = x3 - 2 * x1 / 12 - b2 * z * (-13 / 6)
    m3, v3 = -(mu2 @ x3), x3 @ u3
    a3 = min(1.0, (-m3 * 1.5 + np.sqrt(m3**2 / 4 + 2 * v3)) / (2 * v3))
    b3 = a3 / (_scw_su(a3, v3) + v3 * a3)
    S3 = np.eye(3) - np.outer(x1, x1) / 12 - b2 * np.outer(z, z) - b3 * np.outer(u3, u3)
    np.testing.assert_allclose(clf.weights_, mu2 - a3 * u3, rtol=1e-12)
    np.testing.assert_allclose(clf.covariance_, S3, rtol=1e-12, atol=1e-14)


def test_scw1_cap_and_scw2_first_step_by_hand():
    # SCW-I, C = 0.1: the first step 1/(2 sqrt(3)) = 0.289 is capped at 0.1.
    clf = SCW(C=0.1, eta=ndtr(1.0), covariance="full").partial_fit(X3[:1], [1], classes=[-1, 1])
    np.testing.assert_allclose(clf.weights_, 0.1 * x1, rtol=1e-14)
    # SCW-II, C = 1, phi = 1, m = 0, v = 6: n = 6 + 1/2 = 13/2,
    # gamma = sqrt(0 + 4 * 6.5 * 6 * (6.5 + 6)) = sqrt(1950),
    # alpha = sqrt(1950)/(2 (6.5^2 + 6.5 * 6)) = sqrt(1950)/162.5
    clf = SCW(C=1.0, eta=ndtr(1.0), variant="scw2", covariance="full")
    clf.partial_fit(X3[:1], [1], classes=[-1, 1])
    np.testing.assert_allclose(clf.weights_, np.sqrt(1950) / 162.5 * x1, rtol=1e-14)


def test_sop_full_three_samples_by_hand():
    # a = 1: A^-1 = I, v = 0, w = 0. Every sample is a mistake (y f <= 0):
    # t=1: f = 0;  z = x1, q = 6: w = (1 - 0)/7 x1 = x1/7, A^-1 = I - x1 x1^T/7, v = x1
    #      (check: A = I + x1 x1^T, A^-1 x1 = x1/7)
    # t=2: f = w.x2 = 1/7, y = -1;  z = x2 - x1/7 = [13, -9, 6]/7, q = 41/7
    #      w += (-1 - 1/7)/(1 + 41/7) z = -(1/6) z -> w = [-1/6, 1/2, 0]
    #      A^-1 -= z z^T (7/48) = [13,-9,6][13,-9,6]^T/336, v = x1 - x2 = [-1, 3, 0]
    # t=3: f = 1/6 + 1/2 = 2/3, y = -1;  z = [-2/3, 0, 1] (as in the AROW check), q = 5/3
    #      w += (-1 - 2/3)/(8/3) z = -(5/8) z -> w = [1/4, 1/2, -5/8];  v = [0, 2, -1]
    # (with a = r = 1 and updates on every sample SOP's step equals AROW's.)
    clf = SOP(a=1.0, covariance="full").fit(X3, Y3)
    z = np.array([13.0, -9.0, 6.0])
    u = np.array([-2 / 3, 0.0, 1.0])
    S3 = np.eye(3) - np.outer(x1, x1) / 7 - np.outer(z, z) / 336 - 3 / 8 * np.outer(u, u)
    np.testing.assert_allclose(clf.weights_, [1 / 4, 1 / 2, -5 / 8], atol=1e-14)
    np.testing.assert_allclose(clf.covariance_, S3, atol=1e-14)
    np.testing.assert_allclose(clf.v_, [0.0, 2.0, -1.0])
    # w = A^-1 v with A = I + x1 x1^T + x2 x2^T + x3 x3^T (no inverse, a solve)
    A = np.eye(3) + np.outer(x1, x1) + np.outer(x2, x2) + np.outer(x3, x3)
    np.testing.assert_allclose(clf.weights_, np.linalg.solve(A, clf.v_), atol=1e-14)


def test_sop_diag_three_samples_by_hand():
    # a = 1, s = 1/diag(A) = [1, 1, 1]; every sample is a mistake:
    # t=1: f = 0: v = [1, 2, 1], 1/s = [2, 5, 2], w = v s = [1/2, 2/5, 1/2]
    # t=2: f = 1 - 2/5 + 1/2 = 11/10, y = -1: v = [-1, 3, 0], 1/s = [6, 6, 3],
    #      w = [-1/6, 1/2, 0]
    # t=3: f = 1/6 + 1/2 = 2/3, y = -1: v = [0, 2, -1], 1/s = [7, 7, 4], w = [0, 2/7, -1/4]
    clf = SOP(covariance="diag").fit(X3, Y3)
    np.testing.assert_allclose(clf.weights_, [0.0, 2 / 7, -1 / 4], atol=1e-15)
    np.testing.assert_allclose(clf.covariance_, [1 / 7, 1 / 7, 1 / 4], atol=1e-15)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def test_sop_full_predicts_like_the_paper():
    """sign(x^T A^-1 v) equals the paper's sign(x^T (A + x x^T)^-1 v) on every row."""
    X, y = _stream(n=300, seed=5)
    scores = SOP(a=0.5, covariance="full").test_then_train(X, y, classes=[-1, 1])
    _, _, ref_scores, paper = ref.sop(naive.augment(X), y, a=0.5, full=True)
    np.testing.assert_allclose(scores, ref_scores, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(np.sign(paper), np.sign(scores))


def test_narow_full_three_samples_by_hand():
    # b = 1, Σ = I; 1/r_t = max(0, b - 1/chi).
    # t=1: chi = 6 > 1: r = 6/5; beta = 1/(chi + r) = 5/36, alpha = 1 * 5/36
    #      mu = 5 x1/36, Σ = I - (5/36) x1 x1^T
    # t=2: m = 5/36, y = -1, loss = 41/36; z := Σ x2 = x2 - 5 x1/36 = [67, -46, 31]/36
    #      chi = x2.z = (134 + 46 + 31)/36 = 211/36; 1/r = 1 - 36/211 = 175/211
    #      beta = (175/211)/(1 + 175/36) = 175 * 36/211^2, alpha = 41 * 175/211^2
    #      mu -= alpha z, Σ -= beta z z^T
    # t=3: u := Σ x3 = (x3 - 5 * 2 x1/36) - beta z (z.x3), z.x3 = (-67 - 46 + 31)/36 = -82/36
    #      m3 = -(mu.x3), chi3 = x3.u; r3 = chi3/(chi3 - 1); beta3 = 1/(chi3 + r3)
    clf = NAROW(b=1.0, covariance="full").fit(X3, Y3)
    z = np.array([67.0, -46.0, 31.0]) / 36
    b2 = 175 * 36 / 211**2
    a2 = 41 * 175 / 211**2
    mu2 = 5 * x1 / 36 - a2 * z
    u = x3 - 10 * x1 / 36 + b2 * z * 82 / 36
    m3, chi3 = -(mu2 @ x3), x3 @ u
    r3 = chi3 / (chi3 - 1)
    b3 = 1 / (chi3 + r3)
    S3 = np.eye(3) - 5 / 36 * np.outer(x1, x1) - b2 * np.outer(z, z) - b3 * np.outer(u, u)
    np.testing.assert_allclose(clf.weights_, mu2 - (1 - m3) * b3 * u, rtol=1e-12)
    np.testing.assert_allclose(clf.covariance_, S3, rtol=1e-12, atol=1e-14)


def test_narow_does_not_move_when_confident():
    # b = 0.1: x1 has chi = 6 <= 1/b = 10, so r = +inf: neither mu nor Σ changes.
    clf = NAROW(b=0.1, covariance="full").partial_fit(X3[:1], [1], classes=[-1, 1])
    np.testing.assert_array_equal(clf.weights_, 0.0)
    np.testing.assert_array_equal(clf.covariance_, np.eye(3))
    assert clf.counts_[3] == 0


def test_nherd_full_three_samples_by_hand():
    # C = 1 (gamma = 1/C = 1), Σ = I.
    # t=1: v = 6, loss 1: alpha = 1/(6 + 1) = 1/7, mu = x1/7;
    #      beta = (v + 2)/(v + 1)^2 = 8/49, Σ = I - (8/49) x1 x1^T
    # t=2: m = 1/7, y = -1, loss = 8/7; z := Σ x2 = x2 - 8 x1/49 = [90, -65, 41]/49
    #      v = (180 + 65 + 41)/49 = 286/49; alpha = (8/7)/(335/49) = 56/335
    #      beta = (384/49)/(335/49)^2 = 384 * 49/335^2; mu -= alpha z; Σ -= beta z z^T
    # t=3: u := Σ x3 = (x3 - 8 * 2 x1/49) - beta z (z.x3), z.x3 = (-90 - 65 + 41)/49 = -114/49
    #      m3 = -(mu.x3), v3 = x3.u; alpha3 = (1 - m3)/(v3 + 1), beta3 = (v3 + 2)/(v3 + 1)^2
    clf = NHERD(C=1.0, covariance="full").fit(X3, Y3)
    z = np.array([90.0, -65.0, 41.0]) / 49
    a2, b2 = 56 / 335, 384 * 49 / 335**2
    mu2 = x1 / 7 - a2 * z
    u = x3 - 16 * x1 / 49 + b2 * z * 114 / 49
    m3, v3 = -(mu2 @ x3), x3 @ u
    a3, b3 = (1 - m3) / (v3 + 1), (v3 + 2) / (v3 + 1) ** 2
    S3 = np.eye(3) - 8 / 49 * np.outer(x1, x1) - b2 * np.outer(z, z) - b3 * np.outer(u, u)
    np.testing.assert_allclose(clf.weights_, mu2 - a3 * u, rtol=1e-12)
    np.testing.assert_allclose(clf.covariance_, S3, rtol=1e-12, atol=1e-14)


def test_nherd_diag_three_samples_by_hand():
    # C = 1, s = [1, 1, 1]; s_j <- s_j/(1 + x_j^2 s_j)^2.
    # t=1: v = 6, alpha = 1/7, mu = x1/7; s = [1/4, 1/25, 1/4]
    # t=2: m = 1/7, loss = 8/7; v = 4/4 + 1/25 + 1/4 = 129/100;
    #      alpha = (8/7)/(229/100) = 800/1603; s x2 = [1/2, -1/25, 1/4]
    #      mu = x1/7 - alpha [1/2, -1/25, 1/4];  s = [1/16, 25/676, 4/25]
    # t=3: m3 = -(mu.x3), v3 = 1/16 + 25/676 + 4/25, alpha3 = (1 - m3)/(v3 + 1)
    #      mu -= alpha3 s x3 = alpha3 [-1/16, 25/676, 4/25]
    #      s = [(1/16)/(17/16)^2, (25/676)/(701/676)^2, (4/25)/(29/25)^2]
    clf = NHERD(C=1.0, covariance="diag").fit(X3, Y3)
    mu2 = x1 / 7 - 800 / 1603 * np.array([1 / 2, -1 / 25, 1 / 4])
    s2 = np.array([1 / 16, 25 / 676, 4 / 25])
    m3, v3 = -(mu2 @ x3), s2.sum()
    a3 = (1 - m3) / (v3 + 1)
    np.testing.assert_allclose(clf.weights_, mu2 - a3 * s2 * x3, rtol=1e-12)
    s3 = [16 / 17**2, 25 * 676 / 701**2, 4 * 25 / 29**2]
    np.testing.assert_allclose(clf.covariance_, s3, rtol=1e-12)


def test_iellip_full_three_samples_by_hand():
    # a = 1, b = 0.5, c = 0.5: c_1 = 1/2, c_2 = 1/4, c_3 = 1/8. Every sample is a mistake.
    # t=1: f = 0; z = x1, v = 6: w = (1 - 0)/6 x1 = x1/6
    #      Σ1 = (I - (1/2)/6 x1 x1^T)/(1/2) = 2I - x1 x1^T/6
    # t=2: f = (2 - 2 + 1)/6 = 1/6, y = -1; z := Σ1 x2 = 2 x2 - x1/6 = [23, -14, 11]/6
    #      v = (46 + 14 + 11)/6 = 71/6;  w -= (7/6)/(71/6) z = (7/71) z
    #      -> w = [71, 142, 71]/426 - [161, -98, 77]/426 = [-15, 40, -1]/71
    #      Σ2 = (Σ1 - (1/4)(6/71) z z^T)/(3/4) = (4/3) Σ1 - (2/71) z z^T
    # t=3: f = (15 + 40 - 1)/71 = 54/71, y = -1; Σ1 x3 = 2 x3 - 2 x1/6 = [-7/3, 4/3, 5/3],
    #      z.x3 = -26/6 = -13/3: u := Σ2 x3 = (4/3)[-7/3, 4/3, 5/3] + (2/71)(13/3) z
    #      = [-28/9, 16/9, 20/9] + (13/639)[23, -14, 11] = [-563, 318, 521]/213
    #      v = (563 + 318 + 521)/213 = 1402/213;  w -= (125/71)/(1402/213) u = (375/1402) u
    #      Σ3 = (Σ2 - (1/8)/v u u^T)/(7/8)
    clf = IELLIP(a=1.0, b=0.5, c=0.5, covariance="full").fit(X3, Y3)
    z = np.array([23.0, -14.0, 11.0]) / 6
    u = np.array([-563.0, 318.0, 521.0]) / 213
    S1 = 2 * np.eye(3) - np.outer(x1, x1) / 6
    S2 = 4 / 3 * S1 - 2 / 71 * np.outer(z, z)
    np.testing.assert_allclose(S2 @ x3, u, rtol=1e-13)
    S3 = (S2 - (1 / 8) / (1402 / 213) * np.outer(u, u)) / (7 / 8)
    w3 = np.array([-15.0, 40.0, -1.0]) / 71 - 375 / 1402 * u
    np.testing.assert_allclose(clf.weights_, w3, atol=1e-14)
    np.testing.assert_allclose(clf.covariance_, S3, rtol=1e-13, atol=1e-14)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def test_cw_diag_three_samples_by_hand():
    # eta = Phi(1): phi = 1; a = 1: s = diag(Σ) = [1, 1, 1]. Eq. (17): 1/s += 2 alpha phi x^2.
    # t=1: M = 0, V = 6: alpha1 = 1/4 (as in the full case); mu = x1/4
    #      1/s = 1 + x1^2/2 = [3/2, 3, 3/2] -> s = [2/3, 1/3, 2/3]
    # t=2: f = mu.x2 = 1/4, y = -1: M = -1/4;  s x2 = [4/3, -1/3, 2/3], V = 8/3 + 1/3 + 2/3 = 11/3
    #      b1 = 1 + 2M = 1/2, disc = 1/4 - 8(M - V) = 379/12:
    #      alpha2 = (sqrt(379/12) - 1/2)/(4 * 11/3)
    #      mu -= alpha2 [4/3, -1/3, 2/3];  1/s = [3/2, 3, 3/2] + 2 alpha2 [4, 1, 1]
    # t=3: M3 = -(mu.x3), V3 = sum(s x3^2); alpha3 = Lemma 1 at (M3, V3); mu -= alpha3 s x3
    clf = CW(eta=ndtr(1.0), a=1.0, covariance="diag").fit(X3, Y3)
    a2 = (np.sqrt(379 / 12) - 0.5) / (44 / 3)
    assert np.isclose(_cw_gamma(-0.25, 11 / 3), a2)
    mu2 = x1 / 4 - a2 * np.array([4 / 3, -1 / 3, 2 / 3])
    s2 = 1 / (np.array([1.5, 3.0, 1.5]) + 2 * a2 * np.array([4.0, 1.0, 1.0]))
    M3, V3 = -(mu2 @ x3), s2 @ (x3 * x3)
    a3 = _cw_gamma(M3, V3)
    assert a3 > 0  # M3 < phi V3: the third sample violates the constraint too
    np.testing.assert_allclose(clf.weights_, mu2 - a3 * s2 * x3, rtol=1e-12)
    np.testing.assert_allclose(clf.covariance_, 1 / (1 / s2 + 2 * a3 * x3 * x3), rtol=1e-12)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def _scw1_alpha(m, v, C=1.0):
    """Proposition 1 of Wang, Zhao & Hoi (2012) with phi = 1 (psi = 3/2, zeta = 2)."""
    return min(C, max(0.0, (-m * 1.5 + np.sqrt(m * m / 4 + 2 * v)) / (2 * v)))


def _scw2_alpha(m, v, C=1.0):
    """Proposition 2 of Wang, Zhao & Hoi (2012) with phi = 1: n = v + 1/(2C),
    gamma = sqrt(m^2 v^2 + 4 n v (n + v)), alpha = (-(2 m n + m v) + gamma)/(2 (n^2 + n v))."""
    n = v + 1 / (2 * C)
    gamma = np.sqrt(m * m * v * v + 4 * n * v * (n + v))
    return max(0.0, (-(2 * m * n + m * v) + gamma) / (2 * (n * n + n * v)))


def test_scw1_diag_three_samples_by_hand():
    # phi = 1, C = 1, s = [1, 1, 1]. The diagonal keeps the precision form of the step,
    # 1/s += (alpha phi/sqrt(u)) x^2.
    # t=1: as in the full case alpha1 = 1/(2 sqrt(3)), sqrt(u) = sqrt(3): kappa = 1/6
    #      mu = alpha1 x1;  1/s = 1 + x1^2/6 = [7/6, 10/6, 7/6] -> s = [6/7, 3/5, 6/7]
    # t=2: m = -alpha1 (mu.x2 = alpha1, y = -1);  s x2 = [12/7, -3/5, 6/7],
    #      v = 24/7 + 3/5 + 6/7 = 171/35;  alpha2 = Prop. 1 at (m, v), kappa2 = alpha2/sqrt(u2)
    # t=3: the same at (m3, v3) with s2, where Prop. 1's value exceeds C: alpha3 = C = 1
    clf = SCW(C=1.0, eta=ndtr(1.0), variant="scw1", covariance="diag").fit(X3, Y3)
    a1 = 1 / (2 * np.sqrt(3))
    assert np.isclose(a1 / _scw_su(a1, 6.0), 1 / 6)
    s1 = np.array([6 / 7, 3 / 5, 6 / 7])
    v2 = 171 / 35
    assert np.isclose(s1 @ (x2 * x2), v2)
    a2 = _scw1_alpha(-a1, v2)
    mu2 = a1 * x1 - a2 * s1 * x2
    s2 = 1 / (1 / s1 + a2 / _scw_su(a2, v2) * x2 * x2)
    m3, v3 = -(mu2 @ x3), s2 @ (x3 * x3)
    a3 = _scw1_alpha(m3, v3)
    assert a3 == 1.0  # the cap
    np.testing.assert_allclose(clf.weights_, mu2 - a3 * s2 * x3, rtol=1e-12)
    np.testing.assert_allclose(
        clf.covariance_, 1 / (1 / s2 + a3 / _scw_su(a3, v3) * x3 * x3), rtol=1e-12
    )
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def test_scw2_full_three_samples_by_hand():
    # phi = 1, C = 1, Σ = I; Σ ← Σ - beta Σ x x^T Σ with beta = alpha/(sqrt(u) + v alpha).
    # t=1: m = 0, v = 6: alpha1 = sqrt(1950)/162.5 (see above); mu = alpha1 x1,
    #      Σ1 = I - beta1 x1 x1^T
    # t=2: m = -alpha1;  z := Σ1 x2 = x2 - beta1 x1 (x1.x2 = 1), v = x2.z = 6 - beta1
    # t=3: Σ1 x3 = x3 - 2 beta1 x1 (x1.x3 = 2), u := Σ2 x3 = Σ1 x3 - beta2 z (z.x3)
    clf = SCW(C=1.0, eta=ndtr(1.0), variant="scw2", covariance="full").fit(X3, Y3)
    a1 = np.sqrt(1950) / 162.5
    assert np.isclose(_scw2_alpha(0.0, 6.0), a1)
    b1 = a1 / (_scw_su(a1, 6.0) + 6 * a1)
    z = x2 - b1 * x1
    v2 = 6 - b1
    assert np.isclose(x2 @ z, v2)
    a2 = _scw2_alpha(-a1, v2)
    b2 = a2 / (_scw_su(a2, v2) + v2 * a2)
    mu2 = a1 * x1 - a2 * z
    u = x3 - 2 * b1 * x1 - b2 * z * (z @ x3)
    m3, v3 = -(mu2 @ x3), x3 @ u
    a3 = _scw2_alpha(m3, v3)
    assert a3 > 0
    b3 = a3 / (_scw_su(a3, v3) + v3 * a3)
    S3 = np.eye(3) - b1 * np.outer(x1, x1) - b2 * np.outer(z, z) - b3 * np.outer(u, u)
    np.testing.assert_allclose(clf.weights_, mu2 - a3 * u, rtol=1e-12)
    np.testing.assert_allclose(clf.covariance_, S3, rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


def test_scw2_diag_three_samples_by_hand():
    # phi = 1, C = 0.5 (n = v + 1), s = [1, 1, 1]; 1/s += (alpha/sqrt(u)) x^2 per step.
    # t=1: m = 0, v = 6, n = 7: gamma = sqrt(4 * 7 * 6 * 13) = sqrt(2184),
    #      alpha1 = sqrt(2184)/(2 (49 + 42)) = sqrt(2184)/182
    clf = SCW(C=0.5, eta=ndtr(1.0), variant="scw2", covariance="diag").fit(X3, Y3)
    a1 = np.sqrt(2184) / 182
    assert np.isclose(_scw2_alpha(0.0, 6.0, C=0.5), a1)
    mu, s = a1 * x1, 1 / (1 + a1 / _scw_su(a1, 6.0) * x1 * x1)
    for x, y in ((x2, -1), (x3, -1)):
        m, v = y * (mu @ x), s @ (x * x)
        a = _scw2_alpha(m, v, C=0.5)
        assert a > 0
        mu, s = mu + a * y * s * x, 1 / (1 / s + a / _scw_su(a, v) * x * x)
    np.testing.assert_allclose(clf.weights_, mu, rtol=1e-12)
    np.testing.assert_allclose(clf.covariance_, s, rtol=1e-12)


def test_narow_diag_three_samples_by_hand():
    # b = 1, s = [1, 1, 1]; 1/r_t = max(0, b - 1/chi), 1/s += x^2/r_t.
    # t=1: chi = 6: 1/r = 5/6, alpha = 1/(6 + 6/5) = 5/36; mu = 5 x1/36
    #      1/s = 1 + (5/6) x1^2 = [11/6, 26/6, 11/6] -> s = [6/11, 3/13, 6/11]
    # t=2: m = -5/36, loss = 41/36; chi = 24/11 + 3/13 + 6/11 = 423/143 > 1:
    #      r = chi/(chi - 1) = 423/280, alpha = (41/36)/(chi + r); mu -= alpha s x2
    #      1/s += x2^2 (280/423)
    # t=3: the hinge loss is positive, but chi3 = sum(s x3^2) <= 1/b: r = +inf, no step
    clf = NAROW(b=1.0, covariance="diag").fit(X3, Y3)
    s1 = np.array([6 / 11, 3 / 13, 6 / 11])
    chi = 423 / 143
    assert np.isclose(s1 @ (x2 * x2), chi)
    r = chi / (chi - 1)
    assert np.isclose(r, 423 / 280)
    mu2 = 5 * x1 / 36 - 41 / 36 / (chi + r) * s1 * x2
    s2 = 1 / (1 / s1 + x2 * x2 / r)
    assert -(mu2 @ x3) < 1 and s2 @ (x3 * x3) <= 1
    np.testing.assert_allclose(clf.weights_, mu2, rtol=1e-13)
    np.testing.assert_allclose(clf.covariance_, s2, rtol=1e-13)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 2])


def test_iellip_diag_three_samples_by_hand():
    # a = 1, b = 0.5, c = 0.5: c_1 = 1/2, c_2 = 1/4, c_3 = 1/8; s = [1, 1, 1].
    # The diagonal of the precision step Σ^-1 ← (1 - c_t) Σ^-1 + c_t g g^T, g = y x/sqrt(v).
    # t=1: f = 0 (a mistake), v = 6: w = (1/6) s x1 = x1/6
    #      1/s = 1/2 + (1/2) x1^2/6 = [7/12, 10/12, 7/12] -> s = [12/7, 6/5, 12/7]
    # t=2: f = 1/6, y = -1 (a mistake); s x2 = [24/7, -6/5, 12/7],
    #      v = 48/7 + 6/5 + 12/7 = 342/35;  w -= (7/6)/v s x2
    #      1/s = (3/4)[7/12, 10/12, 7/12] + (1/4) x2^2/v
    # t=3: y f <= 0 again: w += (1 - y f)/v3 * y s x3, 1/s = (7/8)/s + (1/8) x3^2/v3
    clf = IELLIP(a=1.0, b=0.5, c=0.5, covariance="diag").fit(X3, Y3)
    s1 = np.array([12 / 7, 6 / 5, 12 / 7])
    v2 = 342 / 35
    assert np.isclose(s1 @ (x2 * x2), v2)
    w2 = x1 / 6 - 7 / 6 / v2 * s1 * x2
    s2 = 1 / (0.75 / s1 + 0.25 * x2 * x2 / v2)
    f3 = w2 @ x3
    assert -f3 <= 0  # y = -1: a mistake
    v3 = s2 @ (x3 * x3)
    w3 = w2 - (1 + f3) / v3 * s2 * x3
    s3 = 1 / (0.875 / s2 + 0.125 * x3 * x3 / v3)
    np.testing.assert_allclose(clf.weights_, w3, rtol=1e-13)
    np.testing.assert_allclose(clf.covariance_ * 2.0 ** clf.covariance_exponent_[0], s3, rtol=1e-13)
    np.testing.assert_array_equal(clf.counts_, [3, 1, 2, 3])


# --------------------------------------------------------------------------- vs numpy
# class, constructor arguments, reference function, its keyword arguments
CASES = [
    (AROW, {"r": 0.7}, ref.arow, {"r": 0.7}),
    (CW, {"eta": 0.8, "a": 0.5}, ref.cw, {"eta": 0.8, "a": 0.5}),
    (SCW, {"C": 0.5, "eta": 0.8}, ref.scw, {"C": 0.5, "eta": 0.8}),
    (SCW, {"C": 0.05, "eta": 0.7}, ref.scw, {"C": 0.05, "eta": 0.7}),
    (SCW, {"C": 0.5, "variant": "scw2"}, ref.scw, {"C": 0.5, "variant": "scw2"}),
    (SOP, {"a": 0.5}, ref.sop, {"a": 0.5}),
    (NAROW, {"b": 3.0}, ref.narow, {"b": 3.0}),
    (NHERD, {"C": 0.3}, ref.nherd, {"C": 0.3}),
    (IELLIP, {"a": 0.5, "b": 0.99, "c": 0.3}, ref.iellip, {"a": 0.5, "b": 0.99, "c": 0.3}),
    (IELLIP, {}, ref.iellip, {}),
]


def _case_id(case):
    return case[0].__name__ + "".join(f"-{v}" for v in case[1].values())


@pytest.mark.parametrize("case", CASES, ids=_case_id)
@pytest.mark.parametrize("covariance", ["full", "diag"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
def test_matches_numpy_reference(case, covariance, fit_intercept, sparse):
    cls, params, fn, kwargs = case
    X, y = _stream(sparse=sparse)
    clf = cls(**params, covariance=covariance, fit_intercept=fit_intercept)
    scores = clf.test_then_train(sp.csr_matrix(X) if sparse else X, y, classes=[-1, 1])
    Xa = naive.augment(X, fit_intercept)
    w, S, ref_scores = fn(Xa, y, **kwargs, full=covariance == "full")[:3]
    assert clf.counts_[3] > 10  # the stream exercises the update
    np.testing.assert_allclose(scores, ref_scores, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-8, atol=1e-10)
    sigma = clf.covariance_
    if cls is IELLIP:  # Σ = covariance_ · 2^covariance_exponent_ (a's power of two at first)
        sigma = sigma * 2.0 ** int(clf.covariance_exponent_[0])
    if cls is IELLIP and not fit_intercept:
        # the intercept's coordinate belongs to no feature: it keeps its initial a rather
        # than grow by 1/(1 - c_t) with the others (see test_iellip_without_intercept_...)
        used = S[:-1] if covariance == "diag" else S[:-1, :-1]
        kept = sigma[:-1] if covariance == "diag" else sigma[:-1, :-1]
        np.testing.assert_allclose(kept, used, rtol=1e-8, atol=1e-12)
        last = sigma[-1] if covariance == "diag" else sigma[-1, -1]
        assert last == params.get("a", 1.0)  # (no division by 2^100 on this short stream)
        return
    np.testing.assert_allclose(sigma, S, rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_full_covariance_stays_symmetric_positive_definite(case):
    cls, params = case[:2]
    rng = np.random.default_rng(11)
    X = rng.normal(size=(4000, 8)) * rng.uniform(0.1, 10, size=8)
    y = np.where(rng.uniform(size=4000) < 0.3, 1, -1)  # noise: keeps updating
    clf = cls(**params, covariance="full").fit(X, y)
    S = clf.covariance_
    np.testing.assert_array_equal(S, S.T)
    assert np.linalg.eigvalsh(S).min() > 0
    assert np.all(np.isfinite(clf.weights_))
    diag = cls(**params, covariance="diag").fit(X, y).covariance_
    assert np.all(diag > 0) and np.all(np.isfinite(diag))


@pytest.mark.parametrize(
    ("cls", "params", "match"),
    [
        (AROW, {"r": 0.0}, "'r' parameter of AROW must be a float in the range \\(0.0, inf\\)"),
        (AROW, {"r": -1}, "'r' parameter"),
        (AROW, {"covariance": "dense"}, "'covariance' parameter of AROW must be a str among"),
        (CW, {"eta": 0.5}, "'eta' parameter of CW must be a float in the range \\(0.5, 1.0\\)"),
        (CW, {"eta": 1.0}, "'eta' parameter of CW"),
        (SCW, {"C": -0.5}, "'C' parameter of SCW must be a float in the range \\(0.0, inf\\)"),
        (SCW, {"variant": "scw3"}, "'variant' parameter of SCW must be a str among"),
        (SCW, {"eta": 0.3}, "'eta' parameter of SCW"),
        (SOP, {"a": -1.0}, "'a' parameter of SOP must be a float in the range \\(0.0, inf\\)"),
        (NAROW, {"b": 0}, "'b' parameter of NAROW must be a float in the range \\(0.0, inf\\)"),
        (NHERD, {"C": "1"}, "'C' parameter of NHERD must be a float in the range \\(0.0, inf\\)"),
        (IELLIP, {"b": 1.5}, "'b' parameter of IELLIP must be a float in the range \\(0.0, 1.0\\]"),
        (IELLIP, {"c": 1.0}, "'c' parameter of IELLIP must be a float in the range \\(0.0, 1.0\\)"),
        (CW, {"a": 0}, "'a' parameter of CW must be a float in the range \\(0.0, inf\\)"),
    ],
)
def test_bad_hyperparameters_are_named(cls, params, match):
    X, y = _stream(n=20)
    with pytest.raises(ValueError, match=match):
        cls(**params).fit(X, y)


@pytest.mark.parametrize("variant", ["scw1", "scw2"])
@pytest.mark.parametrize("covariance", ["diag", "full"])
@pytest.mark.parametrize("scale", [1e60, 0.9], ids=["1e60", "near-limit"])
def test_scw_on_huge_values_matches_an_extended_precision_reference(variant, covariance, scale):
    """Accepted input with |x| from ~1e52 (SCW-II: α²v², n·v·n overflow) or near the accepted
    limit (SCW-I: α²v²φ² + 4v in √u overflows) raised a bare ZeroDivisionError from the
    compiled step (√u = 0). The printed formulas are homogeneous, so where they overflow
    they are evaluated on rescaled arguments; the reference runs the printed formulas in
    80-bit long double, whose exponent range holds them. One feature and no intercept:
    the full covariance is then 1 × 1 and the diagonal reference applies to both."""
    from skewlearn.base import max_abs_value

    rng = np.random.default_rng(3)
    x = rng.normal(size=(60, 1))
    x[[0, np.argmax(np.abs(x))]] = x[[np.argmax(np.abs(x)), 0]]  # the largest row first
    y = np.where(x[:, 0] + 0.5 * rng.normal(size=60) > 0.3, 1, -1)
    c = scale if scale > 1 else scale * max_abs_value(1) / np.abs(x).max()
    X = x * c
    clf = SCW(variant=variant, covariance=covariance, fit_intercept=False)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    w, S, ref_scores = ref.scw(X.astype(np.longdouble), y, variant=variant, full=False)
    assert clf.counts_[3] > 5  # several steps were taken
    np.testing.assert_allclose(scores, ref_scores.astype(float), rtol=1e-9)
    np.testing.assert_allclose(clf.weights_[:1], w.astype(float), rtol=1e-9)
    np.testing.assert_allclose(np.ravel(clf.covariance_)[:1], S.astype(float), rtol=1e-9)


@pytest.mark.parametrize("variant", ["scw1", "scw2"])
@pytest.mark.parametrize("c", [1e-60, 1e-150])
def test_scw_on_tiny_rows_equals_the_rescaled_problem(variant, c):
    """Rows scaled by c with C scaled by 1/c (SCW-I) or 1/c² (SCW-II) learn the same mean
    and covariance as the unscaled problem (α(m, v, n) = α(m/√s, v/s, n/s)/√s). At
    c = 1e-150 SCW-II's 2(n² + n v φ²) underflowed to 0 and the compiled step raised
    ZeroDivisionError; at c = 1e-60 its φ²m²v² + 4nv(n + vφ²) underflowed and the step
    was silently wrong (the covariance off by 0.99)."""
    X, y = _stream(n=100, d=3, seed=4)
    k = 1 if variant == "scw1" else 2
    for cov in ("diag", "full"):
        a = SCW(variant=variant, covariance=cov, fit_intercept=False).fit(X, y)
        b = SCW(variant=variant, covariance=cov, fit_intercept=False, C=1.0 / c**k)
        b.fit(X * c, y)
        np.testing.assert_allclose(b.weights_, a.weights_, rtol=1e-9)
        np.testing.assert_allclose(b.covariance_, a.covariance_, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("covariance", ["full", "diag"])
@pytest.mark.parametrize("c", [2.0**-300, 2.0**300])
def test_nherd_on_extreme_rows_equals_the_rescaled_problem(covariance, c):
    """Rows scaled by c with C scaled by 1/c² learn the unscaled model: γ = 1/C and
    v = xᵀΣx both scale by c², so α y Σx scales by 1/c, β = (v + 2γ)/(v + γ)² by 1/c²
    and Σ stays the same (the diagonal rule reads C x² s, unchanged). The full step's β
    was divided by (v + γ) twice, which the kernels' fast-math flags (reassoc, arcp) fold
    back into one division by (v + γ)²: at c = 2^300 the square overflowed and β was 0,
    so Σ never moved (58 of 250 predictions changed), and at c = 2^-300 it underflowed,
    β was inf and the model was discarded as overflowed."""
    X, y = _stream(n=250, d=5, seed=6)
    a = NHERD(covariance=covariance, fit_intercept=False).fit(X, y)
    b = NHERD(covariance=covariance, fit_intercept=False, C=1.0 / c**2).fit(X * c, y)
    assert b.counts_[3] == a.counts_[3]
    np.testing.assert_allclose(b.coef_ * c, a.coef_, rtol=1e-12, atol=1e-12 * np.abs(a.coef_).max())
    np.testing.assert_allclose(b.covariance_, a.covariance_, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(b.predict(X * c), a.predict(X))


def test_cw_step_near_the_double_root_is_no_update_not_nan():
    """Lemma 1's discriminant (1 + 2φM)² − 8φ(M − φV) equals (1 − 2φM)² + 8φ²V ≥ 0, but it
    was computed by cancellation: with M ≈ 1/(2φ) and V ≲ 1e-13 it came out negative,
    γ = NaN passed the ``γ ≤ 0`` test and the model became NaN (discarded with an
    "overflow" error). There the constraint M ≥ φV holds, so the exact γ is negative (no
    update): the reference evaluates the cancellation-free form."""
    from skewlearn.linear.second_order import _CW, _coefficients

    phi = float(ndtri(0.7))
    rng = np.random.default_rng(0)
    hit = 0
    for _ in range(5000):
        M = 1.0 / (2.0 * phi) * (1.0 + 1e-15 * rng.normal())
        V = 10.0 ** rng.uniform(-25, -12)
        b1 = 1.0 + 2.0 * phi * M
        hit += b1 * b1 - 8.0 * phi * (M - phi * V) < 0.0
        exact = (-b1 + np.sqrt((1.0 - 2.0 * phi * M) ** 2 + 8.0 * phi**2 * V)) / (4 * phi * V)
        assert exact < 0.0
        assert _coefficients(_CW, M, V, phi, 0.0) == (0.0, 0.0, 0.0)
    assert hit > 100  # the cancelled discriminant was negative this often


@pytest.mark.parametrize("covariance", ["full", "diag"])
def test_iellip_with_a_slow_decay_follows_an_extended_precision_reference(covariance):
    # With b = 1 (c_t = c forever) every mistake divides Σ by 1 - c: after ~1000 mistakes
    # at c = 0.5 its entries pass 1e308. IELLIP's steps do not depend on Σ's scale, so the
    # paper's algorithm is still well defined; the 80-bit reference (exponents to 1e4932)
    # runs it as printed. Before the fix the learner overflowed and discarded the model.
    X, y = _stream(n=4000, d=3, seed=3)
    y = np.where(np.random.default_rng(3).random(len(y)) < 0.3, -y, y)  # label noise
    clf = IELLIP(b=1.0, c=0.5, covariance=covariance)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    assert clf.counts_[3] > 1100  # enough mistakes to pass float64's range
    Xa = naive.augment(X, True).astype(np.longdouble)
    w, S, ref_scores = ref.iellip(Xa, y, b=1.0, c=0.5, full=covariance == "full")
    top = np.abs(S).max()
    assert top > np.longdouble("1e330")  # the printed Σ is beyond float64 ...
    np.testing.assert_allclose(scores, ref_scores.astype(float), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(clf.weights_, w.astype(float), rtol=1e-7, atol=1e-9)
    # ... and covariance_ is Σ divided by the power of two 2 ** covariance_exponent_
    sigma = clf.covariance_.astype(np.longdouble) * np.longdouble(2.0) ** int(
        clf.covariance_exponent_[0]
    )
    np.testing.assert_allclose((sigma / top).astype(float), (S / top).astype(float), rtol=1e-6)


@pytest.mark.parametrize("covariance", ["full", "diag"])
def test_iellip_without_intercept_is_not_scaled_by_the_unused_intercept_coordinate(covariance):
    """Without an intercept the last coordinate of Σ belongs to no feature, yet it grew by
    1/(1 - c) at every mistake and decided when Σ was divided by 2^100: with b = 1 it
    passed the used coordinates by 2^1000 and more, pushing them to 1e-175 (full: 2412
    of 6000 scores off the paper's algorithm) and to underflow (diag: inf steps, the model
    discarded with an overflow error asking to scale the features). It now stays at ``a``
    and the scores follow the 80-bit reference, as they do with an intercept."""
    X, y = _stream(n=6000, d=3, seed=3)
    y = np.where(np.random.default_rng(3).random(len(y)) < 0.3, -y, y)  # label noise
    clf = IELLIP(b=1.0, c=0.5, a=2.0, covariance=covariance, fit_intercept=False)
    scores = clf.test_then_train(X, y, classes=[-1, 1])
    assert clf.counts_[3] > 2000
    Xa = naive.augment(X, False).astype(np.longdouble)
    w, _, ref_scores = ref.iellip(Xa, y, a=2.0, b=1.0, c=0.5, full=covariance == "full")
    np.testing.assert_allclose(scores, ref_scores.astype(float), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(clf.weights_, w.astype(float), rtol=1e-7, atol=1e-9)
    last = clf.covariance_[-1] if covariance == "diag" else clf.covariance_[-1, -1]
    assert last == 1.0  # the unused coordinate keeps its initial entry (a = 1.0 · 2^1)
    if covariance == "full":
        np.testing.assert_array_equal(clf.covariance_[-1, :-1], 0.0)


@pytest.mark.parametrize("covariance", ["full", "diag"])
def test_iellip_initial_variance_is_only_a_scale(covariance):
    """IELLIP's steps do not depend on the scale of Σ, so ``a`` (Σ₀ = aI) cannot change a
    prediction; yet a = 1e-300 (full) moved the scores by up to 136× through underflow,
    a = 1e300 (full) overflowed and a = 5e-324 (diag) raised an overflow error asking for
    "a smaller a". Σ₀ is now kept as mantissa × 2^exponent, so every ``a`` gives the
    scores of a = 1 (bit for bit when a is a power of two) and Σ = covariance_ ·
    2 ** covariance_exponent_ still holds."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, 5))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=2000) > 0.3, 1, 0)
    base = IELLIP(covariance=covariance).test_then_train(X, y, classes=[0, 1])
    for a in (5e-324, 1e-300, 2.0**-600, 0.37, 3.0, 1e300, 1.7e308):
        start = IELLIP(a=a, covariance=covariance)
        start._allocate(X.shape[1])  # the state a first call starts from
        sigma0 = start.covariance_.astype(np.longdouble) * np.longdouble(2.0) ** int(
            start.covariance_exponent_[0]
        )
        expected = np.longdouble(a) * np.eye(X.shape[1] + 1, dtype=np.longdouble)
        assert np.array_equal(sigma0, expected if covariance == "full" else np.diag(expected))
        scores = IELLIP(a=a, covariance=covariance).test_then_train(X, y, classes=[0, 1])
        if np.log2(a) == round(np.log2(a)):
            np.testing.assert_array_equal(scores, base)
        else:
            np.testing.assert_allclose(scores, base, rtol=1e-9, atol=1e-12)


def _cw_diag_decimal(X, y, eta, a=1.0, digits=150):
    """Diagonal CW (Algorithm 1, Lemma 1 and Eq. (17) as printed), in ``digits``-digit
    decimal arithmetic: no cancellation at the float64 scale."""
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = digits
        phi = Decimal(float(ndtri(eta)))
        mu = [Decimal(0)] * X.shape[1]
        S = [Decimal(a)] * X.shape[1]
        for row, yt in zip(X.tolist(), y.tolist()):
            x = [Decimal(v) for v in row]
            M = yt * sum(m * v for m, v in zip(mu, x))
            V = sum(s * v * v for s, v in zip(S, x))
            b1 = 1 + 2 * phi * M
            gamma = (-b1 + (b1 * b1 - 8 * phi * (M - phi * V)).sqrt()) / (4 * phi * V)
            if gamma <= 0:
                continue
            mu = [m + gamma * yt * s * v for m, s, v in zip(mu, S, x)]
            S = [1 / (1 / s + 2 * gamma * phi * v * v) for s, v in zip(S, x)]
        return np.array([float(m) for m in mu]), np.array([float(s) for s in S])


@pytest.mark.parametrize("scale", [1.0, 1e-6, 1e-9, 1e-30])
def test_cw_on_small_rows_follows_a_high_precision_reference(scale):
    # Lemma 1's numerator -(1 + 2φM) + √((1 + 2φM)² − 8φ(M − φV)) cancels when φV and M
    # are small: at V ~ 1e-18 it was exactly 0, and CW without an intercept never learned
    # from rows of magnitude ~1e-9 (its true γ is then ≈ φ, not 0).
    X, y = _stream(n=60, d=3, seed=4)
    X = X * scale
    clf = CW(eta=0.8, covariance="diag", fit_intercept=False).fit(X, y)
    mu, S = _cw_diag_decimal(X, y, eta=0.8)
    assert clf.counts_[3] > 10
    np.testing.assert_allclose(clf.weights_[:-1], mu, rtol=1e-9)
    np.testing.assert_allclose(clf.covariance_[:-1], S, rtol=1e-9)


@pytest.mark.parametrize(
    "cls, fn, scale",
    [
        (AROW, ref.arow, 1e3),
        (NAROW, ref.narow, 1e3),
        (SOP, ref.sop, 1e3),
        (NHERD, ref.nherd, 30.0),
        (NHERD, ref.nherd, 1e2),
    ],
    ids=lambda v: getattr(v, "__name__", str(v)),
)
def test_full_covariance_on_unscaled_rows_follows_the_paper(cls, fn, scale):
    # A full step used to remove at most 1 - 1e-6 of the variance along x. The papers'
    # steps remove 1 - 1/(1 + κv), beyond that once κ xᵀΣx > 1e6: for NHERD (kept fraction
    # (1/C)²/(v + 1/C)²) on rows of |x| ~ 30, for AROW, NAROW and SOP on |x| ~ 1000. The
    # weights were then off by 0.5% (NHERD, |x| ~ 30) to 50% (SOP, |x| ~ 1000).
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4)) * scale
    y = np.where(X[:, 0] + 0.3 * X[:, 1] + 0.3 * scale * rng.normal(size=300) > 0.5 * scale, 1, -1)
    clf = cls(covariance="full").fit(X, y)
    w = fn(naive.augment(X, True), y, full=True)[0]
    np.testing.assert_allclose(clf.weights_, w, rtol=1e-6, atol=1e-9 * np.abs(w).max())


def test_full_step_on_a_small_but_exact_confidence_is_taken():
    # A full step is skipped when xᵀΣx is below 1e-9 Σ|x_j (Σx)_j|, where it is rounding
    # (its error is ~(d+1)·2⁻⁵³ times that sum). An ill-conditioned Σ gives a small v that
    # is exact: after AROW (r = 1e-14) learns u2 = (1, -1)/√2, Σ keeps ~9e-13 of the
    # variance along u2 and all of it along u1; x = u2 + 1e-7 u1 has v = 9.2e-13 against
    # a sum of 1e-7 (ratio 9e-6, error ~3e-23), and the paper's step must be taken.
    u1, u2 = np.array([1.0, 1.0]) / np.sqrt(2.0), np.array([1.0, -1.0]) / np.sqrt(2.0)
    clf = AROW(r=1e-14, covariance="full", fit_intercept=False)
    clf.partial_fit(u2[None, :], [1], classes=[0, 1])
    S, mu = clf.covariance_[:2, :2].copy(), clf.weights_[:2].copy()
    assert np.linalg.eigvalsh(S)[0] < 1e-12  # the ill-conditioned Σ the test needs
    x = u2 + 1e-7 * u1
    z = S @ x
    v = x @ z
    assert 1e-6 < v / np.abs(x * z).sum() < 1e-4
    y = -1.0
    beta = 1.0 / (v + 1e-14)
    clf.partial_fit(x[None, :], [0])
    assert clf.counts_[3] == 2
    # (z and v summed in another order than the kernel's: v agrees to ~1e-7 relative here)
    step = (1.0 - y * (mu @ x)) * beta * y * z
    np.testing.assert_allclose(clf.weights_[:2], mu + step, rtol=1e-5)
    np.testing.assert_allclose(clf.covariance_[:2, :2], S - beta * np.outer(z, z), rtol=1e-5)


@pytest.mark.parametrize("covariance", ["diag", "full"])
def test_cw_whose_4_phi_v_underflows_steps_instead_of_dividing_by_zero(covariance):
    # Lemma 1 divides by 4φV. With eta near 0.5 (φ = Φ⁻¹(0.51) ≈ 0.025) and a subnormal V
    # (rows of ~1e-162 without an intercept) the product underflows to 0 while V > 0, and
    # the compiled step raised a bare ZeroDivisionError (numba raises on a float division
    # by zero), leaving a learner that claimed to be fitted. From μ = 0 (M = 0) Lemma 1
    # gives γ = 2φ / (1 + √(1 + 8φ²V)) = φ to double precision, so μ = φ y Σ₀ x.
    phi = float(ndtri(0.51))
    x = np.array([[3e-162, -2e-162]])
    clf = CW(eta=0.51, covariance=covariance, fit_intercept=False)
    clf.partial_fit(x, [1], classes=[0, 1])
    np.testing.assert_allclose(clf.weights_[:-1], phi * x[0], rtol=1e-15)
    assert clf.counts_[3] == 1
    # a longer stream of such rows learns, and stays finite
    X, y = _stream(n=40, d=3, seed=4)
    clf = CW(eta=0.51, covariance=covariance, fit_intercept=False).fit(X * 1e-161, y)
    assert clf.counts_[3] > 0
    assert np.isfinite(clf.weights_).all() and np.isfinite(clf.covariance_).all()


@pytest.mark.parametrize("M", [0.0, -1e-300, -2e-165])
@pytest.mark.parametrize("V", [5e-324, 1e-322, 4e-320])
def test_cw_step_with_an_underflowing_denominator_equals_lemma_1(M, V):
    # γ of Lemma 1 on exactly these float inputs (M < φV: the constraint is violated),
    # in 1000-digit decimal arithmetic (8φ²V ~ 1e-334 must not vanish beside 1)
    from decimal import Decimal, localcontext

    from skewlearn.linear.second_order import _CW, _coefficients

    phi = float(ndtri(0.5 + 1e-6))
    assert 4.0 * phi * V == 0.0  # the case: the printed denominator underflows
    gamma = _coefficients(_CW, M, V, phi, 0.0)[0]
    with localcontext() as ctx:
        ctx.prec = 1000
        p, m, v = Decimal(phi), Decimal(M), Decimal(V)
        b1 = 1 + 2 * p * m
        exact = (-b1 + (b1 * b1 - 8 * p * (m - p * v)).sqrt()) / (4 * p * v)
    assert exact > 0
    np.testing.assert_allclose(gamma, float(exact), rtol=1e-12)
