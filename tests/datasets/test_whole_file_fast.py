"""The whole-file readers' compiled path against their careful path (session 21).

``read_libsvm`` parses the common syntax with the chunked reader's compiled parser over
the file's bytes and hands any other line to the careful reader's line parser; the careful
reader alone (``readers._read_libsvm_careful``, every line in Python, as before session
21) is the reference: the same arrays bit for bit (dtypes, sorted CSR structure), labels,
meta, and the same error message for a bad file, on random files spelt in every way the
format allows and in many ways it does not."""

from __future__ import annotations

import gzip
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skewlearn.datasets import read_libsvm
from skewlearn.datasets import readers as R

_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
#: values as files spell them: short decimals (the SWAR paths), 17-digit repr (the hard
#: path), exponents, signs, and a few that are not finite numbers
_value = st.one_of(
    st.integers(-99, 99).map(str),
    st.integers(-(10**7), 10**7).map(lambda k: f"{k / 10**4:.4f}"),
    finite.map(repr),
    finite.map(lambda v: f"{v:.18e}"),  # np.savetxt's default: 19 digits (Eisel-Lemire)
    finite.map(lambda v: f"{v:.19g}"),
    finite.map(lambda v: f"{v:.6e}"),
    finite.map(lambda v: f"{v:+.3E}"),
    st.integers(0, 999).map(lambda k: f".{k}"),
    st.integers(0, 99).map(lambda k: f"+{k}."),
    st.sampled_from(["-0", "-0.0", "+.5", "1e22", "1e23", "123456789012345678", "0.1e-330"]),
    st.sampled_from(
        [
            "9007199254740993",
            "2.2250738585072011e-308",
            "4.9e-324",
            "1e-400",
            "-1e-400",
            "1.7976931348623157e308",
            "3.000000000000000000e+00",
            "561351655411023.25",
            "18446744073709551616",
            "-0.000000000000000000e+00",
        ]
    ),
)
_bad_value = st.sampled_from(["1e400", "nan", "inf", "1_0", ".", "", "٣", "x", "1.5.2", "--1"])
_label = st.sampled_from(["1", "-1", "+1", "0", "7", "-0", "2.5", "1e3", "+.5", "-0.0", "00"])
_bad_label = st.sampled_from(
    ["9007199254740993", "99999999999999999999", "abc", "1,2", "nan", "1_0", "١", "3:1", "inf"]
)
_bad_index = st.sampled_from(["0", "+3", "03", "x", "", "99999999999", "-2", "2147483649", "٣"])
_blank = st.sampled_from([" ", " ", " ", "\t", "  ", "\x0b", "\x0c", "\xa0", "\x1c"])
_comment = st.sampled_from(["# c", "#", "# ünïcode 1:2", "#qid:3", "\t# x 1:2 qid:1"])


