"""Command-line entry points of the experiment engine: ``run``, ``report``, ``reproduce``.

:func:`register` adds the three subcommands to the main ``skewlearn`` parser;
:func:`main` runs them standalone (``python -m skewlearn.experiments.cli run exp.toml``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sqlite3
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from .._docs import first_line
from .._files import user_path

__all__ = ["main", "register", "shipped_experiments"]

CONFIGS = Path(__file__).parent / "configs"


def shipped_experiments() -> dict[str, str]:
    """``{name: description}`` of the reproductions shipped with the package."""
    out = {}
    for path in sorted(CONFIGS.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError:  # pragma: no cover - shipped files are tested
            continue
        lines = str(data.get("description", "")).strip().splitlines()
        out[path.stem] = lines[0] if lines else ""
    return out


#: The options and arguments that name files, of every command (``model`` is a file only
#: for ``predict``, ``experiment`` only for ``run``: elsewhere they are names).
_PATH_DESTS = ("data", "save", "scores", "db", "html", "md", "csv", "parquet", "json", "figures")
_PATH_DESTS_OF = {"predict": ("model",), "run": ("experiment",)}


def expand_user_paths(args: argparse.Namespace, dests: Sequence[str] | None = None) -> None:
    """Expand a leading ``~`` in the file arguments of ``args``, in place, as a shell does
    for a separate word (``--db=~/r.sqlite``, a quoted ``'~/x.csv'`` and a call from Python
    arrive unexpanded, and an output was then written under a folder named ``~``)."""
    if dests is None:
        dests = _PATH_DESTS + _PATH_DESTS_OF.get(getattr(args, "command", None), ())
    for dest in dests:
        value = getattr(args, dest, None)
        if isinstance(value, str) and value.startswith("~"):
            setattr(args, dest, user_path(value))


def _int(text: str) -> int:
    """An integer command-line value (argparse's type), with a message saying so."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def _n_jobs(text: str) -> int:
    n = _int(text)
    if n == 0:
        raise argparse.ArgumentTypeError(
            "0 workers cannot run anything; give -1 (all cores) or N >= 1"
        )
    return n


class DefaultsHelpFormatter(argparse.HelpFormatter):
    """Help that ends each option's text with its default, ``(default: X)``, unless the
    text names it already or the default is None or an off switch; a list default is
    shown as the values one would type."""

    def _get_help_string(self, action):
        text = action.help or ""
        default = action.default
        if (
            not action.option_strings
            or "default" in text
            or default is None
            or default is False
            or default is argparse.SUPPRESS
        ):
            return text
        shown = " ".join(map(str, default)) if isinstance(default, list | tuple) else default
        return f"{text} (default: {shown})".lstrip().replace("%", "%%")


def positive_int(text: str) -> int:
    """An integer >= 1 (argparse's type)."""
    n = _int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return n


def unknown_dataset(flag: str, names: Sequence[str], known: Sequence[str] = ()) -> str | None:
    """The message for the first of ``names`` that is neither a registered dataset, one of
    ``known`` (e.g. an experiment's own dataset names) nor an existing file, or None. The
    study commands check their dataset lists with it before running anything: their parts
    load the datasets one after the other, so a misspelt last name used to stop them with
    a traceback after the others' runs."""
    from .._hints import did_you_mean
    from ..datasets import list_datasets

    registered = list_datasets()
    choices = [*known, *(n for n in registered if n not in known)]
    for name in names:
        if name in choices or Path(name).is_file():
            continue
        return (
            f"{flag}: unknown dataset {name!r}.{did_you_mean(name, choices)} Give a "
            f"registered name ({', '.join(choices)}) or the path of a data file."
        )
    return None


#: A user's mistake (a bad experiment file, a missing or foreign database, an unwritable
#: output path): one line and exit status 2, not a traceback.
_USER_ERRORS = (ValueError, OSError, ImportError, sqlite3.DatabaseError)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a run, with what the user should know: where the
    finished tasks are and that the same command resumes."""

    #: the word printed and the exit status: 130 for Ctrl-C, 143 (128 + 15) for SIGTERM
    word, status = "interrupted", 130


def run_tool(main: Callable[[], int], prog: str) -> NoReturn:
    """Run a study tool's ``main`` as ``python -m`` does (``prog`` is its usage name):
    Ctrl-C is one line, "<prog>: interrupted", and status 130, as for ``skewlearn``,
    not a KeyboardInterrupt traceback; an :class:`Interrupted` adds its sentence (where
    the finished work is) and a :class:`Terminated` says so with status 143."""
    try:
        status = main()
    except KeyboardInterrupt as exc:
        word, status = getattr(exc, "word", "interrupted"), getattr(exc, "status", 130)
        print(f"{prog}: {word}{exc}", file=sys.stderr)
        raise SystemExit(status) from None
    raise SystemExit(status)


class Terminated(Interrupted):
    """SIGTERM during a run (``kill``, a batch system's time limit, ``docker stop``)."""

    word, status = "terminated", 143


@contextlib.contextmanager
def _sigterm_as_interrupt():
    """During a run, SIGTERM stops it as Ctrl-C does (:class:`Terminated`): joblib then
    ends its worker processes. Python's default for SIGTERM ends the parent process alone,
    and the workers, left orphaned, ran on with their tasks (whose results no one would
    write) and the shared-memory folders leaked. Only in the main thread (the only one
    where Python takes signal handlers)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def stdout_closed() -> int:
    """Output piped into a program that stopped reading (``| head``): not an error. Points
    stdout at the null device, so that the flush at exit does not fail again, and gives
    exit status 0."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _user_errors(func):
    @functools.wraps(func)
    def run(args) -> int:
        try:
            return func(args)
        except BrokenPipeError:  # an OSError, but not the user's: before _USER_ERRORS
            return stdout_closed()
        except _USER_ERRORS as err:
            print(f"skewlearn {args.command}: error: {' '.join(str(err).split())}",
                  file=sys.stderr)  # fmt: skip
            return 2
        except RuntimeError as err:  # a benchmark set that cannot be fetched: status 1
            from ..datasets import DataFetchError
            from .runner import TasksCancelled

            if isinstance(err, TasksCancelled):  # a cluster restart: resumable, status 1
                print(f"skewlearn {args.command}: error: {err}", file=sys.stderr)
                return 1
            if not isinstance(err, DataFetchError):
                raise
            print(f"skewlearn {args.command}: data error: {' '.join(str(err).split())}",
                  file=sys.stderr)  # fmt: skip
            return 1
        except KeyboardInterrupt as exc:  # Ctrl-C: one line and 130, as a shell expects
            word, status = getattr(exc, "word", "interrupted"), getattr(exc, "status", 130)
            print(f"skewlearn {args.command}: {word}{exc}", file=sys.stderr)
            raise SystemExit(status) from None

    return run


def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", "-j", type=_n_jobs, default=-1,
                   help="local worker processes (-1: all cores; 1: no subprocesses; default -1); "
                        "not used with a Dask scheduler, whose worker threads take the "
                        "tasks")  # fmt: skip
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler address, e.g. tcp://host:8786 "
                        "(default: $DASK_SCHEDULER_ADDRESS, else local processes)")  # fmt: skip
    p.add_argument("--db", default=None, metavar="PATH",
                   help="SQLite results database (default: <experiment name>.sqlite)")  # fmt: skip
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--repeats", type=positive_int, default=None, metavar="N",
                   help="cut: run only the first N repetitions of the protocol (a later "
                        "run without it adds the others)")  # fmt: skip


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``run``, ``report`` and ``reproduce`` to an argparse subparsers object."""
    p = subparsers.add_parser("run", help="run an experiment file (resumes a killed run)")
    p.add_argument("experiment", help="experiment TOML file (or the name of a shipped one)")
    _add_run_options(p)
    p.set_defaults(func=_user_errors(_cmd_run))

    p = subparsers.add_parser("report", help="tables, statistics and figures from a results DB")
    p.add_argument("db", help="SQLite results database written by `run`")
    p.add_argument("--html", metavar="OUT", help="write a self-contained HTML report")
    p.add_argument("--md", metavar="OUT", help="write a Markdown report (default: printed to "
                   "stdout unless --html is given; - prints it also with --html)")  # fmt: skip
    p.add_argument("--experiment", help="only this experiment of the database")
    p.add_argument("--csv", metavar="OUT", help="also export one row per task to CSV")
    p.add_argument("--parquet", metavar="OUT", help="also export to parquet (needs pyarrow)")
    p.set_defaults(func=_user_errors(_cmd_report))

    p = subparsers.add_parser(
        "reproduce", help="run a shipped paper reproduction (lists them without NAME)"
    )
    p.add_argument("name", nargs="?", help="reproduction to run")
    _add_run_options(p)
    p.add_argument("--html", metavar="OUT", help="HTML report (default: <name>.html)")
    p.set_defaults(func=_user_errors(_cmd_reproduce))


def _output(path: str) -> Path:
    """An output file's path, its directory created (as the results database's is)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    return out


