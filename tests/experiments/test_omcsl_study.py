"""The OMCSL study (Table 4 and Figure 1 of Yan et al. 2017) against independent references."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

from skewlearn import OMCSL
from skewlearn.experiments import omcsl_study as study
from tests.naive import augment
from tests.naive.cost_sensitive import csogd


def _stream(n=600, seed=0, pos=0.12):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < pos, 1, -1)
    X = rng.normal(size=(n, 3)) + 0.9 * (y[:, None] > 0)
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_online_measure_equals_sklearn(seed):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(300) < 0.2, 1, -1)
    s = np.round(rng.normal(size=300) + (y > 0), 1)
    assert study.online_measure(y, s, "f1") == pytest.approx(
        skm.f1_score(y, np.where(s > 0, 1, -1))
    )
    assert study.online_measure(y, s, "auroc") == pytest.approx(skm.roc_auc_score(y, s))
    assert study.online_measure(y, s, "auprc") == pytest.approx(skm.average_precision_score(y, s))
    assert study.online_measure(np.array([-1, 1]), np.array([1.0, -1.0]), "f1") == 0.0
    with pytest.raises(ValueError, match="measure must be one of"):
        study.online_measure(y, s, "gmean")


@pytest.mark.parametrize("loss", ["hinge", "logistic"])
def test_fixed_cost_scores_and_best_cost_match_the_reference(loss):
    X, y = _stream(seed=3)
    costs = np.array([0.95, 0.75, 0.55])
    S = study.fixed_cost_scores(X, y, costs, loss=loss, eta=0.1)
    values = {}
    for j, c in enumerate(costs):
        _, ref = csogd(augment(X), y, objective="weighted", loss=loss, c_pos=c, c_neg=1 - c)
        np.testing.assert_allclose(S[:, j], ref, rtol=1e-10, atol=1e-12)
        values[c] = skm.average_precision_score(y, ref)
    c_star, got = study.best_fixed_cost(y, S, costs, "auprc")
    assert c_star == max(values, key=values.get)
    np.testing.assert_allclose(got, [values[c] for c in costs], rtol=1e-12)


def test_selected_cost_is_the_mean_of_the_last_rows():
    assert study.selected_cost([0.9, 0.9, 0.55, 0.6], last=2) == pytest.approx(0.575)
    assert study.selected_cost([0.9, 0.5], last=5000) == pytest.approx(0.7)
    with pytest.raises(ValueError, match="empty"):
        study.selected_cost([])


def test_online_curve_equals_the_prefix_metrics():
    X, y = _stream(n=400, seed=4)
    s = np.round(X[:, 0], 1)
    cps = np.array([5, 50, 123, 400])
    for measure, ref in (
        (
            "f1",
            lambda a, b: skm.f1_score(a, np.where(b > 0, 1, -1), labels=[-1, 1], zero_division=0),
        ),
        ("auroc", skm.roc_auc_score),
        ("auprc", skm.average_precision_score),
    ):
        got = study.online_curve(y, s, measure, cps)
        for k, hi in enumerate(cps):
            yt, st = y[:hi], s[:hi]
            if measure != "f1" and len(set(yt)) < 2:
                if measure == "auroc" or not (yt > 0).any():
                    assert np.isnan(got[k])
                    continue
            assert got[k] == pytest.approx(ref(yt, st), rel=1e-12), (measure, hi)


def test_online_f_curve_is_undefined_before_a_positive_is_seen_or_predicted():
    """Session 26: no test reached the F curve's 0/0 case (the mutant returning 0 there, as
    scikit-learn's ``zero_division=0`` would, passed): Figure 1 averages each checkpoint
    over the splits where it is defined (nanmean), so a 0 would pull the early points of
    the mean curve down instead of leaving the split out."""
    y = np.array([-1] * 8 + [1, -1, 1, -1])
    s = np.array([-0.5] * 8 + [0.3, 0.2, -0.1, -0.4])
    got = study.online_curve(y, s, "f1", np.array([4, 8, 9, 12]))
    assert np.isnan(got[0]) and np.isnan(got[1])  # no positive, no positive prediction
    assert got[2] == 1.0  # tp 1, one positive, one predicted
    assert got[3] == pytest.approx(2 * 1 / (2 + 2))  # tp 1 (row 9), positives 2, predicted 2


@pytest.mark.parametrize(
    "etas", [None, {("hinge", "f1"): 0.01, ("hinge", "auroc"): 1.0, ("hinge", "auprc"): 0.003}]
)
def test_study_split_table4_by_hand(etas):
    """ĉ+ = mean c+ of the leader (largest p before each row) over the last rows; c+* from
    each cost run alone (numpy reference); the error is their distance. With ``etas``
    (the tuned table's steps) OMCSL and the fixed-cost runs use that measure's step."""
    X, y = _stream(n=500, seed=5)
    res = study.study_split(X, y, seed=11, losses=("hinge",), last=120, n_learners=5, etas=etas)
    for measure in ("f1", "auroc", "auprc"):
        eta = 0.1 if etas is None else etas[("hinge", measure)]
        clf = OMCSL(n_learners=5, measure=measure, loss="hinge", eta=eta, random_state=11)
        leaders = []
        for t in range(len(y)):
            if t:
                leaders.append(clf.costs_[int(np.argmax(clf.probabilities_))])
            clf.partial_fit(X[t : t + 1], y[t : t + 1], classes=[-1, 1])
            if not t:
                leaders.append(clf.costs_[0])  # p uniform before the first row
        c_hat = np.mean(leaders[-120:])
        best, best_v = None, -1.0
        for c in clf.costs_:
            _, ref = csogd(augment(X), y, objective="weighted", c_pos=c, c_neg=1 - c, eta=eta)
            v = {
                "f1": lambda r: skm.f1_score(y, np.where(r > 0, 1, -1)),
                "auroc": lambda r: skm.roc_auc_score(y, r),
                "auprc": lambda r: skm.average_precision_score(y, r),
            }[measure](ref)
            if v > best_v + 1e-15:
                best, best_v = c, v
        row = res["table4"][("hinge", measure)]
        assert row["eta"] == eta
        assert row["c_hat"] == pytest.approx(c_hat, rel=1e-12)
        assert row["c_star"] == best
        assert row["error"] == pytest.approx(abs(c_hat - best), rel=1e-12)
    cps = res["checkpoints"]
    assert cps[-1] == len(y)
    assert set(res["curves"]["f1"]) == {"OMCSL-h", "OCS1-h", "OCS2-h", "OFO-l"}
    assert set(res["curves"]["auroc"]) == {"OMCSL-h", "OCS1-h", "OCS2-h", "OPAUC"}
    assert all(len(c) == len(cps) for per in res["curves"].values() for c in per.values())


def test_main_on_one_small_dataset(tmp_path):
    md = tmp_path / "s.md"
    rc = study.main(
        ["--skip-table3", "--repeats", "2", "--datasets", "satimage",
         "--figures", str(tmp_path), "--md", str(md), "--db", str(tmp_path / "none.sqlite"),
         "--json", str(tmp_path / "t4.json")]
    )  # fmt: skip
    assert rc == 0
    text = md.read_text()
    assert "| satimage | hinge | F-measure |" in text and "/2 |" in text
    png = tmp_path / "omcsl_online_satimage.png"
    assert png.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="unknown dataset 'covtype'"):
        study.run_study(["covtype"], 1)


def test_table3_and_must_show_from_a_results_database(tmp_path):
    from skewlearn.experiments.store import ResultStore

    db = tmp_path / "r.sqlite"
    vals = {  # (method, rep) -> (f1, roc_auc, pr_auc)
        ("OMCSL-F-h", 0): (0.8, 0.9, 0.7),
        ("OMCSL-F-h", 1): (0.6, 0.9, 0.7),
        ("OMCSL-AUROC-h", 0): (0.1, 0.95, 0.1),
        ("OMCSL-AUROC-h", 1): (0.1, 0.97, 0.1),
        ("OMCSL-AUPRC-h", 0): (0.1, 0.1, 0.5),
        ("OMCSL-AUPRC-h", 1): (0.1, 0.1, 0.7),
        ("OCS1-h", 0): (0.65, 0.5, 0.6),
        ("OCS1-h", 1): (0.65, 0.5, 0.64),
        ("OCS2-h", 0): (0.2, 0.5, 0.2),
        ("OCS2-h", 1): (0.2, 0.5, 0.2),
    }
    with ResultStore(db) as store:
        for (method, rep), (f, roc, pr) in vals.items():
            store.write(dict(task_key=f"{method}{rep}", experiment="omcsl_table3",
                             dataset="letter", method=method, repetition=rep, fold=0, seed=0,
                             params={}, metrics={"f1": f, "roc_auc": roc, "pr_auc": pr},
                             extra={}))  # fmt: skip
    table = study.table3_markdown(db)
    omcsl = next(line for line in table.splitlines() if line.startswith("| OMCSL-h |"))
    # F from OMCSL-F-h, AUROC from OMCSL-AUROC-h, AUPRC from OMCSL-AUPRC-h; mean ± the
    # sample std (ddof=1, numpy's and the experiment report's): 0.7 ± 0.1414 for 0.8, 0.6
    f_sd = np.std([0.8, 0.6], ddof=1)
    r_sd = np.std([0.95, 0.97], ddof=1)
    p_sd = np.std([0.5, 0.7], ddof=1)
    assert omcsl == f"| OMCSL-h | 0.7000 ± {f_sd:.4f} | 0.9600 ± {r_sd:.4f} | 0.6000 ± {p_sd:.4f} |"
    assert "| OPAUC | – | – | – |" in table
    checks = study.must_show(db, None)
    # F: 0.7 > 0.65 and 0.2 -> yes; AUPRC: 0.6 < OCS1 0.62 -> not ahead
    # last column: OMCSL - the better OCS, paired t-test over the reps (scipy's ttest_rel)
    from scipy.stats import ttest_rel

    p_f = ttest_rel([0.8, 0.6], [0.65, 0.65]).pvalue
    p_pr = ttest_rel([0.5, 0.7], [0.6, 0.64]).pvalue
    assert (
        f"| letter | h | F-measure | 0.7000 | 0.6500 | 0.2000 | yes | +0.0500 ({p_f:.2g}) |"
        in checks
    )
    assert (
        f"| letter | h | AUPRC | 0.6000 | 0.6200 | 0.2000 | **no** | -0.0200 ({p_pr:.2g}) |"
        in checks
    )


def _write(store, experiment, vals):
    for (method, rep), (f, roc, pr) in vals.items():
        store.write(dict(task_key=f"{experiment}{method}{rep}", experiment=experiment,
                         dataset="letter", method=method, repetition=rep, fold=0, seed=0,
                         params={}, metrics={"f1": f, "roc_auc": roc, "pr_auc": pr},
                         extra={}))  # fmt: skip


def test_tuned_table_takes_each_column_from_the_run_tuned_for_it(tmp_path):
    """In the tuned table OCS1/OCS2 run once per column; the F column comes from OCS1-F-h,
    the AUPRC column from OCS1-AUPRC-h, and the checks compare OMCSL with those runs."""
    from skewlearn.experiments.store import ResultStore

    db = tmp_path / "t.sqlite"
    exp = "omcsl_table3_tuned"
    vals = {  # (method, rep) -> (f1, roc_auc, pr_auc)
        ("OMCSL-F-h", 0): (0.7, 0.0, 0.0),
        ("OMCSL-AUROC-h", 0): (0.0, 0.9, 0.0),
        ("OMCSL-AUPRC-h", 0): (0.0, 0.0, 0.6),
        ("OCS1-F-h", 0): (0.72, 0.1, 0.1),  # ahead of OMCSL on F
        ("OCS1-AUROC-h", 0): (0.1, 0.95, 0.1),
        ("OCS1-AUPRC-h", 0): (0.99, 0.1, 0.5),  # its F must not enter the F column
        ("OCS2-F-h", 0): (0.3, 0.1, 0.1),
        ("OCS2-AUROC-h", 0): (0.1, 0.8, 0.1),
        ("OCS2-AUPRC-h", 0): (0.1, 0.1, 0.55),
    }
    with ResultStore(db) as store:
        _write(store, exp, vals)
        for (method, _), _v in vals.items():
            store.write_search(dict(search_key=method, experiment=exp, dataset="letter",
                                    method=method, params={"eta": 0.003 if "F" in method
                                                           else 0.1}, extra={}))  # fmt: skip
    table = study.table3_markdown(db, exp, study.TUNED_ROWS)
    line = next(ln for ln in table.splitlines() if ln.startswith("| OCS1-h |"))
    # one split: no spread to show (not a spread of 0), as the experiment report prints it
    assert line == "| OCS1-h | 0.7200 | 0.9500 | 0.5000 |"
    checks = study.must_show(db, None, exp, study.TUNED_ROWS)
    # one split: no paired test ("–"); the better OCS on AUPRC is OCS2 (0.55)
    assert "| letter | h | F-measure | 0.7000 | 0.7200 | 0.3000 | **no** | – |" in checks
    assert "| letter | h | AUPRC | 0.6000 | 0.5000 | 0.5500 | yes | – |" in checks
    # the default layout reads nothing of these runs
    assert "| letter | h | F-measure | 0.7000 | nan | nan | **no** | – |" in study.must_show(
        db, None, exp
    )
    assert study.chosen_steps(db, exp)[("letter", "OCS1-AUPRC-h")] == 0.1
    assert study.tuned_etas(db, exp) == {
        "letter": {("hinge", "f1"): 0.003, ("hinge", "auroc"): 0.1, ("hinge", "auprc"): 0.1}
    }
    steps = study.steps_markdown(db, exp)
    assert steps.splitlines()[0] == "| method | letter |"
    assert "| OMCSL-F-h | 0.003 |" in steps and "| OCS2-AUPRC-h | 0.1 |" in steps
    # rows follow the experiment file's order
    order = [ln.split(" |")[0][2:] for ln in steps.splitlines()[2:]]
    assert order[:4] == ["OMCSL-F-h", "OMCSL-AUROC-h", "OMCSL-AUPRC-h", "OCS1-F-h"]
    # a second stream: a column per dataset in Table 3's order, each cell its own search's
    # (session 26: with one dataset, cells in another order than the header passed)
    with ResultStore(db) as store:
        store.write_search(dict(search_key="f", experiment=exp, dataset="flights",
                                method="OMCSL-F-h", params={"eta": 0.01}, extra={}))  # fmt: skip
    steps = study.steps_markdown(db, exp).splitlines()
    assert steps[0] == "| method | flights | letter |"
    assert "| OMCSL-F-h | 0.01 | 0.003 |" in steps and "| OCS1-F-h | – | 0.003 |" in steps


def test_the_tuned_file_applies_one_rule_to_every_method():
    """Every estimator of omcsl_table3_tuned searches only its step size, over the same grid,
    by the measure of the column it fills; the rest is omcsl_table3's definition."""
    from skewlearn.experiments.config import load_experiment

    tuned, plain = load_experiment("omcsl_table3_tuned"), load_experiment("omcsl_table3")
    assert tuned.search_scope == "first_fold" and tuned.inner_splits == 5
    assert (tuned.seed, tuned.protocol, tuned.datasets) == (
        plain.seed, plain.protocol, plain.datasets
    )  # fmt: skip
    grid = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0]
    metric = {"F": "f1", "AUROC": "roc_auc", "AUPRC": "pr_auc"}
    column = {e.name: "F" for e in tuned.estimators}  # iOOB, iUOB, OFO: F only
    column.update({e.name: e.name.split("-")[1] for e in tuned.estimators
                   if e.name.startswith(("OMCSL", "OCS"))})  # fmt: skip
    column["OPAUC"] = "AUROC"
    plain_params = {e.name: e.params for e in plain.estimators}
    for e in tuned.estimators:
        assert e.grid == {"eta": grid}, e.name
        assert e.search_metric == metric[column[e.name]], e.name
        base = e.name.replace(f"-{column[e.name]}-", "-") if e.name.startswith("OCS") else e.name
        assert e.params == plain_params[base], e.name
    assert len(tuned.estimators) == 24