@st.composite
def _libsvm_text(draw):
    """LIBSVM lines: labels of every kind, indices in any order (repeated too), qid,
    comments, blank lines, blanks of every kind between tokens, and now and then a
    malformed label, index, value or token."""
    bad = draw(st.integers(0, 3)) == 0  # a quarter of the files may hold a bad token
    lines = []
    for _ in range(draw(st.integers(1, 14))):
        if draw(st.integers(0, 4)) == 0:
            lines.append(draw(st.sampled_from(["", "   ", "\t", *["# only a comment"] * 2])))
        label = draw(_bad_label if bad and draw(st.integers(0, 4)) == 0 else _label)
        toks = [label]
        idx = draw(st.lists(st.integers(1, 30), max_size=8, unique=True))
        if draw(st.booleans()):
            idx = sorted(idx)  # the common case
        if bad and idx and draw(st.integers(0, 9)) == 0:
            idx.insert(draw(st.integers(0, len(idx))), draw(st.sampled_from(idx)))  # repeated
        for j in idx:
            k = str(j)
            if bad and draw(st.integers(0, 19)) == 0:
                k = draw(_bad_index)
            v = draw(_bad_value if bad and draw(st.integers(0, 19)) == 0 else _value)
            toks.append(f"{k}:{v}")
        if draw(st.integers(0, 3)) == 0:
            q = draw(st.sampled_from(["qid:3", "qid:-1", "qid:+7"] + (["qid:x"] if bad else [])))
            toks.insert(draw(st.integers(1, len(toks))), q)
        if bad and draw(st.integers(0, 9)) == 0:
            toks.insert(draw(st.integers(1, len(toks))), draw(st.sampled_from(["3", "a:", ":1"])))
        line = draw(st.sampled_from(["", "", " ", "\t"])) + toks[0]
        for t in toks[1:]:
            line += draw(_blank) + t
        if draw(st.booleans()):
            line += draw(_blank)
        if draw(st.integers(0, 3)) == 0:
            line += draw(_comment)
        lines.append(line)
    eol = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    text = eol.join(lines) + (eol if draw(st.booleans()) else "")
    if draw(st.integers(0, 9)) == 0:
        text = "\ufeff" + text
    data = text.encode("utf-8")
    if bad and draw(st.integers(0, 5)) == 0:  # a NUL or a byte that is not UTF-8
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\x00", b"\xff", b"\xc3"])) + data[at:]
    return data


