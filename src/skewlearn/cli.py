"""The ``skewlearn`` command line.

::

    skewlearn datasets [NAME ...]            the offline benchmark sets
    skewlearn models                         the estimators, online and batch
    skewlearn stream DATA --model NAME       prequential run of one online learner
    skewlearn compare DATA --models A,B,...  the same stream, several learners side by side
    skewlearn cv DATA --models A,B,...       stratified k-fold test scores, any learner

``DATA`` is a benchmark name (``skewlearn datasets``) or the path of a data file
(KEEL .dat, LIBSVM, CSV, ARFF). LIBSVM, CSV and KEEL files (also .gz) are read in chunks
of ``--chunk-size`` rows (:func:`skewlearn.datasets.iter_chunks`), so a file of any length
runs in bounded memory with the same rows, order and labels as when loaded whole; with
``--shuffle`` or ``--scale`` (which need the whole set) and for ARFF the file is loaded
whole. ``--auc-bins M`` replaces the exact AUC (8 bytes a row) by the M-bin histogram
AUROC, for streams too long to keep a score per row. Every command takes ``--format json`` for
machine-readable output. A usage error (unknown model, parameter or dataset) prints one
line naming the valid choices and exits with status 2; a benchmark set that cannot be
fetched (no network on first use) exits with status 1. A learner that stops on the data
(e.g. its updates overflow on unscaled features) prints its message in one line and exits
with status 1; ``compare`` prints that line, shows the learner's row as ``nan`` and still
runs and reports the other learners. ``cv`` does the same for a learner whose fit
fails. Running out of memory (e.g. a huge ``--chunk-size`` on a file read in one pass)
prints one line and exits with status 1. Ctrl-C prints one line and exits with status
130 (``run`` and ``reproduce`` keep every finished task in the database, and the same
command resumes).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import math
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from ._hints import did_you_mean

if TYPE_CHECKING:
    from .datasets.streaming import ChunkedFile

__all__ = ["main"]

#: Checkpoint columns shown in tables (timing in learning seconds is left to JSON).
_RUN_COLUMNS = ("rows", "mistakes", "mistake_rate", "auc", "f1", "gmean", "rows_per_s")
_DATASET_COLUMNS = ("name", "rows", "features", "positives", "imbalance_ratio", "source")


class UsageError(Exception):
    """A mistake in the command line; reported in one line with exit status 2."""


class LearnerError(Exception):
    """A learner refused the data (its ValueError, e.g. an overflow that asks for scaled
    features); reported in one line with exit status 1. ``compare`` reports it for that
    model and goes on with the others."""


# --------------------------------------------------------------------------- models
def _estimators(online_only: bool) -> dict[str, type]:
    from ._discovery import all_estimators
    from .base import OnlineClassifier

    found = all_estimators()
    if online_only:
        found = {k: v for k, v in found.items() if issubclass(v, OnlineClassifier)}
    return found


def _find_model(name: str) -> type:
    import skewlearn

    from .base import OnlineClassifier

    # Fast path: import only the named model's family (the stream needs nothing else).
    known = {k.lower(): k for k in skewlearn._WHERE}
    if name.lower() in known:
        cls = getattr(skewlearn, known[name.lower()])
        if isinstance(cls, type) and issubclass(cls, OnlineClassifier):
            return cls
    online = _estimators(online_only=True)
    by_lower = {k.lower(): v for k, v in online.items()}
    if name.lower() in by_lower:
        return by_lower[name.lower()]
    every = {k.lower(): v for k, v in _estimators(online_only=False).items()}
    if name.lower() in every:
        cls = every[name.lower()]
        what = (
            "a feature map (a transformer), not a learner, and cannot be streamed (`cv` "
            "takes MultiNystroemMKL, a learner built on such maps)"
            if _kind(cls) == "transformer"
            else "a batch learner and cannot be streamed (`cv` takes it)"
        )
        raise UsageError(f"{cls.__name__} is {what}; online models: {', '.join(online)}.")
    raise UsageError(
        f"unknown model {name!r}.{did_you_mean(name, online)} Online models: {', '.join(online)}."
    )


def _find_estimator(name: str) -> type:
    """Any estimator, online or batch, by case-insensitive class name."""
    every = _estimators(online_only=False)
    by_lower = {k.lower(): v for k, v in every.items()}
    if name.lower() in by_lower:
        cls = by_lower[name.lower()]
        if _kind(cls) == "transformer":  # it crashed the folds with a traceback
            raise UsageError(
                f"{cls.__name__} is a feature map (a transformer), not a classifier: it gives "
                "no predictions to score. Use a learner built on it (MultiNystroemMKL), or put it "
                "in a scikit-learn pipeline before a classifier (Python)."
            )
        return cls
    raise UsageError(
        f"unknown model {name!r}.{did_you_mean(name, every)} Models: {', '.join(every)}."
    )


#: Floats that Python literals cannot spell (``float("inf")`` is not a literal).
_FLOAT_WORDS = {"inf", "+inf", "-inf", "nan", "+nan", "-nan", "infinity", "+infinity", "-infinity"}


def _parse_value(text: str) -> Any:
    """A ``--param`` value: a Python literal, ``inf``/``-inf``/``nan`` (any case) as a
    float (e.g. TruncatedGradient's ``theta=inf``), else the text itself."""
    if text.strip().lower() in _FLOAT_WORDS:
        return float(text)
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _parse_label(text: str) -> Any:
    """A label given on the command line (``--positive-class``): a number or a quoted
    string as Python reads it, anything else the text itself. A file's labels are numbers
    or strings, so ``True``, ``None`` or ``[1]`` are labels spelt so, not Python values
    (``None`` made the minority class positive, as if nothing had been given)."""
    if text.strip().lower() in _FLOAT_WORDS:  # as before --param read them as floats
        return text
    value = _parse_value(text)
    if isinstance(value, str) or (isinstance(value, int | float) and not isinstance(value, bool)):
        return value
    return text


def _parse_params(items: Sequence[str]) -> list[tuple[str, str, Any]]:
    """``["k=v", "A.k=v"]`` -> ``[(prefix or "", key, value)]``."""
    out = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--param expects key=value; got {item!r}.")
        prefix, dot, bare = key.rpartition(".")
        out.append((prefix if dot else "", bare if dot else key, _parse_value(value)))
    return out


def _refuse_repeats(flag: str, names: list[str], advice: str) -> None:
    """A :class:`UsageError` naming the entries of ``flag``'s list given more than once."""
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"{flag} names {', '.join(twice)} more than once{advice}")


def _set_once(params: dict[str, Any], model: str, key: str, value: Any) -> None:
    """``params[key] = value``, refusing a key that ``--param`` already gave (the last
    value would silently replace the first)."""
    if key in params:
        raise UsageError(
            f"--param gives {model}'s {key!r} twice ({params[key]!r} and {value!r}); give "
            "each parameter once."
        )
    params[key] = value


def _spelling_hint(params: dict[str, Any]) -> str:
    """Advice for a value given as ``true``/``false``/``none`` (read as a string), for the
    learner's refusal of it."""
    python = {"true": "True", "false": "False", "none": "None"}
    for key, value in params.items():
        if isinstance(value, str) and value.lower() in python:
            return (
                f" Write --param {key}={python[value.lower()]}: True, False and None are "
                "spelt as in Python (anything else is a string)."
            )
    return ""


def _build(cls: type, params: dict[str, Any], seed: int | None):
    est = cls()
    valid = sorted(est.get_params())
    unknown = sorted(set(params) - set(valid))
    if unknown:
        raise UsageError(
            f"unknown parameter {unknown[0]!r} for {cls.__name__}; valid parameters: "
            f"{', '.join(valid)}."
        )
    if params.get("pos_label") not in (None, 1, -1):
        value = params["pos_label"]
        raise UsageError(
            f"--param pos_label={value!r}: the command line gives {cls.__name__} the labels +1 "
            "(the positive class: the minority class of the data, or --positive-class LABEL "
            "of a data file) and -1 (the others), so pos_label can only be 1, -1 or None. To "
            f"make the file's label {value!r} positive, use --positive-class {value}."
            + _spelling_hint({"pos_label": value})
        )
    if seed is not None and "random_state" in valid and "random_state" not in params:
        params = {**params, "random_state": seed}
    est.set_params(**params)
    try:
        est._validate_params()
    except ValueError as exc:  # sklearn's InvalidParameterError
        raise UsageError(" ".join(str(exc).split()) + _spelling_hint(params)) from exc
    return est


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def _print_json(obj: Any) -> None:
    print(json.dumps(_jsonable(obj), indent=2))


