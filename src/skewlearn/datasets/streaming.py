"""Read LIBSVM, CSV and KEEL files in chunks, in bounded memory.

:func:`iter_chunks` returns a :class:`ChunkedFile`: iterating over it reads the file
(``.gz`` too) block by block and yields ``(X, y)`` chunks of ``chunk_size`` rows with the
*same rows, in the same order, with the same ±1 labels* as
:func:`skewlearn.datasets.load` gives for the whole file. A learner fed the chunks
therefore ends in exactly the same state as one fed the loaded arrays.

Two facts about a file are only known after reading all of it, and a chunk reader needs
them before the first chunk:

* **the positive class** (``load`` takes the minority label), and
* **the number of features** of a LIBSVM file (``load`` takes the largest index).

Pass both (``positive_class=`` and, for LIBSVM, ``n_features=``) and the file is read
once. Leave either out and :class:`ChunkedFile` first makes one counting pass over the
file (labels, largest index, categories of undeclared nominal columns) — in bounded
memory, at parsing speed — and then knows ``n_rows``, ``n_positives`` and the label
counts before the first chunk. With ``n_features`` given, an index beyond it raises the
reader's error naming the line. The LIBSVM counting pass reads labels, ``qid`` and
indices but not the values (about twice as fast); a malformed value is refused, with its
line number, by the pass that reads the chunks.

LIBSVM and numeric CSV are parsed by compiled code over the raw bytes
(:mod:`skewlearn.datasets._parse`); any line it does not fully understand goes to the
careful readers of :mod:`skewlearn.datasets.readers`, which parse it or raise their usual
error with the file's line number. KEEL files (and CSV with ``nominal_columns``) are read
with the careful tokenizer, a chunk at a time.

A quoted CSV field may hold line breaks (RFC 4180: a free-text column): a line that
ends inside a quote goes to the careful reader with the record's next lines (from the
next block too), as :func:`~skewlearn.datasets.read_csv` reads it; messages name the
line where the record starts, and a quote that never closes is refused once its field
passes the csv module's size limit (``csv.field_size_limit``), in bounded memory.

Limits: ``scale`` is not available (scaling needs the whole set: scale inside your
learner's pipeline instead). The first problem in file order is reported, whereas the
whole-file readers check the encoding of the whole file first.
"""

from __future__ import annotations

import csv
import gzip
import io
import mmap
import os
import stat
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from .. import _files
from . import _parse
from .readers import (
    _EXTENSIONS,
    _MISSING,
    _NAMES_FIRST_FIX,
    _NUMBER_CHARS,
    MAGIC_BYTES,
    NumberedNames,
    _absent_positive,
    _Attribute,
    _check_delimiter,
    _check_file,
    _check_missing,
    _check_positive_class,
    _check_switch,
    _column_list,
    _count_lines,
    _csv_text_fix,
    _declare,
    _dropped_columns,
    _fail,
    _first_lines,
    _grown_entries,
    _is_gz,
    _keel_inputs,
    _keel_label,
    _keel_names,
    _label_position,
    _line_end,
    _line_start,
    _malformed_csv,
    _missing_label_error,
    _missing_like_label,
    _names_first,
    _not_two_classes,
    _number,
    _other_formats_option,
    _parse_attribute,
    _parse_labels,
    _read_libsvm_careful,
    _refuse_blank_separated,
    _refuse_compressed_suffix,
    _refuse_unnamed_gzip,
    _skip_mask,
    _sniff_delimiter,
    _split_quoted,
    _tabulate,
    _trailing_blank,
    _trailing_delimiter_error,
    _warn_numeric_header,
    numbered_names,
)

__all__ = ["ChunkedFile", "iter_chunks"]

_BOM = b"\xef\xbb\xbf"
_FORMATS = ("libsvm", "csv", "keel")


# --------------------------------------------------------------------------- raw blocks
class _AsOpened(io.RawIOBase):
    """A regular file read up to the size it had when opened, as a memory map of it reads:
    rows appended meanwhile are not read by any path, and a file cut short under the
    reader raises ``ValueError`` (where the map's SIGBUS cannot be caught). Other files (a
    FIFO, a device) are read to their end."""

    def __init__(self, path: str):
        self._fh = open(path, "rb", buffering=0)
        st = os.fstat(self._fh.fileno())
        self._path = path
        self._size = st.st_size
        self._left = st.st_size if stat.S_ISREG(st.st_mode) else None

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:
        if self._left is None:
            return self._fh.readinto(b)
        if self._left == 0:
            return 0
        with memoryview(b) as view:
            got = self._fh.readinto(view[: min(len(view), self._left)])
        if not got:
            raise ValueError(
                f"{self._path} was cut short while being read ({self._size} bytes when "
                f"reading began, {self._size - self._left} read). Stream a copy of a file "
                "that another process rewrites (log rotation), or wait until it is written."
            )
        self._left -= got
        return got

    def close(self) -> None:
        self._fh.close()
        super().close()


def _open(path: str):
    return gzip.open(path, "rb") if _is_gz(path) else io.BufferedReader(_AsOpened(path))


def _gzip_error(path: str, exc: Exception) -> ValueError:
    return ValueError(
        f"{path}: not a valid gzip file ({exc}). Decompress it with `gunzip -t` to check it, "
        "or drop the .gz suffix if it is plain text."
    )


def _file_state(path: str) -> tuple[int, int, int, int] | None:
    """What tells a regular file changed: device, inode, size and modification time
    (None for a FIFO or a device, which cannot be counted and read again anyway)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _blocks(
    path: str, block_bytes: int, skip: int = 0, memory_map: bool = True
) -> Iterator[tuple[Any, Any, int, int]]:
    """Yield ``(block, buf, end, offset)``: ``block[:end]`` holds whole lines of the
    (decompressed) file after its first ``skip`` bytes (BOM included) and always ends with
    a line end (one is added after a last line that lacks it); ``buf`` is the same bytes as
    a uint8 array (for the compiled parsers; bytes after ``end`` may follow); ``offset`` is
    the block's byte offset in the decompressed file. ``block`` offers ``find``,
    ``rfind``, ``count``, ``startswith`` and slicing, as ``bytes`` does.

    Use each block before asking for the next (its memory is reused or released). A plain
    file is memory-mapped (unless ``memory_map`` is false), so the parsers read the page
    cache without a copy; a gzip file (or one that cannot be mapped) is read into a buffer."""
    if memory_map and not _is_gz(path):
        try:
            with open(path, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                # a private map (nothing writes to it): its array is writable, the type the
                # parsers are compiled (and cached) for
                mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_COPY) if size > skip else None
        except (OSError, ValueError):
            mm = None
        if mm is not None:
            yield from _mapped_blocks(mm, size, block_bytes, skip)
            return
    yield from _read_blocks(path, block_bytes, skip)


def _data_blocks(
    path: str, block_bytes: int, memory_map: bool, skip: int = 0
) -> Iterator[tuple[Any, Any, int, int, int]]:
    """:func:`_blocks` with where each block's data starts: after a UTF-8 BOM that opens
    the file (when nothing is skipped), else at 0."""
    at_start = skip == 0
    for block, buf, end, boff in _blocks(path, block_bytes, skip, memory_map=memory_map):
        pos = 3 if at_start and block.startswith(_BOM, 0, end) else 0
        at_start = False
        yield block, buf, end, boff, pos


class _Window:
    """The bytes of a memory map from ``base`` on, indexed from 0 (a block of
    :func:`_mapped_blocks`); the few ``bytes`` methods the readers use."""

    __slots__ = ("base", "mm")

    def __init__(self, mm: mmap.mmap, base: int):
        self.mm = mm
        self.base = base

    def __getitem__(self, k):
        if isinstance(k, slice):
            return self.mm[self.base + (k.start or 0) : self.base + k.stop]
        return self.mm[self.base + k]

    def find(self, sub: bytes, a: int, b: int) -> int:
        r = self.mm.find(sub, self.base + a, self.base + b)
        return r - self.base if r >= 0 else -1

    def rfind(self, sub: bytes, a: int, b: int) -> int:
        r = self.mm.rfind(sub, self.base + a, self.base + b)
        return r - self.base if r >= 0 else -1

    def count(self, sub: bytes, a: int, b: int) -> int:
        return self[a:b].count(sub)

    def startswith(self, prefix: bytes, a: int, b: int) -> bool:
        return a + len(prefix) <= b and self[a : a + len(prefix)] == prefix


def _mapped_blocks(mm, size: int, block_bytes: int, skip: int):
    """:func:`_blocks` over a memory map of a plain file of ``size > skip`` bytes.

    Pages already parsed are dropped from the mapping (``MADV_DONTNEED``; they stay in
    the page cache), so the resident set does not grow with the file."""
    page = mmap.PAGESIZE
    if hasattr(mmap, "MADV_SEQUENTIAL"):
        mm.madvise(mmap.MADV_SEQUENTIAL)
    whole = np.frombuffer(mm, dtype=np.uint8)
    try:
        base, span, dropped = skip, block_bytes, 0
        while base < size:
            hi = min(size, base + span)
            if hi == size:
                if whole[size - 1] in (10, 13):
                    yield _Window(mm, base), whole[base:], size - base, base
                else:  # no line end after the last line: copy the last block, add one
                    tail = bytearray(mm[base:size]) + b"\n"
                    yield tail, np.frombuffer(tail, dtype=np.uint8), len(tail), base
                return
            cut = mm.rfind(b"\n", base, hi) + 1
            if cut <= base:
                cut = mm.rfind(b"\r", base, hi) + 1
                if cut == hi and mm[hi] == 10:  # the block ends inside a "\r\n": take it
                    cut += 1
            if cut <= base:  # a line longer than the block: look further
                span *= 2
                continue
            yield _Window(mm, base), whole[base:], cut - base, base
            base = cut
            done = base // page * page
            if done > dropped and hasattr(mmap, "MADV_DONTNEED"):
                mm.madvise(mmap.MADV_DONTNEED, dropped, done - dropped)
                dropped = done
    finally:
        del whole
        try:
            mm.close()
        except BufferError:  # a caller still holds a view: the map goes with it
            pass


def _read_blocks(path: str, block_bytes: int, skip: int = 0) -> Iterator[tuple[Any, Any, int, int]]:
    """:func:`_blocks` by reading (and decompressing) into a reused buffer."""
    buf = bytearray(block_bytes)
    try:
        with _open(path) as fh:
            offset = len(fh.read(skip)) if skip else 0
            have = 0  # bytes of an unfinished line carried at the front of buf
            while True:
                if have == len(buf):  # a line longer than the buffer: a bigger one
                    bigger = bytearray(2 * len(buf))
                    bigger[:have] = buf
                    buf = bigger
                with memoryview(buf) as view:
                    got = fh.readinto(view[have:])
                if not got:
                    if have:
                        if buf[have - 1] not in (10, 13):  # the compiled parsers need a
                            if have == len(buf):  # line end at the end of every block
                                buf.append(10)
                            else:
                                buf[have] = 10
                            have += 1
                        yield buf, np.frombuffer(buf, dtype=np.uint8), have, offset
                    return
                size = have + got
                cut = buf.rfind(b"\n", 0, size) + 1
                if cut == 0:
                    cut = buf.rfind(b"\r", 0, size) + 1
                    if cut == size:  # a "\r" at the end may be half of "\r\n": end the
                        cut = buf.rfind(b"\r", 0, size - 1) + 1  # block on the one before
                if cut <= 0:
                    have = size
                    continue
                yield buf, np.frombuffer(buf, dtype=np.uint8), cut, offset
                offset += cut
                have = size - cut
                buf[:have] = buf[cut:size]
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise _gzip_error(path, exc) from None


def _next_row(head: bytes, pos: int, lineno: int, whole: bool, delimiter: str, path: str):
    """The first non-blank CSV record of ``head`` from ``pos`` (line ``lineno``), a quoted
    field's line breaks included: ``(cells stripped, its line, its physical lines, where
    it ends)``, or None when ``head`` (not ``whole``: a peek) holds no whole one. A
    malformed record raises :func:`read_csv`'s error naming ``path``."""
    while pos < len(head):
        text_end, nxt = _line_end(head, pos, len(head))
        if nxt >= len(head) and not whole:
            return None  # the line (or its "\r\n") may go on past the peek
        line = _decode_line(head[pos:text_end], path, lineno, pos)
        lines = 1
        if '"' in line and _open_quote(line, delimiter):  # a record of several lines
            record = _Record(line, lineno, delimiter, path)
            nxt = record.take(head, nxt, len(head), 0)
            if not whole and (not record.done or nxt >= len(head)):
                return None  # its last line may go on past the peek
            line, lines = record.text, len(record.lines)
        # strict, as read_csv: an unclosed quote there runs on over the rows
        row = _csv_row(line, delimiter, path, lineno)
        if row and any(c.strip() for c in row):
            return [c.strip() for c in row], lineno, lines, nxt
        pos, lineno = nxt, lineno + lines
    return None


