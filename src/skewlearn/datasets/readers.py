"""Readers for KEEL ``.dat``, LIBSVM/svmlight, CSV and ARFF files.

Every reader returns ``(X, y, meta)``:

``X``
    ``float64`` features: a C-contiguous ndarray, or a CSR matrix for LIBSVM files read
    with ``sparse=True`` (the LIBSVM default).
``y``
    1-D array of the labels as written in the file: ``int64`` when every label is an
    integer (``+1`` reads as ``1``), ``float64`` when every label is a number, else
    strings. Mapping labels to ±1 is :func:`skewlearn.datasets.load`'s job.
``meta``
    dict with ``feature_names`` (one per column of ``X``), ``nominal`` (``{attribute:
    [categories]}`` of the one-hot encoded attributes), ``label_name``, ``source`` (the
    path), ``format`` and ``n_dropped`` (rows dropped for missing values).

Nominal attributes are one-hot encoded **in place**: the attribute ``colour`` with
categories ``red, green`` becomes the two columns ``colour=red`` and ``colour=green`` at
the attribute's position. Categories keep their declared order (KEEL/ARFF header) or,
when inferred, sorted order. Missing values (``?``, ``<null>``; in CSV also an empty
field) raise a ``ValueError`` unless ``missing="drop"``, which drops the rows that hold
one. Every malformed file raises ``ValueError`` naming the file, the line and what to fix.
Files ending in ``.gz`` (any case) are decompressed on the fly (a gzip file without the
suffix is refused with that advice; bzip2, xz, zstd and zip files are refused with the
command that decompresses them); a UTF-8 byte-order mark and CRLF line ends are accepted
everywhere.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import math
import numbers
import os
import re
import warnings
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._files import user_path
from .._stack import user_stacklevel

__all__ = ["read", "read_arff", "read_csv", "read_keel", "read_libsvm"]

_MISSING = frozenset({"?", "<null>"})
_MISSING_CHOICES = ("error", "drop")


#: The largest 0-based LIBSVM column index: CSR matrices (and the compiled parser) hold
#: column indices as int32.
MAX_INDEX = 2**31 - 2


class NumberedNames(Sequence):
    """The names ``x<offset>, x<offset+1>, …`` of ``n`` LIBSVM columns, made on demand.

    A LIBSVM file can have millions of columns (hashed features) in a few rows; a list of
    their names would take more memory and time than the data. This sequence behaves like
    that list (``len``, indexing, slices, iteration, ``in``, ``==`` with a list) without
    storing it; unlike a list it is read-only and not JSON-serialisable (``list(names)``
    is). The readers use it above :data:`NAMES_AS_LIST` columns only.

    >>> names = NumberedNames(3, 1)
    >>> list(names), names[-1], names[:2], "x2" in names, names == ["x1", "x2", "x3"]
    (['x1', 'x2', 'x3'], 'x3', ['x1', 'x2'], True, True)
    """

    __slots__ = ("n", "offset")

    def __init__(self, n: int, offset: int) -> None:
        self.n = int(n)
        self.offset = int(offset)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [f"x{j + self.offset}" for j in range(*i.indices(self.n))]
        if not hasattr(type(i), "__index__"):  # as a list says it
            raise TypeError(
                f"feature name indices must be integers or slices, not {type(i).__name__}"
            )
        j = i.__index__()
        if j < 0:
            j += self.n
        if not 0 <= j < self.n:
            raise IndexError(f"feature name index {i} out of range for {self.n} columns")
        return f"x{j + self.offset}"

    def __iter__(self):
        return (f"x{j + self.offset}" for j in range(self.n))

    def __contains__(self, name: object) -> bool:
        digits = name[1:] if isinstance(name, str) and name[:1] == "x" else ""
        if not (digits.isascii() and digits.isdigit()):  # isdigit alone passes '³'
            return False
        return name == f"x{int(name[1:])}" and 0 <= int(name[1:]) - self.offset < self.n

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NumberedNames):
            return self.n == other.n and (self.n == 0 or self.offset == other.offset)
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return len(other) == self.n and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so unhashable like one

    def __reduce__(self):
        return (NumberedNames, (self.n, self.offset))

    def __repr__(self) -> str:
        if self.n <= 6:
            return repr(list(self))
        o, n = self.offset, self.n
        return f"['x{o}', 'x{o + 1}', 'x{o + 2}', ..., 'x{o + n - 1}'] ({n} names)"


#: Widths up to this get their LIBSVM names as a plain list (JSON, ``+`` and
#: ``isinstance(names, list)`` keep working); wider files get :class:`NumberedNames`.
NAMES_AS_LIST = 1 << 20


def numbered_names(n: int, offset: int) -> list[str] | NumberedNames:
    """``x<offset> … x<offset+n-1>``: a list up to :data:`NAMES_AS_LIST` columns (about
    70 MB of strings there), a :class:`NumberedNames` beyond."""
    if n <= NAMES_AS_LIST:
        return [f"x{j + offset}" for j in range(n)]
    return NumberedNames(n, offset)


# --------------------------------------------------------------------------- helpers
def _where(path: str, lineno: int | None) -> str:
    return f"{path}, line {lineno}" if lineno is not None else str(path)


def _fail(path: str, lineno: int | None, what: str, fix: str) -> ValueError:
    return ValueError(f"{_where(path, lineno)}: {what}. {fix}")


def _is_gz(path: str) -> bool:
    """Whether ``path`` names a gzip file (``.gz``, any case, as the format is told)."""
    return path.lower().endswith(".gz")


#: The first bytes of every gzip file (RFC 1952, ID1 ID2).
_GZIP_MAGIC = b"\x1f\x8b"


#: The first bytes of the other compressed files users meet, and how to decompress them.
_OTHER_MAGIC = (
    (b"BZh", "bzip2", "bunzip2 -k FILE"),
    (b"\xfd7zXZ\x00", "xz", "unxz -k FILE"),
    (b"\x28\xb5\x2f\xfd", "zstd", "unzstd FILE"),
    (b"PK\x03\x04", "zip", "unzip FILE"),
)
#: The file name suffixes of those formats (lower case), as :data:`_OTHER_MAGIC`'s kinds.
_OTHER_SUFFIXES = {".bz2": "bzip2", ".xz": "xz", ".zst": "zstd", ".zip": "zip"}
#: Bytes of a file's head that :func:`_refuse_unnamed_gzip` looks at.
MAGIC_BYTES = 10
#: What follows ``BZh<level>`` in a bzip2 file: a block's or the end's magic (so a text
#: file that starts with "BZh1" is not taken for one).
_BZIP2_NEXT = (b"1AY&SY", b"\x17rE8P\x90")


def _refuse_unnamed_gzip(path: str, head: bytes) -> None:
    """Raise when ``head`` (a plain file's first bytes) starts a gzip stream, or another
    compressed format (bzip2, xz, zstd, zip): decoded as text it would be "bytes that are
    not UTF-8 ... save the file as UTF-8", which sends the user the wrong way."""
    if head[:2] == _GZIP_MAGIC:
        raise ValueError(
            f"{path}: the file is gzip-compressed but its name does not end in .gz. Rename it "
            f"to {os.path.basename(path)}.gz (it is then decompressed while reading), or "
            "decompress it (gunzip -c FILE > NEW)."
        )
    for magic, kind, _command in _OTHER_MAGIC:
        if head.startswith(magic) and (kind != "bzip2" or head[4:10] in _BZIP2_NEXT):
            _refuse_compressed(path, kind)


def _refuse_compressed(path: str, kind: str) -> None:
    """Raise for a file compressed by ``kind`` (one of :data:`_OTHER_MAGIC`'s), which no
    reader decompresses, naming the command that does."""
    command = next(c for _, k, c in _OTHER_MAGIC if k == kind)
    raise ValueError(
        f"{path}: the file is {kind}-compressed; skewlearn reads plain text and gzip "
        f"(.gz) files only. Decompress it first ({command}), or recompress it with "
        "gzip and name it .gz."
    )


def _refuse_compressed_suffix(path: str, ext: str) -> None:
    """Raise when a file's extension ``ext`` (lower case) names a compressed format that
    is not read (``data.csv.bz2``) and its bytes are compressed: asked for a format, such a
    name got "cannot tell the format from the extension" with the list of extensions,
    i.e. "rename it". The bytes decide what it is (a plain file named ``.zip`` is not
    zip-compressed, and gets the caller's "pass format=" message); a file that cannot be
    opened is taken at its name, and the caller's later open reports why."""
    if ext not in _OTHER_SUFFIXES:
        return
    try:
        with open(path, "rb") as fh:
            head = fh.read(MAGIC_BYTES)
    except OSError:
        _refuse_compressed(path, _OTHER_SUFFIXES[ext])
    _refuse_unnamed_gzip(path, head)


def _read_raw(name: str, spare: int = 0) -> bytearray:
    """The file's bytes (gunzipped if it ends in .gz) in a bytearray with ``spare`` more
    bytes of room at its end; a plain file that starts a compressed stream is refused."""
    try:
        if _is_gz(name):
            raw = bytearray()
            with gzip.open(name, "rb") as fh:
                while piece := fh.read(1 << 24):
                    raw += piece
        else:
            with open(name, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                raw = bytearray(size + spare)  # one copy of the file: read into it
                with memoryview(raw) as view:
                    got = fh.readinto(view[:size])
                del raw[got:]
                raw += fh.read()  # the file grew while being read
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise ValueError(
            f"{name}: not a valid gzip file ({exc}). Decompress it with `gunzip -t` to check it, "
            "or drop the .gz suffix if it is plain text."
        ) from None
    if not _is_gz(name):
        _refuse_unnamed_gzip(name, raw[:MAGIC_BYTES])
    return raw


def _lines_before(raw, at: int) -> int:
    """The number of the line holding byte ``at`` of ``raw``, counting its line ends as
    the text does: ``\n``, ``\r\n`` and a lone ``\r``."""
    return _count_lines(raw, 0, at) + 1


def _line_start(block, at: int, first: int) -> int:
    """Start of the line holding byte ``at``, not before ``first`` (the first line's
    start, after a byte-order mark, which is no part of the line: no label)."""
    return max(block.rfind(b"\n", 0, at), block.rfind(b"\r", 0, at), first - 1) + 1


def _line_end(block, pos: int, end: int) -> tuple[int, int]:
    """``(end of the text of the line at pos, start of the next line)`` within ``end``."""
    n = block.find(b"\n", pos, end)
    r = block.find(b"\r", pos, end)
    if n < 0 and r < 0:
        return end, end
    if n < 0 or (0 <= r < n):
        if r + 1 < end and block[r + 1] == 10:
            return r, r + 2
        return r, r + 1
    return n, n + 1


def _count_lines(block: bytes, a: int, b: int) -> int:
    """Line ends in ``block[a:b]`` (``\\r\\n`` counts once)."""
    return block.count(b"\n", a, b) + block.count(b"\r", a, b) - block.count(b"\r\n", a, b)


def _decode(name: str, raw) -> str:
    """``raw`` as text (a UTF-8 byte-order mark removed), or the error naming the line of
    the first byte that is not UTF-8."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # utf-8-sig counts from the end of a byte-order mark; the message counts the file's
        at = exc.start + (3 if raw.startswith(codecs.BOM_UTF8) else 0)
        raise _fail(
            name,
            _lines_before(raw, at),
            f"bytes that are not UTF-8 ({exc.reason} at byte {at})",
            "Save the file as UTF-8.",
        ) from None


def _nul_error(name: str, lineno: int) -> ValueError:
    return _fail(name, lineno, "a NUL byte (binary data)", "Pass a text file.")


def _read_text(path: str | os.PathLike) -> str:
    """The whole file as text: gunzipped if it ends in .gz, BOM removed, newlines unified."""
    name = os.fspath(path)
    text = _decode(name, _read_raw(name))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        raise _nul_error(name, text[: text.index("\x00")].count("\n") + 1)
    return text


#: What ``str.strip`` removes among ASCII bytes (``bytes.strip`` keeps 0x1c-0x1f).
_ASCII_SPACE = b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _read_checked(name: str) -> tuple[bytearray, bool]:
    """The file's bytes checked as :func:`_read_text` checks its text (the same errors, in
    the same order: gzip, a compressed file without .gz, UTF-8, NUL), ending with a line
    end (one is added after a last line that lacks it), and whether the text is blank
    (``not text.strip()``). Only one copy of the file is held: an ASCII file is not
    decoded (the common case), another is decoded and the text dropped."""
    raw = _read_raw(name, spare=1)
    if raw.isascii():
        blank = not raw[:4096].strip(_ASCII_SPACE) and not raw.strip(_ASCII_SPACE)
    else:
        blank = not _decode(name, raw).strip()
    nul = raw.find(0)
    if nul >= 0:
        raise _nul_error(name, _lines_before(raw, nul))
    if raw and raw[-1] not in (10, 13):
        raw.append(10)
    return raw, blank


def _number(token: str) -> float | None:
    """``float(token)`` for a finite plain number, else None (no '1_0', 'nan', 'inf')."""
    if "_" in token:
        return None
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


_INT64 = (-(2**63), 2**63 - 1)


def _parse_labels(tokens: Sequence[str]) -> np.ndarray:
    """Labels as int64 if all are integers, float64 if all are numbers, else str.

    An integer beyond int64 keeps every label a string, wherever it stands in the file: as a
    float it could merge with a neighbouring label (2**63 and 2**63 + 1 are the same float64).
    """
    ints = []
    for t in tokens:
        if "_" in t:
            break
        try:
            v = int(t)
        except ValueError:
            break
        if not _INT64[0] <= v <= _INT64[1]:
            return np.asarray(list(tokens), dtype=str)
        ints.append(v)
    else:
        return np.asarray(ints, dtype=np.int64)
    if any(_huge_int(t) for t in tokens):
        return np.asarray(list(tokens), dtype=str)
    floats = [_number(t) for t in tokens]
    if all(v is not None for v in floats):
        return np.asarray(floats, dtype=np.float64)
    return np.asarray(list(tokens), dtype=str)


def _is_float(token: str) -> bool:
    """Whether ``token`` is a number to ``float`` (finite or not); '1_000' is not one."""
    if "_" in token:
        return False
    try:
        float(token)
    except ValueError:
        return False
    return True


def _huge_int(token: str) -> bool:
    """Whether ``token`` is an integer outside int64."""
    try:
        v = int(token)
    except ValueError:
        return False
    return not _INT64[0] <= v <= _INT64[1]


def _not_two_classes(where: str, classes: np.ndarray, label: str | None = None) -> ValueError:
    """The error for labels of other than two classes when no positive class is given.
    ``label`` names the column the labels were read from, in a format whose label column
    can be chosen (CSV, KEEL, ARFF): many "classes" there are often the values of a
    feature, read as labels because the label is not the last column."""
    return ValueError(
        f"{where}: labels have "
        + (f"{len(classes)} classes" if len(classes) != 1 else "only one class")
        + f" ({classes[:10].tolist()}); "
        + (
            "pass positive_class= to make a one-against-rest problem"
            + (
                f", or, if column {label!r} is not the label, label_column=COL (the label "
                "column's name or index)."
                if label is not None
                else "."
            )
            if len(classes) > 1
            else "a binary problem needs rows of two classes: check the label column "
            "(label_column=COL), or use data with both classes."
        )
    )


def _check_positive_class(positive: Any) -> None:
    """Refuse a ``positive_class`` that is not one label: a list or an array was compared
    with the labels element by element (every row of a file as long as the list became
    +1), a set or tuple matched nothing."""
    if positive is None or isinstance(positive, str | bytes | numbers.Number | np.generic):
        return
    if isinstance(positive, np.ndarray) and positive.ndim == 0:
        return
    raise TypeError(
        f"positive_class must be one label (e.g. 1 or 'yes'); got {positive!r}. To put "
        "several classes against the rest, relabel them first (e.g. with numpy.isin) and "
        "pass the new label."
    )


def _absent_positive(where: str, positive: Any, classes: Sequence) -> ValueError:
    """The error for a ``positive_class`` that no label equals. When it is a string and the
    labels numbers (or the other way round), say so and name the value to pass: "'1' does
    not occur; labels are [0, 1]" alone reads as a contradiction."""
    shown = list(classes[:10])
    msg = f"{where}: positive class {positive!r} does not occur; labels are {shown}."
    numeric = [c for c in shown if isinstance(c, numbers.Number)]
    text = [c for c in shown if isinstance(c, str)]
    if isinstance(positive, str) and numeric and not text:
        msg += f" The labels are numbers and {positive!r} is a string"
        value = _parse_labels([positive.strip()])[0] if positive.strip() else None
        if isinstance(value, np.number) and any(c == value for c in numeric):
            msg += f": pass positive_class={value.item()!r}"
        msg += "."
    elif isinstance(positive, numbers.Number) and text and not numeric:
        msg += f" The labels are strings and {positive!r} is a number"
        if str(positive) in text:
            msg += f": pass positive_class={str(positive)!r}"
        msg += "."
    return ValueError(msg)


def _warn_numeric_header(path: str, names: Sequence[str]) -> None:
    """Warn when the header line of a CSV file holds only numbers: most likely the file
    has no header, and its first data row is being used as column names (and lost).
    The warning names the first line outside skewlearn (:func:`user_stacklevel`), however
    the reader was reached (``read_csv``, ``read``, ``load``, ``iter_chunks``, a
    fallback)."""
    if names and all(_number(n) is not None for n in names):
        warnings.warn(
            f"{path}: the first line ({', '.join(names[:6])}{', ...' if len(names) > 6 else ''}) "
            "holds only numbers, so it is probably a data row, but it is read as the column "
            "names and is not a row of the data. If the file has no header line, pass "
            "header=False (command line: --no-header).",
            UserWarning,
            stacklevel=user_stacklevel(),
        )


def _check_switch(name: str, value) -> None:
    """Refuse a yes/no option that is not a bool (0 and 1 pass): a string is always true,
    so ``zero_based="auto"`` (scikit-learn's value) would shift every column silently."""
    if isinstance(value, bool | np.bool_) or (
        isinstance(value, int | np.integer) and value in (0, 1)
    ):
        return
    raise TypeError(
        f"{name} must be True or False; got {value!r}."
        + (
            " scikit-learn's 'auto' guesses from the file; here say which: False for "
            "LIBSVM's usual 1-based indices, True when they start at 0."
            if name == "zero_based"
            else ""
        )
    )


def _check_missing(missing: str) -> None:
    if missing not in _MISSING_CHOICES:
        raise ValueError(f"missing must be 'error' or 'drop'; got {missing!r}.")


def _column_list(columns, option: str = "nominal_columns") -> list:
    """``columns``, the list option named ``option`` (``nominal_columns``, ``drop_columns``),
    as a list; one string (or another non-list) is refused: it would be read one character
    at a time, each a column name."""
    if columns is None:
        return []
    if isinstance(columns, str | bytes) or not isinstance(
        columns, Sequence | set | frozenset | np.ndarray
    ):
        raise TypeError(
            f"{option} must be a list of column names or indices; got "
            f"{columns!r}. For one column pass a list: [{columns!r}]."
        )
    return list(columns)


def _dropped_columns(
    drop_columns, names: list[str], label_index: int, nominal_idx: Sequence[int], path: str
) -> frozenset[int]:
    """The positions of ``drop_columns`` (names or indices, negative from the end) among the
    file's columns ``names``; the label, a column also in ``nominal_columns`` and a list
    that leaves no feature are refused."""
    dropped = set()
    for c in _column_list(drop_columns, "drop_columns"):
        j = _label_position(c, names, path, "drop_columns")
        if j == label_index:
            raise ValueError(
                f"{path}: drop_columns=[...] names the label column {names[j]!r} (column "
                f"{j + 1}); the label cannot be dropped. Leave it out of drop_columns=[...], "
                "or pass label_column= another column."
            )
        if j in nominal_idx:
            raise ValueError(
                f"{path}: column {names[j]!r} (column {j + 1}) is in both drop_columns=[...] "
                "and nominal_columns=[...]; a column is either left out or one-hot encoded: "
                "name it in one of them."
            )
        dropped.add(j)
    if dropped and len(dropped) == len(names) - 1:
        raise ValueError(
            f"{path}: drop_columns=[...] drops every feature column ({len(dropped)} of "
            f"{len(dropped)}); keep at least one to learn from."
        )
    return frozenset(dropped)


def _skip_mask(width: int, skip: frozenset[int]) -> np.ndarray | None:
    """The compiled CSV parser's ``skip`` argument: a byte per column, 1 for a dropped one;
    None when none is (its version without the test)."""
    if not skip:
        return None
    mask = np.zeros(width, dtype=np.uint8)
    mask[sorted(skip)] = 1
    return mask


#: A value that looks like a date or a time of day (``2024-01-31``, ``31/01/2024 10:00``,
#: ``2024-01-31T10:00:00Z``, ``10:00:05.5``): a cheap test, for the order of the advice.
_DATE_LIKE = re.compile(
    r"(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d*)?)?)?"
    r"|\d{1,2}:\d{2}(?::\d{2}(?:\.\d*)?)?)(?:Z|[+-]\d{2}:?\d{2})?",
    re.IGNORECASE,
)


def _csv_text_fix(value: str) -> str:
    """The advice for a text ``value`` in a numeric CSV column: leave the column out
    (``drop_columns``) or one-hot encode it (``nominal_columns``); the drop first for a
    date or time, where one-hot encoding makes a column of each distinct time."""
    if _DATE_LIKE.fullmatch(value):
        return (
            "The value looks like a date or time: pass drop_columns=[...] to leave the column "
            "out, or turn it into numbers in the file (one-hot encoding it with "
            "nominal_columns=[...] makes a column of each distinct time)."
        )
    return (
        "Fix the value, pass nominal_columns=[...] to one-hot encode the column, or pass "
        "drop_columns=[...] to leave it out."
    )


#: The fix for a text value when :func:`_names_first` holds.
_NAMES_FIRST_FIX = (
    "The first line looks like column names (it holds no number), and header=False reads "
    "it as data: read the file with header=True."
)


def _names_first(rows: list[list[str]], header: bool, skip: frozenset[int] = frozenset()) -> bool:
    """Whether ``header=False`` was given for a file whose first line holds no number and
    whose second line holds some: a header line read as data. A first line with a missing
    value in a kept column (not in ``skip``) is not: it is refused or dropped before any
    text value, so the value the advice would go to is on another line."""
    return (
        not header
        and len(rows) > 1
        and all(_number(t) is None for t in rows[0])
        and not any(t in _MISSING or t == "" for j, t in enumerate(rows[0]) if j not in skip)
        and any(_number(t) is not None for t in rows[1])
    )


def _split_quoted(line: str, sep: str = ",") -> list[str] | None:
    """Split on ``sep`` outside single or double quotes; strip blanks and quotes.

    Returns None when a quote is not closed.
    """
    if "'" not in line and '"' not in line:
        return [t.strip() for t in line.split(sep)]
    out, buf, quote, was_quoted = [], [], None, False
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and i + 1 < len(line):
                buf.append(line[i + 1])
                i += 2
                continue
            if c == quote:
                quote = None
            else:
                buf.append(c)
        elif c in "'\"":
            if not was_quoted and not "".join(buf).strip():
                buf = []  # blanks before an opening quote (`a, 'b c'`) are not the value's
            quote, was_quoted = c, True
        elif c == sep:
            token = "".join(buf)
            out.append(token if was_quoted else token.strip())
            buf, was_quoted = [], False
        else:
            if not (was_quoted and c.isspace()):
                buf.append(c)
        i += 1
    if quote:
        return None
    token = "".join(buf)
    out.append(token if was_quoted else token.strip())
    return out


def _arff_line(line: str) -> str:
    """An ARFF line without its comment, stripped of blanks.

    Weka reads ``%`` as a comment character anywhere outside quotes (and quotes any value
    holding one when it writes a file), so ``1.5,yes % checked`` is the row ``1.5,yes``.

    >>> _arff_line("1.5, 'a % b' % note"), _arff_line("% all comment")
    ("1.5, 'a % b'", '')
    """
    if "%" not in line:
        return line.strip()
    quote, i = None, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "%":
            return line[:i].strip()
        i += 1
    return line.strip()


class _Attribute:
    """One column of a tabular file: its name and, if nominal, its categories."""

    __slots__ = ("categories", "declared", "name")

    def __init__(self, name: str, categories: list[str] | None, declared: bool):
        self.name = name
        self.categories = categories  # None = numeric
        self.declared = declared  # categories come from a header


#: Missing-value markers of other tools (R, SQL, Python, spreadsheets), upper-cased: not
#: read as missing (a category could be spelt so), but named when a numeric column holds one.
_OTHER_MISSING = frozenset({"NA", "N/A", "#N/A", "NULL", "NONE", "MISSING"})

#: A number written with a decimal comma (``1,5``, ``-0,25``), as many locales do.
_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]*,[0-9]+")