# --------------------------------------------------------------------------- data
#: The readers' keyword arguments that have a command-line option, for their messages.
_CLI_WORDS = {
    "positive_class=": "--positive-class",
    "header=False": "--no-header",
    "zero_based=True": "--zero-based",
    "nominal_columns=[...]": "--nominal-columns COL,COL",
    "drop_columns=[...]": "--drop-columns COL,COL",
    "missing='drop'": "--missing drop",
    "n_features=": "--n-features ",
    "a larger n_features": "a larger --n-features",
    # the command line has no --format or --delimiter: the extension decides, and a
    # space-separated file is converted
    "Pass an integer index or header=True.": "Pass an integer index, or leave out --no-header.",
    "read the file with header=True.": "leave out --no-header.",
    "(format='csv', or name it .csv)": "(name it .csv)",
    "(format='libsvm', or name it .svm)": "(name it .svm)",
    ", pass delimiter=' ' if exactly one space separates the values, or delimiter=',' if "
    "the file really has one column.": ".",
}
#: The reader options of the command line, and the file formats each applies to.
_FILE_FLAGS = {
    "no_header": ("--no-header", "header", {"csv"}),
    "label_column": ("--label-column", "label_column", {"csv", "keel", "arff"}),
    "nominal_columns": ("--nominal-columns", "nominal_columns", {"csv"}),
    "drop_columns": ("--drop-columns", "drop_columns", {"csv"}),
    "missing": ("--missing", "missing", {"csv", "keel", "arff"}),
    "n_features": ("--n-features", "n_features", {"libsvm"}),
    "zero_based": ("--zero-based", "zero_based", {"libsvm"}),
}


def _cli_message(exc: Exception) -> str:
    """A reader's message on one line, naming the options as the command line spells them."""
    text = " ".join(str(exc).split())
    for python, cli in _CLI_WORDS.items():
        text = text.replace(python, cli)
    text = re.sub(r"label_column=(?=[^\s.,;])", "--label-column ", text)
    text = re.sub(r"--positive-class(?=[^\s.,;])", "--positive-class ", text)
    # a string label that reads as a number keeps its quotes only inside shell quotes
    text = re.sub(r"--positive-class ('[^'\s]*')", r'--positive-class "\1"', text)
    text = text.replace("label_column=", "--label-column")
    # the command line has no format option: the extension decides
    text = re.sub(
        r"Pass format= one of \[[^]]*\] \(known extensions: (\[[^]]*\]), also \.gz\)\.",
        r"Give the file one of the known extensions \1 (also with .gz).",
        text,
    )
    return text.replace(" (command line: --no-header)", "")


def _column(text: str) -> int | str:
    """A column given on the command line: an integer index, else a name."""
    try:
        return int(text)
    except ValueError:
        return text


def _file_options(data: str, args) -> dict[str, Any]:
    """The reader options of a data file from ``--positive-class``, ``--no-header``,
    ``--label-column``, ``--nominal-columns``, ``--drop-columns`` and ``--missing``; a flag
    the file's format (or a registered dataset) does not take is a :class:`UsageError`.
    ``predict --drop-columns ''`` drops none (where the model's default would)."""
    from . import datasets

    given = [f for f in _FILE_FLAGS if getattr(args, f, None) not in (None, False)]
    if args.positive_class is None and not given:
        return {}
    flags = ["--positive-class"] * (args.positive_class is not None)
    flags += [_FILE_FLAGS[f][0] for f in given]
    if data in datasets.list_datasets():
        raise UsageError(
            f"{', '.join(flags)} appl{'y' if len(flags) > 1 else 'ies'} to data files; {data!r} "
            "is a registered dataset whose "
            "positive class and format are fixed."
        )
    opts: dict[str, Any] = {}
    if args.positive_class is not None:
        opts["positive_class"] = _parse_label(args.positive_class)
    fmt = _data_format(data)
    for f in given:
        flag, keyword, formats = _FILE_FLAGS[f]
        if fmt is not None and fmt not in formats:
            kinds = ", ".join(sorted(k.upper() if k != "keel" else "KEEL" for k in formats))
            raise UsageError(f"{flag} applies to {kinds} files, not to {fmt.upper()} files.")
        value = getattr(args, f)
        if f == "no_header":
            value = False
        elif f == "zero_based":
            value = True
        elif f == "label_column":
            value = _column(value)
        elif f in ("nominal_columns", "drop_columns"):
            value = [_column(c.strip()) for c in value.split(",") if c.strip()]
            if not value and not (f == "drop_columns" and args.command == "predict"):
                raise UsageError(f"{flag} needs column names or indices, e.g. a,b,3.")
        opts[keyword] = value
    return opts


def _load(data: str, scale: str | None, options: dict[str, Any] | None = None):
    from . import datasets

    try:
        return datasets.load(data, scale=scale or False, **(options or {}))
    except FileNotFoundError as exc:
        raise UsageError(f"no data file {data!r}: {exc}") from exc
    except IsADirectoryError as exc:
        raise UsageError(
            f"{data!r} is a directory, not a data file; give the path of a file in it."
        ) from exc
    except PermissionError as exc:
        raise UsageError(f"cannot read the data file {data!r}: {exc.strerror}.") from exc
    except ValueError as exc:
        raise UsageError(_cli_message(exc)) from exc


_CHUNKED_EXTENSIONS = (".svm", ".libsvm", ".svmlight", ".txt", ".csv", ".tsv", ".dat")


def _streamable_file(data: str) -> bool:
    """Whether ``data`` is an existing file of a format ``iter_chunks`` reads in chunks."""
    import os

    base = data[:-3] if data.lower().endswith(".gz") else data
    return os.path.isfile(data) and base.lower().endswith(_CHUNKED_EXTENSIONS)


def _chunked(data: str, args):
    """A :class:`~skewlearn.datasets.ChunkedFile` for a data file that can be streamed
    from disk (no shuffle, no scaling), else None."""

    from . import datasets

    if args.shuffle or args.scale or data in datasets.list_datasets():
        return None
    if not _streamable_file(data):
        return None
    try:
        stream = datasets.iter_chunks(data, chunk_size=args.chunk_size, **_file_options(data, args))
    except ValueError as exc:
        raise UsageError(_cli_message(exc)) from exc
    if stream.n_rows is not None and stream.chunk_size > stream.n_rows:
        # a chunk is allocated at its full size: --chunk-size 10**15 asked for petabytes to
        # hold 240 rows (the results do not depend on the chunk size)
        stream.chunk_size = max(stream.n_rows, 1)
    return stream


def _keep_pandas_out(args) -> None:
    """Keep pandas out of a ``stream``/``compare`` process that reads a file in chunks.

    Nothing on that path uses pandas, but scikit-learn imports it whenever it is installed
    (``sklearn.utils.fixes``), and pandas imports pyarrow: about 70 MB of the resident set
    (docs/benchmarks.md, "Streaming a file from disk"). Marking pandas as unavailable
    before scikit-learn is first imported makes scikit-learn take its documented
    no-pandas path. Only for the command-line process (``main()`` without ``argv``) and only
    if neither is imported yet, so a Python session calling :func:`main` is never changed.
    """

    if args.command not in ("stream", "compare") or args.shuffle or args.scale:
        return
    if "pandas" in sys.modules or "sklearn" in sys.modules:
        return
    if _streamable_file(args.data):
        sys.modules["pandas"] = None  # ``import pandas`` now raises ImportError


def _data_summary(meta: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": meta.get("name"),
        "rows": meta.get("n_rows"),
        "features": meta.get("n_features"),
        "positives": meta.get("n_positives"),
        "imbalance_ratio": meta.get("imbalance_ratio"),
        "source": meta.get("source"),
        **({"dropped": meta["n_dropped"]} if "n_dropped" in meta else {}),
    }


def _order(y: np.ndarray, shuffle: bool, seed: int | None) -> np.ndarray | None:
    if not shuffle:
        return None
    return np.random.default_rng(seed).permutation(len(y))


class _ReaderErrorsAsUsage:
    """A :class:`~skewlearn.datasets.ChunkedFile` whose reading errors (a malformed line)
    become :class:`UsageError`, so a ValueError that leaves ``prequential`` is the
    learner's. Attributes (``classes``, ``n_rows``, ...) are the file's."""

    def __init__(self, chunks: ChunkedFile):
        self._chunks = chunks

    def __getattr__(self, name: str):
        return getattr(self._chunks, name)

    def __iter__(self):
        it = iter(self._chunks)
        while True:
            try:
                item = next(it)
            except StopIteration:
                return
            except ValueError as exc:
                raise UsageError(_cli_message(exc)) from exc
            yield item


#: "use NAME='A'" (or NAME=A), optionally followed by "or 'B'" alternatives, in a
#: learner's size warning: the settings it advises, in Python's words; also after ", or "
#: (OMCSL's "..., or measure='f1'") and at a sentence's start (LinearASLS's "solver='smw'
#: solves the same model ..."), where no "use" leads in.
_ADVISED = re.compile(r"(\b[Uu]se |, or |(?<=\. ))(\w+)=('[^']*'|[^\s,()']+)((?: or '[^']*')*)")


def _as_params(text: str, model: str | None = None) -> str:
    """``text`` with the settings a size warning advises ("use covariance='diag'", "use
    buffer='reservoir' or 'fifo'") written as this command takes them ("use --param
    covariance=diag", "... or --param buffer=fifo"); with ``model`` (compare and cv, which
    refuse a bare NAME), "--param AROW.covariance=diag"."""

    def param(m: re.Match) -> str:
        name = f"{model}.{m.group(2)}" if model else m.group(2)
        values = [m.group(3), *re.findall(r"'[^']*'", m.group(4))]
        shown = " or ".join(f"--param {name}={v.strip(chr(39))}" for v in values)
        return f"{m.group(1)}{shown}"

    return _ADVISED.sub(param, text)


