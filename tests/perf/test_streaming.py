"""Chunked readers: the same rows, order and labels as loading the whole file, the same
error messages (with line numbers) for malformed input, bounded blocks."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skewlearn.datasets import iter_chunks, load, read_csv, read_libsvm

DATA = Path(__file__).parents[1] / "datasets" / "data"


def _gather(stream):
    Xs, ys = [], []
    for X, y in stream:
        assert y.dtype == np.int64
        Xs.append(X.toarray() if sp.issparse(X) else X)
        ys.append(y)
    return np.vstack(Xs), np.concatenate(ys)


def _same(path, chunk_sizes=(1, 2, 3, 7, 100_000), **kw):
    X, y, meta = load(path)
    X = X.toarray() if sp.issparse(X) else X
    for cs in chunk_sizes:
        for block in (1024, 1 << 22):
            stream = iter_chunks(path, chunk_size=cs, block_bytes=block, **kw)
            Xc, yc = _gather(stream)
            assert Xc.shape == X.shape
            # bit-identical, -0.0 included
            np.testing.assert_array_equal(Xc.view(np.int64), X.view(np.int64))
            np.testing.assert_array_equal(yc, y)
            assert stream.positive_class == meta["positive_class"]
            assert stream.n_rows == meta["n_rows"]
            assert stream.n_positives == meta["n_positives"]
            assert stream.n_features == meta["n_features"]
            sizes = [len(c[1]) for c in stream]
            assert all(s == cs for s in sizes[:-1]) and 0 < sizes[-1] <= cs
    return X, y


@pytest.mark.parametrize(
    "name", ["toy.svm", "toy.csv", "toy.dat", "toy_noheader.dat", "nominal.dat", "bom_crlf.csv"]
)
def test_fixtures_match_load(name, tmp_path):
    _same(DATA / name)
    gz = tmp_path / (name + ".gz")
    with open(DATA / name, "rb") as src, gzip.open(gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    _same(gz)


def _random_libsvm(rng, n, d, zero_based=False, crlf=False):
    """LIBSVM text in many legal spellings: unsorted indices, comments, qid, blank lines,
    +1 labels, exponents, 17-digit values, -0.0, leading zeros."""
    lines = ["# a header comment"]
    off = 0 if zero_based else 1
    for _ in range(n):
        k = rng.integers(0, d + 1)
        idx = rng.choice(d, size=k, replace=False)
        if rng.random() < 0.7:
            idx = np.sort(idx)
        toks = [rng.choice(["+1", "-1", "1", "-1"])]
        if rng.random() < 0.1:
            toks.append(f"qid:{rng.integers(0, 9)}")
        for j in idx:
            v = float(rng.normal() * 10.0 ** rng.integers(-3, 4))
            style = rng.integers(0, 7)
            if style == 0:
                s = repr(v)  # up to 17 significant digits: the slow exact path
            elif style == 1:
                s = f"{v:.3e}"
            elif style == 2:
                s = "-0.0" if rng.random() < 0.5 else "0"
            elif style == 3:
                s = f"{v:.2f}".replace("0.", ".", 1) if abs(v) < 1 else f"{v:.2f}"
            elif style == 4:
                s = f"{int(v)}"
            else:
                s = f"{v:.4f}"
            toks.append(f"{'0' if rng.random() < 0.05 else ''}{j + off}:{s}")
        line = " ".join(toks)
        if rng.random() < 0.1:
            line += "  # trailing comment"
        if rng.random() < 0.05:
            lines.append("")
        lines.append(line)
    sep = "\r\n" if crlf else "\n"
    return sep.join(lines) + sep


@pytest.mark.parametrize("seed", range(6))
def test_random_libsvm_matches_read_libsvm(seed, tmp_path):
    rng = np.random.default_rng(seed)
    zero_based = seed % 2 == 1
    p = tmp_path / "r.svm"
    p.write_text(_random_libsvm(rng, 300, 12, zero_based, crlf=seed % 3 == 0), newline="")
    X, y, _ = read_libsvm(p, zero_based=zero_based)
    for cs in (1, 64, 1000):
        stream = iter_chunks(p, chunk_size=cs, zero_based=zero_based, block_bytes=1024)
        Xc, yc = _gather(stream)
        np.testing.assert_array_equal(Xc.view(np.int64), X.toarray().view(np.int64))
        pos = stream.positive_class
        np.testing.assert_array_equal(yc, np.where(y == pos, 1, -1))


def test_random_csv_matches_load(tmp_path):
    rng = np.random.default_rng(3)
    rows = ["a;b;c;target"]
    for _ in range(400):
        cells = [repr(float(rng.normal())), f"{rng.normal():.3f}", f"{rng.normal() * 1e5:.1e}"]
        label = rng.choice(["yes", "no", " no ", "no"])
        if rng.random() < 0.05:
            label = '"no"'  # quoted: the careful path
        rows.append(";".join([*cells, label]))
        if rng.random() < 0.03:
            rows.append("")
    p = tmp_path / "r.csv"
    p.write_text("\n".join(rows) + "\n")
    X, _ = _same(p)
    assert X.shape == (400, 3)


@pytest.mark.parametrize("long_first", [False, True])
def test_csv_with_many_and_long_labels_matches_load(tmp_path, long_first):
    """Session 15: the chunked CSV reader kept at most 256 distinct labels of up to 64
    bytes and refused the file past them ("Use skewlearn.datasets.load"): a label column
    of product codes or free-text classes, binarised by positive_class, could not be
    streamed. Its label table now grows."""
    rng = np.random.default_rng(5)
    long = "x" * 150
    rows = ["a,b,label"]
    for i in range(1500):
        label = f"code-{int(rng.integers(0, 700))}"
        if rng.random() < 0.05:
            label = long if rng.random() < 0.5 else f"é{long}{i % 3}"  # careful path
        rows.append(f"{rng.normal():.4f},{i % 9},{label}")
    if long_first:
        rows.insert(1, f"0.5,1,{long}")
    p = tmp_path / "m.csv"
    p.write_text("\n".join(rows) + "\n")
    X, y, _ = load(p, positive_class=long)
    assert 25 < (y == 1).sum() < 60 and X.shape == (len(rows) - 1, 2)
    for cs in (1, 7, 100_000):
        for block in (1024, 1 << 22):
            Xc, yc = _gather(iter_chunks(p, chunk_size=cs, block_bytes=block,
                                         positive_class=long))  # fmt: skip
            np.testing.assert_array_equal(Xc.view(np.int64), X.view(np.int64))
            np.testing.assert_array_equal(yc, y)


def test_csv_label_column_matches_read_csv(tmp_path):
    p = tmp_path / "l.csv"
    p.write_text("a,target,b\n1.5,yes,2\n3,no,4e-3\n5,no,6\n")
    X, y, _ = read_csv(p, label_column="target")
    Xc, yc = _gather(iter_chunks(p, 2, label_column="target"))
    np.testing.assert_array_equal(Xc, X)
    np.testing.assert_array_equal(yc, np.where(y == "yes", 1, -1))


def test_positive_class_and_n_features_skip_the_counting_pass(tmp_path):
    p = tmp_path / "t.svm"
    p.write_text("1 1:1\n-1 2:1\n-1 3:1\n")
    stream = iter_chunks(p, 2, positive_class=-1, n_features=5)
    assert not stream.scanned and stream.n_rows is None
    X, y = _gather(stream)
    assert X.shape == (3, 5)
    np.testing.assert_array_equal(y, [-1, 1, 1])
    assert iter_chunks(p, 2).scanned


# --------------------------------------------------------------------------- errors
BAD_LIBSVM = [
    "1 2:abc",
    "1 0:1",  # below the 1-based offset
    "1 3:1 3:2",
    "1 a:1",
    "2:1 3:1",
    "1 3",
    "1 3:nan",
    "1 3:1e999",
    "1 3:1_0",
    "abc 3:1",
    "1 qid:x 3:1",
]


@pytest.mark.parametrize("bad", BAD_LIBSVM)
def test_libsvm_errors_are_the_careful_readers(bad, tmp_path):
    good = [f"{1 if i % 3 else -1} 1:{i}.5 2:0.25" for i in range(40)]
    good.insert(25, bad)
    good.insert(3, "# comment")
    p = tmp_path / "bad.svm"
    p.write_text("\n".join(good) + "\n")
    with pytest.raises(ValueError) as whole:
        read_libsvm(p)
    with pytest.raises(ValueError) as chunked:
        for _ in iter_chunks(p, 4, positive_class=1, n_features=10, block_bytes=1024):
            pass
    assert str(chunked.value) == str(whole.value)
    assert "line 27" in str(whole.value) or "data row 26" in str(whole.value)


def test_libsvm_index_beyond_n_features_names_the_line(tmp_path):
    p = tmp_path / "wide.svm"
    p.write_text("1 1:1\n-1 2:1\n-1 9:1\n")
    with pytest.raises(ValueError, match=r"wide.svm, line 3: index 9 exceeds n_features=4"):
        list(iter_chunks(p, 1, n_features=4))


BAD_CSV = ["1.5,?,yes", "1.5,abc,yes", "1.5,2,3,yes", "1.5,,yes", "1.5,1e999,no"]


@pytest.mark.parametrize("bad", BAD_CSV)
def test_csv_errors_are_the_careful_readers(bad, tmp_path):
    rows = ["x,y,label"] + [f"{i}.5,{i % 7},{'yes' if i % 5 == 0 else 'no'}" for i in range(30)]
    rows.insert(12, bad)
    p = tmp_path / "bad.csv"
    p.write_text("\n".join(rows) + "\n")
    with pytest.raises(ValueError) as whole:
        read_csv(p)
    with pytest.raises(ValueError) as chunked:
        list(iter_chunks(p, 5, positive_class="yes", block_bytes=1024))
    assert str(chunked.value) == str(whole.value)


@pytest.mark.parametrize(
    ("delimiter", "text"),
    [("-", "a-b-c\n1-2-1\n-3-4-0\n"), ("+", "a+b+c\n1+2+1\n3++4+0\n"),
     (".", "a.b.c\n1.2.1\n1..5.0\n"), ("e", "aebec\n1e2e1\n3e4e0\n")],
)  # fmt: skip
def test_a_delimiter_a_number_can_hold_is_split_as_read_csv_splits_it(delimiter, text, tmp_path):
    """With a delimiter among ``+ - . digits e E`` the compiled parser took it into the
    number ('-3' read as -3, not as an empty field and 3): the careful reader's rows and
    errors (session 21)."""
    p = tmp_path / "d.csv"
    p.write_text(text, encoding="utf-8")
    try:
        X, y, _ = read_csv(p, delimiter=delimiter)
    except ValueError as exc:
        with pytest.raises(ValueError) as chunked:
            list(iter_chunks(p, 5, delimiter=delimiter, positive_class="1"))
        assert str(chunked.value) == str(exc)
        return
    Xc, yc = _gather(iter_chunks(p, 5, delimiter=delimiter, positive_class="1"))
    np.testing.assert_array_equal(Xc, X)
    np.testing.assert_array_equal(yc, np.where(y == 1, 1, -1))


def test_missing_drop_matches_load_rows(tmp_path):
    rows = ["x,y,label"] + [f"{i}.5,{i % 7},{'yes' if i % 5 == 0 else 'no'}" for i in range(30)]
    rows.insert(12, "1.5,?,yes")
    rows.insert(20, "2.5,,no")
    p = tmp_path / "m.csv"
    p.write_text("\n".join(rows) + "\n")
    X, y, _ = read_csv(p, missing="drop")
    Xc, yc = _gather(iter_chunks(p, 4, missing="drop"))
    np.testing.assert_array_equal(Xc, X)
    assert len(yc) == len(y) == 30


@pytest.mark.parametrize("nominal", [False, True])
@pytest.mark.parametrize("positive_class", [None, "yes"])
def test_n_dropped_counts_one_pass_however_often_the_file_is_read(
    nominal, positive_class, tmp_path
):
    """``n_dropped`` is the rows of one pass (as ``load``'s meta), not a running total over
    the counting pass and every iteration (it grew by 2 per pass before session 9)."""
    rows = ["x,c,label"] + [
        f"{i}.5,{'ab'[i % 2]},{'yes' if i % 5 == 0 else 'no'}" for i in range(30)
    ]
    rows.insert(12, "1.5,?,yes")
    rows.insert(20, "2.5,,no")
    p = tmp_path / "m.csv"
    p.write_text("\n".join(rows) + "\n")
    opts = {"missing": "drop", "positive_class": positive_class}
    opts["nominal_columns"] = ["c"] if nominal else None
    if not nominal:
        p.write_text(p.read_text().replace(",a,", ",1,").replace(",b,", ",2,"))
    _, _, meta = load(p, **{k: v for k, v in opts.items() if v is not None})
    assert meta["n_dropped"] == 2
    stream = iter_chunks(p, 4, **opts)
    for _ in range(3):
        _gather(stream)
        assert stream.n_dropped == stream.meta["n_dropped"] == 2


def test_input_errors(tmp_path):
    p = tmp_path / "t.svm"
    p.write_text("1 1:1\n-1 2:1\n")
    with pytest.raises(ValueError, match="chunk_size must be an int >= 1; got 0"):
        iter_chunks(p, 0)
    with pytest.raises(FileNotFoundError, match="no such file"):
        iter_chunks(tmp_path / "nope.svm")
    q = tmp_path / "t.arff"
    q.write_text("@relation x\n")
    with pytest.raises(ValueError, match="ARFF files are read whole"):
        iter_chunks(q)
    r = tmp_path / "three.svm"
    r.write_text("1 1:1\n2 1:1\n3 1:1\n")
    with pytest.raises(ValueError, match="labels have 3 classes"):
        iter_chunks(r)
    with pytest.raises(ValueError, match="positive class 7 does not occur"):
        iter_chunks(r, positive_class=7)
    bad = tmp_path / "bad.svm.gz"
    bad.write_bytes(b"not gzip at all")
    with pytest.raises(ValueError, match="not a valid gzip file"):
        list(iter_chunks(bad, positive_class=1, n_features=3))


# --------------------------------------------------------------------------- exact numbers
_digits = st.text(alphabet="0123456789", min_size=1, max_size=22)


@st.composite
def _decimal(draw):
    sign = draw(st.sampled_from(["", "-", "+"]))
    whole = draw(_digits)
    frac = draw(st.one_of(st.just(""), _digits.map(lambda d: "." + d)))
    exp = draw(
        st.one_of(st.just(""), st.integers(-330, 330).map(lambda e: f"e{e:+d}" if e else "E0"))
    )
    return sign + whole + frac + exp


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(values=st.lists(_decimal(), min_size=1, max_size=20))
def test_parsed_numbers_are_pythons_floats(values, tmp_path):
    finite = [v for v in values if np.isfinite(float(v))]
    if not finite:
        return
    p = tmp_path / "n.svm"
    p.write_text("".join(f"1 1:{v}\n" for v in finite))
    # CSR data, not toarray(): densifying adds to zeros and loses the sign of -0.0
    got = np.concatenate([X.data for X, _ in iter_chunks(p, 7, positive_class=1, n_features=1)])
    expected = np.array([float(v) for v in finite])
    np.testing.assert_array_equal(got.view(np.int64), expected.view(np.int64))
    q = tmp_path / "n.csv"
    q.write_text("x,label\n" + "".join(f"{v},yes\n" for v in finite))
    Xc, _ = _gather(iter_chunks(q, 7, positive_class="yes"))
    np.testing.assert_array_equal(Xc[:, 0].view(np.int64), expected.view(np.int64))


# --------------------------------------------------------------------------- recycled arrays
@pytest.mark.parametrize("suffix", [".svm", ".csv"])
def test_chunks_kept_by_the_consumer_are_never_refilled(suffix, tmp_path):
    rng = np.random.default_rng(5)
    X = np.round(rng.normal(size=(500, 4)), 3)
    y = np.where(rng.random(500) < 0.2, 1, -1)
    path = tmp_path / f"r{suffix}"
    if suffix == ".svm":
        rows = [" ".join(f"{j + 1}:{v}" for j, v in enumerate(r)) for r in X]
        path.write_text("".join(f"{t:+d} {r}\n" for r, t in zip(rows, y)))
    else:
        path.write_text(
            "a,b,c,d,label\n" + "".join(",".join(map(str, r)) + f",{t}\n" for r, t in zip(X, y))
        )
    n_features = 4 if suffix == ".svm" else None
    # a consumer that keeps every chunk: each one still holds its own rows at the end
    # (70-row chunks: scipy copies a CSR view that is under half of its array, so with tiny
    # chunks the consumer would hold copies and this test would prove nothing)
    kept = list(iter_chunks(path, 70, positive_class=1, n_features=n_features))
    got = np.vstack([c.toarray() if sp.issparse(c) else c for c, _ in kept])
    np.testing.assert_array_equal(got, X)
    np.testing.assert_array_equal(np.concatenate([t for _, t in kept]), y)
    # one that keeps every third chunk and drops the others (whose arrays get refilled)
    stream = iter_chunks(path, 70, positive_class=1)
    some = [(k, c) for k, (c, _) in enumerate(stream) if k % 3 == 0]
    assert len(some) == 3
    for k, c in some:
        np.testing.assert_array_equal(c.toarray() if sp.issparse(c) else c, X[70 * k : 70 * k + 70])


# --------------------------------------------------------------------------- mapped blocks
@pytest.mark.parametrize(
    "text",
    [
        b"1 1:1\n-1 2:1\n",
        b"1 1:1\n-1 2:1",  # no line end after the last line
        b"1 1:1\r\n-1 2:1\r\n",
        b"1 1:1\r-1 2:1\r",
        b"1 1:1\r-1 2:1",
        b"\xef\xbb\xbf1 1:1\n" + b"-1 " + b" ".join(b"%d:0.5" % j for j in range(1, 400)) + b"\n",
        b"\n\n# only a comment\n" * 300 + b"1 1:1",
    ],
)
def test_mapped_blocks_are_the_read_blocks(text, tmp_path):
    """A plain file is memory-mapped, a gzip file read: both cut it into the same lines."""
    from skewlearn.datasets.streaming import _blocks, _read_blocks

    p = tmp_path / "b.svm"
    p.write_bytes(text)
    for block_bytes in (1024, 1 << 22):
        for skip in (0, 3):
            mapped = [
                (bytes(block[:end]), bytes(buf[:end]), off)
                for block, buf, end, off in _blocks(str(p), block_bytes, skip)
            ]
            read = [
                (bytes(block[:end]), off)
                for block, _, end, off in _read_blocks(str(p), block_bytes, skip)
            ]
            assert b"".join(m[0] for m in mapped) == b"".join(r[0] for r in read)
            assert all(m[0] == m[1] and m[0][-1:] in (b"\n", b"\r") for m in mapped)
            assert [m[2] for m in mapped] == np.cumsum([skip] + [len(m[0]) for m in mapped])[
                :-1
            ].tolist()


# lines for the compiled parser's whole-token path: a token is taken at once only when its
# parse ends exactly at the first byte below "!" within 16 bytes; everything else (control
# bytes, comments, long tokens, exponents) must come out as the careful reader says
TOKEN_LINES = [
    "1 1:0.5\t2:-1.25\x0b3:7",
    "1 1:0.5\x0c2:1",
    "1 1:0.5\x012:1",
    "1 1:0.5\x00 2:1",
    "1 1:0.5#c 2:1",
    "1 1:0.5# 2:1",
    "1 12345678:1.5",
    "1 1234567:0.123456789012",
    "1 3:123456789.1234567",
    "1 3:1234567.1234567",
    "1 3:1e5 4:-2.5E-3",
    "1 3:-0.0000 4:+.5",
    "1 3:. 4:1",
    "1 3:1.5.5",
    "1 3:1:5",
    "1 2:1 1:2",
    "1 2:1 2:2",
    "1 0:1",
    "1 11:1",
]


@pytest.mark.parametrize("line", TOKEN_LINES)
@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_whole_token_path_agrees_with_the_careful_reader(line, suffix, tmp_path):
    good = [f"{1 if i % 3 else -1} 1:{i}.5 2:0.25 10:-{i}.125" for i in range(30)]
    good.insert(17, line)
    text = ("\n".join(good) + "\n").encode("utf-8")
    p = tmp_path / "t.svm"
    p.write_bytes(text)
    q = tmp_path / ("c.svm" + suffix)
    q.write_bytes(gzip.compress(text) if suffix else text)
    try:
        X, y, _ = read_libsvm(p, n_features=10)
    except ValueError as exc:
        with pytest.raises(ValueError) as chunked:
            list(iter_chunks(q, 4, positive_class=1, n_features=10, block_bytes=1024))
        assert str(chunked.value) == str(exc).replace(str(p), str(q))
        return
    for block in (1024, 1 << 22):
        stream = iter_chunks(q, 4, positive_class=1, n_features=10, block_bytes=block)
        got = sp.vstack([c for c, _ in stream]).tocsr()
        np.testing.assert_array_equal(got.indptr, X.indptr)
        np.testing.assert_array_equal(got.indices, X.indices)
        np.testing.assert_array_equal(got.data.view(np.int64), X.data.view(np.int64))


@pytest.mark.parametrize("suffix", [".svm", ".csv"])
def test_memory_map_off_reads_the_same_rows_without_mapping(suffix, tmp_path, monkeypatch):
    """``memory_map=False`` (for files another process may truncate) takes the read path
    and gives the same chunks as the mapped default."""
    import skewlearn.datasets.streaming as streaming

    rng = np.random.default_rng(5)
    X = np.round(rng.normal(size=(300, 4)), 4)
    y = np.where(rng.random(300) < 0.2, 1, -1)
    p = tmp_path / f"f{suffix}"
    if suffix == ".svm":
        lines = [
            f"{t:+d} " + " ".join(f"{j + 1}:{v}" for j, v in enumerate(r)) for r, t in zip(X, y)
        ]
    else:
        lines = ["a,b,c,d,label"] + [",".join(map(str, r)) + f",{t}" for r, t in zip(X, y)]
    p.write_text("\n".join(lines) + "\n")
    mapped = [(np.asarray(a.todense() if hasattr(a, "todense") else a), b.copy())
              for a, b in iter_chunks(p, chunk_size=70, block_bytes=1024)]  # fmt: skip

    def no_map(*args, **kwargs):
        raise AssertionError("memory_map=False must not map the file")

    monkeypatch.setattr(streaming, "_mapped_blocks", no_map)
    unmapped = iter_chunks(p, chunk_size=70, block_bytes=1024, memory_map=False)
    read = [(np.asarray(a.todense() if hasattr(a, "todense") else a), b.copy())
            for a, b in unmapped]  # fmt: skip
    assert len(mapped) == len(read) == 5
    for (xa, ya), (xb, yb) in zip(mapped, read):
        np.testing.assert_array_equal(xa, xb)
        np.testing.assert_array_equal(ya, yb)
    with pytest.raises(AssertionError, match="must not map"):
        list(iter_chunks(p, chunk_size=70, block_bytes=1024))


def test_a_positive_class_absent_from_the_file_is_refused_after_the_pass(tmp_path):
    """With positive_class given the counting pass is skipped, so the check comes at the
    end of the first pass (every row was read as negative, silently, before session 9)."""
    p = tmp_path / "pc.csv"
    p.write_text("a,b,y\n1,2,p\n3,4,n\n5,6,n\n")
    with pytest.raises(ValueError, match="positive class 'Pos' does not occur"):
        _gather(iter_chunks(p, 2, positive_class="Pos"))
    _, y = _gather(iter_chunks(p, 2, positive_class="p"))
    assert y.tolist() == [1, -1, -1]


def _sparse_rows(stream):
    X = sp.vstack([c for c, _ in stream]).tocsr()
    return X, np.concatenate([y for _, y in stream])


@pytest.mark.parametrize(
    "line",
    [*TOKEN_LINES, "1 3:nan", "1 3:inf 4:1", "1 3:1x", "1 3:", "1 3:1.5#x 40:1", "1 2:1 3:2#c",
     "-1 qid:3 4:0.123456789012345678 40:1e-300", "1 3:1\x00 4:1", "1 3:1.5\t#c 40:1"],
)  # fmt: skip
def test_the_counting_pass_skips_values_and_the_learning_pass_checks_them(line, tmp_path):
    """Session 13: the counting pass reads labels, qid and indices but skips the values
    (``_parse.libsvm_count_block``). A file read in two passes (no ``positive_class``, no
    ``n_features``) still gives read_libsvm's rows, width and labels, or its error: a bad
    value is refused by the learning pass, with the careful reader's line number."""
    good = [f"{1 if i % 3 else -1} 1:{i}.5 2:0.25 10:-{i}.125" for i in range(30)]
    good[5:5] = ["# a comment line", "", "  \t"]  # lines an error's number must count
    good.insert(17, line)
    p = tmp_path / "t.svm"
    p.write_bytes(("\n".join(good) + "\n").encode("utf-8"))
    try:
        X, y, _ = read_libsvm(p)
    except ValueError as exc:
        with pytest.raises(ValueError) as two_pass:
            list(iter_chunks(p, 4, block_bytes=1024))
        assert str(two_pass.value) == str(exc)
        return
    stream = iter_chunks(p, 4, block_bytes=1024)
    got, labels = _sparse_rows(stream)
    assert stream.n_features == X.shape[1] and stream.n_rows == X.shape[0]
    np.testing.assert_array_equal(got.indptr, X.indptr)
    np.testing.assert_array_equal(got.indices, X.indices)
    np.testing.assert_array_equal(got.data.view(np.int64), X.data.view(np.int64))
    np.testing.assert_array_equal(labels, np.where(y == stream.positive_class, 1, -1))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rows", [1, 7, 1000])
def test_counting_pass_labels_and_width_are_read_libsvms(seed, rows, tmp_path):
    """The counting kernel against the careful reader on random legal files (qid, comments,
    unsorted indices, blank lines, CRLF, leading zeros): every label in order, and the
    largest index of each chunk."""
    rng = np.random.default_rng(seed)
    zero_based = seed % 2 == 1
    p = tmp_path / "r.svm"
    p.write_text(_random_libsvm(rng, 300, 12, zero_based, crlf=seed % 3 == 0), newline="")
    X, y, _ = read_libsvm(p, zero_based=zero_based)
    stream = iter_chunks(p, chunk_size=rows, zero_based=zero_based, block_bytes=1024,
                         positive_class=1, n_features=X.shape[1])  # fmt: skip
    seen, widest, start = [], [], 0
    for labels, _, top in stream._libsvm_counts(-1, rows):
        chunk = X[start : start + len(labels)]
        seen.append(labels.copy())
        widest.append((top, int(chunk.indices.max()) if chunk.nnz else -1))
        start += len(labels)
    np.testing.assert_array_equal(np.concatenate(seen), y)
    assert all(a == b for a, b in widest), widest


# session 16
@pytest.mark.parametrize("label", ["<null>", "?"])
@pytest.mark.parametrize("missing", ["error", "drop"])
def test_a_missing_label_is_missing_in_chunks_as_in_load(tmp_path, label, missing):
    """The compiled CSV parser took the label ``<null>`` (a missing-value marker of the
    whole-file readers) as a third class: ``missing="drop"`` kept the row, and with
    ``positive_class`` given it became a silent negative instead of an error."""
    from skewlearn.datasets.readers import _MISSING

    assert _MISSING == {"?", "<null>"}  # the markers _parse._missing_mark knows
    p = tmp_path / "m.csv"
    p.write_text(f"a,b\n1,x\n2,{label}\n3,y\n4,y\n5,x\n6,y\n")
    if missing == "drop":
        X, y, meta = load(p, missing="drop")
        assert meta["n_dropped"] == 1
        for cs in (1, 2, 100):
            for opts in ({}, {"positive_class": "x"}):
                stream = iter_chunks(p, cs, missing="drop", **opts)
                Xc, yc = _gather(stream)
                np.testing.assert_array_equal(Xc, X)
                np.testing.assert_array_equal(yc, y)
                assert stream.n_dropped == 1
        return
    msg = rf"m\.csv, line 3: missing value '{re.escape(label)}' in 'b' \(column 2\)"
    with pytest.raises(ValueError, match=msg):
        load(p)
    for opts in ({}, {"positive_class": "x"}):
        with pytest.raises(ValueError, match=msg):
            list(iter_chunks(p, 2, **opts))


@pytest.mark.parametrize("control", ["\x1c", "\x1d", "\x1e", "\x1f"])
def test_a_label_ending_in_a_separator_control_is_stripped_as_load_strips_it(tmp_path, control):
    """Python's ``str.strip`` (the careful readers') removes the ASCII separators
    \\x1c-\\x1f; the compiled parser kept them, so ``x<FS>`` was a class of its own."""
    p = tmp_path / "c.csv"
    p.write_text(f"a,b\n1,x{control}\n2,x\n3,y\n4,x\n", newline="")
    X, y = _same(p, chunk_sizes=(1, 4))
    assert y.tolist() == [-1, -1, 1, -1]


@pytest.mark.parametrize("header", [True, False])
def test_a_first_line_longer_than_64_kib_is_read(tmp_path, header):
    """The chunked CSV reader looked for the first line (header or first row) in the file's
    first 64 KiB only: a wide file (6,000 named columns, an 84 KB header) was "no data
    rows"."""
    names = ",".join(f"feature_{j:05d}" for j in range(6000)) + ",label"
    rows = [",".join(f"{j}.{k}250625" for j in range(6000)) + f",{c}" for k, c in enumerate("abb")]
    assert len(rows[0]) > 1 << 16
    p = tmp_path / "wide.csv"
    p.write_text("\n".join(([names] if header else []) + rows) + "\n")
    X, y, meta = load(p, header=header)
    assert X.shape == (3, 6000) and y.tolist() == [1, -1, -1]
    for cs in (1, 3):
        stream = iter_chunks(p, cs, header=header, block_bytes=1024)
        Xc, yc = _gather(stream)
        np.testing.assert_array_equal(Xc, X)
        np.testing.assert_array_equal(yc, y)
        assert stream.feature_names == meta["feature_names"]


@pytest.mark.parametrize("memory_map", [True, False])
@pytest.mark.parametrize("suffix", [".svm", ".csv"])
def test_a_block_ending_on_a_lone_cr_keeps_line_numbers(tmp_path, memory_map, suffix):
    """A file with old-Mac line ends ("\\r" alone): when a block's last byte was a "\\r"
    (which might be half of "\\r\\n") the block was cut *before* it, so it ended inside a
    line; the parsers read that line on into the next block's bytes, but the "\\r" then
    counted as a line of its own and every later error named the line after the bad one."""
    seen = set()
    for pad in range(12):
        lines = [f"{-1 if i % 3 else 1} 2:{i % 10}" for i in range(600)]
        lines[0] += " " * pad
        lines[500] = "1 2:x"
        if suffix == ".csv":
            lines = ["a,label"] + [f"{ln.split()[1][2:]},{ln.split()[0]}" for ln in lines]
            lines[1] = " " * pad + lines[1]
        text = "\r".join(lines) + "\r"
        first = 0 if suffix == ".svm" else len(lines[0]) + 1  # the first block's start
        seen.add(text[first + 1023] == "\r")
        p = tmp_path / f"cr{pad}{suffix}"
        p.write_bytes(text.encode())
        bad = 500 if suffix == ".svm" else 501  # the index of the bad line in ``lines``
        with pytest.raises(ValueError, match=rf"line {bad + 1}: "):
            load(p)
        with pytest.raises(ValueError, match=rf"line {bad + 1}: "):
            list(iter_chunks(p, 7, block_bytes=1024, memory_map=memory_map))
        p.write_bytes("\r".join(lines[:bad] + lines[bad + 1 :]).encode() + b"\r")
        _same(p, chunk_sizes=(7,))
    assert seen == {True, False}  # some block ended on a "\r"


def test_block_bytes_may_be_a_numpy_integer(tmp_path):
    """``block_bytes=np.int64(4096)`` was "block_bytes must be an int >= 1024; got 4096"."""
    p = tmp_path / "t.svm"
    p.write_text("1 1:1\n-1 2:1\n-1 2:2\n")
    stream = iter_chunks(p, 2, block_bytes=np.int64(4096))
    assert stream.block_bytes == 4096 and type(stream.block_bytes) is int
    assert _gather(stream)[1].tolist() == [1, -1, -1]
    with pytest.raises(ValueError, match="block_bytes must be an int >= 1024"):
        iter_chunks(p, 2, block_bytes=True)


@pytest.mark.parametrize("space", ["\xa0", "\x85", "\u2003", "\u3000", "\x1c", "\x1e"])
def test_unicode_blanks_between_libsvm_tokens_count_as_load_counts_them(tmp_path, space):
    """``read_libsvm`` splits a line on any Unicode blank (``str.split``: also the ASCII
    separators 0x1c-0x1f); the counting pass skipped a value up to a space, tab, VT or FF,
    so in ``1:1.5<NBSP>4:2`` it never saw index 4: the width came out too small and the
    chunks failed with "index 4 exceeds n_features=3", where ``load`` reads the file."""
    p = tmp_path / "u.svm"
    for tail in ("", "-1 2:1\n" * 20):  # the value skipped by the slow path, then the fast
        p.write_text(f"1 1:0.5 3:2\n-1 1:1.5{space}4:-3e-2\n1 2:1\n-1 3:.25\n{tail}")
        X, y = _same(p, chunk_sizes=(1, 3))
        assert X.shape[1] == 4 and X[1, 3] == -3e-2


def test_a_byte_order_mark_inside_a_libsvm_file_is_refused_as_load_refuses_it(tmp_path):
    """A line that needs the careful reader was handed to ``read_libsvm`` as the first line
    of a one-line file, whose UTF-8 byte-order mark that reader removes: a BOM starting line
    2 (two files concatenated) was read as if absent, where ``load`` refuses the label."""
    p = tmp_path / "bom.svm"
    p.write_text("1 1:0.5 3:2\n\ufeff-1 2:1\n-1 1:1.5\n1 2:7\n-1 3:.25\n", encoding="utf-8")
    match = r"bom\.svm, line 2: label '\\ufeff-1' is not a number"
    with pytest.raises(ValueError, match=match):
        load(p)
    for opts in ({}, {"positive_class": 1, "n_features": 3}):
        with pytest.raises(ValueError, match=match):
            list(iter_chunks(p, 2, **opts))


@pytest.mark.parametrize("header", ['a,b,"label', 'a,"b\n1,2,x'])
def test_an_unclosed_quote_in_the_header_is_refused_as_load_refuses_it(tmp_path, header):
    """The chunked reader parsed the header line alone and leniently: an unclosed quote
    there (which ``load`` refuses: it runs on over the rows) gave a file read from line 2."""
    p = tmp_path / "q.csv"
    p.write_text(header + "\n1.5,2,yes\n-3,4e1,no\n5,.5,no\n")
    with pytest.raises(ValueError, match=r"q\.csv, line 1: malformed CSV"):
        load(p)
    with pytest.raises(ValueError, match=r"q\.csv, line 1: malformed CSV"):
        iter_chunks(p)


@pytest.mark.parametrize("delimiter", [5, b",", [","]])
def test_a_delimiter_that_is_not_a_string_is_named(tmp_path, delimiter):
    """``delimiter=5`` was "object of type 'int' has no len()"."""
    p = tmp_path / "d.csv"
    p.write_text("a,b\n1,x\n2,y\n")
    with pytest.raises(ValueError, match=r"delimiter must be one ASCII character; got"):
        iter_chunks(p, delimiter=delimiter)


def test_integer_labels_beyond_2_53_are_refused_not_merged(tmp_path):
    """The chunked LIBSVM reader keeps labels as float64, where 2**53 + 1 equals 2**53: the
    file below, two classes for ``load``, was "labels have 1 classes" (with three labels
    and ``positive_class`` given, rows would silently change class). It now says so."""
    p = tmp_path / "big.svm"
    p.write_text("9007199254740993 1:1\n9007199254740992 2:1\n9007199254740992 2:2\n")
    X, y, meta = load(p)
    assert meta["positive_class"] == 2**53 + 1 and y.tolist() == [1, -1, -1]
    match = r"big\.svm, line 1: label 9007199254740993 is an integer beyond 2\*\*53"
    for opts in ({}, {"positive_class": 2**53, "n_features": 2}):
        with pytest.raises(ValueError, match=match):
            list(iter_chunks(p, 2, **opts))
    p.write_text("9007199254740992 1:1\n-1 2:1\n-1 2:2\n")  # 2**53 itself is exact
    assert _gather(iter_chunks(p, 2))[1].tolist() == [1, -1, -1]


_SEEDS = {
    ".svm": "1 1:0.5 3:2 # c\n-1 qid:2 2:1\n-1 1:1.5 4:-3e-2\n1 2:7\n-1 3:.25\n",
    ".csv": "a,b,label\n1.5,2,yes\n-3,4e1,no\n5,.5,no\n7,8,yes\n9,0,no\n",
    ".dat": "@relation r\n@attribute a real\n@attribute c {x,y}\n@attribute class {p,n}\n"
    "@inputs a, c\n@outputs class\n@data\n1,x,p\n2,y,n\n3,x,n\n4,y,p\n5,x,n\n",
}
_PIECES = ["\r", "\n", "\r\n", " ", "\t", "\x0b", "\x1c", "\x1f", "\x00", "\xa0", "\x85", "\u3000",
           "é", ",", ":", "#", "%", "?", "<null>", "'", '"', "e", "-", ".", "1", "x", "nan",
           "qid:", "@", "\ufeff", "1e400", "_"]  # fmt: skip


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    suffix=st.sampled_from(sorted(_SEEDS)),
    edits=st.lists(
        st.tuples(
            st.integers(0, 10_000),
            st.sampled_from(["ins", "del", "sub", "line"]),  # line: insert at a line start
            st.sampled_from(_PIECES),
        ),
        min_size=1,
        max_size=3,
    ),
    given_=st.booleans(),
)
def test_edited_files_read_in_chunks_as_load_reads_them(tmp_path, suffix, edits, given_):
    """Session 16 (the defects this found: Unicode and 0x1c-0x1f blanks in the LIBSVM
    counting pass, a BOM inside a LIBSVM file, a CSV header's unclosed quote, KEEL comments
    before the header): a file with a few tricky bytes inserted, deleted or replaced is read
    by the chunks exactly as by ``load``, or both refuse it (the first error may differ:
    the chunked reader reports in file order)."""
    text = _SEEDS[suffix]
    for pos, op, piece in edits:
        pos %= len(text) + 1
        if op == "line":
            pos, op = text.rfind("\n", 0, pos) + 1, "ins"
        if op == "ins":
            text = text[:pos] + piece + text[pos:]
        elif op == "del":
            text = text[:pos] + text[pos + len(piece) :]
        else:
            text = text[:pos] + piece + text[pos + len(piece) :]
    p = tmp_path / f"e{suffix}"
    p.write_bytes(text.encode("utf-8"))
    try:
        X, y, meta = load(p)
    except ValueError:
        with pytest.raises(ValueError):
            list(iter_chunks(p, 2, block_bytes=1024))
        return
    X = X.toarray() if sp.issparse(X) else X
    opts = {}
    if given_:  # no counting pass
        opts = {"positive_class": meta["positive_class"]}
        if suffix == ".svm":
            opts["n_features"] = X.shape[1]
    stream = iter_chunks(p, 2, block_bytes=1024, **opts)
    Xc, yc = _gather(stream)
    np.testing.assert_array_equal(Xc, X)
    np.testing.assert_array_equal(yc, y)


