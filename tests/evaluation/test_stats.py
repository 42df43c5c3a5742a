"""Statistics against scipy and against Demšar's (2006) worked numbers."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from skewlearn.evaluation import (
    average_ranks,
    friedman_from_ranks,
    friedman_test,
    nemenyi_cd,
    nemenyi_q,
    paired_ttest,
    significance_markers,
    win_tie_loss,
)
from skewlearn.evaluation.stats import sign_test_pvalue


@pytest.mark.parametrize("seed", range(5))
def test_paired_ttest_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.8, 0.05, size=20)
    b = a - rng.normal(0.01 * seed, 0.03, size=20)
    ours = paired_ttest(a, b)
    ref = stats.ttest_rel(a, b)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_paired_ttest_by_hand_and_degenerate_cases():
    # d = [.2, .05, .05, .2]: mean .125, s_d = sqrt(4 * .075^2 / 3) = .0866, t = .125/(.0866/2)
    r = paired_ttest([0.9, 0.8, 0.85, 0.9], [0.7, 0.75, 0.8, 0.7])
    assert r.statistic == pytest.approx(0.125 / (np.sqrt(4 * 0.075**2 / 3) / 2))
    assert r.significant() == 0  # p = .063 > .05
    assert paired_ttest([1, 2, 3], [1, 2, 3]).pvalue == 1.0
    shifted = paired_ttest([2, 3, 4], [1, 2, 3])  # 3 equal differences: sign test, 1/4
    assert shifted.statistic == np.inf and shifted.pvalue == 0.25
    assert shifted.significant() == 0
    with pytest.raises(ValueError, match="equal length"):
        paired_ttest([1, 2], [1, 2, 3])


def _runs():
    rng = np.random.default_rng(0)
    base = rng.normal(0.8, 0.02, size=20)
    noise = rng.normal(0, 0.002, size=(6, 20))
    return {
        "R1": {"d1": base + 0.05 + noise[0], "d2": base + noise[1]},
        "R2": {"d1": base + 0.05 + noise[2], "d2": base - 0.05 + noise[3]},
        "M": {"d1": base + noise[4], "d2": base + noise[5]},
    }


def test_markers_follow_koil_table1_caption():
    runs = _runs()
    # d1: both references better -> ●; d2: R1 ties, R2 worse than M -> △ (some worse)
    marks = significance_markers(runs, ["R1", "R2"])
    expected = {}
    for d in ("d1", "d2"):
        v = [stats.ttest_rel(runs[r][d], runs["M"][d]) for r in ("R1", "R2")]
        better = [t.pvalue < 0.05 and t.statistic > 0 for t in v]
        worse = [t.pvalue < 0.05 and t.statistic < 0 for t in v]
        if any(better):
            expected["M", d] = "●" if all(better) else "○"
        elif any(worse):
            expected["M", d] = "▲" if all(worse) else "△"
        else:
            expected["M", d] = ""
    assert marks == expected == {("M", "d1"): "●", ("M", "d2"): "△"}
    one = significance_markers(runs, ["R1"])  # R2 is then a compared method too
    assert (one["M", "d1"], one["M", "d2"]) == ("●", "")
    assert significance_markers(runs, ["R2"])[("M", "d2")] == "▲"


def test_some_references_better_is_the_open_circle_and_outranks_worse():
    """○ (some, not all, references significantly better): R1 better and R2 tied on "tie";
    R1 better and R2 significantly worse on "mixed", where "better" wins, as a win in
    win/tie/loss. No test told ○ from ● before (the markers' test has both references
    better or neither)."""
    rng = np.random.default_rng(7)
    base = rng.normal(0.8, 0.02, size=20)
    noise = rng.normal(0, 0.002, size=(6, 20))
    runs = {
        "R1": {"tie": base + 0.05 + noise[0], "mixed": base + 0.05 + noise[1]},
        "R2": {"tie": base + noise[2], "mixed": base - 0.05 + noise[3]},
        "M": {"tie": base + noise[4], "mixed": base + noise[5]},
    }
    for d, (r1, r2) in {"tie": (1, 0), "mixed": (1, -1)}.items():  # the setup, by scipy
        for ref, want in (("R1", r1), ("R2", r2)):
            t = stats.ttest_rel(runs[ref][d], runs["M"][d])
            assert (t.pvalue < 0.05) * np.sign(t.statistic) == want, (d, ref)
    assert significance_markers(runs, ["R1", "R2"]) == {("M", "tie"): "○", ("M", "mixed"): "○"}
    assert win_tie_loss(runs, ["R1", "R2"]) == {"M": (2, 0, 0)}


def test_win_tie_loss_counts_datasets():
    runs = _runs()
    assert win_tie_loss(runs, ["R1", "R2"]) == {"M": (1, 0, 1)}
    assert win_tie_loss(runs, ["R1"])["M"] == (1, 1, 0)
    with pytest.raises(ValueError, match=r"reference method\(s\) \['KOIL'\]"):
        win_tie_loss(runs, ["KOIL"])
    assert win_tie_loss(runs, "R1") == win_tie_loss(runs, ["R1"])  # one name, not letters


def test_a_failed_run_or_a_missing_reference_is_not_a_tie():
    ok = {"ref": {"d": [0.9, 0.91, 0.92, 0.9]}, "m": {"d": [0.1, 0.12, 0.11, 0.1]}}
    # a dataset only the method has: not compared, neither marked nor counted
    runs = {"ref": ok["ref"], "m": {**ok["m"], "e": [0.5, 0.6, 0.7]}}
    assert significance_markers(runs, ["ref"]) == {("m", "d"): "●"}
    assert win_tie_loss(runs, ["ref"]) == {"m": (1, 0, 0)}
    # a NaN run (a failed task) would make the t-test's p NaN, i.e. "not significant"
    for bad in ({"ref": {"d": [0.9, 0.91, np.nan, 0.9]}, "m": ok["m"]},
                {"ref": ok["ref"], "m": {"d": [0.1, np.inf, 0.11, 0.1]}}):  # fmt: skip
        with pytest.raises(ValueError, match=r"on d: the runs hold NaN or inf"):
            significance_markers(bad, ["ref"])
        with pytest.raises(ValueError, match=r"on d: the runs hold NaN or inf"):
            win_tie_loss(bad, ["ref"])


@pytest.mark.parametrize("ties", [False, True])
def test_friedman_matches_scipy(ties):
    rng = np.random.default_rng(3)
    scores = rng.random((12, 5))
    if ties:
        scores = np.round(scores, 1)  # many tied ranks
    ours = friedman_test(scores)
    ref = stats.friedmanchisquare(*scores.T)
    assert ours.chi2 == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_friedman_results_compare_by_value():
    """The generated ``==`` of the frozen dataclass compared the ranks array inside a tuple
    and raised "truth value ... is ambiguous" (session 16, seen by helper O)."""
    scores = np.random.default_rng(4).random((8, 4))
    a, b = friedman_test(scores), friedman_test(scores.copy())
    assert a == b and not (a != b)
    assert a != friedman_test(scores[:, ::-1])  # other ranks
    assert a != "a result"
    with pytest.raises(TypeError, match="unhashable"):
        hash(a)


@pytest.mark.parametrize("shape", [(5, 1), (1, 4), (1, 1)])
def test_friedman_of_one_method_or_one_dataset_says_so(shape):
    """Session 11: one method (a single column) divided by zero in the tie correction."""
    with pytest.raises(ValueError, match=r"needs k >= 2 methods and N >= 2 datasets; got "
                                         rf"{shape[1]}, {shape[0]}"):  # fmt: skip
        friedman_test(np.arange(float(shape[0] * shape[1])).reshape(shape))


def test_friedman_demsar_worked_example():
    # Demšar (2006), section 3.2.4: average ranks 3.143, 2.000, 2.893, 1.964 on N = 14
    # give chi2_F = 9.28 and F_F = 3.69; F(3, 39) critical value at .05 is 2.85.
    r = friedman_from_ranks([3.143, 2.000, 2.893, 1.964], 14)
    assert r.chi2 == pytest.approx(9.28, abs=0.01)
    assert r.f_stat == pytest.approx(3.69, abs=0.01)
    assert r.f_pvalue < 0.05 and stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=0.01)
    # the p-value is F's with Demšar's (k - 1, (k - 1)(N - 1)) = (3, 39) degrees of freedom
    # (session 27: a denominator of (k - 1)N = 42 was not caught by the line above)
    assert r.f_pvalue == pytest.approx(stats.f.sf(r.f_stat, 3, 39), rel=1e-12)
    # Nemenyi: q_.05 = 2.569, CD = 2.569 * sqrt(4*5 / (6*14)) = 1.25 (Demšar's value)
    assert nemenyi_cd(4, 14) == pytest.approx(1.25, abs=0.005)
    assert nemenyi_cd(4, 14, alpha=0.10) == pytest.approx(2.291 * np.sqrt(20 / 84))


def test_significant_means_a_p_value_below_alpha_not_equal_to_it():
    """TTestResult.significant: "significant when pvalue < alpha". Five runs shifted alike
    get the sign test's p = 2 * 2**-5 = 0.0625 exactly."""
    r = paired_ttest([0.9, 0.8, 0.7, 0.6, 0.5], [0.8, 0.7, 0.6, 0.5, 0.4])
    assert r.pvalue == 0.0625
    assert r.significant(0.0625) == 0 and r.significant(0.0626) == 1


