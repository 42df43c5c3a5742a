"""ASLS reproductions: the shipped Table III–VI experiments, the paper-shaped tables and the
figures (skewlearn.experiments.asls_results). References are the paper's own numbers
(paper_results/asls_*.csv), the datasets' class counts and the known ideal boundary."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from skewlearn import datasets
from skewlearn.batch.asls import LinearASLS
from skewlearn.experiments import load_experiment
from skewlearn.experiments.asls_results import (
    M_ROWS,
    R_COLUMNS,
    _paper3,
    choices_markdown,
    comparison_markdown,
    figures,
    search_choices,
    synthetic_1_to_10,
    table3_cells,
    table3_markdown,
    table3_pattern,
    table4_markdown,
)
from skewlearn.experiments.config import PAPER_RESULTS
from skewlearn.experiments.runner import expand_tasks
from skewlearn.experiments.store import ResultStore


def _paper_rows(name):
    with open(PAPER_RESULTS / name, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


# --------------------------------------------------------------------------- shipped files
def test_table3_cells_are_the_papers_grid_with_r_in_multiples_of_cr():
    exp = load_experiment("asls_table3")
    cr = 634 / 212  # vehicle3: 634 negatives, 212 positives (the paper's CR = 2.99)
    factor = {"1": None, "0.5CR": 0.5, "CR": 1.0, "1.5CR": 1.5, "2CR": 2.0, "2.5CR": 2.5,
              "3CR": 3.0}  # fmt: skip
    cells = set()
    for e in exp.estimators:
        method, r, m = e.name.split()
        r, m = r.removeprefix("r="), m.removeprefix("m=")
        cells.add((method, m, r))
        want = 1.0 if factor[r] is None else factor[r] * cr
        assert e.params["r_pos"] == pytest.approx(want, abs=1e-4)
        assert e.params["m_pos"] == pytest.approx(float(m))
        if method == "KASLS":
            assert e.params["theta"] == 0.0  # "we don't perform off-training filtering"
    paper = {(meth, r["m_plus"], r["r_plus"]) for r in _paper_rows("asls_table3_vehicle_gmean.csv")
             for meth in ("LASLS", "KASLS")}  # fmt: skip
    assert cells == paper


def test_table6_reduced_rates_are_the_papers_by_dataset():
    exp = load_experiment("asls_table6")
    paper = {r["dataset"]: float(r["eta"]) for r in _paper_rows("asls_table6_kernel.csv")}
    names = {"vehicle3": "vehicle", "yeast4": "yeast"}
    seen = {}
    for t in expand_tasks(exp):
        if t.estimator.name == "KASLS_R":
            seen[t.dataset.name] = t.estimator.params["reduced_rate"]
    assert seen == {d: paper[names.get(d, d)] for d in seen}
    assert set(seen) == {"phoneme", "vehicle3", "kc1", "satimage", "yeast4"}


def test_table6_runs_the_papers_three_10_fold_cvs():
    exp = load_experiment("asls_table6")
    assert (exp.protocol.n_splits, exp.protocol.n_repeats) == (10, 3)
    assert "one run" not in exp.description.lower()
    folds = {(t.dataset.name, t.estimator.name, t.repetition, t.fold) for t in expand_tasks(exp)}
    assert {(d, "KASLS_R", r, f) for d in ("yeast4", "kc1") for r in range(3)
            for f in range(10)} <= folds  # fmt: skip


def test_table6_yeast4_grid_is_the_widened_one_of_the_decision():
    """docs/decisions.md (ASLS, session 3): ν down to 2⁻⁸, r+ up to 4 CR, σ up to 8·√d, with
    CR and d taken from the dataset itself."""
    X, y, _ = datasets.load("yeast4", scale=True)
    _, counts = np.unique(y, return_counts=True)
    cr, d = counts.max() / counts.min(), X.shape[1]
    assert counts.min() == 51
    est = load_experiment("asls_table6").estimators[0].for_dataset("yeast4")
    assert est.name == "KASLS_R" and est.params["reduced_rate"] == 0.7
    assert est.grid["nu"] == [2.0**-8, 2.0**-6, 2.0**-4, 1.0, 16.0, 256.0]
    np.testing.assert_allclose(est.grid["r_pos"], cr * np.arange(1, 5), rtol=1e-5)
    np.testing.assert_allclose(est.grid["sigma"], np.sqrt(d) * 2.0 ** np.arange(-2, 4), rtol=1e-4)


@pytest.mark.parametrize("name", ["phoneme", "vehicle3", "kc1", "satimage"])
def test_table6_grids_are_one_grid_computed_from_each_dataset(name):
    """docs/decisions.md (ASLS, session 5): outside yeast4's widened KASLS_R grid, every dataset
    searches σ = c·√d, c ∈ {¼, ½, 1, 2}; KASLS_R also ν ∈ {1/16, 1, 16, 256} × r+ ∈ {CR, 2CR};
    SVM-DEC / SVM-SDC C− ∈ {1, 8, 64}; PSVM-DEC C− ∈ {¼, 4, 64} — CR and d from the data."""
    X, y, _ = datasets.load(name, scale=True)
    _, counts = np.unique(y, return_counts=True)
    cr, d = counts.max() / counts.min(), X.shape[1]
    sigmas = np.sqrt(d) * 2.0 ** np.arange(-2, 2)
    exp = load_experiment("asls_table6")
    specs = {e.name: e.for_dataset(name) for e in exp.estimators}
    assert set(specs) == {"KASLS_R", "PSVM-DEC", "SVM-DEC", "SVM-SDC"}
    # no method is skipped (session 6 ran PSVM-DEC on satimage, the last cut) and the only
    # named cut left is the dataset that is not offline
    assert all(spec is not None for spec in specs.values())
    assert [c for c in exp.cuts if "Mammography" not in c] == []
    for est in specs.values():
        np.testing.assert_allclose(est.grid["sigma"], sigmas, rtol=1e-4)
        if est.name == "KASLS_R":
            assert est.grid["nu"] == [1 / 16, 1.0, 16.0, 256.0]
            np.testing.assert_allclose(est.grid["r_pos"], [cr, 2 * cr], rtol=1e-4)
        else:
            expect = [0.25, 4.0, 64.0] if est.name == "PSVM-DEC" else [1.0, 8.0, 64.0]
            assert est.grid["C_neg"] == expect


def test_derived_paper_tables_copy_the_shipped_numbers():
    """configs/asls_table3_paper.csv and asls_table4_paper.csv (engine layout) hold the same
    numbers as the paper_results copies."""
    exp3, exp4 = load_experiment("asls_table3"), load_experiment("asls_table4")
    with open(exp3.paper.path, encoding="utf-8", newline="") as fh:
        wide = next(csv.DictReader(line for line in fh if not line.startswith("#")))
    for (method, m, r), v in _paper3().items():
        assert float(wide[f"{method} r={r} m={m}"]) == pytest.approx(100 * v)
    with open(exp4.paper.path, encoding="utf-8", newline="") as fh:
        wide4 = next(csv.DictReader(line for line in fh if not line.startswith("#")))
    for row in _paper_rows("asls_table4_vowel_reduced.csv"):
        assert wide4[f"KASLS_R eta={float(row['eta']):g}"] == row["gmean"]


# --------------------------------------------------------------------------- Table III
def test_pattern_holds_on_the_papers_own_table3():
    p = table3_pattern(_paper3())
    assert p["kasls_above_lasls"] and p["kasls_above_share"] == 1.0
    assert p["r_helps_more_than_m"]
    # by hand from the paper: LASLS row m+=1 goes 67.26 -> 77.73 (best), +10.47 points
    assert p["gain_r_LASLS"] > 0.10 and p["gain_m_KASLS"] < p["gain_r_KASLS"]


def test_pattern_fails_when_margins_help_more_than_ramps():
    cells = {}
    for i, m in enumerate(M_ROWS):
        for j, r in enumerate(R_COLUMNS):
            cells["LASLS", m, r] = 0.6 + 0.05 * i + 0.001 * j  # m+ helps, r+ hardly
            cells["KASLS", m, r] = cells["LASLS", m, r] - 0.01  # and KASLS below
    p = table3_pattern(cells)
    assert not p["r_helps_more_than_m"] and not p["kasls_above_lasls"]
    assert p["kasls_above_share"] == 0.0


def _row(dataset, method, fold, metrics, fit_time=0.1, rep=0):
    return {"task_key": f"{dataset}-{method}-{rep}-{fold}", "experiment": "x",
            "dataset": dataset, "method": method, "repetition": rep, "fold": fold, "seed": 0,
            "params": {}, "metrics": metrics, "extra": {}, "fit_time": fit_time,
            "score_time": 0.0, "wall_time": fit_time}  # fmt: skip


def test_table3_markdown_puts_ours_beside_the_paper(tmp_path):
    db = tmp_path / "t3.sqlite"
    with ResultStore(db) as store:
        for fold, g in enumerate([0.70, 0.80]):
            store.write(_row("vehicle3", "LASLS r=CR m=1.4", fold, {"gmean": g}))
    assert table3_cells(db) == {("LASLS", "1.4", "CR"): pytest.approx(0.75)}
    md = table3_markdown(db)
    assert "| 1.4 | LASLS | – / 58.32 | – / 70.45 | 75.00 / 77.42 |" in md


# --------------------------------------------------------------------------- IV, V, VI
def test_table4_markdown_gmean_time_and_ratio(tmp_path):
    """The times are means over the folds, the ratio of two means (session 26: with equal
    times in every fold, the maximum in place of either mean passed)."""
    db = tmp_path / "t4.sqlite"
    with ResultStore(db) as store:
        for fold in range(2):
            store.write(_row("vowel0", "KASLS", fold, {"gmean": 1.0}, fit_time=0.4))
            store.write(_row("vowel0", "KASLS_R eta=1", fold, {"gmean": 0.9},
                             fit_time=0.2 + 0.1 * fold))  # fmt: skip
            store.write(_row("vowel0", "KASLS_R eta=0.1", fold, {"gmean": 0.8 + 0.1 * fold},
                             fit_time=0.05 + 0.01 * fold))  # fmt: skip
    lines = table4_markdown(db).splitlines()
    assert lines[2] == ("| KASLS | 100.00 (0.00) | 98.28 (2.76) | 0.4000 | 0.1424 | 1.60 "
                        "| 1.07 |")  # fmt: skip
    assert lines[3] == ("| KASLS_R eta=0.1 | 85.00 (7.07) | 96.02 (1.31) | 0.0550 | 0.0246 "
                        "| 0.22 | 0.18 |")  # fmt: skip


def test_comparison_marks_significant_differences_and_skipped_methods(tmp_path):
    db = tmp_path / "t6.sqlite"
    rng = np.random.default_rng(0)
    with ResultStore(db) as store:
        for fold in range(10):
            base = 0.8 + 0.01 * rng.standard_normal()
            store.write(_row("kc1", "KASLS_R", fold, {"gmean": base, "f1": 0.5, "roc_auc": 0.8}))
            store.write(_row("kc1", "SVM-DEC", fold,  # 5 points lower every fold: significant
                             {"gmean": base - 0.05, "f1": 0.5, "roc_auc": 0.8}))  # fmt: skip
            store.write(
                _row("phoneme", "KASLS_R", fold, {"gmean": 0.88, "f1": 0.8, "roc_auc": 0.9})
            )
    md = comparison_markdown(db, "asls_table6_kernel.csv", "KASLS_R")
    svm = next(line for line in md.splitlines() if line.startswith("| kc1 | SVM-DEC"))
    cells = [c.strip() for c in svm.strip("|").split("|")]
    assert cells[2].endswith("*") and cells[3] == "71.43 (3.98)"
    assert cells[4] == "50.00 (0.00)"  # equal F-measure in every fold: no marker
    ours = next(line for line in md.splitlines() if line.startswith("| phoneme | KASLS_R"))
    assert "88.00 (0.00) | 88.68 (1.55)" in ours
    skipped = next(line for line in md.splitlines() if line.startswith("| phoneme | SVM-DEC"))
    assert "not run" in skipped


# --------------------------------------------------------------------------- figures
def _height_at(est, x):
    """The y where the linear boundary crosses x (w1 x + w2 y + b = 0)."""
    w1, w2 = est.coef_[0]
    return -(w1 * x + est.intercept_[0]) / w2


def test_asymmetric_loss_recovers_the_boundary_on_the_1_to_10_set():
    """Fig. 3(c)'s claim against its known ideal boundary y = 1: SLS is pushed into the
    positives; ASLS (10, 2) lands within 0.1 of the ideal everywhere on the square."""
    X, y = synthetic_1_to_10(seed=0)
    assert np.sum(y < 0) == 10 * np.sum(y > 0)
    sls = LinearASLS(r_pos=1.0, nu=100.0).fit(X, y)
    asls = LinearASLS(r_pos=10.0, m_pos=2.0, nu=100.0).fit(X, y)
    for x in (0.0, 1.0, 2.0):
        assert _height_at(sls, x) > 1.15
        assert abs(_height_at(asls, x) - 1.0) < 0.1


def test_figures_command_writes_small_pngs(tmp_path):
    paths = figures(tmp_path)
    assert [p.name for p in paths] == ["asls_fig3a_losses.png", "asls_fig3c_boundaries.png"]
    for p in paths:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert 5_000 < p.stat().st_size < 200_000


def test_comparison_says_when_a_method_has_fewer_folds(tmp_path):
    db = tmp_path / "t5.sqlite"
    with ResultStore(db) as store:
        for fold in range(4):
            store.write(_row("pima", "LASLS", fold, {"gmean": 0.75, "f1": 0.6, "roc_auc": 0.8}))
        store.write(_row("pima", "SVM-DEC", 0, {"gmean": 0.7, "f1": 0.6, "roc_auc": 0.8}))
    md = comparison_markdown(db, "asls_table5_linear.csv", "LASLS")
    svm = next(line for line in md.splitlines() if line.startswith("| pima | SVM-DEC"))
    assert "| 70.00 [1 of 4 folds] |" in svm  # one fold: no spread (session 19), not (0.00)
    lasls = next(line for line in md.splitlines() if line.startswith("| pima | LASLS"))
    assert "folds]" not in lasls and "75.10 (5.13)" in lasls


def test_choices_count_the_chosen_values_and_the_edge_hits(tmp_path):
    db = tmp_path / "t6.sqlite"
    cands = [{"nu": nu, "sigma": 2.0} for nu in (0.25, 1.0, 4.0)]
    with ResultStore(db) as store:
        for fold, nu in enumerate([0.25, 0.25, 1.0, 4.0]):
            row = _row("kc1", "KASLS_R", fold, {"gmean": 0.7})
            row["params"] = {"nu": nu, "sigma": 2.0}
            row["extra"] = {"search": {"params": cands, "scores": [0.5] * 3}}
            store.write(row)
        store.write(_row("kc1", "SVM-DEC", 0, {"gmean": 0.7}))  # no search: not listed
    got = search_choices(db)
    assert list(got) == [("kc1", "KASLS_R")]
    assert got["kc1", "KASLS_R"] == {  # sigma had one value: not a searched parameter
        "nu": {"grid": [0.25, 1.0, 4.0], "chosen": {0.25: 2, 1.0: 1, 4.0: 1}, "folds": 4}
    }
    assert choices_markdown(db).splitlines()[2] == (
        "| kc1 | KASLS_R | nu | 0.25, 1, 4 | 0.25: 2, 1: 1, 4: 1 | 2/4 | 1/4 |"
    )


def test_choices_of_a_database_without_searches_says_so(tmp_path, capsys):
    """Session 26 (probe x's left-alone): ``choices`` of a database whose grids all have one
    value (asls_table4, nystrom_table2) printed the table's header alone, as if it were
    cut off."""
    from skewlearn.experiments.asls_results import main

    db = tmp_path / "t4.sqlite"
    with ResultStore(db) as store:
        store.write(_row("kc1", "SVM-DEC", 0, {"gmean": 0.7}))
    assert choices_markdown(db) == (
        "(no searched hyperparameter in this database: every task ran with the one value "
        "of each grid)"
    )
    assert main(["choices", str(db)]) == 0
    assert "no searched hyperparameter" in capsys.readouterr().out


def test_choices_of_a_grid_that_is_not_all_numbers(tmp_path):
    """Session 18: ``choices`` formatted every value with ``:g`` and sorted the grid, so a
    searched string (``kernel``) stopped the command with "Unknown format code 'g'" and a
    grid holding ``None`` (``reduced_rate = [None, 0.3]``) with a TypeError traceback. Such
    a grid is kept in the candidates' order and has no edges."""
    db = tmp_path / "t6.sqlite"
    cands = [{"kernel": k, "reduced_rate": r, "w": [k == "rbf", {"a": 1}]}
             for k in ("rbf", "linear") for r in (None, 0.3)]  # fmt: skip
    picks = [("rbf", None), ("rbf", 0.3), ("linear", None)]
    with ResultStore(db) as store:
        for fold, (k, r) in enumerate(picks):
            row = _row("kc1", "KASLS", fold, {"gmean": 0.7})
            row["params"] = {"kernel": k, "reduced_rate": r, "w": [k == "rbf", {"a": 1}]}
            row["extra"] = {"search": {"params": cands, "scores": [0.5] * 4}}
            store.write(row)
    got = search_choices(db)["kc1", "KASLS"]
    assert got["kernel"] == {"grid": ["rbf", "linear"], "chosen": {"rbf": 2, "linear": 1},
                             "folds": 3}  # fmt: skip
    assert got["reduced_rate"] == {"grid": [None, 0.3], "chosen": {None: 2, 0.3: 1}, "folds": 3}
    lines = choices_markdown(db).splitlines()[2:]
    assert lines == [
        "| kc1 | KASLS | kernel | rbf, linear | rbf: 2, linear: 1 | – | – |",
        "| kc1 | KASLS | reduced_rate | None, 0.3 | None: 2, 0.3: 1 | – | – |",
        '| kc1 | KASLS | w | [true, {"a": 1}], [false, {"a": 1}] | [true, {"a": 1}]: 2, '
        '[false, {"a": 1}]: 1 | – | – |',
    ]


def test_a_database_of_another_asls_table_is_named(tmp_path, capsys):
    """Session 18: a results database holding one experiment is read whatever its name
    (a user's own definition), so ``tables --t6 t5.sqlite`` printed Table V's results as
    "Table VI" beside the kernel paper's numbers, ``--t4`` stopped with an IndexError
    traceback and ``--t3`` with "not enough values to unpack". Another shipped ASLS table's
    database is refused by name."""
    from skewlearn.experiments.asls_results import main

    db = tmp_path / "t5.sqlite"
    with ResultStore(db) as store:
        for fold in range(2):
            row = _row("pima", "LASLS", fold, {"gmean": 0.7, "f1": 0.5, "roc_auc": 0.8})
            row["experiment"] = "asls_table5"
            store.write(row)
    expected = r"holds the results of asls_table5 \(give it as --t5\), not of asls_table{}"
    for flag, call in (
        ("3", lambda: table3_markdown(db)),
        ("4", lambda: table4_markdown(db)),
        (
            "6",
            lambda: comparison_markdown(
                db, "asls_table6_kernel.csv", "KASLS_R", experiment="asls_table6"
            ),
        ),
    ):
        with pytest.raises(ValueError, match=expected.format(flag)):
            call()
        with pytest.raises(SystemExit) as err:
            main(["tables", f"--t{flag}", str(db)])
        assert err.value.code == 2
        assert f"not of asls_table{flag}" in capsys.readouterr().err
    # its own flag still reads it
    assert "| pima | LASLS | 70.00 (0.00) |" in comparison_markdown(
        db, "asls_table5_linear.csv", "LASLS", experiment="asls_table5"
    )


def test_table4_a_reduced_rate_the_paper_did_not_run_has_no_paper_cells(tmp_path):
    """Session 18: the paper's row was looked up as ``f"{eta:g}"`` or else ``f"{eta:.1f}"``
    (meant for 1 -> "1.0"), so η = 0.25 was printed beside the paper's η = 0.2 (97.00,
    0.0295 s) as if it were its number, and η = 0.33 beside η = 0.3; η = 0.02 stopped
    with a KeyError. A rate the paper has no row for gets "–"."""
    db = tmp_path / "t4.sqlite"
    with ResultStore(db) as store:
        for fold in range(2):
            store.write(_row("vowel0", "KASLS_R eta=1", fold, {"gmean": 0.9}, fit_time=0.2))
            for eta in ("0.25", "0.33", "0.02"):
                store.write(_row("vowel0", f"KASLS_R eta={eta}", fold, {"gmean": 0.8},
                                 fit_time=0.05))  # fmt: skip
    lines = {line.split(" | ")[0].lstrip("| "): line for line in table4_markdown(db).splitlines()}
    for eta in ("0.25", "0.33", "0.02"):
        assert lines[f"KASLS_R eta={eta}"] == (
            f"| KASLS_R eta={eta} | 80.00 (0.00) | – | 0.0500 | – | 0.25 | – |"
        )
    assert lines["KASLS_R eta=1"].endswith("| 98.65 (0.93) | 0.2000 | 0.1330 | 1.00 | 1.00 |")


def test_table3_pattern_line_of_a_partial_grid(tmp_path):
    """Session 18: with no cell holding both LASLS and KASLS (a run not finished) the
    summary line read "KASLS > LASLS in nan% of the cells"."""
    db = tmp_path / "t3.sqlite"
    with ResultStore(db) as store:
        for fold, g in enumerate([0.70, 0.80]):
            store.write(_row("vehicle3", "LASLS r=CR m=1.4", fold, {"gmean": g}))
    ours = next(line for line in table3_markdown(db).splitlines() if line.startswith("- ours"))
    assert "nan" not in ours
    assert ours.startswith("- ours: KASLS > LASLS: no cell has both yet;")


def test_comparison_does_not_call_five_equal_differences_certain(tmp_path):
    """Session 19: the same G-mean difference in each of 5 folds was marked significant
    (p = 0, no spread for the t-test); the exact sign test, scipy's wilcoxon of 5 equal
    differences, says p = 0.0625 > 0.05. Ten folds (p = 0.002) keep the marker."""
    from scipy.stats import wilcoxon

    assert wilcoxon([0.05] * 5).pvalue > 0.05 > wilcoxon([0.05] * 10).pvalue
    for n_folds, marked in ((5, False), (10, True)):
        db = tmp_path / f"s{n_folds}.sqlite"
        with ResultStore(db) as store:
            for fold in range(n_folds):
                g = 0.7 + 0.03 * fold
                store.write(_row("kc1", "KASLS_R", fold, {"gmean": g, "f1": 0.5, "roc_auc": 0.8}))
                store.write(_row("kc1", "SVM-DEC", fold,
                                 {"gmean": g - 0.05, "f1": 0.5, "roc_auc": 0.8}))  # fmt: skip
        md = comparison_markdown(db, "asls_table6_kernel.csv", "KASLS_R")
        svm = next(line for line in md.splitlines() if line.startswith("| kc1 | SVM-DEC"))
        cells = [c.strip() for c in svm.strip("|").split("|")]
        assert cells[2].endswith("*") is marked, (n_folds, cells[2])


def test_one_fold_shows_no_spread_rather_than_zero(tmp_path):
    """Session 19: a method with one fold showed "(0.00)", a spread of 0 where there is no
    spread; the experiment report (and omcsl_study) show the mean alone. Two folds show
    the sample std (ddof = 1), numpy's."""
    db = tmp_path / "t.sqlite"
    with ResultStore(db) as store:
        store.write(_row("pima", "LASLS", 0, {"gmean": 0.75, "f1": 0.6, "roc_auc": 0.8}))
        store.write(_row("pima", "LASLS", 1, {"gmean": 0.70, "f1": 0.6, "roc_auc": 0.8}))
        store.write(_row("pima", "SVM-DEC", 0, {"gmean": 0.7, "f1": 0.6, "roc_auc": 0.8}))
    md = comparison_markdown(db, "asls_table5_linear.csv", "LASLS")
    svm = next(line for line in md.splitlines() if line.startswith("| pima | SVM-DEC"))
    assert "(0.00)" not in svm and "| 70.00 [1 of 2 folds] |" in svm
    lasls = next(line for line in md.splitlines() if line.startswith("| pima | LASLS"))
    assert f"| 72.50 ({100 * np.std([0.75, 0.70], ddof=1):.2f}) |" in lasls
