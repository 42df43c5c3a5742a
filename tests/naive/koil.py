"""A slow, readable KOIL written from the paper (Algorithm 1, Eqs. 6-14) and the rules of
DESIGN.md ("Budgeted kernel learners"). It recomputes every decision value from scratch
(no Gram or f cache) and keeps each buffer as a Python list of [x, alpha] slots.

Slot semantics (part of the specification the compiled code follows): a buffer fills
slots in arrival order; FIFO overwrites the oldest slot in place, RS overwrites a
uniformly drawn slot in place. Ties in "nearest" / "most similar" go to the lower slot.
The RS draws use the same SplitMix64 generator as the model (one uniform for "keep with
probability N/t", then one integer for the slot).
"""

from __future__ import annotations

import numpy as np

from skewlearn._rng import rng_int, rng_uniform

from .kernels import kernel


def koil(
    X,
    y,
    *,
    C=1.0,
    eta=0.01,
    eta_schedule="constant",
    budget_pos=100,
    budget_neg=100,
    k=10,
    policy="RS++",
    kind="rbf",
    gamma=1.0,
    degree=3,
    coef0=1.0,
    rng_state=None,
):
    """Run KOIL over dense rows ``X`` with labels ``y`` in {-1, +1}.

    Returns ``(buffers, scores)``: ``buffers[+1]`` / ``buffers[-1]`` are lists of
    ``[x, alpha]`` in slot order, ``scores[t]`` is f_t(x_t) before the update.
    """
    state = None if rng_state is None else np.array(rng_state, dtype=np.uint64).copy()
    cap = {+1: budget_pos, -1: budget_neg}
    buf = {+1: [], -1: []}
    head = {+1: 0, -1: 0}
    seen = {+1: 0, -1: 0}

    def kern(a, b):
        return kernel(a, b, kind, gamma, degree, coef0)

    def f(x):  # Eq. (1), positives first then negatives
        return sum(a * kern(sv, x) for s in (+1, -1) for sv, a in buf[s])

    scores = []
    for t, (x, yt) in enumerate(zip(np.asarray(X, float), y), start=1):
        yt = int(yt)
        ft = f(x)
        scores.append(ft)
        eta_t = eta if eta_schedule == "constant" else eta / np.sqrt(t)
        seen[yt] += 1
        own, opp = buf[yt], buf[-yt]

        # Eq. (11): violating opposite SVs, the k most similar ones form V_t
        f_opp = [f(sv) for sv, _ in opp]
        violators = [j for j in range(len(opp)) if 1.0 - yt * (ft - f_opp[j]) > 0.0]
        if len(opp) == 0 or (len(own) == 0 and not violators):
            a_t, V = eta_t * C * yt, []  # start-up rules (authors' code)
        else:
            V = sorted(violators, key=lambda j: (-kern(x, opp[j][0]), j))[:k]
            a_t = eta_t * C * yt * len(V)  # Eq. (12), first case

        # Eq. (12): decay everything, move V
        for s in (+1, -1):
            for slot in buf[s]:
                slot[1] *= 1.0 - eta_t
        for j in V:
            opp[j][1] -= eta_t * C * yt

        if a_t == 0.0:
            continue  # stored only with a non-zero weight
        new = [x.copy(), a_t]
        if len(own) < cap[yt] or policy == "infinite":
            own.append(new)
            continue
        if policy in ("FIFO", "FIFO++"):
            r = head[yt]
            head[yt] = (head[yt] + 1) % cap[yt]
        else:
            if rng_uniform(state) < cap[yt] / seen[yt]:
                r = rng_int(state, cap[yt])
            else:
                r = None
        if r is None:  # RS dropped x_t
            if policy == "RS++":  # its weight goes to the most similar SV (Eq. 13)
                c = max(range(len(own)), key=lambda j: (kern(x, own[j][0]), -j))
                own[c][1] += a_t
            continue
        removed = own[r]
        own[r] = new
        if policy.endswith("++"):  # Eqs. (13)-(14): alpha_c += alpha_r
            c = max(range(len(own)), key=lambda j: (kern(removed[0], own[j][0]), -j))
            own[c][1] += removed[1]
    return buf, np.array(scores)


def decision(buffers, X, kind="rbf", gamma=1.0, degree=3, coef0=1.0):
    """f(x) of Eq. (1) for each row of ``X``."""
    return np.array(
        [
            sum(
                a * kernel(sv, x, kind, gamma, degree, coef0)
                for s in (+1, -1)
                for sv, a in buffers[s]
            )
            for x in np.asarray(X, float)
        ]
    )