def test_average_ranks_rank_1_is_best_and_ties_share():
    scores = np.array([[0.9, 0.8, 0.8], [0.7, 0.9, 0.6]])
    # row 1: ranks 1, 2.5, 2.5; row 2: 2, 1, 3
    np.testing.assert_allclose(average_ranks(scores), [1.5, 1.75, 2.75])
    np.testing.assert_allclose(average_ranks(scores, higher_is_better=False), [2.5, 2.25, 1.25])


def test_nemenyi_table_is_the_studentized_range():
    for alpha in (0.05, 0.10):
        for k in range(2, 21):
            q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
            assert nemenyi_q(k, alpha) == pytest.approx(q, abs=0.0015)
    # beyond the table: any k and alpha (session 13; "the table covers 2 to 20 methods")
    assert nemenyi_q(21) == pytest.approx(
        stats.studentized_range.ppf(0.95, 21, np.inf) / np.sqrt(2), rel=1e-9
    )
    with pytest.raises(ValueError, match="k >= 2 methods; got k=1"):
        nemenyi_q(1)
    with pytest.raises(ValueError, match="n_datasets must be >= 1; got 0"):
        nemenyi_cd(4, 0)


def test_run_keyed_mappings_pair_on_shared_runs():
    """Mappings run id -> value pair each method with each reference on the ids both have;
    the same values as position-paired lists give the same verdicts."""
    ref = {1: 0.9, 2: 0.91, 3: 0.92, 4: 0.9}
    m = {2: 0.72, 3: 0.71, 4: 0.7, 5: 0.1}  # run 1 missing, run 5 the reference lacks
    keyed = significance_markers({"ref": {"d": ref}, "m": {"d": m}}, ["ref"])
    listed = significance_markers(
        {"ref": {"d": [0.91, 0.92, 0.9]}, "m": {"d": [0.72, 0.71, 0.7]}}, ["ref"]
    )
    assert keyed == listed == {("m", "d"): "●"}
    one_shared = {"ref": {"d": ref}, "m": {"d": {4: 0.7, 9: 0.1}}}
    assert significance_markers(one_shared, ["ref"]) == {}
    assert win_tie_loss(one_shared, ["ref"]) == {}
    with pytest.raises(TypeError, match="got a mix"):
        win_tie_loss({"ref": {"d": ref}, "m": {"d": [0.7, 0.7, 0.7]}}, ["ref"])