def _outcome(read, path, **kw):
    """What ``read(path, **kw)`` gives, in comparable form: arrays as their bytes and
    dtypes, or the error's type and message; and the warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            X, y, meta = read(path, **kw)
        except (ValueError, TypeError) as exc:
            got = (type(exc), str(exc))
        else:
            if sp.issparse(X):
                assert X.has_sorted_indices
                assert X.format == "csr"
                parts = [X.data, X.indices, X.indptr]
            else:
                parts = [X]
            arrays = [(a.dtype.str, a.shape, a.tobytes()) for a in parts]
            got = (X.shape, arrays, y.dtype.str, y.tobytes(), {**meta, "feature_names": list(
                meta["feature_names"])})  # fmt: skip
    return got, [(w.category, str(w.message)) for w in caught]


def _same(path, **kw):
    fast = _outcome(read_libsvm, path, **kw)
    careful = _outcome(R._read_libsvm_careful, path, **kw)
    assert fast == careful
    return fast


@_SETTINGS
@given(
    data=_libsvm_text(),
    zero_based=st.booleans(),
    n_features=st.sampled_from([None, None, 0, 5, 31]),
    sparse=st.booleans(),
    gz=st.integers(0, 4),
)
def test_read_libsvm_compiled_path_is_the_careful_reader(
    tmp_path, data, zero_based, n_features, sparse, gz
):
    p = tmp_path / ("f.svm.gz" if gz == 0 else "f.svm")
    p.write_bytes(gzip.compress(data) if gz == 0 else data)
    _same(p, zero_based=zero_based, n_features=n_features, sparse=sparse)


_CASES = [
    (b"1 1:1\n2 2:2.5 qid:4\n", "read"),
    (b"1 1:1\n-0 2:2\n2.5 1:1 \xc2\xa0\n", "read"),  # -0 on a careful line, float labels
    (b"\xef\xbb\xbf1 1:1\r\n\r\n# c\r\n1 2:1", "read"),
    (b"1 1:1\nabc 2:1\n1 3:1\n", "label 'abc' is not a number"),
    (b"1 1:1\n1,2\n", "looks like delimited text"),
    (b"1 1:1\n99999999999999999999 1:1\n", "that fits in int64"),
    (b"abc 1:1\n1 1:1e400\n", "line 2: value '1e400'"),  # bad lines before bad labels
    (b"1 1:1\n1 1:1 1:2\n", "line 2: index 1 appears twice"),
    (b"1 1:1\n1 2:1 1:2 2:3\n", "line 2: index 2 appears twice"),
    (b"1 1:1\n1 0:1\n", "line 2: index 0 is below 1"),
    (b"1 1:1\n1 1:nan\n", "line 2: value 'nan'"),
    (b"1 1:1\n1 qid:x 1:1\n", "line 2: qid 'x'"),
    (b"1 1:1\n1 3\n", "line 2: token '3'"),
    (b"1 1:1\n1:1 2:2\n", "line 2: the line starts with"),
    (b"1 1:1\n1 1:1\n\xff 1:1\n1 0:1\n", "line 3: bytes that are not UTF-8"),
    (b"1 0:1\n1 1:1\x00\n", "line 2: a NUL byte"),
    (b" \n\t\n\x1c\n", "the file is empty"),
    (b"# only\n\n#\n", "no data rows"),
    # session 25 (found by the random files): an overflowing value on the first line of a
    # file with a byte-order mark was sent to the careful line reader with the mark, read
    # as the label ("token '1' is not index:value")
    (b"\xef\xbb\xbf 1 1:+1.798E+308# c", "line 1: value '+1.798E+308' of index 1 is not"),
    (b"\xef\xbb\xbf1 1:1e999\n", "line 1: value '1e999'"),
]


@pytest.mark.parametrize(("data", "expect"), _CASES)
def test_each_outcome_is_the_careful_readers(tmp_path, data, expect):
    """Each kind of result and error, compared (the random files above meet them at
    random; here each for sure)."""
    for name, body in (("f.svm", data), ("f.svm.gz", gzip.compress(data))):
        p = tmp_path / name
        p.write_bytes(body)
        got, _ = _same(p)
        if expect == "read":
            assert not isinstance(got[0], type)
        else:
            assert got[0] is ValueError and expect in got[1]


@pytest.mark.parametrize("gz", [False, True])
def test_arrays_grow_past_the_first_mebibyte_guess(tmp_path, gz):
    """The room for rows and entries is guessed from the file's first MiB: a file whose
    later lines are much longer (more entries) or much shorter (more rows) grows it."""
    short = b"1 1:1\n" * 200_000  # 1.2 MB of one-entry lines
    wide = b"".join(
        b"-1 " + b" ".join(b"%d:0.%d" % (j, j % 10) for j in range(1, 301)) + b"\n"
        for _ in range(2000)
    )
    for k, data in enumerate((short + wide, wide + short)):
        p = tmp_path / f"grow{k}.svm{'.gz' if gz else ''}"
        p.write_bytes(gzip.compress(data, 1) if gz else data)
        got, _ = _same(p)
        assert got[0] == (202_000, 300)


def test_a_careful_line_in_a_full_block_and_hard_values(tmp_path):
    """Lines the parser declines (a NBSP, a '+' index, a hard 17-digit value, a 1e400),
    among many it reads: rows and entries land where the careful reader puts them, and a
    value that overflows is the careful reader's error naming its line."""
    rows = [b"+1 1:0.5 3:0.1234567890123456789 7:2e-5"] * 5000
    rows[17] = b"-1 1:0.5\xc2\xa02:3"  # NBSP: a blank to str.split
    rows[4000] = b"1 +2:3 1:1"  # '+' index, unsorted
    rows[4999] = b"2 qid:1"
    p = tmp_path / "mix.svm"
    p.write_bytes(b"\n".join(rows))
    got, _ = _same(p)
    assert got[4]["has_qid"]
    rows[3000] = b"1 1:1e400"
    p.write_bytes(b"\n".join(rows))
    got, _ = _same(p)
    assert got[0] is ValueError and ", line 3001: value '1e400'" in got[1]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(_label, _bad_label, st.integers().map(str)), min_size=1, max_size=6))
