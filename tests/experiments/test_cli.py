"""The run / report / reproduce subcommands, standalone and registered on a parent parser."""

from __future__ import annotations

import argparse

from skewlearn.experiments import ResultStore
from skewlearn.experiments.cli import main, register, shipped_experiments


def test_run_then_report(toy_file, tmp_path, capsys):
    db = tmp_path / "toy.sqlite"
    assert main(["run", str(toy_file), "--jobs", "1", "--db", str(db), "--no-progress"]) == 0
    assert "36 tasks, 0 already done, 36 run now" in capsys.readouterr().out
    assert main(["run", str(toy_file), "-j", "1", "--db", str(db), "--no-progress"]) == 0
    assert "36 already done, 0 run now" in capsys.readouterr().out
    html, md, csv = tmp_path / "r.html", tmp_path / "r.md", tmp_path / "r.csv"
    args = ["report", str(db), "--html", str(html), "--md", str(md), "--csv", str(csv)]
    assert main(args) == 0
    assert html.read_text().count("<table>") == 3
    assert "## roc_auc" in md.read_text()
    with ResultStore(db) as s:
        assert len(csv.read_text().splitlines()) == len(s) + 1
    assert main(["report", str(db)]) == 0
    assert "| dataset | Ridge | Perceptron | PA |" in capsys.readouterr().out


def test_errors_exit_2_with_a_message(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\ndatasets = ["a"]\n[[estimators]]\nclass = "Nope"\n')
    assert main(["run", str(bad), "--no-progress"]) == 2
    assert "estimators[0].class: unknown estimator 'Nope'" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "none.sqlite")]) == 2
    assert main(["reproduce", "no_such_table", "--no-progress"]) == 2
    assert "no shipped reproduction 'no_such_table'" in capsys.readouterr().err


def test_reproduce_lists_the_shipped_files(capsys):
    assert main(["reproduce"]) == 0
    out = capsys.readouterr().out
    for name in shipped_experiments():
        assert name in out


def test_register_on_a_parent_parser():
    parser = argparse.ArgumentParser(prog="skewlearn")
    sub = parser.add_subparsers(dest="command")
    register(sub)
    args = parser.parse_args(["run", "exp.toml", "--jobs", "2", "--scheduler", "tcp://h:8786"])
    assert (args.experiment, args.jobs, args.scheduler) == ("exp.toml", 2, "tcp://h:8786")
    args = parser.parse_args(["report", "r.sqlite", "--html", "r.html"])
    assert args.func.__name__ == "_cmd_report" and args.html == "r.html"


def test_repeats_cuts_the_protocol_and_a_later_run_adds_the_rest(toy_file, tmp_path, capsys):
    db = tmp_path / "toy.sqlite"
    args = ["run", str(toy_file), "-j", "1", "--db", str(db), "--no-progress"]
    assert main([*args, "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "toy (CUT: 1 of the protocol's 2 repetitions): 18 tasks, 0 already done" in out
    with ResultStore(db) as s:
        assert len(s) == 18
    assert main(args) == 0
    assert "36 tasks, 18 already done, 18 run now" in capsys.readouterr().out
    assert main([*args, "--repeats", "0"]) == 2
    assert "repeats must be >= 1" in capsys.readouterr().err