def test_inputs_the_tests_cannot_use_are_named():
    """A NaN cell made every average rank and p-value NaN without a word; unequal run
    counts and a float k gave internal errors that named nothing."""
    from skewlearn.evaluation.stats import (
        average_ranks,
        friedman_test,
        nemenyi_cd,
        significance_markers,
    )

    scores = np.array([[0.9, 0.8, 0.7], [0.85, np.nan, 0.6], [0.88, 0.81, 0.75]])
    for f in (friedman_test, average_ranks):
        with pytest.raises(ValueError, match=r"NaN \(1 cells; first at dataset row 1, method"):
            f(scores)
    with pytest.raises(ValueError, match=r"m on d has 2 runs and r has 3; .*mappings keyed"):
        significance_markers({"r": {"d": [1, 2, 3]}, "m": {"d": [1, 2]}}, ["r"])
    with pytest.raises(ValueError, match=r"k must be an integer; got 3.0"):
        nemenyi_cd(3.0, 5)
    assert nemenyi_cd(np.int64(4), 14) == nemenyi_cd(4, 14)


@pytest.mark.parametrize(
    ("ranks", "n", "match"),
    [
        ([1, 1, 1], 5, r"ranks must sum to k\(k\+1\)/2 = 6 .*; they sum to 3"),
        ([5, 6, 7], 5, r"ranks must lie in \[1, 3\]"),
        ([1, np.nan, 3], 5, r"ranks must lie in \[1, 3\]"),
        ([[1, 2], [2, 1]], 5, r"ranks must be one average rank per method \(1-d\)"),
        ([1, 2, 3], 5.7, r"n_datasets must be an integer; got 5.7"),
        ([1, 2, 3], True, r"n_datasets must be an integer; got True"),
    ],
)
def test_friedman_from_ranks_refuses_ranks_no_table_can_have(ranks, n, match):
    """Session 13: ranks that no (datasets × methods) table gives ([1, 1, 1]: chi2 = -45,
    p = 1) were used as they came, and n_datasets=5.7 was cut to 5 silently."""
    with pytest.raises((ValueError, TypeError), match=match):
        friedman_from_ranks(ranks, n)
    # printed ranks are rounded: Demšar's to 2 decimals sum to 9.99, not 10, and still pass
    assert friedman_from_ranks([3.14, 2.0, 2.89, 1.96], 14).pvalue < 0.05


