"""Significance tests: paired t-test markers, win/tie/loss, Friedman, Nemenyi.

The markers follow the caption of Table 1 in KOIL [1]_: against a set of *reference*
methods (there KOIL_RS++ and KOIL_FIFO++), a method's cell gets ``●`` when every reference
is significantly better than it, ``○`` when some but not all are (paired t-tests at 95%
over the runs). The caption's "(worse)" case — references significantly *worse* than the
method — gets ``▲`` (all) / ``△`` (some) here, since the text copy of the paper does not
preserve which glyph the paper printed (see docs/decisions.md). The win/tie/loss row counts,
per method, the datasets where some reference is significantly better (win, for the
references), where one is significantly worse and none better (loss), and the rest (tie);
this reproduces Table 1's last row from its markers.

Friedman and Nemenyi follow Demšar [2]_.

References
----------
.. [1] J. Hu, H. Yang, I. King, M. R. Lyu, A. M.-C. So, "Kernelized online imbalanced
   learning with fixed budgets", AAAI 2015 (seed 000), Table 1.
.. [2] J. Demšar, "Statistical comparisons of classifiers over multiple data sets",
   JMLR 7:1-30, 2006 (eqs. for χ²_F, F_F and the Nemenyi critical difference; Table 5).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import stats as _st

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = [
    "FriedmanResult",
    "TTestResult",
    "average_ranks",
    "friedman_from_ranks",
    "friedman_test",
    "nemenyi_cd",
    "nemenyi_q",
    "paired_ttest",
    "sign_test_pvalue",
    "significance_markers",
    "win_tie_loss",
]


def _check_alpha(alpha) -> None:
    """A significance level is a probability strictly between 0 and 1 (alpha >= 1 would
    call every difference significant, alpha <= 0 none)."""
    if isinstance(alpha, bool) or not (isinstance(alpha, numbers.Real) and 0 < alpha < 1):
        raise ValueError(
            f"alpha must be in (0, 1), the significance level (e.g. 0.05); got {alpha!r}."
        )


def _check_count(name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer; got {value!r}.")


@dataclass(frozen=True)
class TTestResult:
    """A paired t-test of ``a - b``: statistic, two-sided p-value, mean difference."""

    statistic: float
    pvalue: float
    mean_diff: float

    def significant(self, alpha: float = 0.05) -> int:
        """+1 if ``a`` is significantly larger, -1 if significantly smaller, else 0.

        Parameters
        ----------
        alpha : float, default=0.05
            Significance level of the two-sided test, in (0, 1): significant when
            ``pvalue < alpha``.
        """
        _check_alpha(alpha)
        if not (self.pvalue < alpha):
            return 0
        return 1 if self.mean_diff > 0 else -1


def paired_ttest(a: ArrayLike, b: ArrayLike) -> TTestResult:
    """Two-sided paired t-test of the runs ``a`` and ``b`` (same length, paired by run).

    .. math:: t = \\bar d / (s_d / \\sqrt{n}), \\quad d_i = a_i - b_i,

    with ``n - 1`` degrees of freedom; the same statistic and p-value as
    :func:`scipy.stats.ttest_rel`. When every difference is equal (``s_d = 0``, or a spread
    no larger than the rounding of ``a - b``) there is no spread to scale ``t`` by:
    identical runs give p = 1, and a constant non-zero shift gets the statistic ±inf and
    the exact two-sided sign test's p-value, ``2 · 2**-n`` (what the Wilcoxon signed-rank
    test gives for ``n`` equal differences, :func:`scipy.stats.wilcoxon`), rather than the
    t-test's degenerate p = 0: ``n`` runs that all moved the same way are as significant
    as ``n`` signs can be (5 runs: p = 0.0625; 6: 0.03125), not certain.

    Parameters
    ----------
    a, b : array-like of shape (n_runs,)
        The two methods' values, run by run (at least 2 runs).

    Returns
    -------
    TTestResult
        ``statistic`` (t), ``pvalue`` (two-sided) and ``mean_diff`` (:math:`\\bar d`).

    Examples
    --------
    >>> r = paired_ttest([0.9, 0.8, 0.85, 0.9], [0.7, 0.75, 0.8, 0.7])
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (2.8868, 0.0632)
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(
            f"paired_ttest needs two 1-d arrays of equal length (one value per run); got "
            f"shapes {a.shape} and {b.shape}."
        )
    if len(a) < 2:
        raise ValueError(f"paired_ttest needs at least 2 paired runs; got {len(a)}.")
    d = a - b
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    # a spread within the rounding of the subtraction is no spread: 0.91 - 0.81 and
    # 0.92 - 0.82 differ in the last bit, and t would be ~1e15
    tol = 8 * np.finfo(float).eps * float(np.max(np.abs(np.concatenate([a, b]))))
    if sd == 0.0 or (math.isfinite(sd) and np.ptp(d) <= tol):
        if abs(mean) <= tol:  # identical runs (up to that rounding)
            return TTestResult(0.0, 1.0, 0.0)
        return TTestResult(math.copysign(math.inf, mean), sign_test_pvalue(len(d)), mean)
    t = mean / (sd / math.sqrt(len(d)))
    p = float(2 * _st.t.sf(abs(t), len(d) - 1))
    return TTestResult(float(t), p, mean)


