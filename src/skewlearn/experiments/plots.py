"""Figures of an experiment (matplotlib, Agg backend): ROC and PR curves, a metric over the
stream, sensitivity curves (metric against a hyperparameter) and critical-difference
diagrams. Each function returns a :class:`matplotlib.figure.Figure`; :func:`to_png_base64`
turns one into an embeddable PNG.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping, Sequence
from numbers import Real
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "cd_diagram",
    "roc_pr_figure",
    "sensitivity_figure",
    "stream_figure",
    "to_png_base64",
]


def _figure(*args, **kwargs):
    # A Figure without pyplot: no global state, no GUI backend, safe in workers and threads.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(*args, **kwargs)
    FigureCanvasAgg(fig)
    return fig


def to_png_base64(fig: Figure, dpi: int = 90) -> str:
    """The figure as a base64 PNG string (for ``<img src="data:image/png;base64,...">``)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", metadata={"Software": None})
    return base64.b64encode(buf.getvalue()).decode("ascii")


def roc_pr_figure(curves: Mapping[str, Mapping[str, Sequence[float]]], title: str = "") -> Figure:
    """Mean ROC (TPR against FPR) and PR (precision against recall) curves per method.

    ``curves``: ``{method: {"roc_tpr": [...], "pr_precision": [...]}}`` on an evenly spaced
    FPR / recall grid from 0 to 1 (as stored by the runner, averaged over runs).
    """
    fig = _figure(figsize=(9, 4))
    ax_roc, ax_pr = fig.subplots(1, 2)
    for method, c in curves.items():
        if "roc_tpr" in c:
            grid = np.linspace(0, 1, len(c["roc_tpr"]))
            ax_roc.plot(grid, c["roc_tpr"], label=method)
        if "pr_precision" in c:
            grid = np.linspace(0, 1, len(c["pr_precision"]))
            ax_pr.plot(grid, c["pr_precision"], label=method)
    ax_roc.plot([0, 1], [0, 1], color="0.7", lw=0.8, ls="--")
    ax_roc.set(xlabel="false positive rate", ylabel="true positive rate", title="ROC")
    ax_pr.set(xlabel="recall", ylabel="precision", title="precision–recall", ylim=(0, 1.02))
    ax_pr.legend(fontsize=8, loc="lower left")
    if title:
        fig.suptitle(title)
    return fig


def stream_figure(
    streams: Mapping[str, Mapping[str, Sequence[float]]], metric: str, title: str = ""
) -> Figure:
    """A metric over the stream (prequential): ``{method: {"position": [...], metric: [...]}}``."""
    fig = _figure(figsize=(6, 3.6))
    ax = fig.subplots()
    for method, s in streams.items():
        if metric in s:
            ax.plot(s["position"], s[metric], label=method)
    ax.set(xlabel="samples seen", ylabel=metric, title=title or f"{metric} over the stream")
    ax.legend(fontsize=8)
    return fig


def sensitivity_figure(
    lines: Mapping[str, tuple[Sequence, Sequence[float]]],
    param: str,
    metric: str,
    title: str = "",
) -> Figure:
    """Metric against one hyperparameter: ``{label: (values, scores)}``.

    Numeric values go on a numeric axis, a log one when they are positive and span more
    than a factor 20. Any other values (strings such as ``"scale"`` or ``"rbf"``, booleans,
    lists) are categories, one tick each in the order first met, labelled by the value.
    """
    fig = _figure(figsize=(6, 3.6))
    ax = fig.subplots()
    values = [v for x, _ in lines.values() for v in x]
    numeric = all(isinstance(v, Real) and not isinstance(v, bool) for v in values)
    if numeric:
        for label, (x, yv) in lines.items():
            ax.plot(x, yv, marker="o", ms=3, label=label)
        x = np.asarray(values, dtype=float)
        if len(x) and np.all(x > 0) and x.max() / x.min() > 20:
            ax.set_xscale("log", base=2)
    else:
        names: dict[str, int] = {}  # category label -> position
        for v in values:
            names.setdefault(_category(v), len(names))
        for label, (x, yv) in lines.items():
            ax.plot([names[_category(v)] for v in x], yv, marker="o", ms=3, label=label)
        ax.set_xticks(range(len(names)), list(names))
    ax.set(xlabel=param, ylabel=f"inner-CV {metric}", title=title)
    ax.legend(fontsize=8)
    return fig


def _category(value) -> str:
    """The tick label of a non-numeric hyperparameter value."""
    return value if isinstance(value, str) else repr(value)


def cd_diagram(ranks: Mapping[str, float], cd: float, title: str = "") -> Figure:
    """Critical-difference diagram (Demšar 2006, Fig. 1): methods on an axis of average
    rank (1 = best, at the left); methods whose ranks differ by less than ``cd`` are joined
    by a thick bar."""
    if isinstance(cd, bool) or not (isinstance(cd, Real) and 0 < cd < math.inf):
        raise ValueError(
            f"cd must be a positive finite critical difference (nemenyi_cd(k, n_datasets)); "
            f"got {cd!r}."
        )
    for name, rank in ranks.items():
        if not (isinstance(rank, Real) and math.isfinite(rank)):
            raise ValueError(
                f"the average rank of {name!r} is {rank!r}; every method needs a finite "
                "average rank (average_ranks refuses a table with a missing result)."
            )
    names = sorted(ranks, key=ranks.get)
    r = np.array([ranks[n] for n in names])
    k = len(names)
    lo, hi = 1, max(k, 2)
    fig = _figure(figsize=(7, 1.2 + 0.28 * k))
    ax = fig.subplots()
    # a CD longer than the rank axis (few datasets) still shows whole
    ax.set_xlim(lo - 0.3, max(hi, lo + cd) + 0.3)
    ax.set_ylim(-(k / 2 + 2.5), 1.8)
    ax.axis("off")
    ax.hlines(0, lo, hi, color="k", lw=1)
    for t in range(lo, hi + 1):
        ax.vlines(t, 0, 0.15, color="k", lw=1)
        ax.text(t, 0.3, str(t), ha="center", va="bottom", fontsize=8)
    # CD bar
    ax.hlines(1.2, lo, lo + cd, color="k", lw=1.5)
    ax.text(lo + cd / 2, 1.3, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=8)
    half = (k + 1) // 2
    for i, (n, x) in enumerate(zip(names, r)):
        depth = -(i + 1) * 0.45 if i < half else -(k - i) * 0.45
        side = lo - 0.25 if i < half else hi + 0.25
        ax.plot([x, x, side], [0, depth, depth], color="k", lw=0.8)
        ax.text(side, depth, f"{n} ({x:.2f})", ha="right" if i < half else "left",
                va="center", fontsize=8)  # fmt: skip
    # cliques of methods not significantly different
    cliques = []
    for i in range(k):
        j = max(j for j in range(k) if r[j] - r[i] < cd)
        if j > i and not any(a <= i and j <= b for a, b in cliques):
            cliques.append((i, j))
    for level, (i, j) in enumerate(cliques):
        y = -0.25 - 0.18 * level
        ax.hlines(y, r[i] - 0.03, r[j] + 0.03, color="k", lw=3)
    if title:
        ax.set_title(title, fontsize=9)
    return fig