def _second_row(head: bytes, pos: int, lineno: int, whole: bool, delimiter: str):
    """The first non-blank CSV row of ``head`` from ``pos`` (line ``lineno``), its fields
    stripped; None when ``head`` holds no whole one (or it does not parse: the read names
    that line)."""
    try:
        got = _next_row(head, pos, lineno, whole, delimiter, "")
    except ValueError:
        return None
    return None if got is None else got[0]


def _decode_line(raw: bytes, path: str, lineno: int, offset: int) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(
            path,
            lineno,
            f"bytes that are not UTF-8 ({exc.reason} at byte {offset + exc.start})",
            "Save the file as UTF-8.",
        ) from None
    if "\x00" in text:
        raise _fail(path, lineno, "a NUL byte (binary data)", "Pass a text file.")
    return text


def _open_quote(line: str, delimiter: str, quoted: bool = False) -> bool:
    """Whether the csv module (the readers' dialect: ``"`` quotes a field, doubled inside
    it) is inside a quoted field at the end of ``line``, so that the record goes on over
    the next line (RFC 4180); ``quoted``: the line starts inside one (a record's next
    line). A quote after a field's first character is text, as the csv module reads it;
    text after a closing quote, which strict parsing refuses, is left for it to refuse."""
    i, n = 0, len(line)
    while True:
        if not quoted:  # at a field's start: a quote opens it, else skip to the next one
            if i < n and line[i] == '"':
                quoted, i = True, i + 1
                continue
            j = line.find(delimiter, i)
            if j < 0:
                return False
            i = j + 1
            continue
        j = line.find('"', i)
        if j < 0:
            return True
        if j + 1 < n and line[j + 1] == '"':  # a doubled quote: one quote character
            i = j + 2
            continue
        quoted = False  # the closing quote; the field ends at the next delimiter
        j = line.find(delimiter, j + 1)
        if j < 0:
            return False
        i = j + 1


#: What :meth:`ChunkedFile._csv_careful` returns for a line ending inside a quoted field.
_GOES_ON = object()


class _Record:
    """The lines of a CSV record whose quoted field holds line breaks, gathered line by
    line (across blocks) until the quote closes, or until the field exceeds the csv
    module's field size limit (where :func:`read_csv` stops too: memory stays bounded
    when a quote never closes). ``text`` joins them with ``"\\n"``, as :func:`read_csv`
    sees the text (``\\r\\n`` and ``\\r`` made ``\\n``)."""

    __slots__ = ("delimiter", "lineno", "lines", "open", "path", "size")

    def __init__(self, first: str, lineno: int, delimiter: str, path: str):
        self.lines = [first]
        self.lineno = lineno  # the record's first line
        self.delimiter = delimiter
        self.path = path
        self.open = True
        # characters of the open field after the first line (each line end counts one):
        # the limit is a field's, and a record may hold several fields of several lines
        self.size = 0

    def take(self, block: bytes | bytearray | _Window, pos: int, end: int, boff: int) -> int:
        """Take the record's next lines from ``block[pos:end]``; where they end."""
        limit = csv.field_size_limit()
        while self.open and pos < end and self.size <= limit:
            text_end, nxt = _line_end(block, pos, end)
            lineno = self.lineno + len(self.lines)
            line = _decode_line(bytes(block[pos:text_end]), self.path, lineno, boff + pos)
            self.lines.append(line)
            self.open = _open_quote(line, self.delimiter, True)
            # a line without a closing quote (its doubled ones are text) is the open field's;
            # one that closes it and opens another starts the count again (the new field's
            # part of that line uncounted: a few more lines read, no field refused early)
            whole = '"' not in line or '"' not in line.replace('""', "")
            self.size = self.size + len(line) + 1 if whole else 0
            pos = nxt
        return pos

    @property
    def done(self) -> bool:
        """Whether the record is whole (or too long to be: the csv module refuses it)."""
        return not self.open or self.size > csv.field_size_limit()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _csv_row(text: str, delimiter: str, path: str, lineno: int) -> list[str]:
    """The cells of one CSV record (a line, or a :class:`_Record`'s text) by the csv
    module, strictly; a malformed one raises :func:`read_csv`'s error naming line
    ``lineno``, where it starts."""
    lines = io.StringIO(text) if "\n" in text else [text]
    reader = csv.reader(lines, delimiter=delimiter, strict=True)
    try:
        return next(reader, [])
    except csv.Error as exc:
        raise _malformed_csv(path, lineno, exc, lineno + reader.line_num - 1) from None


# --------------------------------------------------------------------------- chunking
def _refs(arrays) -> list[int]:
    return [sys.getrefcount(a) for a in arrays]


#: What :func:`_refs` reports for an array held by one list and nothing else.
_ALONE = _refs([np.empty(0)])[0]


class _Recycler:
    """Reuse the arrays of a chunk once its consumer has let go of them.

    A chunk's arrays stay referenced while anyone holds the chunk (its views keep them
    alive); in ``for X, y in chunks`` that is until two chunks later. Arrays whose only
    reference is this pool are refilled instead of allocating fresh memory: fresh large
    arrays cost page faults, 10-30% of the parse time of 100,000-row chunks here. A
    consumer that keeps its chunks (``list(chunks)``) just gets new arrays each time."""

    def __init__(self, keep: int = 3):
        self.sets: list[list[np.ndarray]] = []
        self.keep = keep

    def take(
        self, current: list[np.ndarray] | None, fits: Callable[[list[np.ndarray]], bool]
    ) -> list[np.ndarray] | None:
        for arrays in self.sets:
            if arrays is not current and fits(arrays) and max(_refs(arrays)) <= _ALONE:
                return arrays
        return None

    def add(self, arrays: list[np.ndarray]) -> None:
        self.sets.append(arrays)
        if len(self.sets) > self.keep:
            self.sets.pop(0)


