"""Numpy references for the cost-sensitive learners, from the papers' equations.

Same contract as :mod:`tests.naive`: dense rows augmented with the intercept feature,
labels in {-1, +1}; each returns the final weights and the pre-update scores.
"""

from __future__ import annotations

import numpy as np


def _loss_grad_coef(loss: str, z: float) -> float:
    """-d loss(z)/dz for hinge max(0, 1-z) and logistic log(1 + e^-z)."""
    if loss == "hinge":
        return 1.0 if 1.0 - z > 0.0 else 0.0
    return 1.0 / (1.0 + np.exp(z))


def csogd(
    Xa,
    y,
    objective="sum",
    variant="II",
    loss="hinge",
    eta=0.1,
    schedule="constant",
    eta_p=0.5,
    c_pos=0.5,
    c_neg=0.5,
    imbalance_ratio=None,
):
    """Wang, Zhao & Hoi (2012/2014): OGD on loss I  l(y f - (rho_y - 1)) or II  rho_y l(y f)."""
    w = np.zeros(Xa.shape[1])
    scores = np.empty(len(y))
    t_pos = t_neg = 0
    for t, (x, yt) in enumerate(zip(Xa, y), start=1):
        scores[t - 1] = f = w @ x
        t_pos += yt > 0
        t_neg += yt < 0
        if objective == "sum":
            ratio = (
                imbalance_ratio if imbalance_ratio is not None else max(t_neg, 1) / max(t_pos, 1)
            )
            rho = (eta_p * ratio / (1 - eta_p), 1.0)
        elif objective == "cost":
            rho = (c_pos / c_neg, 1.0)
        else:
            rho = (c_pos, c_neg)
        r = rho[0] if yt > 0 else rho[1]
        lam = eta / np.sqrt(t) if schedule == "invsqrt" else eta
        if variant == "I":
            coef = _loss_grad_coef(loss, yt * f - (r - 1.0))
        else:
            coef = r * _loss_grad_coef(loss, yt * f)
        w = w + lam * coef * yt * x
    return w, scores


def cpa(Xa, y, c_pos=1.0, c_neg=1.0, C=1.0, variant="pa1", update="max_loss"):
    """Crammer et al. (2006) Sec. 6 for two classes: loss sqrt(rho(y, y_hat)) - y f."""
    w = np.zeros(Xa.shape[1])
    scores = np.empty(len(y))
    for t, (x, yt) in enumerate(zip(Xa, y)):
        scores[t] = f = w @ x
        if update == "prediction":
            y_hat = 1 if f > 0 else -1
            if y_hat == yt:
                continue
        loss = max(0.0, np.sqrt(c_pos if yt > 0 else c_neg) - yt * f)
        sq = x @ x
        if loss == 0.0 or (sq == 0.0 and variant != "pa2"):
            continue
        if variant == "pa":
            tau = loss / sq
        elif variant == "pa1":
            tau = min(C, loss / sq)
        else:
            tau = loss / (sq + 1.0 / (2.0 * C))
        w = w + tau * yt * x
    return w, scores
