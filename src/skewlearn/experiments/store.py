"""The results database: one SQLite row per finished task (and one per failed task, kept
apart in ``failures``).

The runner writes each task's row from the parent process as soon as the result streams
back, in its own transaction, in WAL mode. A run killed at any moment — even with
``kill -9`` — loses at most the tasks still in flight; committed rows survive, and the
``UNIQUE`` task key makes a re-run skip them and never write a row twice.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._files import user_path
from .._json import dumps, dumps_exact, loads_exact, nan_for_none

if TYPE_CHECKING:
    from .._typing import StrPath

__all__ = ["ResultStore", "check_results_db", "experiment_rows"]

#: Seconds a connection waits for another's lock (SQLite's busy timeout).
_BUSY_TIMEOUT = 60

#: The columns that name a task, shared by the results and failures tables.
_TASK_DDL = """
    task_key TEXT NOT NULL UNIQUE,
    experiment TEXT NOT NULL,
    dataset TEXT NOT NULL,
    method TEXT NOT NULL,
    repetition INTEGER NOT NULL,
    fold INTEGER NOT NULL,
    seed INTEGER NOT NULL,"""

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS results ({_TASK_DDL}
    params TEXT NOT NULL,
    metrics TEXT NOT NULL,
    extra TEXT NOT NULL,
    fit_time REAL,
    score_time REAL,
    wall_time REAL,
    skewlearn_version TEXT,
    numpy_version TEXT,
    sklearn_version TEXT,
    python_version TEXT,
    host TEXT,
    finished_at TEXT
);
CREATE TABLE IF NOT EXISTS experiments (
    name TEXT NOT NULL UNIQUE,
    definition TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS failures ({_TASK_DDL}
    error TEXT NOT NULL,
    host TEXT,
    finished_at TEXT
);
CREATE TABLE IF NOT EXISTS experiment_keys (
    experiment TEXT NOT NULL,
    key TEXT NOT NULL,
    UNIQUE (experiment, key)
);
CREATE TABLE IF NOT EXISTS searches (
    search_key TEXT NOT NULL UNIQUE,
    experiment TEXT NOT NULL,
    dataset TEXT NOT NULL,
    method TEXT NOT NULL,
    params TEXT NOT NULL,
    extra TEXT NOT NULL,
    wall_time REAL,
    cpu_time REAL,
    host TEXT,
    finished_at TEXT
);
"""

#: ``{table: its column definitions}`` of :data:`_SCHEMA`, for the empty stand-ins a
#: read-only store makes of the tables an older database lacks.
_TABLE_DDL = {
    part.split("(", 1)[0].split()[-1]: part.split("(", 1)[1].rsplit(")", 1)[0]
    for part in _SCHEMA.split(";")
    if part.strip()
}

#: The latest definition's rows: an experiment with no recorded keys (a database from
#: before session 8) shows all its rows.
_CURRENT = """ AND (
    NOT EXISTS (SELECT 1 FROM experiment_keys k WHERE k.experiment = r.experiment)
    OR EXISTS (SELECT 1 FROM experiment_keys k
               WHERE k.experiment = r.experiment AND k.key = r.{key}))"""

#: Columns of the ``searches`` table: one hyperparameter search shared by the runs of a
#: (dataset, method) when an experiment has ``search.scope = "first_fold"``.
_SEARCH_COLUMNS = (
    "search_key",
    "experiment",
    "dataset",
    "method",
    "params",
    "extra",
    "wall_time",
    "cpu_time",
    "host",
    "finished_at",
)

#: The columns that name a task (``_TASK_DDL``).
_TASK_COLUMNS = ("task_key", "experiment", "dataset", "method", "repetition", "fold", "seed")
#: Columns of the ``failures`` table: a task whose learner refused its data (a ValueError,
#: e.g. an overflow on unscaled features), or a shared search (``search.scope =
#: "first_fold"``, keyed by its search key) whose every candidate failed. Not a result: a
#: re-run tries it again.
_FAILURE_COLUMNS = (*_TASK_COLUMNS, "error", "host", "finished_at")

_COLUMNS = (
    *_TASK_COLUMNS,
    "params",
    "metrics",
    "extra",
    "fit_time",
    "score_time",
    "wall_time",
    "skewlearn_version",
    "numpy_version",
    "sklearn_version",
    "python_version",
    "host",
    "finished_at",
)
_JSON = ("params", "metrics", "extra")


