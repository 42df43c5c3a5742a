"""The runner: same numbers on every backend, resume after kill -9, data loaded once."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from skewlearn.experiments import (
    ResultStore,
    expand_tasks,
    load_experiment,
    run_experiment,
    run_task,
)
from skewlearn.experiments import runner as runner_mod

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(autouse=True)
def _keep_environment():
    """A process LocalCluster writes OPENBLAS_NUM_THREADS=1, PYTHONHASHSEED and more into
    this process's os.environ; later tests' subprocesses would inherit them (the
    cross-process determinism test then compared 1-thread BLAS with this process's)."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def _results(db):
    with ResultStore(db) as s:
        return {r["task_key"]: (r["metrics"], r["params"]) for r in s.rows()}


def test_same_numbers_in_process_local_processes_and_dask(toy_file, tmp_path):
    from distributed import Client, LocalCluster

    exp = load_experiment(toy_file)
    n = len(expand_tasks(exp))
    assert n == 2 * 2 * 3 * 3  # datasets × repeats × folds × estimators
    run_experiment(exp, tmp_path / "seq.db", n_jobs=1, progress=False)
    run_experiment(exp, tmp_path / "loky.db", n_jobs=2, progress=False)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        out = run_experiment(
            exp, tmp_path / "dask.db", scheduler=cluster.scheduler_address, progress=False
        )
    assert out == {"tasks": n, "skipped": 0, "ran": n, "failed": 0}
    seq = _results(tmp_path / "seq.db")
    assert len(seq) == n
    assert _results(tmp_path / "loky.db") == seq
    assert _results(tmp_path / "dask.db") == seq
    # the grid search picked a C from the grid, and the metrics are real numbers
    for metrics, params in seq.values():
        assert 0.0 <= metrics["roc_auc"] <= 1.0 and 0.0 <= metrics["gmean"] <= 1.0
        assert set(params) <= {"C", "alpha"}


def test_scheduler_from_environment(toy_file, tmp_path, monkeypatch):
    from distributed import LocalCluster

    exp = load_experiment(toy_file)
    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", cluster.scheduler_address)
        run_experiment(exp, tmp_path / "env.db", progress=False)
    with ResultStore(tmp_path / "env.db") as s:
        assert len(s) == len(expand_tasks(exp))
        # the dask workers ran in this process (processes=False): the host says so
        assert {r["host"].rsplit(":", 1)[1] for r in s.rows()} == {str(os.getpid())}


def test_a_given_client_is_used_and_a_one_thread_cluster_runs_the_tasks(toy_file, tmp_path):
    """The tasks run on the worker of the Client passed, not on another cluster's (the
    default client) nor in this process (joblib's dask backend ran a one-thread cluster's
    tasks here, sequentially)."""
    from distributed import Client, LocalCluster

    exp = load_experiment(toy_file)
    kw = {"n_workers": 1, "threads_per_worker": 1, "processes": True, "dashboard_address": None}
    with LocalCluster(**kw) as ca, LocalCluster(**kw) as cb, Client(cb) as b, Client(ca) as a:
        (pid_b,) = b.run(os.getpid).values()
        assert pid_b not in a.run(os.getpid).values()
        run_experiment(exp, tmp_path / "b.db", scheduler=b, progress=False, repeats=1)
    with ResultStore(tmp_path / "b.db") as s:
        assert len(s) == len(expand_tasks(exp)) // 2
        assert {r["host"].rsplit(":", 1)[1] for r in s.rows()} == {str(pid_b)}
    assert _results(tmp_path / "b.db").items() <= _seq_results(exp, tmp_path).items()


def _seq_results(exp, tmp_path):
    run_experiment(exp, tmp_path / "seq.db", n_jobs=1, progress=False, repeats=1)
    return _results(tmp_path / "seq.db")


def test_a_scheduler_without_workers_or_unreachable_says_so(toy_file, tmp_path, monkeypatch):
    from distributed import LocalCluster

    monkeypatch.setattr(runner_mod, "WORKER_TIMEOUT", 2)
    exp = load_experiment(toy_file)
    with LocalCluster(n_workers=0, dashboard_address=None) as cluster:
        with pytest.raises(TimeoutError, match=r"has no worker after 2 s\. Start one"):
            run_experiment(exp, tmp_path / "x.db", scheduler=cluster.scheduler_address)
    with pytest.raises(OSError, match=r"cannot reach the Dask scheduler at .tcp://127\.0\.0\.1:9."):
        run_experiment(exp, tmp_path / "y.db", scheduler="tcp://127.0.0.1:9")


def test_a_scheduler_that_accepts_but_never_answers_times_out(toy_file, tmp_path, monkeypatch):
    """Session 17: an address whose server accepts the connection and then says nothing
    (another service on that port, a hung scheduler, a proxy) hung the run for ever:
    distributed's Client waits for the handshake without a time limit, whatever its
    ``timeout``."""
    import socket
    import threading

    monkeypatch.setattr(runner_mod, "WORKER_TIMEOUT", 2)
    exp = load_experiment(toy_file)
    with socket.create_server(("127.0.0.1", 0)) as silent:
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        outcome = []

        def run():
            try:
                run_experiment(exp, tmp_path / "x.db", scheduler=address, progress=False)
            except BaseException as exc:  # handed to the test thread
                outcome.append(exc)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(30)  # the limit is 2 s; 30 s means it hung
        assert not thread.is_alive(), "the run hung on a scheduler that never answers"
    assert len(outcome) == 1 and isinstance(outcome[0], OSError)
    match = r"cannot reach the Dask scheduler at .tcp://127\.0\.0\.1:\d+.: no answer within 1 s"
    assert re.match(match, str(outcome[0]))


def test_a_malformed_scheduler_address_names_its_source(toy_file, tmp_path, monkeypatch):
    """Session 14: DASK_SCHEDULER_ADDRESS=localhost (no port) stopped `run` with
    distributed's bare "missing port number in address 'localhost'", naming neither the
    scheduler nor the variable it came from."""
    exp = load_experiment(toy_file)
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "localhost")
    match = r"'localhost' is not a Dask .*\(DASK_SCHEDULER_ADDRESS is set to it\), or leave"
    with pytest.raises(ValueError, match=match):
        run_experiment(exp, tmp_path / "x.db", progress=False)
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS")
    match = r"'foo://x:1' is not a Dask .*\(unknown address scheme 'foo'.*tcp://host:8786 with"
    with pytest.raises(ValueError, match=match):
        run_experiment(exp, tmp_path / "y.db", scheduler="foo://x:1", progress=False)


