"""Readers: small hand-made fixtures, parity between formats, malformed input, round trips."""

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
from sklearn.datasets import load_svmlight_file

from skewlearn.datasets import read, read_arff, read_csv, read_keel, read_libsvm

DATA = Path(__file__).parent / "data"

# The toy set every format holds (tests/datasets/data/toy.*).
TOY_X = np.array(
    [[1.5, 0, 0.25], [-1.0, 3, 0.0], [0.0, 9, 1.0], [2.0, 1, 0.5], [3.0, 0, 0.0]], dtype=float
)
TOY_POS = np.array([True, False, False, False, True])


# --------------------------------------------------------------------------- fixtures
@pytest.mark.parametrize("name", ["toy.dat", "toy_noheader.dat", "toy.csv", "toy.arff"])
def test_tabular_toy(name):
    X, y, meta = read(DATA / name)
    assert X.dtype == np.float64 and X.flags.c_contiguous
    np.testing.assert_array_equal(X, TOY_X)
    np.testing.assert_array_equal(y == "positive", TOY_POS)
    assert meta["source"].endswith(name)
    assert meta["n_dropped"] == 0
    if name != "toy_noheader.dat":
        assert meta["feature_names"] == ["a", "b", "c"]
        assert meta["label_name"] == "Class"
    else:
        assert meta["feature_names"] == ["x1", "x2", "x3"]


def test_libsvm_toy_sparse_and_dense(tmp_path):
    X, y, meta = read(DATA / "toy.svm")
    assert sp.issparse(X) and X.format == "csr" and X.dtype == np.float64
    assert X.has_sorted_indices
    np.testing.assert_array_equal(X.toarray(), TOY_X)
    assert y.dtype == np.int64
    np.testing.assert_array_equal(y == 1, TOY_POS)
    assert meta["has_qid"] and meta["feature_names"] == ["x1", "x2", "x3"]
    Xd, yd, _ = read_libsvm(DATA / "toy.svm", sparse=False)
    assert isinstance(Xd, np.ndarray)
    np.testing.assert_array_equal(Xd, TOY_X)
    # scikit-learn agrees on this file once indices are sorted (it rejects unsorted ones)
    text = (DATA / "toy.svm").read_text().replace("3:0.5 1:2.0 2:1", "1:2.0 2:1 3:0.5")
    Xs, ys = load_svmlight_file(_tmp_write(text, ".svm", tmp_path), n_features=3)
    np.testing.assert_array_equal(Xs.toarray(), TOY_X)
    np.testing.assert_array_equal(ys, y)


def test_libsvm_n_features_and_zero_based(tmp_path):
    p = tmp_path / "a.svm"
    p.write_text("1 0:1 2:2\n0\n")
    X, y, meta = read_libsvm(p, zero_based=True, n_features=5, sparse=False)
    np.testing.assert_array_equal(X, [[1, 0, 2, 0, 0], [0, 0, 0, 0, 0]])
    assert meta["feature_names"][0] == "x0"
    with pytest.raises(ValueError, match=r"line 1: index 0 is below 1.*zero_based=True"):
        read_libsvm(p)
    with pytest.raises(ValueError, match=r"line 1: index 2 exceeds n_features=2"):
        read_libsvm(p, zero_based=True, n_features=2)


def test_keel_nominal_one_hot_in_place():
    X, y, meta = read_keel(DATA / "nominal.dat")
    assert meta["feature_names"] == ["Sex=M", "Sex=F", "Sex=I", "Length"]
    assert meta["nominal"] == {"Sex": ["M", "F", "I"]}
    np.testing.assert_array_equal(X, [[1, 0, 0, 0.5], [0, 0, 1, 0.25], [0, 1, 0, 0.75]])
    assert y.tolist() == ["negative", "positive", "negative"]


def test_keel_headerless_infers_nominal(tmp_path):
    p = tmp_path / "h.dat"
    p.write_text("b, 1.0, yes\na, 2.0, no\nb, 3.0, no\n")
    X, y, meta = read_keel(p)
    assert meta["feature_names"] == ["x1=a", "x1=b", "x2"]
    np.testing.assert_array_equal(X, [[0, 1, 1], [1, 0, 2], [0, 1, 3]])
    X, y, meta = read_keel(p, label_column=0)
    assert y.tolist() == ["b", "a", "b"] and meta["nominal"] == {"x3": ["no", "yes"]}


@pytest.mark.parametrize("reader", [read_keel, read_arff])
def test_missing_values(reader, tmp_path):
    path = DATA / "missing.dat"
    if reader is read_arff:
        path = tmp_path / "missing.arff"
        path.write_text((DATA / "missing.dat").read_text().replace("<null>", "?"))
    with pytest.raises(ValueError, match=r"line 7: missing value '\?' in 'x' \(column .*'drop'"):
        reader(path)
    X, y, meta = reader(path, missing="drop")
    np.testing.assert_array_equal(X, [[0.5, 0.5], [1.0, 0.0]])
    assert y.tolist() == ["negative", "positive"] and meta["n_dropped"] == 2
    with pytest.raises(ValueError, match="missing must be 'error' or 'drop'"):
        reader(path, missing="mean")


def test_csv_options(tmp_path):
    X, y, meta = read_csv(DATA / "bom_crlf.csv")
    assert meta["feature_names"] == ["a", "b"] and meta["delimiter"] == ";"
    np.testing.assert_array_equal(X, [[1, 2], [3, 4]])
    assert y.tolist() == ["yes", "no"]
    p = tmp_path / "n.csv"
    p.write_text("colour\tlabel\tsize\nred\t1\t0.5\nblue\t0\t1.5\n")
    X, y, meta = read_csv(p, label_column="label", nominal_columns=["colour"])
    assert meta["feature_names"] == ["colour=blue", "colour=red", "size"]
    np.testing.assert_array_equal(X, [[0, 1, 0.5], [1, 0, 1.5]])
    assert y.dtype == np.int64 and y.tolist() == [1, 0]
    X, y, meta = read_csv(p, label_column=1, nominal_columns=[0], delimiter="\t")
    assert y.tolist() == [1, 0]
    with pytest.raises(
        ValueError,
        match=r"line 2: non-numeric value 'red' for numeric attribute 'colour'.*nominal_columns",
    ):
        read_csv(p, label_column="label")
    with pytest.raises(ValueError, match=r"no column named 'lab'.*label_column="):
        read_csv(p, label_column="lab")
    q = tmp_path / "noh.csv"
    q.write_text("1,2,a\n3,,b\n")
    with pytest.raises(ValueError, match=r"line 2: missing value '' in 'x2' \(column 2\)"):
        read_csv(q, header=False)
    trailing = tmp_path / "trailing.csv"  # a delimiter at the end of every line
    trailing.write_text("a,b,y,\n1,2,yes,\n")
    with pytest.raises(ValueError, match=r"line 2: the line ends with the delimiter ','"):
        read_csv(trailing)  # (session 18: was "missing value '' in column 4 (no name)")
    X, y, meta = read_csv(q, header=False, missing="drop")
    assert X.tolist() == [[1.0, 2.0]] and meta["n_dropped"] == 1


def test_gzip_and_format_override(tmp_path):
    for name in ["toy.dat", "toy.csv", "toy.arff", "toy.svm"]:
        gz = tmp_path / (name + ".gz")
        with open(DATA / name, "rb") as src, gzip.open(gz, "wb") as dst:
            shutil.copyfileobj(src, dst)
        X, y, _ = read(gz)
        np.testing.assert_array_equal(X.toarray() if sp.issparse(X) else X, TOY_X)
    odd = tmp_path / "toy.data"
    shutil.copy(DATA / "toy.csv", odd)
    with pytest.raises(ValueError, match=r"cannot tell the format.*'\.data'.*format="):
        read(odd)
    X, _, _ = read(odd, format="csv")
    np.testing.assert_array_equal(X, TOY_X)
    with pytest.raises(ValueError, match="format must be one of"):
        read(odd, format="xls")
    bad = tmp_path / "bad.dat.gz"
    bad.write_bytes(b"not gzip at all")
    with pytest.raises(ValueError, match="not a valid gzip file"):
        read(bad)


# --------------------------------------------------------------------------- malformed input
def _tmp_write(text: str | bytes, suffix: str, directory) -> str:
    path = directory / f"data{suffix}"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return str(path)


MALFORMED = [
    # (suffix, content, regex of the message)
    (".dat", "", r"the file is empty"),
    (".dat", "\n  \n", r"the file is empty"),
    (".svm", "", r"the file is empty"),
    (".csv", "", r"the file is empty"),
    (".arff", "", r"the file is empty"),
    (".svm", "# only a comment\n", r"no data rows"),
    (".csv", "a,b,label\n", r"no data rows"),
    (".dat", "@relation r\n@attribute a real\n@attribute c {p, n}\n@data\n", r"no data rows"),
    (".arff", "@relation r\n@attribute a real\n@data\n", r"no data rows\. An ARFF file needs"),
    # truncated lines
    (".dat", "1, 2, p\n3, n\n", r"line 2: 2 values where 3 are expected"),
    (".csv", "a,b,label\n1,2,p\n3,p\n", r"line 3: 2 values where 3 are expected"),
    (".csv", "a,b,label\n1,2,p\n3\n", r"line 3: 1 value where 3 are expected"),
    (".arff", "@relation r\n@attribute a real\n@attribute c {p,n}\n@data\n1\n", r"line 5: 1 val"),
    (".svm", "1 1:2 2:\n", r"line 1: token '2:' is not index:value"),
    # bad / zero / negative / duplicate indices
    (".svm", "1 1:2\n-1 a:3\n", r"line 2: index 'a' is not an integer"),
    (".svm", "1 0:2\n", r"line 1: index 0 is below 1"),
    (".svm", "1 -3:2\n", r"line 1: index -3 is below 1"),
    (".svm", "1 1:2 3:1 1:4\n", r"line 1: index 1 appears twice"),
    (".svm", "1 1.5:2\n", r"line 1: index '1.5' is not an integer"),
    (".svm", "1:2 3:4\n", r"line 1: the line starts with '1:2' instead of a label"),
    (".svm", "# c\n\npos 1:2\n", r"line 3: label 'pos' is not a number\. LIBSVM"),
    (".svm", "1 1:2\n99999999999999999999 1:1\n", r"line 2: .* not a number that fits in int64"),
    (".svm", "0.5 1:2\n99999999999999999999 1:1\n", r"line 2: .* not a number that fits in int64"),
    # non-numeric tokens
    (".svm", "1 1:abc\n", r"line 1: value 'abc' of index 1 is not a finite number"),
    (".svm", "1 1:nan\n", r"line 1: value 'nan' of index 1 is not a finite number"),
    (".csv", "a,label\n1,p\nx1,n\n", r"line 3: non-numeric value 'x1' for numeric attribute 'a'"),
    (
        ".csv",
        "a,label\n1,p\nnan,n\n",
        r"line 3: value 'nan' for .*'a' \(column 1\) is not a finite",
    ),
    (".csv", "a,label\n1e400,p\n", r"line 2: value '1e400' .* is not a finite number"),
    (
        ".dat",
        "@relation r\n@attribute a real\n@attribute c {p, n}\n@data\n-inf, p\n",
        r"line 5: value '-inf' for numeric attribute 'a' \(column 1\) is not a finite number",
    ),
    (
        ".dat",
        "@relation r\n@attribute a real\n@attribute c {p, n}\n@data\n1, p\nz, n\n",
        r"line 6: non-numeric value 'z' for numeric attribute 'a'",
    ),
    (  # Python's float() takes '1_000'; a data file does not
        ".arff",
        "@relation r\n@attribute a real\n@attribute c {p,n}\n@data\n1,p\n1_000,n\n",
        r"line 6: non-numeric value '1_000' for numeric attribute 'a'",
    ),
    (".csv", "a,label\n1,p\n1_000,n\n", r"line 3: non-numeric value '1_000' for numeric attribute"),
    (
        ".arff",
        "@relation r\n@attribute a {u,v}\n@attribute c {p,n}\n@data\nu,p\nw,n\n",
        r"line 6: value 'w' of nominal attribute 'a' is not one of its categories",
    ),
    (
        ".dat",
        "@relation r\n@attribute a real\n@attribute c {p, n}\n@data\n1, q\n",
        r"line 5: label 'q' is not one of the declared classes",
    ),
    # headers
    (
        ".dat",
        "@relation r\n@attribute a real\n@attribute c {p, n}\n@outputs cls\n@data\n1, p\n",
        r"@outputs names 'cls', which no @attribute declares \(attributes: a, c\)",
    ),
    (
        ".dat",
        "@relation r\n@attribute a real\n@attribute c {p, n}\n@outputs a, c\n@data\n1, p\n",
        r"@outputs names 2 attributes \(a, c\). Pass label_column=",
    ),
    (".dat", "@relation r\n@attribute a strange\n@data\n1\n", r"line 2: attribute 'a' has type"),
    (".arff", "@relation r\n@attribute a date\n@data\n", r"line 2: attribute 'a' has type 'date'"),
    (".dat", "@relation r\n@attribute a real\n1, 2\n", r"line 3: unexpected header line"),
    (".arff", "@relation r\n@attribute a real\n", r"no @data line"),
    (".arff", "@relation r\n@attribute a {x, y\n@data\n", r"line 2: .*lacks its closing"),
    (
        ".arff",
        "@relation r\n@attribute a real\n@attribute c {p,n}\n@data\n{0 1, 0 2}\n",
        "twice|rep",
    ),
    (".dat", "1, 'p\n", r"line 1: an unclosed quote"),
    # encoding
    (".csv", b"a,label\n\xff\xfe,1\n", r"line 2: bytes that are not UTF-8"),
    (".dat", b"1, 2\x00, p\n", r"line 1: a NUL byte"),
]