class ResultStore:
    """A SQLite results database (created on first use).

    Parameters
    ----------
    path : str or Path
        The database file.
    readonly : bool, default False
        Read an existing database without creating it or adding tables (the reports
        do); its writing methods raise ``sqlite3.OperationalError``. A database in a read-only
        folder is read as it is (see :func:`_connect_readonly`), and the tables an older
        database lacks read as empty.

    Examples
    --------
    >>> import tempfile, os
    >>> db = ResultStore(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
    >>> row = dict(task_key="k1", experiment="e", dataset="d", method="m", repetition=0,
    ...            fold=0, seed=1, params={}, metrics={"roc_auc": 0.9}, extra={})
    >>> db.write(row), db.write(row)  # the second write of the same task is ignored
    (True, False)
    >>> [r["metrics"] for r in db.rows()]
    [{'roc_auc': 0.9}]
    """

    def __init__(self, path: StrPath, *, readonly: bool = False):
        self.path = Path(user_path(path))
        if readonly:
            self._con = _connect_for_reading(self.path)
            # a database from before a table existed: an empty one for this connection
            # only (the readers query every table; the file is not changed)
            have = _table_names(self._con)
            for name, ddl in _TABLE_DDL.items():
                if name not in have:
                    self._con.execute(f"CREATE TEMP TABLE {name} ({ddl})")
            # a writing method fails ("attempt to write a readonly database") rather than
            # write into a database opened for reading
            self._con.execute("PRAGMA query_only = ON")
            return
        if self.path.is_file() and not os.access(self.path, os.W_OK):
            # SQLite opens it read-only without a word: its first write failed, after any
            # shared search, with a bare "attempt to write a readonly database" (and
            # reading it, as _check_ours_or_new does, leaves -wal and -shm files beside it)
            raise _read_only(self.path, "the file is read-only")
        _check_ours_or_new(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = None
        try:
            con = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT, isolation_level=None)
            self._con = con
            _use_wal(con)
            # With WAL, a committed row already survives a killed process (NORMAL would
            # do); FULL also survives a power loss, for one fsync per finished task.
            self._con.execute("PRAGMA synchronous=FULL")
            self._con.executescript(_SCHEMA)
        except sqlite3.OperationalError as err:
            if con is not None:
                con.close()
            if "readonly" not in str(err) and "unable to open" not in str(err):
                raise
            raise _read_only(self.path, str(err)) from None

    def close(self) -> None:
        """Close the connection."""
        self._con.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ writing
    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception (Ctrl-C
        included). The connection is in autocommit mode (``isolation_level=None``), where
        ``with connection:`` begins nothing: each statement was its own transaction, with
        its own fsync, so ``set_keys`` of an experiment's 3,468 keys took 3,469 commits
        (21 s here) and a run stopped during them kept a part of its keys. A ``COMMIT``
        that fails or is interrupted is rolled back too: left open, the transaction kept
        the write lock (other runs waited 60 s and failed) and refused the next BEGIN."""
        try:  # (a Ctrl-C right after BEGIN rolls back too)
            self._con.execute("BEGIN IMMEDIATE")
            yield
            self._con.execute("COMMIT")
        except BaseException:
            if self._con.in_transaction:
                self._con.execute("ROLLBACK")
            raise

    def write(self, row: Mapping[str, Any]) -> bool:
        """Insert one task's row in its own transaction; False if the task was already there."""
        values = [_json_text(c, row.get(c, {})) if c in _JSON else row.get(c) for c in _COLUMNS]
        with self._transaction():
            cur = self._con.execute(
                f"INSERT OR IGNORE INTO results ({', '.join(_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_COLUMNS))})",
                values,
            )
            self._con.execute("DELETE FROM failures WHERE task_key = ?", (row["task_key"],))
        return cur.rowcount == 1

    def write_failure(self, row: Mapping[str, Any]) -> None:
        """Record (or replace) a task that failed; its key stays out of
        :meth:`finished_keys`, so a re-run tries it again."""
        values = [row.get(c) for c in _FAILURE_COLUMNS]
        with self._transaction():
            self._con.execute(
                f"INSERT OR REPLACE INTO failures ({', '.join(_FAILURE_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_FAILURE_COLUMNS))})",
                values,
            )

    def failures(
        self, experiment: str | None = None, *, current: bool = True
    ) -> list[dict[str, Any]]:
        """The failed tasks (no result row), optionally of one experiment (``current``: see
        :meth:`rows`)."""
        return self._select("failures", _FAILURE_COLUMNS, (), experiment, current)

    def write_search(self, row: Mapping[str, Any]) -> bool:
        """Insert one shared search's row (``search.scope = "first_fold"``); False if it
        was already there."""
        values = [
            _json_text(c, row.get(c, {})) if c in ("params", "extra") else row.get(c)
            for c in _SEARCH_COLUMNS
        ]
        with self._transaction():
            cur = self._con.execute(
                f"INSERT OR IGNORE INTO searches ({', '.join(_SEARCH_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_SEARCH_COLUMNS))})",
                values,
            )
            # a search that failed before (recorded under its key) has now succeeded
            self._con.execute("DELETE FROM failures WHERE task_key = ?", (row["search_key"],))
        return cur.rowcount == 1

    def searches(
        self, experiment: str | None = None, *, current: bool = True
    ) -> list[dict[str, Any]]:
        """Every shared search's row (JSON decoded), optionally of one experiment
        (``current``: see :meth:`rows`)."""
        return self._select("searches", _SEARCH_COLUMNS, ("params", "extra"), experiment, current)

    def _select(
        self, table: str, columns, json_columns, experiment: str | None, current: bool = True
    ) -> list[dict[str, Any]]:
        """The rows of ``table`` in insertion order, ``json_columns`` decoded; with
        ``current``, only the tasks and searches of each experiment's latest definition
        (see :meth:`set_keys`)."""
        sql = f"SELECT {', '.join(columns)} FROM {table} AS r WHERE 1"
        args: tuple = ()
        if experiment is not None:
            sql += " AND experiment = ?"
            args = (experiment,)
        if current:
            sql += _CURRENT.format(key="search_key" if table == "searches" else "task_key")
        out = []
        for values in self._con.execute(sql + " ORDER BY rowid", args):
            row = dict(zip(columns, values))
            for c in json_columns:
                row[c] = _json_value(c, row[c])
            out.append(row)
        return out

    def set_keys(self, name: str, keys: Iterable[str]) -> None:
        """Record the task and search keys of the definition of ``name`` being run: rows
        of an earlier definition under the same name (left in the database, and still
        used to resume) are then left out of :meth:`rows`, :meth:`failures`,
        :meth:`searches`, the reports and the exports."""
        with self._transaction():
            self._con.execute("DELETE FROM experiment_keys WHERE experiment = ?", (name,))
            self._con.executemany(
                "INSERT OR IGNORE INTO experiment_keys (experiment, key) VALUES (?, ?)",
                ((name, k) for k in keys),
            )

    def n_earlier(self, experiment: str) -> int:
        """Result rows of ``experiment`` from earlier definitions (not shown)."""
        count = "SELECT COUNT(*) FROM results AS r WHERE experiment = ?"
        every = self._con.execute(count, (experiment,)).fetchone()[0]
        shown = self._con.execute(count + _CURRENT.format(key="task_key"), (experiment,))
        return every - shown.fetchone()[0]

    def save_experiment(self, name: str, definition: Mapping[str, Any]) -> None:
        """Store (or replace) the definition of an experiment, for reports from the DB alone."""
        with self._transaction():
            self._con.execute(
                "INSERT OR REPLACE INTO experiments (name, definition) VALUES (?, ?)",
                (name, dumps_exact(definition, sort_keys=True, default=str)),
            )

    # ------------------------------------------------------------------ reading
    def finished_keys(self) -> set[str]:
        """Keys of every task already in the database."""
        return {k for (k,) in self._con.execute("SELECT task_key FROM results")}

    def experiments(self) -> dict[str, dict]:
        """``{name: definition}`` of the experiments stored."""
        return {
            n: loads_exact(d)
            for n, d in self._con.execute("SELECT name, definition FROM experiments")
        }

    def rows(self, experiment: str | None = None, *, current: bool = True) -> list[dict[str, Any]]:
        """Every row (JSON columns decoded), optionally of one experiment, in insertion order.

        With ``current`` (the default), an experiment re-run under the same name with
        another definition shows only the tasks of the definition run last
        (:meth:`set_keys`); ``current=False`` gives every row.
        """
        return self._select("results", _COLUMNS, _JSON, experiment, current)

    def __len__(self) -> int:
        return self._con.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    # ------------------------------------------------------------------ export
    def _flat(self, experiment: str | None) -> tuple[list[str], list[dict[str, Any]]]:
        rows = self.rows(experiment)
        metric_names: list[str] = []
        for r in rows:
            for m in r["metrics"]:
                if m not in metric_names:
                    metric_names.append(m)
        flat = []
        for r in rows:
            f = {c: r[c] for c in _COLUMNS if c not in ("metrics", "extra")}
            f["params"] = dumps_exact(r["params"], sort_keys=True)
            f.update({m: r["metrics"].get(m) for m in metric_names})
            flat.append(f)
        cols = [c for c in _COLUMNS if c not in ("metrics", "extra")] + metric_names
        return cols, flat

    def to_csv(self, path: str | Path, experiment: str | None = None) -> Path:
        """Write one line per task (metrics as columns; curves left out) to a CSV file."""
        cols, flat = self._flat(experiment)
        path = Path(user_path(path))
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=cols)
            w.writeheader()
            w.writerows(flat)
        return path

    def to_parquet(self, path: str | Path, experiment: str | None = None) -> Path:
        """Write the same table as :meth:`to_csv` to a parquet file (needs pyarrow)."""
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError as err:
            raise ImportError(
                "Exporting to parquet needs pyarrow, which is not installed. Install it "
                "(pip install pyarrow) or export to CSV with to_csv / --csv."
            ) from err
        cols, flat = self._flat(experiment)
        table = pa.table({c: [r[c] for r in flat] for c in cols})
        path = Path(user_path(path))
        pq.write_table(table, path)
        return path

    def write_many(self, rows: Iterable[Mapping[str, Any]]) -> int:
        """Write several rows (each in its own transaction); returns how many were new."""
        return sum(self.write(r) for r in rows)