def test_label_typing_matches_parse_labels(tokens):
    """``_libsvm_labels`` (the labels of the lines the careful reader read) types and
    refuses labels as ``_parse_labels`` (the readers' rule for a whole column) does."""
    ref = R._parse_labels(tokens)
    lines = {r: r + 1 for r in range(len(tokens))}
    if ref.dtype.kind == "U":
        with pytest.raises(ValueError, match="is not a number"):
            R._libsvm_labels("f", dict(enumerate(tokens)), lines, lambda r: True)
        return
    all_int, typed = R._libsvm_labels("f", dict(enumerate(tokens)), lines, lambda r: True)
    assert all_int == (ref.dtype == np.int64)
    got = np.asarray([typed[r] for r in range(len(tokens))], dtype=ref.dtype)
    assert got.tobytes() == ref.tobytes()


# --------------------------------------------------------------------------- CSV
_csv_label = st.sampled_from(
    ["1", "-1", "+1", "0", "2.5", "-0", "yes", "no", " yes ", "NA", "nan", "?", "", "'q'"]
)
_csv_bad = st.sampled_from(["?", "", "NA", "1,5", "nan", "1e400", "x", '"3"', "1_0", "٣"])


@st.composite
def _csv_text(draw):
    """Delimited text: a header or none (numeric, repeated names now and then), blanks
    around values, blank lines, CR/CRLF/LF, a BOM, labels of every kind (text, numbers,
    missing-value spellings), and now and then a missing or malformed value, a quoted
    field or a row of another width."""
    bad = draw(st.integers(0, 2)) == 0
    delim = draw(st.sampled_from([",", ",", ";", "|", "\t"]))
    width = draw(st.integers(1, 5))
    labels = draw(st.lists(_csv_label, min_size=1, max_size=3, unique=True))
    lines = []
    if draw(st.integers(0, 3)):
        names = draw(
            st.lists(st.sampled_from(["a", "b", "c", "d", "e", "1", "2", "x y"]),
                     min_size=width, max_size=width, unique=not (bad and draw(st.booleans())))
        )  # fmt: skip
        lines.append(delim.join(names))
    for _ in range(draw(st.integers(1, 12))):
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from(["", "  "])))
        row = [draw(_value) for _ in range(width - 1)] + [draw(st.sampled_from(labels))]
        if bad and draw(st.integers(0, 5)) == 0:
            row[draw(st.integers(0, width - 1))] = draw(_csv_bad)
        if bad and draw(st.integers(0, 9)) == 0:
            row = row[:-1] if len(row) > 1 else [*row, "1"]
        pad = draw(st.sampled_from(["", "", " ", "\t"]))
        lines.append(delim.join(pad + v + pad for v in row))
    eol = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    text = eol.join(lines) + (eol if draw(st.booleans()) else "")
    if draw(st.integers(0, 9)) == 0:
        text = "\ufeff" + text
    return text.encode("utf-8")


@_SETTINGS
@given(
    data=_csv_text(),
    header=st.sampled_from([True, True, False]),
    label_column=st.sampled_from([-1, -1, 0, "a", 7]),
    missing=st.sampled_from(["error", "error", "drop"]),
    delimiter=st.sampled_from([None, None, None, ",", ";"]),
    nominal=st.sampled_from([None, None, None, [], [0]]),
    gz=st.integers(0, 4),
)
def test_read_csv_compiled_path_is_the_careful_reader(
    tmp_path, data, header, label_column, missing, delimiter, nominal, gz
):
    p = tmp_path / ("f.csv.gz" if gz == 0 else "f.csv")
    p.write_bytes(gzip.compress(data) if gz == 0 else data)
    kw = dict(header=header, label_column=label_column, missing=missing, delimiter=delimiter)
    if nominal is not None:
        kw["nominal_columns"] = nominal
    fast = _outcome(R.read_csv, p, **kw)
    assert fast == _outcome(R._read_csv_careful, p, **kw)