def output_folder(flag: str, path: str) -> Path:
    """A study tool's folder of output files, made now, before its runs: a ValueError
    naming ``flag`` when a file has that name or the folder cannot be made (``mkdir``'s
    traceback otherwise, after the work for ``omcsl_study --figures``)."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{flag} {path!r} is a file; give a folder for the output files.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # e.g. a parent not writable
        raise ValueError(
            f"{flag} {path!r}: cannot make the folder ({err.strerror or err})."
        ) from err
    return folder


def _same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file: the same resolved path, or one existing file
    through links (also used by the top-level command line for its outputs)."""
    a, b = Path(a), Path(b)
    if a.resolve() == b.resolve():
        return True
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def _data_files_of(db: Path) -> dict[Path, str]:
    """``{path: what}`` of the data files the experiments in the results database ``db``
    read (those that exist from here: a relative path is taken from the working folder)."""
    from ..datasets import list_datasets
    from .store import ResultStore

    with ResultStore(db, readonly=True) as store:
        definitions = store.experiments()
    registered = set(list_datasets())
    out = {}
    for name, definition in definitions.items():
        for ds in definition.get("datasets", []):
            src = ds.get("source")
            if ds.get("generator") is None and isinstance(src, str) and src not in registered:
                path = Path(user_path(src))
                if path.is_file():
                    out[path] = f"the data file {src!r} of experiment {name!r}"
    return out