def sign_test_pvalue(n: int) -> float:
    """The exact two-sided sign test's p-value when all ``n`` paired differences have the
    same sign: ``min(1, 2 · 0.5**n)`` (scipy: ``binomtest(n, n).pvalue``; also the exact
    Wilcoxon signed-rank p-value of ``n`` equal differences).

    Parameters
    ----------
    n : int
        The number of paired runs, >= 1.

    Returns
    -------
    float
        ``min(1, 2**(1 - n))``.
    """
    _check_count("n", n)
    if n < 1:
        raise ValueError(f"n must be at least 1 (the number of paired runs); got {n}.")
    return min(1.0, math.ldexp(1.0, 1 - n))


# method -> dataset -> runs: a sequence (paired by position across methods) or a mapping
# run id -> value (paired on the run ids the two methods share)
Runs = Mapping[str, Mapping[str, Sequence[float] | Mapping[Hashable, float]]]


def _paired(method_runs, ref_runs) -> tuple[list[float], list[float]] | None:
    """The (reference, method) values to pair, or None when they share fewer than 2 runs.

    Sequences pair by position; mappings keyed by run id (e.g. ``(repetition, fold)``)
    pair on the ids both have, so a run one method lacks does not drop the others."""
    if isinstance(method_runs, Mapping) or isinstance(ref_runs, Mapping):
        if not (isinstance(method_runs, Mapping) and isinstance(ref_runs, Mapping)):
            raise TypeError(
                "runs must be all sequences (paired by position) or all mappings from a "
                "run id to its value (paired on shared ids); got a mix."
            )
        keys = set(method_runs) & set(ref_runs)
        try:
            keys = sorted(keys)
        except TypeError:  # run ids of several types: any fixed order pairs them
            keys = sorted(keys, key=repr)
        if len(keys) < 2:
            return None
        return [ref_runs[k] for k in keys], [method_runs[k] for k in keys]
    return list(ref_runs), list(method_runs)


def _reference_verdicts(runs: Runs, references: Sequence[str], alpha: float):
    """(method, dataset) -> list of +1/-1/0: reference better / worse / tie, per reference
    that has the dataset. A (method, dataset) that no reference has (or, with run-keyed
    mappings, shares fewer than 2 runs with) is left out: it was not compared, which is
    not a tie. So is a pair whose runs are each constant but differ (each method scored
    one number in every run): that is one observation repeated, which no test can judge."""
    _check_alpha(alpha)
    if isinstance(references, str):
        references = [references]
    if not references:
        raise ValueError(
            "references must name at least one method (e.g. ['KOIL_RS++']): the markers and "
            "win/tie/loss compare every other method with them."
        )
    missing = [r for r in references if r not in runs]
    if missing:
        raise ValueError(
            f"reference method(s) {missing} have no results; choose among {sorted(runs)}."
        )
    out = {}
    for method, per_data in runs.items():
        if method in references:
            continue
        for dataset, values in per_data.items():
            verdicts = []
            for ref in references:
                if dataset not in runs[ref]:
                    continue
                pair = _paired(values, runs[ref][dataset])
                if pair is None:
                    continue
                for who, v in ((ref, pair[0]), (method, pair[1])):
                    if not np.isfinite(np.asarray(v, dtype=float)).all():
                        raise ValueError(
                            f"{who} on {dataset}: the runs hold NaN or inf, so the paired "
                            "t-test cannot decide (it would count as a tie). Drop the "
                            "failed runs from every method (keep the runs all methods "
                            "have), or fix them."
                        )
                if len(pair[0]) != len(pair[1]):
                    raise ValueError(
                        f"{method} on {dataset} has {len(pair[1])} runs and {ref} has "
                        f"{len(pair[0])}; sequences pair by position, so they need equal "
                        "lengths. Pass mappings keyed by run id (e.g. (repetition, fold)) "
                        "to pair the runs both have."
                    )
                if np.ptp(pair[0]) == 0 and np.ptp(pair[1]) == 0 and pair[0][0] != pair[1][0]:
                    # every run of each is one number: one observation copied (e.g. a
                    # deterministic learner on an unshuffled stream, repeated), not n runs;
                    # the t-test would call the difference certain (p = 0). (Equal
                    # constants stay a tie, p = 1.)
                    continue
                verdicts.append(paired_ttest(*pair).significant(alpha))
            if verdicts:
                out[method, dataset] = verdicts
    return out