def test_main_tuned_reads_the_chosen_steps_and_checks_from_the_database(tmp_path):
    from skewlearn.experiments.store import ResultStore

    missing = tmp_path / "missing.sqlite"
    with pytest.raises(SystemExit):
        study.main(["--tuned", "--skip-table3", "--db", str(missing)])
    db = tmp_path / "t.sqlite"
    exp = "omcsl_table3_tuned"
    with ResultStore(db) as store:
        _write(store, exp, {("OMCSL-F-h", 0): (0.7, 0.9, 0.6), ("OCS1-F-h", 0): (0.6, 0.9, 0.5),
                            ("OCS2-F-h", 0): (0.5, 0.9, 0.5)})  # fmt: skip
        store.write_search(dict(search_key="k", experiment=exp, dataset="letter",
                                method="OMCSL-F-h", params={"eta": 0.03}, extra={}))  # fmt: skip
    md = tmp_path / "tuned.md"
    rc = study.main(["--tuned", "--skip-table3", "--skip-table4", "--db", str(db), "--md", str(md)])
    assert rc == 0
    text = md.read_text()
    assert "## Chosen step sizes" in text and "| OMCSL-F-h | 0.03 |" in text
    assert "| letter | h | F-measure | 0.7000 | 0.6000 | 0.5000 | yes | – |" in text
    assert "Table 4" not in text