@pytest.mark.parametrize("address", ["tcp//localhost:8786", "tcp//10.0.0.1:8786"])
def test_a_mistyped_tcp_scheme_is_refused_at_once(toy_file, tmp_path, monkeypatch, address):
    """Session 24: without "://" distributed takes the whole text for a tcp host, so
    ``tcp//localhost:8786`` was tried as host "tcp//localhost" for the whole timeout (30 s),
    then reported as unreachable (or as a server that accepted and said nothing)."""
    monkeypatch.setattr(runner_mod, "WORKER_TIMEOUT", 2)
    match = rf"'{address}' is not a Dask scheduler address \(its host '\S+' holds a '/'"
    with pytest.raises(ValueError, match=match):
        run_experiment(toy_file, tmp_path / "x.db", scheduler=address, progress=False)


def test_a_scheduler_nobody_answers_at_is_not_called_silent(monkeypatch):
    """Session 24: the check gave distributed's ``connect`` the same time limit as its own
    wait for the handshake, so an address where nothing accepts (a closed port, a host
    that does not resolve) was reported, in about one try of five, as "a server there
    accepted the connection but sent nothing". A ``connect`` that gives up exactly at its
    limit, as distributed's does, makes the race certain."""
    import asyncio

    import distributed.comm

    async def connect(address, timeout):
        await asyncio.sleep(timeout)
        raise OSError(f"Timed out trying to connect to {address} after {timeout} s")

    monkeypatch.setattr(distributed.comm, "connect", connect)
    with pytest.raises(OSError, match=r"Timed out trying to connect to tcp://127\.0\.0\.1:9"):
        runner_mod._check_answers("tcp://127.0.0.1:9", 0.2)