@pytest.mark.parametrize("shape", [(0, 3), (3, 0)])
def test_average_ranks_of_an_empty_table_says_so(shape):
    """Session 13: no datasets gave NaN ranks with numpy's 'Mean of empty slice' warning."""
    with pytest.raises(ValueError, match=r"scores is empty \(shape "):
        average_ranks(np.empty(shape))


def test_nemenyi_q_checks_k_and_takes_alpha_of_any_float_type():
    """Session 13: nemenyi_q(2.5) raised "list indices must be integers", and
    alpha=np.float32(0.05) was refused as not 0.05."""
    with pytest.raises(ValueError, match=r"k must be an integer; got 2.5"):
        nemenyi_q(2.5)
    with pytest.raises(ValueError, match=r"k must be an integer; got True"):
        nemenyi_q(True)
    assert nemenyi_q(4, np.float32(0.05)) == nemenyi_q(4, 0.05) == 2.569
    assert nemenyi_cd(4, 14, alpha=np.float32(0.1)) == nemenyi_cd(4, 14, alpha=0.1)
    with pytest.raises(ValueError, match=r"alpha must be in \(0, 1\)"):
        nemenyi_q(4, 1.5)


@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.05, 0.1, 0.2, 0.5])
def test_nemenyi_q_of_any_alpha_is_the_normal_quantile_for_two_methods(alpha):
    """With two methods the range of two standard normals over sqrt(2) is |N(0, 1)|, so
    q_alpha = z_{1 - alpha/2} (an independent check of the studentized-range values used
    beyond Demšar's table), and q grows with k and shrinks with alpha."""
    assert nemenyi_q(2, alpha) == pytest.approx(stats.norm.ppf(1 - alpha / 2), abs=1e-3)
    qs = [nemenyi_q(k, alpha) for k in (2, 5, 20, 21, 40)]
    assert all(a < b for a, b in itertools.pairwise(qs))
    assert nemenyi_q(7, alpha) > nemenyi_q(7, min(0.9, 2 * alpha))


@pytest.mark.parametrize("alpha", [0, 1, 1.5, -0.05, np.nan])
def test_a_significance_level_outside_0_1_is_refused(alpha):
    """Session 13: alpha=1.5 marked every difference significant (p < 1.5 always)."""
    runs = {"ref": {"a": [1, 2, 3]}, "m": {"a": [1.1, 2, 2.9]}}
    for f in (significance_markers, win_tie_loss):
        with pytest.raises(ValueError, match=r"alpha must be in \(0, 1\)"):
            f(runs, ["ref"], alpha=alpha)
    with pytest.raises(ValueError, match=r"alpha must be in \(0, 1\)"):
        paired_ttest([1, 2, 3], [0, 1, 2.5]).significant(alpha)