@pytest.mark.parametrize(("suffix", "content", "pattern"), MALFORMED)
def test_malformed(suffix, content, pattern, tmp_path):
    path = _tmp_write(content, suffix, tmp_path)
    with pytest.raises(ValueError, match=pattern) as info:
        read(path)
    assert path in str(info.value)  # every message names the file


def test_a_numeric_header_line_warns_that_it_is_probably_data(tmp_path):
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "nohdr.csv"
    p.write_text("1.5,2,0\n3,4,1\n5,6,0\n")
    for read_it in (read_csv, lambda q: list(iter_chunks(q, positive_class=1))):
        with pytest.warns(UserWarning, match=r"first line \(1.5, 2, 0\) holds only numbers"):
            read_it(p)
    X, _, _ = read_csv(p, header=False)  # no warning when told
    assert X.shape == (3, 2)


def test_labels_beyond_int64_stay_exact_strings(tmp_path):
    """As float64, 2**63 and 2**63 + 1 would be one label; as strings they stay apart."""
    p = tmp_path / "big.csv"
    p.write_text(f"a,y\n1,{2**63}\n2,{2**63 + 1}\n3,0\n")
    _, y, _ = read_csv(p)
    assert y.tolist() == [str(2**63), str(2**63 + 1), "0"]
    p.write_text(f"a,y\n1,0.5\n2,{2**63}\n3,{2**63 + 1}\n")  # a float label comes first
    _, y, _ = read_csv(p)
    assert y.tolist() == ["0.5", str(2**63), str(2**63 + 1)]
    p.write_text(f"a,y\n1,{2**63 - 1}\n2,{-(2**63)}\n")  # the int64 range's ends
    _, y, _ = read_csv(p)
    assert y.dtype == np.int64 and y.tolist() == [2**63 - 1, -(2**63)]


def test_bom_and_crlf_everywhere(tmp_path):
    for name in ["toy.dat", "toy_noheader.dat", "toy.csv", "toy.arff", "toy.svm"]:
        raw = (DATA / name).read_bytes().replace(b"\n", b"\r\n")
        p = tmp_path / name
        p.write_bytes(b"\xef\xbb\xbf" + raw)
        X, _, _ = read(p)
        np.testing.assert_array_equal(X.toarray() if sp.issparse(X) else X, TOY_X)


# ------------------------------------------------------------------ writers for round trips
def write_keel(path, X, y, header=True):
    lines = []
    if header:
        lines.append("@relation rt")
        lines += [f"@attribute x{j + 1} real [0.0, 1.0]" for j in range(X.shape[1])]
        classes = sorted(set(y.tolist()))
        lines.append("@attribute Class {" + ", ".join(map(str, classes)) + "}")
        lines.append("@outputs Class")
        lines.append("@data")
    lines += [", ".join([*map(repr, row.tolist()), str(lab)]) for row, lab in zip(X, y)]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_csv(path, X, y):
    names = [f"x{j + 1}" for j in range(X.shape[1])]
    lines = [",".join([*names, "Class"])]
    lines += [",".join([*map(repr, row.tolist()), str(lab)]) for row, lab in zip(X, y)]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_arff(path, X, y, sparse_rows=False):
    lines = ["% round trip", "@relation rt"]
    lines += [f"@attribute x{j + 1} numeric" for j in range(X.shape[1])]
    classes = sorted(set(y.tolist()))
    lines += ["@attribute Class {" + ",".join(map(str, classes)) + "}", "@data"]
    for row, lab in zip(X, y):
        if sparse_rows:
            entries = [f"{j} {v!r}" for j, v in enumerate(row.tolist()) if v != 0]
            lines.append("{" + ", ".join([*entries, f"{X.shape[1]} {lab}"]) + "}")
        else:
            lines.append(",".join([*map(repr, row.tolist()), str(lab)]))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_libsvm(path, X, y, rng):
    lines = []
    for row, lab in zip(X, y):
        nz = [j for j in range(X.shape[1]) if row[j] != 0]
        rng.shuffle(nz)  # any order is legal
        lines.append(" ".join([str(lab), *(f"{j + 1}:{float(row[j])!r}" for j in nz)]))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
matrices = st.integers(1, 6).flatmap(
    lambda d: st.lists(
        st.tuples(
            st.lists(finite | st.just(0.0), min_size=d, max_size=d), st.sampled_from([-1, 1])
        ),
        min_size=1,
        max_size=8,
    )
)


