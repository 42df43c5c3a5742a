"""Session 27: CSV files whose fields are quoted (R's ``write.csv``, ``QUOTE_NONNUMERIC``,
``QUOTE_ALL``, Excel and BI exports) are read on the compiled path when the quoted fields
are simple (``_parse._quoted_end``), with the results and messages of the careful reader.

References: the same reader with the compiled parser shimmed to hand every line holding a
quote to the careful reader (what it did before session 27), and the csv module plus
``float`` over the same text; a counter of careful calls shows the compiled path read the
simple files."""

from __future__ import annotations

import csv
import gzip
import io
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skewlearn.datasets import _parse, iter_chunks, read_csv
from skewlearn.datasets import readers as R
from skewlearn.datasets import streaming as S
from tests.datasets.test_multiline_records import _write

_REAL_BLOCK = _parse.csv_block


def _no_quotes_block(buf, pos, end, *args):
    """``csv_block`` as it was before session 27: a line holding ``"`` goes to the careful
    reader (the compiled parser runs up to the first such line)."""
    row0, max_rows = args[-3], args[-2]
    if row0 >= max_rows:  # the rows are full: the parser reads nothing
        return row0, 0, 0, pos, _parse.OK
    hits = np.flatnonzero(buf[pos:end] == 34)
    if len(hits) == 0:
        return _REAL_BLOCK(buf, pos, end, *args)
    q = pos + int(hits[0])
    ends = np.flatnonzero((buf[pos:q] == 10) | (buf[pos:q] == 13))
    line = pos + int(ends[-1]) + 1 if len(ends) else pos
    if line == pos:
        return row0, 0, 0, pos, _parse.CAREFUL
    n, nh, lines, stop, status = _REAL_BLOCK(buf, pos, line, *args)
    if status == _parse.OK and stop == line and n < max_rows:
        status = _parse.CAREFUL
    return n, nh, lines, stop, status