def test_markers_take_run_ids_of_mixed_types_and_check_their_arguments():
    """Session 13: run ids of two types (`(0, 1)` and `"extra"`) raised "'<' not supported
    between instances of 'str' and 'tuple'" while pairing; two symbols instead of four
    raised "not enough values to unpack"; an empty reference list gave {} silently."""
    ref = {(0, 0): 0.9, (0, 1): 0.91, "extra": 0.92}
    m = {(0, 0): 0.7, (0, 1): 0.72, "extra": 0.71}
    listed = significance_markers(
        {"r": {"d": [0.9, 0.91, 0.92]}, "m": {"d": [0.7, 0.72, 0.71]}}, ["r"]
    )
    assert significance_markers({"r": {"d": ref}, "m": {"d": m}}, ["r"]) == listed
    runs = {"r": {"d": [1, 2, 3]}, "m": {"d": [0, 1, 2.1]}}
    with pytest.raises(ValueError, match=r"symbols must be 4 markers .*; got 2"):
        significance_markers(runs, ["r"], symbols=("*", "+"))
    for f in (significance_markers, win_tie_loss):
        with pytest.raises(ValueError, match=r"references must name at least one method"):
            f(runs, [])


def test_friedman_of_a_table_without_variation_and_the_direction_switch():
    """Session 13: every dataset tying every method gives chi2 = 0 and p = 1 (SciPy: NaN,
    0/0), now documented; `higher_is_better="False"` was true, ranking the worst method
    first, silently."""
    flat = np.ones((5, 3))
    r = friedman_test(flat)
    assert (r.chi2, r.pvalue, r.f_stat, r.f_pvalue) == (0.0, 1.0, 0.0, 1.0)
    assert "SciPy returns NaN" in friedman_test.__doc__
    for f in (average_ranks, friedman_test):
        with pytest.raises(TypeError, match=r"higher_is_better must be True or False; got 'False'"):
            f([[0.9, 0.8], [0.7, 0.6]], higher_is_better="False")
    np.testing.assert_allclose(average_ranks([[0.9, 0.8]], higher_is_better=np.False_), [2, 1])


def test_runs_that_are_one_number_copied_are_not_called_significant():
    """Session 14: a prequential experiment with shuffle = false and n_repeats = 3 gives a
    deterministic learner the same stream three times, so its three runs are one number
    copied; the report marked AROW against PassiveAggressive ● / ▲ (p = 0) from that one
    comparison. A pair whose runs are each constant is now not compared (no marker, no
    win/tie/loss). Session 19: distinct runs with a constant difference are tested by the
    sign test (p = 2 · 2**-n), not scipy's degenerate t (p = 0)."""
    from scipy import stats as st

    copies = {"ref": {"d": [0.9, 0.9, 0.9]}, "m": {"d": [0.8, 0.8, 0.8]}}
    assert significance_markers(copies, ["ref"]) == {}
    assert win_tie_loss(copies, ["ref"]) == {}
    same = {"ref": {"d": [0.0, 0.0, 0.0]}, "m": {"d": [0.0, 0.0, 0.0]}}  # still a tie
    assert significance_markers(same, ["ref"]) == {("m", "d"): ""}
    assert win_tie_loss(same, ["ref"]) == {"m": (0, 1, 0)}
    runs = {"ref": {"d": [0.9, 0.91, 0.92]}, "m": {"d": [0.8, 0.81, 0.82]}}
    # scipy's t is ~1e15 from the last bit of 0.92 - 0.82; three signs are p = 0.25
    assert st.ttest_rel(runs["ref"]["d"], runs["m"]["d"]).pvalue < 0.05
    assert st.wilcoxon(np.subtract(runs["ref"]["d"], runs["m"]["d"])).pvalue == 0.25
    assert significance_markers(runs, ["ref"]) == {("m", "d"): ""}
    m6 = [0.8, 0.81, 0.82, 0.83, 0.84, 0.85]  # six signs: p = 1/32 < 0.05
    runs6 = {"ref": {"d": [v + 0.1 for v in m6]}, "m": {"d": m6}}
    assert significance_markers(runs6, ["ref"]) == {("m", "d"): "●"}
    # one side constant, the other not: a real spread, tested as before
    mixed = {"ref": {"d": [0.9, 0.9, 0.9]}, "m": {"d": [0.5, 0.6, 0.55]}}
    assert st.ttest_rel(mixed["ref"]["d"], mixed["m"]["d"]).pvalue < 0.05
    assert significance_markers(mixed, ["ref"]) == {("m", "d"): "●"}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 8, 12, 30])