def irreplaceable(path: str | Path) -> str | None:
    """What an existing file at ``path`` is when no output of ours may replace it, else
    None: an experiment file (``.toml``) or an SQLite database (results of a run). Used by
    every file option that writes (report outputs, ``--save``, ``--scores``)."""
    path = Path(path)
    if not path.is_file():
        return None
    if path.suffix.lower() == ".toml":
        return "an experiment file (TOML)"
    try:
        with path.open("rb") as fh:
            if fh.read(16) == b"SQLite format 3\x00":
                return "an SQLite database (the results of a run?)"
    except OSError:
        pass
    return None


def _check_outputs(
    db: Path, outputs: dict[str, str], inputs: dict[Path, str] | None = None
) -> None:
    """Refuse report outputs that would overwrite a file the user cannot get back or
    each other: the results database (or its SQLite sidecar files), the data files its
    experiments read (``inputs``), an existing experiment file (``.toml``) or another
    SQLite database. A report written over the database destroyed every result, and
    ``--csv`` over the experiment's data file or ``--md`` over its TOML destroyed those,
    silently, with exit status 0. Any other existing file is replaced (as an output
    file is by most tools: a report written again replaces the last one)."""
    seen: dict[Path, str] = {}
    guarded = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}-journal")]
    for kind, path in outputs.items():
        if kind == "md" and path == "-":  # standard output
            continue
        if path == "-":  # was a file named "-"; only the Markdown is text for a terminal
            raise ValueError(
                f"--{kind} '-': only the Markdown report goes to standard output (--md -, "
                f"or by default); give --{kind} a file name (./- for a file named '-')."
            )
        out = Path(path)
        if out.is_dir():  # refused before any output is written, not midway
            raise ValueError(f"--{kind} {path!r} is a directory; give a file path.")
        resolved = out.resolve()
        if any(_same_file(out, g) for g in guarded):
            raise ValueError(
                f"--{kind} {path!r} is the results database (or one of its files); writing "
                f"the report there would destroy the results. Give --{kind} another file "
                f"name, e.g. report.{kind}."
            )
        for given, what in (inputs or {}).items():
            if _same_file(out, given):
                raise ValueError(
                    f"--{kind} {path!r} is {what}; writing the report there would destroy "
                    f"it. Give --{kind} another file name, e.g. report.{kind}."
                )
        what = irreplaceable(out)
        if what:
            raise ValueError(
                f"--{kind} {path!r} is {what}; writing the report there would destroy it. "
                f"Give --{kind} another file name, e.g. report.{kind}."
            )
        if resolved in seen:
            raise ValueError(
                f"--{kind} and --{seen[resolved]} are both {path!r}; one would overwrite the "
                "other. Give each output its own file."
            )
        seen[resolved] = kind


def _db_for(args, exp) -> Path:
    return Path(args.db) if args.db else Path(f"{exp.name}.sqlite")


