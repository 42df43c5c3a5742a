"""Slow, readable kernel baselines written from their papers: kernel Perceptron, RBP,
self-tuned Forgetron, Projectron / Projectron++, NORMA.

Each function takes dense rows ``X`` and labels ``y`` in {-1, +1} and returns
``(svs, scores)``: ``svs`` is the final list of ``[x, alpha]`` (the kernel expansion
f = Σ alpha k(x, .)), ``scores[t]`` is f_t(x_t) before the update. Every decision value is
recomputed from scratch; no cache, no preallocated buffer. The Projectron keeps its Gram
matrix and solves K d = k with numpy (the compiled learner instead carries K^{-1} by
rank-one updates) — two different routes to the same projection.

Slot semantics needed to compare against the compiled code: RBP replaces a uniformly
drawn position of the list (drawn with the model's SplitMix64 generator); Forgetron and
NORMA drop the oldest entry.
"""

from __future__ import annotations

import numpy as np

from skewlearn._rng import rng_int

from .kernels import kernel


def _f(svs, x, kern):
    return sum(a * kern(sv, x) for sv, a in svs)


def kernel_perceptron(X, y, budget=None, rng_state=None, **kp):
    """Kernel Perceptron; with ``budget``, RBP (a uniformly random SV leaves when full)."""
    state = None if rng_state is None else np.array(rng_state, dtype=np.uint64).copy()

    def kern(a, b):
        return kernel(a, b, **kp)

    svs, scores = [], []
    for x, yt in zip(np.asarray(X, float), y):
        f = _f(svs, x, kern)
        scores.append(f)
        if yt * f <= 0:
            if budget is None or len(svs) < budget:
                svs.append([x.copy(), float(yt)])
            else:
                svs[int(rng_int(state, budget))] = [x.copy(), float(yt)]
    return svs, np.array(scores)


def forgetron(X, y, budget, **kp):
    """Self-tuned Forgetron (Dekel et al. 2008, Figure 3), written with sigma and labels."""

    def kern(a, b):
        return kernel(a, b, **kp)

    def psi(lam, mu):
        return lam**2 + 2 * lam - 2 * lam * mu

    active = []  # [x, y, sigma], oldest first
    Q, M = 0.0, 0
    scores = []
    for x, yt in zip(np.asarray(X, float), y):
        f = sum(s * yi * kern(xi, x) for xi, yi, s in active)
        scores.append(f)
        if yt * f > 0:
            continue
        M += 1
        active.append([x.copy(), float(yt), 1.0])  # Perceptron step: f' = f + y k(x, .)
        if len(active) <= budget:
            continue
        xr, yr, sr = active[0]
        mu = yr * sum(s * yi * kern(xi, xr) for xi, yi, s in active)  # y_r f'(x_r)
        if psi(sr, mu) + Q <= 15 / 32 * M:
            phi = 1.0
        else:
            # largest phi in (0, 1] with psi(phi sr, phi mu) + Q <= 15/32 M: the quadratic
            # (sr^2 - 2 sr mu) phi^2 + 2 sr phi + (Q - 15/32 M) has one root in (0, 1)
            roots = np.roots([sr**2 - 2 * sr * mu, 2 * sr, Q - 15 / 32 * M])
            roots = roots[np.isreal(roots)].real
            phi = float(roots[(roots > 0) & (roots < 1)].min())
        for entry in active:
            entry[2] *= phi
        Q += psi(phi * sr, phi * mu)
        active.pop(0)
    return [[xi, s * yi] for xi, yi, s in active], np.array(scores)


def projectron(X, y, eta, plus=False, budget=None, **kp):
    """Projectron (Figure 1) / Projectron++ (Figure 2) of Orabona et al. (2009); with
    ``budget``, a full support set always takes the projected step."""

    def kern(a, b):
        return kernel(a, b, **kp)

    S, alpha, scores = [], [], []
    for x, yt in zip(np.asarray(X, float), y):
        k = np.array([kern(s, x) for s in S])
        f = float(np.dot(alpha, k)) if S else 0.0
        scores.append(f)
        z = yt * f
        if z > 0 and not (plus and z < 1):
            continue
        if S:
            K = np.array([[kern(a, b) for b in S] for a in S])
            d = np.linalg.solve(K, k)
            pk = float(k @ d)  # ||P k||^2
        else:
            d, pk = np.zeros(0), 0.0
        delta = np.sqrt(max(kern(x, x) - pk, 0.0))
        if z <= 0:
            if delta <= eta or (budget is not None and len(S) == budget):
                alpha = list(np.asarray(alpha) + yt * d)
            else:
                S.append(x.copy())
                alpha = [*alpha, float(yt)]
        else:
            loss = 1 - z
            if pk > 0 and loss - delta / eta > 0:
                beta = min(loss / pk, 2 * (loss - delta / eta) / pk, 1.0)
                alpha = list(np.asarray(alpha) + beta * yt * d)
    return [[s, a] for s, a in zip(S, alpha)], np.array(scores)


def norma(
    X,
    y,
    eta,
    lam,
    rho=1.0,
    nu=None,
    budget=None,
    schedule="constant",
    fit_intercept=False,
    c_pos=1.0,
    c_neg=1.0,
    **kp,
):
    """NORMA with the hinge (soft-margin) loss, Kivinen et al. (2004), classification:
    f <- (1 - eta lam) f + eta c_y sigma y k(x, .), sigma = [y f(x) < rho];
    b <- b + eta c_y sigma y (c_y: the class cost, 1 in the paper); nu given:
    rho <- rho + eta (nu - sigma). Truncation keeps the ``budget`` newest terms.
    Returns ``(terms, b, rho, scores)``."""

    def kern(a, b):
        return kernel(a, b, **kp)

    terms, b, scores = [], 0.0, []
    for t, (x, yt) in enumerate(zip(np.asarray(X, float), y), start=1):
        f = _f(terms, x, kern) + b
        scores.append(f)
        eta_t = eta if schedule == "constant" else eta / np.sqrt(t)
        sigma = 1.0 if yt * f < rho else 0.0
        terms = [[sv, (1 - eta_t * lam) * a] for sv, a in terms]
        if sigma:
            c = c_pos if yt > 0 else c_neg
            terms.append([x.copy(), eta_t * c * yt])
            if budget is not None and len(terms) > budget:
                terms.pop(0)
            if fit_intercept:
                b += eta_t * c * yt
        if nu is not None:
            rho += eta_t * (nu - sigma)
    return terms, b, rho, np.array(scores)


def decision(svs, X, b=0.0, **kp):
    """f(x) = Σ alpha k(sv, x) + b for every row of X."""
    return np.array([sum(a * kernel(sv, x, **kp) for sv, a in svs) + b for x in X])