@contextlib.contextmanager
def _quiet(model: str | None = None):
    """Warnings silenced, but a MemoryError after a ``RuntimeWarning`` becomes a
    ValueError (the learner stopped, for its caller) carrying the last one: the learners'
    size warnings (``warn_large_matrices``) name the setting that avoids the allocation
    which then fails, and a silenced one was never seen. ``model``: the name that
    compare's and cv's ``--param MODEL.NAME=VALUE`` give the learner (:func:`_as_params`)."""
    last: list[str] = []

    def keep(message, *args, **kwargs) -> None:
        last[:] = [" ".join(str(message).split())]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("always", RuntimeWarning)
        warnings.showwarning = keep
        try:
            yield
        except MemoryError as exc:
            if not last:
                raise
            raise ValueError(
                f"out of memory ({' '.join(str(exc).split())}). {_as_params(last[0], model)}"
            ) from None


def _run(est, X, y, args, progress: bool, checkpoints):
    from sklearn.base import clone

    from .evaluation.prequential import prequential
    from .metrics import F1

    if y is None:  # X is a ChunkedFile: one chunk at a time from disk
        X = _ReaderErrorsAsUsage(X)
        classes = X.classes
        X0, y0 = next(iter(X))
        k = min(len(y0), 8)
    else:
        classes = np.unique(y)
        X0, y0, k = X, y, min(len(y), 8)
    try:
        # Compile (or load from numba's disk cache) before timing, on a throw-away copy
        # (whose warnings the real run gives again, on all the rows).
        with _quiet(type(est).__name__ if args.command == "compare" else None):
            clone(est).test_then_train(X0[:k], y0[:k], classes=classes)
        del X0, y0
        # prequential counts the learner's pos_label as positive; with pos_label=-1 its
        # F1 was the majority class's, on a line naming the data's positives (AUC, G-mean
        # and mistakes do not depend on the side): the F1 here is always the data's +1
        # class's, as cv and predict report it
        flipped = getattr(est, "pos_label", None) == -1
        res = prequential(
            est,
            X,
            y,
            chunk_size=args.chunk_size,
            checkpoints=checkpoints,
            classes=classes,
            progress=progress,
            metrics={"f1_of_data": F1(pos_label=-1)} if flipped else None,
            keep_scores=False,
            auc_bins=args.auc_bins,
        )
        if flipped:
            for row in res.checkpoints:
                row["f1"] = row.pop("f1_of_data")
        return res
    except ValueError as exc:  # the learner's: reading errors are UsageErrors by now
        message = " ".join(str(exc).split())
        if "Scale the features" in message and getattr(args, "save", None):
            # --save refuses --scale (its statistics would not be saved): say what works
            message += (
                " (--save refuses --scale: scale the data file beforehand, and new data"
                " the same way)"
            )
        elif "Scale the features" in message and not args.scale:
            whole = ", which reads the whole file into memory" if y is None else ""
            message += f" (to scale them here: --scale standard{whole})"
        raise LearnerError(f"{type(est).__name__} stopped: {message}") from exc


def _progress(args) -> bool:
    return not args.no_progress and sys.stderr.isatty()


def _pct(x: float) -> str:
    return "nan" if math.isnan(x) else f"{100 * x:.2f}%"


def _run_settings(args, meta: dict[str, Any]) -> dict[str, Any]:
    """What the JSON output records of how the stream was run; ``positive_class`` is the
    data's (the label counted as positive, as in ``predict``'s), given or not."""
    return {
        "shuffle": args.shuffle,
        "seed": args.seed,
        "chunk_size": args.chunk_size,
        "scale": args.scale,
        "auc": "exact" if args.auc_bins is None else f"histogram, {args.auc_bins} bins",
        "positive_class": meta.get("positive_class"),
        "header": not args.no_header,
        "label_column": args.label_column,
        "nominal_columns": args.nominal_columns,
        "drop_columns": args.drop_columns,
        "missing": args.missing or "error",
    }


def _auc_name(args) -> str:
    return "AUC" if args.auc_bins is None else f"AUC (histogram, {args.auc_bins} bins)"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _headline(meta: dict[str, Any], args) -> str:
    order = f"shuffled (seed {args.seed})" if args.shuffle else "file order"
    if args.scale:
        order += f", features scaled ({args.scale}) over the whole set"
    if args.auc_bins is not None:
        order += f"; AUC from a {args.auc_bins}-bin histogram (approximate)"
    features = _plural(meta["n_features"], "feature")
    dropped = ""
    if meta.get("n_dropped"):
        dropped = f" ({_plural(meta['n_dropped'], 'more row')} dropped for a missing value)"
    if meta["n_rows"] is None:  # one pass, no counting scan (--positive-class on a file)
        return (
            f"{meta['name']}: rows and positives counted while streaming{dropped}, {features}, "
            f"positive class {meta['positive_class']!r}; {order}"
        )
    return (
        f"{meta['name']}: {_plural(meta['n_rows'], 'row')}{dropped}, {features}, "
        f"{_plural(meta['n_positives'], 'positive')} (imbalance ratio "
        f"{meta['imbalance_ratio']:.2f}); {order}"
    )


# --------------------------------------------------------------------------- commands
def _cmd_datasets(args) -> int:
    from . import datasets
    from .evaluation.prequential import format_table

    names = args.names or datasets.list_datasets()
    known = set(datasets.list_datasets())
    for name in names:
        if name not in known:
            raise UsageError(
                f"unknown dataset {name!r}.{did_you_mean(name, sorted(known))} Valid names: "
                f"{', '.join(sorted(known))}."
            )
    try:
        rows = [_data_summary(datasets.describe(name)) for name in names]
    except ValueError as exc:  # a cached file that does not parse: the reader's message
        raise UsageError(_cli_message(exc)) from exc
    if args.format == "json":
        _print_json(rows)
        return 0
    shown = [{**r, "source": str(r["source"]).split(":")[0]} for r in rows]
    print(format_table(shown, _DATASET_COLUMNS))
    return 0


def _kind(cls: type) -> str:
    """``"online"``, ``"batch"`` (a batch classifier) or ``"transformer"`` (a feature map
    such as MultiNystroem, which no command can score)."""
    from sklearn.base import is_classifier

    from .base import OnlineClassifier

    if issubclass(cls, OnlineClassifier):
        return "online"
    return "batch" if is_classifier(cls()) else "transformer"


def _cmd_models(args) -> int:
    from .evaluation.prequential import format_table

    rows = [
        {
            "model": name,
            "kind": _kind(cls),
            "module": cls.__module__.removeprefix("skewlearn."),
        }
        for name, cls in _estimators(online_only=False).items()
    ]
    if args.format == "json":
        _print_json(rows)
    else:
        print(format_table(rows))
    return 0


def _cmd_stream(args) -> int:
    from .evaluation.prequential import format_table

    cls = _find_model(args.model)
    _check_save_path(args)
    parsed = _parse_params(args.param)
    for prefix, key, _ in parsed:
        if prefix:
            raise UsageError(f"--param {prefix}.{key}=...: stream takes plain key=value.")
    params: dict[str, Any] = {}
    for _, key, value in parsed:
        _set_once(params, cls.__name__, key, value)
    est = _build(cls, params, args.seed)
    X, y, meta = _load_or_stream(args)
    res = _run(est, X, y, args, _progress(args), args.checkpoints)
    final, checkpoints = res.final, _at_most(res.checkpoints, args.checkpoints)
    meta = _after_pass(X, meta)
    if args.save is not None:
        _save_model(
            args.save,
            est,
            {**meta, "label_name": _label_name(X, meta)},
            named=not args.no_header,
            zero_based=args.zero_based,
            drop_columns=_file_options(args.data, args).get("drop_columns"),
        )
    if args.format == "json":
        _print_json(
            {
                "data": _data_summary(meta),
                "model": cls.__name__,
                "params": est.get_params(),
                **_run_settings(args, meta),
                "checkpoints": checkpoints,
                "final": final,
                **({"save": args.save} if args.save is not None else {}),  # as predict's scores
            }
        )
        return 0
    print(_headline(meta, args))
    print(f"{cls.__name__}({', '.join(f'{k}={v!r}' for k, v in sorted(_changed(est).items()))})")
    print(format_table(checkpoints, _RUN_COLUMNS))
    print(
        f"final: {_auc_name(args)} {final['auc']:.4f}  F1 {final['f1']:.4f}  "
        f"G-mean {final['gmean']:.4f}  "
        f"mistakes {final['mistakes']} ({_pct(final['mistake_rate'])})  "
        f"rows/s {final['rows_per_s']:,.0f}"
    )
    return 0