def _arrays(rows):
    X = np.array([r for r, _ in rows], dtype=np.float64)
    y = np.array([lab for _, lab in rows], dtype=np.int64)
    return X, y


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=matrices, seed=st.integers(0, 2**32 - 1))
def test_round_trip_all_formats(tmp_path, rows, seed):
    X, y = _arrays(rows)
    rng = np.random.default_rng(seed)
    d = X.shape[1]
    paths = {
        "keel": tmp_path / "rt.dat",
        "keel0": tmp_path / "rt0.dat",
        "csv": tmp_path / "rt.csv",
        "arff": tmp_path / "rt.arff",
        "sarff": tmp_path / "rts.arff",
        "svm": tmp_path / "rt.svm",
    }
    write_keel(paths["keel"], X, y)
    write_keel(paths["keel0"], X, y, header=False)
    write_csv(paths["csv"], X, y)
    write_arff(paths["arff"], X, y)
    write_arff(paths["sarff"], X, y, sparse_rows=True)
    write_libsvm(paths["svm"], X, y, rng)
    for key, p in paths.items():
        kw = {"n_features": d} if key == "svm" else {}
        Xr, yr, meta = read(p, **kw)
        if sp.issparse(Xr):
            Xr = Xr.toarray()
        np.testing.assert_array_equal(Xr, X, err_msg=key)
        np.testing.assert_array_equal(yr, y, err_msg=key)
        assert yr.dtype == np.int64
        assert meta["feature_names"] == [f"x{j + 1}" for j in range(d)]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.sampled_from(
        ["toy.dat", "toy_noheader.dat", "toy.csv", "toy.arff", "toy.svm", "nominal.dat"]
    ),
    edits=st.lists(
        st.tuples(
            st.integers(0, 10_000),
            st.sampled_from(["del", "ins", "sub"]),
            st.binary(min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=4,
    ),
    gz=st.booleans(),
)
def test_corruption_gives_data_or_value_error(tmp_path, name, edits, gz):
    raw = bytearray((DATA / name).read_bytes())
    for pos, op, blob in edits:
        pos %= len(raw) + 1
        if op == "del":
            del raw[pos : pos + len(blob)]
        elif op == "ins":
            raw[pos:pos] = blob
        else:
            raw[pos : pos + len(blob)] = blob
    p = tmp_path / name
    if gz:
        p = tmp_path / (name + ".gz")
        data = gzip.compress(bytes(raw))
        cut = edits[0][0] % (len(data) + 1)
        raw = data[:cut] if edits[0][1] == "del" else data
    p.write_bytes(bytes(raw))
    try:
        X, y, meta = read(p)
    except ValueError as exc:
        assert str(p) in str(exc)
        return
    assert X.shape[0] == len(y) >= 1
    assert (X.data if sp.issparse(X) else X).dtype == np.float64
    assert np.isfinite(X.data if sp.issparse(X) else X).all()
    assert len(meta["feature_names"]) == X.shape[1]


# session 11: column indices beyond int32, and the names of very many columns
@pytest.mark.parametrize("index", ["2147483649", "4294967297", "99999999999999999999"])
def test_an_index_beyond_int32_is_a_value_error_naming_the_line(tmp_path, index):
    """The whole-file reader raised OverflowError (or, for 2**31, built 2**31 names and
    was killed for memory); the compiled parser stored the index in int32, so it wrapped
    negative and the counting pass found a wrong width ("exceeds n_features=1")."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "wide.svm"
    p.write_text(f"1 1:2\n-1 3:1 {index}:3\n")
    msg = rf"wide\.svm, line 2: index {index} is above 2147483647, the largest column index"
    with pytest.raises(ValueError, match=msg):
        read_libsvm(p)
    for options in ({}, {"positive_class": 1}, {"positive_class": 1, "n_features": 2**40}):
        with pytest.raises(ValueError, match=msg):
            list(iter_chunks(p, **options))


def test_the_largest_int32_index_is_read_and_names_cost_no_memory(tmp_path):
    """2**31 - 1 (1-based) is the last index a CSR matrix holds; the ``x1 … xd`` names of
    such a width were a list of d strings (2**24 columns: ~2.6 GB and 7 s for two rows)."""
    import tracemalloc

    from skewlearn.datasets import iter_chunks, load

    p = tmp_path / "hashed.svm"
    p.write_text("1 1:2 2147483647:4\n-1 5:3\n")
    tracemalloc.start()
    try:
        X, y, meta = read_libsvm(p)
        X2, _, meta2 = load(p)
        stream = iter_chunks(p)
        chunks = list(stream)
        stream_meta = stream.meta
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20e6
    assert X.shape == X2.shape == chunks[0][0].shape == (2, 2147483647)
    assert X[0, 2147483646] == 4.0 and X[1, 4] == 3.0 and X.nnz == 3
    for names in (meta["feature_names"], meta2["feature_names"], stream_meta["feature_names"]):
        assert len(names) == 2147483647
        assert names[0] == "x1" and names[-1] == "x2147483647" and names[4:6] == ["x5", "x6"]
        assert "x2147483647" in names and "x0" not in names and "x01" not in names
    assert meta2["n_attributes"] == 2147483647


def test_numbered_names_behave_like_the_list(tmp_path):
    import json
    import pickle

    from skewlearn.datasets.readers import NumberedNames

    p = tmp_path / "small.svm"
    p.write_text("1 1:2 3:1\n-1 2:3\n")
    plain = read_libsvm(p)[2]["feature_names"]
    assert plain == ["x1", "x2", "x3"] and json.dumps(plain)  # a narrow file: a real list
    names = NumberedNames(3, 1)
    assert names == plain and plain == names and list(names) == plain and names != plain[:2]
    assert names[1] == "x2" and names[-1] == "x3" and names[::2] == ["x1", "x3"]
    assert [n for n in names] == plain and names.index("x3") == 2 and "x4" not in names
    assert pickle.loads(pickle.dumps(names)) == names
    assert NumberedNames(4, 0) == read_libsvm(p, zero_based=True)[2]["feature_names"]
    with pytest.raises(IndexError):
        names[3]
    for key in (1.0, "1", None):  # session 16: AttributeError ('float' has no __index__)
        with pytest.raises(TypeError, match="indices must be integers or slices"):
            names[key]
    assert names[np.int64(1)] == "x2"
    assert NumberedNames(0, 1) == [] and NumberedNames(0, 0) == NumberedNames(0, 1)


@pytest.mark.parametrize("suffix", [".arff", ".dat"])
def test_quoted_categories_after_a_comma_and_blank(tmp_path, suffix):
    """Session 11: `{'a b', c, 'd,e'}` kept the blank before a quoted category
    (' d,e', ' tested neg'), so the data's 'd,e' was "not one of its categories"; Weka
    files often quote class values such as {'>50K', '<=50K'}."""
    from skewlearn.datasets import iter_chunks

    header = "@relation r\n@attribute a real [0, 9]\n@attribute col {'a b', c, 'd,e'}\n"
    header += "@attribute class {'>50K', '<=50K'}\n"
    if suffix == ".dat":
        header += "@inputs a, col\n@outputs class\n"
    body = "@data\n1.5, 'a b', '>50K'\n2,c,'<=50K'\n3, 'd,e' , '<=50K'\n4,'d,e','<=50K'\n"
    p = tmp_path / f"quoted{suffix}"
    p.write_text(header + body)
    X, y, meta = read(p)
    assert meta["nominal"] == {"col": ["a b", "c", "d,e"]}
    assert meta["feature_names"] == ["a", "col=a b", "col=c", "col=d,e"]
    np.testing.assert_array_equal(X[:, 1:], [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]])
    assert y.tolist() == [">50K", "<=50K", "<=50K", "<=50K"]
    if suffix == ".dat":
        (chunk,) = list(iter_chunks(p))
        np.testing.assert_array_equal(chunk[0], X)
        assert chunk[1].tolist() == [1, -1, -1, -1]


@pytest.mark.parametrize(
    ("nominal", "match"),
    [
        (["nope"], r"nominal_columns=\[\.\.\.\] names 'nope', but no column has that name"),
        ([99], r"nominal_columns=\[\.\.\.\] holds 99, out of range for 3 columns"),
    ],
)
def test_a_bad_nominal_column_is_named_as_such_not_as_label_column(tmp_path, nominal, match):
    """Session 11: the messages said "Pass label_column= one of them" (the CLI: "Pass
    --label-column ...") for a wrong nominal_columns entry."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "t.csv"
    p.write_text("a,b,y\n1,x,0\n2,z,1\n")
    for reader in (lambda: read_csv(p, nominal_columns=nominal),
                   lambda: list(iter_chunks(p, nominal_columns=nominal))):  # fmt: skip
        with pytest.raises(ValueError, match=match) as info:
            reader()
        assert "label_column" not in str(info.value)


def test_arff_comment_after_a_value_is_a_comment(tmp_path):
    """Weka reads `%` as a comment character anywhere outside quotes; the reader took
    `yes % checked` for a category and refused the file. A quoted `%` is data."""
    p = tmp_path / "comments.arff"
    p.write_text(
        "@relation r % the relation\n"
        "@attribute a numeric % in cm\n"
        "@attribute 'b %' {'x % y', z}\n"
        "@attribute class {no,yes}   %% the label\n"
        "@data % rows follow\n"
        "1.5,'x % y',yes % checked\n"
        "{0 2.5, 1 z, 2 no} % sparse\n"
        "3,z,no%\n"
    )
    X, y, meta = read_arff(p)
    assert meta["relation"] == "r"
    assert meta["feature_names"] == ["a", "b %=x % y", "b %=z"]
    np.testing.assert_array_equal(X, [[1.5, 1, 0], [2.5, 0, 1], [3, 0, 1]])
    assert y.tolist() == ["yes", "no", "no"]


@pytest.mark.parametrize("suffix", [".arff", ".dat"])
def test_an_attribute_declared_twice_is_refused_with_its_line(tmp_path, suffix):
    """Session 13: two `@attribute a` lines were both read; `label_column="a"` then took
    the first silently (the nominal `a` and the class became features), and
    `feature_names` held 'a' twice. Weka refuses such a header ("Attribute names are not
    unique"); CSV headers with a repeated name already were refused."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / f"twice{suffix}"
    p.write_text(
        "@relation r\n@attribute a real\n@attribute a {p, q}\n@attribute c {yes, no}\n"
        "@data\n1, p, yes\n2, q, no\n"
    )
    match = r"line 3: attribute 'a' is declared twice \(first on line 2\)"
    with pytest.raises(ValueError, match=match):
        read(p)
    with pytest.raises(ValueError, match=match):
        read(p, label_column="a")
    if suffix == ".dat":
        with pytest.raises(ValueError, match=match):
            iter_chunks(p)


def test_nominal_columns_as_one_string_is_refused_not_read_letter_by_letter(tmp_path):
    """Session 13: `nominal_columns="ab"` was read one letter at a time: with columns
    'a' and 'b' it one-hot encoded both, silently, instead of the column 'ab'."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "t.csv"
    p.write_text("ab,a,b,y\nx,1,2,0\nz,3,4,1\n")
    for reader in (lambda: read_csv(p, nominal_columns="ab"),
                   lambda: iter_chunks(p, nominal_columns="ab")):  # fmt: skip
        with pytest.raises(TypeError, match=r"nominal_columns must be a list .*\['ab'\]"):
            reader()
    X, _, meta = read_csv(p, nominal_columns=["ab"])
    assert meta["feature_names"] == ["ab=x", "ab=z", "a", "b"]


@pytest.mark.parametrize("name", ["toy.csv.GZ", "toy.svm.Gz"])
def test_a_gz_suffix_in_capitals_is_decompressed(tmp_path, name):
    """Session 13: the format came from the lower-cased extension, but the file was
    decompressed only for a lower-case `.gz`; `toy.csv.GZ` was "bytes that are not
    UTF-8"."""
    from skewlearn.datasets import iter_chunks

    src = DATA / name[: name.rindex(".")]
    gz = tmp_path / name
    gz.write_bytes(gzip.compress(src.read_bytes()))
    X, _, _ = read(gz)
    np.testing.assert_array_equal(X.toarray() if sp.issparse(X) else X, TOY_X)
    chunks = list(iter_chunks(gz))
    X2 = chunks[0][0]
    np.testing.assert_array_equal(X2.toarray() if sp.issparse(X2) else X2, TOY_X)


def test_a_gzip_file_without_the_suffix_is_named_as_such(tmp_path):
    """Session 13: a gzip file named `toy.csv` was "bytes that are not UTF-8 ... Save
    the file as UTF-8"; the message now says it is gzip-compressed and what to do."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "toy.csv"
    p.write_bytes(gzip.compress((DATA / "toy.csv").read_bytes()))
    match = r"toy\.csv: the file is gzip-compressed but its name does not end in \.gz"
    with pytest.raises(ValueError, match=match):
        read(p)
    with pytest.raises(ValueError, match=match):
        list(iter_chunks(p))


@pytest.mark.parametrize(
    ("kind", "compress"),
    [
        ("bzip2", lambda b: __import__("bz2").compress(b)),
        ("xz", lambda b: __import__("lzma").compress(b)),
        ("zip", None),
    ],
)
@pytest.mark.parametrize("name", ["toy.csv", "toy.svm", "toy.dat", "toy.arff"])
def test_a_file_compressed_otherwise_than_gzip_is_named_as_such(tmp_path, kind, compress, name):
    """Session 16: a bzip2, xz or zip file (e.g. `data.svm.bz2` read with format=, or a
    renamed one) was "bytes that are not UTF-8 ... Save the file as UTF-8"."""
    import zipfile

    from skewlearn.datasets import iter_chunks

    raw = (DATA / name).read_bytes()
    p = tmp_path / name
    if compress is None:
        with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(name, raw)
    else:
        p.write_bytes(compress(raw))
    match = rf"{name.replace('.', '[.]')}: the file is {kind}-compressed; skewlearn reads plain"
    with pytest.raises(ValueError, match=match):
        read(p)
    if not name.endswith(".arff"):
        with pytest.raises(ValueError, match=match):
            list(iter_chunks(p))
    if kind == "bzip2" and name == "toy.csv":  # a text file may start like a bzip2 file
        p.write_text("BZh9,y\n1,a\n2,b\n")
        assert read(p)[1].tolist() == ["a", "b"]


@pytest.mark.parametrize(
    ("option", "value", "suffix"),
    [
        ("zero_based", "auto", ".svm"),
        ("zero_based", "False", ".svm"),
        ("sparse", "no", ".svm"),
        ("header", "no", ".csv"),
        ("header", None, ".csv"),
    ],
)
def test_a_switch_given_as_text_is_refused_not_read_as_true(tmp_path, option, value, suffix):
    """Session 13: `read_libsvm(p, zero_based="auto")` (scikit-learn's default value) was
    true, so a 1-based file was read 0-based: every column moved one place right, silently.
    `sparse="no"` gave CSR and `header="no"` read the first row as names."""
    from skewlearn.datasets import iter_chunks, load

    p = DATA / f"toy{suffix}"
    match = rf"{option} must be True or False; got {value!r}"
    for reader in (lambda: read(p, **{option: value}), lambda: load(p, **{option: value}),
                   lambda: iter_chunks(p, **{option: value})):  # fmt: skip
        with pytest.raises(TypeError, match=match):
            reader()
    X, _, _ = read(p, **{option: {"zero_based": False, "sparse": True, "header": True}[option]})
    np.testing.assert_array_equal(X.toarray() if sp.issparse(X) else X, TOY_X)


@pytest.mark.parametrize("header", [True, False])
def test_a_space_separated_file_is_not_read_as_one_column(tmp_path, header):
    """Session 13: no ',', ';', tab or '|' in `a b label / 1 2 x / ...` made each line one
    field: read_csv returned zero features and the whole line as the label, silently
    (load then said "3 classes"). The sniffed delimiter now must split something."""
    from skewlearn.datasets import iter_chunks, load

    p = tmp_path / "spaces.csv"
    p.write_text(("a b label\n" if header else "") + "1 2 x\n3 4 y\n5 6 y\n")
    line = 1
    match = rf"line {line}: .* holds no ',', ';', tab or '\|' but blanks"
    for reader in (lambda: read_csv(p, header=header), lambda: load(p, header=header),
                   lambda: iter_chunks(p, header=header)):  # fmt: skip
        with pytest.raises(ValueError, match=match):
            reader()
    X, y, _ = read_csv(p, header=header, delimiter=" ")  # the advice works
    np.testing.assert_array_equal(X, [[1, 2], [3, 4], [5, 6]])
    one = tmp_path / "one.csv"  # a real single column is still read
    one.write_text("label\nx\ny\n")
    assert read_csv(one)[1].tolist() == ["x", "y"]


def test_a_decimal_comma_is_named_as_such(tmp_path):
    """Session 13: `1,5` in a ';'-separated file was "non-numeric value '1,5' ... pass
    nominal_columns=[...] to one-hot encode the column", advice that would turn every
    number into a category."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "decimal.csv"
    p.write_text("a;b;label\n1,5;2;x\n3,25;4;y\n")
    match = (
        r"line 2: value '1,5' for numeric attribute 'a' \(column 1\) has a decimal comma\. "
        r"Write decimal points \(1\.5\)"
    )
    for reader in (lambda: read_csv(p), lambda: list(iter_chunks(p))):
        with pytest.raises(ValueError, match=match) as info:
            reader()
        assert "nominal_columns" not in str(info.value)


@pytest.mark.parametrize(
    ("outputs", "match"),
    [
        ("a, c", r"@outputs names 2 attributes \(a, c\)\. Pass label_column="),
        ("cls", r"@outputs names 'cls', which no @attribute declares"),
    ],
)
def test_iter_chunks_refuses_an_outputs_line_as_read_keel_does(tmp_path, outputs, match):
    """Session 13: `read_keel`/`load` refuse an @outputs naming several attributes or an
    undeclared one (session 8), but `iter_chunks` silently took the last column as the
    label, against its promise of load's rows and labels."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "outputs.dat"
    p.write_text(
        "@relation r\n@attribute a {u, v}\n@attribute b real\n@attribute c {p, n}\n"
        f"@outputs {outputs}\n@data\nu,1,p\nv,2,n\nv,3,n\n"
    )
    for reader in (lambda: read_keel(p), lambda: iter_chunks(p)):
        with pytest.raises(ValueError, match=match):
            reader()
    (chunk,) = list(iter_chunks(p, label_column="c"))  # the advice works
    np.testing.assert_array_equal(chunk[1], [1, -1, -1])


@pytest.mark.parametrize("positive", [None, "p"])
@pytest.mark.parametrize(
    ("body", "what"),
    [("", r"no data rows"), ("?,p\n?,n\n", r"every data row has a missing value")],
)
def test_iter_chunks_of_no_rows_says_so_as_load_does(tmp_path, positive, body, what):
    """Session 13: a header-only CSV (or one whose every row was dropped for a missing
    value) read with positive_class said "positive class 'p' does not occur in the file
    (every row was negative)", and without it "no data rows" where load says every row
    had a missing value."""
    from skewlearn.datasets import iter_chunks, load

    p = tmp_path / "empty.csv"
    p.write_text("a,label\n" + body)
    options = {"positive_class": positive, "missing": "drop"}
    for reader in (lambda: load(p, **options), lambda: list(iter_chunks(p, **options))):
        with pytest.raises(ValueError, match=what):
            reader()


def test_an_unclosed_quote_is_reported_on_the_line_it_opens(tmp_path):
    """Session 13: read_csv named the line where the csv module gave up, the end of the
    file (line 1003 here; with 200,000 rows after it, line 21849 and "field larger than
    field limit"), not line 3 where the quote opens; iter_chunks named line 3."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "quote.csv"
    p.write_text('a,b,label\n1,2,p\n3,4,"n\n' + "5,6,n\n" * 1000)
    for reader in (lambda: read_csv(p), lambda: list(iter_chunks(p))):
        with pytest.raises(ValueError, match=r"quote\.csv, line 3: malformed CSV"):
            reader()


@pytest.mark.parametrize("token", ["NA", "N/A", "null", "None"])
def test_a_missing_value_marker_of_another_tool_is_named_as_such(tmp_path, token):
    """Session 13: R's `write.csv` writes NA for a missing value; the reader said
    "non-numeric value 'NA' ... pass nominal_columns=[...] to one-hot encode the column",
    which would make the column a category. It now says which markers it reads."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "na.csv"
    p.write_text(f"a,label\n1,x\n{token},y\n")
    match = rf"line 3: value '{token}' .* looks like a missing-value marker.*'\?'"
    for reader in (lambda: read_csv(p), lambda: list(iter_chunks(p))):
        with pytest.raises(ValueError, match=match) as info:
            reader()
        assert "nominal_columns" not in str(info.value)


_KEEL_ID = (
    "@relation r\n@attribute id integer [1, 9]\n@attribute a real [0, 9]\n"
    "@attribute b real [0, 9]\n@attribute class {p, n}\n{io}@data\n"
    "1, 0.5, 2, p\n2, 1.5, 3, n\n3, 2.5, 4, n\n"
)


@pytest.mark.parametrize("how", ["read_keel", "iter_chunks"])
def test_keel_inputs_that_leave_out_a_column_are_refused(tmp_path, how):
    """@inputs was skipped, so a column it leaves out (an identifier here) became a feature
    without a word. Both readers now refuse it, and an undeclared name, with the fix; an
    @inputs listing every attribute but the label reads as before."""
    from skewlearn.datasets import iter_chunks

    def load(io, **kw):
        p = tmp_path / "ids.dat"
        p.write_text(_KEEL_ID.replace("{io}", io))
        if how == "read_keel":
            return read_keel(p, **kw)[0]
        return np.vstack([c[0] for c in iter_chunks(p, positive_class="p", **kw)])

    full = np.array([[1, 0.5, 2], [2, 1.5, 3], [3, 2.5, 4]])
    np.testing.assert_array_equal(load(""), full)
    np.testing.assert_array_equal(load("@inputs id, a, b\n@outputs class\n"), full)
    with pytest.raises(ValueError, match=r"@inputs leaves out 'id'.*Delete those columns.*@inputs"):
        load("@inputs a, b\n@outputs class\n")
    with pytest.raises(ValueError, match=r"@inputs names 'c', which no @attribute declares"):
        load("@inputs id, a, b, c\n@outputs class\n")
    # label_column= picks another label: the @outputs attribute becomes a feature, as before
    if how == "read_keel":
        X = load("@inputs id, a, b\n@outputs class\n", label_column="b")
        np.testing.assert_array_equal(X, [[1, 0.5, 1, 0], [2, 1.5, 0, 1], [3, 2.5, 0, 1]])


@pytest.mark.parametrize("how", ["read_keel", "iter_chunks"])
def test_keel_inputs_and_outputs_name_quoted_attributes_as_declared(tmp_path, how):
    """Session 16: `@attribute 'cap shape' real` declares the name `cap shape`, but the
    @inputs / @outputs names kept their quotes, so `@inputs 'cap shape'` was "names
    "'cap shape'", which no @attribute declares" (session 14's check refused the file)."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "q.dat"
    p.write_text(
        "@relation r\n@attribute 'cap shape' real\n@attribute \"a,b\" real\n"
        "@attribute 'the class' {p, n}\n@inputs 'cap shape', \"a,b\"\n@outputs 'the class'\n"
        "@data\n1, 2, p\n3, 4, n\n5, 6, n\n"
    )
    if how == "read_keel":
        X, y, meta = read_keel(p)
        assert meta["label_name"] == "the class"
    else:
        stream = iter_chunks(p, 2)
        X = np.vstack([c[0] for c in stream])
        y = np.concatenate([c[1] for c in stream])
        meta = stream.meta
    assert meta["feature_names"] == ["cap shape", "a,b"]
    np.testing.assert_array_equal(X, [[1, 2], [3, 4], [5, 6]])
    assert len(y) == 3


@pytest.mark.parametrize("how", ["read_keel", "iter_chunks"])
@pytest.mark.parametrize("header", [True, False])
def test_keel_comment_lines_before_the_first_line_are_skipped(tmp_path, how, header):
    """Session 16: '%' comment lines are skipped everywhere in a KEEL file but before its
    first line, which decided header or not: a file starting with a comment had its header
    refused ("header line '@relation r' among the data. Move it above @data"), and the
    chunked reader took a headerless file's width from the comment."""
    from skewlearn.datasets import iter_chunks

    head = "@relation r\n@attribute a real\n@attribute c {x, y}\n@attribute class {p, n}\n@data\n"
    body = "1, x, p\n2, y, n\n3, x, n\n"
    p = tmp_path / "c.dat"
    p.write_text("% made by hand, 2 columns\n\n%\n" + (head if header else "") + body)
    if how == "read_keel":
        X, y, _ = read_keel(p)
    else:
        chunks = list(iter_chunks(p, 2))
        X = np.vstack([c[0] for c in chunks])
        y = np.concatenate([c[1] for c in chunks])
    assert X.tolist() == [[1, 1, 0], [2, 0, 1], [3, 1, 0]]
    assert len(y) == 3


@pytest.mark.parametrize(
    "rows", ["1, x, {2}\n2, y, {0.5}\n", "{0 1, 1 x}, {2}\n{0 2, 1 y},{0.5}\n"]
)
def test_arff_instance_weights_are_named_as_such(tmp_path, rows):
    """Session 16: Weka writes an instance weight as a last ``{w}`` on the row; the reader
    said "3 values where 2 are expected ... a truncated line or a stray delimiter" (sparse
    rows: "value 'x}' ... is not one of its categories")."""
    p = tmp_path / "w.arff"
    p.write_text("@relation r\n@attribute a numeric\n@attribute c {x, y}\n@data\n" + rows)
    msg = r"w\.arff, line 5: an instance weight \{2\}.*Remove.*learners take none"
    with pytest.raises(ValueError, match=msg):
        read_arff(p)


@pytest.mark.parametrize("index", ["+-3", "-+3", "++3", "--3", "³", "3²", "٣"])
def test_a_libsvm_index_int_refuses_or_not_ascii_is_named_with_its_line(tmp_path, index):
    """Session 18: `idx.lstrip("+-").isdigit()` let '+-3', '++3' and the superscript '³'
    through to ``int()``, whose bare "invalid literal for int()" named neither the file nor
    the line (also in the chunked reader, which hands such a line to ``read_libsvm``); the
    Arabic-Indic '٣' was read as column 3. scikit-learn's reader refuses all of them."""
    p = tmp_path / "idx.svm"
    p.write_text(f"1 1:1\n-1 {index}:1\n", encoding="utf-8")
    with pytest.raises(ValueError):
        load_svmlight_file(str(p))  # the reference refuses the token too
    match = rf"idx\.svm, line 2: index '{re.escape(index)}' is not an integer\. Indices are 1-based"
    with pytest.raises(ValueError, match=match):
        read_libsvm(p)
    from skewlearn.datasets import iter_chunks

    for opts in ({}, {"positive_class": 1, "n_features": 3}):
        with pytest.raises(ValueError, match=match):
            list(iter_chunks(p, 1, **opts))


@pytest.mark.parametrize("suffix", [".svm", ".csv", ".dat", ".arff"])
@pytest.mark.parametrize("bom", [False, True])
@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"])
def test_a_byte_that_is_not_utf8_is_named_at_its_line_and_byte(tmp_path, suffix, bom, eol):
    """Session 18: after a byte-order mark, the whole-file readers counted the offset of a
    bad byte from the end of the mark (Python's utf-8-sig decoder does), so the message's
    byte was 3 short and its line one too early when the byte opened a line; and the line
    was counted by "\n" only, so a file with "\r" line ends (read as such everywhere else)
    put every bad byte on line 1."""
    head = {
        ".svm": b"",
        ".csv": b"a,b\n",
        ".dat": b"",
        ".arff": b"@relation r\n@attribute a real\n@attribute b {0,1}\n@data\n",
    }[suffix]
    body = (b"1 1:1\n" if suffix == ".svm" else b"1,1\n") * 3
    raw = (b"\xef\xbb\xbf" if bom else b"") + head + body + b"\xff" + body
    line = raw[: raw.index(b"\xff")].count(b"\n") + 1
    raw = raw.replace(b"\n", eol)
    p = tmp_path / f"bad{suffix}"
    p.write_bytes(raw)
    at = raw.index(b"\xff")
    with pytest.raises(ValueError) as info:
        read(p)
    assert f"bad{suffix}, line {line}: bytes that are not UTF-8 (" in str(info.value)
    assert f" at byte {at})" in str(info.value)
    p.write_bytes(raw.replace(b"\xff", b"\x00"))  # a NUL byte: its line too
    with pytest.raises(ValueError, match=rf"bad{suffix}, line {line}: a NUL byte"):
        read(p)


@pytest.mark.parametrize(
    ("delimiter", "match"),
    [
        ("\n", r"delimiter '\\n' is a line end"),
        ("\r", r"delimiter '\\r' is a line end"),
        ('"', r"""delimiter '"' is the quote character"""),
        (";;", r"delimiter must be one character; got ';;'"),
        ("", r"delimiter must be one character; got ''"),
        (5, r"delimiter must be one character; got 5"),
    ],
)
def test_a_delimiter_that_cannot_separate_values_is_refused(tmp_path, delimiter, match):
    """Session 18: `read_csv(delimiter="\\n")` (or '"') read every line as one field, so
    `load` returned the rows with no feature column and the whole line as the label,
    silently; ';;' and 5 were the csv module's bare TypeError. The chunked reader took
    "\\n" and '"' too (then "labels have 3 classes")."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "d.csv"
    p.write_text("a,b,y\n1,2,1\n3,4,0\n5,6,0\n")
    with pytest.raises(ValueError, match=match):
        read_csv(p, delimiter=delimiter)
    with pytest.raises(ValueError, match=match if isinstance(delimiter, str) and len(
            delimiter) == 1 else "delimiter must be one"):  # fmt: skip
        iter_chunks(p, delimiter=delimiter)
    # what remains accepted: any other one character, a space and a tab included
    for ok in (",", " ", "\t", "|", "é"):
        read_csv(p, delimiter=ok)


@pytest.mark.parametrize("text", ["a,b,y\n1,2,1\n3,4,0\n", "1;2;1\n3;4;0\n"])
def test_a_csv_file_named_txt_is_pointed_to_the_csv_reader(tmp_path, text):
    """Session 18: `.txt` means LIBSVM to `read`, and a CSV file so named was told "label
    '1,2,1' is not a number. LIBSVM labels are numbers; fix the label": the fix is to read
    it as CSV, which the message now says (the chunked reader gives the same)."""
    from skewlearn.datasets import iter_chunks, load

    p = tmp_path / "data.txt"
    p.write_text(text)
    match = r"data\.txt, line 1: label .* is not a number.*looks like delimited text.*format='csv'"
    with pytest.raises(ValueError, match=match):
        load(p)
    with pytest.raises(ValueError, match=match):
        list(iter_chunks(p))
    X, _, _ = load(p, format="csv", **({} if "y" in text else {"header": False}))
    assert X.shape == (2, 2)
    p.write_text("0,1 1:1\n1 2:1\n")  # a multilabel row has features: not called CSV
    with pytest.raises(ValueError, match="LIBSVM labels are numbers"):
        load(p)


def test_a_reader_option_of_another_format_or_misspelt_is_named_as_such(tmp_path):
    """Session 18: `load("x.svm", missing="drop")` was Python's bare "read_libsvm() got an
    unexpected keyword argument 'missing'", and a misspelt option the same; they now say
    which formats take the option (as `iter_chunks` and the command line do), or offer the
    closest option."""
    from skewlearn.datasets import load

    svm = tmp_path / "x.svm"
    svm.write_text("1 1:1\n-1 2:1\n-1 2:2\n")
    csv_ = tmp_path / "x.csv"
    csv_.write_text("a,y\n1,1\n2,0\n3,0\n")
    cases = [
        (svm, {"missing": "drop"}, r"missing= applies to KEEL, CSV and ARFF files, not to "
         r"LIBSVM files \(x\.svm\); leave it out, or pass format="),
        (csv_, {"n_features": 3}, r"n_features= applies to LIBSVM files, not to CSV files"),
        (csv_, {"label_colum": "y"}, r"'label_colum' is not an option of CSV files \(x\.csv\)"
         r"\. Did you mean 'label_column'.*\? CSV files take label_column, delimiter"),
    ]  # fmt: skip
    for path, opts, match in cases:
        with pytest.raises(TypeError, match=match):
            read(path, **opts)
        with pytest.raises(TypeError, match=match):
            load(path, **opts)
    read(csv_, format="csv", label_column="y")  # the options the reader takes still pass


@pytest.mark.parametrize("header", [True, False])
def test_a_trailing_delimiter_on_every_line_is_named_not_sent_to_missing_drop(tmp_path, header):
    """Session 18: a CSV file whose lines all end with the delimiter (some exporters write
    them; pandas reads an "Unnamed" column of NaN) was told "missing value '' in column 4
    ... Pass missing='drop'", and with missing='drop', "every data row has a missing value.
    Fill them in": advice that went round in a circle. The message now names the trailing
    delimiter and how to remove it, in both readers."""
    from skewlearn.datasets import iter_chunks

    pd = pytest.importorskip("pandas")
    p = tmp_path / "t.csv"
    p.write_text(("a,b,y,\n" if header else "") + "1,2,1,\n3,4,0,\n5,6,0,\n")
    assert pd.read_csv(p, header=0 if header else None).iloc[:, 3].isna().all()
    opts = {"header": header, "label_column": 2}
    match = r"t\.csv, line \d: the line ends with the delimiter ',' \(an empty last field\)"
    fix = r"remove the trailing delimiters"
    for missing in ("error", "drop"):
        with pytest.raises(ValueError, match=f"{match}.*{fix}"):
            read_csv(p, missing=missing, **opts)
        for known in ({}, {"positive_class": 1}):
            with pytest.raises(ValueError, match=f"{match}.*{fix}"):
                list(iter_chunks(p, 2, missing=missing, **known, **opts))
    # one row with an empty last value among full ones stays a missing value to drop
    p.write_text(("a,b,y,c\n" if header else "") + "1,2,1,7\n3,4,0,\n5,6,0,8\n")
    assert read_csv(p, missing="drop", **opts)[0].shape == (2, 3)


@pytest.mark.parametrize("index", ["³", "٣", "+1", "1.0"])
def test_an_arff_sparse_index_that_is_not_ascii_digits_is_named_with_its_line(tmp_path, index):
    """Session 18: `str.isdigit` passed the superscript '³' to ``int()`` (a bare "invalid
    literal for int()" naming neither file nor line) and read the Arabic-Indic '٣' as
    attribute 3; '+1' and '1.0' were already refused."""
    p = tmp_path / "s.arff"
    p.write_text(
        "@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute c {x,y}\n"
        f"@data\n{{0 1, 2 y}}\n{{{index} 1}}\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"s\.arff, line 7: malformed sparse entry"):
        read_arff(p)


def test_numbered_names_answer_in_for_any_string_as_the_list_does():
    """Session 18: ``"x³" in NumberedNames(...)`` raised ValueError from ``int("³")``
    (``str.isdigit`` passes superscripts); the list it stands for answers False."""
    from skewlearn.datasets.readers import NumberedNames

    names = NumberedNames(5, 1)
    for name in ("x³", "x٣", "x²", "x1", "x01", "x", "y1"):
        assert (name in names) == (name in list(names))


def test_a_repeated_column_name_is_named_on_the_header_line(tmp_path):
    """Session 18: the message said "line 1" wherever the header was (blank lines may
    come before it; both readers skip them)."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / "dup.csv"
    p.write_text("\n  \na,a,y\n1,2,1\n3,4,0\n")
    match = r"dup\.csv, line 3: column name 'a' appears twice"
    with pytest.raises(ValueError, match=match):
        read_csv(p)
    with pytest.raises(ValueError, match=match):
        iter_chunks(p)


def test_a_blank_separated_table_named_txt_is_told_it_is_not_libsvm(tmp_path):
    """Session 18: a table of numbers separated by blanks, named `.txt` (LIBSVM to
    `read`), was told "token '2' is not index:value. Write features as index:value": the
    file has no index:value pair at all, and the message now says what it is and how to
    read it. A LIBSVM line with one bad token keeps the old advice."""
    from skewlearn.datasets import iter_chunks, load

    p = tmp_path / "table.txt"
    p.write_text("1 2 1\n3 4 0\n5 6 0\n")
    match = r"table\.txt, line 1: token '2' is not index:value.*no index:value pair.*CSV"
    with pytest.raises(ValueError, match=match):
        load(p)
    with pytest.raises(ValueError, match=match):
        list(iter_chunks(p))
    p.write_text("1 1:2 2\n-1 1:1\n")
    with pytest.raises(ValueError, match=r"line 1: token '2' is not index:value\. Write feat"):
        load(p)


# ------------------------------------------------ session 19: a label that is not last
def _label_first_csv(path: Path, header: bool = True) -> Path:
    """A CSV file whose label (text) is its first column and whose last column holds
    distinct numbers, as a new user's file often is."""
    lines = ["y,a,b"] if header else []
    lines += [f"{'pos' if i % 4 == 0 else 'neg'},{i * 0.5},{i * 0.25 + 0.1}" for i in range(12)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["read_csv", "load", "iter_chunks"])
def test_a_text_label_in_another_column_is_named_as_the_fix(tmp_path, how):
    """Session 19: with the label first, the message said only "Fix the value, or pass
    nominal_columns=[...] to one-hot encode the column", which one-hot encodes the label
    and then reads the last (numeric) column as twelve "classes". It now also says how
    to read the label from that column, and which column is read as the label."""
    from skewlearn.datasets import iter_chunks, load

    path = _label_first_csv(tmp_path / "first.csv")
    readers = {
        "read_csv": lambda: read_csv(path),
        "load": lambda: load(path),
        "iter_chunks": lambda: next(iter(iter_chunks(path, 5, positive_class="pos"))),
    }
    with pytest.raises(ValueError, match="non-numeric value 'pos'") as info:
        readers[how]()
    assert "if it is the label, label_column='y' (the label is read from column 3, 'b')" in str(
        info.value
    )
    assert read_csv(path, label_column="y")[1][0] == "pos"  # the fix works


def test_a_text_label_in_a_headerless_file_is_named_by_its_index(tmp_path):
    from skewlearn.datasets import iter_chunks

    path = _label_first_csv(tmp_path / "first.csv", header=False)
    for reader in (
        lambda: read_csv(path, header=False),
        lambda: next(iter(iter_chunks(path, 5, header=False, positive_class="pos"))),
    ):
        with pytest.raises(ValueError, match=r"label_column=0 \(the label is read from column 3"):
            reader()
    assert read_csv(path, header=False, label_column=0)[1][0] == "pos"


@pytest.mark.parametrize("how", ["load", "iter_chunks"])
def test_numbers_read_as_many_classes_point_to_the_label_column(tmp_path, how):
    """Following the old advice (one-hot encode the label) read the last column's twelve
    numbers as labels, and the message offered only positive_class=. It now says which
    column was read as the label and that label_column= picks another. A LIBSVM file has
    no label column to pick: its message does not mention one."""
    from skewlearn.datasets import iter_chunks, load

    path = _label_first_csv(tmp_path / "first.csv")
    run = {
        "load": lambda p, **kw: load(p, **kw),
        "iter_chunks": lambda p, **kw: iter_chunks(p, 5, **kw),
    }[how]
    with pytest.raises(ValueError, match="labels have 12 classes") as info:
        run(path, nominal_columns=["y"])
    assert "if column 'b' is not the label, label_column=COL" in str(info.value)
    svm = tmp_path / "multi.svm"
    svm.write_text("".join(f"{k} 1:{k}\n" for k in (1, 2, 3)), encoding="utf-8")
    with pytest.raises(ValueError, match="labels have 3 classes") as info:
        run(svm)
    assert "label_column" not in str(info.value)


def test_a_libsvm_file_named_csv_is_named_as_libsvm(tmp_path):
    """Session 19: a LIBSVM file with a .csv name was "values separated by spaces ...
    Convert the file to commas (tr -s ' ' ',')", advice that makes "1:0.5" a text value.
    Its first row is a label and index:value pairs: the message says it is LIBSVM, and
    reading it as such works."""
    from skewlearn.datasets import iter_chunks, load

    p = tmp_path / "train.csv"
    p.write_text("1 1:0.5 3:2\n-1 2:1.5\n1 1:1 2:1\n")
    match = r"line 1: .* is a label and index:value pairs: the file looks like LIBSVM"
    for reader in (lambda: read_csv(p), lambda: load(p), lambda: iter_chunks(p)):
        with pytest.raises(ValueError, match=match) as info:
            reader()
        assert "format='libsvm', or name it .svm" in str(info.value)
    X, y, _ = read(p, format="libsvm")  # the advice works
    assert X.shape == (3, 3) and y.tolist() == [1, -1, 1]


@pytest.mark.parametrize("name", ["t.tsv", "t.TSV", "t.tsv.gz"])
def test_a_tsv_extension_is_read_as_delimited_text_by_every_entry(tmp_path, name):
    # Session 22: read, load and iter_chunks refused a .tsv file ("cannot tell the format
    # from the extension"), and the command line, which has no format option, could not
    # read one at all. .tsv now means CSV with the delimiter sniffed (tab).
    import gzip

    from skewlearn.datasets import iter_chunks, load, read, read_csv

    text = "a\tb\ty\n1.5\t2\tpos\n3\t4.25\tneg\n5\t6\tneg\n"
    path = tmp_path / name
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode("utf-8")))
    else:
        path.write_text(text, encoding="utf-8")
    X0, y0, meta0 = read_csv(path)
    assert X0.tolist() == [[1.5, 2.0], [3.0, 4.25], [5.0, 6.0]] and meta0["feature_names"] == [
        "a",
        "b",
    ]
    X, y, meta = read(path)
    np.testing.assert_array_equal(X, X0)
    assert y.tolist() == y0.tolist() and meta["feature_names"] == ["a", "b"]
    X, y, meta = load(str(path), positive_class="pos")
    np.testing.assert_array_equal(X, X0)
    assert y.tolist() == [1, -1, -1]  # load labels +1 (positive_class) and -1
    chunks = list(iter_chunks(path, positive_class="pos"))
    np.testing.assert_array_equal(np.vstack([np.asarray(c[0]) for c in chunks]), X0)
    assert np.concatenate([c[1] for c in chunks]).tolist() == [1, -1, -1]


def _compressed(kind: str, data: bytes) -> bytes:
    """``data`` compressed as ``kind`` by the standard library (zstd, which it lacks in
    Python 3.11: the format's magic number and frame bytes that are never decoded)."""
    import bz2
    import io
    import lzma
    import zipfile

    if kind == "bzip2":
        return bz2.compress(data)
    if kind == "xz":
        return lzma.compress(data)
    if kind == "zip":
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            z.writestr("toy.csv", data)
        return out.getvalue()
    return b"\x28\xb5\x2f\xfd" + bytes(range(32))


@pytest.mark.parametrize(
    ("suffix", "kind", "command"),
    [
        (".bz2", "bzip2", "bunzip2"),
        (".xz", "xz", "unxz"),
        (".zst", "zstd", "unzstd"),
        (".zip", "zip", "unzip"),
        (".BZ2", "bzip2", "bunzip2"),
    ],
)
def test_a_compressed_file_named_by_its_suffix_is_named_as_such(
    tmp_path, capsys, suffix, kind, command
):
    """Session 23: session 16 names a bzip2/xz/zstd/zip file by its bytes, but a file
    named as such (`data.csv.bz2`) stopped first at the extension check: "cannot tell the
    format from the extension '.bz2'" with the list of extensions, so the advice was to
    rename it (after which the bytes check said to decompress). The suffix now gets the
    bytes check's message, with its command, from `read`, `load`, `iter_chunks` and the
    command line. A plain file so named is not called compressed (probe v): it gets the
    extension message, whose format= fix reads it."""
    from skewlearn.cli import main
    from skewlearn.datasets import iter_chunks, load

    text = b"a,b,label\n1,2,1\n3,4,0\n5,6,0\n"
    p = tmp_path / f"toy.csv{suffix}"
    p.write_bytes(_compressed(kind, text))
    match = rf"toy\.csv\{suffix}: the file is {kind}-compressed; skewlearn reads plain"
    for call in (read, load, lambda q: list(iter_chunks(q))):
        with pytest.raises(ValueError, match=match) as exc:
            call(p)
        assert f"({command}" in str(exc.value)
    with pytest.raises(SystemExit) as exc:
        main(["stream", str(p), "--model", "OGD", "--no-progress"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"{kind}-compressed" in err and "extension" not in err
    # a plain file with that name: the extension message, and format= reads it
    p.write_bytes(text)
    for call in (read, load, lambda q: list(iter_chunks(q))):
        with pytest.raises(ValueError, match=r"cannot tell .*format.* extension") as exc:
            call(p)
        assert f"{kind}-compressed" not in str(exc.value)
    X, y, _ = read(p, format="csv")
    np.testing.assert_array_equal(X, [[1, 2], [3, 4], [5, 6]])


def _each_reader_refuses(path, header: bool, where: str) -> None:
    """``read_csv``, ``load`` and ``iter_chunks`` each refuse ``path`` with ``where``."""
    from skewlearn.datasets import iter_chunks, load

    for call in (
        lambda: read_csv(path, header=header),
        lambda: load(path, header=header),
        lambda: list(iter_chunks(path, header=header)),
    ):
        with pytest.raises(ValueError, match=where):
            call()


@pytest.mark.parametrize("sep, ext", [("\t", ".tsv"), ("\t", ".csv"), (";", ".csv"), ("|", ".csv")])
@pytest.mark.parametrize("header", [True, False])
def test_a_short_line_in_a_file_not_separated_by_commas_is_named(tmp_path, sep, ext, header):
    """Session 23: one short line made the csv module's sniffer give up, and the reader
    then took ',' for the delimiter. A tab-separated file was told its first row "holds no
    ',', ';', tab or '|' but blanks" (it holds tabs), and a ';' file was read as one
    column, its whole lines as labels ("labels have 3 classes"). The delimiter now comes
    from the first line when the sniffer gives up, and the error names the short line."""

    rows = ["1 2 1", "3 4", "5 6 0", "7 8 0"]
    lines = (["a b label"] if header else []) + rows
    path = tmp_path / f"short{ext}"
    path.write_text("".join(line.replace(" ", sep) + "\n" for line in lines), encoding="utf-8")
    where = rf"line {3 if header else 2}: 2 values where 3 are expected"
    _each_reader_refuses(path, header, where)
    # the same file without the short line is read with its delimiter
    path.write_text(
        "".join(line.replace(" ", sep) + "\n" for line in lines if line != "3 4"),
        encoding="utf-8",
    )
    X, y, _ = read_csv(path, header=header)
    np.testing.assert_array_equal(X, [[1, 2], [5, 6], [7, 8]])


@pytest.mark.parametrize("inner", ["|", ";"])
def test_a_wide_comma_file_whose_names_hold_another_delimiter_is_read_by_commas(tmp_path, inner):
    """Session 23 (probe w): the sniffer reads the first 8 KiB, which cut a long line in
    two; that short piece made it give up on every file of more than ~820 characters a
    line (10 lines or fewer in 8 KiB: ~100 numeric columns), valid or not. 868a167 then
    took the delimiter the first line holds most, so a valid comma file whose header
    names hold '|' or ';' (pandas' flattened columns, "s0|mean|v") was split at those and
    refused ("1 values where 241 are expected"); before it, ',' was taken and it was read.
    The sniffer now sees whole lines only."""
    from skewlearn.datasets import iter_chunks, load

    d = 120
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(8, d)), 6)
    y = np.array([0, 1] * 4)
    names = [f"s{j}{inner}mean{inner}v" for j in range(d)] + ["label"]
    path = tmp_path / "wide.csv"
    lines = [",".join(names)] + [",".join([*map(repr, r.tolist()), str(c)]) for r, c in zip(X, y)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert len(lines[1]) > 820  # the sniffer's 8 KiB hold 10 lines or fewer
    Xr, yr, meta = read_csv(path)
    np.testing.assert_array_equal(Xr, X)
    np.testing.assert_array_equal(yr, y)
    assert meta["delimiter"] == "," and meta["feature_names"] == names[:-1]
    np.testing.assert_array_equal(load(path, positive_class=1)[0], X)
    chunks = list(iter_chunks(path, chunk_size=3))
    np.testing.assert_array_equal(np.vstack([c[0] for c in chunks]), X)
    from skewlearn.datasets.readers import _read_csv_careful

    Xc, _, meta_c = _read_csv_careful(path)
    np.testing.assert_array_equal(Xc, X)
    assert meta_c["delimiter"] == ","


@pytest.mark.parametrize("before", ["", "\n\n"])
def test_a_file_whose_first_line_outgrows_the_sniffers_sample_keeps_its_delimiter(tmp_path, before):
    """The sniffer's sample is cut back to whole lines only when one is there: a header
    longer than 8 KiB (alone, or after blank lines) is sniffed from its piece, as before
    (cut back to nothing, or to the blank lines, the ';' file would be read by ',')."""
    from skewlearn.datasets import iter_chunks

    d = 1200
    X = np.round(np.random.default_rng(1).normal(size=(3, d)), 5)
    path = tmp_path / "wider.csv"
    rows = [";".join([*map(repr, r.tolist()), str(c)]) for r, c in zip(X, [0, 1, 0])]
    path.write_text(
        before + "\n".join([";".join([f"feature{j}" for j in range(d)] + ["y"]), *rows]) + "\n",
        encoding="utf-8",
    )
    Xr, _, meta = read_csv(path)
    assert meta["delimiter"] == ";"
    np.testing.assert_array_equal(Xr, X)
    np.testing.assert_array_equal(np.vstack([c[0] for c in iter_chunks(path)]), X)


@pytest.mark.parametrize("before", ["", "\n\n"])
@pytest.mark.parametrize(("delimiter", "inner"), [("|", ","), (";", ","), (",", "|")])
def test_names_longer_than_the_sniffers_sample_do_not_choose_the_delimiter(
    tmp_path, before, delimiter, inner
):
    """Session 24: a header longer than 8 KiB (a wide file's names) was sniffed from its
    first 8 KiB alone, so a '|' or ';' file whose names hold commas (``f,0|f,1|…``) was
    split at the commas and refused ("1 values where 1201 are expected"). The sample is
    now the first three whole lines, whose data rows settle it."""
    from skewlearn.datasets import iter_chunks, load
    from skewlearn.datasets.readers import _read_csv_careful

    d = 1200
    X = np.round(np.random.default_rng(2).normal(size=(4, d)), 5)
    y = [0, 1, 0, 1]
    names = [f"feature{inner}{j}" for j in range(d)] + ["y"]
    rows = [delimiter.join([*map(repr, r.tolist()), str(c)]) for r, c in zip(X, y)]
    path = tmp_path / "wide_names.csv"
    path.write_text(before + "\n".join([delimiter.join(names), *rows]) + "\n", encoding="utf-8")
    assert len(delimiter.join(names)) > 8192
    Xr, yr, meta = read_csv(path)
    assert meta["delimiter"] == delimiter and meta["feature_names"] == names[:-1]
    np.testing.assert_array_equal(Xr, X)
    np.testing.assert_array_equal(yr, y)
    np.testing.assert_array_equal(_read_csv_careful(path)[0], X)
    np.testing.assert_array_equal(load(path, positive_class=1)[0], X)
    np.testing.assert_array_equal(np.vstack([c[0] for c in iter_chunks(path, chunk_size=3)]), X)


@pytest.mark.parametrize("inner", ["|", ";"])
@pytest.mark.parametrize("header", [True, False])
def test_a_short_line_in_a_comma_file_whose_names_hold_another_delimiter_is_named(
    tmp_path, inner, header
):
    """Session 23 (probe w): when the sniffer gives up (one short line), 868a167 took the
    delimiter the first line holds most, so a comma file whose names hold '|' or ';' more
    often than commas ("a|b|c,d|e|f,label") was split at those, and the error named line 2,
    a good row, "1 values where 5 are expected"; 868a167^ named the short line. The
    fallback now takes the delimiter most lines agree on."""

    names = f"a{inner}b{inner}c,d{inner}e{inner}f,label"
    rows = ["1,2,0", "3,4,1", "5,6", "7,8,0", "9,10,1"]
    path = tmp_path / "names.csv"
    path.write_text("\n".join(([names] if header else []) + rows) + "\n", encoding="utf-8")
    where = rf"line {4 if header else 3}: 2 values where 3 are expected"
    _each_reader_refuses(path, header, where)


def test_the_sniffers_fallback_breaks_a_tie_by_the_first_line():
    """When the csv sniffer gives up, the delimiter whose commonest count most lines share
    is taken; between equals, the one the first line holds most (868a167's rule), then
    the order ``, ; tab |``."""
    from skewlearn.datasets.readers import _sniff_delimiter

    assert _sniff_delimiter("a;b;c\n1,2\n3;4;5\n6,7\n") == ";"  # 2 lines each: the first's
    assert _sniff_delimiter("1,2\na;b;c\n6,7\n3;4;5\n") == ","
    assert _sniff_delimiter("a b\n1 2 3\n") == ","  # none: ","
    assert _sniff_delimiter("a;b|c\n1;2|3;4\n5|6|7;8\n") == ";"  # all equal: the order


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize(
    ("d", "pad"),
    [(400, "x" * 10), (3000, "x" * 8)],  # names of 7 KiB, rows of 3 KiB; names 45 KiB, rows 25
    ids=["names-under-8KiB", "names-and-a-row-past-the-64KiB-peek"],
)
def test_names_whose_first_kib_hold_no_data_row_do_not_choose_the_delimiter(tmp_path, gz, d, pad):
    """Session 24 (probe r): the sniffer's three-line sample was taken only when no whole
    line fitted in 8 KiB. Names of 7 KiB with rows of 3 KiB left it the names alone, as
    did iter_chunks' 64 KiB peek for names of 50 KiB and rows of 25 KiB (it grew only
    until the names were whole): a '|' file whose names hold commas was split at the
    commas and refused, while names of 9 KiB read. Every reader now sniffs the first
    three whole lines when its first 8 KiB hold fewer."""
    from skewlearn.datasets import iter_chunks, load
    from skewlearn.datasets.readers import _read_csv_careful

    X = np.round(np.random.default_rng(3).normal(size=(4, d)), 5)
    y = [0, 1, 0, 1]
    names = [f"f,{pad}{j}" for j in range(d)] + ["y"]
    rows = ["|".join([*map(repr, r.tolist()), str(c)]) for r, c in zip(X, y)]
    text = "\n".join(["|".join(names), *rows]) + "\n"
    path = tmp_path / ("wide.csv.gz" if gz else "wide.csv")
    if gz:
        path.write_bytes(gzip.compress(text.encode("utf-8")))
    else:
        path.write_text(text, encoding="utf-8")
    assert len("|".join(names)) < (8192 if d == 400 else 1 << 16)  # the names fit
    first_two = len("|".join(names)) + 1 + len(rows[0])
    assert first_two > (8192 if d == 400 else 1 << 16)  # no data row whole in the sample
    Xr, yr, meta = read_csv(path)
    assert meta["delimiter"] == "|" and meta["feature_names"] == names[:-1]
    np.testing.assert_array_equal(Xr, X)
    np.testing.assert_array_equal(yr, y)
    np.testing.assert_array_equal(_read_csv_careful(path)[0], X)
    np.testing.assert_array_equal(load(path, positive_class=1)[0], X)
    chunks = iter_chunks(path, chunk_size=3)
    np.testing.assert_array_equal(np.vstack([c[0] for c in chunks]), X)
    assert chunks.delimiter == "|"


@pytest.mark.parametrize("memory_map", [True, False])
@pytest.mark.parametrize(
    "fmt, body, change, kw",
    [
        # rows appended: a class of their own; with the first rows a different minority
        ("svm", "".join(f"{'+1' if i % 3 == 0 else '-1'} 1:{i}\n" for i in range(6)),
         "+1 1:9\n" * 5, {}),
        ("csv", "a,b,c\n" + "".join(f"{i},x{i % 2},{'p' if i % 3 == 0 else 'n'}\n"
                                   for i in range(6)), "9,x1,q\n", {"nominal_columns": ["b"]}),
        # the file rewritten shorter
        ("csv", "a,c\n" + "".join(f"{i},{'p' if i % 3 == 0 else 'n'}\n" for i in range(6)),
         None, {}),
    ],
    ids=["libsvm-appended", "csv-appended", "csv-rewritten-shorter"],
)  # fmt: skip
def test_iter_chunks_refuses_a_file_changed_after_its_counting_pass(
    tmp_path, fmt, body, change, kw, memory_map
):
    """Session 25: the chunks are a second pass over the file. A file appended to (a log
    that grows) or rewritten after the counting pass was read as it then was while
    ``n_rows``, the positive (minority) class, the categories and ``n_features`` came
    from the first pass: 11 rows yielded with ``n_rows == 6``, a new class mapped to -1
    and a positive class that was no longer the minority, without a word."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / f"f.{fmt}"
    p.write_text(body, encoding="utf-8")
    stream = iter_chunks(p, chunk_size=2, memory_map=memory_map, **kw)
    assert stream.n_rows == 6
    assert sum(len(y) for _, y in stream) == 6  # unchanged: read as counted, again and again
    assert sum(len(y) for _, y in stream) == 6
    if change is None:
        p.write_text(body[: body.index("\n3,")] + "\n", encoding="utf-8")
    else:
        with open(p, "a", encoding="utf-8") as fh:
            fh.write(change)
    match = r"f\.\w+ changed after its counting pass .*positive_class="
    with pytest.raises(ValueError, match=match):
        next(iter(stream))
    # a new stream reads it as it now is
    given = {"positive_class": "p"} if fmt == "csv" else {"positive_class": 1, "n_features": 1}
    rows = len(p.read_text(encoding="utf-8").splitlines()) - (fmt == "csv")
    assert sum(len(y) for _, y in iter_chunks(p, chunk_size=2, **given, **kw)) == rows


@pytest.mark.parametrize("option", ["drop_columns", "nominal_columns"])
@pytest.mark.parametrize("one", ["a", b"a"])
def test_one_column_name_for_a_list_option_is_refused_as_str_or_bytes(tmp_path, option, one):
    """Session 27 (probe n's mutation sweep): ``bytes`` was refused beside ``str`` and no
    test held it; a list of its byte values (97 for ``b"a"``) would be column indices."""
    from skewlearn.datasets import iter_chunks, read_csv

    p = tmp_path / "f.csv"
    p.write_text("a,b,c\n1,2,0\n3,4,1\n", encoding="utf-8")
    for reader in (read_csv, iter_chunks):
        with pytest.raises(TypeError, match=rf"^{option} must be a list of column names"):
            reader(p, **{option: one})


@pytest.mark.parametrize("change", ["same-size-edit", "append-same-mtime", "replaced-same-stat"])
def test_each_part_of_the_counted_file_state_tells_a_change(tmp_path, change):
    """Session 27 (probe n's mutation sweep): the appended and rewritten files above change
    size and modification time at once, so leaving out any one of device/inode, size and
    modification time kept every test passing. Each tells one change the others miss: an
    edit in place of the same length (a label rewritten: only the time), rows appended
    within the file system's time granularity (only the size), and a file of the same
    size and time renamed over it (``mv``, ``rsync`` with times kept: only the inode)."""
    import os

    from skewlearn.datasets import iter_chunks

    p = tmp_path / "f.csv"
    body = "a,c\n" + "".join(f"{i},{'p' if i % 3 == 0 else 'n'}\n" for i in range(6))
    p.write_text(body, encoding="utf-8")
    stream = iter_chunks(p, chunk_size=2)
    assert sum(len(y) for _, y in stream) == 6
    before = os.stat(p)
    if change == "same-size-edit":
        with open(p, "r+", encoding="utf-8") as fh:  # the same inode, the same size
            fh.seek(len("a,c\n0,"))
            fh.write("q")
        os.utime(p, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    elif change == "append-same-mtime":
        with open(p, "a", encoding="utf-8") as fh:
            fh.write("9,q\n")
        os.utime(p, ns=(before.st_atime_ns, before.st_mtime_ns))
    else:
        other = tmp_path / "g.csv"
        other.write_text(body.replace("0,p", "0,q"), encoding="utf-8")
        os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
        os.replace(other, p)
    after = os.stat(p)
    assert [after.st_ino != before.st_ino, after.st_size != before.st_size,
            after.st_mtime_ns != before.st_mtime_ns].count(True) == 1  # fmt: skip
    with pytest.raises(ValueError, match=r"f\.csv changed after its counting pass"):
        next(iter(stream))


@pytest.mark.parametrize("memory_map", [True, False])
@pytest.mark.parametrize("fmt", ["csv", "keel"])
def test_iter_chunks_reads_a_file_as_it_was_when_the_pass_began(tmp_path, fmt, memory_map):
    """Session 25: rows appended while the chunks are read were read by the paths that do
    not map the file (``memory_map=False``, documented as giving the same rows as the map;
    KEEL and nominal CSV files, read line by line, always), so the rows depended on the
    path and a growing log gave more rows than ``n_rows``; a file cut short under them
    ended the pass early without a word. Now every path reads the bytes the file had when
    the pass began, and a file that shrinks under the reader is a ValueError (under a map
    the operating system ends the process, the documented limit, so not tried here)."""
    from skewlearn.datasets import iter_chunks

    p = tmp_path / ("f.csv" if fmt == "csv" else "f.dat")
    rows = "".join(f"{i},{'p' if i % 3 == 0 else 'n'}\n" for i in range(3000))
    if fmt == "csv":
        head = "a,c\n"
    else:
        head = "@relation r\n@attribute a real\n@attribute c {p,n}\n@data\n"
    p.write_text(head + rows, encoding="utf-8")

    def read_while(change):
        stream = iter_chunks(p, chunk_size=100, block_bytes=1024, memory_map=memory_map)
        n = 0
        for i, (_, y) in enumerate(stream):
            n += len(y)
            if i == 2:
                change()
        return stream.n_rows, n

    def append():
        with open(p, "a", encoding="utf-8") as fh:
            fh.write("9,q\n" * 500)

    assert read_while(append) == (3000, 3000)
    if memory_map and fmt == "csv":
        return  # a mapped file cut short: SIGBUS (docs/reliability.md)
    p.write_text(head + rows, encoding="utf-8")

    def cut():
        with open(p, "r+", encoding="utf-8") as fh:
            fh.truncate(len(head) + len(rows) // 2)

    with pytest.raises(ValueError, match=r"f\.\w+ was cut short while being read .*a copy"):
        read_while(cut)


def test_header_false_on_a_file_with_names_says_to_read_the_header(tmp_path, capsys):
    """Session 26: ``header=False`` (``--no-header``) on a file whose first line is its
    column names was told to fix the value, one-hot encode the column, drop it, or take
    it as the label: the fix is the header. A first line that holds a number keeps the
    ordinary advice."""
    from skewlearn.cli import main
    from skewlearn.datasets import iter_chunks

    named = tmp_path / "named.csv"
    named.write_text("a,b,label\n" + "".join(f"{i},{i % 3},{i % 2}\n" for i in range(30)),
                     encoding="utf-8")  # fmt: skip
    words = r"line 1: non-numeric value 'a'.*The first line looks like column names.*header=True"
    with pytest.raises(ValueError, match=words) as info:
        read_csv(named, header=False)
    assert "nominal_columns" not in str(info.value) and "label_column" not in str(info.value)
    with pytest.raises(ValueError, match=words):
        list(iter_chunks(named, header=False, chunk_size=7))
    with pytest.raises(SystemExit) as stop:
        main(["stream", str(named), "--model", "Perceptron", "--no-header", "--no-progress"])
    assert stop.value.code == 2
    assert "--no-header reads it as data: leave out --no-header." in capsys.readouterr().err
    # a first line with a number in it is data: the ordinary advice
    data = tmp_path / "data.csv"
    data.write_text("x,1,0\n" + "".join(f"{i},{i % 3},{i % 2}\n" for i in range(30)),
                    encoding="utf-8")  # fmt: skip
    for call in (lambda: read_csv(data, header=False),
                 lambda: list(iter_chunks(data, header=False, chunk_size=7))):  # fmt: skip
        with pytest.raises(ValueError, match=r"non-numeric value 'x'.*nominal_columns") as info:
            call()
        assert "column names" not in str(info.value)


def _both_readers_say(path, nominal: bool = True, **kw) -> str:
    """The message of ``read_csv`` and ``iter_chunks`` on ``path``, checked to be the same
    with the third column dropped (the compiled parser's chunks, and one row at a time)
    and, if ``nominal``, taken as nominal (the careful reader's chunks)."""
    from skewlearn.datasets import iter_chunks

    said = set()
    for extra in ({"drop_columns": [2]}, {"nominal_columns": [2]})[: 1 + nominal]:
        with pytest.raises(ValueError) as info:
            read_csv(path, **kw, **extra)
        said.add(str(info.value))
        for size in (1, 7):
            with pytest.raises(ValueError) as info:
                list(iter_chunks(path, chunk_size=size, **kw, **extra))
            said.add(str(info.value))
    assert len(said) == 1, said
    return said.pop()


@pytest.mark.parametrize(
    "text, names",
    [
        # text columns without names: the second line holds no number either
        ("red,small,q,p\n" + "blue,large,q,n\n" * 3, False),
        # the names after a blank line: the first non-blank line, as read_csv sees it
        ("\n \na,b,c,label\n" + "1,2,q,p\n3,4,q,n\n" * 3, True),
        # a blank line after the names: the next non-blank line is the one judged
        ("a,b,c,label\n\n \n" + "1,2,q,p\n3,4,q,n\n" * 3, True),
        # a blank name in the dropped column is no missing value (an index's, from pandas)
        ("a,b,,label\n" + "1,2,,p\n3,4,,n\n" * 3, True),
    ],
)
def test_header_false_names_line_is_judged_alike_by_both_readers(tmp_path, text, names):
    """Session 27: iter_chunks took any first line without a number for the names (it did
    not look at the second line, as read_csv does: a file of text columns was told to read
    its header), and only at line 1 (names after a blank line were told to fix the value)."""
    path = tmp_path / "f.csv"
    path.write_text(text, encoding="utf-8")
    # (not as nominal: iter_chunks counts the classes first, and the names line's label
    # is a third one)
    said = _both_readers_say(path, nominal=False, header=False)
    assert ("The first line looks like column names" in said) is names, said
    assert ("nominal_columns" in said) is not names, said


def test_header_false_names_line_longer_than_the_first_peek(tmp_path):
    """Session 27: iter_chunks peeks at the file's start until it holds the first line;
    with the delimiter given (no sniffing), a peek that ends before the second line is
    grown until it holds it, for the names line to be judged as read_csv judges it."""
    path = tmp_path / "wide.csv"
    width = 12000  # > 64 KiB of names
    names = ",".join(f"c{j:05d}" for j in range(width)) + ",label\n"
    # (the peek grows to 256 KiB for the names; the row after them ends beyond it)
    path.write_text(names + ("1.00000000000000," * width + "p\n") * 2, encoding="utf-8")
    said = _both_readers_say(path, nominal=False, header=False, delimiter=",")
    assert "line 1: non-numeric value 'c00000'" in said and "column names" in said


def test_header_false_names_advice_is_not_given_for_a_later_line(tmp_path):
    """Session 27: with missing='drop', a first line without a number but with a missing
    value is dropped, and a text value on a later line was told that the first line looks
    like column names (read_csv, and iter_chunks with nominal columns)."""
    path = tmp_path / "f.csv"
    path.write_text("?,x,q,p\n1,2,q,p\n3,y,q,n\n", encoding="utf-8")
    said = _both_readers_say(path, header=False, missing="drop")
    assert said.endswith("(the label is read from column 4, 'x4').") and "line 3:" in said
    assert "column names" not in said


@pytest.mark.parametrize(
    "text, words",
    [
        ("label\n1,2,p\n", "line 2: 3 values where 1 is expected"),
        ("3\n1,2,p\n", "line 2: 3 values where 1 is expected"),  # header=False
        ("a,b,label\n1,2,p\n3\n", "line 3: 1 value where 3 are expected"),
        ("a,label\n1,p\n3", "line 3: 1 value where 2 are expected"),  # no newline at the end
    ],
)
def test_a_rows_value_count_reads_right_for_one(tmp_path, text, words):
    """Session 27: a one-column file's short row read '3 values where 1 are expected'."""
    from skewlearn.datasets import iter_chunks

    path = tmp_path / "f.csv"
    path.write_text(text, encoding="utf-8")
    header = not text.startswith("3")
    for call in (
        lambda: read_csv(path, header=header),
        lambda: list(iter_chunks(path, header=header, chunk_size=1)),
        lambda: list(iter_chunks(path, header=header, chunk_size=1, nominal_columns=[0])),
    ):
        with pytest.raises(ValueError, match=re.escape(words)):
            call()
    # a KEEL file of the class alone: the careful reader's chunks
    keel = tmp_path / "k.dat"
    keel.write_text("@relation r\n@attribute c {p,n}\n@data\np\n1, n\n", encoding="utf-8")
    for call in (lambda: read(keel), lambda: list(iter_chunks(keel, chunk_size=1))):
        with pytest.raises(ValueError, match="line 5: 2 values where 1 is expected"):
            call()