@pytest.mark.parametrize(
    ("suffix", "opts"),
    [(".svm", {}), (".csv", {}), (".csv", {"nominal_columns": ["a"]}), (".dat", {})],
)
@pytest.mark.parametrize("bom", [False, True])
@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"])
@pytest.mark.parametrize("bad", [b"\xff", b"\x00"])
def test_a_bad_byte_deep_in_the_file_is_named_where_load_names_it(
    tmp_path, suffix, opts, bom, eol, bad
):
    """Session 18: KEEL files and CSV with ``nominal_columns`` (the careful, text path)
    decoded the file in 8 KiB pieces, so a byte that is not UTF-8 on line 302 was reported
    on line 1. Every format now names the line and byte ``load`` names."""
    pos, neg = (b"1 1:2\n", b"-1 1:2\n") if suffix == ".svm" else (b"2,1\n", b"2,0\n")
    head = b"a,b\n" if suffix == ".csv" else b""
    rows = [pos] + [neg] * 299 + [bad + neg] + [neg] * 20
    raw = ((b"\xef\xbb\xbf" if bom else b"") + head + b"".join(rows)).replace(b"\n", eol)
    p = tmp_path / f"deep{suffix}"
    p.write_bytes(raw)
    with pytest.raises(ValueError) as whole:
        load(p, **opts)
    assert "line 30" in str(whole.value)
    known = {"positive_class": 1, "n_features": 1} if suffix == ".svm" else {"positive_class": 1}
    for skip in ({}, known):  # with and without the counting pass
        with pytest.raises(ValueError) as chunked:
            list(iter_chunks(p, 7, block_bytes=1024, **skip, **opts))
        assert str(chunked.value) == str(whole.value)