def significance_markers(
    runs: Runs,
    references: Sequence[str],
    *,
    alpha: float = 0.05,
    symbols: Sequence[str] = ("●", "○", "▲", "△"),
) -> dict[tuple[str, str], str]:
    """The marker of each (method, dataset) cell against the reference methods.

    Parameters
    ----------
    runs : mapping method -> dataset -> per-run values
        Higher is better: a sequence (paired by position across methods) or a mapping
        run id -> value (each method is paired with each reference on the run ids the
        two share; fewer than 2 shared runs = not compared).
    references : sequence of str
        The reference methods (e.g. ``["KOIL_RS++", "KOIL_FIFO++"]``).
    alpha : float, default=0.05
        Significance level of the two-sided paired t-tests, in (0, 1).
    symbols : sequence of 4 str, default=("●", "○", "▲", "△")
        The markers for: all references better, some better, all worse, some worse.

    Returns
    -------
    dict
        ``{(method, dataset): marker}`` for every non-reference method and every dataset
        some reference has; ``""`` = no reference differs significantly. Runs with NaN
        raise ``ValueError`` (a failed run is not a tie).

    Examples
    --------
    >>> runs = {"ref": {"d": [0.9, 0.91, 0.92, 0.9]}, "m": {"d": [0.7, 0.72, 0.71, 0.7]}}
    >>> significance_markers(runs, ["ref"])
    {('m', 'd'): '●'}
    """
    if len(symbols) != 4:
        raise ValueError(
            "symbols must be 4 markers (all references better, some better, all worse, some "
            f"worse); got {len(symbols)}: {symbols!r}."
        )
    better_all, better_some, worse_all, worse_some = symbols
    marks = {}
    for key, v in _reference_verdicts(runs, references, alpha).items():
        n_better = sum(x > 0 for x in v)
        n_worse = sum(x < 0 for x in v)
        if n_better:
            marks[key] = better_all if n_better == len(v) else better_some
        elif n_worse:
            marks[key] = worse_all if n_worse == len(v) else worse_some
        else:
            marks[key] = ""
    return marks


def win_tie_loss(
    runs: Runs, references: Sequence[str], *, alpha: float = 0.05
) -> dict[str, tuple[int, int, int]]:
    """Per non-reference method, (win, tie, loss) counts over datasets, for the references.

    Win: at least one reference is significantly better than the method on that dataset;
    loss: none is better and at least one is significantly worse; tie: otherwise. A dataset
    no reference has is not counted.

    Parameters
    ----------
    runs : mapping method -> dataset -> per-run values
        As in :func:`significance_markers` (higher is better).
    references : sequence of str
        The reference methods.
    alpha : float, default=0.05
        Significance level of the two-sided paired t-tests, in (0, 1).

    Returns
    -------
    dict
        ``{method: (win, tie, loss)}`` for every non-reference method.

    Examples
    --------
    >>> runs = {"ref": {"a": [1, 2, 3], "b": [1, 2, 3]}, "m": {"a": [0, 1, 2.1], "b": [1, 2, 3]}}
    >>> win_tie_loss(runs, ["ref"])
    {'m': (1, 1, 0)}
    """
    counts: dict[str, list[int]] = {}
    for (method, _), v in _reference_verdicts(runs, references, alpha).items():
        c = counts.setdefault(method, [0, 0, 0])
        if any(x > 0 for x in v):
            c[0] += 1
        elif any(x < 0 for x in v):
            c[2] += 1
        else:
            c[1] += 1
    return {m: tuple(c) for m, c in counts.items()}


