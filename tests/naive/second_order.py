"""Slow numpy references for the second-order learners, written from the papers.

Each takes dense rows already augmented with the intercept feature (``[x, 1]``),
labels in {-1, +1} and ``full`` (True: a full matrix, False: its diagonal), and
returns ``(weights, Sigma, pre-update scores)``. Where the compiled kernels use a
Sherman–Morrison rank-one form, these references work on the precision matrix
(``Σ⁻¹ += κ x xᵀ`` then a linear solve) or on the paper's product form instead, so
the two are independent.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri


def _start(Xa, a, full):
    d = Xa.shape[1]
    S = a * np.eye(d) if full else np.full(d, float(a))
    return np.zeros(d), S, np.empty(Xa.shape[0])


def _sx(S, x, full):
    return S @ x if full else S * x


def _precision_step(S, x, kappa, full):
    """Σ ← (Σ⁻¹ + κ x xᵀ)⁻¹ (full) or its diagonal analogue 1/(1/Σ_jj + κ x_j²)."""
    if full:
        P = np.linalg.solve(S, np.eye(len(x))) + kappa * np.outer(x, x)
        S = np.linalg.solve(P, np.eye(len(x)))
        return (S + S.T) / 2
    return 1.0 / (1.0 / S + kappa * x * x)


def arow(Xa, y, r=1.0, full=False):
    w, S, scores = _start(Xa, 1.0, full)
    for t, (x, yt) in enumerate(zip(Xa, y)):
        m = w @ x
        scores[t] = m
        v = x @ _sx(S, x, full)
        if yt * m < 1 and v > 0:
            beta = 1.0 / (v + r)
            alpha = (1 - yt * m) * beta
            w = w + alpha * yt * _sx(S, x, full)
            S = _precision_step(S, x, 1.0 / r, full)
    return w, S, scores


def cw(Xa, y, eta=0.7, a=1.0, full=False):
    """Dredze, Crammer, Pereira (2008), Algorithm 1 (Variance, approximate), Lemma 1."""
    phi = ndtri(eta)
    w, S, scores = _start(Xa, a, full)
    for t, (x, yt) in enumerate(zip(Xa, y)):
        scores[t] = w @ x
        M = yt * (w @ x)
        V = x @ _sx(S, x, full)
        if V <= 0:
            continue
        gamma = (-(1 + 2 * phi * M) + np.sqrt((1 + 2 * phi * M) ** 2 - 8 * phi * (M - phi * V))) / (
            4 * phi * V
        )
        alpha = max(gamma, 0.0)
        if alpha > 0:
            w = w + alpha * yt * _sx(S, x, full)  # Eq. (11)
            S = _precision_step(S, x, 2 * alpha * phi, full)  # Eq. (12) / diagonal Eq. (17)
    return w, S, scores


def scw(Xa, y, C=1.0, eta=0.75, variant="scw1", full=False):
    """Wang, Zhao, Hoi (2012), Algorithm 1 with Proposition 1 (SCW-I) or 2 (SCW-II)."""
    phi = ndtri(eta)
    psi, zeta = 1 + phi**2 / 2, 1 + phi**2
    w, S, scores = _start(Xa, 1.0, full)
    for t, (x, yt) in enumerate(zip(Xa, y)):
        scores[t] = w @ x
        m = yt * (w @ x)
        v = x @ _sx(S, x, full)
        if v <= 0 or phi * np.sqrt(v) - m <= 0:
            continue
        if variant == "scw1":
            root = np.sqrt(m**2 * phi**4 / 4 + v * phi**2 * zeta)
            alpha = min(C, max(0.0, (-m * psi + root) / (v * zeta)))
        else:
            n = v + 1 / (2 * C)
            gam = phi * np.sqrt(phi**2 * m**2 * v**2 + 4 * n * v * (n + v * phi**2))
            alpha = max(0.0, (-(2 * m * n + phi**2 * m * v) + gam) / (2 * (n**2 + n * v * phi**2)))
        if alpha <= 0:
            continue
        u = 0.25 * (-alpha * v * phi + np.sqrt(alpha**2 * v**2 * phi**2 + 4 * v)) ** 2
        w = w + alpha * yt * _sx(S, x, full)
        # Σ_{t+1} = Σ − β Σ x xᵀ Σ with β = αφ/(√u + vαφ), i.e. Σ⁻¹ += αφ/√u · x xᵀ
        S = _precision_step(S, x, alpha * phi / np.sqrt(u), full)
    return w, S, scores


def narow(Xa, y, b=1.0, full=False):
    """Orabona & Crammer (2010): AROW with r_t = χ/(bχ − 1) if χ > 1/b, else +∞."""
    w, S, scores = _start(Xa, 1.0, full)
    for t, (x, yt) in enumerate(zip(Xa, y)):
        m = w @ x
        scores[t] = m
        chi = x @ _sx(S, x, full)
        if yt * m >= 1 or chi <= 1 / b:
            continue
        r_t = chi / (b * chi - 1)
        w = w + (1 - yt * m) / (chi + r_t) * yt * _sx(S, x, full)
        S = _precision_step(S, x, 1 / r_t, full)
    return w, S, scores


def nherd(Xa, y, C=1.0, full=False):
    """Crammer & Lee (2010): μ += max(0, 1 − m)/(v + 1/C) Σ y x; Σ ← A Σ Aᵀ."""
    w, S, scores = _start(Xa, 1.0, full)
    for t, (x, yt) in enumerate(zip(Xa, y)):
        m = w @ x
        scores[t] = m
        v = x @ _sx(S, x, full)
        if yt * m >= 1 or v <= 0:
            continue
        w = w + (1 - yt * m) / (v + 1 / C) * yt * _sx(S, x, full)
        if full:
            A = np.eye(len(x)) - C / (1 + C * v) * np.outer(S @ x, x)
            S = A @ S @ A.T
            S = (S + S.T) / 2
        else:
            S = S / (1 + C * x * x * S) ** 2
    return w, S, scores


def iellip(Xa, y, a=1.0, b=0.3, c=0.1, full=False):
    """Yang, Jin, Ye (2009): on a mistake, g = y x/√(xᵀΣx), w += α Σ g with
    α = (1 − y w·x)/√(xᵀΣx), Σ ← (Σ − c_t Σ g gᵀ Σ)/(1 − c_t); c_t = c bᵗ⁻¹."""
    w, S, scores = _start(Xa, a, full)
    for t, (x, yt) in enumerate(zip(Xa, y)):
        c_t = c * b**t
        m = w @ x
        scores[t] = m
        v = x @ _sx(S, x, full)
        if yt * m > 0 or v <= 0:
            continue
        g = yt * x / np.sqrt(v)
        alpha = (1 - yt * m) / np.sqrt(v)
        w = w + alpha * _sx(S, g, full)
        if full:
            Sg = S @ g
            S = (S - c_t * np.outer(Sg, Sg)) / (1 - c_t)
        else:
            # diagonal of the precision: Σ'⁻¹ = (1 − c)Σ⁻¹ + c g gᵀ
            S = 1.0 / ((1 - c_t) / S + c_t * g * g)
    return w, S, scores


def sop(Xa, y, a=1.0, full=False):
    """Cesa-Bianchi, Conconi, Gentile (2005) (seed 002 SOP slide), literally: the paper's margin
    uses (aI + S Sᵀ)⁻¹ with the current x inside S; also returns xᵀ(aI + X Xᵀ)⁻¹v
    (the same sign: our decision value)."""
    d = Xa.shape[1]
    v = np.zeros(d)
    mistakes = []
    scores = np.empty(len(y))
    paper = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y)):
        Xk = np.array(mistakes).reshape(-1, d)
        if full:
            A = a * np.eye(d) + Xk.T @ Xk
            paper[t] = x @ np.linalg.solve(A + np.outer(x, x), v)
            scores[t] = x @ np.linalg.solve(A, v)
        else:
            A = a + (Xk**2).sum(axis=0)
            paper[t] = x @ (v / (A + x * x))
            scores[t] = x @ (v / A)
        if yt * scores[t] <= 0:
            v = v + yt * x
            mistakes.append(x)
    Xk = np.array(mistakes).reshape(-1, d)
    if full:
        A = a * np.eye(d) + Xk.T @ Xk
        return np.linalg.solve(A, v), np.linalg.solve(A, np.eye(d)), scores, paper
    A = a + (Xk**2).sum(axis=0)
    return v / A, 1.0 / A, scores, paper
