"""Slow references for OMCSL (Yan et al., AAAI 2017) and its histogram measures.

Written from the paper's text (Algorithm 1, Eqs. (1)-(4), the hash-table updates), one
sample at a time, with the incremental AUROC rule of the paper (not the closed form the
library uses), so the two are independent.
"""

from __future__ import annotations

import math

import numpy as np


def sigmoid(f: float) -> float:
    return 1.0 / (1.0 + math.exp(-f)) if f >= 0 else math.exp(f) / (1.0 + math.exp(f))


def bin_of(f: float, m: int, transform: str = "sigmoid") -> int:
    """0-based bin of the paper's table: sigma(f) in [b/m, (b+1)/m); sigma = 1 in the last."""
    u = sigmoid(f) if transform == "sigmoid" else f
    return min(math.floor(u * m), m - 1)


class PaperAUROC:
    """The paper's recurrence: AUROC_{t+1} = N+/(N+ + 1) AUROC_t + (pairs won)/((N+ + 1) N-)."""

    def __init__(self, m: int):
        self.m = m
        self.lp = [0] * m
        self.ln = [0] * m
        self.np_ = 0
        self.nn = 0
        self.value = math.nan

    def add(self, y: int, f: float, transform: str = "sigmoid") -> None:
        b = bin_of(f, self.m, transform)
        if y > 0:
            won = sum(self.ln[:b]) + self.ln[b] / 2
            if self.nn > 0:
                old = 0.0 if math.isnan(self.value) else self.value
                self.value = self.np_ / (self.np_ + 1) * old + won / ((self.np_ + 1) * self.nn)
            self.lp[b] += 1
            self.np_ += 1
        else:
            won = sum(self.lp[b + 1 :]) + self.lp[b] / 2
            if self.np_ > 0:
                old = 0.0 if math.isnan(self.value) else self.value
                self.value = self.nn / (self.nn + 1) * old + won / (self.np_ * (self.nn + 1))
            self.ln[b] += 1
            self.nn += 1

    def get(self) -> float:
        return self.value if self.np_ and self.nn else math.nan


def paper_auprc(lp, ln) -> float:
    """AUPRC = 1/2 sum_{i=0}^{m-1} (R(i) - R(i+1)) (P(i) + P(i+1)) with 1-based tables.

    P(i) = sum_{j>i} L+[j] / sum_{j>i} (L+[j] + L-[j]), and 1 where that is 0/0.
    """
    m = len(lp)
    n_pos = sum(lp)
    if n_pos == 0:
        return math.nan

    def R(i):
        return sum(lp[i:]) / n_pos  # bins j > i (1-based) = indices i.. (0-based)

    def P(i):
        tp, fp = sum(lp[i:]), sum(ln[i:])
        return 1.0 if tp + fp == 0 else tp / (tp + fp)

    return 0.5 * sum((R(i) - R(i + 1)) * (P(i) + P(i + 1)) for i in range(m))


def f_measure_incremental(y, f):
    """Eq. (4): a_t, c_t updated per sample; returns F after each sample (0 when c = 0)."""
    a = c = 0
    out = []
    for yt, ft in zip(y, f):
        if yt > 0 and ft > 0:
            a += 1
            c += 2
        elif yt > 0 or ft > 0:
            c += 1
        out.append(2 * a / c if c else 0.0)
    return out