@pytest.mark.parametrize("shift", [0.05, -0.1, 3.0])
def test_a_constant_shift_gets_the_exact_sign_test_not_p_0(n, shift):
    """Session 19: n runs that all differ by the same amount have no spread for t; scipy's
    ttest_rel calls that p = 0 (certain, even from 2 runs). The p-value is the exact
    two-sided sign test's, scipy's binomtest(n, n) and wilcoxon of n equal differences."""
    from scipy import stats as st

    b = np.random.default_rng(n).uniform(0.2, 0.9, n)
    a = b + shift
    r = paired_ttest(a, b)
    assert r.pvalue == pytest.approx(st.binomtest(n, n).pvalue, rel=1e-12)
    assert r.pvalue == pytest.approx(st.wilcoxon(a - b, method="exact").pvalue, rel=1e-12)
    assert r.statistic == math.copysign(np.inf, shift) and r.mean_diff == pytest.approx(shift)
    assert r.significant() == (np.sign(shift) if n >= 6 else 0)
    assert sign_test_pvalue(n) == st.binomtest(n, n).pvalue


@pytest.mark.parametrize(
    ("row", "n"), [([0.9, 0.1], 3), ([0.9, 0.1], 6), ([0.9, 0.1, 0.5], 4), ([3, 1, 1, 2], 5)]
)
def test_datasets_that_all_rank_alike_get_the_exact_p_not_0(row, n):
    """Session 19: when every dataset ranks the methods alike, Iman–Davenport's F_F is
    infinite and its p-value was 0 (certain), from 3 datasets and 2 methods too. It is now
    the exact probability of that agreement under H0, counted by brute force over every
    way the datasets could have ranked the methods (permutations of a row, ties kept)."""
    scores = np.array([row] * n, dtype=float)
    r = friedman_test(scores)
    assert r.f_stat == np.inf
    # brute force: all distinct orderings of one row; the statistic is at its maximum
    # only when all n rows are the same ordering (the observed one or any other)
    orders = {tuple(p) for p in itertools.permutations(row)}
    assert r.f_pvalue == pytest.approx(len(orders) ** (1 - n), rel=1e-12)
    chi2s = (
        [
            friedman_test(np.array([row, *rows], dtype=float)).chi2
            for rows in itertools.product(sorted(orders), repeat=n - 1)
        ]
        if len(orders) ** (n - 1) <= 5000
        else None
    )
    if chi2s is not None:
        exact = np.mean(np.asarray(chi2s) >= r.chi2 - 1e-9)
        assert r.f_pvalue == pytest.approx(exact, rel=1e-12)
    if len(row) == 2:  # the sign test
        assert r.f_pvalue == pytest.approx(stats.binomtest(n, n).pvalue, rel=1e-12)


@pytest.mark.parametrize(("k", "n"), [(10, 25), (11, 3), (7, 41)])
def test_datasets_that_all_rank_alike_where_the_sum_is_rounded(k, n):
    """χ²_F of n identical rankings is n(k - 1) in exact arithmetic, but in floats
    N(k - 1) - χ²_F is ±3e-14 for these (k, N): the check that F_F has no residual
    variance needs its tolerance, or F_F is ~1e16 with F's p ≈ 0 instead of ∞ with the
    exact p = (k!)^(1 - N). (No test failed with the tolerance removed.)"""
    row = np.linspace(0.9, 0.1, k)
    r = friedman_test(np.tile(row, (n, 1)))
    assert r.chi2 == pytest.approx(n * (k - 1), rel=1e-12)
    assert r.f_stat == np.inf
    assert r.f_pvalue == pytest.approx(math.exp((1 - n) * math.lgamma(k + 1)), rel=1e-9)