class _Rechunk:
    """Collect pieces of rows and hand them out in chunks of exactly ``size`` rows."""

    def __init__(self, size: int, sparse_input: bool, n_features: int, dense_out: bool):
        self.size = size
        self.sparse = sparse_input
        self.d = n_features
        self.dense_out = dense_out
        self.pieces: list[tuple] = []
        self.n = 0

    def add(self, piece: tuple) -> Iterator[tuple[Any, np.ndarray]]:
        self.pieces.append(piece)
        self.n += len(piece[-1])
        while self.n >= self.size:
            yield self._take(self.size)

    def flush(self) -> Iterator[tuple[Any, np.ndarray]]:
        if self.n:
            yield self._take(self.n)

    def _take(self, k: int):
        out, got = [], 0
        while got < k:
            piece = self.pieces[0]
            m = len(piece[-1])
            if got + m <= k:
                out.append(piece)
                self.pieces.pop(0)
                got += m
            else:
                need = k - got
                head, tail = self._split(piece, need)
                out.append(head)
                self.pieces[0] = tail
                got = k
        self.n -= k
        return self._join(out)

    def _split(self, piece, r):
        if self.sparse:
            data, indices, indptr, y = piece
            cut = indptr[r]
            return (
                (data[:cut], indices[:cut], indptr[: r + 1], y[:r]),
                (data[cut:], indices[cut:], indptr[r:] - cut, y[r:]),
            )
        X, y = piece
        return (X[:r], y[:r]), (X[r:], y[r:])

    def _join(self, pieces):
        if not self.sparse:
            if len(pieces) == 1:
                X, y = pieces[0]
                return np.ascontiguousarray(X), y
            return (
                np.concatenate([p[0] for p in pieces]),
                np.concatenate([p[1] for p in pieces]),
            )
        if len(pieces) == 1:
            data, indices, indptr, y = pieces[0]
            if indptr[0] != 0:
                indptr = indptr - indptr[0]
        else:
            data = np.concatenate([p[0] for p in pieces])
            indices = np.concatenate([p[1] for p in pieces])
            parts, base = [np.zeros(1, dtype=np.int64)], 0
            for p in pieces:
                parts.append(p[2][1:] + base)
                base += p[2][-1]
            indptr = np.concatenate(parts)
            y = np.concatenate([p[3] for p in pieces])
        X = sp.csr_matrix((data, indices, indptr), shape=(len(y), self.d))
        X.has_sorted_indices = True
        return (X.toarray() if self.dense_out else X), y


# --------------------------------------------------------------------------- the reader
#: The formats that read each option of :func:`iter_chunks` given away from its default
#: (``missing=`` is taken by every format: docs/decisions.md, session 16).
_OPTION_FORMATS = {
    "n_features": ("libsvm",),
    "zero_based": ("libsvm",),
    "label_column": ("csv", "keel"),
    "delimiter": ("csv",),
    "header": ("csv",),
    "nominal_columns": ("csv",),
    "drop_columns": ("csv",),
}


def _refuse_other_formats_options(path: str, fmt: str, **given: bool) -> None:
    """Raise TypeError for an option given (``given[name]`` true) that ``fmt`` does not
    read: it was ignored, silently (``n_features=5`` on a CSV file gave its own width),
    where ``load`` refuses it as an unexpected keyword and the command line as a flag of
    another format."""
    for name, formats in _OPTION_FORMATS.items():
        if given.get(name) and fmt not in formats:
            raise _other_formats_option(path, fmt, name, formats)


