"""Slow, readable references for ASLS (seed 004), written from Eqs. (5), (8), (9), (12), (17),
(18) and from Fung & Mangasarian's proximal SVM. Plain numpy, one formula per function.

``Xa`` is the augmented data matrix ``[X, e]``; ``t`` labels in {-1, +1}; ``lam`` the diagonal
of Λ (``r/m²`` per pattern); ``Gamma = t * tau``.
"""

from __future__ import annotations

import numpy as np


def augment(X):
    return np.hstack([X, np.ones((X.shape[0], 1))])


def gaussian_kernel(X, Y, sigma):
    """exp(-||x - y||^2 / sigma^2), the paper's Gaussian kernel, by broadcasting."""
    d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    return np.exp(-d2 / sigma**2)


def next_targets(z, m):
    """Eq. (5), one pattern at a time: tau = z + max(0, min(m, m - z))."""
    out = np.empty(len(z))
    for i, (zi, mi) in enumerate(zip(z, m)):
        if zi > mi:
            out[i] = zi  # confident: keep its output
        elif zi >= 0:
            out[i] = mi  # inside the margin: push to m
        else:
            out[i] = zi + mi  # misclassified: one margin further
    return out


def lasls_eq8(Xa, lam, nu, Gamma):
    """Eq. (8): w = (I/nu + Xa' L Xa)^-1 Xa' L Gamma."""
    L = np.diag(lam)
    A = np.eye(Xa.shape[1]) / nu + Xa.T @ L @ Xa
    return np.linalg.solve(A, Xa.T @ L @ Gamma)


def lasls_eq9(Xa, lam, nu, Gamma):
    """Eq. (8) with the inverse replaced by Eq. (9):
    (I/nu + Xa' L Xa)^-1 = nu I - nu^2 Xa' (L^-1 + nu Xa Xa')^-1 Xa."""
    L = np.diag(lam)
    c = Xa.T @ L @ Gamma
    B = np.diag(1.0 / lam) + nu * Xa @ Xa.T
    return nu * c - nu**2 * Xa.T @ np.linalg.solve(B, Xa @ c)


def kasls_eq12(K, lam, nu, Gamma):
    """Eq. (12): alpha = (K + ee' + L^-1 / nu)^-1 Gamma; b = e' alpha (Eq. 11)."""
    n = K.shape[0]
    alpha = np.linalg.solve(K + np.ones((n, n)) + np.diag(1.0 / lam) / nu, Gamma)
    return alpha, alpha.sum()


def kaslsr_eq17(KR, lam, nu, Gamma):
    """Eq. (17): alpha = (G G' + L^-1 / nu)^-1 Gamma with G = (K_R, e); (u, b) = G' alpha."""
    G = augment(KR)
    alpha = np.linalg.solve(G @ G.T + np.diag(1.0 / lam) / nu, Gamma)
    return G.T @ alpha


def kaslsr_eq18(KR, lam, nu, Gamma):
    """Eq. (17) with the inverse replaced by Eq. (18):
    (G G' + L^-1/nu)^-1 = nu L - nu^2 L G (I + nu G' L G)^-1 G' L."""
    G = augment(KR)
    L = np.diag(lam)
    M = np.eye(G.shape[1]) + nu * G.T @ L @ G
    alpha = nu * L @ Gamma - nu**2 * L @ G @ np.linalg.solve(M, G.T @ L @ Gamma)
    return G.T @ alpha


def stagewise(fit, t, m, n_stages):
    """Run exactly ``n_stages`` stages. ``fit(Gamma)`` returns (coef, training outputs f).

    Returns the last coefficients and the targets each stage used.
    """
    tau = np.ones(len(t))
    history = []
    coef = None
    for _ in range(n_stages):
        history.append(tau.copy())
        coef, f = fit(t * tau)
        tau = next_targets(t * f, m)
    return coef, history


def proximal_svm_dec(A, d, cost):
    """Fung & Mangasarian's proximal SVM with a cost per pattern:
    min 1/2 ||(w, gamma)||^2 + 1/2 sum_i c_i y_i^2  s.t.  D(A w - e gamma) + y = e,
    solved as (w, gamma) = (I + E' C E)^-1 E' C D e with E = [A, -e]; f(x) = x'w - gamma.
    """
    E = np.hstack([A, -np.ones((A.shape[0], 1))])
    C = np.diag(cost)
    wg = np.linalg.solve(np.eye(E.shape[1]) + E.T @ C @ E, E.T @ C @ d)
    return wg[:-1], wg[-1]
