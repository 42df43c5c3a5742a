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
