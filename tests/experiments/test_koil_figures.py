"""KOIL's Figures 1-3 command: runs that match Table 1's, AUCs checked with scikit-learn."""

from __future__ import annotations

import tomllib

import numpy as np
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
