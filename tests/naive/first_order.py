"""Numpy references for OGD, ALMA and ROMMA, written from the papers' equations.

Same contract as :mod:`tests.naive`: dense rows already augmented with the intercept
feature, labels in {-1, +1}; each returns the final weights and the pre-update scores.
"""

from __future__ import annotations

import numpy as np


def loss_slope(loss: str, z: float) -> float:
    """-d loss / dz at the margin z = y w.x (hinge, logistic, squared = 1/2 (1 - z)^2)."""
    if loss == "hinge":
        return 1.0 if z < 1.0 else 0.0
    if loss == "logistic":
        return float(np.exp(-np.logaddexp(0.0, z)))  # 1 / (1 + e^z)
    return 1.0 - z


def ogd(Xa, y, eta=1.0, loss="hinge", schedule="invsqrt", alpha=0.0):
    w = np.zeros(Xa.shape[1])
    scores = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y), start=1):
        scores[t - 1] = f = w @ x
        eta_t = eta / np.sqrt(t) if schedule == "invsqrt" else eta
        grad = -loss_slope(loss, yt * f) * yt * x
        reg = alpha * w
        reg[-1] = 0.0  # the intercept is not regularised
        w = w - eta_t * (grad + reg)
    return w, scores


def alma(Xa, y, alpha=0.9, B=None, C=None):
    """ALMA_2(alpha; B, C) of Gentile (2001) with p = 2."""
    B = 1.0 / alpha if B is None else B
    C = np.sqrt(2.0) if C is None else C
    w = np.zeros(Xa.shape[1])
    scores = np.empty(len(y))
    k = 1
    for t, (x, yt) in enumerate(zip(Xa, y)):
        scores[t] = w @ x
        nx = np.linalg.norm(x)
        if nx == 0.0:
            continue
        xh = x / nx
        gamma = B / np.sqrt(k)
        if yt * (w @ xh) <= (1.0 - alpha) * gamma:
            w = w + C / np.sqrt(k) * yt * xh
            w = w / max(1.0, np.linalg.norm(w))
            k += 1
    return w, scores


def romma(Xa, y, aggressive=False):
    """ROMMA / aggressive ROMMA of Li and Long (2002), closed form."""
    w = np.zeros(Xa.shape[1])
    scores = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y)):
        scores[t] = f = w @ x
        if (yt * f >= 1.0) if aggressive else (yt * f > 0.0):
            continue
        xx, ww = x @ x, w @ w
        if ww == 0.0 or (aggressive and yt * f >= xx * ww):
            if xx > 0.0:  # the smallest w with y w.x >= 1 (it meets w.w_t >= |w_t|^2 here)
                w = yt * x / xx
            continue
        den = xx * ww - f * f
        if den <= 1e-12 * xx * ww:
            continue
        c = (xx * ww - yt * f) / den
        d = ww * (yt - f) / den
        w = c * w + d * x
    return w, scores


def truncated_gradient(
    Xa, y, eta=0.1, gravity=0.01, theta=np.inf, K=10, loss="hinge", schedule="constant"
):
    """Langford, Li & Zhang (2009): w <- T1(w - eta grad, eta g_i, theta), g_i = K g every K."""
    w = np.zeros(Xa.shape[1])
    scores = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y), start=1):
        scores[t - 1] = f = w @ x
        eta_t = eta / np.sqrt(t) if schedule == "invsqrt" else eta
        w = w + eta_t * loss_slope(loss, yt * f) * yt * x
        if gravity > 0 and t % K == 0:
            a = eta_t * K * gravity
            v = w[:-1]  # the intercept is not truncated
            pos = (v >= 0) & (v <= theta)
            neg = (v < 0) & (v >= -theta)
            v = np.where(pos, np.maximum(0.0, v - a), v)
            v = np.where(neg, np.minimum(0.0, v + a), v)
            w = np.append(v, w[-1])
    return w, scores


def ofs(Xa, y, n_selected=10, eta=0.2, lam=0.01):
    """Wang et al. (2014) OFS: step, project on the ball of radius 1/sqrt(lam), keep B largest."""
    w = np.zeros(Xa.shape[1])
    scores = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y)):
        scores[t] = f = w @ x
        if yt * f > 1.0:
            continue
        w = w + eta * yt * x
        w = w * min(1.0, 1.0 / (np.sqrt(lam) * np.linalg.norm(w)))
        keep = np.argsort(-np.abs(w[:-1]), kind="stable")[:n_selected]
        mask = np.zeros(len(w), dtype=bool)
        mask[keep] = True
        mask[-1] = True  # the intercept is not a feature
        w = np.where(mask, w, 0.0)
    return w, scores