def _tabulate(
    rows: list[list[str]],
    linenos: list[int],
    attributes: list[_Attribute] | None,
    label_index: int,
    missing: str,
    path: str,
    fmt: str,
    *,
    blank_is_missing: bool = False,
    force_nominal: bool = False,
    nominal_fix: str | Callable[[str], str] = "Fix the value, or declare the attribute nominal.",
    delimiter: str | None = None,
    label_hint: bool | None = None,
    skip: frozenset[int] = frozenset(),
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Turn string cells into ``(X, y, meta)``; one-hot encode nominal attributes.

    ``attributes=None`` means headerless: names ``x1..xd``, the label ``class``. An
    attribute with ``categories == []`` and ``declared=False`` gets its categories from
    the data (sorted) when a value is not a number, or always if ``force_nominal``.
    ``delimiter`` (CSV) names a line that ends with it when its empty last field is the
    row's missing value. ``label_hint`` (CSV, whose label is found by position) adds to a
    non-numeric feature value's message how to read the label from that column instead:
    by name (True, a file with a header line) or by index (False). ``nominal_fix`` may be a
    function of the value. The columns in ``skip`` (CSV's ``drop_columns``) are left out:
    their cells are not read, nor missing values (the rows must still hold them).
    """
    if not rows:
        article = "An" if fmt[0] in "AEIOU" else "A"
        raise _fail(
            path, None, "no data rows", f"{article} {fmt} file needs at least one data row."
        )
    width = len(rows[0]) if attributes is None else len(attributes)
    for row, ln in zip(rows, linenos):
        if len(row) != width:
            raise _fail(
                path,
                ln,
                f"{len(row)} value{'s' * (len(row) != 1)} where {width} "
                f"{'is' if width == 1 else 'are'} expected",
                "Every row needs one value per attribute; check for a truncated line or a "
                "stray delimiter.",
            )
    if not -width <= label_index < width:
        raise ValueError(
            f"{path}: label column index {label_index} is out of range for {width} columns. "
            "Pass label_column= a valid name or index."
        )
    label_index %= width

    def is_missing(tok: str) -> bool:
        return tok in _MISSING or (blank_is_missing and tok == "")

    # missing values
    keep = []
    for r, (row, ln) in enumerate(zip(rows, linenos)):
        bad = next((j for j, tok in enumerate(row) if is_missing(tok) and j not in skip), None)
        if bad is None:
            keep.append(r)
        elif missing == "error":
            if delimiter is not None and _trailing_blank(row, blank_is_missing, skip):
                raise _trailing_delimiter_error(path, ln, delimiter)
            name = attributes[bad].name if attributes is not None else ""
            name = f"{name!r} (column {bad + 1})" if name else f"column {bad + 1} (no name)"
            raise _fail(
                path,
                ln,
                f"missing value {row[bad]!r} in {name}",
                "Pass missing='drop' to drop rows with missing values, or fill them in.",
            )
    n_dropped = len(rows) - len(keep)
    if n_dropped:
        dropped = [rows[r] for r in sorted(set(range(len(rows))) - set(keep))]
        dropped_lines = [linenos[r] for r in sorted(set(range(len(rows))) - set(keep))]
        rows = [rows[r] for r in keep]
        linenos = [linenos[r] for r in keep]
        if not rows:
            if delimiter is not None and all(
                _trailing_blank(r, blank_is_missing, skip) for r in dropped
            ):
                raise _trailing_delimiter_error(path, dropped_lines[0], delimiter, every=True)
            raise _fail(path, None, "every data row has a missing value", "Fill them in.")

    if attributes is None:
        attributes = [
            _Attribute("class" if j == label_index else f"x{j + 1}", [], False)
            for j in range(width)
        ]
        attributes[label_index].categories = None
    for j, att in enumerate(attributes):
        # undeclared nominal: numeric if every value is a number, else sorted categories
        if att.categories == [] and not att.declared:
            values = {row[j] for row in rows}
            att.categories = (
                sorted(values) if force_nominal or any(_number(v) is None for v in values) else None
            )

    names: list[str] = []
    blocks: list[np.ndarray] = []
    nominal: dict[str, list[str]] = {}
    n = len(rows)
    for j, att in enumerate(attributes):
        if j == label_index or j in skip:
            continue
        if att.categories is None:
            col = np.empty(n, dtype=np.float64)
            for r, row in enumerate(rows):
                v = _number(row[j])
                if v is None:
                    if _is_float(row[j]):  # nan, inf, 1e400: a number, but not finite
                        raise _fail(
                            path,
                            linenos[r],
                            f"value {row[j]!r} for numeric attribute {att.name!r} (column "
                            f"{j + 1}) is not a finite number",
                            "Replace it with a finite value, or write it as a missing value "
                            "('?') and pass missing='drop'.",
                        )
                    if row[j].upper() in _OTHER_MISSING:  # R's NA, SQL's NULL, ...
                        raise _fail(
                            path,
                            linenos[r],
                            f"value {row[j]!r} for numeric attribute {att.name!r} (column "
                            f"{j + 1}) looks like a missing-value marker",
                            "This reader's markers are '?', '<null>' and (CSV) an empty field: "
                            f"replace {row[j]!r} by one of them and pass missing='drop', or fill "
                            "the values in.",
                        )
                    if _DECIMAL_COMMA.fullmatch(row[j]):  # "1,5" where ';' or tab separates
                        raise _fail(
                            path,
                            linenos[r],
                            f"value {row[j]!r} for numeric attribute {att.name!r} (column "
                            f"{j + 1}) has a decimal comma",
                            f"Write decimal points ({row[j].replace(',', '.')}"
                            + (  # 1,500: a decimal comma, or a thousands separator?
                                f", or {row[j].replace(',', '')} if ',' separates thousands"
                                if len(row[j]) - row[j].index(",") == 4
                                else ""
                            )
                            + ") in the file; another character separates its values.",
                        )
                    fix = nominal_fix(row[j]) if callable(nominal_fix) else nominal_fix
                    if label_hint is not None:  # a text column: the label, not the last?
                        fix = fix.removesuffix(".") + (
                            f", or, if it is the label, label_column="
                            f"{att.name if label_hint else j!r} (the label is read from column "
                            f"{label_index + 1}, {attributes[label_index].name!r})."
                        )
                    raise _fail(
                        path,
                        linenos[r],
                        f"non-numeric value {row[j]!r} for numeric attribute {att.name!r} "
                        f"(column {j + 1})",
                        fix,
                    )
                col[r] = v
            blocks.append(col[:, None])
            names.append(att.name)
        else:
            index = {c: k for k, c in enumerate(att.categories)}
            onehot = np.zeros((n, len(att.categories)), dtype=np.float64)
            for r, row in enumerate(rows):
                k = index.get(row[j])
                if k is None:
                    raise _fail(
                        path,
                        linenos[r],
                        f"value {row[j]!r} of nominal attribute {att.name!r} is not one of "
                        f"its categories {att.categories}",
                        "Fix the value or add it to the attribute's declaration.",
                    )
                onehot[r, k] = 1.0
            blocks.append(onehot)
            names.extend(f"{att.name}={c}" for c in att.categories)
            nominal[att.name] = list(att.categories)

    label_att = attributes[label_index]
    label_tokens = [row[label_index] for row in rows]
    if label_att.categories is not None and label_att.declared:
        allowed_labels = set(label_att.categories)
        for r, tok in enumerate(label_tokens):
            if tok not in allowed_labels:
                raise _fail(
                    path,
                    linenos[r],
                    f"label {tok!r} is not one of the declared classes {label_att.categories}",
                    "Fix the label or add it to the class attribute's declaration.",
                )
    else:
        marker = _missing_like_label(label_tokens)
        if marker is not None:
            raise _missing_label_error(path, linenos[label_tokens.index(marker)], marker)
    X = np.hstack(blocks) if blocks else np.empty((n, 0), dtype=np.float64)
    meta = {
        "feature_names": names,
        "nominal": nominal,
        "label_name": label_att.name,
        "source": str(path),
        "format": fmt,
        "n_dropped": n_dropped,
    }
    return np.ascontiguousarray(X, dtype=np.float64), _parse_labels(label_tokens), meta


def _trailing_blank(
    row: Sequence[str], blank_is_missing: bool, skip: frozenset[int] = frozenset()
) -> bool:
    """Whether the row's one missing value is an empty last field: the line ended with the
    delimiter (a trailing delimiter, which some exporters write on every line). The
    columns in ``skip`` (``drop_columns``) are not counted; with the last one dropped, the
    line's last field is no kept one, so an empty kept field is no trailing delimiter."""
    if skip:
        if len(row) - 1 in skip:
            return False
        row = [t for j, t in enumerate(row) if j not in skip]
    return (
        blank_is_missing
        and len(row) > 1
        and row[-1] == ""
        and not any(t in _MISSING or t == "" for t in row[:-1])
    )


def _trailing_delimiter_error(
    path: str, lineno: int | None, delimiter: str, every: bool = False
) -> ValueError:
    """The error for a line that ends with the delimiter: its empty last field is missing,
    and "pass missing='drop'" alone drops every row of a file written so."""
    shown = "\\t" if delimiter == "\t" else delimiter
    remove = f"remove the trailing delimiters (e.g. sed 's/{shown}$//' FILE > NEW.csv)"
    return _fail(
        path,
        lineno,
        f"the line ends with the delimiter {delimiter!r} (an empty last field)"
        + (", as every data row does" if every else ""),
        (f"Then missing='drop' leaves no row: {remove}." if every else
         f"If every line does, {remove}; otherwise fill the value in, or pass missing='drop' "
         "to drop the rows that lack it."),
    )  # fmt: skip


def _missing_like_label(tokens: Sequence[str]) -> str | None:
    """A label among ``tokens`` that another tool's missing-value marker (``NA``, ``NULL``,
    ...) or a non-finite number (``nan``) spells, when every other label is a number: such
    rows have no label, but read as text they became a class of their own (``load`` made
    ``'1'`` against ``'nan'`` a binary problem, silently). None when there is none."""
    odd = None  # the first in file order
    numbers = False
    seen: set[str] = set()
    for t in tokens:
        if t in seen:
            continue
        seen.add(t)
        if _number(t) is not None:
            numbers = True
        elif t.upper() in _OTHER_MISSING or _is_float(t):
            odd = t if odd is None else odd
        else:
            return None  # text labels: every token is a class name
    return odd if numbers else None


def _missing_label_error(path: str, lineno: int | None, token: str) -> ValueError:
    marker = token.upper() in _OTHER_MISSING or token.lower().lstrip("+-") == "nan"
    return _fail(
        path,
        lineno,
        f"label {token!r} "
        + ("looks like a missing value" if marker else "is not a finite number")
        + " (the other labels are numbers)",
        "A row without a label cannot be learned from: write it as '?' and pass "
        "missing='drop', or remove the row.",
    )


def _label_position(
    label_column: int | str | None, names: list[str], path: str, option: str = "label_column"
) -> int:
    """The index of the column ``label_column`` (a name or an index, negative from the end)
    names; ``option`` is the reader argument it came from, for the messages
    (``"label_column"`` or ``"nominal_columns"``)."""
    if label_column is None:
        return len(names) - 1
    label = option == "label_column"
    if isinstance(label_column, str):
        if label_column not in names:
            raise ValueError(
                f"{path}: no column named {label_column!r}; columns are {names}. "
                "Pass label_column= one of them or an integer index."
                if label
                else f"{path}: {option}=[...] names {label_column!r}, but no column has that "
                f"name; columns are {names}. Give names among them or integer indices."
            )
        return names.index(label_column)
    if isinstance(label_column, (int, np.integer)) and not isinstance(label_column, bool):
        if not -len(names) <= label_column < len(names):
            raise ValueError(
                f"{path}: label_column={label_column} is out of range for {len(names)} "
                "columns. Pass a valid index or name."
                if label
                else f"{path}: {option}=[...] holds {label_column}, out of range for "
                f"{len(names)} columns. Give names or indices among them."
            )
        return int(label_column) % len(names)
    raise TypeError(
        f"{option} must be a column name or an integer; got {label_column!r}."
        if option == "label_column"
        else f"each entry of {option} must be a column name or an integer; got {label_column!r}."
    )


# --------------------------------------------------------------------------- KEEL / ARFF headers
_ATTR_RE = re.compile(
    r"""^@attribute\s+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s{]+)\s*(.*)$""",
    re.IGNORECASE,
)
_NUMERIC_TYPES = ("real", "integer", "numeric")


def _unquote(name: str) -> str:
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
        return re.sub(r"\\(.)", r"\1", name[1:-1])
    return name


def _parse_attribute(line: str, lineno: int, path: str, fmt: str) -> _Attribute:
    m = _ATTR_RE.match(line)
    if not m:
        raise _fail(
            path,
            lineno,
            f"malformed @attribute line {line!r}",
            "Write `@attribute <name> <type>` with type real/integer/numeric or {a, b, ...}.",
        )
    name, spec = _unquote(m.group(1)), m.group(2).strip()
    if spec.startswith("{"):
        if not spec.endswith("}"):
            raise _fail(
                path, lineno, f"nominal attribute {name!r} lacks its closing '}}'", "Close it."
            )
        cats = _split_quoted(spec[1:-1])
        if cats is None or any(c == "" for c in cats):
            raise _fail(
                path,
                lineno,
                f"malformed category list for attribute {name!r}",
                "List categories as {a, b, c}.",
            )
        if len(set(cats)) != len(cats):
            raise _fail(path, lineno, f"repeated category in {name!r}", "List each category once.")
        return _Attribute(name, cats, True)
    kind = re.split(r"[\s\[]", spec, maxsplit=1)[0].lower()
    if kind in _NUMERIC_TYPES:
        return _Attribute(name, None, True)
    raise _fail(
        path,
        lineno,
        f"attribute {name!r} has type {spec.split()[0] if spec else '(none)'!r}, which "
        f"{fmt} reading does not support",
        "Use real/integer/numeric or a nominal {...} list (string and date attributes "
        "must be converted first).",
    )


def _declare(
    attributes: list[_Attribute], att: _Attribute, lineno: int, lines: dict[str, int], path: str
) -> None:
    """Append ``att`` (declared on ``lineno``) unless its name is taken: a repeated name
    would make ``label_column=<name>`` and ``feature_names`` ambiguous (Weka refuses it
    too). ``lines`` maps each declared name to its line."""
    if att.name in lines:
        raise _fail(
            path,
            lineno,
            f"attribute {att.name!r} is declared twice (first on line {lines[att.name]})",
            "Give every @attribute a unique name.",
        )
    lines[att.name] = lineno
    attributes.append(att)


def _keel_names(line: str) -> list[str]:
    """The attribute names of an ``@inputs`` / ``@outputs`` line, unquoted as ``@attribute``
    names are (``@inputs 'cap shape', b`` names ``cap shape`` and ``b``).

    >>> _keel_names("@inputs 'cap shape', 'a,b', c"), _keel_names("@outputs")
    (['cap shape', 'a,b', 'c'], [])
    """
    parts = line.split(None, 1)
    if len(parts) < 2:
        return []
    names = _split_quoted(parts[1])
    if names is None:  # an unclosed quote: the names as written, for the error message
        names = [t.strip() for t in parts[1].split(",")]
    return names


def _keel_inputs(
    path: str,
    inputs: list[str] | None,
    outputs: list[str] | None,
    names: list[str],
    label_index: int,
) -> None:
    """Refuse an ``@inputs`` line that leaves out an attribute other than the label and the
    ``@outputs`` ones: skewlearn learns from every attribute but the label, so such a column
    (an identifier, say) would silently become a feature; an undeclared name is a typo. (An
    ``@outputs`` attribute that ``label_column`` replaced as the label is a feature, as
    before: the caller chose another label knowingly.)"""
    if inputs is None:
        return
    unknown = [n for n in inputs if n not in names]
    if unknown:
        raise _fail(
            path,
            None,
            f"@inputs names {', '.join(map(repr, unknown))}, which no @attribute declares "
            f"(attributes: {', '.join(names)})",
            "Correct the @inputs line.",
        )
    skip = set(inputs) | set(outputs or ()) | {names[label_index % len(names)]}
    left_out = [n for n in names if n not in skip]
    if left_out:
        raise _fail(
            path,
            None,
            f"@inputs leaves out {', '.join(map(repr, left_out))}, which skewlearn would "
            "otherwise learn from (it takes every attribute but the label as a feature)",
            "Delete those columns from the file, or list them in @inputs (or pass "
            "label_column= if one of them is the label).",
        )


def _keel_label(
    path: str, label_column: int | str | None, outputs: list[str] | None, names: list[str]
) -> int | str | None:
    """``label_column``, or when it is None the single attribute ``@outputs`` names (None
    without an @outputs line: the last column). Several, or an undeclared one, raise."""
    if label_column is not None or not outputs:
        return label_column
    if len(outputs) != 1:
        raise _fail(
            path,
            None,
            f"@outputs names {len(outputs)} attributes ({', '.join(outputs)})",
            "Pass label_column= the one to learn; skewlearn learns one binary label.",
        )
    if outputs[0] not in names:
        raise _fail(
            path,
            None,
            f"@outputs names {outputs[0]!r}, which no @attribute declares "
            f"(attributes: {', '.join(names)})",
            "Correct the @outputs line, or pass label_column=.",
        )
    return outputs[0]


def read_keel(
    path: str | os.PathLike,
    *,
    missing: str = "error",
    label_column: int | str | None = None,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Read a KEEL ``.dat`` file, with or without its ``@relation/@attribute/@data`` header.

    Parameters
    ----------
    path : str or path-like
        The file (``.gz`` is decompressed).
    missing : {"error", "drop"}, default="error"
        What to do with missing values (``?`` or ``<null>``).
    label_column : str or int, optional
        The label column. Default: the ``@outputs`` attribute if the header names one,
        else the last column.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
        Nominal attributes one-hot encoded in place as ``name=category`` columns.
    y : ndarray of shape (n_samples,)
        Labels as written (int, float or str).
    meta : dict
        ``feature_names``, ``nominal``, ``label_name``, ``relation``, ``source``, ``format``,
        ``n_dropped``.

    Notes
    -----
    Without a header the last column is the label (unless ``label_column`` says otherwise),
    columns are named ``x1, x2, ...`` and a column is nominal when any of its values is
    not a number; its categories are then sorted.

    Examples
    --------
    >>> import tempfile, os
    >>> from skewlearn.datasets import read_keel
    >>> text = '''@relation toy
    ... @attribute colour {red, green}
    ... @attribute size real [0.0, 9.0]
    ... @attribute class {pos, neg}
    ... @inputs colour, size
    ... @outputs class
    ... @data
    ... red, 1.5, pos
    ... green, 2.0, neg
    ... '''
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "toy.dat")
    ...     _ = open(p, "w").write(text)
    ...     X, y, meta = read_keel(p)
    >>> X
    array([[1. , 0. , 1.5],
           [0. , 1. , 2. ]])
    >>> y.tolist(), meta["feature_names"]
    (['pos', 'neg'], ['colour=red', 'colour=green', 'size'])
    """
    _check_missing(missing)
    path = user_path(path)
    lines = _read_text(path).split("\n")
    attributes: list[_Attribute] | None = None
    relation = None
    inputs = outputs = None
    start = 0
    if not any(ln.strip() for ln in lines):
        raise _fail(path, None, "the file is empty", "Pass a KEEL .dat file with data rows.")
    # the first line that is neither blank nor a '%' comment: a header, or the first row
    first = next((i for i, ln in enumerate(lines) if ln.strip()[:1] not in ("", "%")), None)
    if first is None:
        raise _fail(path, None, "no data rows", "Pass a KEEL .dat file with data rows.")
    if lines[first].lstrip().startswith("@"):
        attributes = []
        declared: dict[str, int] = {}
        for i in range(first, len(lines)):
            s = lines[i].strip()
            if not s or s.startswith("%"):
                continue
            low = s.lower()
            if low.startswith("@relation"):
                relation = _unquote(s[len("@relation") :].strip())
            elif low.startswith("@attribute"):
                _declare(
                    attributes, _parse_attribute(s, i + 1, path, "KEEL"), i + 1, declared, path
                )
            elif low.startswith("@inputs"):
                inputs = _keel_names(s)
            elif low.startswith("@output"):
                outputs = _keel_names(s)
            elif low.startswith("@data"):
                start = i + 1
                break
            else:
                raise _fail(
                    path,
                    i + 1,
                    f"unexpected header line {s[:60]!r}",
                    "KEEL headers hold only @relation, @attribute, @inputs, @outputs and @data.",
                )
        else:
            raise _fail(path, None, "the header has no @data line", "Add `@data` before the rows.")
        if not attributes:
            raise _fail(path, start, "the header declares no @attribute", "Declare the columns.")
    rows, linenos = [], []
    for i in range(start, len(lines)):
        s = lines[i].strip()
        if not s or s.startswith("%"):
            continue
        if s.startswith("@"):
            raise _fail(
                path, i + 1, f"header line {s[:40]!r} among the data", "Move it above @data."
            )
        toks = _split_quoted(s)
        if toks is None:
            raise _fail(path, i + 1, "an unclosed quote", "Close the quote.")
        rows.append(toks)
        linenos.append(i + 1)
    if attributes is not None:
        names = [a.name for a in attributes]
        label_column = _keel_label(path, label_column, outputs, names)
        label_index = _label_position(label_column, names, path)
        _keel_inputs(path, inputs, outputs, names, label_index)
    else:
        if not rows:
            raise _fail(path, None, "no data rows", "Pass a KEEL .dat file with data rows.")
        if isinstance(label_column, str):
            raise ValueError(
                f"{path}: a headerless KEEL file has no column names, so label_column="
                f"{label_column!r} cannot be found. Pass an integer index."
            )
        label_index = _label_position(label_column, [""] * len(rows[0]), path)
    X, y, meta = _tabulate(rows, linenos, attributes, label_index, missing, path, "KEEL")
    meta["relation"] = relation
    return X, y, meta


def read_arff(
    path: str | os.PathLike,
    *,
    missing: str = "error",
    label_column: int | str | None = None,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Read an ARFF file (numeric and nominal attributes; dense or sparse rows).

    Parameters
    ----------
    path : str or path-like
        The file (``.gz`` is decompressed).
    missing : {"error", "drop"}, default="error"
        What to do with missing values (``?``).
    label_column : str or int, optional
        The label attribute; default the last one.

    Returns
    -------
    X, y, meta
        As :func:`read_keel`. Sparse rows (``{index value, ...}``, 0-based) are read
        densely; an omitted nominal value is its first category, as the ARFF rules say.
        ``%`` outside quotes starts a comment, on any line (as Weka reads it).

    Examples
    --------
    >>> import tempfile, os
    >>> from skewlearn.datasets import read_arff
    >>> text = '''% a comment
    ... @RELATION toy
    ... @ATTRIBUTE 'a b' NUMERIC
    ... @ATTRIBUTE class {no,yes}
    ... @DATA
    ... 1.5,yes
    ... {0 2.5, 1 no}
    ... '''
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "toy.arff")
    ...     _ = open(p, "w").write(text)
    ...     X, y, meta = read_arff(p)
    >>> X.ravel().tolist(), y.tolist(), meta["feature_names"]
    ([1.5, 2.5], ['yes', 'no'], ['a b'])
    """
    _check_missing(missing)
    path = user_path(path)
    lines = _read_text(path).split("\n")
    attributes: list[_Attribute] = []
    declared: dict[str, int] = {}
    relation = None
    start = None
    for i, line in enumerate(lines):
        s = _arff_line(line)
        if not s:
            continue
        low = s.lower()
        if low.startswith("@relation"):
            relation = _unquote(s[len("@relation") :].strip())
        elif low.startswith("@attribute"):
            _declare(attributes, _parse_attribute(s, i + 1, path, "ARFF"), i + 1, declared, path)
        elif low.startswith("@data"):
            start = i + 1
            break
        else:
            raise _fail(
                path,
                i + 1,
                f"unexpected line {s[:60]!r} before @data",
                "An ARFF header holds only comments (%), @relation, @attribute and @data.",
            )
    if not any(ln.strip() for ln in lines):
        raise _fail(path, None, "the file is empty", "Pass an ARFF file.")
    if start is None:
        raise _fail(path, None, "no @data line", "Add `@data` after the @attribute lines.")
    if not attributes:
        raise _fail(path, start, "no @attribute before @data", "Declare the attributes.")
    width = len(attributes)
    rows, linenos = [], []
    for i in range(start, len(lines)):
        s = _arff_line(lines[i])
        if not s:
            continue
        weight = _ARFF_WEIGHT.search(s)
        if weight and (s.startswith("{") or len(_split_quoted(s) or ()) == width + 1):
            raise _fail(
                path,
                i + 1,
                f"an instance weight {weight.group(1).strip()} (Weka's weighted ARFF)",
                "Remove the trailing {weight} from the rows: skewlearn does not read "
                "instance weights (its learners take none; its metrics take sample_weight).",
            )
        if s.startswith("{"):
            if not s.endswith("}"):
                raise _fail(path, i + 1, "a sparse row without its closing '}'", "Close it.")
            row = ["0" if a.categories is None else a.categories[0] for a in attributes]
            body = s[1:-1].strip()
            pairs = _split_quoted(body) if body else []
            if pairs is None:
                raise _fail(path, i + 1, "an unclosed quote", "Close the quote.")
            seen = set()
            for pair in pairs:
                parts = pair.split(None, 1)
                if len(parts) != 2 or not (parts[0].isascii() and parts[0].isdigit()):
                    raise _fail(
                        path,
                        i + 1,
                        f"malformed sparse entry {pair!r}",
                        "Write sparse rows as {index value, ...} with 0-based indices.",
                    )
                k = int(parts[0])
                if k >= width or k in seen:
                    what = "out of range" if k >= width else "repeated"
                    raise _fail(
                        path,
                        i + 1,
                        f"sparse index {k} is {what} ({width} attributes)",
                        "Use each 0-based index once.",
                    )
                seen.add(k)
                row[k] = _unquote(parts[1].strip())
            rows.append(row)
        else:
            toks = _split_quoted(s)
            if toks is None:
                raise _fail(path, i + 1, "an unclosed quote", "Close the quote.")
            rows.append(toks)
        linenos.append(i + 1)
    label_index = _label_position(label_column, [a.name for a in attributes], path)
    X, y, meta = _tabulate(rows, linenos, attributes, label_index, missing, path, "ARFF")
    meta["relation"] = relation
    return X, y, meta


#: An ARFF instance weight: ``{w}`` after the row's last value (dense ``1,x,{2}`` or
#: sparse ``{0 1, 1 x}, {2}``).
_ARFF_WEIGHT = re.compile(r",\s*(\{\s*[-+0-9.eE]+\s*\})$")


# --------------------------------------------------------------------------- CSV
def _sniff_delimiter(text: str) -> str:
    """The delimiter of CSV ``text`` among ``, ; tab |`` (from its first 8 KiB).

    When the csv module's sniffer gives up (it wants the same count on every line, so one
    short or long line stops it), the one whose commonest count (of one or more) the most
    non-blank lines share is taken; ties go to the one the first line holds most, then to
    that order (``,`` if none). Taking ``,`` there made a tab- or ``;``-separated file
    with one short line one column wide, and its error named the delimiter instead of the
    line (session 23); taking the first line's most split a comma file at the ``|`` of
    its names (``a|b|c,d|e|f,label``) and named a good line (probe w, session 23).

    The sniffer sees whole lines only: the 8 KiB cut the last line short, and that piece
    alone made it give up on any file of 10 or fewer lines in 8 KiB (~100 numeric
    columns), whose delimiter then came from the first line, e.g. ``|`` from a comma
    file's names ``s0|mean|v`` (probe w, session 23).

    A first line longer than 8 KiB (a wide file's names) left the sniffer that line's
    first piece alone, so a pipe file whose names hold commas (``f,1|f,2|…``) was split
    at the commas; the sample is then the first three whole lines instead, within the
    text's first MiB (session 24). So it is when the 8 KiB hold fewer than three whole
    lines (names of 7 KiB and rows of 3 KiB left it the names alone: session 24, probe r).

    Blank lines are left out of what the sniffer sees (session 27): they hold no
    delimiter, and its quote pattern took time quadratic in them (64 s for a quoted
    field of 10⁵ line breaks, which ``iter_chunks`` reads since session 27)."""
    sample = text[:8192]
    if len(text) > 8192:  # whole lines, at least the first three non-blank ones
        cut = sample.rfind("\n") + 1
        if _first_lines(sample[:cut])[1] >= 3:
            sample = sample[:cut]
        else:  # a wide file: the first three, however long
            pos, found = _first_lines(text)
            if found:
                sample = text[:pos]
    # blank lines hold no delimiter, and the sniffer's quote pattern is quadratic in them:
    # a quoted field of 30,000 line breaks before the third non-blank line took 5.6 s
    lines = [line for line in sample.splitlines() if line.strip()]
    try:
        return csv.Sniffer().sniff("\n".join(lines), delimiters=",;\t|").delimiter
    except csv.Error:
        pass

    def agreeing(delimiter: str) -> tuple[int, int]:
        counts = Counter(k for k in (line.count(delimiter) for line in lines) if k)
        return max(counts.values(), default=0), lines[0].count(delimiter) if lines else 0

    return max(",;\t|", key=agreeing)  # the first of equal scores: "," when none


def _first_lines(text: str, count: int = 3, limit: int = 1 << 20) -> tuple[int, int]:
    """Where the first ``count`` non-blank whole lines of ``text`` (its first ``limit``
    characters) end, and how many it holds: ``(end, found)``, ``text[:end]`` whole lines
    (``found`` < ``count`` when the text, or its first ``limit``, ends sooner)."""
    pos, found, limit = 0, 0, min(len(text), limit)
    while found < count and (end := text.find("\n", pos, limit)) >= 0:
        found += bool(text[pos:end].strip())
        pos = end + 1
    return pos, found


def _check_delimiter(delimiter) -> None:
    """Refuse a ``delimiter`` that cannot separate values: not one character (the csv
    module's bare TypeError), a line end or the quote character (every line became one
    field: no feature column, the whole line as the label, silently)."""
    if not (isinstance(delimiter, str) and len(delimiter) == 1):
        raise ValueError(
            f"delimiter must be one character; got {delimiter!r}. Pass the character between "
            "the values, e.g. ',', ';' or '\\t'."
        )
    if delimiter in "\r\n":
        raise ValueError(
            f"delimiter {delimiter!r} is a line end; the delimiter separates the values within "
            "a line, e.g. ',', ';' or '\\t'."
        )
    if delimiter == '"':
        raise ValueError(
            "delimiter '\"' is the quote character (it encloses a value that holds the "
            "delimiter); pass the character between the values, e.g. ','."
        )


def _refuse_blank_separated(path: str, lineno: int, first_row: list[str]) -> None:
    """Raise when a *sniffed* delimiter splits nothing on the first row but that row holds
    blanks: the values are separated by spaces, and each line would silently become one
    field (no features, the whole line as the label)."""
    if len(first_row) == 1 and len(first_row[0].split()) > 1:
        tokens = first_row[0].split()
        if all(re.fullmatch(r"[0-9]+:\S+", t) for t in tokens[1:]):  # label index:value ...
            raise _fail(
                path,
                lineno,
                f"the first row {first_row[0][:60]!r} is a label and index:value pairs: the "
                "file looks like LIBSVM, not delimited text",
                "Read it as LIBSVM (format='libsvm', or name it .svm).",
            )
        raise _fail(
            path,
            lineno,
            f"the first row {first_row[0][:60]!r} holds no ',', ';', tab or '|' but blanks, so "
            "the values seem separated by spaces and each line would be read as one field",
            "Convert the file to commas (e.g. `tr -s ' ' ',' < FILE > NEW.csv`), pass "
            "delimiter=' ' if exactly one space separates the values, or delimiter=',' if the "
            "file really has one column.",
        )


def read_csv(
    path: str | os.PathLike,
    *,
    label_column: int | str = -1,
    delimiter: str | None = None,
    header: bool = True,
    nominal_columns: Sequence[int | str] | None = None,
    missing: str = "error",
    drop_columns: Sequence[int | str] | None = None,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Read a delimited text file with one label column.

    Parameters
    ----------
    path : str or path-like
        The file (``.gz`` is decompressed).
    label_column : str or int, default=-1
        Name (needs ``header=True``) or index of the label column; default the last.
    delimiter : str, optional
        Field delimiter, one character (not a line end or ``"``, the quote character; a
        quoted field may hold line breaks, read as ``"\\n"``, and messages name the line
        where its record starts); default sniffed among ``, ; tab |`` from the first
        8 KiB's whole lines, or the first three whole lines when those are fewer (a wide
        file; within the first MiB), and if the csv module's sniffer is unsure, the one
        the most lines hold equally often.
    header : bool, default=True
        Whether the first row holds column names (else ``x1, x2, ...``).
    nominal_columns : list of str or int, optional
        Feature columns to one-hot encode; every other feature must be numeric.
    missing : {"error", "drop"}, default="error"
        What to do with missing values (empty field, ``?``, ``<null>``).
    drop_columns : list of str or int, optional
        Columns to leave out (names, or indices, negative from the end), as River's
        ``iter_csv(drop=...)`` and pandas' ``usecols`` do: a timestamp or an id column.
        Their cells are not read (text, or a missing value there, is no error), and
        ``meta["feature_names"]`` does not list them; a row must still hold them. The
        label column, a column also in ``nominal_columns``, and every feature column at
        once are refused.

    Returns
    -------
    X, y, meta
        As :func:`read_keel`; labels may be strings.

    Examples
    --------
    >>> import tempfile, os
    >>> from skewlearn.datasets import read_csv
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "toy.csv")
    ...     _ = open(p, "w").write("a;target;b\\n1;yes;2\\n3;no;4\\n")
    ...     X, y, meta = read_csv(p, label_column="target")
    >>> X.tolist(), y.tolist(), meta["feature_names"]
    ([[1.0, 2.0], [3.0, 4.0]], ['yes', 'no'], ['a', 'b'])

    A timestamp column left out:

    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "ts.csv")
    ...     _ = open(p, "w").write("when,a,y\\n2024-01-01 10:00,1.5,0\\n2024-01-02 11:30,2,1\\n")
    ...     X, y, meta = read_csv(p, drop_columns=["when"])
    >>> X.tolist(), meta["feature_names"]
    ([[1.5], [2.0]], ['a'])
    """
    path = _csv_args(path, header, missing)
    return _read_csv_fast(
        path, label_column, delimiter, header, nominal_columns, missing, drop_columns
    )


def _csv_args(path, header, missing) -> str:
    """Check :func:`read_csv`'s switches; the path as the messages name it."""
    _check_missing(missing)
    _check_switch("header", header)
    return user_path(path)


