"""A leading ``~`` in a file path is the home folder, as the shell, pandas and numpy read
it, at every entry point that takes a path: the readers, ``load``, ``iter_chunks``, the
results database, experiment files (and data files they name), and every file option of
the command line. Before session 19 ``~/x.csv`` was "no such file" and ``~/r.sqlite`` was
written under a folder named ``~`` in the working folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from skewlearn import datasets

DATA = Path(__file__).parent / "data"
CSV_TEXT = "a,b,label\n" + "".join(
    f"{i % 7},{(3 * i) % 5},{'rare' if i % 6 == 0 else 'common'}\n" for i in range(60)
)


@pytest.fixture
def home(tmp_path, monkeypatch):
    """HOME is a fresh folder holding x.csv and x.svm; the working folder is another one,
    which must stay empty (no folder named '~')."""
    h = tmp_path / "home"
    work = tmp_path / "work"
    h.mkdir()
    work.mkdir()
    (h / "x.csv").write_text(CSV_TEXT, encoding="utf-8")
    (h / "x.svm").write_text("1 1:1 2:2\n-1 1:3\n-1 2:1\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.chdir(work)
    assert os.path.expanduser("~/x.csv") == str(h / "x.csv")
    yield h
    assert not (work / "~").exists(), "something was written under a folder named '~'"


def test_readers_load_and_chunks_expand_the_home_folder(home):
    X, y, _ = datasets.read_csv(home / "x.csv")
    for got in (datasets.read_csv("~/x.csv"), datasets.read("~/x.csv"), datasets.load("~/x.csv")):
        np.testing.assert_array_equal(got[0], X)
    Xs, ys, _ = datasets.read_libsvm("~/x.svm")
    np.testing.assert_array_equal(ys, [1, -1, -1])
    rows = sum(len(yc) for _, yc in datasets.iter_chunks("~/x.csv", chunk_size=7))
    assert rows == 60 == len(y)


def test_results_database_and_experiment_files_expand_the_home_folder(home):
    from skewlearn.experiments.config import load_experiment
    from skewlearn.experiments.runner import run_experiment
    from skewlearn.experiments.store import ResultStore, check_results_db

    (home / "e.toml").write_text(
        'name = "e"\nseed = 0\nmetrics = ["roc_auc"]\ndatasets = ["~/x.csv"]\n'
        '[protocol]\nkind = "kfold"\nn_splits = 2\n'
        '[[estimators]]\nclass = "PassiveAggressive"\n',
        encoding="utf-8",
    )
    exp = load_experiment("~/e.toml")
    run_experiment(exp, "~/r.sqlite", n_jobs=1, progress=False)
    assert (home / "r.sqlite").is_file()
    assert check_results_db("~/r.sqlite") == home / "r.sqlite"
    with ResultStore("~/r.sqlite") as store:
        assert len(store.rows("e")) == 2
        store.to_csv("~/rows.csv")
    assert (home / "rows.csv").read_text(encoding="utf-8").startswith("task_key,")


def test_command_line_file_options_expand_the_home_folder(home, capsys):
    from skewlearn.cli import main

    shutil.copy(DATA / "cli_stream.csv", home / "s.csv")
    argv = ["stream", "--model", "PassiveAggressive", "--no-progress"]
    assert main([*argv, "--save=~/m.pkl", "~/s.csv"]) == 0
    assert (home / "m.pkl").is_file()
    assert main(["predict", "~/m.pkl", "~/s.csv", "--scores=~/scores.csv"]) == 0
    assert (home / "scores.csv").read_text(encoding="utf-8").startswith("score,positive\n")
    # an output onto the input is still refused when both are spelt with '~'
    with pytest.raises(SystemExit):
        main(["predict", "~/m.pkl", "~/s.csv", "--scores=~/s.csv"])
    assert "would replace it" in capsys.readouterr().err
    (home / "e.toml").write_text(
        'name = "e"\nseed = 0\nmetrics = ["roc_auc"]\ndatasets = ["~/s.csv"]\n'
        '[protocol]\nkind = "kfold"\nn_splits = 2\n'
        '[[estimators]]\nclass = "PassiveAggressive"\n',
        encoding="utf-8",
    )
    assert main(["run", "~/e.toml", "--jobs", "1", "--db=~/r.sqlite", "--no-progress"]) == 0
    assert main(["report", "~/r.sqlite", "--md=~/r.md", "--csv=~/r.csv"]) == 0
    assert (home / "r.md").read_text(encoding="utf-8").startswith("# ")
    assert (home / "r.csv").is_file()