def test_run_study_refuses_a_split_count_it_cannot_run(tmp_path, capsys):
    """Session 18: ``--repeats 0`` (or -1) ended in an UnboundLocalError traceback, and
    ``--repeats 30`` ran 5 splits that Table 3 (25 splits) never ran, though Table 4 and
    Figure 1 are said to describe Table 3's runs."""
    for n in (0, -1, 26, 2.5, True):
        with pytest.raises(ValueError, match=r"n_repeats must be a whole number of splits "
                           r"from 1 to 25 \(the splits of omcsl_table3, "):  # fmt: skip
            study.run_study(["satimage"], n)
    with pytest.raises(SystemExit) as err:
        study.main(["--skip-table3", "--repeats", "0", "--md", str(tmp_path / "s.md")])
    assert err.value.code == 2 and "expected a positive integer" in capsys.readouterr().err
    with pytest.raises(SystemExit) as err:
        study.main(["--skip-table3", "--repeats", "26", "--datasets", "satimage",
                    "--md", str(tmp_path / "s.md")])  # fmt: skip
    assert err.value.code == 2 and "from 1 to 25" in capsys.readouterr().err


def test_tuned_steps_missing_for_a_dataset_are_named(tmp_path, capsys):
    """Session 18: a tuned database without the searches of a dataset asked for stopped
    with ``KeyError: 'satimage'`` (or ``KeyError: ('logistic', 'auprc')``)."""
    with pytest.raises(ValueError, match=r"no chosen step of OMCSL for satimage .*"
                       r"letter"):  # fmt: skip
        study.run_study(["satimage"], 1, etas={"letter": {}})
    some = {("hinge", m): 0.1 for m in study.MEASURES}
    with pytest.raises(ValueError, match=r"satimage: no chosen step of OMCSL for "
                       r"\('logistic', 'f1'\)"):  # fmt: skip
        study.run_study(["satimage"], 1, etas={"satimage": some})
    from skewlearn.experiments.store import ResultStore

    db = tmp_path / "t.sqlite"
    with ResultStore(db) as store:
        store.write_search(dict(search_key="k", experiment="omcsl_table3_tuned",
                                dataset="letter", method="OMCSL-F-h", params={"eta": 0.03},
                                extra={}))  # fmt: skip
    with pytest.raises(SystemExit) as err:
        study.main(["--tuned", "--skip-table3", "--db", str(db), "--datasets", "satimage",
                    "--md", str(tmp_path / "s.md")])  # fmt: skip
    assert err.value.code == 2 and "no chosen step of OMCSL for satimage" in capsys.readouterr().err