def _read_csv_careful(path: str | os.PathLike, **options: Any):
    """:func:`read_csv` (the same options) by the careful reader alone (the csv module over
    the whole text, then :func:`_tabulate`): the reference its compiled path is tested
    against."""
    import inspect

    params = inspect.signature(read_csv).parameters.values()
    o = {p.name: p.default for p in params if p.kind is p.KEYWORD_ONLY} | options
    path = _csv_args(path, o["header"], o["missing"])
    text = _read_text(path)
    return _csv_from_text(
        path,
        text,
        o["label_column"],
        o["delimiter"],
        o["header"],
        o["nominal_columns"],
        o["missing"],
        o["drop_columns"],
    )


def _malformed_csv(path: str, start: int, exc: csv.Error, stopped: int) -> ValueError:
    """The error for a CSV record the csv module refuses, named by its first line
    ``start``: an unclosed quote runs on to where the parser gives up (``stopped``, the
    end of the file or the field size limit), which the message adds when it is later."""
    where = f"; the reader stopped at line {stopped}" if stopped > start else ""
    return _fail(
        path, start, f"malformed CSV in the row starting here ({exc}{where})", "Fix the quoting."
    )


def _csv_from_text(
    path: str, text: str, label_column, delimiter, header, nominal_columns, missing, drop_columns
):
    """The careful reader of CSV ``text`` (the file's, as :func:`_read_text` gives it)."""
    if not text.strip():
        raise _fail(path, None, "the file is empty", "Pass a CSV file with data rows.")
    sniffed = delimiter is None
    if sniffed:
        delimiter = _sniff_delimiter(text)
    _check_delimiter(delimiter)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    rows, linenos = [], []
    names = None
    try:
        start = 1
        for raw in reader:
            if not raw or all(not c.strip() for c in raw):
                start = reader.line_num + 1
                continue
            row = [c.strip() for c in raw]
            if sniffed and names is None and not rows:
                _refuse_blank_separated(path, start, row)
            if header and names is None:
                names, names_line = row, start
            else:
                rows.append(row)
                linenos.append(start)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise _malformed_csv(path, start, exc, reader.line_num) from None
    if header and names is not None:
        _warn_numeric_header(path, names)
    if header and names is not None and len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise _fail(
            path, names_line, f"column name {dup!r} appears twice", "Give columns unique names."
        )
    if not rows:
        raise _fail(path, None, "no data rows", "Pass a CSV file with at least one data row.")
    if names is None:
        names = [f"x{j + 1}" for j in range(len(rows[0]))]
    if isinstance(label_column, str) and not header:
        raise ValueError(
            f"{path}: label_column={label_column!r} is a name but header=False. "
            "Pass an integer index or header=True."
        )
    label_index = _label_position(label_column, names, path)
    nominal_idx: list[int] = []
    for c in _column_list(nominal_columns):
        j = _label_position(c, names, path, "nominal_columns")
        if j == label_index:
            continue
        nominal_idx.append(j)
    skip = _dropped_columns(drop_columns, names, label_index, nominal_idx, path)
    attributes = [_Attribute(n, None, False) for n in names]
    for j in nominal_idx:
        attributes[j] = _Attribute(names[j], [], False)
    # header=False on a file whose first line is names: its text fails first (row 0 of
    # the first numeric column), and the fix is the header, not a column option
    fix, hint = _csv_text_fix, header
    if _names_first(rows, header, skip):
        fix, hint = _NAMES_FIRST_FIX, None
    X, y, meta = _tabulate(
        rows,
        linenos,
        attributes,
        label_index,
        missing,
        path,
        "CSV",
        blank_is_missing=True,
        force_nominal=True,
        nominal_fix=fix,
        delimiter=delimiter,
        label_hint=hint,
        skip=skip,
    )
    meta["delimiter"] = delimiter
    return X, y, meta