def omcsl(
    Xa,
    y,
    K=9,
    measure="f1",
    gamma=50.0,
    loss="hinge",
    eta=0.1,
    schedule="constant",
    n_bins=100,
    uniforms=None,
    selection="sample",
    score_scale=1.0,
    row_probabilities=None,
):
    """Algorithm 1 with the OGD step (3) on the loss (1), one sample at a time; the tables
    bin sigma(f / score_scale). A list given as ``row_probabilities`` receives, for each
    row, the probabilities p it was predicted under (whose largest is the trace's leader).

    ``uniforms`` are the draws used for sampling (one per sample, for the *next* sample's
    predictor; plus one before the first sample); the inverse-CDF rule picks the first j
    with u < p_1 + ... + p_j. Returns (weights (K, d), scores, selected index per row,
    measures after the stream, probabilities after the stream).
    """
    n, d = Xa.shape
    theta = np.arange(1, K + 1) / (K + 1)
    c_pos, c_neg = 1 - theta / 2, theta / 2
    W = np.zeros((K, d))
    p = np.full(K, 1.0 / K)
    meas = [math.nan] * K
    a = [0] * K
    c = [0] * K
    tables = [(np.zeros(n_bins, int), np.zeros(n_bins, int)) for _ in range(K)]
    aurocs = [PaperAUROC(n_bins) for _ in range(K)]
    draws = iter(uniforms) if uniforms is not None else None

    def pick(p):
        if selection == "best":  # first learner of largest measure (ties up to rounding)
            m = np.array([0.0 if math.isnan(v) else v for v in meas])
            return int(np.flatnonzero(m >= m.max() - 1e-12)[0])
        u = next(draws)
        return int(np.searchsorted(np.cumsum(p), u, side="right").clip(max=K - 1))

    sel = pick(p)
    scores = np.empty(n)
    chosen = np.empty(n, dtype=int)
    for t in range(n):
        x, yt = Xa[t], y[t]
        f = W @ x
        scores[t] = f[sel]
        chosen[t] = sel
        if row_probabilities is not None:
            row_probabilities.append(p)
        lam = eta / math.sqrt(t + 1) if schedule == "invsqrt" else eta
        for j in range(K):
            cost = c_pos[j] if yt > 0 else c_neg[j]
            z = yt * f[j]
            slope = (1.0 if z < 1 else 0.0) if loss == "hinge" else 1.0 / (1.0 + math.exp(z))
            W[j] = W[j] + lam * cost * slope * yt * x
            if measure == "f1":
                if yt > 0 and f[j] > 0:
                    a[j] += 1
                    c[j] += 2
                elif yt > 0 or f[j] > 0:
                    c[j] += 1
                meas[j] = 2 * a[j] / c[j] if c[j] else 0.0
            elif measure == "auroc":
                aurocs[j].add(yt, f[j] / score_scale)
                meas[j] = aurocs[j].get()
            else:
                lp, ln = tables[j]
                (lp if yt > 0 else ln)[bin_of(f[j] / score_scale, n_bins)] += 1
                meas[j] = paper_auprc(list(lp), list(ln))
        m = np.array([0.0 if math.isnan(v) else v for v in meas])
        e = np.exp(gamma * m - np.max(gamma * m))
        p = e / e.sum()
        sel = pick(p)
    return W, scores, chosen, np.array(meas), p


# --------------------------------------------------------------------------- baselines
def ofo(Xa, y, eta=1.0, schedule="invsqrt"):
    """Busa-Fekete et al. (2015): predict sigma(w x) > a/b, update a, b, then logistic OGD."""
    w = np.zeros(Xa.shape[1])
    a = b = 0
    scores = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y), start=1):
        f = w @ x
        tau = a / b if b else 0.0
        scores[t - 1] = sigmoid(f) - tau
        yhat = int(scores[t - 1] > 0)
        ybar = int(yt > 0)
        a += ybar * yhat
        b += ybar + yhat
        lam = eta / math.sqrt(t) if schedule == "invsqrt" else eta
        w = w + lam * sigmoid(-yt * f) * yt * x
    return w, scores, (a, b)


def poisson_draw(lam, uniform):
    """Poisson(lam) by inverse CDF, in pieces of at most 30 (same draws as the kernel)."""

    def small(lam):
        u = uniform()
        p = math.exp(-lam)
        cdf, k = p, 0
        while u > cdf and p > 0.0:
            k += 1
            p *= lam / k
            cdf += p
        return k

    k = 0
    while lam > 30.0:
        k += small(30.0)
        lam -= 30.0
    return k + small(lam)


def resampled_bagging(
    Xa, y, uniform, M=11, decay=0.9, undersample=False, loss="logistic", eta=1.0,
    schedule="invsqrt",
):  # fmt: skip
    """Wang, Minku & Yao (2015) OOB/UOB with OGD learners: returns W, votes, class sizes,
    and each sample's lambda."""
    W = np.zeros((M, Xa.shape[1]))
    steps = np.zeros(M, dtype=int)
    size = {1: 0.0, -1: 0.0}
    votes = np.empty(len(y))
    lambdas = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y)):
        votes[t] = np.mean(np.where(W @ x > 0, 1.0, -1.0))
        for k in size:
            size[k] = decay * size[k] + (1 - decay) * (yt == k)
        own, other = size[yt], size[-yt]
        if undersample:
            lam = other / own if other < own else 1.0
        else:
            lam = other / own if other > own else 1.0
        lambdas[t] = lam
        for m in range(M):
            for _ in range(poisson_draw(lam, uniform)):
                steps[m] += 1
                z = yt * (W[m] @ x)
                slope = (1.0 if z < 1 else 0.0) if loss == "hinge" else sigmoid(-z)
                rate = eta / math.sqrt(steps[m]) if schedule == "invsqrt" else eta
                W[m] = W[m] + rate * slope * yt * x
    return W, votes, (size[-1], size[1]), lambdas