def test_a_misspelt_dataset_is_refused_before_table3_runs(monkeypatch, tmp_path, capsys):
    """Session 18: ``--datasets satimag`` ran the whole of Table 3 (hours) and only then
    stopped, at Table 4, on the unknown name."""
    from skewlearn.experiments import runner

    def never(*a, **k):
        raise AssertionError("Table 3 ran before the names were checked")

    monkeypatch.setattr(runner, "run_experiment", never)
    with pytest.raises(SystemExit) as err:
        study.main(["--datasets", "satimag", "--md", str(tmp_path / "s.md"),
                    "--db", str(tmp_path / "t.sqlite")])  # fmt: skip
    assert err.value.code == 2
    assert "unknown dataset 'satimag'; choose among" in capsys.readouterr().err
    # session 25: `--datasets` with no names ran Table 3, then Table 4 of no dataset, and
    # said "within 0.05 in 0 of 0 cells" with status 0
    with pytest.raises(SystemExit) as err:
        study.main(["--datasets", "--md", str(tmp_path / "s.md"),
                    "--db", str(tmp_path / "t.sqlite")])  # fmt: skip
    assert err.value.code == 2
    assert "--datasets: expected at least one argument" in capsys.readouterr().err


def test_a_split_count_beyond_table3_is_refused_before_table3_runs(monkeypatch, tmp_path, capsys):
    """Session 24: ``--repeats 26`` was checked only by ``run_study``, after Table 3
    (215 CPU s, 15 min wall in session 19) had run; the dataset names were already
    checked first (session 18)."""
    from skewlearn.experiments import runner

    def never(*a, **k):
        raise AssertionError("Table 3 ran before the split count was checked")

    monkeypatch.setattr(runner, "run_experiment", never)
    for tuned in ([], ["--tuned"]):
        with pytest.raises(SystemExit) as err:
            study.main([*tuned, "--repeats", "26", "--md", str(tmp_path / "s.md"),
                        "--db", str(tmp_path / "t.sqlite")])  # fmt: skip
        assert err.value.code == 2
        msg = capsys.readouterr().err
        assert "n_repeats must be a whole number of splits from 1 to 25" in msg
        assert not (tmp_path / "t.sqlite").exists()
    # --skip-table4 runs no Table 4, so its split count is not looked at
    calls = []
    monkeypatch.setattr(
        runner, "run_experiment", lambda *a, **k: calls.append(a) or {"tasks": 0, "ran": 0}
    )
    monkeypatch.setattr(study, "table3_markdown", lambda *a, **k: "")
    monkeypatch.setattr("skewlearn.experiments.report.build_reports", lambda db: [])
    monkeypatch.setattr("skewlearn.experiments.report.to_markdown", lambda r: "")
    assert study.main(["--repeats", "26", "--skip-table4", "--md", str(tmp_path / "s.md"),
                       "--db", str(tmp_path / "t.sqlite")]) == 0  # fmt: skip
    assert len(calls) == 1
    # session 25 (probe v): nor is --figures (no Figure 1 is drawn), a file there is no
    # error and no folder is made; no test held that condition
    taken = tmp_path / "taken"
    taken.write_text("a file\n", encoding="utf-8")
    assert study.main(["--skip-table4", "--figures", str(taken), "--md", str(tmp_path / "s.md"),
                       "--db", str(tmp_path / "t.sqlite")]) == 0  # fmt: skip
    assert taken.is_file() and len(calls) == 2