# --------------------------------------------------------------------------- Friedman
def average_ranks(scores: ArrayLike, *, higher_is_better: bool = True) -> np.ndarray:
    """Average rank of each method (column) over datasets (rows); rank 1 = best, ties
    share the average rank (Demšar's convention): :math:`R_j = \\frac1N \\sum_i r_i^j`.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_methods)
        One score per dataset and method; NaN is refused.
    higher_is_better : bool, default=True
        Whether the highest score ranks 1 (False: the lowest, as for error rates).

    Returns
    -------
    ndarray of shape (n_methods,)

    Examples
    --------
    >>> average_ranks([[0.9, 0.8, 0.8], [0.7, 0.9, 0.6]]).tolist()
    [1.5, 1.75, 2.75]
    """
    if not isinstance(higher_is_better, bool | np.bool_):
        raise TypeError(f"higher_is_better must be True or False; got {higher_is_better!r}.")
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2:
        raise ValueError(
            f"scores must be a 2-d array (datasets × methods); got shape {scores.shape}."
        )
    if scores.size == 0:
        raise ValueError(
            f"scores is empty (shape {scores.shape}); ranking needs at least one dataset (row) "
            "and one method (column)."
        )
    if np.isnan(scores).any():
        i, j = np.argwhere(np.isnan(scores))[0]
        raise ValueError(
            f"scores hold NaN ({int(np.isnan(scores).sum())} cells; first at dataset row {i}, "
            f"method column {j}): a missing result has no rank. Drop that dataset or method "
            "(or re-run it) before ranking."
        )
    ranked = _st.rankdata(-scores if higher_is_better else scores, axis=1)
    return ranked.mean(axis=0)


@dataclass(frozen=True, eq=False)
class FriedmanResult:
    """Friedman's χ²_F with its p-value, Iman–Davenport's F_F with its p-value, and the
    average ranks (1 = best). Two results are equal when every field is (the ranks
    compared as arrays); like the array it holds, a result is not hashable."""

    chi2: float
    pvalue: float
    f_stat: float
    f_pvalue: float
    ranks: np.ndarray
    n_datasets: int

    def __eq__(self, other):
        # (the generated __eq__ compared the ranks with ``==`` inside a tuple comparison:
        # "The truth value of an array with more than one element is ambiguous")
        if not isinstance(other, FriedmanResult):
            return NotImplemented
        scalars = ("chi2", "pvalue", "f_stat", "f_pvalue", "n_datasets")
        return all(getattr(self, k) == getattr(other, k) for k in scalars) and bool(
            np.array_equal(self.ranks, other.ranks)
        )

    __hash__ = None  # type: ignore[assignment]