def test_read_csv_compiled_path_on_a_large_file(tmp_path, monkeypatch):
    """Past the 64 KiB head (the sniffer's and the header's): rows grow past the guess
    from the head, labels past the first label table (256 labels), all on the compiled
    path; and a bad value far down is the careful reader's error."""
    rng = np.random.default_rng(0)
    a, b, k = rng.normal(size=30_000), rng.normal(size=30_000), rng.integers(0, 1000, 30_000)
    body = "".join(f"{u:.4f},{v:.17g},{w}\n" for u, v, w in zip(a, b, k))
    p = tmp_path / "big.csv"
    p.write_text("x,y,label\n" + body + "1,2,3\n" * 20_000, encoding="utf-8")  # rows grow
    with monkeypatch.context() as m:
        m.setattr(R, "_csv_from_text", None)  # the careful reader is not called
        fast = _outcome(R.read_csv, p)
    assert fast == _outcome(R._read_csv_careful, p)
    assert fast[0][0] == (50_000, 2)
    p.write_text("x,y,label\n" + body + "1,nan,3\n", encoding="utf-8")
    fast = _outcome(R.read_csv, p)
    assert fast == _outcome(R._read_csv_careful, p)
    assert fast[0][0] is ValueError and "line 30002" in fast[0][1]


_CSV_CASES = [
    (b"1,2,3\n4,5,6\n", {}, "warns"),  # a numeric header
    (b"a,b,c\nx,1,2\ny,3,4\n", {"label_column": 0}, "read a"),
    (b"a,b,c\n1,x,2\n3,y,4\n", {"label_column": "b"}, "read b"),
    (b"1,x,2\n3,y,4\n", {"label_column": 1, "header": False}, "read x2"),
    (b"a;b;c\r\n1;2;1\r\n", {}, "read c"),
    (b"a|b|c\r1|2|1\r", {}, "read c"),
    (b"a\tb\tc\n1\t2\t1\n", {}, "read c"),  # a tab: the careful reader
    (b"a,b,c\n1,2,1\n3,?,0\n", {"missing": "drop"}, "read c"),
    (b"a,b,c\n1,1e400,1\n", {}, "is not a finite number"),  # a hard value
    (b"a,b,c\n1,2,1\n1,2,NA\n", {}, "looks like a missing value"),
    (b"a,b,c\n1,2,1\n1,2\n", {}, "2 values where 3"),
    # a delimiter that a number can hold: the careful reader splits "-3" at the '-'
    (b"a-b-c\n1-2-1\n-3-4-0\n", {"delimiter": "-"}, "4 values where 3"),
    (b"a+b+c\n1+2+1\n3++4+0\n", {"delimiter": "+"}, "4 values where 3"),
    (b"a.b.c\n1.2.1\n1..5.0\n", {"delimiter": "."}, "4 values where 3"),
    (b"aebec\n1e2e1\n3e4e0\n", {"delimiter": "e"}, "read c"),
]


@pytest.mark.parametrize(("data", "kw", "expect"), _CSV_CASES)
def test_each_csv_outcome_is_the_careful_readers(tmp_path, data, kw, expect):
    """Each kind of CSV result, warning and error, compared for sure."""
    p = tmp_path / "f.csv"
    p.write_bytes(data)
    got, caught = _outcome(R.read_csv, p, **kw)
    assert (got, caught) == _outcome(R._read_csv_careful, p, **kw)
    assert bool(caught) == (expect == "warns")
    if expect.startswith("read"):
        assert got[4]["label_name"] == expect.split()[1]
    elif expect != "warns":
        assert got[0] is ValueError and expect in got[1]


@pytest.mark.parametrize(
    "data",
    [b"1,2,3\n4,5,6\n", b"1,2,3\n4,5,6\n7,?,1\n", b'1,2,3\n4,"5",6\n'],
    ids=["compiled", "careful-missing", "careful-quote"],
)
def test_a_numeric_header_warning_names_the_callers_line(tmp_path, data):
    """The numeric-header warning points at the line that called read_csv, on the
    compiled path and on a file the careful reader takes over (a missing value, a quote):
    the fallback's warning named read_csv's own line in readers.py."""
    p = tmp_path / "f.csv"
    p.write_bytes(data)
    with pytest.warns(UserWarning, match="holds only numbers") as caught:
        R.read_csv(p, missing="drop")
    assert [w.filename for w in caught] == [__file__]


