"""Figures: the inputs a critical-difference diagram cannot draw are named."""

from __future__ import annotations

import math

import pytest

from skewlearn.experiments.plots import cd_diagram


@pytest.mark.parametrize("cd", [0, -1.0, math.nan, math.inf])
def test_cd_diagram_refuses_a_critical_difference_that_is_not_positive_and_finite(cd):
    """Session 13: cd <= 0 or NaN raised "max() arg is an empty sequence"; an infinite
    one drew a bar to infinity."""
    with pytest.raises(ValueError, match=r"cd must be a positive finite critical difference"):
        cd_diagram({"a": 1.0, "b": 2.0}, cd)


def test_cd_diagram_names_a_method_without_a_finite_rank():
    with pytest.raises(ValueError, match=r"the average rank of 'b' is nan"):
        cd_diagram({"a": 1.0, "b": math.nan}, 1.0)


def test_cd_diagram_draws_one_bar_per_maximal_group():
    """Demšar (2006), Fig. 1: methods whose ranks differ by less than CD are joined."""
    fig = cd_diagram({"A": 1.0, "B": 1.5, "C": 3.0, "D": 3.2}, 1.0)
    (ax,) = fig.axes
    bars = [c for c in ax.collections if c.get_linewidth()[0] == 3]
    spans = sorted(tuple(round(x, 2) for x in seg[:, 0]) for b in bars for seg in b.get_segments())
    assert spans == [(0.97, 1.53), (2.97, 3.23)]
    # ranks exactly CD apart differ significantly ("at least CD", Demšar §3.2.2): no bar
    # joins B and C (2.0 and 3.0 at CD = 1.0); no test told < from <= before
    fig = cd_diagram({"A": 1.0, "B": 2.0, "C": 3.0, "D": 3.5}, 1.0)
    (ax,) = fig.axes
    bars = [c for c in ax.collections if c.get_linewidth()[0] == 3]
    spans = sorted(tuple(round(x, 2) for x in seg[:, 0]) for b in bars for seg in b.get_segments())
    assert spans == [(2.97, 3.53)]


def test_cd_diagram_shows_a_critical_difference_longer_than_the_rank_axis():
    """Session 18: the CD bar runs from rank 1 to 1 + CD but the axis stopped at k + 0.3,
    so with few datasets (k = 3, N = 2: CD = 2.34 > k - 1) the bar was cut at the edge
    and drawn shorter than the CD it is labelled with."""
    from skewlearn.evaluation.stats import nemenyi_cd

    cd = nemenyi_cd(3, 2)
    fig = cd_diagram({"A": 1.0, "B": 2.5, "C": 2.5}, cd)
    (ax,) = fig.axes
    lo, hi = ax.get_xlim()
    bar = next(c for c in ax.collections if c.get_linewidth()[0] == 1.5)
    (seg,) = bar.get_segments()
    assert tuple(seg[:, 0]) == pytest.approx((1.0, 1.0 + cd))
    assert lo < 1.0 and hi > 1.0 + cd  # the whole bar is inside the axes