def _at_most(rows: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """``--checkpoints k`` report rows: the first row at or after each k-th of the stream.
    A file read in one pass has a row at every chunk end (its length is known only at the
    end); data of known length already has its k evenly spaced rows, kept as they are."""
    if len(rows) <= k:
        return rows
    n, out, i = rows[-1]["rows"], [], 1
    for row in rows:
        if row["rows"] * k >= i * n:  # row >= i n / k, in integers
            out.append(row)
            while i <= k and row["rows"] * k >= i * n:
                i += 1
    return out


def _load_or_stream(args):
    """``(X, y, meta)`` in memory, or ``(ChunkedFile, None, meta)`` for a file streamed
    from disk."""
    stream = _chunked(args.data, args)
    if stream is not None:
        return stream, None, stream.meta
    X, y, meta = _load(args.data, args.scale, _file_options(args.data, args))
    perm = _order(y, args.shuffle, args.seed)
    if perm is not None:
        X, y = X[perm], y[perm]
    return X, y, meta


def _after_pass(X, meta: dict[str, Any]) -> dict[str, Any]:
    """A streamed file's summary once it has been read (rows dropped for a missing value
    are only counted while reading); data in memory keeps its ``meta``."""
    return X.meta if hasattr(X, "meta") else meta


def _label_name(X, meta: dict[str, Any]) -> str | None:
    """The name of the label column of the data (a file read in chunks, or ``meta`` of one
    loaded whole), None where it has none (LIBSVM)."""
    attributes, index = getattr(X, "attributes", None), getattr(X, "label_index", None)
    if attributes and index is not None:
        return str(attributes[index].name)
    name = meta.get("label_name")
    return None if name is None else str(name)


def _changed(est) -> dict[str, Any]:
    default = type(est)().get_params()
    return {k: v for k, v in est.get_params().items() if default.get(k) != v}


#: The final figures of each learner that ``compare`` reports.
_COMPARE_COLUMNS = ("auc", "f1", "gmean", "mistakes", "mistake_rate", "rows_per_s")


def _models(args, find) -> list[tuple[str, Any]]:
    """``[(name, estimator)]`` of ``--models`` (classes looked up by ``find``), each with
    its ``--param MODEL.key=value`` settings and ``--seed`` as its ``random_state``."""
    names = [n.strip() for n in args.models.split(",") if n.strip()]
    if not names:
        raise UsageError("--models needs at least one model name, e.g. --models Perceptron,AROW.")
    classes = [find(n) for n in names]
    _refuse_repeats(
        "--models",
        [c.__name__ for c in classes],
        ": each model runs once, with its --param MODEL.key=value settings; name it once.",
    )
    lower = {c.__name__.lower(): c.__name__ for c in classes}
    params: dict[str, dict[str, Any]] = {c.__name__: {} for c in classes}
    for prefix, key, value in _parse_params(args.param):
        if not prefix:
            raise UsageError(
                f"--param {key}=...: {args.command} needs MODEL.{key}=value (one of "
                f"{', '.join(params)})."
            )
        if prefix.lower() not in lower:
            raise UsageError(
                f"--param {prefix}.{key}: {prefix!r} is not among --models ({', '.join(params)})."
            )
        _set_once(params[lower[prefix.lower()]], lower[prefix.lower()], key, value)
    return [(c.__name__, _build(c, params[c.__name__], args.seed)) for c in classes]


def _cmd_compare(args) -> int:
    from .evaluation.prequential import format_table

    models = _models(args, _find_model)
    X, y, meta = _load_or_stream(args)
    rows, failed = [], []
    for name, est in models:
        try:
            final = _run(est, X, y, args, _progress(args), 1).final
            row = {"model": name, **{k: final[k] for k in _COMPARE_COLUMNS}}
        except LearnerError as exc:  # report it, go on with the other models
            print(f"skewlearn compare: {exc}", file=sys.stderr)
            failed.append(name)
            row = {"model": name, **dict.fromkeys(_COMPARE_COLUMNS, float("nan"))}
            row["error"] = str(exc)
        rows.append({**row, "params": _changed(est)})
    meta = _after_pass(X, meta)
    if args.format == "json":
        _print_json(
            {
                "data": _data_summary(meta),
                **_run_settings(args, meta),
                "results": rows,
            }
        )
        return 1 if failed else 0
    print(_headline(meta, args))
    print(format_table(rows, ["model", *_COMPARE_COLUMNS]))
    if failed:
        print(f"{', '.join(failed)} stopped on this data (nan above); see the message(s) above.")
    return 1 if failed else 0


def _with_scaler(est, scale: str | None, sparse: bool):
    """``est`` behind a scaler fitted on each training part (none without ``scale``)."""
    if scale is None:
        return est
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    if scale == "minmax" and sparse:
        raise UsageError(
            "--scale minmax would make the sparse features dense; use --scale standard "
            "(without centring on sparse data) or no scaling."
        )
    scaler = StandardScaler(with_mean=not sparse) if scale == "standard" else MinMaxScaler()
    return make_pipeline(scaler, est)


def _cv_task(est, X, y, split, metrics, seed: int, name: str, rep: int, fold: int, model: str):
    """One fold of one model (named ``model`` on the command line): its test metrics, or
    the learner's error message."""
    from .evaluation.protocols import evaluate_split

    train, test = split.split(y, seed, name, rep, fold)
    try:
        with _quiet(model):  # the same warning k times; the errors are kept
            res = evaluate_split(est, X, y, train, test, metrics, seed=seed)
    except ValueError as exc:
        return {"error": " ".join(str(exc).split())}
    return {"metrics": res["metrics"], "fit_time": res["fit_time"]}


def _cv_metrics(text: str) -> list[str]:
    """The metric names of ``--metrics``, each one of the protocols' ``METRICS``."""
    from .evaluation.protocols import METRICS

    metrics = [m.strip() for m in text.split(",") if m.strip()]
    for m in metrics:
        if m not in METRICS:
            raise UsageError(
                f"unknown metric {m!r} in --metrics.{did_you_mean(m, METRICS)} Choose from "
                f"{', '.join(METRICS)}."
            )
    if not metrics:
        raise UsageError("--metrics needs at least one metric, e.g. --metrics gmean,roc_auc.")
    _refuse_repeats("--metrics", metrics, "; name each once.")
    return metrics


def _cv_summary(name: str, runs: list[dict], metrics: list[str]) -> dict[str, Any]:
    """One model's row: mean and std of each metric over its folds, the mean fit time,
    and the first error; a model that failed on any fold has no mean (nan)."""
    errors = [d["error"] for d in runs if "error" in d]
    row: dict[str, Any] = {"model": name}
    for m in metrics:
        values = np.array([d["metrics"][m] for d in runs if not errors], dtype=float)
        row[m] = float(values.mean()) if len(values) else float("nan")
        row[f"{m}_std"] = float(values.std(ddof=1)) if len(values) > 1 else float("nan")
    row["fit_s"] = float(sum(d.get("fit_time", 0.0) for d in runs)) / len(runs)
    if errors:
        row["error"] = errors[0]
    return row


def _cmd_cv(args) -> int:
    import scipy.sparse as sp
    from joblib import Parallel, delayed

    from .evaluation.prequential import format_table
    from .evaluation.protocols import KFold
    from .experiments.runner import _input_for

    metrics = _cv_metrics(args.metrics)
    models = _models(args, _find_estimator)
    X, y, meta = _load(args.data, None, _file_options(args.data, args))
    smallest = int(min(np.count_nonzero(y == 1), np.count_nonzero(y != 1)))
    if smallest < args.folds:
        fix = (
            f"Use --folds {smallest} or more data."
            if smallest >= 2
            else "Cross-validation needs at least 2 rows of each class: use more data"
            + (" or another --positive-class." if args.positive_class is not None else ".")
        )
        raise UsageError(
            f"--folds {args.folds} needs at least {args.folds} rows of each class; the "
            f"smaller class has {smallest}. {fix}"
        )
    split = KFold(n_splits=args.folds, n_repeats=args.repeats)
    # dense-only learners get a LIBSVM file as a dense copy, as in the experiment runner
    inputs = {n: _input_for(e, X) for n, e in models}
    pipes = {n: _with_scaler(e, args.scale, sp.issparse(inputs[n])) for n, e in models}
    tasks = [(n, r, f) for n in pipes for r in range(args.repeats) for f in range(args.folds)]
    done = Parallel(n_jobs=args.jobs)(
        delayed(_cv_task)(pipes[n], inputs[n], y, split, metrics, args.seed, meta["name"], r, f, n)
        for n, r, f in tasks
    )
    rows, failed = [], []
    for name, est in models:
        row = _cv_summary(name, [d for (n, _, _), d in zip(tasks, done) if n == name], metrics)
        if "error" in row:
            print(f"skewlearn cv: {name} stopped: {row['error']}", file=sys.stderr)
            failed.append(name)
        rows.append({**row, "params": _changed(est)})
    if args.format == "json":
        _print_json(
            {
                "data": _data_summary(meta),
                "folds": args.folds,
                "repeats": args.repeats,
                "seed": args.seed,
                "scale": args.scale,
                "positive_class": meta.get("positive_class"),
                "results": rows,
            }
        )
        return 1 if failed else 0
    scaled = f", features scaled ({args.scale}) on each training part" if args.scale else ""
    print(
        f"{meta['name']}: {_plural(meta['n_rows'], 'row')}, "
        f"{_plural(meta['n_features'], 'feature')}, {_plural(meta['n_positives'], 'positive')}; "
        f"{args.repeats} × stratified {args.folds}-fold (seed {args.seed}){scaled}; "
        "mean ± std over the folds"
    )
    shown = [
        {
            "model": r["model"],
            **{m: _mean_std(r[m], r[f"{m}_std"]) for m in metrics},
            "fit_s": round(r["fit_s"], 4),
        }
        for r in rows
    ]
    print(format_table(shown, ["model", *metrics, "fit_s"]))
    if failed:
        print(f"{', '.join(failed)} stopped on this data; see the message(s) above.")
    return 1 if failed else 0


def _mean_std(mean: float, std: float) -> str:
    if math.isnan(mean):
        return "nan"
    return f"{mean:.4f}" if math.isnan(std) else f"{mean:.4f} ± {std:.4f}"


# --------------------------------------------------------------------------- saved models
#: Marks a file written by ``stream --save`` (and its layout's version).
_MODEL_FORMAT = ("skewlearn-model", 1)
#: The entries every model file of layout 1 has (the others are optional, added later).
_MODEL_ENTRIES = ("model", "positive_class", "n_features", "feature_names", "trained_on")


def _check_save_path(args) -> None:
    """Refuse ``--save`` before the run when the file could not be written or used."""

    if args.save is None:
        return
    if args.scale:
        raise UsageError(
            f"--save with --scale {args.scale}: the scaling statistics come from the whole "
            "file and are not saved, so the model could not score new data the same way. "
            "Scale the data files beforehand (the same way for training and new data), or "
            "leave out --scale."
        )
    _check_output("--save", args.save, {"the data file": args.data})


def _check_output(flag: str, path: str, inputs: dict[str, str]) -> None:
    """Refuse an output path before any work: a directory, a missing folder (for
    ``--save``, also one not writable), one of the command's input files (``--scores``
    onto the data or the model replaced it, silently), or an existing experiment file or
    SQLite database (:func:`~skewlearn.experiments.cli.irreplaceable`). Any other existing
    file is replaced, as a model saved again replaces the last one."""
    import os
    import stat

    if not path:  # e.g. an unset shell variable: abspath("") is the working folder
        raise UsageError(f"{flag} needs a file name; it was given an empty one.")
    if path == "-":  # (--scores - is standard output, handled before this check)
        raise UsageError(
            f"{flag} '-': {flag} writes a file, not standard output; give a file name "
            "(./- for a file named '-')."
        )
    if os.path.isdir(path):
        raise UsageError(f"{flag} {path!r} is a directory; give a file path.")
    # (a link's file is written, in its folder; a pipe or a device is written as it is)
    folder = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{flag} {path!r}: the folder {folder!r} does not exist.")
    try:  # a regular file is replaced by a new one; a pipe or a device is written as it is
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:  # a new file (or a dangling link's)
        regular = True
    except OSError as exc:  # a link loop, which open() refuses too
        raise UsageError(f"{flag} {path!r}: {exc.strerror}; give a file path.") from None
    if flag == "--save" and regular and not os.access(folder, os.W_OK):
        # (the model is written to a new file in that folder, then renamed)
        raise UsageError(f"{flag} {path!r}: the folder {folder!r} is not writable.")
    from .experiments.cli import _same_file, irreplaceable

    for what, given in inputs.items():
        if _same_file(path, given) and os.path.isfile(given):
            raise UsageError(
                f"{flag} {path!r} is {what}; writing there would replace it. Give {flag} "
                "another file name."
            )
    what = irreplaceable(path)
    if what:
        raise UsageError(
            f"{flag} {path!r} is {what}; writing there would destroy it. Give {flag} "
            "another file name."
        )


def _save_model(
    path: str,
    est,
    meta: dict[str, Any],
    named: bool = True,
    zero_based: bool = False,
    drop_columns: Sequence[int | str] | None = None,
) -> None:
    """Pickle the learner with what ``predict`` needs to read new data as it was trained:
    the positive class, the width, (for named columns) the feature names, (for LIBSVM)
    whether the indices started at 0 and (for CSV) the columns left out, as given to
    ``--drop-columns``. Written to a temporary file first, so a failed write never leaves
    half a model."""
    import pickle

    from . import __version__
    from ._files import atomic_write

    # a file read with --no-header has no column names, only placeholders (x1, x2, ...)
    names = meta.get("feature_names") if named else None
    fmt = _data_format(meta.get("path") or "")
    libsvm = fmt == "libsvm"
    bundle = {
        "format": _MODEL_FORMAT,
        "model": est,
        "positive_class": meta["positive_class"],
        "n_features": int(est.n_features_in_),
        # LIBSVM columns are numbered, not named: the width is the check there
        "feature_names": None if libsvm or names is None else [str(n) for n in names],
        "trained_on": meta.get("name"),
        # predict's advice when new data is read with another label column
        "label_name": None if libsvm or names is None else meta.get("label_name"),
        # how predict reads a LIBSVM file unless told (absent from older files: 1-based)
        "zero_based": bool(libsvm and zero_based),
        # how predict reads a CSV file unless told: without a header line if the training
        # file had none (absent from older files: with one)
        "no_header": bool(fmt == "csv" and not named),
        # the CSV columns predict leaves out unless told, as given (absent before 26: none)
        "drop_columns": list(drop_columns) if fmt == "csv" and drop_columns else None,
        # named by predict when another version's learner cannot score (absent before 18)
        "skewlearn_version": __version__,
    }  # fmt: skip
    try:
        with atomic_write(path, prefix=".skewlearn-model-") as fh:
            pickle.dump(bundle, fh, protocol=pickle.HIGHEST_PROTOCOL)
    except OSError as exc:  # a full disk, a folder without write access, ...
        raise UsageError(f"cannot write --save {path!r}: {exc.strerror or exc}.") from exc


def _data_format(data: str) -> str | None:
    """``"libsvm"``, ``"csv"``, ... from a data file's extension (None if unknown)."""
    import os

    from .datasets.readers import _EXTENSIONS

    base = data[:-3] if data.lower().endswith(".gz") else data
    return _EXTENSIONS.get(os.path.splitext(base)[1].lower())


def _load_model(path: str) -> dict[str, Any]:
    import pickle

    try:
        with open(path, "rb") as fh:
            bundle = pickle.load(fh)
    except FileNotFoundError:
        raise UsageError(f"no model file {path!r}; write one with stream --save.") from None
    except IsADirectoryError:
        raise UsageError(f"{path!r} is a directory, not a model file.") from None
    except ValueError as exc:  # a model pickled by another skewlearn version
        raise UsageError(" ".join(str(exc).split())) from exc
    except (ImportError, AttributeError) as exc:
        if "skewlearn" not in str(exc):  # a pickle of something else
            raise UsageError(
                f"{path!r} is not a skewlearn model file ({type(exc).__name__}); write one "
                "with stream --save."
            ) from exc
        from . import __version__

        # a class moved or renamed between versions: the version check is never reached
        raise UsageError(
            f"{path!r} was written by another skewlearn version: its learner's class is "
            f"not in skewlearn {__version__} ({' '.join(str(exc).split())}). Load it with "
            "the version that saved it, or train the model again with this one."
        ) from exc
    except Exception as exc:  # not a pickle at all
        raise UsageError(
            f"{path!r} is not a skewlearn model file ({type(exc).__name__}); write one with "
            "stream --save."
        ) from exc
    tag = bundle.get("format") if isinstance(bundle, dict) else None
    if (
        isinstance(tag, tuple)
        and len(tag) == 2
        and tag[0] == _MODEL_FORMAT[0]
        and tag != _MODEL_FORMAT
    ):
        from . import __version__

        raise UsageError(
            f"{path!r} is a skewlearn model file layout {tag[1]!r}; skewlearn {__version__} "
            f"reads layout {_MODEL_FORMAT[1]}. Load it with the version that saved it, or "
            "train the model again with this one."
        )
    if tag != _MODEL_FORMAT:
        raise UsageError(f"{path!r} is not a skewlearn model file; write one with stream --save.")
    missing = next((k for k in _MODEL_ENTRIES if k not in bundle), None)
    if missing is not None:  # was a KeyError traceback where predict first read it
        raise UsageError(
            f"{path!r} is a damaged skewlearn model file: it has no {missing!r} entry. "
            "Write it again with stream --save."
        )
    return bundle


#: Rows per chunk when ``predict`` streams a data file.
_PREDICT_CHUNK = 100_000


def _cmd_predict(args) -> int:
    try:
        bundle = _load_model(args.model)
    except UsageError as exc:  # "predict DATA MODEL": say which argument comes first
        if "is not a skewlearn model file" in str(exc) and _data_format(args.model):
            raise UsageError(
                f"{args.model!r} is not a skewlearn model file; it looks like a data file: "
                "the model comes first, skewlearn predict MODEL DATA (stream --save writes "
                "a model)."
            ) from None
        raise
    if args.scores == "-" or _names_stdout(args.scores):
        # the scores CSV on standard output, the report on stderr (also for /dev/stdout:
        # written as a file, the report followed the CSV into a pipe, and a file there
        # was replaced by one of the scores, the report going to the deleted one)
        scores_out = sys.stdout
        with contextlib.redirect_stdout(sys.stderr):
            return _predict(args, bundle, scores_out)
    return _predict(args, bundle)


def _names_stdout(path: str | None) -> bool:
    """Whether ``path`` (``/dev/stdout``, ``/dev/fd/1``, the file or pipe standard output
    goes to) is standard output's own file or pipe; not a terminal or ``/dev/null``."""
    import os
    import stat

    if not path:
        return False
    try:
        here = os.stat(path)
        return not stat.S_ISCHR(here.st_mode) and os.path.samestat(
            here, os.fstat(sys.stdout.fileno())
        )
    except (OSError, ValueError, AttributeError):  # no such file; stdout without a fd
        return False


def _predict(args, bundle: dict[str, Any], scores_out=None) -> int:
    """``predict`` once the model is loaded; ``scores_out``: the stream of ``--scores -``."""
    from .metrics import f1, gmean, roc_auc

    if args.scores not in (None, "-"):  # before the scoring pass, which may take minutes
        _check_output("--scores", args.scores, {"the model": args.model, "the data": args.data})
    est, positive = bundle["model"], bundle["positive_class"]
    scores, predicted, y, meta = _predict_scores(args, bundle)
    # rows of one class only: every row positive (the readers refuse data without a
    # positive row); the AUC and G-mean need a negative row too
    both = bool((y != 1).any())
    result = {
        "rows": len(y),
        "positives": int(np.count_nonzero(y == 1)),
        "auc": float(roc_auc(y, scores, pos_label=1)) if both else float("nan"),
        "f1": float(f1(y, predicted, pos_label=1)),
        "gmean": float(gmean(y, predicted, pos_label=1)) if both else float("nan"),
    }
    if scores_out is not None:
        _write_score_lines(scores_out, scores, predicted == 1)
        scores_out.flush()
    elif args.scores is not None:
        _write_scores(args.scores, scores, predicted == 1)
    if args.format == "json":
        _print_json(
            {
                "data": _data_summary(meta),
                "model": type(est).__name__,
                "trained_on": bundle["trained_on"],
                "positive_class": positive,
                **result,
                **({"scores": args.scores} if args.scores is not None else {}),
            }
        )
        return 0
    dropped = meta.get("n_dropped") or 0
    print(
        f"{meta['name']}: {_plural(result['rows'], 'row')}"
        + (f" ({_plural(dropped, 'more row')} dropped for a missing value)" if dropped else "")
        + f", {_plural(result['positives'], 'positive')} (positive class {positive!r}); "
        f"{type(est).__name__} trained on {bundle['trained_on']}"
    )
    print(f"AUC {result['auc']:.4f}  F1 {result['f1']:.4f}  G-mean {result['gmean']:.4f}")
    if not both:
        print("(AUC and G-mean are undefined: every row is positive, none negative to compare)")
    if args.scores is not None:
        # its lines follow the rows scored: matched to the data by position, they would
        # move up one at each dropped row
        gap = (
            f" (one line per row scored: none for the dropped {'row' if dropped == 1 else 'rows'})"
        )
        where = "standard output" if args.scores == "-" else args.scores
        print(f"scores written to {where}" + (gap if dropped else ""))
    return 0


def _predict_scores(args, bundle: dict[str, Any]):
    """``(scores, predicted ±1, y ±1, meta)`` of DATA under the saved model. A data file is
    read in chunks (memory: one chunk besides the scores, as ``stream``); a registered set
    is loaded whole. DATA is read with the model's positive class and checked against its
    width and column names."""

    from . import datasets

    est, positive, width = bundle["model"], bundle["positive_class"], bundle["n_features"]
    if args.no_header is None:  # a CSV file is read as the training file was
        args.no_header = bool(bundle.get("no_header")) and _data_format(args.data) == "csv"
    options = _file_options(args.data, args)
    saved_drop = bundle.get("drop_columns")
    if saved_drop and args.drop_columns is None and _data_format(args.data) == "csv":
        options["drop_columns"] = saved_drop  # the columns left out in training
    elif saved_drop:  # the messages' note on the model's default would not apply
        bundle = {**bundle, "drop_columns": None}
    if not options.get("drop_columns", True):  # --drop-columns '': none
        del options["drop_columns"]
    registered = args.data in datasets.list_datasets()
    if not registered:
        options["positive_class"] = positive
    libsvm = _data_format(args.data) == "libsvm"
    if libsvm and args.zero_based is None and bundle.get("zero_based"):
        options["zero_based"] = True  # as the training file was read
    if not registered and _streamable_file(args.data):
        if libsvm:
            options["n_features"] = width  # a narrower file is widened, a wider one refused
        try:
            stream = datasets.iter_chunks(args.data, chunk_size=_PREDICT_CHUNK, **options)
        except ValueError as exc:
            raise UsageError(_predict_message(exc, bundle, positive)) from exc
        nominal = [
            a.name
            for j, a in enumerate(getattr(stream, "attributes", None) or [])
            if j != stream.label_index and a.categories
        ]
        columns = _check_columns(
            stream.meta, stream.n_features, bundle, libsvm or args.no_header, nominal
        )
        parts, done = [], 0
        try:  # (a learner's error while scoring is a LearnerError, not a ValueError)
            for X, y in stream:
                X = _model_columns(X, columns, width, stream.meta["name"], done)
                parts.append((*_score(est, X, bundle), y))
                done += len(y)
        except ValueError as exc:  # reading the file
            raise UsageError(_predict_message(exc, bundle, positive)) from exc
        if not parts:
            raise UsageError(f"{args.data!r} has no data rows.")
        scores, predicted, y = (np.concatenate(column) for column in zip(*parts))
        return scores, predicted, y, _counted(stream.meta, y)
    try:
        X, y, meta = _load(args.data, None, options)
    except UsageError as exc:
        raise UsageError(_predict_message(exc, bundle, positive)) from exc
    if meta["positive_class"] != positive:
        raise UsageError(
            f"{meta['name']}'s positive class is {meta['positive_class']!r}; the model was "
            f"trained with {positive!r} as the positive class."
        )
    columns = _check_columns(
        meta, X.shape[1], bundle, libsvm or args.no_header, list(meta.get("nominal") or ())
    )
    X = _model_columns(X, columns, width, meta["name"], 0)
    return (*_score(est, X, bundle), y, meta)


def _counted(meta: dict[str, Any], y: np.ndarray) -> dict[str, Any]:
    """A file's summary with the counts of its rows ``y`` (a file read in one pass has
    none: its length was not known before)."""
    n, positives = len(y), int(np.count_nonzero(y == 1))
    ratio = (n - positives) / positives if positives else None
    return {**meta, "n_rows": n, "n_positives": positives, "imbalance_ratio": ratio}


def _score(est, X, bundle: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The model's scores and ±1 predictions of ``X``; its ValueError (e.g. values too
    large for it) is a :class:`LearnerError`, a missing attribute (a learner pickled by a
    skewlearn whose learner kept other fitted attributes) a :class:`UsageError` naming
    both versions."""
    try:
        return est.decision_function(X), est.predict(X)
    except AttributeError as exc:
        from . import __version__

        saved = bundle.get("skewlearn_version")
        by = (
            f"skewlearn {saved}"
            if saved
            else "an earlier skewlearn version (the file does not record which)"
        )
        raise UsageError(
            f"the saved {type(est).__name__} cannot score with skewlearn {__version__} "
            f"({' '.join(str(exc).split())}); it was saved by {by}. Load it with the "
            "version that saved it, or train the model again with this one."
        ) from exc
    except ValueError as exc:
        raise LearnerError(f"{type(est).__name__} stopped: {' '.join(str(exc).split())}") from exc


def _predict_message(exc: Exception, bundle: dict[str, Any], positive) -> str:
    """A reading error of ``predict`` on one line, with the model's side of a mismatch."""
    text = _cli_message(exc) if not isinstance(exc, UsageError) else str(exc)
    names = "--no-header reads it as data: leave out --no-header."  # (_NAMES_FIRST_FIX)
    if bundle.get("no_header") and names in text:
        # the model's --no-header, which leaving out the flag keeps: --header overrides it
        text = text.replace(
            names,
            "the model's --no-header (it was trained on a CSV file without a header line) "
            "reads it as data: pass --header.",
        )
    elif bundle.get("no_header") and "line 1:" in text and "non-numeric" in text:
        text += (
            " (The model was trained on a CSV file without a header line, so this file is "
            "read without one: pass --header if its first line is column names.)"
        )
    if "--drop-columns" in text and "non-numeric" not in text:
        text += _drop_note(bundle)
    if "does not occur" in text:
        return f"{text} The model's positive class is {positive!r}."
    if "exceeds --n-features" in text:  # a LIBSVM index beyond the model's width
        head = text.split(" exceeds --n-features")[0]
        text = (
            f"{head} is beyond the {bundle['n_features']} features the model was trained on "
            f"({bundle['trained_on']})."
        )
        if bundle.get("zero_based"):
            text += (
                " The model was trained on a 0-based LIBSVM file, so this file is read 0-based; "
                "pass --no-zero-based if its indices start at 1."
            )
    return text


def _drop_note(bundle: dict[str, Any]) -> str:
    """The note on the columns ``predict`` left out because the model recorded them (its
    ``drop_columns``, None when DATA is read otherwise), for a message on DATA's columns;
    "" when there are none."""
    import shlex

    saved_drop = bundle.get("drop_columns")
    if not saved_drop:
        return ""
    shown = shlex.quote(",".join(map(str, saved_drop)))  # as the shell takes it back
    return (
        f" (The model was trained with --drop-columns {shown}, so this file is read with "
        f"{'it' if len(saved_drop) == 1 else 'them'} left out: pass --drop-columns with "
        "this file's columns to leave out, or --drop-columns '' for none.)"
    )


def _check_columns(
    meta: dict[str, Any], n_features: int, bundle, unnamed: bool, nominal: Sequence[str] = ()
) -> tuple[np.ndarray, list] | None:
    """DATA's width against the model's, and its column names when both have names (not a
    LIBSVM file, nor a CSV file read with --no-header, whose columns have only positions).

    The one-hot columns ``A=c`` of a ``nominal`` attribute ``A`` are the categories that
    occur in (or are declared by) each file, so DATA may lack some of the model's: these
    are all zeros in the model's encoding. Returns None when DATA's columns are the
    model's, else ``(place, unseen)``: each DATA column's index among the model's (-1
    for a category the model never saw, whose column must be all zeros) and those
    categories (:func:`_nominal_layout`); any other difference is a :class:`UsageError`."""
    width, names = bundle["n_features"], bundle["feature_names"]
    got = [str(n) for n in meta["feature_names"]] if names is not None and not unnamed else None
    if got is not None and got != names:
        layout = _nominal_layout(got, names, nominal)
        if layout is not None:
            return layout
    if n_features != width:
        raise UsageError(
            f"{meta['name']} has {_plural(n_features, 'feature')}; the model was trained on "
            f"{width} ({bundle['trained_on']}). Read it with the same columns "
            "(--label-column, --nominal-columns, --drop-columns) as the training data."
            + _drop_note(bundle)
        )
    if got is not None and got != names:
        label = bundle.get("label_name")  # (models saved before session 17 have none)
        if label is not None and label in got and label not in names:
            raise UsageError(
                f"{meta['name']} has its column {label!r} among the features; the model was "
                f"trained with {label!r} as the label: pass --label-column {label}."
            )
        k = next(i for i, (a, b) in enumerate(zip(got, names)) if a != b)
        raise UsageError(
            f"{meta['name']}'s feature {k + 1} is {got[k]!r}; the model was trained with "
            f"{names[k]!r} there. Give the columns in the training data's order."
            + _drop_note(bundle)
        )
    return None


def _one_hot_of(name: str, nominal: Sequence[str]) -> str | None:
    """The nominal attribute whose one-hot column ``name`` (``A=c``) is, else None."""
    return next((a for a in nominal if name.startswith(f"{a}=")), None)


def _nominal_layout(
    got: list[str], names: list[str], nominal: Sequence[str]
) -> tuple[np.ndarray, list[tuple[str, str, list[str]]]] | None:
    """DATA's columns ``got`` placed among the model's ``names`` when they differ only in
    the categories of one-hot encoded ``nominal`` attributes, or their order (a header
    may declare them in another; see :func:`_check_columns`); None for any other
    difference. The second item is ``(attribute, category, the model's
    categories)`` of each category the model never saw, in the order of DATA's columns."""
    known, present = set(names), set(got)

    def order(columns: list[str]) -> list[str]:  # an attribute's one-hot columns as one
        keys = [_one_hot_of(n, nominal) or n for n in columns]
        return [k for i, k in enumerate(keys) if i == 0 or k != keys[i - 1]]

    if order(got) != order(names):  # other columns, or in another order
        return None
    unseen = []
    for n in [*(n for n in names if n not in present), *(n for n in got if n not in known)]:
        attribute = _one_hot_of(n, nominal)
        if attribute is None or not any(m.startswith(f"{attribute}=") for m in names):
            return None
        if n not in known:
            cut = len(attribute) + 1
            categories = [m[cut:] for m in names if m.startswith(f"{attribute}=")]
            unseen.append((attribute, n[cut:], categories))
    place = np.array([names.index(n) if n in known else -1 for n in got], dtype=np.intp)
    return place, unseen


def _model_columns(X, columns, width: int, name: str, done: int):
    """``X`` with the model's columns (:func:`_check_columns`): a category DATA lacks is a
    column of zeros; a row of a category the model never saw is a :class:`UsageError`
    (``done`` rows came before ``X``, to number it)."""
    if columns is None:
        return X
    import scipy.sparse as sp

    place, unseen = columns
    new = place < 0
    if new.any():
        part = X[:, new]
        hits = np.asarray((part != 0).toarray() if sp.issparse(part) else part != 0)
        if hits.any():
            row, k = (int(i[0]) for i in np.nonzero(hits))
            attribute, category, categories = unseen[k]
            raise UsageError(
                f"{name}: {attribute!r} has the category {category!r} (first at data row "
                f"{done + row + 1}), which the model never saw in training (its categories: "
                f"{', '.join(categories)}): it has no column for it. Leave out the rows of "
                "that category, or train on data that has it."
            )
    keep = np.flatnonzero(~new)
    if sp.issparse(X):
        select = sp.csr_matrix((np.ones(len(keep)), (keep, place[keep])), shape=(len(place), width))
        return (X @ select).tocsr()
    out = np.zeros((X.shape[0], width), dtype=np.float64)
    out[:, place[keep]] = X[:, keep]
    return out


def _write_scores(path: str, scores: np.ndarray, positive: np.ndarray) -> None:
    """One line per row scored, in the data's order: ``score,positive`` (1 where the
    model predicts the positive class). Rows dropped for a missing value have none.
    Written to a temporary file first, as a model is: an interrupted or failed write
    leaves no half file (a reader would take its first rows for the whole data), and a
    previous file at ``path`` stays whole."""
    import io

    from ._files import atomic_write

    try:
        with atomic_write(path, prefix=".skewlearn-scores-") as raw:
            fh = io.TextIOWrapper(raw, encoding="utf-8")
            _write_score_lines(fh, scores, positive)
            fh.flush()
            fh.detach()  # atomic_write closes the file itself
    except OSError as exc:
        raise UsageError(f"cannot write --scores {path!r}: {exc.strerror}.") from exc


def _write_score_lines(fh, scores: np.ndarray, positive: np.ndarray) -> None:
    """The scores CSV (its header, then ``score,positive`` per row) to the text file ``fh``;
    ``repr`` keeps every float exact."""
    fh.write("score,positive\n")
    for s, p in zip(scores.tolist(), positive.tolist()):
        fh.write(f"{s!r},{int(p)}\n")


# --------------------------------------------------------------------------- parser
def _positive_int(text: str) -> int:
    from .experiments.cli import positive_int

    return positive_int(text)


def _n_jobs(text: str) -> int:
    """``--jobs``: N >= 1 or -1 for all cores, as ``run`` and ``reproduce`` take it."""
    from .experiments.cli import _n_jobs as n_jobs

    return n_jobs(text)


def _seed(text: str) -> int:
    """``--seed``: every model's ``random_state``, so 0 ... 2**32 - 1 as scikit-learn takes
    it (checked here, so the message names the option the user gave)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 2**32 - 1:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 4294967295, got {text!r}")
    return value


def _two_or_more(text: str) -> int:
    """An integer >= 2 (``--folds``, ``--auc-bins``)."""
    value = _positive_int(text)
    if value < 2:
        raise argparse.ArgumentTypeError(f"expected an integer >= 2, got {text!r}")
    return value


def _data_after_params(parser: argparse.ArgumentParser, args) -> None:
    """``--param`` takes every word after it, so in ``stream --param C=1 pima`` argparse
    hands DATA to ``--param``: a last word without ``=`` is DATA when none was given."""
    if getattr(args, "command", None) not in ("stream", "compare", "cv") or args.data is not None:
        return
    if args.param and "=" not in args.param[-1]:
        args.data = args.param.pop()
        return
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub.choices[args.command].error("the following arguments are required: DATA")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``skewlearn`` command."""
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="skewlearn",
        description="Online and kernel learning for class-imbalanced data.",
    )
    parser.add_argument("--version", action="version", version=f"skewlearn {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common_output(p):
        p.add_argument(
            "--format",
            choices=("table", "json"),
            default="table",
            help="output format (default table)",
        )

    p = sub.add_parser("datasets", help="list the offline benchmark datasets")
    p.add_argument("names", nargs="*", metavar="NAME", help="only these datasets")
    common_output(p)
    p.set_defaults(func=_cmd_datasets)

    p = sub.add_parser("models", help="list the estimators")
    common_output(p)
    p.set_defaults(func=_cmd_models)

    def data_options(
        p, seed_help: str, scale_help: str, several: bool = True, streamed: bool = True
    ):
        # optional for argparse only: "--param K=V DATA" is read back below (_data_after_params)
        p.add_argument("data", metavar="DATA", nargs="?", help="benchmark name or data file path")
        p.add_argument(
            "--param",
            action="extend",
            nargs="+",
            default=[],
            metavar="K=V",
            help=(
                "model parameters, each prefixed with its model, e.g. AROW.r=0.1"
                if several
                else "model parameters, e.g. C=0.1 variant=pa2"
            )
            + " (values parsed as Python literals or inf/nan, else strings)",
        )
        p.add_argument("--seed", type=_seed, default=0, help=seed_help)
        p.add_argument("--scale", choices=("standard", "minmax"), default=None, help=scale_help)
        p.add_argument(
            "--positive-class",
            metavar="LABEL",
            default=None,
            help="data files: the label that becomes +1, the others -1 (default: the minority "
            "class of a two-class file)",
        )
        reading_options(p)
        p.add_argument(
            "--n-features",
            metavar="N",
            type=_positive_int,
            default=None,
            help="LIBSVM files: the number of features (a larger index is an error; default: "
            "the largest index)"
            + (
                ". With --positive-class the file is read in one pass, without the counting pass"
                if streamed
                else ""
            ),
        )
        common_output(p)

    def reading_options(p, predict: bool = False):
        if predict:  # the model's training file decides unless told (--header)
            header = p.add_mutually_exclusive_group()
            header.add_argument(
                "--no-header",
                action="store_const",
                const=True,
                default=None,
                help="CSV files: the first line is data, not column names (default: as in "
                "the CSV file the model was trained on)",
            )
            header.add_argument(
                "--header",
                dest="no_header",
                action="store_const",
                const=False,
                help="CSV files: the first line is column names",
            )
        else:
            p.add_argument(
                "--no-header",
                action="store_true",
                help="CSV files: the first line is data, not column names",
            )
        if predict:  # the model's training file decides unless told (--no-zero-based)
            p.add_argument(
                "--zero-based",
                action=argparse.BooleanOptionalAction,
                default=None,
                help="LIBSVM files: feature indices start at 0, or at 1 with "
                "--no-zero-based (default: as in the file the model was trained on)",
            )
        else:
            p.add_argument(
                "--zero-based",
                action="store_true",
                help="LIBSVM files: feature indices start at 0 (scikit-learn's "
                "dump_svmlight_file writes them so), not at 1",
            )
        p.add_argument(
            "--label-column",
            metavar="COL",
            default=None,
            help="CSV, KEEL and ARFF files: the label column, by name or index (default: the "
            "last column, or KEEL's @outputs)",
        )
        p.add_argument(
            "--nominal-columns",
            metavar="COL,COL",
            default=None,
            help="CSV files: feature columns (names or indices) to one-hot encode",
        )
        p.add_argument(
            "--drop-columns",
            metavar="COL,COL",
            default=None,
            help="CSV files: columns (names or indices) to leave out, e.g. a timestamp or "
            "an id"
            + (
                " (default: those left out in training, as the model recorded them; '' for none)"
                if predict
                else ""
            ),
        )
        p.add_argument(
            "--missing",
            choices=("error", "drop"),
            default=None,
            help="CSV, KEEL and ARFF files: what to do with rows that have a missing value "
            "(default: error)",
        )

    def stream_options(p, several: bool):
        data_options(
            p,
            "random_state of the models and shuffle seed (default 0)",
            "scale the features over the whole set first: standard (zero mean, unit "
            "variance) or minmax (to [0, 1]); a sparse (LIBSVM) file is not centred, and "
            "minmax divides by the largest absolute value (default: as stored)",
            several,
        )
        p.add_argument(
            "--chunk-size", type=_positive_int, default=1000, help="rows per pass (default 1000)"
        )
        p.add_argument("--shuffle", action="store_true", help="shuffle the rows (with --seed)")
        p.add_argument("--no-progress", action="store_true", help="no progress bar")
        p.add_argument(
            "--auc-bins",
            type=_two_or_more,
            default=None,
            metavar="M",
            help="histogram AUROC with M bins (bounded memory) instead of the exact AUC",
        )

    p = sub.add_parser("stream", help="prequential run of one online learner")
    stream_options(p, several=False)
    p.add_argument("--model", required=True, help="online model class name (case-insensitive)")
    p.add_argument(
        "--checkpoints", type=_positive_int, default=10, help="number of report rows (default 10)"
    )
    p.add_argument(
        "--save",
        metavar="PATH",
        default=None,
        help="after the pass, save the model to PATH (a pickle: load only files you trust); "
        "score new data with: skewlearn predict PATH DATA",
    )
    p.set_defaults(func=_cmd_stream)

    p = sub.add_parser("compare", help="several online learners on the same stream")
    stream_options(p, several=True)
    p.add_argument("--models", required=True, help="comma-separated model class names")
    p.set_defaults(func=_cmd_compare)

    p = sub.add_parser("predict", help="score data with a model saved by stream --save")
    p.add_argument("model", metavar="MODEL", help="a model file written by stream --save")
    p.add_argument("data", metavar="DATA", help="benchmark name or data file path")
    reading_options(p, predict=True)
    p.add_argument(
        "--scores",
        metavar="PATH",
        default=None,
        help="write each row's score and prediction (CSV: score,positive) to PATH, in the "
        "data's order (rows dropped by --missing drop have no line); - (or /dev/stdout) "
        "writes them to standard output and the report to standard error",
    )
    common_output(p)
    p.set_defaults(func=_cmd_predict, positive_class=None)  # from the model

    p = sub.add_parser("cv", help="stratified k-fold test scores of any learners")
    data_options(
        p,
        "random_state of the models and seed of the folds (default 0)",
        "scale the features on each training part: standard (zero mean, unit variance) "
        "or minmax (to [0, 1]); a sparse (LIBSVM) file takes standard only, not centred "
        "(default: as stored)",
        streamed=False,  # cv loads the whole file
    )
    p.add_argument(
        "--models", required=True, help="comma-separated model class names, online or batch"
    )
    p.add_argument(
        "--folds", type=_two_or_more, default=5, help="folds of the stratified k-fold (default 5)"
    )
    p.add_argument(
        "--repeats", type=_positive_int, default=1, help="repetitions, each reshuffled (default 1)"
    )
    p.add_argument(
        "--metrics",
        default="roc_auc,pr_auc,f1,gmean",
        help="comma-separated test metrics (default roc_auc,pr_auc,f1,gmean)",
    )
    p.add_argument(
        "--jobs",
        type=_n_jobs,
        default=1,
        help="folds fitted in parallel (-1: all cores; default 1)",
    )
    p.set_defaults(func=_cmd_cv)
    for name in ("stream", "compare", "cv"):  # DATA is required (see _data_after_params)
        p = sub.choices[name]
        p.usage = p.format_usage().removeprefix("usage: ").strip().replace("[DATA]", "DATA")

    from .experiments.cli import register as register_experiment_commands

    register_experiment_commands(sub)  # run, report, reproduce
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (usage errors exit with 2).

    Examples
    --------
    >>> from skewlearn.cli import main
    >>> main(["models", "--format", "json"])  # doctest: +ELLIPSIS
    [
    ...
    0
    """
    args = None
    try:  # Ctrl-C while the modules load (the readers bring numba and scipy: a second)
        parser = build_parser()
        args = parser.parse_args(argv)
        _data_after_params(parser, args)
        from .experiments.cli import expand_user_paths

        expand_user_paths(args)
        if argv is None:
            _keep_pandas_out(args)
        from .datasets import DataFetchError
    except KeyboardInterrupt:
        _interrupted(args)
    shown = warnings.formatwarning
    warnings.formatwarning = _warning_line(args.command)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"skewlearn {args.command}: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except BrokenPipeError:  # output piped into a program that stopped reading (| head)
        from .experiments.cli import stdout_closed

        return stdout_closed()
    except DataFetchError as exc:
        print(
            f"skewlearn {args.command}: data error: {' '.join(str(exc).split())}", file=sys.stderr
        )
        raise SystemExit(1) from None
    except LearnerError as exc:
        print(f"skewlearn {args.command}: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        _interrupted(args)
    except MemoryError as exc:  # e.g. a chunk of a huge --chunk-size, allocated whole
        hint = ""
        if getattr(args, "chunk_size", 1000) > 1000:
            hint = f" Give a smaller --chunk-size than {args.chunk_size} (rows held at once)."
        print(
            f"skewlearn {args.command}: out of memory ({' '.join(str(exc).split())}).{hint}",
            file=sys.stderr,
        )
        raise SystemExit(1) from None
    finally:
        warnings.formatwarning = shown


def _warning_line(command: str) -> Callable[..., str]:
    """How a warning reads on the command line: ``skewlearn COMMAND: warning: ...`` on one
    line, in the command's words (``--no-header``, not ``header=False``; for ``stream``,
    an advised setting as ``--param NAME=VALUE``). Python's own form named the console
    script's line (``.../bin/skewlearn:8: UserWarning: ...`` and its source
    ``sys.exit(main())``, or ``<frozen runpy>:88`` for ``python -m skewlearn``). Set as
    :data:`warnings.formatwarning`, so ``-W`` filters and recording
    (``warnings.catch_warnings(record=True)``) work as before."""

    def line(message, category, filename, lineno, line=None) -> str:
        text = _cli_message(Exception(message))
        if command == "stream":  # one learner: a bare --param NAME=VALUE is its setting
            text = _as_params(text)
        return f"skewlearn {command}: warning: {text}\n"

    return line


def _interrupted(args) -> NoReturn:
    """Ctrl-C: one line, and 130 as a shell expects (``args`` None: before parsing)."""
    command = f" {args.command}" if args is not None else ""
    print(f"skewlearn{command}: interrupted", file=sys.stderr)
    raise SystemExit(130) from None


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