def _entry_points():
    """Each public way to read a CSV file with a header, as ``(name, call)``."""
    from skewlearn.datasets import iter_chunks, load, read

    return {
        "read": lambda p: read(p, missing="drop"),
        "load": lambda p: load(p, missing="drop"),
        "read_csv": lambda p: R.read_csv(p, missing="drop"),
        "iter_chunks": lambda p: list(iter_chunks(p, 2, missing="drop")),
        "iter_chunks-opened": lambda p: iter_chunks(p, 2, missing="drop"),
    }


@pytest.mark.parametrize("data", [b"1,2,3\n4,5,6\n7,8,0\n", b"1,2,3\n4,5,6\n7,?,0\n8,9,0\n"])
@pytest.mark.parametrize("entry", sorted(_entry_points()))
def test_a_numeric_header_warning_names_the_callers_line_from_every_entry(tmp_path, entry, data):
    """``read``, ``load`` and ``iter_chunks`` (opened, or iterated) warn about a numeric
    header at the caller's line too, on the compiled path and the careful one: they
    named a line of readers.py (the stack level counted from ``read_csv``)."""
    p = tmp_path / "f.csv"
    p.write_bytes(data)
    call = _entry_points()[entry]
    with pytest.warns(UserWarning, match="holds only numbers") as caught:
        call(p)
    assert [w.filename for w in caught] == [__file__]


def _full_precision_values(rng, n):
    """Doubles of every scale, and the edges, as ``np.savetxt`` and ``repr`` write them."""
    x = rng.uniform(-9.99, 9.99, size=n) * 10.0 ** rng.integers(-323, 308, n)
    x[:8] = [-0.0, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 3.0, -2.5, 1e15]
    return x


@pytest.mark.parametrize("write", ["%.18e", "%.17g", "%.19g", "repr"])
def test_full_precision_files_are_read_as_the_careful_readers_read_them(tmp_path, write):
    """Files of full-precision numbers (np.savetxt's default ``%.18e``, ``repr``,
    ``%.17g``, ``%.19g``), converted by Eisel-Lemire in the compiled parsers: read_csv,
    read_libsvm and iter_chunks give the careful readers' arrays bit for bit."""
    from skewlearn.datasets import iter_chunks

    rng = np.random.default_rng(len(write))
    n, d = 600, 5
    X = _full_precision_values(rng, n * d).reshape(n, d)
    y = np.arange(n) % 3 == 0
    fmt = repr if write == "repr" else (lambda v: write % v)
    csv = tmp_path / "f.csv"
    csv.write_text(
        "a,b,c,d,e,label\n"
        + "".join(",".join(fmt(float(v)) for v in row) + f",{int(t)}\n" for row, t in zip(X, y)),
        encoding="utf-8",
    )
    fast = _outcome(R.read_csv, csv)
    assert fast == _outcome(R._read_csv_careful, csv)
    Xc, _, _ = R._read_csv_careful(csv)
    assert Xc.tobytes() == X.tobytes()  # the values written, bit for bit
    got = np.vstack([c for c, _ in iter_chunks(csv, 64)])
    assert got.tobytes() == Xc.tobytes()
    svm = tmp_path / "f.svm"
    svm.write_text(
        "".join(
            f"{int(t)} " + " ".join(f"{j + 1}:{fmt(float(v))}" for j, v in enumerate(row)) + "\n"
            for row, t in zip(X, y)
        ),
        encoding="utf-8",
    )
    fast = _same(svm)
    Xs = R._read_libsvm_careful(svm)[0]
    assert np.array_equal(Xs.toarray(), X)  # the values written
    chunks = list(iter_chunks(svm, 64, n_features=d, positive_class=1))
    data = np.concatenate([c.data for c, _ in chunks])  # CSR data: -0.0 keeps its sign
    assert data.tobytes() == Xs.data.tobytes()


