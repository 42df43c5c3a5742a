"""KOIL's Figures 1-3 command: runs that match Table 1's, AUCs checked with scikit-learn."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from skewlearn import KOIL
from skewlearn.evaluation.protocols import nested_search, task_seed
from skewlearn.experiments import ResultStore, koil_figures
from skewlearn.experiments.config import parse_experiment
from skewlearn.experiments.runner import load_dataset

SMALL = """
name = "koil_table1"
seed = 5
metrics = ["roc_auc"]
reference = ["KOIL_RS++"]
[[datasets]]
name = "blobs"
generator = "make_classification"
params = {n_samples = 300, n_features = 4, n_redundant = 0, weights = [0.85], random_state = 2}
scale = true
[protocol]
kind = "kfold"
n_splits = 3
n_repeats = 1
[[estimators]]
name = "KOIL_RS++"
class = "KOIL"
params = {policy = "RS++", eta = 0.01, budget_pos = 100, budget_neg = 100, k = 10}
grid = {C = [1.0, 8.0], gamma = [0.5, 2.0]}
"""


def _exp():
    return parse_experiment(tomllib.loads(SMALL))


def _direct_auc(exp, params, rep, fold, **kw):
    """KOIL fitted directly on run (rep, fold) of the experiment, scored by scikit-learn."""
    X, y = load_dataset(exp.datasets[0])
    train, test = exp.protocol.split(y, exp.seed, "blobs", rep, fold)
    base = {"policy": "RS++", "eta": 0.01, "budget_pos": 100, "budget_neg": 100, "k": 10}
    clf = KOIL(**{**base, **params, **kw}, random_state=task_seed(exp.seed, "blobs", rep, fold))
    clf.fit(X[train], y[train])
    return roc_auc_score(y[test] == 1, clf.decision_function(X[test]))


def test_final_points_are_the_direct_runs():
    exp, params = _exp(), {"C": 4.0, "gamma": 1.0}
    pol = koil_figures.policy_study(exp, "blobs", params, n_repeats=1, ticks=4)
    assert len(pol["samples"]) == 4 and pol["samples"][-1] == 200
    for label, policy in koil_figures.POLICIES.items():
        direct = [_direct_auc(exp, params, 0, f, policy=policy) for f in range(3)]
        # streamed in 4 pieces with partial_fit = one fit; same AUC as scikit-learn's
        np.testing.assert_allclose(pol["final"][label], direct, rtol=0, atol=1e-12)
        assert abs(pol[label][-1] - np.mean(direct)) < 1e-12
    bud = koil_figures.budget_study(exp, "blobs", params, n_repeats=1, budgets=(10, 100))
    ks = koil_figures.k_study(exp, "blobs", params, n_repeats=1, ks=(1, 10))
    # budget 100 (k = 10) and k = 10 (budget 100) are the same runs: Table 1's
    for label in ("KOIL_RS++", "KOIL_FIFO++"):
        assert bud[label][1] == ks[label][1]
    direct = [_direct_auc(exp, params, 0, f, budget_pos=10, budget_neg=10, k=1) for f in range(3)]
    np.testing.assert_allclose(bud["KOIL_RS++"][0], direct, rtol=0, atol=1e-12)
    direct = [_direct_auc(exp, params, 0, f, policy="FIFO++", k=1) for f in range(3)]
    np.testing.assert_allclose(ks["KOIL_FIFO++"][0], direct, rtol=0, atol=1e-12)


def _db_with_a_search(path):
    with ResultStore(path) as s:
        s.write_search(
            dict(
                search_key="x",
                experiment="koil_table1",
                dataset="blobs",
                method="KOIL_RS++",
                params={"C": 8.0, "gamma": 0.5},
                extra={},
            )
        )
    return path


def test_chosen_params_come_from_the_database_or_the_same_search(tmp_path):
    exp = _exp()
    searched = koil_figures.chosen_params(exp, ["blobs"])  # runs the shared search here
    X, y = load_dataset(exp.datasets[0])
    train, _ = exp.protocol.split(y, exp.seed, "blobs", 0, 0)
    seed = task_seed(exp.seed, "blobs", 0, 0)
    est = KOIL(**exp.estimators[0].params, random_state=seed)
    _, best, _ = nested_search(est, exp.estimators[0].grid, X[train], y[train], seed=seed)
    assert searched == {"blobs": best}
    db = _db_with_a_search(tmp_path / "t.sqlite")
    assert koil_figures.chosen_params(exp, ["blobs"], db) == {"blobs": {"C": 8.0, "gamma": 0.5}}


def test_a_database_of_another_experiment_is_refused(tmp_path):
    """Session 15: ``--db`` of another experiment's run found no search and quietly ran
    every search here (hours on the real datasets), as if no database had been given."""
    other = tmp_path / "other.sqlite"
    with ResultStore(other) as s:
        s.save_experiment("nystrom_table2", {"name": "nystrom_table2"})
    with pytest.raises(ValueError, match=r"holds no KOIL_RS\+\+ search of experiment "
                       r"'koil_table1' \(it holds \['nystrom_table2'\]\)\. Give the database "
                       r"of `skewlearn reproduce koil_table1`"):  # fmt: skip
        koil_figures.chosen_params(_exp(), ["blobs"], other)


def test_main_writes_the_three_figures(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(koil_figures, "_experiment", _exp)
    monkeypatch.setattr(koil_figures, "BUDGETS", (10, 100))
    monkeypatch.setattr(koil_figures, "K_VALUES", (1, 10))
    db = _db_with_a_search(tmp_path / "t.sqlite")
    out = tmp_path / "fig"
    args = ["--datasets", "blobs", "--db", str(db), "--out", str(out), "--repeats", "1"]
    assert koil_figures.main(args) == 0
    text = capsys.readouterr().out
    for name in ("koil_fig1_policies.png", "koil_fig2_budget.png", "koil_fig3_k.png"):
        png = (out / name).read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) < 200_000
        assert name in text
    assert "| blobs | KOIL_RS++ |" in text and "blobs: C=8, gamma=0.5" in text


def _checklist_db(db, values: dict, shifts=(0.0, 0.0)):
    """A koil_table1 results database for ``must_show``: per method, its AUC on sonar and
    heart (``None``: no result there) over two folds, moved by ``shifts``."""
    from skewlearn.experiments.config import PAPER_RESULTS

    definition = {
        "name": "koil_table1",
        "metrics": ["roc_auc"],
        "datasets": [{"name": "sonar"}, {"name": "heart"}],
        "estimators": [{"name": m} for m in values],
        "reference": ["KOIL_RS++", "KOIL_FIFO++"],
        "paper": {"path": str(PAPER_RESULTS / "koil_table1_auc.csv"), "metric": "roc_auc"},
    }
    with ResultStore(db) as s:
        s.save_experiment("koil_table1", definition)
        for m, pair in values.items():
            for d, v in zip(("sonar", "heart"), pair):
                if v is None:
                    continue
                for fold, shift in enumerate(shifts):
                    s.write(
                        dict(
                            task_key=f"{m}{d}{fold}",
                            experiment="koil_table1",
                            dataset=d,
                            method=m,
                            repetition=0,
                            fold=fold,
                            seed=0,
                            params={},
                            metrics={"roc_auc": v + shift},
                            extra={},
                        )
                    )
    return db


def test_must_show_checks_hand_made_results(tmp_path):

    # two datasets, two runs each; values chosen so every check has a known answer
    values = {
        # method: (sonar, heart); paper KOIL_RS++: sonar .955, heart .908
        "KOIL_RS++": (0.965, 0.848),  # +0.010 (within), -0.060 (below by more than 0.05)
        "KOIL_FIFO++": (0.955, 0.910),  # FIFO++ paper: .955, .910 -> both within 0.02
        "KOIL_RS": (0.900, 0.900),
        "KOIL_FIFO": (0.960, 0.920),
        "KOIL_inf": (0.930, 0.870),
        "RBP": (0.800, 0.800),
        "Forgetron": (0.990, 0.990),
        "Projectron": (0.960, 0.800),
        "NORMA": (0.800, 0.900),
    }
    db = _checklist_db(tmp_path / "m.sqlite", values, shifts=(-0.001, 0.001))
    text = koil_figures.must_show(db)
    rows = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines()}
    assert (
        "**no**: 1 (sonar) | **no**: 2 (sonar, heart)"
        in rows["within 0.02 of the paper on ≥ 8 of 2"]
    )
    assert (
        "**no**: lowest -0.060 (heart) | yes: lowest +0.000"
        in rows["never more than 0.05 below the paper"]
    )
    assert "yes: 2 of 2 | yes: 2 of 2" in rows["ahead of RBP (mean AUC) on most datasets"]
    assert (
        "**no**: 0 of 2 | **no**: 0 of 2" in rows["ahead of Forgetron (mean AUC) on most datasets"]
    )
    # Projectron (0.96, 0.80): RS++ ahead on both, FIFO++ on heart only (1 of 2 is not most)
    assert "yes: 2 of 2 | **no**: 1 of 2" in rows["ahead of Projectron (mean AUC) on most datasets"]
    # NORMA: RS++ ahead on sonar only (0.848 < 0.9); FIFO++ on both
    assert "**no**: 1 of 2 | yes: 2 of 2" in rows["ahead of NORMA (mean AUC) on most datasets"]
    # means: RS++ 0.9065 vs RS 0.9; FIFO++ 0.9325 vs FIFO 0.94; inf 0.9
    assert (
        "yes: 0.9065 vs RS 0.9000 | **no**: 0.9325 vs FIFO 0.9400"
        in rows["mean AUC ≥ its uncompensated policy"]
    )
    assert (
        "yes: +0.0065 (inf 0.9000) | **no**: +0.0325"
        in rows["mean AUC within 0.01 of the infinite budget"]
    )


def test_final_points_learn_the_whole_stream_when_folds_differ_in_size():
    """Session 18: the curve's sample positions came from the first run's training set and
    were cut to each run's length, so a run with a longer training set (301 rows in 3
    folds: 200, 201, 201) never learned its last row, and its "final" AUC was not the one
    of the model of Table 1."""
    exp = parse_experiment(tomllib.loads(SMALL.replace("n_samples = 300", "n_samples = 301")))
    X, y = load_dataset(exp.datasets[0])
    sizes = [len(exp.protocol.split(y, exp.seed, "blobs", 0, f)[0]) for f in range(3)]
    assert len(set(sizes)) > 1  # the case of the defect: training sets of two sizes
    params = {"C": 4.0, "gamma": 1.0}
    pol = koil_figures.policy_study(exp, "blobs", params, n_repeats=1, ticks=4)
    direct = [_direct_auc(exp, params, 0, f) for f in range(3)]
    np.testing.assert_allclose(pol["final"]["KOIL_RS++"], direct, rtol=0, atol=1e-12)
    assert abs(pol["KOIL_RS++"][-1] - np.mean(direct)) < 1e-12


def test_must_show_on_a_partial_database(tmp_path):
    """Session 18: ``--checklist`` on a database of a run not finished (methods without any
    result, a cell missing) stopped with ``KeyError: ('sonar', 'Forgetron')``. Each check
    is now made on the datasets that have the results it needs, and says how many."""

    values = {
        "KOIL_RS++": (0.965, 0.848),
        "KOIL_FIFO++": (0.955, 0.910),
        "KOIL_RS": (0.900, None),  # no result on heart
        "KOIL_FIFO": (0.960, 0.920),
        "KOIL_inf": (0.930, 0.870),
        "RBP": (0.800, 0.800),
        # Forgetron, Projectron, NORMA: not run yet
    }
    db = _checklist_db(tmp_path / "p.sqlite", values)
    text = koil_figures.must_show(db)
    rows = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines()}
    assert "yes: 2 of 2 | yes: 2 of 2 |" in rows["ahead of RBP (mean AUC) on most datasets"]
    assert (
        "**no**: 0 of 2 (2 without both results) | **no**: 0 of 2 (2 without both results)"
        in rows["ahead of NORMA (mean AUC) on most datasets"]
    )
    # RS++ against RS on sonar only (0.965 vs 0.900); FIFO++ on both
    assert (
        "yes: 0.9650 vs RS 0.9000 (over 1 of 2 datasets) | **no**: 0.9325 vs FIFO 0.9400 |"
        in rows["mean AUC ≥ its uncompensated policy"]
    )
    other = tmp_path / "other.sqlite"
    with ResultStore(other) as s:
        s.save_experiment("nystrom_table2", {"name": "nystrom_table2"})
    with pytest.raises(SystemExit) as err:  # was a ValueError traceback
        koil_figures.main(["--checklist", "--db", str(other), "--figures"])
    assert err.value.code == 2


def test_a_misspelt_dataset_is_refused_before_any_search(monkeypatch, capsys, tmp_path):
    """Session 18: ``--datasets pima yeast-4`` ran pima's search (minutes to hours on the
    real data) and then stopped with a ValueError traceback on the misspelt name."""

    def never(*a, **k):
        raise AssertionError("a search ran before the names were checked")

    monkeypatch.setattr(koil_figures, "chosen_params", never)
    with pytest.raises(SystemExit) as err:
        koil_figures.main(["--datasets", "pima", "yeast-4", "--out", str(tmp_path)])
    assert err.value.code == 2
    text = capsys.readouterr().err
    assert "--datasets: unknown dataset 'yeast-4'" in text and "yeast4" in text


def test_out_naming_a_file_is_a_usage_error(monkeypatch, capsys, tmp_path):
    """Session 25: ``--out FILE`` was a FileExistsError traceback from ``mkdir``."""

    def never(*a, **k):
        raise AssertionError("a search ran before --out was checked")

    monkeypatch.setattr(koil_figures, "chosen_params", never)
    taken = tmp_path / "taken.png"
    taken.write_bytes(b"")
    with pytest.raises(SystemExit) as err:
        koil_figures.main(["--datasets", "pima", "--out", str(taken)])
    assert err.value.code == 2
    assert f"--out {str(taken)!r} is a file; give a folder" in capsys.readouterr().err


def test_figures_with_no_figure_and_no_checklist_is_a_usage_error(monkeypatch, capsys, tmp_path):
    """Session 26: ``--figures`` with no number (``--checklist --figures`` prints only the
    checks) but without ``--checklist`` ran KOIL_RS++'s searches (without ``--db``, about a
    minute of CPU on the four default datasets), made ``--out`` and drew nothing, exit 0."""

    def never(*a, **k):
        raise AssertionError("a search ran for no figure")

    monkeypatch.setattr(koil_figures, "chosen_params", never)
    out = tmp_path / "figs"
    with pytest.raises(SystemExit) as err:
        koil_figures.main(["--figures", "--out", str(out)])
    assert err.value.code == 2
    text = capsys.readouterr().err
    assert "--figures with no figure number draws nothing" in text and "--checklist" in text
    assert not out.exists()


def test_the_figure_tables_by_hand():
    """Session 24: the tables printed under Figures 1-3 (docs/results/koil_table1.md) were
    not tested: the best run instead of the mean, or the population std, passed."""
    final = {label: [0.5, 0.7, 0.9] for label in koil_figures.POLICIES}
    final["KOIL_RS"] = [0.1, 0.2, 0.6]
    other = {label: [0.6, 0.6, 0.6] for label in koil_figures.POLICIES}
    table = koil_figures._policy_table({"a": {"final": final}, "b": {"final": other}})
    rs_sd = np.std([0.1, 0.2, 0.6], ddof=1)
    assert table.splitlines()[2].startswith(f"| a | 0.300 ± {rs_sd:.3f} |")
    assert "| b | 0.600 ± 0.000 |" in table
    # the last line: each policy's mean over the datasets of its mean over the runs
    assert table.splitlines()[-1].startswith("| mean | 0.4500 | 0.6500 |")
    sweep = {"values": [5, 10], "KOIL_RS++": [[0.5, 0.9], [0.7, 0.8]],
             "KOIL_FIFO++": [[0.1, 0.2], [0.3, 0.7]]}  # fmt: skip
    table = koil_figures._sweep_table({"a": sweep}, "N")
    assert "| a | KOIL_RS++ | 0.700 | 0.750 |" in table
    assert "| a | KOIL_FIFO++ | 0.150 | 0.500 |" in table