def test_dataset_is_loaded_once_per_process(toy_file, monkeypatch):
    exp = load_experiment(toy_file)
    calls = []
    real = runner_mod._minority_positive
    monkeypatch.setattr(runner_mod, "_DATASETS", {})
    monkeypatch.setattr(runner_mod, "_minority_positive", lambda y: calls.append(1) or real(y))
    tasks = [t for t in expand_tasks(exp) if t.dataset.name == "a"][:4]
    rows = [run_task(t) for t in tasks]
    assert len(calls) == 1 and len(runner_mod._DATASETS) == 1
    assert rows[0]["metrics"] == run_task(tasks[0])["metrics"]  # deterministic


def test_killed_run_resumes_with_one_row_per_task(toy_file, tmp_path):
    # more, slower tasks: a 6-point grid for LR, 4 repetitions
    text = (
        toy_file.read_text()
        .replace("n_repeats = 2", "n_repeats = 4")
        .replace('grid = {C = "10^[-2:1]"}', 'grid = {C = "10^[-3:2]"}')
    )
    toy_file.write_text(text)
    db = tmp_path / "killed.db"
    code = textwrap.dedent(
        f"""
        from skewlearn.experiments import run_experiment
        run_experiment({str(toy_file)!r}, {str(db)!r}, n_jobs=1, progress=False)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    n = len(expand_tasks(load_experiment(toy_file)))
    deadline = time.time() + 60
    before = 0
    while time.time() < deadline:
        if db.exists():
            with ResultStore(db) as s:
                before = len(s)
            if before >= 5:
                break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with ResultStore(db) as s:
        before = len(s)
    assert 5 <= before < n, "the run should have been killed part-way"
    out = run_experiment(toy_file, db, n_jobs=1, progress=False)
    assert out["skipped"] == before and out["ran"] == n - before
    with ResultStore(db) as s:
        keys = [r["task_key"] for r in s.rows()]
    assert len(keys) == n == len(set(keys))
    assert set(keys) == {t.key for t in expand_tasks(load_experiment(toy_file))}


def test_prequential_experiment_stores_the_stream(tmp_path):
    path = tmp_path / "stream.toml"
    path.write_text(
        textwrap.dedent(
            """
            name = "stream"
            metrics = ["roc_auc", "f1"]
            [[datasets]]
            name = "s"
            generator = "make_classification"
            params = {n_samples = 300, weights = [0.9], random_state = 4}
            [protocol]
            kind = "prequential"
            n_repeats = 2
            shuffle = true
            checkpoints = 10
            [[estimators]]
            class = "Perceptron"
            """
        )
    )
    run_experiment(path, tmp_path / "s.db", n_jobs=1, progress=False)
    with ResultStore(tmp_path / "s.db") as s:
        rows = s.rows()
    assert len(rows) == 2 and rows[0]["metrics"] != rows[1]["metrics"]  # two shuffles
    stream = rows[0]["extra"]["stream"]
    assert stream["position"][-1] == 300 and len(stream["f1"]) == 10
    assert np.isclose(stream["roc_auc"][-1], rows[0]["metrics"]["roc_auc"])


def test_a_balanced_generator_takes_the_larger_label_as_positive_like_a_file(tmp_path):
    """Session 11: on a class tie the runner made the *smaller* label +1 for a generator
    dataset, while ``datasets.load`` makes the larger one +1 for the same labels in a file
    (scikit-learn's ``classes_[1]``)."""
    import sklearn.datasets

    from skewlearn.datasets import load
    from skewlearn.experiments.config import DatasetSpec
    from skewlearn.experiments.runner import load_dataset

    params = {"n_samples": 40, "n_features": 4, "n_informative": 2, "random_state": 0}
    _, labels = sklearn.datasets.make_classification(**params)
    assert (labels == 0).sum() == (labels == 1).sum()
    path = tmp_path / "tie.csv"
    path.write_text("a,label\n" + "".join(f"{i},{c}\n" for i, c in enumerate(labels)))
    _, y_file, meta = load(path)
    assert meta["positive_class"] == 1
    _, y = load_dataset(DatasetSpec(name="tie", generator="make_classification", params=params))
    np.testing.assert_array_equal(y, y_file)


def test_a_dense_only_learner_gets_a_libsvm_file_as_a_dense_matrix(tmp_path):
    """Session 11: a LIBSVM file loads as CSR; KernelASLS (dense only) raised scikit-learn's
    TypeError 'Sparse data was passed', which is not a task failure, so the whole run
    died with a traceback. Now it gets a dense copy: the same numbers as the same table
    read from a CSV file."""
    from skewlearn.experiments import parse_experiment

    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(60, 3)), 3)
    X[X == 0] = 0.5  # every value stored, so both files have the same width
    y = np.where(X[:, 0] + rng.normal(scale=0.5, size=60) > 0.8, 1, -1)
    svm, csv = tmp_path / "t.svm", tmp_path / "t.csv"
    svm.write_text("".join(f"{t} " + " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(row)) + "\n"
                           for row, t in zip(X.tolist(), y)))  # fmt: skip
    csv.write_text("a,b,c,y\n" + "".join(",".join(map(repr, row)) + f",{t}\n"
                                         for row, t in zip(X.tolist(), y)))  # fmt: skip
    rows = {}
    for path in (svm, csv):
        exp = parse_experiment({
            "name": "dense", "seed": 1, "metrics": ["roc_auc", "gmean"],
            "datasets": [{"name": "d", "source": str(path)}],
            "protocol": {"kind": "kfold", "n_splits": 3},
            "estimators": [{"name": "K", "class": "KernelASLS"},
                           {"name": "P", "class": "ProximalSVMDEC", "params": {"kernel": "rbf"}},
                           {"name": "L", "class": "LinearASLS"}],
        })  # fmt: skip
        out = run_experiment(exp, tmp_path / f"{path.suffix[1:]}.sqlite", n_jobs=1,
                             progress=False)  # fmt: skip
        assert out["failed"] == 0 and out["ran"] == 9
        with ResultStore(tmp_path / f"{path.suffix[1:]}.sqlite") as store:
            rows[path.suffix] = {(r["method"], r["fold"]): r["metrics"] for r in store.rows()}
    assert rows[".svm"] == rows[".csv"]


