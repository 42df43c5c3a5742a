"""Readers against independent writers: files written by scikit-learn's
``dump_svmlight_file`` and pandas' ``to_csv`` read back exactly, by the whole-file readers
and by the chunked reader (session 16)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

from skewlearn.datasets import iter_chunks, load, read_arff, read_csv, read_libsvm

_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
#: scikit-learn writes "%.16g": the largest floats round up past float64's maximum (to inf),
#: so they stay below 1e300 here
finite = st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False, width=64)
#: values as a writer meets them: zeros (left out of LIBSVM rows), small and any floats
values = st.one_of(st.just(0.0), st.just(-0.0), st.integers(-9, 9).map(float), finite)
tables = st.tuples(st.integers(1, 5), st.integers(1, 9)).flatmap(
    lambda dn: st.tuples(
        st.lists(st.lists(values, min_size=dn[0], max_size=dn[0]), min_size=dn[1], max_size=dn[1]),
        st.lists(st.sampled_from([-1, 1, 0, 7]), min_size=dn[1], max_size=dn[1]),
    )
)


def _gather(stream):
    Xs, ys = [], []
    for X, y in stream:
        Xs.append(X.toarray() if sp.issparse(X) else X)
        ys.append(y)
    return np.vstack(Xs), np.concatenate(ys)


@_SETTINGS
@given(
    table=tables,
    zero_based=st.booleans(),
    qid=st.booleans(),
    comment=st.sampled_from([None, "written by scikit-learn", "ünïcode"]),
)
def test_dump_svmlight_file_reads_back_exactly(tmp_path, table, zero_based, qid, comment):
    rows, labels = table
    X = np.array(rows, dtype=np.float64)
    y = np.array(labels, dtype=np.int64)
    p = tmp_path / "dump.svm"
    query = np.arange(len(y)) // 2 if qid else None
    dump_svmlight_file(X, y, str(p), zero_based=zero_based, query_id=query, comment=comment)
    d = X.shape[1]
    Xr, yr, meta = read_libsvm(p, zero_based=zero_based, n_features=d)
    # the file holds "%.16g" of every non-zero: the same values as scikit-learn reads
    Xs, ys = load_svmlight_file(str(p), n_features=d, zero_based=zero_based)
    np.testing.assert_array_equal(Xr.toarray(), Xs.toarray())
    np.testing.assert_allclose(Xr.toarray(), X, rtol=1e-15, atol=0)
    np.testing.assert_array_equal(yr, y)
    np.testing.assert_array_equal(yr, ys)
    assert yr.dtype == np.int64
    assert meta["has_qid"] == qid
    if len(set(labels)) == 2:
        Xl, yl, _ = load(p, zero_based=zero_based, n_features=d)
        stream = iter_chunks(p, 2, zero_based=zero_based, n_features=d, block_bytes=1024)
        Xc, yc = _gather(stream)
        np.testing.assert_array_equal(Xc, Xl.toarray())
        np.testing.assert_array_equal(yc, yl)


def test_a_multilabel_dump_is_refused_with_its_line(tmp_path):
    p = tmp_path / "multi.svm"
    dump_svmlight_file(np.eye(2), [[0, 1], [1, 1]], str(p), multilabel=True, zero_based=False)
    with pytest.raises(ValueError, match=r"multi\.svm, line \d+: label '.*,.*' is not a number"):
        read_libsvm(p)
    with pytest.raises(ValueError, match=r"multi\.svm, line \d+: label '.*,.*' is not a number"):
        list(iter_chunks(p))


@_SETTINGS
@given(
    table=tables,
    sep=st.sampled_from([",", ";", "\t"]),
    crlf=st.booleans(),
    text_labels=st.booleans(),
)
def test_pandas_to_csv_reads_back_exactly(tmp_path, table, sep, crlf, text_labels):
    rows, labels = table
    X = np.array(rows, dtype=np.float64)
    names = [f"f{j}" for j in range(X.shape[1])]
    df = pd.DataFrame(X, columns=names)
    df["target"] = [f"class {v}" for v in labels] if text_labels else labels
    p = tmp_path / "frame.csv"
    df.to_csv(p, sep=sep, index=False, lineterminator="\r\n" if crlf else "\n")
    Xr, yr, meta = read_csv(p, label_column="target", delimiter=sep)
    np.testing.assert_array_equal(Xr, X + 0.0)
    assert meta["feature_names"] == names
    back = pd.read_csv(p, sep=sep)
    np.testing.assert_array_equal(yr, back["target"].to_numpy())
    np.testing.assert_array_equal(Xr, back[names].to_numpy(dtype=np.float64))
    if len(set(labels)) == 2:
        Xl, yl, _ = load(p, label_column="target", delimiter=sep)
        Xc, yc = _gather(iter_chunks(p, 3, label_column="target", delimiter=sep, block_bytes=1024))
        np.testing.assert_array_equal(Xc.view(np.int64), Xl.view(np.int64))
        np.testing.assert_array_equal(yc, yl)


@_SETTINGS
@given(
    table=tables,
    cats=st.lists(
        st.text(st.sampled_from("abcXYZ _-."), min_size=1, max_size=4).map(str.strip).filter(bool),
        min_size=2,
        max_size=4,
        unique=True,
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_arff_reads_as_scipy_reads_it(tmp_path, table, cats, seed):
    """Dense ARFF (numeric attributes, a quoted nominal one, a nominal class) against
    ``scipy.io.arff.loadarff``: the same numbers, categories and labels."""
    from scipy.io import arff

    rows, labels = table
    X = np.array(rows, dtype=np.float64)
    rng = np.random.default_rng(seed)
    colour = rng.choice(cats, size=len(rows))
    lines = ["@relation r"]
    lines += [f"@attribute f{j} numeric" for j in range(X.shape[1])]
    lines += ["@attribute colour {" + ",".join(f"'{c}'" for c in cats) + "}"]
    lines += ["@attribute class {-1,0,1,7}", "@data"]
    for r in range(len(rows)):
        lines.append(",".join([*map(repr, X[r].tolist()), f"'{colour[r]}'", str(labels[r])]))
    p = tmp_path / "t.arff"
    p.write_text("\n".join(lines) + "\n")
    Xr, yr, meta = read_arff(p)
    data, _ = arff.loadarff(str(p))
    np.testing.assert_array_equal(Xr[:, : X.shape[1]], X + 0.0)
    for j in range(X.shape[1]):
        np.testing.assert_array_equal(Xr[:, j], data[f"f{j}"])
    onehot = Xr[:, X.shape[1] :]
    assert meta["nominal"] == {"colour": cats}
    got = [cats[k] for k in onehot.argmax(axis=1)]
    assert got == [v.decode() for v in data["colour"]] == colour.tolist()
    assert (onehot.sum(axis=1) == 1).all()
    assert yr.tolist() == [int(v) for v in data["class"]] == labels


_blank = st.sampled_from([" ", "\t", "  ", " \t "])
_number_text = st.one_of(
    st.integers(-99, 99).map(str),
    finite.map(repr),
    finite.map(lambda v: f"{v:.6e}"),
    finite.map(lambda v: f"{v:+.3E}"),
    st.integers(0, 999).map(lambda k: f".{k}"),
    st.integers(0, 99).map(lambda k: f"{k}."),
)


@st.composite
def _spelled_libsvm(draw):
    """LIBSVM text as people and tools spell it: blanks and tabs of any width around the
    tokens (indices sorted: scikit-learn refuses others, which we read), qid, comments
    after a row and on their own, blank lines, CRLF or LF, with or without a last line
    end, and labels -1/+1/1."""
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        if draw(st.booleans()) and draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "   ", "# a comment", "\t# x 1:2"])))
        label = draw(st.sampled_from(["1", "-1", "+1"]))
        idx = sorted(draw(st.lists(st.integers(1, 20), unique=True, max_size=6)))
        toks = [label]
        if draw(st.booleans()) and draw(st.booleans()):
            toks.append(f"qid:{draw(st.integers(0, 9))}")
        toks += [f"{j}:{draw(_number_text)}" for j in idx]
        line = draw(_blank).join([""] * draw(st.integers(0, 1))) + toks[0]
        for t in toks[1:]:
            line += draw(_blank) + t
        if draw(st.booleans()):
            line += draw(_blank)
        if draw(st.booleans()) and draw(st.booleans()):
            line += "# note 3:4"
        lines.append(line)
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    return eol.join(lines) + (eol if draw(st.booleans()) else "")


@_SETTINGS
@given(text=_spelled_libsvm())
def test_hand_spelled_libsvm_reads_as_scikit_learn_reads_it(tmp_path, text):
    """Session 18: files spelt by hand (not by ``dump_svmlight_file``), read by
    ``read_libsvm``, ``load`` and ``iter_chunks`` at 1, 3 and 1,000 rows per chunk with
    1 KiB blocks, against scikit-learn's ``load_svmlight_file``."""
    p = tmp_path / "hand.svm"
    p.write_bytes(text.encode())
    X, y, _ = read_libsvm(p)
    d = max(X.shape[1], 1)
    Xs, ys = load_svmlight_file(str(p), n_features=d, zero_based=False)
    np.testing.assert_array_equal(read_libsvm(p, n_features=d)[0].toarray(), Xs.toarray())
    np.testing.assert_array_equal(y, ys)
    if len(set(y.tolist())) == 2:
        Xl, yl, _ = load(p)
        for cs in (1, 3, 1000):
            Xc, yc = _gather(iter_chunks(p, cs, block_bytes=1024))
            np.testing.assert_array_equal(Xc.view(np.int64), Xl.toarray().view(np.int64))
            np.testing.assert_array_equal(yc, yl)