def test_integer_labels_beyond_2_53_keep_their_digits(tmp_path):
    """2**54 + 1 is no tie, so the compiled parser could round it to 2**54 by itself: a
    label that is an integer beyond 2**53 still goes to the careful reader (two classes
    here, as for ``load``), and the chunked reader still refuses it by name."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "big.svm"
    p.write_text("18014398509481985 1:1\n18014398509481984 2:1\n18014398509481984 2:2\n")
    _same(p)
    assert R.read_libsvm(p)[1].tolist() == [2**54 + 1, 2**54, 2**54]
    with pytest.raises(ValueError, match=r"line 1: label 18014398509481985 is an integer beyond"):
        list(iter_chunks(p, 2))


# --------------------------------------------------------------------------- TSV
_tsv_cell = st.one_of(
    _value,
    st.sampled_from(["", "?", "<null>", '"3"', '"a\tb"', "x", "1 2", "NA"]),
)
_tsv_pad = st.sampled_from(["", "", "", " ", "  ", "\x0b", "\x0c", "\t", "\xa0"])


@st.composite
def _tsv_text(draw):
    """Tab-delimited text read by the compiled parser: spaces (and VT, FF) around fields,
    which both readers strip, and now and then a tab in the padding (an extra, empty
    field), an empty field, a missing value, a quoted field (with a tab inside), a
    malformed value, a blank or all-tab line, a leading tab."""
    width = draw(st.integers(1, 5))
    labels = draw(st.lists(_csv_label, min_size=1, max_size=3, unique=True))
    odd = draw(st.integers(0, 2)) == 0
    lines = []
    if draw(st.integers(0, 3)):
        lines.append("\t".join(draw(st.sampled_from(["a", "b", "c", "d", "e"])) + str(j)
                               for j in range(width)))  # fmt: skip
    for _ in range(draw(st.integers(1, 12))):
        if draw(st.integers(0, 6)) == 0:
            lines.append(draw(st.sampled_from(["", "  ", "\t", "\t\t", " \t "])))
        row = [draw(_value) for _ in range(width - 1)] + [draw(st.sampled_from(labels))]
        if odd and draw(st.integers(0, 3)) == 0:
            row[draw(st.integers(0, width - 1))] = draw(_tsv_cell)
        pads = [(draw(_tsv_pad), draw(_tsv_pad)) if odd else (draw(st.sampled_from(["", " "])),) * 2
                for _ in row]  # fmt: skip
        lines.append("\t".join(a + v + b for (a, b), v in zip(pads, row)))
    eol = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    return (eol.join(lines) + eol).encode("utf-8")


def _chunks_outcome(path, **kw):
    """What ``iter_chunks`` gives (rows, ±1 labels), or its error's type and message."""
    from skewlearn.datasets import iter_chunks

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            chunks = list(iter_chunks(path, 3, format="csv", block_bytes=1024, **kw))
        except (ValueError, TypeError) as exc:
            return type(exc), str(exc)
    return [(X.tobytes(), y.tobytes()) for X, y in chunks]


