"""Brute-force references for the metrics: every pair, every threshold, no sorting tricks."""

from __future__ import annotations

import numpy as np


def roc_auc_pairs(is_pos, scores) -> float:
    """O(n²) Mann-Whitney AUC: the share of (positive, negative) pairs ranked right, ties ½."""
    is_pos = np.asarray(is_pos, dtype=bool)
    scores = np.asarray(scores, dtype=float)
    total = 0.0
    pairs = 0
    for sp in scores[is_pos]:
        for sn in scores[~is_pos]:
            pairs += 1
            if sp > sn:
                total += 1.0
            elif sp == sn:
                total += 0.5
    return total / pairs


def prefix_roc_auc(is_pos, scores) -> list[float]:
    """AUC of each prefix (NaN while only one class has been seen), by brute force."""
    out = []
    for t in range(1, len(scores) + 1):
        p = np.asarray(is_pos[:t], dtype=bool)
        out.append(roc_auc_pairs(p, scores[:t]) if 0 < p.sum() < t else float("nan"))
    return out