def _json_text(column: str, value: Any) -> str:
    """A JSON column's text, standard JSON (docs/decisions.md, session 20): an undefined
    (NaN) metric is ``null`` (SQL NULL to ``json_extract``, which ``AVG`` skips); a
    non-finite float in ``params`` or ``extra`` (a grid value such as ``C = inf``, a
    search score) is the string ``"NaN"``, ``"Infinity"`` or ``"-Infinity"``, read back
    as that float (:func:`_json_value`). Python's ``json`` wrote ``NaN``, which strict
    parsers reject (SQLite's ``json_extract`` failed on the whole query)."""
    write = dumps if column == "metrics" else dumps_exact
    return write(value, sort_keys=True, default=_json_scalar)


def _json_value(column: str, text: str) -> Any:
    """A JSON column read back (also the ``NaN`` text written before session 20)."""
    return nan_for_none(json.loads(text)) if column == "metrics" else loads_exact(text)


def _json_scalar(value: Any) -> Any:
    """``json.dumps``' fallback: a numpy scalar (``np.int64``, ``np.float32``, ``np.bool_``)
    is written as the number it holds; anything else is refused as by ``json``."""
    item = getattr(value, "item", None)
    if item is not None and getattr(value, "shape", None) == ():
        return item()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _use_wal(con: sqlite3.Connection) -> None:
    """Switch ``con``'s database to WAL mode, waiting up to :data:`_BUSY_TIMEOUT` s for
    another connection's lock. SQLite refuses the switch at once ("database is locked",
    without calling the busy handler) while another connection holds a write lock on a
    file not yet in WAL mode: two runs started together into one new database, where
    one of them failed (1 open in ~100 of four processes opening a new file together)."""
    deadline = time.monotonic() + _BUSY_TIMEOUT
    while True:
        try:
            con.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _read_only(path: Path, why: str) -> OSError:
    """The error of a results database that cannot be written (``why``: what SQLite or
    the file's mode said)."""
    return OSError(
        f"cannot write the results database {path} ({why}): the file or its folder is "
        "read-only (SQLite also writes the -wal and -shm files beside it). Give --db a "
        "path in a writable folder; `skewlearn report` reads a read-only database as it is."
    )