def test_json_on_the_engine_report_beside_md_is_refused_before_table3_runs(
    monkeypatch, tmp_path, capsys
):
    """Session 26: Table 3 writes the engine's report beside ``--md`` (``s.md`` ->
    ``s.engine.md``); ``--json s.engine.md`` passed the output checks and one file
    overwrote the other at the end. It is refused as two outputs on one file are."""
    from skewlearn.experiments import runner

    def never(*a, **k):
        raise AssertionError("Table 3 ran before the outputs were checked")

    monkeypatch.setattr(runner, "run_experiment", never)
    with pytest.raises(SystemExit) as err:
        study.main(["--md", str(tmp_path / "s.md"), "--json", str(tmp_path / "s.engine.md"),
                    "--db", str(tmp_path / "t.sqlite")])  # fmt: skip
    assert err.value.code == 2
    msg = capsys.readouterr().err
    assert "--json" in msg and "s.engine.md" in msg and "engine's report" in msg
    assert not (tmp_path / "t.sqlite").exists()
    # without Table 3 no engine report is written, so the name is free: Table 4 starts

    def table4(*a, **k):
        raise LookupError("Table 4 started")

    monkeypatch.setattr(study, "run_study", table4)
    with pytest.raises(LookupError, match="Table 4 started"):
        study.main(["--skip-table3", "--md", str(tmp_path / "s.md"), "--json",
                    str(tmp_path / "s.engine.md"), "--db", str(tmp_path / "t.sqlite")])  # fmt: skip