@_SETTINGS
@given(
    data=_tsv_text(),
    header=st.sampled_from([True, False]),
    missing=st.sampled_from(["error", "drop"]),
    delimiter=st.sampled_from([None, "\t"]),
    positive=st.sampled_from([None, "1", "yes"]),
)
def test_tab_delimited_files_read_as_the_careful_reader_reads_them(
    tmp_path, data, header, missing, delimiter, positive
):
    """read_csv and iter_chunks read tab-delimited files in the compiled parser, which now
    strips blanks around a field but not the tab delimiter: results, errors and warnings
    are the careful readers' (read_csv's careful reader; for iter_chunks, its careful
    reader of one line, given every line, the path every tab-delimited line took before)."""
    from skewlearn.datasets import _parse

    def declined(buf, pos, end, delim, width, label_index, X, ids, table, table_len, n_table,
                 hard, row0, max_rows, skip):  # fmt: skip
        return row0, 0, 0, pos, _parse.CAREFUL

    p = tmp_path / "f.tsv"
    p.write_bytes(data)
    kw = dict(header=header, missing=missing, delimiter=delimiter)
    assert _outcome(R.read_csv, p, **kw) == _outcome(R._read_csv_careful, p, **kw)
    fast = _chunks_outcome(p, positive_class=positive, **kw)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_parse, "csv_block", declined)
        assert fast == _chunks_outcome(p, positive_class=positive, **kw)


def test_a_plain_tab_delimited_file_takes_the_compiled_path(tmp_path, monkeypatch):
    """Spaces around the fields of a tab-delimited file, a leading empty field refused by
    name: read_csv and iter_chunks read the file in the compiled parser (their careful
    readers are not called) and agree with the careful readers."""
    from skewlearn.datasets import iter_chunks, streaming

    rng = np.random.default_rng(0)
    values = rng.normal(size=(500, 3)).tolist()
    rows = [f" {a:.4f}\t{b!r} \t {'yes' if c > 0 else 'no'}" for a, b, c in values]
    p = tmp_path / "f.tsv"
    p.write_text("x\ty\tlabel\n" + "\n".join(rows) + "\n", encoding="utf-8")
    careful = _outcome(R._read_csv_careful, p)
    chunked = np.vstack([X for X, _ in iter_chunks(p, 64, format="csv", positive_class="yes")])
    with monkeypatch.context() as m:
        m.setattr(R, "_csv_from_text", None)  # the careful readers are not called
        m.setattr(streaming.ChunkedFile, "_csv_careful", None)
        assert _outcome(R.read_csv, p) == careful
        got = np.vstack([X for X, _ in iter_chunks(p, 64, format="csv", positive_class="yes")])
    assert got.tobytes() == chunked.tobytes() == R._read_csv_careful(p)[0].tobytes()
    p.write_text("x\ty\tlabel\n1\t2\tyes\n\t2\tno\n", encoding="utf-8")  # an empty field
    fast = _outcome(R.read_csv, p)
    assert fast == _outcome(R._read_csv_careful, p) and "line 3" in fast[0][1]


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("kw", [{}, {"positive_class": 1, "n_features": 1}])
def test_an_overflow_after_a_byte_order_mark_is_named_by_the_chunked_reader(tmp_path, gz, kw):
    """Session 25: the chunked reader sent the first line to the careful reader with the
    byte-order mark, which split off as the label ("token '1' is not index:value")."""
    from skewlearn.datasets import iter_chunks

    data = b"\xef\xbb\xbf 1 1:+1.798E+308# c\n-1 1:2\n"
    p = tmp_path / ("f.svm.gz" if gz else "f.svm")
    p.write_bytes(gzip.compress(data) if gz else data)
    with pytest.raises(ValueError, match=r"line 1: value '\+1\.798E\+308' of index 1 is not"):
        list(iter_chunks(p, **kw))


def test_an_overflow_after_a_byte_order_mark_in_a_headerless_csv_file(tmp_path):
    """Session 25: the same in the chunked CSV reader: "non-numeric value '\\ufeff 1'"
    where read_csv names the value that is not finite."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "f.csv"
    p.write_bytes(b"\xef\xbb\xbf 1, 1e999,1\n2,3,0\n")
    match = r"line 1: value '1e999' for numeric attribute 'x2' \(column 2\) is not a finite"
    with pytest.raises(ValueError, match=match):
        R.read_csv(p, header=False)
    with pytest.raises(ValueError, match=match):
        list(iter_chunks(p, header=False, positive_class=1))