def _table_names(con: sqlite3.Connection) -> set[str]:
    return {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection to an existing SQLite file, which is neither created nor
    changed.

    A database in WAL mode (every results database) cannot be opened read-only where
    SQLite cannot create its ``-shm`` index beside it (a read-only folder or mount, a
    colleague's folder): SQLite says "unable to open database file", as for a missing
    file. Such a file is then opened ``immutable`` (SQLite's way to read files on
    read-only media), unless a non-empty ``-wal`` file holds results not yet copied into
    it, which only a writable folder can read: that is refused, saying how to read it.
    """
    # as_uri() percent-escapes '#', '?' and '%' in the path
    uri = path.resolve().as_uri()
    con = sqlite3.connect(uri + "?mode=ro", uri=True)
    try:
        con.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return con
    except sqlite3.OperationalError as err:
        con.close()
        if "unable to open" not in str(err) or not path.is_file():
            raise
    wal = Path(f"{path}-wal")
    if wal.is_file() and wal.stat().st_size > 0:
        raise OSError(
            f"cannot read {path}: SQLite cannot write beside it (a read-only folder?), and "
            f"its write-ahead log {wal.name} holds results not yet in the file, which SQLite "
            f"reads only from a writable folder. Copy {path.name} with {wal.name} into a "
            "writable folder and give the copy."
        )
    con = sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True)
    try:
        con.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.DatabaseError:
        con.close()
        raise
    return con


def _connect_for_reading(path: Path) -> sqlite3.Connection:
    """A connection that only reads (by convention) an existing database: opened for
    writing where that works, so that closing it folds the write-ahead log back into the
    file and removes the ``-wal`` and ``-shm`` files as a writer's close does (a read-only
    connection cannot, and leaves them behind); read-only otherwise
    (:func:`_connect_readonly`)."""
    if not path.is_file():  # never created here
        raise FileNotFoundError(f"no results database at {str(path)!r}.")
    con = sqlite3.connect(path.resolve().as_uri() + "?mode=rw", uri=True, timeout=60)
    try:
        con.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return con
    except sqlite3.OperationalError:
        con.close()
    return _connect_readonly(path)


def _tables(path: Path) -> set[str]:
    """The table names of an existing SQLite file, read without creating or changing it."""
    con = _connect_readonly(path)
    try:
        return _table_names(con)
    finally:
        con.close()


def _check_ours_or_new(path: Path) -> None:
    """A ``ValueError`` naming ``path`` unless a :class:`ResultStore` may write there: a new
    or empty file, or a database with our ``results`` table. Another program's SQLite file
    would get our tables (and WAL mode); a text file or a directory gave SQLite's bare
    "file is not a database" / "unable to open database file"."""
    fix = "give --db a new file name or a results database that `skewlearn run` wrote"
    if path.is_dir():
        raise ValueError(f"{path} is a directory; {fix}.")
    if not path.is_file() or path.stat().st_size == 0:
        return
    try:
        tables = _tables(path)
    except sqlite3.DatabaseError as err:
        raise ValueError(f"{path} is not an SQLite database ({err}); {fix}.") from None
    if tables and "results" not in tables:
        raise ValueError(
            f"{path} is an SQLite database of another program (tables: "
            f"{', '.join(sorted(tables))}); not writing skewlearn's tables into it: {fix}."
        )


def check_results_db(path: StrPath) -> Path:
    """``path`` as a Path when it is a results database `skewlearn run` wrote; otherwise a
    ``ValueError`` that says what it is, without creating or changing the file (opening a
    :class:`ResultStore` on it would create it, add our tables and switch it to WAL)."""
    path = Path(user_path(path))
    if not path.is_file():
        raise ValueError(
            f"no results database at {str(path)!r}; give the file that `skewlearn run` or "
            "`skewlearn reproduce` wrote (--db), or run the experiment first."
        )
    try:
        tables = _tables(path)
    except sqlite3.DatabaseError as err:
        raise ValueError(f"{path} is not an SQLite database ({err}).") from None
    if "results" not in tables or "experiments" not in tables:
        raise ValueError(
            f"{path} holds no skewlearn results (no results table); give the database "
            "that `skewlearn run` or `reproduce` wrote (--db)."
        )
    return path


def experiment_rows(path: StrPath, experiment: str | None = None) -> list[dict[str, Any]]:
    """The result rows of ``experiment`` (its definition run last) in an existing results
    database. When the database holds just one experiment, that one's whatever its name
    (your own definition of a table, or a supplement such as ``nystrom_table2_tuned_c``).
    A database with several experiments and none named ``experiment`` (or ``experiment``
    None) is a ``ValueError`` naming what it holds, so rows of several experiments are
    never pooled into one table."""
    with ResultStore(check_results_db(path), readonly=True) as store:
        sql = "SELECT DISTINCT experiment FROM results ORDER BY experiment"
        names = [n for (n,) in store._con.execute(sql)]
        if experiment not in names:
            if len(names) != 1:
                if experiment is None:
                    raise ValueError(
                        f"{path} holds {len(names)} experiments, so name one; it holds "
                        f"{names or 'no results yet'}."
                    )
                raise ValueError(
                    f"{path} holds no results of experiment {experiment!r}; it holds "
                    f"{names or 'no results yet'}. Give the database of `skewlearn reproduce "
                    f"{experiment}`."
                )
            (experiment,) = names
        return store.rows(experiment)