def test_jobs_zero_is_a_usage_error(tmp_path, capsys):
    """Session 18: ``--jobs 0`` reached the runner and stopped with a ValueError
    traceback; it is refused as the ``skewlearn run`` command refuses it."""
    with pytest.raises(SystemExit) as err:
        study.main(["--jobs", "0", "--skip-table4", "--db", str(tmp_path / "t.sqlite"),
                    "--md", str(tmp_path / "s.md")])  # fmt: skip
    assert err.value.code == 2 and "0 workers cannot run anything" in capsys.readouterr().err


def test_table3_uses_the_experiment_reports_mean_and_std(tmp_path):
    """Table 3 prints the same mean ± std as the engine's report of the same runs (the
    sample std, ddof=1, over the finite values); a run without a value is counted."""
    from skewlearn.experiments.report import build_reports
    from skewlearn.experiments.store import ResultStore

    db = tmp_path / "r.sqlite"
    rng = np.random.default_rng(3)
    f = rng.uniform(0.5, 0.9, 5)
    vals = {("OCS1-h", r): (f[r], 0.9, 0.5) for r in range(5)}
    vals.update({("OCS2-h", r): (0.3, 0.8, float("nan") if r == 2 else 0.2 + r / 10)
                 for r in range(5)})  # fmt: skip
    with ResultStore(db) as store:
        _write(store, "omcsl_table3", vals)
    line = next(ln for ln in study.table3_markdown(db).splitlines() if ln.startswith("| OCS1-h |"))
    assert line.split(" | ")[1] == f"{f.mean():.4f} ± {np.std(f, ddof=1):.4f}"
    pr = [0.2, 0.3, 0.5, 0.6]
    line = next(ln for ln in study.table3_markdown(db).splitlines() if ln.startswith("| OCS2-h |"))
    assert (
        line.split(" | ")[3].rstrip(" |")
        == f"{np.mean(pr):.4f} ± {np.std(pr, ddof=1):.4f} (4 of 5 runs)"
    )
    # the engine's own table of the same runs: the same numbers (3 digits there)
    (rep,) = build_reports(db, "omcsl_table3")
    tables = {t.metric: t for t in rep.tables}
    assert tables["f1"].std["letter", "OCS1-h"] == pytest.approx(np.std(f, ddof=1), rel=1e-12)
    assert tables["pr_auc"].std["letter", "OCS2-h"] == pytest.approx(np.std(pr, ddof=1))