class ChunkedFile:
    """A data file read in chunks of rows; iterate to get ``(X, y)`` pairs.

    Made by :func:`iter_chunks` (see there for the parameters). Iterating again reads
    the file again. ``y`` holds ``int64`` ±1 (+1 = ``positive_class``), as
    :func:`skewlearn.datasets.load` gives it; ``X`` is float64, CSR for LIBSVM (unless
    ``sparse=False``), else C-contiguous.

    Attributes
    ----------
    path : str
    format : {"libsvm", "csv", "keel"}
    chunk_size : int
    n_features : int
        Columns of every ``X`` chunk.
    positive_class : label
        The original label mapped to +1.
    classes : ndarray
        ``[-1, 1]``, the labels of ``y`` (pass it to ``partial_fit``).
    n_rows, n_positives : int or None
        Known after the counting pass; None when it was skipped.
    n_dropped : int
        Rows dropped for a missing value (``missing="drop"``) in the last complete pass
        over the file (the counting pass or an iteration); every pass drops the same rows.
    label_counts : dict or None
        Rows per original label (counting pass only).
    feature_names : list of str
        LIBSVM files wider than 2**20 columns: a
        :class:`~skewlearn.datasets.readers.NumberedNames` (``x1, x2, …`` made on demand,
        so a hashed file's millions of columns cost no memory).
    scanned : bool
        Whether the counting pass was made.
    """

    classes = np.array([-1, 1], dtype=np.int64)

    def __init__(
        self,
        path: str | os.PathLike,
        chunk_size: int,
        *,
        format: str | None,
        n_features: int | None,
        positive_class: Any,
        sparse: bool,
        zero_based: bool,
        label_column: int | str | None,
        delimiter: str | None,
        header: bool,
        nominal_columns: Sequence[int | str] | None,
        missing: str,
        block_bytes: int,
        memory_map: bool = True,
        drop_columns: Sequence[int | str] | None = None,
    ):
        path = _files.user_path(path)
        _check_file(path)
        if not _is_gz(path) and os.path.isfile(path):
            with open(path, "rb") as fh:
                _refuse_unnamed_gzip(path, fh.read(MAGIC_BYTES))
        if not (isinstance(chunk_size, int | np.integer) and not isinstance(chunk_size, bool)):
            raise TypeError(f"chunk_size must be an int >= 1; got {chunk_size!r}.")
        if chunk_size < 1:
            raise ValueError(f"chunk_size must be an int >= 1; got {chunk_size}.")
        if not (
            isinstance(block_bytes, int | np.integer)
            and not isinstance(block_bytes, bool)
            and block_bytes >= 1024
        ):
            raise ValueError(f"block_bytes must be an int >= 1024; got {block_bytes!r}.")
        _check_missing(missing)
        _check_positive_class(positive_class)
        for name, value in (("sparse", sparse), ("zero_based", zero_based), ("header", header),
                            ("memory_map", memory_map)):  # fmt: skip
            _check_switch(name, value)
        if format is None:
            base = path[:-3] if path.lower().endswith(".gz") else path
            ext = os.path.splitext(base)[1].lower()
            format = _EXTENSIONS.get(ext)
            if format not in _FORMATS:
                _refuse_compressed_suffix(path, ext)
                raise ValueError(
                    f"{path}: cannot tell a chunk-readable format from the extension {ext!r}. "
                    f"Pass format= one of {list(_FORMATS)} (ARFF files are read whole: use "
                    "skewlearn.datasets.load)."
                )
        fmt = str(format).lower()
        if fmt not in _FORMATS:
            raise ValueError(f"format must be one of {list(_FORMATS)}; got {format!r}.")
        _refuse_other_formats_options(
            path,
            fmt,
            n_features=n_features is not None,
            zero_based=bool(zero_based),
            label_column=label_column is not None,
            delimiter=delimiter is not None,
            header=not header,
            nominal_columns=nominal_columns is not None,
            drop_columns=drop_columns is not None,
        )
        if n_features is not None and (
            not isinstance(n_features, int | np.integer) or isinstance(n_features, bool)
        ):
            raise TypeError(f"n_features must be an int or None; got {n_features!r}.")
        if n_features is not None and n_features < 0:
            raise ValueError(f"n_features must be >= 0; got {n_features}.")
        self.path = path
        self.format = fmt
        self.chunk_size = int(chunk_size)
        self.sparse = bool(sparse)
        self.zero_based = bool(zero_based)
        self.missing = missing
        self.block_bytes = int(block_bytes)
        self.memory_map = bool(memory_map)
        self.label_column = label_column
        self.n_rows: int | None = None
        self.n_positives: int | None = None
        self.label_counts: dict | None = None
        self.n_dropped = 0
        self._dropping = 0  # rows dropped so far in the current pass
        self._trailing: tuple[int, int | None] = (0, None)  # of them, for an empty last field
        self._user_n_features = n_features
        self._tmp: str | None = None
        self._skip: frozenset[int] = frozenset()  # CSV's drop_columns, by position
        if fmt == "libsvm":
            self.n_features = n_features
        elif fmt == "csv":
            self._csv_header(label_column, delimiter, header, nominal_columns, drop_columns)
        else:
            self._keel_header(label_column)
        need_scan = positive_class is None or (fmt == "libsvm" and n_features is None)
        need_scan = need_scan or self._undeclared_nominal()
        self.scanned = need_scan
        self._positive_tokens: set | None = None
        if need_scan:
            self._scan(positive_class)
        else:
            self.positive_class = positive_class
        if self.format == "libsvm":
            offset = 0 if self.zero_based else 1
            self.feature_names = numbered_names(self.n_features, offset)

    # ------------------------------------------------------------------ public
    def __iter__(self) -> Iterator[tuple[Any, np.ndarray]]:
        if self.scanned and _file_state(self.path) != self._counted_state:
            # the rows, classes, categories and width come from the counting pass: a file
            # appended to or rewritten since would be read with them (silently)
            raise ValueError(
                f"{self.path} changed after its counting pass (its size or modification "
                "time differs): the rows, classes and columns counted no longer describe "
                "it. Call iter_chunks again to count it anew, pass positive_class= (and, "
                "for LIBSVM, n_features=) to read it in one pass as it is, or stream a copy "
                "that does not change."
            )
        self._dropping = 0
        self._trailing = (0, None)
        seen_positive = self.scanned  # the counting pass already checked it occurs
        n_rows = 0
        for X, y in self._chunks():
            seen_positive = seen_positive or bool((y == 1).any())
            n_rows += len(y)
            yield X, y
        self.n_dropped = self._dropping  # a complete pass
        if n_rows == 0:  # a file without rows: not "every row was negative"
            raise self._no_rows()
        if not seen_positive:
            # without the counting pass nothing checked that positive_class occurs
            raise ValueError(
                f"{os.path.basename(self.path)}: positive class {self.positive_class!r} does "
                "not occur in the file (every row was negative); check the label's spelling "
                "and type (e.g. 1 or '1')."
            )

    def _chunks(self) -> Iterator[tuple[Any, np.ndarray]]:
        size = self.chunk_size
        if self.format == "libsvm":
            for (data, indices, indptr), labels in self._pieces(self.n_features, size):
                X = sp.csr_matrix((data, indices, indptr), shape=(len(indptr) - 1, self.n_features))
                X.has_sorted_indices = True
                yield (X if self.sparse else X.toarray()), self._map_numeric(labels)
            return
        if self._fast():
            for (X,), labels in self._pieces(-1, size):
                yield X, self._map_tokens(labels)
            return
        chunker = _Rechunk(size, False, len(self.feature_names), False)
        for piece, labels in self._pieces(-1, size):
            yield from chunker.add((*piece, self._map_tokens(labels)))
        yield from chunker.flush()

    def __repr__(self) -> str:
        # getattr: a traceback (pytest's locals, a debugger) shows the object whose
        # __init__ refused the file, before these attributes were set
        names = ("path", "format", "chunk_size", "n_features", "positive_class", "n_rows")
        v = {k: getattr(self, k, "?") for k in names}
        return (
            f"ChunkedFile({v['path']!r}, format={v['format']!r}, chunk_size={v['chunk_size']}, "
            f"n_features={v['n_features']}, positive_class={v['positive_class']!r}, "
            f"n_rows={v['n_rows']})"
        )

    @property
    def meta(self) -> dict[str, Any]:
        """Summary in the shape of :func:`skewlearn.datasets.load`'s ``meta``."""
        n_neg = None if self.n_rows is None else self.n_rows - self.n_positives
        ratio = None
        if n_neg is not None and self.n_positives:
            ratio = n_neg / self.n_positives
        return {
            "name": os.path.basename(self.path),
            "n_rows": self.n_rows,
            "n_features": self.n_features,
            "n_positives": self.n_positives,
            "imbalance_ratio": ratio,
            "positive_class": self.positive_class,
            "source": self.path,
            "path": self.path,
            "format": self.format,
            "feature_names": (
                self.feature_names  # immutable and lazy: a hashed file has millions
                if isinstance(self.feature_names, NumberedNames)
                else list(self.feature_names)
            ),
            "n_dropped": self.n_dropped,
            "chunk_size": self.chunk_size,
        }

    # ------------------------------------------------------------------ labels
    def _scan(self, positive_class) -> None:
        """One counting pass: labels, rows, largest LIBSVM index, nominal categories."""
        self._counted_state = _file_state(self.path)  # before: a change during it counts
        self._dropping = 0
        self._trailing = (0, None)
        counts: dict[Any, int] = {}
        n_rows = 0
        if self.format == "libsvm":
            limit = -1 if self._user_n_features is None else self._user_n_features
            maxidx = -1
            all_int = True
            for vals, isint, top in self._libsvm_counts(limit, _SCAN_ROWS):
                all_int &= isint
                u, c = np.unique(vals, return_counts=True)
                for a, b in zip(u.tolist(), c.tolist()):
                    counts[a] = counts.get(a, 0) + b
                n_rows += len(vals)
                maxidx = max(maxidx, top)
            if n_rows == 0:
                raise _fail(
                    self.path, None, "no data rows (only comments)", "Pass a file with data rows."
                )
            if self._user_n_features is None:
                self.n_features = maxidx + 1
            typed = {(int(k) if all_int else k): v for k, v in counts.items()}
        else:
            self._collect = self._undeclared_nominal()
            # rows per counting array: _SCAN_ROWS, fewer for a wide file (its width times
            # 4096 rows was 6.6 GB at 200,000 columns, whatever chunk_size was)
            rows = max(1, min(_SCAN_ROWS, _SCAN_BYTES // (8 * max(1, self.n_features))))
            for _, tokens in self._pieces(-1, rows, reuse=True):
                if isinstance(tokens, tuple):  # (ids, table)
                    ids, table = tokens
                    c = np.bincount(ids, minlength=len(table))
                    for k in np.flatnonzero(c):
                        counts[table[k]] = counts.get(table[k], 0) + int(c[k])
                    n_rows += len(ids)
                else:
                    for t in tokens:
                        counts[t] = counts.get(t, 0) + 1
                    n_rows += len(tokens)
            self._collect = False
            self._finish_nominal()
            if n_rows == 0:
                raise self._no_rows()
            toks = list(counts)
            marker = None if self._label_declared() else _missing_like_label(toks)
            if marker is not None:
                self._refuse_missing_label(marker)
            values = _parse_labels(toks).tolist()
            typed = {}
            self._token_value = dict(zip(toks, values))
            for t, v in zip(toks, values):
                typed[v] = typed.get(v, 0) + counts[t]
        self.n_rows = n_rows
        self.n_dropped = self._dropping
        self.label_counts = typed
        classes = np.unique(np.asarray(list(typed)))
        where = os.path.basename(self.path)
        if positive_class is None:
            if len(classes) != 2:
                label = None  # the label column, where the reader could take another
                if self.format in ("csv", "keel", "arff") and self.attributes:
                    label = self.attributes[self.label_index].name
                raise _not_two_classes(where, classes, label)
            c0, c1 = (typed[c] for c in classes.tolist())
            positive_class = classes[0] if c0 < c1 else classes[1]
            positive_class = positive_class.item()
        hits = [c for c in typed if c == positive_class]
        if not hits:
            raise _absent_positive(where, positive_class, classes.tolist())
        self.positive_class = positive_class
        self.n_positives = int(sum(typed[c] for c in hits))
        if self.format != "libsvm":
            self._positive_tokens = {t for t, v in self._token_value.items() if v == positive_class}

    def _no_rows(self) -> ValueError:
        """The error for a pass that met no row, worded as the whole-file readers word it."""
        if self._dropping and self._trailing[0] == self._dropping:
            return _trailing_delimiter_error(self.path, self._trailing[1], self.delimiter, True)
        if self._dropping:
            return _fail(self.path, None, "every data row has a missing value", "Fill them in.")
        return _fail(self.path, None, "no data rows", "Pass a file with data rows.")

    def _drop(self, rows, linenos) -> None:
        """Count ``rows`` (on ``linenos``) dropped for a missing value; and those whose one
        missing value is an empty last field (a trailing delimiter), with the first line."""
        self._dropping += len(rows)
        for row, ln in zip(rows, linenos):
            if self.format == "csv" and _trailing_blank(row, True, self._skip):
                count, first = self._trailing
                self._trailing = (count + 1, first if first is not None else ln)

    def _kept(self, row: list[str]) -> list[str]:
        """``row`` without the cells of its dropped columns (``drop_columns``)."""
        return [t for j, t in enumerate(row) if j not in self._skip] if self._skip else row

    def _is_positive_token(self, tok: str) -> bool:
        if self._positive_tokens is not None:
            return tok in self._positive_tokens
        pos = self.positive_class
        if isinstance(pos, str):
            return tok == pos
        if not self._label_declared() and _missing_like_label([tok, "0"]) is not None:
            self._refuse_missing_label(tok)
        return bool(_parse_labels([tok])[0] == pos)

    def _label_declared(self) -> bool:
        """Whether a KEEL header declares the label's classes (then every declared class,
        ``NA`` included, is a class)."""
        att = self.attributes[self.label_index]
        return att.categories is not None and att.declared

    def _refuse_missing_label(self, token: str) -> None:
        """Raise the whole-file readers' error for a label that spells a missing value,
        with the first line that holds it (found by reading the data lines again)."""
        lineno = None
        start = self._first_line if self.format == "csv" else self._data_line
        with self._text_lines() as lines:
            if self.format == "csv":  # records: a quoted field may hold line breaks
                records = self._csv_records(lines)
            else:
                records = (
                    (ln, _split_quoted(line.strip()))
                    for ln, line in lines
                    if ln >= start and line.strip() and not line.lstrip().startswith("%")
                )
            try:
                for ln, row in records:
                    if row and len(row) == self.width and row[self.label_index].strip() == token:
                        lineno = ln
                        break
            except ValueError:  # a malformed record after the rows read so far
                pass
        raise _missing_label_error(self.path, lineno, token)

    def _map_numeric(self, labels) -> np.ndarray:
        vals, _ = labels
        return np.where(vals == self.positive_class, 1, -1).astype(np.int64)

    def _map_tokens(self, labels) -> np.ndarray:
        if isinstance(labels, tuple):
            ids, table = labels
            mask = np.array([self._is_positive_token(t) for t in table] or [False], dtype=bool)
            return np.where(mask[ids], 1, -1).astype(np.int64)
        return np.array([1 if self._is_positive_token(t) else -1 for t in labels], dtype=np.int64)

    # ------------------------------------------------------------------ pieces
    def _fast(self) -> bool:
        # a delimiter a number can hold ('-'): the compiled parser would read it into the
        # number, so the careful reader splits those lines (as read_csv does)
        return self.format == "libsvm" or (
            self.format == "csv" and not self._nominal_idx and self.delimiter not in _NUMBER_CHARS
        )

    def _pieces(self, limit: int, rows: int, reuse: bool = False):
        if self.format == "libsvm":
            yield from self._libsvm_pieces(limit, rows)
        elif self._fast():
            yield from self._csv_pieces(rows, reuse)
        else:
            yield from self._careful_pieces()

    def _tmpfile(self) -> str:
        if self._tmp is None or not os.path.exists(self._tmp):
            fd, self._tmp = tempfile.mkstemp(suffix=".svm", prefix="skewlearn-line-")
            os.close(fd)
        return self._tmp

    def __del__(self):
        tmp = getattr(self, "_tmp", None)
        if tmp and os.path.exists(tmp):
            try:
                os.unlink(tmp)
            except OSError:  # pragma: no cover
                pass

    # ...................................................................... LIBSVM
    def _libsvm_careful(self, text: str, lineno: int, row_number: int, limit: int):
        """Parse one line with the careful reader (``readers._read_libsvm_careful``); its
        errors name ``path, line lineno``."""
        if not text.split("#", 1)[0].split():
            return None
        tmp = self._tmpfile()
        with open(tmp, "w", encoding="utf-8") as fh:
            # line 2 of the file: read_libsvm removes a byte-order mark starting line 1 only
            fh.write("\n" + text + "\n")
        try:
            X1, y1, _ = _read_libsvm_careful(
                tmp,
                n_features=None if limit < 0 else limit,
                zero_based=self.zero_based,
            )
        except ValueError as exc:
            msg = str(exc)
            if msg.startswith(f"{tmp}, line 2: "):
                msg = f"{self.path}, line {lineno}: " + msg[len(f"{tmp}, line 2: ") :]
            elif msg.startswith(f"{tmp}:"):
                msg = f"{self.path}:" + msg[len(f"{tmp}:") :]
                msg = msg.replace(" of data row 1 ", f" of data row {row_number} ")
            raise ValueError(msg) from None
        if y1.dtype.kind == "i" and abs(int(y1[0])) > 2**53:
            # the chunks keep labels as float64, where such an integer may equal another
            raise _fail(
                self.path,
                lineno,
                f"label {int(y1[0])} is an integer beyond 2**53, which the chunked reader "
                "cannot hold exactly (it keeps labels as float64, where it may equal a "
                "neighbouring label)",
                "Renumber the labels, or read the file whole with skewlearn.datasets.load.",
            )
        return X1, y1

    def _careful_line(self, block, pos, end, boff, lineno, rows_before, limit):
        """The line at ``pos`` of a block, by :meth:`_libsvm_careful` (which raises on a bad
        line): ``(its (X, y) or None for a blank one, where the next line starts)``."""
        text_end, nxt = _line_end(block, pos, end)
        text = _decode_line(bytes(block[pos:text_end]), self.path, lineno, boff + pos)
        return self._libsvm_careful(text, lineno, rows_before + 1, limit), nxt

    def _libsvm_counts(self, limit: int, rows: int):
        """The counting pass over a LIBSVM file: ``(labels, all_int, largest index)`` per
        chunk of ``rows`` rows (one label array, refilled). The values are not read here
        (:func:`_parse.libsvm_count_block`): the learning pass reads and checks them."""
        offset = 0 if self.zero_based else 1
        lineno = 1
        rows_before = 0
        empty = True
        labels = np.empty(rows, dtype=np.float64)
        label_int = np.empty(rows, dtype=np.bool_)
        n = 0
        maxidx = -1
        for block, buf, end, boff, pos in _data_blocks(
            self.path, self.block_bytes, self.memory_map
        ):
            empty = False
            while pos < end:
                n, lines, pos, status, top = _parse.libsvm_count_block(
                    buf, pos, end, offset, limit, labels, label_int, n, rows
                )
                lineno += lines
                maxidx = max(maxidx, top)
                if status == _parse.CAREFUL:
                    got, nxt = self._careful_line(
                        block, pos, end, boff, lineno, rows_before + n, limit
                    )
                    if got is not None:
                        X1, y1 = got
                        if X1.nnz:
                            maxidx = max(maxidx, int(X1.indices.max()))
                        labels[n] = float(y1[0])
                        label_int[n] = y1.dtype.kind == "i"
                        n += 1
                    lineno += 1
                    pos = nxt
                if n == rows:
                    yield labels, bool(label_int.all()), maxidx
                    rows_before += n
                    n = 0
                    maxidx = -1
        if empty:
            raise _fail(self.path, None, "the file is empty", "Pass a LIBSVM file with data rows.")
        if n:
            yield labels[:n], bool(label_int[:n].all()), maxidx

    def _libsvm_pieces(self, limit: int, rows: int):
        """Chunks of ``rows`` rows as ``((data, indices, indptr), (labels, all_int))``.

        The compiled parser writes straight into the chunk's arrays (no copy). (The
        counting pass is :meth:`_libsvm_counts`.)"""
        offset = 0 if self.zero_based else 1
        lineno = 1
        rows_before = 0
        empty = True
        hard = np.empty((4096, 3), dtype=np.int64)
        chunk = None
        n = 0
        per_row = None

        pool = _Recycler()

        def new_chunk(cap_nnz):
            again = pool.take(chunk, lambda c: len(c[3]) >= cap_nnz)
            if again is not None:
                again[2][0] = 0
                return again
            fresh = [
                np.empty(rows, dtype=np.float64),
                np.empty(rows, dtype=np.bool_),
                np.zeros(rows + 1, dtype=np.int32 if cap_nnz < 2**31 - 1 else np.int64),
                np.empty(cap_nnz, dtype=np.int32),
                np.empty(cap_nnz, dtype=np.float64),
            ]
            pool.add(fresh)
            return fresh

        def grow(chunk, need):
            chunk[2:5] = _grown_entries(chunk[2], chunk[3], chunk[4], need)

        def emit(chunk, n):
            labels, label_int, indptr, indices, values = chunk
            nnz = int(indptr[n])
            return (values[:nnz], indices[:nnz], indptr[: n + 1]), (
                labels[:n],
                bool(label_int[:n].all()),
            )

        for block, buf, end, boff, pos in _data_blocks(
            self.path, self.block_bytes, self.memory_map
        ):
            first = pos  # after a byte-order mark, which is no part of the first line
            empty = False
            if per_row is None:
                per_row = _parse.entries_per_line(buf[:end])
            if chunk is None:
                chunk = new_chunk(int(per_row * rows * 1.05) + 64)
            while pos < end:
                labels, label_int, indptr, indices, values = chunk
                n2, nh, lines, pos2, status, _ = _parse.libsvm_block(
                    buf, pos, end, offset, limit, labels, label_int, indptr, indices, values,
                    hard, n, rows,
                )  # fmt: skip
                for h in range(nh):
                    slot, s, e = hard[h]
                    v = float(bytes(block[s:e]))
                    if not np.isfinite(v):
                        bad_line = lineno + _count_lines(block, pos, s)
                        line_start = _line_start(block, s, first)
                        text_end, _ = _line_end(block, line_start, end)
                        text = _decode_line(
                            bytes(block[line_start:text_end]),
                            self.path,
                            bad_line,
                            boff + line_start,
                        )
                        self._libsvm_careful(text, bad_line, rows_before + n2, limit)
                        raise AssertionError("unreachable: the careful reader accepted it")
                    values[slot] = v
                n, lineno, pos = n2, lineno + lines, pos2
                if status == _parse.GROW:
                    text_end, _ = _line_end(block, pos, end)
                    grow(chunk, int(indptr[n]) + block.count(b":", pos, text_end) + 1)
                elif status == _parse.CAREFUL:
                    got, nxt = self._careful_line(
                        block, pos, end, boff, lineno, rows_before + n, limit
                    )
                    if got is not None:
                        X1, y1 = got
                        k0 = int(indptr[n])
                        k1 = k0 + X1.nnz
                        if k1 > len(indices):
                            grow(chunk, k1)
                            labels, label_int, indptr, indices, values = chunk
                        indices[k0:k1] = X1.indices
                        values[k0:k1] = X1.data
                        labels[n] = float(y1[0])
                        label_int[n] = y1.dtype.kind == "i"
                        n += 1
                        indptr[n] = k1
                    lineno += 1
                    pos = nxt
                if n == rows:
                    yield emit(chunk, n)
                    rows_before += n
                    n = 0
                    chunk = new_chunk(len(chunk[3]))
        if empty:
            raise _fail(self.path, None, "the file is empty", "Pass a LIBSVM file with data rows.")
        if n:
            yield emit(chunk, n)

    # ...................................................................... CSV
    def _csv_header(self, label_column, delimiter, header, nominal_columns, drop_columns) -> None:
        path = self.path
        given = delimiter
        if given is not None and not (isinstance(given, str) and len(given) == 1):
            raise ValueError(f"delimiter must be one ASCII character; got {given!r}.")
        if given is not None:
            _check_delimiter(given)
        peek = 1 << 16
        while True:  # until the peek holds the first non-blank line whole
            try:
                with _open(path) as fh:
                    head = fh.read(peek)
            except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
                raise _gzip_error(path, exc) from None
            whole = len(head) < peek  # the peek is the whole file
            text = head.decode("utf-8-sig", errors="replace")
            text = text.replace("\r\n", "\n").replace("\r", "\n")
            if not text.strip():
                raise _fail(path, None, "the file is empty", "Pass a CSV file with data rows.")
            sniffed = given is None
            delimiter = _sniff_delimiter(text) if sniffed else given
            if len(delimiter) != 1 or not delimiter.isascii():
                raise ValueError(f"delimiter must be one ASCII character; got {delimiter!r}.")
            # the first non-blank row: the header, or the first data row (for the width)
            skip = 3 if head.startswith(_BOM) else 0
            got = _next_row(head, skip, 1, whole, delimiter, path)
            cut = got is None and not whole  # it may go on past the peek
            # the sniffer's sample: the first three whole lines, within the first MiB (without
            # a header, two: the second tells whether the first is the names, _names_first)
            want = 3 if sniffed else 0 if header else 2
            if not cut and not (not whole and peek < 1 << 20
                                and _first_lines(text)[1] < want):  # fmt: skip
                break
            peek *= 4  # a wide file's header can be longer than any fixed peek
        self.delimiter = delimiter
        if got is None:
            raise _fail(path, None, "no data rows", "Pass a CSV file with at least one data row.")
        first_row, lineno, lines, nxt = got
        if sniffed:
            _refuse_blank_separated(path, lineno, first_row)
        second = None  # (the row after first_row, read without a header)
        if header:
            names = first_row
            _warn_numeric_header(path, names)
            if len(set(names)) != len(names):
                dup = next(n for n in names if names.count(n) > 1)
                raise _fail(
                    path, lineno, f"column name {dup!r} appears twice", "Give columns unique names."
                )
            self._data_skip = nxt
            self._first_line = lineno + lines
        else:
            if isinstance(label_column, str):
                raise ValueError(
                    f"{path}: label_column={label_column!r} is a name but header=False. "
                    "Pass an integer index or header=True."
                )
            names = [f"x{j + 1}" for j in range(len(first_row))]
            self._data_skip = 0
            self._first_line = 1
            second = _second_row(head, nxt, lineno + lines, whole, delimiter)
        self._named_columns = bool(header)  # the label hint names columns, else indexes them
        label_column = -1 if label_column is None else label_column
        self.label_index = _label_position(label_column, names, path)
        self._nominal_idx = []
        for c in _column_list(nominal_columns):
            j = _label_position(c, names, path, "nominal_columns")
            if j != self.label_index:
                self._nominal_idx.append(j)
        self._skip = _dropped_columns(
            drop_columns, names, self.label_index, self._nominal_idx, path
        )
        self.attributes = [_Attribute(n, None, False) for n in names]
        for j in self._nominal_idx:
            self.attributes[j] = _Attribute(names[j], [], False)
        self.width = len(names)
        self._set_names()
        # the line of the names read as data (header=False), judged as read_csv judges it,
        # from the first two non-blank rows; 0 when there is none
        self._names_at = (
            lineno
            if second is not None and _names_first([first_row, second], header, self._skip)
            else 0
        )  # fmt: skip

    def _set_names(self) -> None:
        names = []
        for j, att in enumerate(self.attributes):
            if j == self.label_index or j in self._skip:
                continue
            if att.categories is None:
                names.append(att.name)
            else:
                names.extend(f"{att.name}={c}" for c in att.categories)
        self.feature_names = names
        self.n_features = len(names)

    def _csv_careful(self, text: str, lineno: int, first: bool = False):
        """One CSV record (a line, or a :class:`_Record`'s lines) through the careful
        reader: ``(x row, label token)`` or None. ``first``: ``text`` is a line that may
        open a record of several lines; if it ends inside a quoted field, ``_GOES_ON``
        (take the record's next lines)."""
        try:
            row = _csv_row(text, self.delimiter, self.path, lineno)
        except ValueError:  # only then is the line looked at again: a whole line costs nothing
            if first and _open_quote(text, self.delimiter):
                return _GOES_ON
            raise
        if not row or all(not c.strip() for c in row):
            return None
        row = [c.strip() for c in row]
        if self.missing == "drop" and len(row) == self.width:
            if any(t in _MISSING or t == "" for t in self._kept(row)):
                self._drop([row], [lineno])
                return None
        names = self._names_line(lineno)
        X, _, _ = _tabulate(
            [row],
            [lineno],
            self.attributes,
            self.label_index,
            "error",
            self.path,
            "CSV",
            blank_is_missing=True,
            force_nominal=True,
            nominal_fix=_NAMES_FIRST_FIX if names else _csv_text_fix,
            delimiter=self.delimiter,
            label_hint=None if names else self._named_columns,
            skip=self._skip,
        )
        return X[0], row[self.label_index]

    def _names_line(self, lineno: int) -> bool:
        """Whether line ``lineno``, read without a header, is the file's column names: its
        first non-blank row, when :func:`~skewlearn.datasets.readers._names_first` holds
        for it and the next one (``_names_at``, judged when the file was opened)."""
        return lineno == self._names_at

    def _csv_pieces(self, rows: int, reuse: bool = False):
        """Chunks of ``rows`` rows as ``((X,), (label ids, label tokens))``, parsed
        straight into the chunk's array."""
        delim = ord(self.delimiter)
        nf = self.n_features
        skipped = _skip_mask(self.width, self._skip)
        table = np.zeros((256, 64), dtype=np.uint8)
        table_len = np.zeros(256, dtype=np.int64)
        n_table = np.zeros(1, dtype=np.int64)
        tokens: list[str] = []
        hard = np.empty((4096, 4), dtype=np.int64)
        lineno = self._first_line
        pool = _Recycler()
        current = [np.empty((rows, nf), dtype=np.float64), np.empty(rows, dtype=np.int64)]
        pool.add(current)
        X, ids = current
        n = 0
        record: _Record | None = None  # a record whose quoted field runs on over lines

        def emit(n):
            while len(tokens) < n_table[0]:
                k = len(tokens)
                tokens.append(bytes(table[k, : table_len[k]]).decode("utf-8"))
            return (X[:n],), (ids[:n], list(tokens))

        for block, buf, end, boff, pos in _data_blocks(
            self.path, self.block_bytes, self.memory_map, self._data_skip
        ):
            first = pos  # after a byte-order mark, which is no part of the first line
            while pos < end:
                if record is not None:  # a record's next lines open the block: not compiled
                    n2, nh, lines, pos2, status = n, 0, 0, pos, _parse.CAREFUL
                else:
                    n2, nh, lines, pos2, status = _parse.csv_block(
                        buf, pos, end, delim, self.width, self.label_index, X, ids, table,
                        table_len, n_table, hard, n, rows, skipped,
                    )  # fmt: skip
                for h in range(nh):
                    r, f, s, e = hard[h]
                    v = _number(bytes(block[s:e]).decode("ascii"))
                    if v is None:  # not finite: the careful reader names the line
                        bad_line = lineno + _count_lines(block, pos, s)
                        line_start = _line_start(block, s, first)
                        text_end, _ = _line_end(block, line_start, end)
                        text = _decode_line(
                            bytes(block[line_start:text_end]),
                            self.path,
                            bad_line,
                            boff + line_start,
                        )
                        self._csv_careful(text, bad_line)
                        raise AssertionError("unreachable: the careful reader accepted it")
                    X[r, f] = v
                n, lineno, pos = n2, lineno + lines, pos2
                if status == _parse.CAREFUL:
                    if record is None:
                        text_end, nxt = _line_end(block, pos, end)
                        text = _decode_line(
                            bytes(block[pos:text_end]), self.path, lineno, boff + pos
                        )
                        got = self._csv_careful(text, lineno, first=True)
                        if got is _GOES_ON:  # a quoted field holding line breaks
                            record = _Record(text, lineno, self.delimiter, self.path)
                        else:
                            lineno += 1
                        pos = nxt
                    if record is not None:
                        pos = record.take(block, pos, end, boff)
                        if not record.done:  # its next lines are in the next block
                            continue
                        got = self._csv_careful(record.text, record.lineno)
                        lineno += len(record.lines)
                        record = None
                    if got is not None:
                        X[n] = got[0]
                        tok = got[1]
                        raw = tok.encode("utf-8")
                        k = next(
                            (
                                q
                                for q in range(int(n_table[0]))
                                if bytes(table[q, : table_len[q]]) == raw
                            ),
                            -1,
                        )
                        if k < 0:
                            if len(raw) > table.shape[1] or n_table[0] >= table.shape[0]:
                                table = _grown_label_table(table, int(n_table[0]), len(raw))
                                table_len = np.resize(table_len, table.shape[0])
                            k = int(n_table[0])
                            table[k, : len(raw)] = np.frombuffer(raw, dtype=np.uint8)
                            table_len[k] = len(raw)
                            n_table[0] += 1
                        ids[n] = k
                        n += 1
                if n == rows:
                    yield emit(n)
                    n = 0
                    if not reuse:
                        again = pool.take(current, lambda a: True)
                        if again is None:
                            again = [np.empty((rows, nf), dtype=np.float64),
                                     np.empty(rows, dtype=np.int64)]  # fmt: skip
                            pool.add(again)
                        current = again
                        X, ids = current
        if record is not None:  # the file ends inside a quoted field: the csv module's error
            self._csv_careful(record.text, record.lineno)
            raise AssertionError("unreachable: the csv module read an unclosed quote")
        if n:
            yield emit(n)

    # ...................................................................... KEEL + careful CSV
    def _keel_header(self, label_column) -> None:
        path = self.path
        attributes: list[_Attribute] | None = None
        inputs = outputs = None
        lineno = 0
        data_line = 1
        with self._text_lines() as lines:
            first = None
            blank = True
            for lineno, line in lines:  # noqa: B007 - lineno is used after the loop
                s = line.strip()
                blank = blank and not s
                if s and not s.startswith("%"):  # not blank, not a comment (as read_keel)
                    first = s
                    break
            if first is None:
                raise _fail(
                    path,
                    None,
                    "the file is empty" if blank else "no data rows",
                    "Pass a KEEL .dat file with data rows.",
                )
            if first.startswith("@"):
                attributes = []
                declared: dict[str, int] = {}
                s = first
                while True:
                    if s and not s.startswith("%"):
                        low = s.lower()
                        if low.startswith("@relation"):
                            pass
                        elif low.startswith("@attribute"):
                            att = _parse_attribute(s, lineno, path, "KEEL")
                            _declare(attributes, att, lineno, declared, path)
                        elif low.startswith("@inputs"):
                            inputs = _keel_names(s)
                        elif low.startswith("@output"):
                            outputs = _keel_names(s)
                        elif low.startswith("@data"):
                            data_line = lineno + 1
                            break
                        else:
                            raise _fail(
                                path,
                                lineno,
                                f"unexpected header line {s[:60]!r}",
                                "KEEL headers hold only @relation, @attribute, @inputs, "
                                "@outputs and @data.",
                            )
                    nxt = next(lines, None)
                    if nxt is None:
                        raise _fail(
                            path,
                            None,
                            "the header has no @data line",
                            "Add `@data` before the rows.",
                        )
                    lineno, s = nxt[0], nxt[1].strip()
                if not attributes:
                    raise _fail(
                        path,
                        data_line - 1,
                        "the header declares no @attribute",
                        "Declare the columns.",
                    )
                first_row = None
            else:
                first_row = _split_quoted(first)
                data_line = 1
        self._data_line = data_line
        if attributes is not None:
            names = [a.name for a in attributes]
            label_column = _keel_label(path, label_column, outputs, names)
            self.label_index = _label_position(label_column, names, path)
            _keel_inputs(path, inputs, outputs, names, self.label_index)
        else:
            if first_row is None:
                raise _fail(path, lineno, "an unclosed quote", "Close the quote.")
            if isinstance(label_column, str):
                raise ValueError(
                    f"{path}: a headerless KEEL file has no column names, so label_column="
                    f"{label_column!r} cannot be found. Pass an integer index."
                )
            self.label_index = _label_position(label_column, [""] * len(first_row), path)
            attributes = [
                _Attribute("class" if j == self.label_index else f"x{j + 1}", [], False)
                for j in range(len(first_row))
            ]
            attributes[self.label_index].categories = None
        self.attributes = attributes
        self.width = len(attributes)
        self._nominal_idx = [
            j for j, a in enumerate(attributes) if a.categories == [] and not a.declared
        ]
        self._set_names()

    def _undeclared_nominal(self) -> bool:
        return (
            any(
                a.categories == [] and not a.declared
                for j, a in enumerate(self.attributes or [])
                if j != self.label_index
            )
            if self.format != "libsvm"
            else False
        )

    def _finish_nominal(self) -> None:
        """After the counting pass: categories of undeclared nominal columns (as the
        whole-file readers infer them)."""
        seen = getattr(self, "_values", None)
        if seen is None:
            return
        for j, values in seen.items():
            att = self.attributes[j]
            if self.format == "csv":
                att.categories = sorted(values)
            elif values is _NUMERIC:
                att.categories = None
            else:
                att.categories = sorted(values) if any(_number(v) is None for v in values) else None
            att.declared = True  # keep them fixed from now on
        self._values = None
        self._set_names()

    class _Lines:
        def __init__(self, owner: ChunkedFile):
            self.owner = owner

        def __enter__(self):
            owner = self.owner
            try:
                raw = _open(owner.path)
            except OSError:  # pragma: no cover
                raise
            # bytes that are not UTF-8 pass as lone surrogates, so each is refused on its own
            # line (strict decoding raised for the whole 8 KiB piece the decoder was at);
            # newline="" keeps line ends, to count the bytes before each line
            self.fh = io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape", newline="")
            self.it = self._gen()
            return self.it

        def _gen(self):
            path = self.owner.path
            lineno = 0
            offset = 0  # bytes of the (decompressed) file before the line
            try:
                for line in self.fh:
                    lineno += 1
                    try:
                        size = len(line) if line.isascii() else len(line.encode("utf-8"))
                    except UnicodeEncodeError:  # a byte that is not UTF-8: raises
                        _decode_line(line.encode("utf-8", "surrogateescape"), path, lineno, offset)
                        raise  # pragma: no cover - _decode_line raised
                    if "\x00" in line:
                        raise _fail(path, lineno, "a NUL byte (binary data)", "Pass a text file.")
                    offset += size
                    end = 2 if line.endswith("\r\n") else 1 if line.endswith(("\n", "\r")) else 0
                    text = line[: len(line) - end]
                    if lineno == 1 and text.startswith("\ufeff"):  # a byte-order mark
                        text = text[1:]
                    yield lineno, text
            except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
                raise _gzip_error(path, exc) from None

        def __exit__(self, *exc):
            self.fh.close()
            return False

    def _text_lines(self):
        return ChunkedFile._Lines(self)

    def _csv_records(self, lines):
        """``(first line, cells)`` of each CSV data record of ``lines`` (:meth:`_text_lines`)
        by the csv module over the text, as :func:`read_csv` reads it: a quoted field may
        hold line breaks (each read as ``"\\n"``); a malformed record raises its error."""
        start = self._first_line
        # each line with a line end, so that one inside a quoted field stays in its text
        body = (line + "\n" for ln, line in lines if ln >= start)
        reader = csv.reader(body, delimiter=self.delimiter, strict=True)
        line_at = start
        try:
            for raw in reader:
                yield line_at, raw
                line_at = start + reader.line_num
        except csv.Error as exc:
            raise _malformed_csv(self.path, line_at, exc, start - 1 + reader.line_num) from None

    def _careful_pieces(self):
        """KEEL (and CSV with nominal columns): tokenize with the careful readers' rules,
        ``block_rows`` rows at a time, and build each block with their ``_tabulate``."""
        collect = getattr(self, "_collect", False)
        if collect:
            self._values = {j: set() for j in self._nominal_idx}
        block_rows = max(1, min(self.chunk_size, 65536))
        is_csv = self.format == "csv"
        start = self._first_line if is_csv else self._data_line
        rows: list[list[str]] = []
        linenos: list[int] = []
        with self._text_lines() as lines:
            if is_csv:
                for ln, raw in self._csv_records(lines):
                    if not raw or all(not c.strip() for c in raw):
                        continue
                    rows.append([c.strip() for c in raw])
                    linenos.append(ln)
                    if len(rows) >= block_rows:
                        yield from self._emit(rows, linenos, collect)
                        rows, linenos = [], []
            else:
                for ln, line in lines:
                    if ln < start:
                        continue
                    s = line.strip()
                    if not s or s.startswith("%"):
                        continue
                    if s.startswith("@"):
                        raise _fail(
                            self.path, ln, f"header line {s[:40]!r} among the data",
                            "Move it above @data.",
                        )  # fmt: skip
                    toks = _split_quoted(s)
                    if toks is None:
                        raise _fail(self.path, ln, "an unclosed quote", "Close the quote.")
                    rows.append(toks)
                    linenos.append(ln)
                    if len(rows) >= block_rows:
                        yield from self._emit(rows, linenos, collect)
                        rows, linenos = [], []
        if rows:
            yield from self._emit(rows, linenos, collect)

    def _emit(self, rows, linenos, collect):
        is_csv = self.format == "csv"
        width = self.width
        for row, ln in zip(rows, linenos):
            if len(row) != width:
                raise _fail(
                    self.path,
                    ln,
                    f"{len(row)} value{'s' * (len(row) != 1)} where {width} "
                    f"{'is' if width == 1 else 'are'} expected",
                    "Every row needs one value per attribute; check for a truncated line or a "
                    "stray delimiter.",
                )

        def is_missing(tok):
            return tok in _MISSING or (is_csv and tok == "")

        if self.missing == "drop":
            keep = [
                r for r, row in enumerate(rows) if not any(is_missing(t) for t in self._kept(row))
            ]
            if len(keep) != len(rows):
                gone = sorted(set(range(len(rows))) - set(keep))
                self._drop([rows[r] for r in gone], [linenos[r] for r in gone])
                rows = [rows[r] for r in keep]
                linenos = [linenos[r] for r in keep]
            if not rows:
                return
        tokens = [row[self.label_index] for row in rows]
        if collect:
            for row, ln in zip(rows, linenos):
                bad = next(
                    (j for j, t in enumerate(row) if is_missing(t) and j not in self._skip), None
                )
                if bad is not None:  # missing="error": the careful reader's message
                    _tabulate([row], [ln], self.attributes, self.label_index, "error",
                              self.path, "KEEL" if not is_csv else "CSV",
                              blank_is_missing=is_csv,
                              delimiter=self.delimiter if is_csv else None,
                              skip=self._skip)  # fmt: skip
            for j, seen in self._values.items():
                if seen is _NUMERIC:
                    continue
                seen.update(row[j] for row in rows)
                if (
                    not is_csv
                    and len(seen) > _MAX_INFERRED
                    and all(_number(v) is not None for v in seen)
                ):
                    self._values[j] = _NUMERIC
            if not is_csv:
                for j, seen in self._values.items():
                    if seen is _NUMERIC and any(_number(row[j]) is None for row in rows):
                        raise ValueError(
                            f"{self.path}: column {j + 1} holds more than {_MAX_INFERRED} "
                            "distinct numbers and also text, so whether it is nominal cannot "
                            "be decided in bounded memory. Declare it in a KEEL header or "
                            "use skewlearn.datasets.load."
                        )
            yield (None,), tokens
            return
        names = is_csv and bool(rows) and self._names_line(linenos[0])
        X, _, _ = _tabulate(
            rows,
            linenos,
            self.attributes,
            self.label_index,
            "error",
            self.path,
            "CSV" if is_csv else "KEEL",
            blank_is_missing=is_csv,
            force_nominal=is_csv,
            nominal_fix=(
                (_NAMES_FIRST_FIX if names else _csv_text_fix)
                if is_csv
                else "Fix the value, or declare the attribute nominal."
            ),
            delimiter=self.delimiter if is_csv else None,
            label_hint=self._named_columns if is_csv and not names else None,
            skip=self._skip,
        )
        yield (X,), tokens


def _grown_label_table(table: np.ndarray, used: int, length: int) -> np.ndarray:
    """The chunked CSV reader's label table (one label's UTF-8 bytes per row) with room for
    one more label of ``length`` bytes: twice the rows when full, rows as wide as the label
    when it is longer (the compiled parser reads both sizes from the array; it hands a
    label that does not fit to the careful path, which grows the table)."""
    rows = table.shape[0] * 2 if used >= table.shape[0] else table.shape[0]
    out = np.zeros((rows, max(table.shape[1], length)), dtype=np.uint8)
    out[:used, : table.shape[1]] = table[:used]
    return out


_NUMERIC = frozenset()  # marker: a column seen to be numeric with too many values to keep
_MAX_INFERRED = 100_000
_SCAN_ROWS = 4096  # rows per (reused) array of the counting pass
_SCAN_BYTES = 32 << 20  # at most, for a wide CSV file's (4,096 rows of 1,024 features)


def iter_chunks(
    path: str | os.PathLike,
    chunk_size: int = 100_000,
    *,
    format: str | None = None,
    n_features: int | None = None,
    positive_class: Any = None,
    sparse: bool = True,
    zero_based: bool = False,
    label_column: int | str | None = None,
    delimiter: str | None = None,
    header: bool = True,
    nominal_columns: Sequence[int | str] | None = None,
    missing: str = "error",
    block_bytes: int = 1 << 22,
    memory_map: bool = True,
    drop_columns: Sequence[int | str] | None = None,
) -> ChunkedFile:
    """Read a LIBSVM, CSV or KEEL file (``.gz`` too) in chunks of rows, in bounded memory.

    Iterating over the result yields ``(X, y)`` with the rows, order and ±1 labels of
    :func:`skewlearn.datasets.load` on the whole file (the readers' options below are
    theirs). An option of another format (``n_features=`` for a CSV file, say) raises
    ``TypeError``, as ``load`` does; ``missing=`` is accepted for every format.

    Parameters
    ----------
    path : str or path-like
        The file; a name ending in ``.gz`` is decompressed on the fly.
    chunk_size : int, default=100_000
        Rows per chunk (>= 1); the last chunk may be shorter.
    format : {"libsvm", "csv", "keel"}, optional
        Default from the extension (as :func:`skewlearn.datasets.read`).
    n_features : int, optional
        LIBSVM: the number of columns. Default: the largest index in the file (found by
        the counting pass). With it given, a larger index raises ``ValueError`` naming the
        line.
    positive_class : label, optional
        The label that becomes +1 (all others -1). Default: the minority class, found by
        a counting pass over the file (a tie: the larger label), as ``load`` does.
    sparse : bool, default=True
        LIBSVM: CSR chunks (else dense).
    zero_based : bool, default=False
        LIBSVM: indices start at 0.
    label_column : int or str, optional
        CSV/KEEL: the label column (default the last, or KEEL's single ``@outputs``).
    delimiter : str, optional
        CSV: field delimiter; default sniffed as :func:`read_csv` does. A quoted field
        may hold line breaks (read as ``"\\n"``), as in :func:`read_csv`; messages name
        the line where such a record starts.
    header : bool, default=True
        CSV: the first row holds column names.
    nominal_columns : list of int or str, optional
        CSV: columns to one-hot encode (categories from the counting pass).
    missing : {"error", "drop"}, default="error"
        Rows with a missing value raise, or are dropped.
    block_bytes : int, default=4 MiB
        Bytes read (and parsed) at a time; memory grows with it, not with the file.
    memory_map : bool, default=True
        Read a plain (not gzip) file through a memory map: the parsers read the page cache
        without a copy (about 20% faster). The mapped file must not be truncated while it
        is read: the operating system then ends the process (SIGBUS) instead of raising an
        error. Pass ``False`` for files another process may shorten or rewrite meanwhile
        (log rotation with ``copytruncate``, for example); the rows are the same (those
        the file held when the pass began), and a file cut short raises ``ValueError``.
    drop_columns : list of int or str, optional
        CSV: columns to leave out (a timestamp, an id), as :func:`read_csv` does; their
        cells are not read, as numbers or as missing values.

    Returns
    -------
    ChunkedFile
        Iterable of ``(X, y)``; ``n_rows``, ``n_features``, ``positive_class``, ``meta``.

    Notes
    -----
    Without ``positive_class`` (or, for LIBSVM, without ``n_features``) the file is read
    twice: a counting pass, then the chunks; a file whose size or modification time
    changed after the counting pass raises ``ValueError`` when its chunks are read (its
    counted rows, classes and columns no longer describe it). Memory: one block and one
    chunk, whatever the file's length. LIBSVM and numeric CSV lines are parsed by compiled code
    (:mod:`skewlearn.datasets._parse`); lines it does not fully understand are parsed, or
    rejected with the line number, by the careful readers.

    Examples
    --------
    >>> import os, tempfile
    >>> from skewlearn.datasets import iter_chunks
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "toy.svm")
    ...     _ = open(p, "w").write("+1 1:0.5 3:2\\n-1 2:1\\n-1 1:1.5\\n")
    ...     stream = iter_chunks(p, chunk_size=2)
    ...     chunks = [(X.toarray().tolist(), y.tolist()) for X, y in stream]
    >>> stream.n_rows, stream.n_features, stream.positive_class
    (3, 3, 1)
    >>> chunks
    [([[0.5, 0.0, 2.0], [0.0, 1.0, 0.0]], [1, -1]), ([[1.5, 0.0, 0.0]], [-1])]
    """
    return ChunkedFile(
        path,
        chunk_size,
        format=format,
        n_features=n_features,
        positive_class=positive_class,
        sparse=sparse,
        zero_based=zero_based,
        label_column=label_column,
        delimiter=delimiter,
        header=header,
        nominal_columns=nominal_columns,
        missing=missing,
        block_bytes=block_bytes,
        memory_map=memory_map,
        drop_columns=drop_columns,
    )