def test_tasks_another_run_wrote_meanwhile_are_counted_apart(
    toy_file, tmp_path, monkeypatch, capsys
):
    """Session 14: two runs of one file into one database each computed every task; the one
    that wrote second said "36 tasks, 0 already done, 4 run now", leaving 32 tasks
    unaccounted for. The tasks the other run wrote first are now counted and named."""
    from skewlearn.experiments.cli import main as exp_main

    db = tmp_path / "shared.sqlite"
    real = runner_mod.run_task_or_failure
    other = {"n": 0}

    def and_another_run_writes_it_first(task):
        row = real(task)
        if task.repetition == 1 and not row.get("failed"):
            with ResultStore(db) as elsewhere:  # another process's connection
                assert elsewhere.write(row)
            other["n"] += 1
        return row

    monkeypatch.setattr(runner_mod, "run_task_or_failure", and_another_run_writes_it_first)
    out = run_experiment(load_experiment(toy_file), db, n_jobs=1, progress=False)
    n = len(expand_tasks(load_experiment(toy_file)))
    assert other["n"] == n // 2
    assert out == {"tasks": n, "skipped": 0, "ran": n - other["n"], "failed": 0,
                   "written_elsewhere": other["n"]}  # fmt: skip
    with ResultStore(db) as store:
        assert len(store) == n
    db = tmp_path / "shared2.sqlite"
    assert exp_main(["run", str(toy_file), "--db", str(db), "--jobs", "1", "--no-progress"]) == 0
    assert (
        f"{n} tasks, 0 already done, {n // 2} run now, {n // 2} finished meanwhile by another "
        "run into the same database (its rows kept)"
    ) in capsys.readouterr().out


def _relative_experiment(folder):
    """``folder/e.toml`` whose dataset is ``source = "data/x.csv"`` (relative), with the
    file at ``folder/data/x.csv``."""
    (folder / "data").mkdir(parents=True)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0.8).astype(int)
    lines = ["a,b,c,label"] + [",".join(f"{v:.5f}" for v in x) + f",{t}" for x, t in zip(X, y)]
    (folder / "data" / "x.csv").write_text("\n".join(lines) + "\n")
    exp_file = folder / "e.toml"
    exp_file.write_text(
        'name = "rel"\ndatasets = ["data/x.csv"]\n[protocol]\nn_splits = 2\n'
        '[[estimators]]\nclass = "Perceptron"\n'
    )
    return exp_file


