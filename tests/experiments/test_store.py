"""The SQLite results database: unique task rows, exports."""

from __future__ import annotations

import csv
import importlib.util
import sqlite3

import pytest

from skewlearn.experiments import ResultStore


def _row(key, auc):
    return dict(task_key=key, experiment="e", dataset="d", method="m", repetition=0,
                fold=int(key[-1]), seed=1, params={"C": 0.5},
                metrics={"roc_auc": auc, "gmean": auc / 2}, extra={}, fit_time=0.1)  # fmt: skip


def test_rows_are_unique_and_in_wal_mode(tmp_path):
    with ResultStore(tmp_path / "r.db") as db:
        assert db.write(_row("k0", 0.8)) and db.write(_row("k1", 0.9))
        assert not db.write(_row("k0", 0.1))  # a re-run never duplicates nor overwrites
        assert len(db) == 2 and db.finished_keys() == {"k0", "k1"}
        assert db.rows()[0]["metrics"] == {"roc_auc": 0.8, "gmean": 0.4}
    con = sqlite3.connect(tmp_path / "r.db")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.IntegrityError):
        con.execute(
            "INSERT INTO results (task_key, experiment, dataset, method, repetition, fold, "
            "seed, params, metrics, extra) VALUES ('k0','e','d','m',0,0,0,'','','')"
        )


def test_csv_export_has_metric_columns(tmp_path):
    with ResultStore(tmp_path / "r.db") as db:
        db.write_many([_row("k0", 0.8), _row("k1", 0.9)])
        db.to_csv(tmp_path / "r.csv")
    with open(tmp_path / "r.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [float(r["roc_auc"]) for r in rows] == [0.8, 0.9]
    assert rows[1]["gmean"] == "0.45" and rows[0]["params"] == '{"C": 0.5}'


def test_parquet_export_or_a_clear_error(tmp_path):
    with ResultStore(tmp_path / "r.db") as db:
        db.write(_row("k0", 0.8))
        if importlib.util.find_spec("pyarrow") is None:
            with pytest.raises(ImportError, match=r"needs pyarrow.*to_csv"):
                db.to_parquet(tmp_path / "r.parquet")
        else:
            import pyarrow.parquet as pq

            db.to_parquet(tmp_path / "r.parquet")
            assert pq.read_table(tmp_path / "r.parquet").column("roc_auc").to_pylist() == [0.8]


def test_numpy_scalars_in_a_row_are_written_as_numbers(tmp_path):
    """A numpy scalar (a chosen grid value given as ``np.int64`` through the Python API)
    raised "Object of type int64 is not JSON serializable" at the write, after the task
    had run, and stopped the run (session 16)."""
    import numpy as np

    with ResultStore(tmp_path / "r.db") as db:
        row = _row("k1", np.float32(0.75))
        row["params"] = {"n_neighbors": np.int64(5), "flag": np.bool_(True)}
        assert db.write(row)
        (got,) = db.rows()
    assert got["params"] == {"n_neighbors": 5, "flag": True}
    assert got["metrics"]["roc_auc"] == 0.75


def test_a_read_only_store_adds_nothing_and_refuses_writes(tmp_path):
    """The reports open the database with ``readonly=True``: an older database's missing
    tables read as empty instead of being added, and a write is refused."""
    db = tmp_path / "old.sqlite"
    with ResultStore(db) as s:
        s.write(_row("k0", 0.5))
    con = sqlite3.connect(db)
    for table in ("searches", "failures", "experiment_keys"):
        con.execute(f"DROP TABLE {table}")
    con.commit()
    con.close()
    before = db.read_bytes()
    with ResultStore(db, readonly=True) as s:
        assert [r["metrics"]["roc_auc"] for r in s.rows("e")] == [0.5]
        assert s.searches() == [] and s.failures() == []
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            s.write(_row("k1", 0.7))
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]


def _strict(text):
    """``json.loads`` as a strict parser (jq, JavaScript, SQLite < 3.42) reads JSON."""
    import json

    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


def test_non_finite_values_are_standard_json_and_read_back(tmp_path):
    """Session 20: Python's json wrote NaN/Infinity into the JSON columns, so SQLite's
    json_extract (before 3.42) refused the whole query and jq/JavaScript the text."""
    import math

    row = _row("k0", float("nan"))
    row["params"] = {"C": math.inf, "gamma": -math.inf, "tag": "x"}
    row["extra"] = {"search": {"params": [{"C": math.inf}], "scores": [math.nan, 0.5]},
                    "curve": [0.1, math.nan]}  # fmt: skip
    with ResultStore(tmp_path / "r.db") as db:
        db.write(row)
        back = db.rows()[0]
    con = sqlite3.connect(tmp_path / "r.db")
    texts = con.execute("SELECT params, metrics, extra FROM results").fetchone()
    for text in texts:
        _strict(text)
    auc, avg = con.execute(
        "SELECT json_extract(metrics, '$.roc_auc'), AVG(json_extract(metrics, '$.gmean')) "
        "FROM results"
    ).fetchone()
    assert auc is None and avg is None  # an undefined metric is SQL NULL
    assert math.isnan(back["metrics"]["roc_auc"]) and math.isnan(back["metrics"]["gmean"])
    assert back["params"] == {"C": math.inf, "gamma": -math.inf, "tag": "x"}
    assert back["extra"]["search"]["params"] == [{"C": math.inf}]
    assert math.isnan(back["extra"]["search"]["scores"][0])
    assert back["extra"]["curve"][0] == 0.1 and math.isnan(back["extra"]["curve"][1])