#: Characters the compiled parser reads as part of a number: a delimiter among them (say
#: ``-``) would be taken into the number ("-3" read as -3 where the careful reader splits
#: it into an empty field and 3), so such files go to the careful reader.
_NUMBER_CHARS = frozenset("+-.0123456789eE")


def _read_csv_fast(
    path: str, label_column, delimiter, header, nominal_columns, missing, drop_columns=None
):
    """:func:`read_csv` through the chunked reader's compiled parser
    (:func:`skewlearn.datasets._parse.csv_block`) over the file's bytes, all or nothing.

    The header (or first row) is read by the csv module from the file's decoded head, as
    the careful reader reads it; the data lines by the compiled parser (simple quoted
    fields too, ``"1.5"`` or ``"fraud"``). A file it does not read whole (a line it
    declines: other quotes, missing values, another width, non-ASCII; a value that is not
    finite; a label spelling a missing value; nominal columns; a space, VT, FF, ``#`` or
    non-ASCII delimiter, or one a number can hold; a header error; a tab is read here) is
    read again by the careful reader (:func:`_csv_from_text`), whose results and errors
    are therefore the only ones."""
    from . import _parse  # numba: imported when a file is read, not with the package

    given = delimiter  # the careful reader sniffs again when none was given

    def careful():
        text = _read_text(path)
        return _csv_from_text(
            path, text, label_column, given, header, nominal_columns, missing, drop_columns
        )

    raw, blank = _read_checked(path)
    if blank:
        raise _fail(path, None, "the file is empty", "Pass a CSV file with data rows.")
    end = len(raw)
    # the text's first lines: whole lines of the first 64 KiB (the file is UTF-8)
    head = raw[: 1 << 16].decode("utf-8-sig", errors="ignore")
    if end > 1 << 16:
        head = head[: max(head.rfind("\n"), head.rfind("\r")) + 1]
    head = head.replace("\r\n", "\n").replace("\r", "\n")
    if end > 1 << 16 and len(head) <= 8192:  # the sniffer reads the text's first 8192
        del raw
        return careful()
    sniffed = delimiter is None
    if sniffed:
        delimiter = _sniff_delimiter(head)
    _check_delimiter(delimiter)
    if not (nominal_columns is None or (isinstance(nominal_columns, list | tuple)
                                        and not nominal_columns)):  # fmt: skip
        del raw
        return careful()
    if not delimiter.isascii() or delimiter in " \x0b\x0c#" or delimiter in _NUMBER_CHARS:
        del raw
        return careful()
    reader = csv.reader(io.StringIO(head), delimiter=delimiter, strict=True)
    start, first = 1, None
    try:
        for row in reader:
            if not row or all(not c.strip() for c in row):
                start = reader.line_num + 1
                continue
            first = [c.strip() for c in row]
            break
    except csv.Error:
        first = None
    if first is None or (end > 1 << 16 and reader.line_num >= head.count("\n")):
        del raw
        return careful()
    if sniffed:
        _refuse_blank_separated(path, start, first)
    names = first if header else [f"x{j + 1}" for j in range(len(first))]
    data_line = reader.line_num + 1 if header else start
    try:
        if (header and len(set(names)) != len(names)) or (
            isinstance(label_column, str) and not header
        ):
            raise ValueError
        label_index = _label_position(label_column, names, path)
        if not -len(names) <= label_index < len(names):
            raise ValueError
        skip = _dropped_columns(drop_columns, names, label_index % len(names), (), path)
    except (ValueError, TypeError, IndexError):  # the careful reader's error, after its warning
        del raw
        return careful()
    width = len(names)
    label_index %= width
    skipped = _skip_mask(width, skip)
    nf = width - 1 - len(skip)
    buf = np.frombuffer(raw, dtype=np.uint8)
    pos = 3 if raw.startswith(codecs.BOM_UTF8) else 0
    for _ in range(data_line - 1):
        _, pos = _line_end(raw, pos, end)
    rows = int(head.count("\n") / max(len(head), 1) * end * 1.02) + 16
    X = np.empty((rows, nf), dtype=np.float64)
    ids = np.empty(rows, dtype=np.int64)
    table = np.zeros((256, 64), dtype=np.uint8)
    table_len = np.zeros(256, dtype=np.int64)
    n_table = np.zeros(1, dtype=np.int64)
    hard = np.empty((4096, 4), dtype=np.int64)
    n, retried = 0, -1
    while pos < end:
        n, nh, _, pos, status = _parse.csv_block(
            buf, pos, end, ord(delimiter), width, label_index, X, ids, table, table_len,
            n_table, hard, n, len(ids), skipped,
        )  # fmt: skip
        for h in range(nh):
            r, f, s, e = hard[h]
            v = _number(raw[s:e].decode("ascii"))
            if v is None:  # not finite: the careful reader's error
                del buf, raw
                return careful()
            X[r, f] = v
        if status == _parse.CAREFUL:
            if pos != retried:  # perhaps a new label that the table has no room for
                retried = pos
                table = np.pad(table, ((0, table.shape[0]), (0, table.shape[1])))
                table_len = np.resize(table_len, table.shape[0])
                continue
            del buf, raw
            return careful()
        if status == _parse.OK and pos < end:  # the rows are full
            more = max(int(len(ids) * 1.5), n + 16)
            X = np.concatenate([X, np.empty((more - len(ids), nf))])
            ids = np.resize(ids, more)
    del buf, raw
    tokens = [bytes(table[k, : table_len[k]]).decode("ascii") for k in range(int(n_table[0]))]
    if n == 0 or _missing_like_label(tokens) is not None:
        return careful()
    if header:
        _warn_numeric_header(path, names)
    X.resize((n, nf), refcheck=False)  # in place: no second copy of the table
    y = _parse_labels(tokens)[ids[:n]]
    meta = {
        "feature_names": [a for j, a in enumerate(names) if j != label_index and j not in skip],
        "nominal": {},
        "label_name": names[label_index],
        "source": str(path),
        "format": "CSV",
        "n_dropped": 0,
        "delimiter": delimiter,
    }
    return X, y, meta


