"""Slow, readable references for the online AUC learners, written from the papers.

OAM (Zhao et al. 2011; seed 002 "OAM Framework", "Update Buffer", "Update Classifier"):
each buffer is a Python list filled in arrival order; reservoir sampling overwrites a
uniformly drawn slot in place, FIFO the oldest slot. The reservoir draws use the model's
SplitMix64 generator (one uniform for "keep with probability N/t", then one integer for
the slot), so runs can be compared draw for draw.

OPAUC (Gao et al. 2013, Algorithm 1 and Eq. 7): class means and covariance matrices
updated exactly as printed, then one gradient step on the class-conditional square loss.
"""

from __future__ import annotations

import math

import numpy as np

from skewlearn._rng import rng_int, rng_uniform


def oam(
    X,
    y,
    *,
    C=1.0,
    update="sequential",
    buffer="reservoir",
    budget_pos=100,
    budget_neg=100,
    rng_state=None,
):
    """OAM over dense rows ``X`` (no intercept), labels ``y`` in {-1, +1}.

    Returns ``(w, scores, buffers)`` with ``buffers[+1]``, ``buffers[-1]`` lists of rows.
    """
    state = None if rng_state is None else np.array(rng_state, dtype=np.uint64).copy()
    X = np.asarray(X, dtype=float)
    w = np.zeros(X.shape[1])
    cap = {+1: budget_pos, -1: budget_neg}
    buf = {+1: [], -1: []}
    seen = {+1: 0, -1: 0}
    head = {+1: 0, -1: 0}
    scores = []
    for x, yt in zip(X, y):
        yt = int(yt)
        scores.append(w @ x)
        opp = -yt
        # C_t = C max(1, N_t^opp / N_opp); the infinite buffer holds every sample
        c_t = C if buffer == "infinite" else C * max(1.0, seen[opp] / cap[opp])
        seen[yt] += 1
        # UpdateBuffer
        b = buf[yt]
        if buffer == "infinite" or len(b) < cap[yt]:
            b.append(x.copy())
        elif buffer == "fifo":
            b[head[yt]] = x.copy()
            head[yt] = (head[yt] + 1) % cap[yt]
        elif rng_uniform(state) < cap[yt] / seen[yt]:
            b[rng_int(state, cap[yt])] = x.copy()
        # UpdateClassifier against the opposite buffer
        if update == "sequential":
            for xo in buf[opp]:
                diff = x - xo
                loss = max(0.0, 1.0 - yt * (w @ diff))
                if loss > 0 and diff @ diff > 0:
                    w = w + min(c_t / 2, loss / (diff @ diff)) * yt * diff
        else:
            w_t = w.copy()
            for xo in buf[opp]:
                if yt * (w_t @ (x - xo)) < 1:
                    w = w + c_t * yt * (x - xo) / 2
    return w, np.array(scores), buf


def oam_all_pairs(X, y, *, C=1.0, update="sequential"):
    """OAM with an unbounded buffer written as brute force over all earlier pairs:
    at time t, every earlier sample of the opposite class in arrival order, C_t = C."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    w = np.zeros(X.shape[1])
    scores = np.empty(len(y))
    for t in range(len(y)):
        scores[t] = w @ X[t]
        earlier = [s for s in range(t) if y[s] != y[t]]
        w_t = w.copy()
        for s in earlier:
            diff = X[t] - X[s]
            if update == "sequential":
                loss = 1.0 - y[t] * (w @ diff)
                if loss > 0 and diff @ diff > 0:
                    w = w + min(C / 2, loss / (diff @ diff)) * y[t] * diff
            elif y[t] * (w_t @ diff) < 1:
                w = w + C / 2 * y[t] * diff
    return w, scores


def gaussian_pair(state):
    """Two N(0, 1) draws by Box-Muller from two uniforms of the model's generator."""
    u1 = rng_uniform(state)
    u2 = rng_uniform(state)
    r = math.sqrt(-2.0 * math.log(1.0 - u1))
    return r * math.cos(2.0 * math.pi * u2), r * math.sin(2.0 * math.pi * u2)


def opauc(X, y, *, eta=0.01, lam=0.01, covariance="full", rank=10, rng_state=None):
    """OPAUC (Algorithm 1) over dense rows ``X``, labels in {-1, +1}.

    ``covariance="full"`` keeps Gamma by Eq. (7) as printed. ``"low_rank"`` keeps the
    Gaussian sketch ``Z = sum_i x_i r_i^T`` and ``s = sum_i r_i`` (r_i ~ N(0, I/tau)) and
    uses the centred sketch ``Gamma_hat = (Z - c s^T)(Z - c s^T)^T / T`` (written out as
    a d x d matrix here). Returns ``(w, scores)``.
    """
    state = None if rng_state is None else np.array(rng_state, dtype=np.uint64).copy()
    X = np.asarray(X, dtype=float)
    d = X.shape[1]
    w = np.zeros(d)
    T = {+1: 0, -1: 0}
    c = {+1: np.zeros(d), -1: np.zeros(d)}
    G = {+1: np.zeros((d, d)), -1: np.zeros((d, d))}
    Z = {+1: np.zeros((d, rank)), -1: np.zeros((d, rank))}
    s = {+1: np.zeros(rank), -1: np.zeros(rank)}
    scores = []
    for x, yt in zip(X, y):
        yt = int(yt)
        scores.append(w @ x)
        T[yt] += 1
        c_old = c[yt]
        c[yt] = c_old + (x - c_old) / T[yt]
        if covariance == "full":
            # Eq. (7)
            G[yt] = (
                G[yt]
                + np.outer(c_old, c_old)
                - np.outer(c[yt], c[yt])
                + (np.outer(x, x) - G[yt] - np.outer(c_old, c_old)) / T[yt]
            )
        else:
            g = []
            while len(g) < rank:
                g.extend(gaussian_pair(state))
            r = np.array(g[:rank]) / math.sqrt(rank)
            Z[yt] = Z[yt] + np.outer(x, r)
            s[yt] = s[yt] + r
        o = -yt
        if T[o] == 0:
            continue  # no opposite-class statistics yet: no step (as in the authors' code)
        if covariance == "full":
            Gamma = G[o]
        else:
            Zc = Z[o] - np.outer(c[o], s[o])
            Gamma = Zc @ Zc.T / T[o]
        diff = x - c[o]
        grad = lam * w - yt * diff + diff * (diff @ w) + Gamma @ w
        w = w - eta * grad
    return w, np.array(scores)
