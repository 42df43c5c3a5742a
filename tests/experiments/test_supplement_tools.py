"""The supplement tools that docs/results/nystrom.md (§2b, §2c) and docs/results/omcsl.md
(§4d) run on results databases (tools/nystrom_supplement.py, tools/omcsl_scaled.py): a
database that does not hold what the tool reads is named in one line, not a traceback or a
table of empty cells."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from skewlearn.experiments.config import load_experiment
from skewlearn.experiments.store import ResultStore

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def _db(path: Path, experiment: str, methods, datasets, repetitions=2, folds=1) -> Path:
    """A results database of ``experiment``: every method on every dataset, G-mean, AUC,
    F1, AUPRC moved a little by run, and each method's first grid value as its params."""
    with ResultStore(path) as s:
        s.save_experiment(experiment, {"name": experiment})
        for i, m in enumerate(methods):
            for d in datasets:
                for rep in range(repetitions):
                    for fold in range(folds):
                        v = 0.6 + 0.01 * i + 0.003 * rep + 0.001 * fold
                        s.write(
                            dict(
                                task_key=f"{experiment}|{m}|{d}|{rep}|{fold}",
                                experiment=experiment,
                                dataset=d,
                                method=m,
                                repetition=rep,
                                fold=fold,
                                seed=0,
                                params={"C": 1.0, "rank": 5},
                                metrics={"gmean": v, "roc_auc": v, "f1": v, "pr_auc": v},
                            )
                        )
    return path


def _run(tmp_path, tool, *args):
    return subprocess.run(
        [sys.executable, str(TOOLS / tool), *map(str, args)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def _names(experiment):
    exp = load_experiment(experiment)
    return [e.name for e in exp.estimators], [d.name for d in exp.datasets]


def _dbs(tmp_path, *experiments):
    """A database per experiment, each with its file's methods and datasets."""
    return [_db(tmp_path / f"{e}.sqlite", e, *_names(e)) for e in experiments]


@pytest.fixture
def nystrom_dbs(tmp_path):
    return _dbs(tmp_path, "nystrom_table2_tuned_c", "nystrom_table2")


def test_nystrom_supplement_reads_a_supplement_beside_table2(tmp_path, nystrom_dbs):
    tuned, table2 = nystrom_dbs
    done = _run(tmp_path, "nystrom_supplement.py", tuned, table2)
    assert done.returncode == 0, done.stderr[-800:]
    assert "### gmean: nystrom_table2_tuned_c (Table 2 in brackets)" in done.stdout
    assert "multi >= Nystrom (mean gmean): 8 of 8" in done.stdout


def test_nystrom_supplement_with_the_databases_swapped(tmp_path, nystrom_dbs):
    """Session 26: Table 2's database first (the supplement second) stopped with a
    ``KeyError`` traceback after printing a table's header."""
    tuned, table2 = nystrom_dbs
    done = _run(tmp_path, "nystrom_supplement.py", table2, tuned)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert (
        f"{table2} holds the results of nystrom_table2, not of a supplement to Table 2 "
        "(nystrom_table2_tuned_c or nystrom_table2_tuned_rank)"
    ) in done.stderr
    assert done.stdout == ""


def test_nystrom_supplement_with_table2_missing_a_method(tmp_path, nystrom_dbs):
    """A Table 2 database without one of the supplement's methods (or folds) was a
    ``KeyError`` traceback; the supplement's folds must all be in Table 2's database."""
    tuned, _ = nystrom_dbs
    _, datasets = _names("nystrom_table2")
    partial = _db(tmp_path / "partial.sqlite", "nystrom_table2", ["SVM", "Nystrom"], datasets)
    done = _run(tmp_path, "nystrom_supplement.py", tuned, partial)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert (
        f"{partial} holds no result of multi-Nystrom on page-blocks0 for the supplement's folds"
    ) in done.stderr


@pytest.fixture
def omcsl_dbs(tmp_path):
    return _dbs(tmp_path, "omcsl_table3_scaled", "omcsl_table3")


def test_omcsl_scaled_reads_the_supplement(tmp_path, omcsl_dbs):
    scaled, table3 = omcsl_dbs
    done = _run(tmp_path, "omcsl_scaled.py", scaled)
    assert done.returncode == 0, done.stderr[-800:]
    assert "OMCSL ahead of OCS1 and OCS2 on AUPRC: τ = 1 in 0 of 8 cells" in done.stdout


def test_omcsl_scaled_with_table3_in_the_supplements_place(tmp_path, omcsl_dbs):
    """Session 26: omcsl_table3's database first (a lone experiment is read whatever its
    name) printed numpy's "Mean of empty slice" warnings, then "paired_ttest needs at least
    2 paired runs; got 0", which does not say which file is wrong."""
    scaled, table3 = omcsl_dbs
    done = _run(tmp_path, "omcsl_scaled.py", table3, scaled)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert "RuntimeWarning" not in done.stderr
    assert (
        f"{table3} holds no result of OMCSL-AUROC-h-scaled on flights; give the database of "
        "`skewlearn reproduce omcsl_table3_scaled` first"
    ) in done.stderr