def test_a_relative_data_file_not_found_says_where_it_was_looked_for(tmp_path, monkeypatch):
    """Session 14: `skewlearn run exps/e.toml` with source = "data/x.csv" next to the file
    said only "data/x.csv: no such file."; relative sources are read from the directory
    the run started in, and the message now says so (and which directory that is)."""
    exp_file = _relative_experiment(tmp_path / "exps")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match=r"data/x\.csv.* A relative source is read from "
                       r"the directory the run started in \(" + str(tmp_path)):  # fmt: skip
        run_experiment(exp_file, tmp_path / "r.db", n_jobs=1, progress=False)
    monkeypatch.chdir(tmp_path / "exps")
    out = run_experiment(exp_file, tmp_path / "r.db", n_jobs=1, progress=False)
    assert out["ran"] == 2


def test_a_relative_data_file_is_read_from_the_runs_directory_on_dask_workers(
    tmp_path, monkeypatch
):
    """Session 24: a relative ``source`` is read from the directory the run started in,
    where the run checks it; the tasks sent to Dask workers kept the relative path, so
    a worker started in another directory (``dask worker`` run elsewhere) failed the
    first task with "data/x.csv: no such file. A relative source is read from the
    directory the run started in (<the worker's directory>)", the run stopped, and the
    advice named a directory the run had not started in. The results and task keys
    equal an in-process run's."""
    from distributed import Client, LocalCluster

    exp_file = _relative_experiment(tmp_path / "run")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # the worker process starts here
    kw = {"n_workers": 1, "threads_per_worker": 1, "processes": True, "dashboard_address": None}
    with LocalCluster(**kw) as cluster, Client(cluster) as client:
        assert list(client.run(os.getcwd).values()) == [str(tmp_path / "elsewhere")]
        monkeypatch.chdir(tmp_path / "run")
        out = run_experiment(exp_file, tmp_path / "dask.db", scheduler=client, progress=False)
    assert out == {"tasks": 2, "skipped": 0, "ran": 2, "failed": 0}
    run_experiment(exp_file, tmp_path / "seq.db", n_jobs=1, progress=False)
    assert _results(tmp_path / "dask.db") == _results(tmp_path / "seq.db")