# --------------------------------------------------------------------------- LIBSVM
def read_libsvm(
    path: str | os.PathLike,
    *,
    sparse: bool = True,
    n_features: int | None = None,
    zero_based: bool = False,
) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray, dict[str, Any]]:
    """Read a LIBSVM / svmlight file: ``label index:value ...`` per line.

    Parameters
    ----------
    path : str or path-like
        The file (``.gz`` is decompressed).
    sparse : bool, default=True
        Return a CSR matrix (sorted indices, no duplicates); else a dense ndarray.
    n_features : int, optional
        Number of columns; default the largest index in the file. A larger index is an
        error.
    zero_based : bool, default=False
        Indices start at 0 (default: at 1, as LIBSVM writes them).

    Returns
    -------
    X : csr_matrix or ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,)
        Labels as written (``+1`` reads as ``1``).
    meta : dict
        ``feature_names`` (``x1, x2, ...``, by file index), ``nominal`` (empty),
        ``label_name``, ``source``, ``format``, ``n_dropped`` (0), ``has_qid``.

    Notes
    -----
    ``#`` starts a comment; blank lines are skipped; ``qid:`` fields are ignored;
    indices may come in any order within a line. A line with a missing, zero or negative
    index, a non-numeric value, a repeated index or a token that is not ``index:value``
    raises ``ValueError`` with its line number.

    Examples
    --------
    >>> import tempfile, os
    >>> from skewlearn.datasets import read_libsvm
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "toy.svm")
    ...     _ = open(p, "w").write("+1 3:0.5 1:2 # comment\\n-1 qid:4 2:1\\n")
    ...     X, y, meta = read_libsvm(p, sparse=False)
    >>> X.tolist(), y.tolist()
    ([[2.0, 0.0, 0.5], [0.0, 1.0, 0.0]], [1, -1])
    """
    path = _libsvm_args(path, sparse, n_features, zero_based)
    return _read_libsvm_fast(path, sparse, n_features, zero_based)