def _outcome(read):
    """``("ok", result)`` or ``("error", message)``; warnings' texts with either."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = ("ok", read())
        except ValueError as exc:
            got = ("error", str(exc))
    return got, [str(w.message) for w in caught]


def _chunks(path, **kw):
    stream = iter_chunks(path, **kw)
    Xs, ys = [], []
    for X, y in stream:
        Xs.append(X)
        ys.append(y)
    return np.vstack(Xs), np.concatenate(ys), stream.feature_names, stream.n_dropped, len(ys)


def _same(a, b):
    (kind_a, got_a), warn_a = a
    (kind_b, got_b), warn_b = b
    assert (kind_a, warn_a) == (kind_b, warn_b), (a, b)
    if kind_a == "error":
        assert got_a == got_b
        return
    for x, y in zip(got_a, got_b, strict=True):
        if isinstance(x, np.ndarray) and x.dtype == np.float64:
            assert x.shape == y.shape
            np.testing.assert_array_equal(x.view(np.int64), y.view(np.int64))
        elif isinstance(x, np.ndarray):
            assert x.dtype == y.dtype
            np.testing.assert_array_equal(x, y)
        else:
            assert x == y


def _both(path, opts, chunk_size, block_bytes, memory_map):
    """read_csv and iter_chunks (with and without a counting pass) against themselves with
    quoted lines sent to the careful reader."""
    results = []
    for shim in (False, True):
        with pytest.MonkeyPatch.context() as mp:
            if shim:
                mp.setattr(_parse, "csv_block", _no_quotes_block)
            whole = _outcome(lambda: read_csv(path, **opts))
            kw = dict(opts, chunk_size=chunk_size, block_bytes=block_bytes, memory_map=memory_map)
            counted = _outcome(lambda kw=kw: _chunks(path, **kw))
            pos = None
            if whole[0][0] == "ok":
                pos = whole[0][1][1][0].item()
            given_pos = _outcome(lambda kw=kw, pos=pos: _chunks(path, positive_class=pos, **kw))
            results.append((whole, counted, given_pos))
    for new, old in zip(*results, strict=True):
        _same(new, old)
    return results[0][0][0]


# --------------------------------------------------------------------------- hand cases
R_STYLE = (
    '"V1","V2","label"\n'
    '1.5,2.25,"fraud"\n'
    '-0.5,"3","legit"\n'
    '" 7e-1 ",4,"  fraud\t"\n'
    '"0.1",2.2250738585072011e-308,"a,b"\n'  # a hard value, unquoted
)


def test_r_style_file_is_read_by_the_compiled_path_as_csv_and_float_read_it(tmp_path, monkeypatch):
    p = _write(tmp_path / "r.csv", R_STYLE)
    rows = list(csv.reader(io.StringIO(R_STYLE)))[1:]
    want_X = np.array([[float(c.strip()) for c in r[:2]] for r in rows])
    want_y = [r[2].strip() for r in rows]
    calls = []
    monkeypatch.setattr(R, "_csv_from_text", lambda *a: calls.append(a))
    real = S.ChunkedFile._csv_careful
    monkeypatch.setattr(
        S.ChunkedFile, "_csv_careful", lambda self, *a, **k: calls.append(a) or real(self, *a, **k)
    )
    X, y, meta = read_csv(p)
    np.testing.assert_array_equal(X.view(np.int64), want_X.view(np.int64))
    assert y.tolist() == want_y == ["fraud", "legit", "fraud", "a,b"]
    assert meta["feature_names"] == ["V1", "V2"]
    Xc, yc, names, dropped, _ = _chunks(p, chunk_size=3, positive_class="a,b")
    np.testing.assert_array_equal(Xc.view(np.int64), want_X.view(np.int64))
    assert yc.tolist() == [-1, -1, -1, 1] and names == ["V1", "V2"] and dropped == 0
    assert calls == []  # no line went to the careful reader


@pytest.mark.parametrize(
    "line",
    [
        '"1""5",2,"x"',  # a doubled quote
        ' "1.5",2,"x"',  # a blank before the quote: the quote is text
        '"1.5" ,2,"x"',  # text after the closing quote: strict parsing refuses it
        '1.5,2,"x" ',
        '1.5,2,"x"y',
        '1.5,2,"x\'y"',  # a single quote: as unquoted, the careful reader
        '1.5,2,"x\x1cy"',  # a separator str.strip may remove
        '1.5,2,"é"',  # non-ASCII
        '"",2,"x"',  # an empty quoted number: missing
        '"?",2,"x"',
        '1.5,2,""',  # an empty quoted label
        '1.5,2,"?"',
        '1.5,"2 3","x"',
        '1.5,"1e400","x"',  # not finite: the careful reader's message
        '1.5,"2.2250738585072011e-308","x"',  # a hard value: the careful reader's float
        '1.5,2,"x',  # an unclosed quote
        '1.5,2,"x\ny"',  # a label of two lines
    ],
)
@pytest.mark.parametrize("missing", ["error", "drop"])
def test_fields_that_are_not_simple_keep_the_careful_readers_outcome(tmp_path, line, missing):
    text = "a,b,label\n1,2,x\n" + line + "\n3,4,y\n5,6,x\n"
    p = _write(tmp_path / "c.csv", text)
    _both(p, {"missing": missing}, 2, 1 << 22, False)


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("field", ['"x\ny"', '"1\n"', '"1""2"'])
def test_a_later_error_names_its_line_after_a_quoted_field_that_is_not_simple(tmp_path, eol, field):
    """A quoted field holding a line break is one record of two lines: the compiled path
    leaves it whole to the careful reader, so a later error names its physical line."""
    text = f"a,b,label\n1,2,x\n1,2,{field}\n3,4,y\n5,oops,x\n"
    p = _write(tmp_path / "e.csv", text, eol)
    (kind, message), _ = _outcome(lambda: read_csv(p))
    assert kind == "error" and f"line {5 + field.count(chr(10))}" in message, message
    _both(p, {}, 2, 1 << 22, False)


def test_a_quoted_dropped_column_and_a_quoted_label_anywhere(tmp_path, monkeypatch):
    text = (
        '"id","when","a","label","b"\n'
        '"1","2024-01-01 10:00","0.5","yes","1"\n'
        '"2","","1.25","no","2"\n'
        '"3","a ""quoted"" note","-2","yes","3"\n'  # a doubled quote: the careful reader
        '"4","x, y","8","no","4"\n'
    )
    p = _write(tmp_path / "d.csv", text)
    opts = {"label_column": "label", "drop_columns": ["when"]}
    X, y, meta = read_csv(p, **opts)
    assert X.tolist() == [[1, 0.5, 1], [2, 1.25, 2], [3, -2, 3], [4, 8, 4]]
    assert y.tolist() == ["yes", "no", "yes", "no"]
    assert meta["feature_names"] == ["id", "a", "b"]
    _both(p, opts, 3, 1 << 22, True)
    careful = []
    real = S.ChunkedFile._csv_careful
    monkeypatch.setattr(
        S.ChunkedFile,
        "_csv_careful",
        lambda self, *a, **k: careful.append(a[1]) or real(self, *a, **k),
    )
    _chunks(p, chunk_size=2, positive_class="yes", **opts)
    assert careful == [4]  # only the line with the doubled quote


# --------------------------------------------------------------------------- property
_number = st.one_of(
    st.integers(-999, 999).map(str),
    st.integers(-(10**7), 10**7).map(lambda k: f"{k / 10**4:.4f}"),
    st.floats(allow_nan=False, allow_infinity=False, width=64).map(repr),
    st.floats(allow_nan=False, allow_infinity=False, width=64).map(lambda v: f"{v:.18e}"),
    st.sampled_from(["1e400", "nan", "", "?", "1_0", "-", "<null>"]),  # not simple numbers
)
_pad = st.sampled_from(["", "", "", " ", "\t", "  "])
_label = st.sampled_from(
    [
        "fraud",
        "legit",
        "a,b",
        "a;b",
        "a\tb",
        " sp ",
        'say "hi"',
        "",
        "?",
        "1",
        "-1",
        "0",
        "é",
        "x'y",
    ]
)


@st.composite
def _tables(draw):
    k = draw(st.integers(1, 4))
    n = draw(st.integers(2, 12))
    cells = []
    for _ in range(n):
        row = []
        for _ in range(k):
            if draw(st.integers(0, 3)) == 0:  # a Python float: QUOTE_NONNUMERIC leaves it bare
                row.append(draw(st.integers(-(10**6), 10**6)) / 64)
            else:
                row.append(draw(_pad) + draw(_number) + draw(_pad))
        cells.append(row)
    labels = draw(st.lists(_label, min_size=n, max_size=n))
    texts = draw(
        st.lists(st.sampled_from(["", "t", "a,b", "x;y", 'q"q', "t\tt"]), min_size=n, max_size=n)
    )
    label_at = draw(st.integers(0, k + 1))
    drop_at = draw(st.one_of(st.none(), st.integers(0, k + 1)))
    return k, cells, labels, texts, label_at, drop_at


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    table=_tables(),
    quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_NONNUMERIC, csv.QUOTE_ALL]),
    delimiter=st.sampled_from([",", ";", "\t"]),
    eol=st.sampled_from(["\n", "\r\n", "\r"]),
    bom=st.booleans(),
    gz=st.booleans(),
    missing=st.sampled_from(["error", "drop"]),
    chunk_size=st.integers(1, 5),
    block_bytes=st.sampled_from([1024, 1 << 22]),
    memory_map=st.booleans(),
)
def test_random_quoted_tables_read_as_the_careful_reader_reads_them(
    tmp_path, table, quoting, delimiter, eol, bom, gz, missing, chunk_size, block_bytes, memory_map
):
    k, cells, labels, texts, label_at, drop_at = table
    names = [f"a{j}" for j in range(k)]
    names.insert(label_at, "label")
    rows = [[*r] for r in cells]
    for r, lab in zip(rows, labels):
        r.insert(label_at, lab)
    opts = {"delimiter": delimiter, "missing": missing, "label_column": "label"}
    if drop_at is not None:
        names.insert(drop_at, "t")
        for r, t in zip(rows, texts):
            r.insert(drop_at, t)
        opts["drop_columns"] = ["t"]
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, quoting=quoting, lineterminator=eol)
    writer.writerow(names)
    writer.writerows(rows)
    raw = (("\ufeff" if bom else "") + out.getvalue()).encode("utf-8")
    p = tmp_path / ("q.csv.gz" if gz else "q.csv")
    p.write_bytes(gzip.compress(raw) if gz else raw)
    _both(p, opts, chunk_size, block_bytes, memory_map)