def test_the_workers_read_the_file_the_run_checked_through_a_symlink_and_dotdot(
    tmp_path, monkeypatch
):
    """Session 24 (probe w): the workers' path was ``os.path.abspath(source)``, which
    drops ``link/..`` as text; the system resolves ``link`` first, so ``link/../data/x.csv``
    with ``link -> other/sub`` is ``other/data/x.csv``. The run hashed and checked that
    file while joblib's and Dask's workers read ``data/x.csv``, another file (or none)."""
    from skewlearn import datasets

    _relative_experiment(tmp_path)  # tmp_path/data/x.csv: the file the text names
    (tmp_path / "other" / "sub").mkdir(parents=True)
    (tmp_path / "other" / "data").mkdir()
    lines = ["a,b,label"] + [f"{i},{i % 7},{int(i % 5 == 0)}" for i in range(40)]
    (tmp_path / "other" / "data" / "x.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "link").symlink_to("other/sub")
    (tmp_path / "e.toml").write_text(
        'name = "sym"\ndatasets = ["link/../data/x.csv"]\n[protocol]\nn_splits = 2\n'
        '[[estimators]]\nclass = "Perceptron"\n'
    )
    monkeypatch.chdir(tmp_path)
    (spec,) = runner_mod._check_datasets(load_experiment("e.toml"), keep=False).datasets
    opened = str(tmp_path / "other" / "data" / "x.csv")
    assert spec.digest == runner_mod.file_digest(opened) and os.path.isabs(spec.path)
    monkeypatch.setattr(runner_mod, "_DATASETS", {})  # as in a worker process
    monkeypatch.chdir(tmp_path / "other")  # started in another directory
    X, y = runner_mod.load_dataset(spec)
    X_opened, y_opened, _ = datasets.load(opened)
    assert X.shape == (40, 2) and np.array_equal(X, X_opened) and np.array_equal(y, y_opened)


def test_a_worker_on_another_machine_reads_its_copy_of_a_relative_data_file(tmp_path, monkeypatch):
    """Session 24 (probe w): the workers get the absolute path the run checked, which a
    worker on another machine need not have; until then a relative source was read from
    each worker's directory, so a copy of the project there worked. A worker without
    the checked path reads the source from its own directory again, if that file has the
    contents the run hashed; otherwise the run stops saying which path it needs."""
    from skewlearn import datasets
    from skewlearn.experiments.config import DatasetSpec

    _relative_experiment(tmp_path / "copy")  # the worker's copy: copy/data/x.csv
    copy = str(tmp_path / "copy" / "data" / "x.csv")
    gone = str(tmp_path / "client" / "data" / "x.csv")  # the run's machine's path
    spec = DatasetSpec("x", source="data/x.csv", digest=runner_mod.file_digest(copy), path=gone)
    monkeypatch.setattr(runner_mod, "_DATASETS", {})
    monkeypatch.chdir(tmp_path / "copy")
    X, y = runner_mod.load_dataset(spec)
    X_copy, y_copy, _ = datasets.load(copy)
    assert np.array_equal(X, X_copy) and np.array_equal(y, y_copy)

    other = DatasetSpec("x", source="data/x.csv", digest="0" * 32, path=gone)
    missing = re.escape(gone) + r": no such file here .* every worker needs the file at this"
    with pytest.raises(FileNotFoundError, match=missing + r".*data/x\.csv holds other contents"):
        runner_mod.load_dataset(other)
    monkeypatch.chdir(tmp_path)  # no copy here (and a worker process of its own)
    monkeypatch.setattr(runner_mod, "_DATASETS", {})
    with pytest.raises(FileNotFoundError, match=missing) as err:
        runner_mod.load_dataset(spec)
    assert "other contents" not in str(err.value)
    assert "data/x.csv in the directory it was started in" in str(err.value)
    monkeypatch.setenv("HOME", str(tmp_path / "copy"))  # "~/...": the worker's home
    home = DatasetSpec("x", source="~/data/x.csv", digest=spec.digest, path=gone)
    assert np.array_equal(runner_mod.load_dataset(home)[0], X_copy)


def test_the_dataset_cache_tells_files_of_the_same_name_apart(tmp_path, monkeypatch):
    """Session 15: the in-process cache was keyed by the spec alone, so a relative
    ``d.csv`` read from a second directory (or the same file rewritten) returned the first
    file's rows: a notebook running two experiments got the other one's data."""
    import os

    from skewlearn.experiments import runner as runner_mod
    from skewlearn.experiments.config import DatasetSpec

    monkeypatch.setattr(runner_mod, "_DATASETS", {})
    spec = DatasetSpec(name="d", source="d.csv", params={"label_column": "label"})
    seen = []
    for folder, rows in (("one", 40), ("two", 50)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "d.csv").write_text(
            "a,label\n" + "".join(f"{i},{int(i % 4 == 0)}\n" for i in range(rows))
        )
        monkeypatch.chdir(tmp_path / folder)
        seen.append(runner_mod.load_dataset(spec)[0].shape[0])
    assert seen == [40, 50]
    path = tmp_path / "two" / "d.csv"
    path.write_text("a,label\n" + "".join(f"{i},{int(i % 4 == 0)}\n" for i in range(60)))
    os.utime(path, ns=(1, 1))  # a rewrite within the clock's resolution still differs in size
    assert runner_mod.load_dataset(spec)[0].shape[0] == 60
    assert runner_mod.load_dataset(spec) is runner_mod.load_dataset(spec)  # still cached


def test_a_rewritten_data_file_is_run_again_not_resumed(tmp_path, monkeypatch):
    """Session 15: the task keys held the file's name and options only, so after the data
    file changed a second run found every task "already done" and the report mixed in (or
    kept only) the old file's results."""
    from skewlearn.experiments import load_experiment, run_experiment
    from skewlearn.experiments.runner import file_digest

    monkeypatch.chdir(tmp_path)

    def write(rows):
        (tmp_path / "d.csv").write_text(
            "a,b,label\n" + "".join(f"{i},{(i * 7) % 11},{int(i % 4 == 0)}\n" for i in range(rows))
        )

    (tmp_path / "e.toml").write_text(
        'name = "f"\nseed = 0\nmetrics = ["roc_auc"]\n'
        'datasets = [{name = "d", source = "d.csv", params = {label_column = "label"}}]\n'
        '[protocol]\nkind = "kfold"\nn_splits = 2\nn_repeats = 1\n'
        '[[estimators]]\nclass = "Perceptron"\n'
    )
    write(40)
    first = run_experiment(load_experiment("e.toml"), "r.sqlite", n_jobs=1, progress=False)
    again = run_experiment(load_experiment("e.toml"), "r.sqlite", n_jobs=1, progress=False)
    assert (first["ran"], again["skipped"], again["ran"]) == (2, 2, 0)
    digest = file_digest("d.csv")
    write(48)
    assert file_digest("d.csv") != digest
    changed = run_experiment(load_experiment("e.toml"), "r.sqlite", n_jobs=1, progress=False)
    assert (changed["skipped"], changed["ran"]) == (0, 2)
    import hashlib

    assert (
        file_digest("d.csv")
        == hashlib.blake2b((tmp_path / "d.csv").read_bytes(), digest_size=16).hexdigest()
    )


@pytest.mark.parametrize("repeats", [0, 1.5, True, "2"])
def test_repeats_that_is_not_a_positive_integer_is_refused_before_the_database(
    toy_file, tmp_path, repeats
):
    """``repeats=1.5`` ran repetitions 0 and 1 (``repetition < 1.5``) and ``"2"`` failed
    comparing a str with an int; ``0`` was refused only after the database was created
    (session 16)."""
    db = tmp_path / "r.sqlite"
    with pytest.raises(ValueError, match=r"repeats must be a positive integer .*; got"):
        run_experiment(toy_file, db, n_jobs=1, progress=False, repeats=repeats)
    assert not db.exists()


def test_repeats_beyond_the_protocol_is_refused_before_the_database(toy_file, tmp_path):
    """Session 24 (probe x's note): ``repeats`` is a cut, so ``reproduce koil_table1
    --repeats 9`` ran the protocol's 4 repetitions (minutes of every core) without a word.
    More than the protocol holds is refused, naming its count and n_repeats; the count
    itself still runs."""
    from skewlearn.experiments.config import load_experiment

    n = load_experiment(toy_file).protocol.n_repeats
    db = tmp_path / "r.sqlite"
    with pytest.raises(ValueError, match=rf"repeats={n + 1} is more than the {n} repetition\(s\) .*"
                       r"set n_repeats in the experiment file"):  # fmt: skip
        run_experiment(toy_file, db, n_jobs=1, progress=False, repeats=n + 1)
    assert not db.exists()
    run_experiment(toy_file, db, n_jobs=1, progress=False, repeats=n)
    assert db.exists()


@pytest.mark.parametrize("n_jobs", [0, 1.5, True, "2"])
def test_n_jobs_that_cannot_run_is_refused_before_the_database(toy_file, tmp_path, n_jobs):
    """Session 17: ``n_jobs=0`` stopped the run with joblib's "n_jobs == 0 in Parallel has
    no meaning" after the database was created and the data loaded (the CLI refuses
    ``--jobs 0`` itself); ``1.5`` ran, ``True`` ran as one process."""
    db = tmp_path / "r.sqlite"
    match = r"n_jobs must be -1 \(all cores\), a number of processes >= 1, .*; got"
    with pytest.raises(ValueError, match=match):
        run_experiment(toy_file, db, n_jobs=n_jobs, progress=False)
    assert not db.exists()


def test_a_cluster_restart_mid_run_says_so_and_the_run_resumes(toy_file, tmp_path, monkeypatch):
    """Session 17: ``client.restart()`` during a run stopped it with distributed's
    ``FutureCancelledError`` traceback (``skewlearn run`` printed it whole), not saying that
    the finished tasks were saved and that the same command resumes."""
    from distributed import Client, LocalCluster

    from skewlearn.experiments import store as store_mod

    exp = load_experiment(toy_file)
    db = tmp_path / "r.db"
    kw = {"n_workers": 1, "threads_per_worker": 1, "processes": True, "dashboard_address": None}
    with LocalCluster(**kw) as cluster, Client(cluster) as client:
        written = []
        real = store_mod.ResultStore.write

        def write(store, row):  # the cluster restarts after the second result
            written.append(real(store, row))
            if len(written) == 2:
                client.restart()
            return written[-1]

        monkeypatch.setattr(store_mod.ResultStore, "write", write)
        match = r"the Dask cluster cancelled this run's tasks \(.*\); every task that finished"
        with pytest.raises(runner_mod.TasksCancelled, match=match):
            run_experiment(exp, db, scheduler=client, progress=False, repeats=1)
        monkeypatch.setattr(store_mod.ResultStore, "write", real)
        out = run_experiment(exp, db, scheduler=client, progress=False, repeats=1)
    assert out["skipped"] == 2 and out["ran"] == out["tasks"] - 2
    assert _results(db) == _seq_results(exp, tmp_path)


def test_a_scheduler_lost_while_a_result_is_fetched_says_the_run_resumes(
    toy_file, tmp_path, monkeypatch
):
    """Session 24: a scheduler killed mid-run (SIGKILL of ``dask scheduler``) made the
    fetch of a finished task's result fail with distributed's ``CommClosedError``, which
    ``skewlearn run`` printed as "error: in <TCP (closed) ConnectionPool.gather ...>:
    Stream is closed" (exit 2), not saying that the finished tasks were saved and that the
    same command resumes, as it does when the cluster cancels the tasks."""
    from distributed import Client, Future, LocalCluster
    from distributed.comm import CommClosedError

    real = Future.result
    fetched = []

    def result(future, *args, **kwargs):  # the connection goes after two results
        fetched.append(future)
        if len(fetched) == 3:
            raise CommClosedError("in <TCP (closed) ConnectionPool.gather>: Stream is closed")
        return real(future, *args, **kwargs)

    exp = load_experiment(toy_file)
    db = tmp_path / "r.db"
    kw = {"n_workers": 1, "threads_per_worker": 1, "processes": False, "dashboard_address": None}
    with LocalCluster(**kw) as cluster, Client(cluster) as client:
        monkeypatch.setattr(Future, "result", result)
        match = (
            r"lost the connection to the Dask scheduler \(in <TCP \(closed\) ConnectionPool"
            r"\.gather>: Stream is closed\); every task that finished before is in the results"
        )
        with pytest.raises(runner_mod.TasksCancelled, match=match):
            run_experiment(exp, db, scheduler=client, progress=False, repeats=1)
        monkeypatch.setattr(Future, "result", real)
        out = run_experiment(exp, db, scheduler=client, progress=False, repeats=1)
    assert out["skipped"] == 2 and out["ran"] == out["tasks"] - 2


def test_a_task_that_kills_its_workers_is_named(toy_file, tmp_path, monkeypatch):
    """Session 24 (probe w): a task whose worker process dies on every try (a crash in
    compiled code, the memory limit) comes back from the cluster as distributed's
    ``KilledWorker``, which names only Dask's key of the future; the run stopped
    without saying which method, dataset and fold, as a task raising a bug does. The
    finished tasks stay saved and the rest of the run resumes."""
    from distributed import Client, Future, KilledWorker, LocalCluster

    real = Future.result
    fetched = []

    def result(future, *args, **kwargs):  # the third task's workers all died
        fetched.append(real(future, *args, **kwargs))
        if len(fetched) == 3:
            raise KilledWorker(future.key, "tcp://127.0.0.1:1", 3)
        return fetched[-1]

    exp = load_experiment(toy_file)
    db = tmp_path / "k.db"
    kw = {"n_workers": 1, "threads_per_worker": 1, "processes": False, "dashboard_address": None}
    with LocalCluster(**kw) as cluster, Client(cluster) as client:
        monkeypatch.setattr(Future, "result", result)
        with pytest.raises(KilledWorker) as info:
            run_experiment(exp, db, scheduler=client, progress=False, repeats=1)
        monkeypatch.setattr(Future, "result", real)
        (task,) = [t for t in expand_tasks(exp) if t.key == fetched[2]["task_key"]]
        (note,) = info.value.__notes__
        assert note.startswith(f"skewlearn: raised by the task of experiment {exp.name!r}")
        assert f"on dataset {task.dataset.name!r}" in note and f"(task key {task.key})" in note
        out = run_experiment(exp, db, scheduler=client, progress=False, repeats=1)
    assert out["skipped"] == 2 and out["ran"] == out["tasks"] - 2