def _libsvm_args(path, sparse, n_features, zero_based) -> str:
    """Check :func:`read_libsvm`'s options; the path as the messages name it."""
    path = user_path(path)
    _check_switch("sparse", sparse)
    _check_switch("zero_based", zero_based)
    if n_features is not None and (
        not isinstance(n_features, (int, np.integer)) or isinstance(n_features, bool)
    ):
        raise TypeError(f"n_features must be an int or None; got {n_features!r}.")
    if n_features is not None and n_features < 0:
        raise ValueError(f"n_features must be >= 0; got {n_features}.")
    return path


def _read_libsvm_careful(
    path: str | os.PathLike,
    *,
    sparse: bool = True,
    n_features: int | None = None,
    zero_based: bool = False,
) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray, dict[str, Any]]:
    """:func:`read_libsvm` by the careful reader alone, every line in Python: the reference
    the compiled path is tested against, and the chunked reader's reader of one line."""
    path = _libsvm_args(path, sparse, n_features, zero_based)
    return _read_libsvm_lines(path, sparse, n_features, zero_based)


def _index_fix(zero_based: bool) -> str:
    return (
        "Indices are 0-based integers (zero_based=True)"
        if zero_based
        else "Indices are 1-based integers; pass zero_based=True for a 0-based file"
    )