def test_figure1_mean_leaves_out_the_splits_where_a_checkpoint_is_undefined(monkeypatch):
    """Session 19: Figure 1 averaged the splits' curves with a plain sum, so a checkpoint
    undefined in one split (no positive seen yet: NaN) was NaN in the mean of all; the
    experiment report's curves take the mean over the splits that have a value."""
    curves = iter([np.array([np.nan, 0.2, 0.4]), np.array([0.5, 0.4, 0.6])])

    def fake_split(X, y, **kw):
        return {"table4": {}, "curves": {"f1": {"OMCSL-h": next(curves)}},
                "checkpoints": np.array([10, 20, 30])}  # fmt: skip

    monkeypatch.setattr(study, "study_split", fake_split)
    res = study.run_study(["satimage"], 2, log=lambda *_: None)
    np.testing.assert_allclose(res["satimage"]["curves"]["f1"]["OMCSL-h"], [0.5, 0.3, 0.5])


def test_main_refuses_a_summary_over_its_database_before_running(tmp_path, capsys):
    """Session 19: ``--md`` (or ``--json``) naming the results database was written over
    it at the end of the run, hours later, destroying Table 3's results; it is refused
    first, as `skewlearn report` refuses it."""
    from skewlearn.experiments.store import ResultStore

    db = tmp_path / "r.sqlite"
    ResultStore(db).close()
    before = db.read_bytes()
    for flag in ("--md", "--json"):
        argv = ["--skip-table3", "--skip-table4", "--db", str(db), flag, str(db)]
        if flag == "--json":
            argv += ["--md", str(tmp_path / "s.md")]
        with pytest.raises(SystemExit):
            study.main(argv)
        assert "is the results database" in capsys.readouterr().err
    assert db.read_bytes() == before


def test_main_checks_the_figures_folder_and_the_summary_paths_before_running(
    monkeypatch, tmp_path, capsys
):
    """Session 25: ``--figures`` naming a file, or ``--md``/``--json`` in a folder that did
    not exist, failed with a traceback when written, after Tables 3 and 4 (hours, and Table
    4's values are kept nowhere else); ``--md -`` wrote a file named '-'. The folders are
    now made first (as ``reproduce --html``'s is), and a file or '-' refused."""
    from skewlearn.experiments import runner

    def never(*a, **k):
        raise AssertionError("ran before the outputs were checked")

    monkeypatch.setattr(runner, "run_experiment", never)
    monkeypatch.setattr(study, "run_study", never)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").write_text("a file\n", encoding="utf-8")
    for argv, message in (
        (["--figures", "taken"], "--figures 'taken' is a file"),
        (["--md", "-"], "--md '-'"),
    ):
        with pytest.raises(SystemExit) as err:
            study.main([*argv, "--db", str(tmp_path / "t.sqlite")])
        assert err.value.code == 2
        assert message in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
    md, js = tmp_path / "new" / "s.md", tmp_path / "other" / "t.json"

    def no_dataset(*a, **k):  # Table 4 of no dataset, once every folder is there
        assert md.parent.is_dir() and js.parent.is_dir() and (tmp_path / "figs" / "one").is_dir()
        return {}

    monkeypatch.setattr(study, "run_study", no_dataset)
    argv = ["--skip-table3", "--db", str(tmp_path / "t.sqlite"), "--md", str(md), "--json", str(js)]
    assert study.main([*argv, "--figures", str(tmp_path / "figs" / "one")]) == 0
    assert md.is_file() and js.read_text(encoding="utf-8") == "{}"
    assert (tmp_path / "figs" / "one").is_dir()


def test_a_usage_error_makes_no_output_folder(monkeypatch, tmp_path, capsys):
    """Session 25 (probe v): the output folders were made before the dataset names, the
    split count and the tuned database were checked, so a misspelt name left ``figures/``
    (the default) and the folders of ``--md``/``--json`` behind, in the current folder
    of whoever ran it (the test suite's own runs left ``figures/`` in the checkout)."""
    from skewlearn.experiments import runner

    def never(*a, **k):
        raise AssertionError("ran before the arguments were checked")

    monkeypatch.setattr(runner, "run_experiment", never)
    monkeypatch.setattr(study, "run_study", never)
    monkeypatch.chdir(tmp_path)
    outputs = ["--md", "new/s.md", "--json", "other/t.json", "--db", "t.sqlite"]
    for argv, message in (
        (["--datasets", "satimag"], "unknown dataset 'satimag'"),
        (["--repeats", "26"], "n_repeats must be a whole number of splits"),
        (["--tuned", "--skip-table3"], "needs the tuned table's database"),
    ):
        with pytest.raises(SystemExit) as err:
            study.main([*argv, *outputs])
        assert err.value.code == 2
        assert message in capsys.readouterr().err
        assert list(tmp_path.iterdir()) == [], argv
    # session 26 (probe q): a refused --figures (a file, a folder that cannot be made) is a
    # usage error too, and the --md/--json folders were made before it and left behind
    (tmp_path / "taken").write_text("a file\n", encoding="utf-8")
    for figures, message in (("taken", "is a file"), ("taken/figs", "cannot make the folder")):
        with pytest.raises(SystemExit) as err:
            study.main(["--figures", figures, *outputs])
        assert err.value.code == 2
        assert message in capsys.readouterr().err
        assert [p.name for p in tmp_path.iterdir()] == ["taken"], figures