def _run(args, experiment) -> tuple:
    """Run ``experiment`` into its database, print the counts and a line per failed method
    and dataset; returns ``(experiment, db path, failures)``."""
    from .config import load_experiment
    from .runner import run_experiment

    exp = load_experiment(experiment)
    db = _db_for(args, exp)
    repeats = getattr(args, "repeats", None)
    if args.jobs != -1 and (args.scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS")):
        print(f"skewlearn {args.command}: note: --jobs {args.jobs} is not used on a Dask "
              "cluster; its worker threads decide how many tasks run at once.",
              file=sys.stderr)  # fmt: skip
    try:
        with _sigterm_as_interrupt():
            out = run_experiment(
                exp,
                db,
                n_jobs=args.jobs,
                scheduler=args.scheduler,
                progress=not args.no_progress,
                repeats=repeats,
            )
    except KeyboardInterrupt as exc:  # every finished task is already in the database
        stopped = Terminated if isinstance(exc, Terminated) else Interrupted
        raise stopped(
            f"; the finished tasks are in {db}: run the same command again to resume."
        ) from None
    cut = ""
    if repeats is not None and repeats < exp.protocol.n_repeats:
        cut = f" (CUT: {repeats} of the protocol's {exp.protocol.n_repeats} repetitions)"
    failed = ""
    if out["failed"]:
        failed = f", {out['failed']} failed (no result; the next run tries them again)"
    if out.get("searches_failed"):
        failed += (
            f", {out['not_run']} not run because {out['searches_failed']} shared "
            "search(es) failed (the next run tries them again)"
        )
    if out.get("written_elsewhere"):
        failed += (
            f", {out['written_elsewhere']} finished meanwhile by another run into the same "
            "database (its rows kept)"
        )
    print(
        f"{exp.name}{cut}: {out['tasks']} tasks, {out['skipped']} already done, {out['ran']} "
        f"run now{failed}; results in {db}"
    )
    from .report import failure_summary
    from .store import ResultStore

    with ResultStore(db) as store:
        failures = store.failures(exp.name)
    for line in failure_summary(failures):
        print(f"failed: {line}", file=sys.stderr)
    return exp, db, failures


def _cmd_run(args) -> int:
    _exp, _db, failures = _run(args, args.experiment)
    return 1 if failures else 0


def _cmd_report(args) -> int:
    from .report import build_reports, to_html, to_markdown
    from .store import ResultStore, check_results_db

    check_results_db(args.db)
    outputs = {k: getattr(args, k) for k in ("md", "html", "csv", "parquet") if getattr(args, k)}
    _check_outputs(Path(args.db), outputs, _data_files_of(Path(args.db)) if outputs else None)
    reports = build_reports(args.db, args.experiment)
    if not reports:
        raise ValueError(f"{args.db} holds no experiment results or failures yet.")
    md = to_markdown(reports)
    outputs = {k: _output(getattr(args, k)) for k in ("md", "html", "csv", "parquet")
               if getattr(args, k) and not (k == "md" and args.md == "-")}  # fmt: skip
    if args.md == "-":  # standard output, beside --html's file
        print(md)
    elif args.md:
        outputs["md"].write_text(md, encoding="utf-8")
        print(f"Markdown report: {args.md}")
    elif not args.html:
        print(md)
    if args.html:
        outputs["html"].write_text(to_html(reports), encoding="utf-8")
        print(f"HTML report: {args.html}")
    if args.csv or args.parquet:
        with ResultStore(args.db, readonly=True) as store:
            if args.csv:
                print(f"CSV: {store.to_csv(args.csv, args.experiment)}")
            if args.parquet:
                print(f"parquet: {store.to_parquet(args.parquet, args.experiment)}")
    return 0


def _cmd_reproduce(args) -> int:
    shipped = shipped_experiments()
    if not args.name:
        if not shipped:
            print("No reproductions are shipped with this build.")
        for name, desc in shipped.items():
            print(f"{name:28s} {desc}")
        return 0
    if args.name not in shipped:
        print(f"skewlearn reproduce: error: no shipped reproduction {args.name!r}; choose one of: "
              f"{', '.join(shipped) or '(none)'}.", file=sys.stderr)  # fmt: skip
        return 2
    from .report import build_reports, to_html, to_markdown

    # the report's directory before the run, so a bad --html fails now, not after hours
    if args.html:
        db = Path(args.db) if args.db else Path(f"{args.name}.sqlite")
        _check_outputs(db, {"html": args.html})
    out = _output(args.html) if args.html else None
    exp, db, failures = _run(args, CONFIGS / f"{args.name}.toml")
    reports = build_reports(db, exp.name)
    # our table beside the paper's, the markers, win/tie/loss and the named cuts
    print(to_markdown(reports))
    out = out or Path(f"{exp.name}.html")
    out.write_text(to_html(reports), encoding="utf-8")
    print(f"HTML report: {out}")
    return 1 if failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run one of the experiment subcommands; returns the exit status."""
    parser = argparse.ArgumentParser(prog="skewlearn", description=first_line(__doc__))
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    expand_user_paths(args)
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