def _libsvm_line(
    path: str, lineno: int, line: str, offset: int, n_features: int | None, fix_index: str
) -> tuple[str, list[int], list[float], bool] | None:
    """The careful reader of one LIBSVM line (its text, without the line end): None for a
    blank or comment-only line, else ``(label token, sorted 0-based indices, their values,
    whether a qid was read)``; a malformed line raises its error naming ``path, line
    lineno``. The label is checked with the others, after the last line
    (:func:`_libsvm_labels`)."""
    hash_at = line.find("#")
    if hash_at >= 0:
        line = line[:hash_at]
    toks = line.split()
    if not toks:
        return None
    label = toks[0]
    if ":" in label:
        raise _fail(
            path,
            lineno,
            f"the line starts with {label!r} instead of a label",
            "Each line is `label index:value ...`.",
        )
    has_qid = False
    row: dict[int, float] = {}
    for tok in toks[1:]:
        idx_s, sep, val_s = tok.partition(":")
        if not sep or not idx_s or not val_s:
            raise _fail(
                path,
                lineno,
                f"token {tok!r} is not index:value",
                "The line holds no index:value pair, so the file is not LIBSVM: if it is "
                "a table of values separated by blanks, convert it to CSV (e.g. `tr -s "
                "' \\t' ',' < FILE > NEW.csv`) and read that."
                if not any(":" in t for t in toks[1:])
                else "Write features as index:value with no spaces around ':'.",
            )
        if idx_s == "qid":
            try:
                int(val_s)
            except ValueError:
                raise _fail(
                    path, lineno, f"qid {val_s!r} is not an integer", "Fix the qid."
                ) from None
            has_qid = True
            continue
        # as int reads it: one optional sign, then ASCII digits (isdigit alone passes
        # '³', which int refuses, and '٣', which it reads as 3); no regex: per token
        digits = idx_s[1:] if idx_s[0] in "+-" else idx_s
        if not (digits.isascii() and digits.isdigit()):
            raise _fail(path, lineno, f"index {idx_s!r} is not an integer", fix_index + ".")
        idx = int(idx_s) - offset
        if idx < 0:
            raise _fail(path, lineno, f"index {idx_s} is below {offset}", fix_index + ".")
        if idx > MAX_INDEX:
            raise _fail(
                path,
                lineno,
                f"index {idx_s} is above {MAX_INDEX + offset}, the largest column index "
                "a sparse matrix with 32-bit indices can hold",
                "Renumber or re-hash the features into fewer columns.",
            )
        if idx in row:
            raise _fail(
                path,
                lineno,
                f"index {idx_s} appears twice",
                "Give each feature once per line.",
            )
        v = _number(val_s)
        if v is None:
            raise _fail(
                path,
                lineno,
                f"value {val_s!r} of index {idx_s} is not a finite number",
                "Fix the value.",
            )
        if n_features is not None and idx >= n_features:
            raise _fail(
                path,
                lineno,
                f"index {idx_s} exceeds n_features={n_features}",
                "Pass a larger n_features or fix the index.",
            )
        row[idx] = v
    keys = sorted(row)
    return label, keys, [row[k] for k in keys], has_qid


def _libsvm_labels(path: str, tokens: dict[int, str], lines: dict[int, int], empty_row):
    """Check the label ``tokens`` (by row) of the careful reader's lines, as
    :func:`_parse_labels` types the labels of a whole file: ``(all integers, their
    values)``; a label that is not a finite number fitting in int64 raises (the first in
    file order; ``lines`` gives its line, ``empty_row(r)`` whether row ``r`` has no
    feature, which names a line of delimited text)."""
    all_int, typed = True, {}
    for r in sorted(tokens):
        t = tokens[r]
        if _number(t) is None or _huge_int(t):
            # a CSV line read as LIBSVM: one token holding delimiters (a multilabel row,
            # "0,1 3:1", has features)
            delimited = any(c in t for c in ",;|") and empty_row(r)
            raise _fail(
                path,
                lines[r],
                f"label {t!r} is not a number"
                + (" that fits in int64" if _number(t) is not None else ""),
                "The line looks like delimited text, not LIBSVM: read the file as CSV "
                "(format='csv', or name it .csv)."
                if delimited
                else "LIBSVM labels are numbers; fix the label.",
            )
        if all_int and "_" not in t:  # as _parse_labels reads an integer
            try:
                typed[r] = int(t)
                continue
            except ValueError:
                pass
        all_int = False
        typed[r] = _number(t)
    if not all_int:
        typed = {r: _number(t) for r, t in tokens.items()}
    return all_int, typed


def _libsvm_result(path, sparse, values, indices, indptr, n_features, offset, y, has_qid):
    """``(X, y, meta)`` of a LIBSVM file from its CSR arrays."""
    n = len(y)
    d = n_features if n_features is not None else (int(indices.max()) + 1 if len(indices) else 0)
    X = sp.csr_matrix((values, indices, indptr), shape=(n, d))
    X.has_sorted_indices = True
    meta = {
        "feature_names": numbered_names(d, offset),
        "nominal": {},
        "label_name": "label",
        "source": path,
        "format": "LIBSVM",
        "n_dropped": 0,
        "has_qid": has_qid,
    }
    return (X if sparse else X.toarray()), y, meta


def _read_libsvm_lines(path: str, sparse, n_features, zero_based):
    """The careful reader's body (:func:`_read_libsvm_careful`, options checked): every
    line of the text through :func:`_libsvm_line`."""
    text = _read_text(path)
    if not text.strip():
        raise _fail(path, None, "the file is empty", "Pass a LIBSVM file with data rows.")
    labels: dict[int, str] = {}
    label_lines: dict[int, int] = {}
    indptr = [0]
    indices: list[int] = []
    values: list[float] = []
    offset = 0 if zero_based else 1
    has_qid = False
    fix_index = _index_fix(zero_based)
    for lineno, line in enumerate(text.split("\n"), start=1):
        got = _libsvm_line(path, lineno, line, offset, n_features, fix_index)
        if got is None:
            continue
        label, keys, vals, qid = got
        has_qid = has_qid or qid
        label_lines[len(labels)] = lineno
        labels[len(labels)] = label
        indices.extend(keys)
        values.extend(vals)
        indptr.append(len(indices))
    if not labels:
        raise _fail(path, None, "no data rows (only comments)", "Pass a file with data rows.")
    all_int, typed = _libsvm_labels(path, labels, label_lines, lambda r: indptr[r] == indptr[r + 1])
    y = [typed[r] for r in range(len(labels))]
    y = np.asarray(y, dtype=np.int64 if all_int else np.float64)
    return _libsvm_result(
        path,
        sparse,
        np.asarray(values, dtype=np.float64),
        np.asarray(indices, dtype=np.int32),
        np.asarray(indptr, dtype=np.int64),
        n_features,
        offset,
        y,
        has_qid,
    )