def friedman_from_ranks(
    ranks: ArrayLike, n_datasets: int, *, tie_correction: float = 1.0
) -> FriedmanResult:
    """Friedman statistics from average ranks (Demšar 2006, section 3.2.2).

    .. math::

        \\chi^2_F = \\frac{12N}{k(k+1)}\\Big[\\sum_j R_j^2 - \\frac{k(k+1)^2}{4}\\Big],
        \\qquad F_F = \\frac{(N-1)\\chi^2_F}{N(k-1) - \\chi^2_F},

    χ²_F with k−1 degrees of freedom, F_F with (k−1, (k−1)(N−1)). ``tie_correction`` in
    (0, 1] divides χ²_F (1 when there are no ties). The ranks must be possible average
    ranks: each in [1, k], summing to k(k+1)/2 (within 0.01·k, for printed, rounded ranks).

    When every dataset ranks the methods alike, χ²_F is at its maximum N(k−1) and F_F is
    infinite (no residual variance for F); its p-value is then the exact probability of
    that agreement under the null hypothesis, :math:`m^{1-N}` with m the orderings of one
    dataset's ranks (k! without ties), rather than F's degenerate 0: N datasets agreeing
    are as significant as N rankings can be (k = 2: the sign test's :math:`2^{1-N}`;
    3 methods on 4 datasets: 6⁻³ = 0.0046).

    Parameters
    ----------
    ranks : array-like of shape (k,)
        The k methods' average ranks :math:`R_j` (1 = best), e.g. :func:`average_ranks`.
    n_datasets : int
        N, the number of datasets the ranks average over, >= 2.
    tie_correction : float, default=1.0
        The divisor of χ²_F, in (0, 1].

    Returns
    -------
    FriedmanResult

    Examples
    --------
    Demšar's worked example (four classifiers, 14 data sets):

    >>> r = friedman_from_ranks([3.143, 2.000, 2.893, 1.964], 14)
    >>> round(r.chi2, 2), round(r.f_stat, 2)
    (9.28, 3.69)
    """
    R = np.asarray(ranks, dtype=float)
    if R.ndim != 1:
        raise ValueError(
            f"ranks must be one average rank per method (1-d); got shape {R.shape}. Pass "
            "average_ranks(scores), or friedman_test(scores) for a score table."
        )
    _check_count("n_datasets", n_datasets)
    k, N = len(R), int(n_datasets)
    if k < 2 or N < 2:
        raise ValueError(
            f"the Friedman test needs k >= 2 methods and N >= 2 datasets; got {k}, {N}."
        )
    if not np.all((R >= 1) & (R <= k)):  # NaN too
        raise ValueError(
            f"ranks must lie in [1, {k}] (1 = best of the k = {k} methods); got "
            f"{R.tolist()}. Pass average ranks, not scores (average_ranks(scores))."
        )
    # every row's ranks sum to k(k+1)/2, so their averages do; printed ranks are rounded
    if abs(R.sum() - k * (k + 1) / 2) > 0.01 * k:
        raise ValueError(
            f"ranks must sum to k(k+1)/2 = {k * (k + 1) / 2:g} (each dataset ranks its {k} "
            f"methods 1..{k}); they sum to {R.sum():g}. Pass the average ranks of all the "
            "methods compared."
        )
    if not 0 < tie_correction <= 1:
        raise ValueError(f"tie_correction must be in (0, 1]; got {tie_correction!r}.")
    chi2 = 12 * N / (k * (k + 1)) * (np.sum(R**2) - k * (k + 1) ** 2 / 4) / tie_correction
    p = float(_st.chi2.sf(chi2, k - 1))
    denom = N * (k - 1) - chi2
    if denom <= 1e-9 * N * (k - 1):  # every dataset ranks alike (up to rounding)
        # the exact permutation probability of N equal rankings: each dataset's ranks are
        # one of m equally likely orderings under H0 (m = k! / Π t! for tie groups t)
        _, ties = np.unique(np.round(R, 6), return_counts=True)
        log_m = math.lgamma(k + 1) - sum(math.lgamma(int(t) + 1) for t in ties)
        f_stat, f_p = math.inf, min(1.0, math.exp((1 - N) * log_m))
    else:
        f_stat = (N - 1) * chi2 / denom
        f_p = float(_st.f.sf(f_stat, k - 1, (k - 1) * (N - 1)))
    return FriedmanResult(float(chi2), p, float(f_stat), f_p, R, N)


def friedman_test(scores: ArrayLike, *, higher_is_better: bool = True) -> FriedmanResult:
    """Friedman test over a (datasets × methods) score table.

    χ²_F includes the usual correction for tied ranks, so it equals
    :func:`scipy.stats.friedmanchisquare` (which takes one sample per method). When every
    dataset ties every method there is no variation to test: χ²_F = F_F = 0 and both
    p-values are 1, where SciPy returns NaN (0/0). The statistics are those of
    :func:`friedman_from_ranks` (Demšar 2006, §3.2.2), with χ²_F divided by
    :math:`1 - \\sum (t^3 - t) / (N k (k^2 - 1))` over the groups of t tied methods.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_methods)
        One score per dataset and method (at least 2 of each); NaN is refused.
    higher_is_better : bool, default=True
        Whether the highest score ranks 1.

    Returns
    -------
    FriedmanResult
        χ²_F and its p-value, Iman–Davenport's F_F and its p-value, the average ranks.

    Examples
    --------
    >>> r = friedman_test([[0.9, 0.8, 0.7], [0.8, 0.7, 0.6], [0.9, 0.7, 0.8]])
    >>> round(r.chi2, 3), r.ranks.tolist()
    (4.667, [1.0, 2.333333333333333, 2.6666666666666665])
    """
    scores = np.asarray(scores, dtype=float)
    R = average_ranks(scores, higher_is_better=higher_is_better)
    N, k = scores.shape
    if k < 2 or N < 2:  # before the tie correction, whose denominator is 0 at k = 1
        return friedman_from_ranks(R, N)  # raises with the counts
    ranked = _st.rankdata(scores, axis=1)
    ties = 0.0
    for row in ranked:
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts**3 - counts))
    correction = 1.0 - ties / (N * k * (k * k - 1))
    return friedman_from_ranks(R, N, tie_correction=correction if correction > 0 else 1.0)