@pytest.mark.parametrize(
    ("suffix", "option", "value", "formats"),
    [
        (".svm", "label_column", 0, "CSV and KEEL"),
        (".svm", "delimiter", ";", "CSV"),
        (".svm", "header", False, "CSV"),
        (".svm", "nominal_columns", [0], "CSV"),
        (".csv", "n_features", 5, "LIBSVM"),
        (".csv", "zero_based", True, "LIBSVM"),
        (".dat", "n_features", 5, "LIBSVM"),
        (".dat", "nominal_columns", ["x1"], "CSV"),
        (".dat", "delimiter", ";", "CSV"),
        (".dat", "header", False, "CSV"),
    ],
)
def test_an_option_the_format_does_not_read_is_refused_not_ignored(
    tmp_path, suffix, option, value, formats
):
    """Session 18: `iter_chunks("data.csv", n_features=5)` gave 1-column chunks and
    `iter_chunks("data.dat", nominal_columns=["x1"])` left x1 numeric, silently, where
    `load` raises TypeError for an option its reader does not take (and the command line a
    usage error). `missing=` stays accepted for LIBSVM (docs/decisions.md, session 16)."""
    text = {".svm": "1 1:1\n-1 2:1\n-1 2:1\n", ".csv": "a,b\n1,1\n2,0\n3,0\n"}
    p = tmp_path / f"t{suffix}"
    p.write_text(text.get(suffix, "1,1\n2,0\n3,0\n"))
    with pytest.raises(TypeError):
        load(p, **{option: value})
    name = {".svm": "LIBSVM", ".csv": "CSV", ".dat": "KEEL"}[suffix]
    match = rf"{option}= applies to {formats} files, not to {name} files"
    for known in ({}, {"positive_class": 1}):
        with pytest.raises(TypeError, match=match):
            iter_chunks(p, 2, **known, **{option: value})
    assert list(iter_chunks(p, 2, missing="drop"))  # every format takes missing=