#: A token ``qid:`` that the compiled parser reads (after a blank, before any ``#``).
_QID_TOKEN = re.compile(rb"(?:^|[\n\r])[^#\n\r]*[ \t\x0b\x0c]qid:")


def _read_libsvm_fast(path: str, sparse, n_features, zero_based):
    """:func:`read_libsvm` through the compiled parser of the chunked reader
    (:func:`skewlearn.datasets._parse.libsvm_block`) over the file's bytes, in one block.

    A line the parser declines goes to the careful reader's :func:`_libsvm_line`, and the
    labels are typed and checked after the last line as the careful reader does
    (:func:`_libsvm_labels`), so results, errors and their order are the careful
    reader's: the whole file's encoding first (:func:`_read_checked`), then the first bad
    line, then the first bad label."""
    from . import _parse  # numba: imported when a file is read, not with the package

    raw, blank = _read_checked(path)
    if blank:
        raise _fail(path, None, "the file is empty", "Pass a LIBSVM file with data rows.")
    offset = 0 if zero_based else 1
    limit = -1 if n_features is None else int(n_features)
    fix_index = _index_fix(zero_based)
    buf = np.frombuffer(raw, dtype=np.uint8)
    end = len(raw)
    pos = first = 3 if raw.startswith(codecs.BOM_UTF8) else 0
    # room from the first MiB's lines and entries per byte, grown if the rest is denser
    head = raw[: 1 << 20]
    per_byte = (head.count(b"\n") + head.count(b"\r") + 1) / len(head)
    rows = int(per_byte * end * 1.02) + 16
    nnz = int(_parse.entries_per_line(buf[: len(head)]) * rows) + 64
    del head
    labels = np.empty(rows, dtype=np.float64)
    label_int = np.empty(rows, dtype=np.bool_)
    indptr = np.zeros(rows + 1, dtype=np.int32 if nnz < 2**31 - 1 else np.int64)
    indices = np.empty(nnz, dtype=np.int32)
    values = np.empty(nnz, dtype=np.float64)
    hard = np.empty((4096, 3), dtype=np.int64)
    tokens: dict[int, str] = {}  # the careful reader's labels, by row
    token_lines: dict[int, int] = {}
    has_qid = False
    maxidx = -1
    lineno = 1
    n = 0
    while pos < end:
        n2, nh, lines, pos2, status, top = _parse.libsvm_block(
            buf, pos, end, offset, limit, labels, label_int, indptr, indices, values, hard, n,
            len(labels),
        )  # fmt: skip
        for h in range(nh):
            slot, s, e = hard[h]
            v = float(raw[s:e])
            if not math.isfinite(v):  # the careful reader's message for the line
                bad = lineno + _count_lines(raw, pos, s)
                start = _line_start(raw, s, first)
                text_end, _ = _line_end(raw, start, end)
                text = raw[start:text_end].decode("utf-8")
                _libsvm_line(path, bad, text, offset, n_features, fix_index)
                raise AssertionError("unreachable: the careful reader accepted it")
            values[slot] = v
        maxidx = max(maxidx, top)
        n, lineno, pos = n2, lineno + lines, pos2
        if status == _parse.CAREFUL:
            text_end, nxt = _line_end(raw, pos, end)
            text = raw[pos:text_end].decode("utf-8")  # the whole file is UTF-8
            got = _libsvm_line(path, lineno, text, offset, n_features, fix_index)
            if got is not None:
                label, keys, vals, qid = got
                has_qid = has_qid or qid
                k0 = int(indptr[n])
                k1 = k0 + len(keys)
                if n + 1 >= len(labels):
                    labels, label_int, indptr = _grown_rows(labels, label_int, indptr, n + 1)
                if k1 > len(indices):
                    indptr, indices, values = _grown_entries(indptr, indices, values, k1)
                indices[k0:k1] = keys
                values[k0:k1] = vals
                if keys:
                    maxidx = max(maxidx, keys[-1])
                tokens[n] = label
                token_lines[n] = lineno
                labels[n] = 0.0
                label_int[n] = True
                n += 1
                indptr[n] = k1
            lineno += 1
            pos = nxt
        elif status == _parse.GROW:
            text_end, _ = _line_end(raw, pos, end)
            need = int(indptr[n]) + raw.count(b":", pos, text_end) + 1
            indptr, indices, values = _grown_entries(indptr, indices, values, need)
        elif status == _parse.OK and pos < end:  # the rows are full
            labels, label_int, indptr = _grown_rows(labels, label_int, indptr, n + 1)
    if n == 0:
        raise _fail(path, None, "no data rows (only comments)", "Pass a file with data rows.")
    # the parser skips qid tokens unreported; find(b"q") is a memchr, 20x find(b"qid:")
    if not has_qid and raw.find(b"q") >= 0 and raw.find(b"qid:") >= 0:
        has_qid = _QID_TOKEN.search(raw) is not None
    del buf, raw
    nnz = int(indptr[n])
    for a, k in ((labels, n), (label_int, n), (indptr, n + 1), (indices, nnz), (values, nnz)):
        a.resize(k, refcheck=False)  # in place: the file's arrays are not copied again
    if tokens:
        all_int, typed = _libsvm_labels(
            path, tokens, token_lines, lambda r: indptr[r] == indptr[r + 1]
        )
        if all_int and label_int.all():
            y = labels.astype(np.int64)
            for r, v in typed.items():
                y[r] = v
        else:  # every label a float: as the token reads ('-0' is -0.0), not its integer
            y = labels
            for r, t in tokens.items():
                y[r] = _number(t)
    else:
        y = labels.astype(np.int64) if label_int.all() else labels
    return _libsvm_result(path, sparse, values, indices, indptr, n_features, offset, y, has_qid)


def _grown_rows(labels, label_int, indptr, need):
    """The row arrays of :func:`_read_libsvm_fast` with room for at least ``need`` rows."""
    cap = max(need, int(len(labels) * 1.5) + 16)
    out = []
    for a, k in ((labels, cap), (label_int, cap), (indptr, cap + 1)):
        b = np.zeros(k, dtype=a.dtype)
        b[: len(a)] = a
        out.append(b)
    return tuple(out)


def _grown_entries(indptr, indices, values, need):
    """The entry arrays of :func:`_read_libsvm_fast` (and of the chunked reader's chunks)
    with room for at least ``need`` entries (``indptr`` turns int64 when int32 could not
    count them)."""
    cap = max(need, int(len(indices) * 1.5) + 16)
    if cap >= 2**31 - 1 and indptr.dtype != np.int64:
        indptr = indptr.astype(np.int64)
    out = [indptr]
    for a in (indices, values):
        b = np.empty(cap, dtype=a.dtype)
        b[: len(a)] = a
        out.append(b)
    return tuple(out)


# --------------------------------------------------------------------------- dispatch
_READERS = {
    "keel": read_keel,
    "libsvm": read_libsvm,
    "csv": read_csv,
    "arff": read_arff,
}
_EXTENSIONS = {
    ".dat": "keel",
    ".svm": "libsvm",
    ".libsvm": "libsvm",
    ".svmlight": "libsvm",
    ".txt": "libsvm",
    ".csv": "csv",
    ".tsv": "csv",  # the delimiter is sniffed (tab)
    ".arff": "arff",
}


def read(
    path: str | os.PathLike, *, format: str | None = None, **kwargs: Any
) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray, dict[str, Any]]:
    """Read a data file, choosing the reader from its extension or ``format``.

    ``.dat`` → :func:`read_keel`, ``.svm``/``.libsvm``/``.svmlight``/``.txt`` →
    :func:`read_libsvm`, ``.csv``/``.tsv`` → :func:`read_csv` (the delimiter sniffed),
    ``.arff`` → :func:`read_arff`, each also with ``.gz`` appended.

    Parameters
    ----------
    path : str or path-like
        The file; a name ending in ``.gz`` is decompressed on the fly.
    format : {"keel", "libsvm", "csv", "arff"}, optional
        Overrides the extension.
    **kwargs
        Passed to the reader.

    Returns
    -------
    X, y, meta
        See the reader.
    """
    path = user_path(path)
    _check_file(path)
    key = _format_of(path, format)
    _check_options(path, key, kwargs)
    return _READERS[key](path, **kwargs)


#: How the messages name each format.
_FORMAT_NAMES = {"keel": "KEEL", "libsvm": "LIBSVM", "csv": "CSV", "arff": "ARFF"}


def _options_of(key: str) -> list[str]:
    """The keyword options of the reader of format ``key``."""
    import inspect

    params = inspect.signature(_READERS[key]).parameters.values()
    return [p.name for p in params if p.kind is p.KEYWORD_ONLY]


def _check_options(path: str, key: str, kwargs: dict[str, Any]) -> None:
    """Raise TypeError for an option the reader of ``key`` does not take, naming the
    formats that take it or the closest option (Python's own "unexpected keyword argument"
    said neither)."""
    from .._hints import did_you_mean

    takes = _options_of(key)
    for name in kwargs:
        if name in takes:
            continue
        others = [k for k in _READERS if name in _options_of(k)]
        if others:
            raise _other_formats_option(path, key, name, others)
        raise TypeError(
            f"{name!r} is not an option of {_FORMAT_NAMES[key]} files "
            f"({os.path.basename(path)}).{did_you_mean(name, takes)} "
            f"{_FORMAT_NAMES[key]} files take {', '.join(takes)}."
        )


def _other_formats_option(path: str, key: str, name: str, formats: Sequence[str]) -> TypeError:
    """The error for option ``name``, read by ``formats`` only, given for a file of format
    ``key`` (by :func:`read`/``load`` and by the chunked reader)."""
    names = [_FORMAT_NAMES[k] for k in formats]
    kinds = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return TypeError(
        f"{name}= applies to {kinds} files, not to {_FORMAT_NAMES[key]} files "
        f"({os.path.basename(path)}); leave it out, or pass format= if the file is {kinds}."
    )


def _check_file(path: str) -> None:
    """Raise unless ``path`` exists and is not a directory (before the extension is asked
    for a format: a directory has none, and the advice would be to pass format=)."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such file.")
    if os.path.isdir(path):
        raise IsADirectoryError(
            f"{path}: is a directory, not a data file. Pass the path of a file in it."
        )


def _format_of(path: str, format: str | None) -> str:
    """The reader key for ``path``: ``format`` if given, else from the extension."""
    if format is None:
        base = path[:-3] if path.lower().endswith(".gz") else path
        ext = os.path.splitext(base)[1].lower()
        format = _EXTENSIONS.get(ext)
        if format is None:
            _refuse_compressed_suffix(path, ext)
            raise ValueError(
                f"{path}: cannot tell the format from the extension {ext!r}. Pass format= one "
                f"of {sorted(_READERS)} (known extensions: {sorted(_EXTENSIONS)}, also .gz)."
            )
    key = str(format).lower()
    if key not in _READERS:
        raise ValueError(f"format must be one of {sorted(_READERS)}; got {format!r}.")
    return key


def _read_options(path: str | os.PathLike, format: str | None = None) -> list[str]:
    """The keyword options :func:`read` accepts for ``path`` (``format`` and its reader's).

    Raises ValueError when the format cannot be told from the extension or ``format``.
    """
    return ["format", *_options_of(_format_of(user_path(path), format))]