def test_rows_written_with_python_nan_before_session_20_still_read(tmp_path):
    import math

    with ResultStore(tmp_path / "r.db") as db:
        db.write(_row("k0", 0.8))
    con = sqlite3.connect(tmp_path / "r.db")
    with con:
        con.execute(
            "UPDATE results SET metrics = '{\"roc_auc\": NaN}', params = '{\"C\": Infinity}'"
        )
    con.close()
    with ResultStore(tmp_path / "r.db") as db:
        back = db.rows()[0]
    assert math.isnan(back["metrics"]["roc_auc"]) and back["params"] == {"C": math.inf}


def test_a_new_database_another_process_is_creating_is_waited_for(tmp_path):
    """Two runs started together into one new database: SQLite refuses ``PRAGMA
    journal_mode=WAL`` at once ("database is locked", without the busy timeout) while the
    other connection holds its write lock; the store waits for it, as for any write."""
    import threading

    path = tmp_path / "new.sqlite"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # the other run, part-way through creating the file
    release = threading.Timer(0.3, other.execute, ("COMMIT",))
    release.start()
    try:
        with ResultStore(path) as db:
            assert db.write(_row("k0", 0.8))
            assert db._con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        release.join()
        other.close()


def test_keys_are_replaced_in_one_transaction(tmp_path):
    """``set_keys`` (each run's start) deletes the old keys and inserts the new ones in one
    transaction: a run stopped part-way (Ctrl-C while an experiment's thousands of keys
    were written, one commit each) left a few keys, and every report then hid the other
    rows of the current definition as "of an earlier definition"."""
    with ResultStore(tmp_path / "r.db") as db:
        db.write_many([_row("k0", 0.8), _row("k1", 0.9)])
        db.set_keys("e", ["k0", "k1"])

        def stopped_after_one():
            yield "k0"
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            db.set_keys("e", stopped_after_one())
        assert not db._con.in_transaction
        assert [r["task_key"] for r in db.rows("e")] == ["k0", "k1"]
        assert db.n_earlier("e") == 0


class _StoppedAtCommit:
    """A connection whose ``COMMIT`` is interrupted (Ctrl-C) before it runs, or fails as
    a full disk makes it fail: everything else is the real connection's."""

    def __init__(self, con, error):
        self._con, self._error = con, error

    def __getattr__(self, name):
        return getattr(self._con, name)

    def execute(self, sql, *args):
        if sql == "COMMIT":
            raise self._error
        return self._con.execute(sql, *args)


@pytest.mark.parametrize(
    "error", [KeyboardInterrupt(), sqlite3.OperationalError("database or disk is full")]
)
@pytest.mark.parametrize(
    "method", ["write", "write_failure", "write_search", "set_keys", "save_experiment"]
)
def test_a_write_stopped_at_its_commit_is_rolled_back(tmp_path, method, error):
    """Session 26 (probe v): a write interrupted at its ``COMMIT`` (Ctrl-C between the
    statements and the commit, or a commit that failed) left its transaction open, so the
    store refused every later write ("cannot start a transaction within a transaction")
    and held the database's write lock, which made every other run into it wait 60 s and
    fail, until the store was closed (a store passed to ``run_experiment`` stays open)."""
    with ResultStore(tmp_path / "r.db") as db:
        db.write(_row("k0", 0.8))
        real = db._con
        db._con = _StoppedAtCommit(real, error)
        write = {
            "write": lambda: db.write(_row("k1", 0.9)),
            "write_failure": lambda: db.write_failure({**_row("k1", 0.9), "error": "x"}),
            "write_search": lambda: db.write_search(
                dict(search_key="s1", experiment="e", dataset="d", method="m", params={}, extra={})
            ),
            "set_keys": lambda: db.set_keys("e", ["k1"]),
            "save_experiment": lambda: db.save_experiment("e", {"a": 1}),
        }[method]
        with pytest.raises(type(error)):
            write()
        db._con = real
        assert not real.in_transaction
        other = sqlite3.connect(tmp_path / "r.db", timeout=0)
        other.execute("BEGIN IMMEDIATE")  # the write lock is free
        other.rollback()
        other.close()
        assert db.write(_row("k2", 0.7))  # and the store writes on
        assert db.finished_keys() == {"k0", "k2"} and not db.failures()
        assert db.experiments() == {} and db.n_earlier("e") == 0 and not db.searches()