@pytest.mark.parametrize("marker", ["NA", "nan", "NULL", "n/a", "inf"])
@pytest.mark.parametrize("suffix", [".csv", ".dat"])
def test_a_label_spelling_a_missing_value_is_refused_not_made_a_class(tmp_path, marker, suffix):
    """Session 18: among number labels, `NA` or `nan` (how pandas, R and spreadsheets write
    a row without a label) was read as text, so every label became a string and `NA` a
    class: with labels 1 and NA, `load` made '1' against 'NA' a binary problem, silently,
    and with `positive_class='1'` the unlabelled rows became negatives. pandas reads such a
    label as missing; skewlearn now refuses it, naming the line."""
    pd = pytest.importorskip("pandas")
    head = "a,label\n" if suffix == ".csv" else ""
    rows = ["1,1", "2,0", "3,1", f"4,{marker}", "5,0", f"6,{marker}", "7,1"]
    p = tmp_path / f"m{suffix}"
    p.write_text(head + "\n".join(rows) + "\n")
    if suffix == ".csv":  # the reference: pandas sees a missing label (for NA, nan, NULL, n/a)
        assert pd.read_csv(p)["label"].isna().sum() == (0 if marker == "inf" else 2)
    line = 4 + (suffix == ".csv")
    what = "is not a finite number" if marker == "inf" else "looks like a missing value"
    match = rf"m\{suffix}, line {line}: label '{re.escape(marker)}' {what}"
    with pytest.raises(ValueError, match=match):
        load(p)
    for opts in ({}, {"positive_class": 1}):
        with pytest.raises(ValueError, match=match):
            list(iter_chunks(p, 2, block_bytes=1024, **opts))
    if suffix == ".csv":
        with pytest.raises(ValueError, match=match):
            list(iter_chunks(p, 2, nominal_columns=["a"], positive_class=1))
    # written as '?', the rows are dropped; text labels and declared classes keep NA a class
    p.write_text(head + "\n".join(rows).replace(marker, "?") + "\n")
    assert load(p, missing="drop")[0].shape[0] == 5
    p.write_text(head + "\n".join(rows).replace(",1", ",yes").replace(",0", ",no") + "\n")
    assert load(p, positive_class="yes")[1].tolist() == [1, -1, 1, -1, -1, -1, 1]
    if suffix == ".dat":
        p.write_text("@relation r\n@attribute a real\n@attribute c {0, 1, " + marker + "}\n"
                     "@data\n" + "\n".join(rows) + "\n")  # fmt: skip
        assert load(p, positive_class=marker)[1].tolist() == [-1, -1, -1, 1, -1, 1, -1]
        assert len(_gather(iter_chunks(p, 2, positive_class=marker))[1]) == 7


def test_the_repr_of_a_chunked_file_whose_opening_failed_does_not_raise(tmp_path, monkeypatch):
    # A traceback that shows locals (pytest's, a debugger's) printed an AttributeError for
    # the ChunkedFile whose __init__ refused the file, hiding the refusal's own message.
    from skewlearn.datasets import iter_chunks
    from skewlearn.datasets.streaming import ChunkedFile

    seen = []
    original = ChunkedFile.__init__

    def spy(self, *args, **kwargs):
        seen.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(ChunkedFile, "__init__", spy)
    bad = tmp_path / "bad.csv"
    bad.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="empty"):
        iter_chunks(bad)
    assert repr(seen[0]).startswith("ChunkedFile(")
    good = tmp_path / "good.csv"
    good.write_text("a,y\n1,0\n2,1\n", encoding="utf-8")
    shown = repr(iter_chunks(good))
    assert shown.startswith(f"ChunkedFile({str(good)!r}, format='csv'") and "n_rows=2" in shown
