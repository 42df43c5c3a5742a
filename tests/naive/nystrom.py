"""Slow, readable references for the Nyström maps and the MKL objective.

Written from the equations of seed 003 (Sections 2.3, 3.1, 3.2), independently of
src/skewlearn/batch: the approximate kernel matrix by an explicit pseudo-inverse, and the
SVM dual quantities by explicit sums over pairs.
"""

from __future__ import annotations

import numpy as np

from tests.naive.kernels import kernel_matrix


def nystroem_kernel(X, L, kind="rbf", gamma=1.0, degree=3, coef0=1.0, rank=None, jitter=0.0):
    """K~ = C (W + jitter I)_k^+ C^T with the rank-k truncation done by SVD, inverse by pinv."""
    C = kernel_matrix(X, L, kind, gamma, degree, coef0)
    W = kernel_matrix(L, L, kind, gamma, degree, coef0) + jitter * np.eye(len(L))
    U, s, Vt = np.linalg.svd(W)
    k = len(L) if rank is None else rank
    Wk = (U[:, :k] * s[:k]) @ Vt[:k]
    return C @ np.linalg.pinv(Wk, rcond=1e-12, hermitian=True) @ C.T


def dual_gradient(alpha, y, kernels):
    """dJ/dmu_m = -1/2 sum_ij alpha_i alpha_j y_i y_j K_m(x_i, x_j) (Eq. 18), one per kernel."""
    grads = []
    for K in kernels:
        total = 0.0
        for i in range(len(y)):
            for j in range(len(y)):
                total += alpha[i] * alpha[j] * y[i] * y[j] * K[i, j]
        grads.append(-0.5 * total)
    return np.array(grads)


def svm_primal(Z, y, upper, w, b, intercept_scaling=1.0):
    """1/2 ||w||^2 + 1/2 (b / s)^2 + sum_i U_i max(0, 1 - y_i (w . z_i + b)).

    The linear SVM of liblinear: the intercept is the weight of a constant feature s,
    regularised like the others.
    """
    total = 0.5 * float(w @ w) + 0.5 * (b / intercept_scaling) ** 2
    for i in range(len(y)):
        total += upper[i] * max(0.0, 1.0 - y[i] * (Z[i] @ w + b))
    return total