# --------------------------------------------------------------------------- Nemenyi
# q_alpha of the two-tailed Nemenyi test: studentized range statistic / sqrt(2) at
# infinite degrees of freedom. k = 2..10 as printed in Demšar (2006), Table 5(a);
# k = 11..20 computed with scipy.stats.studentized_range (which reproduces the printed
# values to within 0.001).
_Q = {
    0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164,
           3.219, 3.268, 3.313, 3.354, 3.391, 3.426, 3.458, 3.489, 3.517, 3.544],
    0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920,
           2.978, 3.030, 3.077, 3.120, 3.159, 3.196, 3.230, 3.261, 3.291, 3.319],
}  # fmt: skip


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """Critical value :math:`q_\\alpha` of the Nemenyi test for ``k`` ≥ 2 methods.

    :math:`q_\\alpha = q_{1-\\alpha}(k, \\infty)/\\sqrt{2}`, the studentized range
    quantile at infinite degrees of freedom over √2 (Demšar 2006, §3.2.2). For
    ``alpha`` 0.05 and 0.10 and k ≤ 20 it is the table above (Demšar's printed values to
    k = 10); any other ``alpha`` in (0, 1) or larger k is computed with
    :func:`scipy.stats.studentized_range` (k = 2 gives the normal quantile
    :math:`z_{1-\\alpha/2}`).

    Parameters
    ----------
    k : int
        The number of methods compared, >= 2.
    alpha : float, default=0.05
        Significance level, in (0, 1).

    Returns
    -------
    float

    Examples
    --------
    >>> nemenyi_q(4)
    2.569
    >>> round(nemenyi_q(2, 0.01), 3)  # z_0.995
    2.576
    """
    _check_count("k", k)
    _check_alpha(alpha)
    if k < 2:
        raise ValueError(f"the Nemenyi test compares k >= 2 methods; got k={k}.")
    # the table's key whatever the float type (np.float32(0.05) is 0.0500000007)
    key = next((a for a in _Q if math.isclose(alpha, a, rel_tol=1e-6)), None)
    if key is not None and k <= len(_Q[key]) + 1:
        return _Q[key][int(k) - 2]
    return float(_st.studentized_range.ppf(1.0 - float(alpha), int(k), math.inf) / math.sqrt(2))


def nemenyi_cd(k: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Critical difference of average ranks: :math:`CD = q_\\alpha\\sqrt{k(k+1)/(6N)}`
    (Demšar 2006, §3.2.2; :math:`q_\\alpha` from :func:`nemenyi_q`). Two methods whose
    average ranks differ by at least CD differ significantly.

    Parameters
    ----------
    k : int
        The number of methods compared, >= 2.
    n_datasets : int
        N, the number of datasets, >= 1.
    alpha : float, default=0.05
        Significance level, in (0, 1).

    Returns
    -------
    float

    Examples
    --------
    Demšar's example (k = 4, N = 14): CD = 1.25.

    >>> round(nemenyi_cd(4, 14), 2)
    1.25
    """
    for name, v in (("k", k), ("n_datasets", n_datasets)):
        _check_count(name, v)
    if n_datasets < 1:
        raise ValueError(f"n_datasets must be >= 1; got {n_datasets}.")
    return nemenyi_q(k, alpha) * math.sqrt(k * (k + 1) / (6.0 * n_datasets))