def test_the_table_readers_refuse_a_missing_database_and_create_none(tmp_path):
    """Session 19: chosen_steps and the Table 3 readers opened the database for writing,
    so a mistyped path created an empty database and the tables came out empty, silently.
    They read it read-only now: a missing path is named, and no file appears."""
    missing = tmp_path / "omcsl_table3_tunde.sqlite"
    for read in (study.chosen_steps, study.table3_markdown, study.steps_markdown):
        with pytest.raises(FileNotFoundError, match="no results database"):
            read(missing)
    assert list(tmp_path.iterdir()) == []


def _table4_results():
    """Two (loss, measure) cells of Table 4 by hand: errors 0, 0.05, 0.1 (mean 0.05, two
    splits within 0.05) and 0.02, 0.1 (mean 0.06, one within), with ĉ+ and c+* apart."""
    rows_f = [
        dict(error=0.0, c_hat=0.55, c_star=0.55, eta=0.1),
        dict(error=0.05, c_hat=0.6, c_star=0.65, eta=0.1),
        dict(error=0.1, c_hat=0.65, c_star=0.75, eta=0.1),
    ]
    rows_pr = [
        dict(error=0.02, c_hat=0.9, c_star=0.92, eta=0.1),
        dict(error=0.1, c_hat=0.85, c_star=0.95, eta=0.1),
    ]
    table4 = {("hinge", "f1"): rows_f, ("logistic", "auprc"): rows_pr}
    curves = {m: {"OMCSL-h": np.array([0.5, 0.6])} for m in study.MEASURES}
    return {"letter": {"table4": table4, "curves": curves, "checkpoints": np.arange(2)}}


def test_table4_markdown_and_the_summary_count_by_hand(monkeypatch, tmp_path):
    """Session 24: nothing failed when Table 4 printed the largest error instead of the
    mean, counted every split as within 0.05, swapped the ĉ+ and c+* columns, or when the
    summary's "within 0.05 in k of n cells" counted with another threshold or statistic."""
    results = _table4_results()
    text = study.table4_markdown(results, show_eta=True)
    assert "| letter | hinge | F-measure | 0.050 | 2/3 | 0.600 | 0.650 | 0.1 |" in text
    assert "| letter | logistic | AUPRC | 0.060 | 1/2 | 0.875 | 0.935 | 0.1 |" in text
    monkeypatch.setattr(study, "run_study", lambda *a, **k: results)
    md = tmp_path / "s.md"
    argv = ["--skip-table3", "--datasets", "letter", "--figures", str(tmp_path), "--md", str(md),
            "--db", str(tmp_path / "none.sqlite")]  # fmt: skip
    assert study.main(argv) == 0
    assert "Mean error within 0.05 in 1 of 2 (dataset, loss, measure) cells." in md.read_text()


def test_must_show_means_over_all_runs_and_pairs_only_the_shared_ones(tmp_path):
    """Session 24: the checks' means were not tested beyond two runs (a median passed), and
    the paired t-test's pairing by repetition was not tested with a run missing."""
    from scipy.stats import ttest_rel

    from skewlearn.experiments.store import ResultStore

    db = tmp_path / "r.sqlite"
    vals = {
        ("OMCSL-F-h", 0): (0.9, 0.9, 0.7),
        ("OMCSL-F-h", 1): (0.6, 0.9, 0.7),
        ("OMCSL-F-h", 2): (0.5, 0.9, 0.7),
        ("OCS1-h", 0): (0.62, 0.5, 0.6),
        ("OCS1-h", 1): (0.64, 0.5, 0.6),
        ("OCS2-h", 0): (0.2, 0.5, 0.2),
        ("OCS2-h", 1): (0.2, 0.5, 0.2),
        ("OCS2-h", 2): (0.2, 0.5, 0.2),
    }
    with ResultStore(db) as store:
        _write(store, "omcsl_table3", vals)
    checks = study.must_show(db, None)
    # OMCSL's F mean 0.6667 (median 0.6) is ahead of OCS1's 0.63; the t-test pairs reps 0, 1
    t = ttest_rel([0.9, 0.6], [0.62, 0.64])
    want = f"| letter | h | F-measure | 0.6667 | 0.6300 | 0.2000 | yes | +0.1200 ({t.pvalue:.2g}) |"
    assert want in checks
