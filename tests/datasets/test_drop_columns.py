"""Session 26: ``drop_columns`` leaves columns of a CSV/TSV file out (River's
``stream.iter_csv(drop=...)``, pandas' ``usecols``): a timestamp or an id column can be
learned beside without editing the file.

The reference is the file with those columns cut out by hand (numpy, the csv module):
``read_csv(path, drop_columns=D)`` must give what ``read_csv`` gives for the cut file,
through the compiled path, the careful (text) path and the chunked reader at any chunk
boundary; the command line threads ``--drop-columns`` through ``stream``, ``compare``,
``cv``, ``--save`` and ``predict``."""

from __future__ import annotations

import csv
import io
import json
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skewlearn.cli import main
from skewlearn.datasets import iter_chunks, load, read, read_csv, streaming
from skewlearn.datasets import readers as R
from tests.test_cli import _fails


def _table(n=120, seed=0):
    """``(timestamps, ids, X, labels)`` of ``n`` rows: 3 numeric features."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 3)), 4)
    stamps = [f"2024-01-{1 + k % 28:02d} {k % 24:02d}:{k % 60:02d}:00" for k in range(n)]
    ids = [f"id{k}" for k in range(n)]
    labels = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0.8, "pos", "neg")
    return stamps, ids, X, labels


def _write(path, header, rows, delimiter=","):
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    if header is not None:
        w.writerow(header)
    w.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def _stamped(tmp_path, name="ts.csv", delimiter=",", header=True, n=120):
    """A file ``when, a, id, b, c, label``: a timestamp first and an id among the features."""
    stamps, ids, X, labels = _table(n)
    rows = [[s, f"{a!r}", i, f"{b!r}", f"{c!r}", lab]
            for s, i, (a, b, c), lab in zip(stamps, ids, X.tolist(), labels)]  # fmt: skip
    head = ["when", "a", "id", "b", "c", "label"] if header else None
    return _write(tmp_path / name, head, rows, delimiter), X, labels


def _chunked(path, size, **kw):
    stream = iter_chunks(path, size, **kw)
    parts = list(stream)
    return np.vstack([X for X, _ in parts]), np.concatenate([y for _, y in parts]), stream


# --------------------------------------------------------------------------- read_csv
def test_the_compiled_path_drops_a_timestamp_and_an_id_column(tmp_path, monkeypatch):
    p, X, labels = _stamped(tmp_path)
    monkeypatch.setattr(R, "_csv_from_text", None)  # the careful reader is not called
    got, y, meta = read_csv(p, drop_columns=["when", "id"])
    assert got.tobytes() == X.tobytes()
    assert y.tolist() == labels.tolist()
    assert meta["feature_names"] == ["a", "b", "c"] and meta["label_name"] == "label"
    # by index (negative too), in any order, a column named twice once
    got2, _, meta2 = read_csv(p, drop_columns=[2, -6, "when"])
    assert got2.tobytes() == X.tobytes() and meta2 == meta


def test_the_text_path_drops_columns_and_their_quoted_cells(tmp_path, monkeypatch):
    """A quoted cell holding a doubled quote sends the file to the careful reader (one
    holding the delimiter no longer does: session 27); a missing-value marker or text in
    a dropped column is no missing value and no error."""
    stamps, ids, X, labels = _table(40)
    rows = [[f"{s}, UTC" if k != 3 else f'{s}, "UTC"', f"{a!r}", "?" if k % 5 == 0 else i,
             f"{b!r}", f"{c!r}", lab]
            for k, (s, i, (a, b, c), lab)
            in enumerate(zip(stamps, ids, X.tolist(), labels))]  # fmt: skip
    p = _write(tmp_path / "q.csv", ["when", "a", "id", "b", "c", "label"], rows)
    assert '"2024-01-01 00:00:00, UTC"' in p.read_text(encoding="utf-8")
    calls = []
    real = R._csv_from_text
    monkeypatch.setattr(R, "_csv_from_text", lambda *a: calls.append(1) or real(*a))
    got, y, meta = read_csv(p, drop_columns=["when", "id"])
    assert calls, "the quoted file was to be read by the careful reader"
    assert got.tobytes() == X.tobytes() and y.tolist() == labels.tolist()
    assert meta["feature_names"] == ["a", "b", "c"] and meta["n_dropped"] == 0
    ref = R._read_csv_careful(p, drop_columns=["when", "id"])
    assert ref[0].tobytes() == got.tobytes() and ref[2] == meta


def test_a_missing_value_in_a_kept_column_still_counts_with_columns_dropped(tmp_path):
    """Only kept columns' missing values drop a row: also on a line the chunked reader's
    compiled parser hands to its careful one (the quoted label of line 6, whose separator
    0x1c ``str.strip`` removes: a simple quoted label is compiled since session 27)."""
    p = tmp_path / "m.csv"
    p.write_text('when,a,label\n2024-01-01,1,x\n?,2,y\n2024-01-03,?,x\n2024-01-04,4,y\n'
                 '?,5,"y\x1c"\n')  # fmt: skip
    X, y, meta = read_csv(p, drop_columns=["when"], missing="drop")
    assert X.ravel().tolist() == [1.0, 2.0, 4.0, 5.0] and meta["n_dropped"] == 1
    with pytest.raises(ValueError, match=r"line 4: missing value '\?' in 'a' \(column 2\)"):
        read_csv(p, drop_columns=["when"])
    chunks = list(iter_chunks(p, 2, drop_columns=["when"], missing="drop"))
    assert np.vstack([c[0] for c in chunks]).ravel().tolist() == [1.0, 2.0, 4.0, 5.0]


def test_a_byte_that_is_not_utf8_in_a_dropped_column_is_still_refused(tmp_path):
    """A dropped field is not read, but its bytes are checked as every line's are: the
    compiled parser hands a non-ASCII byte to the careful reader, which names it."""
    p = tmp_path / "b.csv"
    p.write_bytes(b"when,a,label\n2024-01-01 10:00,1,x\n2024-01-02 1\xff:00,2,y\n")
    for reader in _both(p, drop_columns=["when"]):
        with pytest.raises(ValueError, match=r"line 3.*UTF-8|UTF-8.*line 3"):
            reader()


@pytest.mark.parametrize("delimiter", [",", "\t", ";"])
@pytest.mark.parametrize("header", [True, False])
def test_headerless_and_tab_files_drop_by_index(tmp_path, delimiter, header):
    ext = "tsv" if delimiter == "\t" else "csv"
    p, X, labels = _stamped(tmp_path, f"f.{ext}", delimiter, header)
    got, y, meta = read_csv(p, drop_columns=[0, 2], header=header)
    assert got.tobytes() == X.tobytes() and y.tolist() == labels.tolist()
    assert meta["feature_names"] == (["a", "b", "c"] if header else ["x2", "x4", "x5"])
    assert meta["delimiter"] == delimiter
    got, _, _ = _chunked(p, 7, drop_columns=[0, 2], header=header, block_bytes=1024)
    assert got.tobytes() == X.tobytes()


def test_read_and_load_pass_drop_columns_through(tmp_path):
    p, X, labels = _stamped(tmp_path)
    assert read(p, drop_columns=["when", "id"])[0].tobytes() == X.tobytes()
    Xl, yl, meta = load(str(p), drop_columns=["when", "id"])
    assert Xl.tobytes() == X.tobytes() and meta["feature_names"] == ["a", "b", "c"]
    assert yl.tolist() == np.where(labels == "pos", 1, -1).tolist()


def test_drop_columns_beside_nominal_columns(tmp_path):
    p = tmp_path / "n.csv"
    p.write_text("when,colour,a,label\n2024-01-01,red,1,x\n2024-01-02,blue,2,y\n")
    X, _, meta = read_csv(p, drop_columns=["when"], nominal_columns=["colour"])
    assert meta["feature_names"] == ["colour=blue", "colour=red", "a"]
    assert X.tolist() == [[0, 1, 1], [1, 0, 2]]
    got, _, stream = _chunked(p, 1, drop_columns=["when"], nominal_columns=["colour"])
    assert got.tolist() == X.tolist() and stream.feature_names == meta["feature_names"]


# --------------------------------------------------------------------------- iter_chunks
@pytest.mark.parametrize("size", [1, 2, 3, 17, 119, 120, 121, 1000])
@pytest.mark.parametrize("path_kind", ["compiled", "careful"])
def test_chunks_at_every_boundary_equal_the_whole_read(tmp_path, monkeypatch, size, path_kind):
    """The chunked reader never reads a dropped column's values as numbers: the compiled
    path (its careful one-line reader not called) and the careful path (the one nominal
    columns take) give the columns cut out by hand, at any chunk size and block."""
    p, X, labels = _stamped(tmp_path)
    want = np.where(labels == "pos", 1, -1)
    kw = {"drop_columns": ["when", "id"], "block_bytes": 1024}
    if path_kind == "compiled":
        monkeypatch.setattr(streaming.ChunkedFile, "_csv_careful", None)
        monkeypatch.setattr(streaming.ChunkedFile, "_careful_pieces", None)
    else:
        monkeypatch.setattr(streaming.ChunkedFile, "_fast", lambda self: False)
        monkeypatch.setattr(streaming.ChunkedFile, "_csv_pieces", None)
    for positive in (None, "pos"):
        got, y, stream = _chunked(p, size, positive_class=positive, **kw)
        assert got.tobytes() == X.tobytes() and y.tolist() == want.tolist()
        assert stream.feature_names == ["a", "b", "c"] and stream.n_features == 3
        assert stream.meta["feature_names"] == ["a", "b", "c"]


def test_a_quoted_cell_of_a_dropped_column_in_the_chunked_reader(tmp_path):
    p = tmp_path / "q.csv"
    p.write_text('when,a,label\n"2024-01-01, 10:00",1,x\n2024-01-02,2,y\n"é",3,x\n')
    got, y, _ = _chunked(p, 2, drop_columns=["when"])
    assert got.ravel().tolist() == [1.0, 2.0, 3.0] and y.tolist() == [-1, 1, -1]


# --------------------------------------------------------------------------- errors
def _both(p, **kw):
    return (lambda: read_csv(p, **kw), lambda: list(iter_chunks(p, **kw)),
            lambda: R._read_csv_careful(p, **kw))  # fmt: skip


@pytest.mark.parametrize(
    ("drop", "kw", "error", "match"),
    [
        ("when", {}, TypeError,
         r"drop_columns must be a list of column names or indices; got 'when'\. For one "
         r"column pass a list: \['when'\]"),
        (["nope"], {}, ValueError,
         r"drop_columns=\[\.\.\.\] names 'nope', but no column has that name; columns are "
         r"\['when', 'a', 'label'\]"),
        ([3], {}, ValueError, r"drop_columns=\[\.\.\.\] holds 3, out of range for 3 columns"),
        ([1.5], {}, TypeError, r"each entry of drop_columns must be a column name or an int"),
        (["label"], {}, ValueError,
         r"drop_columns=\[\.\.\.\] names the label column 'label' \(column 3\); the label "
         r"cannot be dropped\. Leave it out of drop_columns=\[\.\.\.\], or pass label_column="),
        ([-1], {}, ValueError, r"names the label column 'label' \(column 3\)"),
        (["a"], {"label_column": "a"}, ValueError, r"names the label column 'a' \(column 2\)"),
        (["a"], {"nominal_columns": ["a"]}, ValueError,
         r"column 'a' \(column 2\) is in both drop_columns=\[\.\.\.\] and "
         r"nominal_columns=\[\.\.\.\]; a column is either left out or one-hot encoded: "
         r"name it in one of them"),
        ([0, 1], {}, ValueError,
         r"drop_columns=\[\.\.\.\] drops every feature column \(2 of 2\); keep at least one"),
    ],
)  # fmt: skip
def test_each_bad_drop_columns_is_named(tmp_path, drop, kw, error, match):
    p = tmp_path / "t.csv"
    p.write_text("when,a,label\n2024-01-01,1,x\n2024-01-02,2,y\n")
    for reader in _both(p, drop_columns=drop, **kw):
        with pytest.raises(error, match=match):
            reader()


def test_libsvm_has_no_columns_to_drop(tmp_path):
    p = tmp_path / "f.svm"
    p.write_text("1 1:2\n-1 2:3\n")
    match = r"drop_columns= applies to CSV files, not to LIBSVM files \(f\.svm\)"
    for reader in (lambda: read(p, drop_columns=[1]), lambda: load(str(p), drop_columns=[1]),
                   lambda: iter_chunks(p, drop_columns=[1])):  # fmt: skip
        with pytest.raises(TypeError, match=match):
            reader()


@pytest.mark.parametrize(
    ("value", "first"),
    [("2024-01-01 10:00:00", "drop"), ("10:00", "drop"), ("01/02/2024", "drop"),
     ("2024-01-01T10:00:00Z", "drop"), ("red", "nominal"), ("abc-def", "nominal")],
)  # fmt: skip
def test_a_text_value_names_drop_columns_and_a_date_puts_it_first(tmp_path, value, first):
    p = tmp_path / "t.csv"
    p.write_text(f"when,a,label\n{value},1,x\n{value},2,y\n")
    for reader in _both(p):
        with pytest.raises(ValueError, match="non-numeric value") as info:
            reader()
        msg = str(info.value)
        drop, nominal = msg.index("drop_columns=[...]"), msg.index("nominal_columns=[...]")
        assert (drop < nominal) == (first == "drop"), msg
        if first == "drop":
            assert "looks like a date or time" in msg
        else:
            assert "to one-hot encode the column" in msg and "date" not in msg


# --------------------------------------------------------------------------- property
_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
_cell = st.one_of(
    st.integers(-99, 99).map(str),
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.sampled_from(["", "?", "x", "2024-01-01", "a,b", 'q"t', " 3 ", "1e400"]),
)


@st.composite
def _files(draw):
    width = draw(st.integers(2, 6))
    n = draw(st.integers(1, 7))
    label = draw(st.integers(0, width - 1))
    rows = [[draw(st.sampled_from(["a", "b"])) if j == label else draw(_cell)
             for j in range(width)] for _ in range(n)]  # fmt: skip
    drop = draw(st.sets(st.sampled_from([j for j in range(width) if j != label])))
    return width, label, rows, sorted(drop)


@_SETTINGS
@given(
    f=_files(),
    header=st.booleans(),
    by_name=st.booleans(),
    missing=st.sampled_from(["error", "drop"]),
    delimiter=st.sampled_from([",", ";", "\t"]),
    size=st.integers(1, 4),
)
def test_dropping_equals_reading_the_file_with_the_columns_cut_out(
    tmp_path, f, header, by_name, missing, delimiter, size
):
    width, label, rows, drop = f
    names = [f"c{j}" for j in range(width)]
    keep = [j for j in range(width) if j not in drop]
    whole = _write(tmp_path / "whole.csv", names if header else None, rows, delimiter)
    cut = _write(tmp_path / "cut.csv", [names[j] for j in keep] if header else None,
                 [[r[j] for j in keep] for r in rows], delimiter)  # fmt: skip
    given_drop = [names[j] if by_name and header else j for j in drop]
    base = {"header": header, "missing": missing, "delimiter": delimiter}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ref = read_csv(cut, label_column=keep.index(label), **base)
        except ValueError:
            ref = None
        if len(keep) < 2:  # every feature dropped: refused
            with pytest.raises(ValueError, match="drops every feature column"):
                read_csv(whole, label_column=label, drop_columns=given_drop, **base)
            return
        if ref is None:
            with pytest.raises(ValueError):
                read_csv(whole, label_column=label, drop_columns=given_drop, **base)
            with pytest.raises(ValueError):
                list(iter_chunks(whole, size, label_column=label, drop_columns=given_drop,
                                 positive_class="a", **base))  # fmt: skip
            return
        got = read_csv(whole, label_column=label, drop_columns=given_drop, **base)
        assert got[0].tobytes() == ref[0].tobytes() and got[0].shape == ref[0].shape
        assert got[1].tolist() == ref[1].tolist()
        ref_names = ref[2]["feature_names"]
        if not header:  # the cut file's placeholders are renumbered; the whole file's not
            ref_names = [f"x{j + 1}" for j in keep if j != label]
        assert got[2]["feature_names"] == ref_names
        assert got[2]["n_dropped"] == ref[2]["n_dropped"]
        careful = R._read_csv_careful(whole, label_column=label, drop_columns=given_drop, **base)
        assert careful[0].tobytes() == got[0].tobytes()
        if "a" in got[1].tolist():
            stream = iter_chunks(whole, size, label_column=label, drop_columns=given_drop,
                                 positive_class="a", block_bytes=1024, **base)  # fmt: skip
            Xc = np.vstack([X for X, _ in stream])
            assert Xc.tobytes() == got[0].tobytes()


# --------------------------------------------------------------------------- command line
def _out(capsys, argv):
    progress = [] if argv[0] in ("cv", "predict") else ["--no-progress"]
    assert main([*argv, "--format", "json", *progress]) == 0
    return json.loads(capsys.readouterr().out)


def _untimed(obj):
    """A command's JSON output without its timings and the data file's summary."""
    if isinstance(obj, dict):
        return {k: _untimed(v) for k, v in obj.items()
                if k not in ("rows_per_s", "fit_s", "data", "drop_columns", "seconds")}  # fmt: skip
    if isinstance(obj, list):
        return [_untimed(v) for v in obj]
    return obj


def test_stream_compare_and_cv_drop_columns_from_a_file(tmp_path, capsys):
    p, X, labels = _stamped(tmp_path)
    (tmp_path / "cut").mkdir()  # the same name: cv's folds are seeded by it
    cut = _write(tmp_path / "cut" / "ts.csv", ["a", "b", "c", "label"],
                 [[*map(repr, x), lab] for x, lab in zip(X.tolist(), labels)])  # fmt: skip
    err = _fails(capsys, ["stream", str(p), "--model", "AROW"], "--drop-columns COL,COL")
    assert err.index("--drop-columns") < err.index("--nominal-columns")  # a timestamp
    drop = ["--drop-columns", "when,id"]
    for command in (["stream", "--model", "PassiveAggressive"],
                    ["compare", "--models", "AROW,PassiveAggressive"],
                    ["cv", "--models", "AROW", "--folds", "3"]):  # fmt: skip
        argv = [command[0], str(p), *command[1:]]
        out = _out(capsys, [*argv, *drop])
        ref = _out(capsys, [command[0], str(cut), *command[1:]])
        assert out["data"]["features"] == 3 and out["data"]["rows"] == len(labels)
        assert _untimed(out) == _untimed(ref)
    assert _out(capsys, ["stream", str(p), "--model", "AROW", *drop])["drop_columns"] == "when,id"


def test_save_records_the_dropped_columns_and_predict_drops_them(tmp_path, capsys):
    p, X, labels = _stamped(tmp_path)
    model = tmp_path / "m.skl"
    assert main(["stream", str(p), "--model", "AROW", "--drop-columns", "when,id",
                 "--save", str(model), "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    import pickle

    bundle = pickle.loads(model.read_bytes())
    assert bundle["drop_columns"] == ["when", "id"]
    est = bundle["model"]
    scores = tmp_path / "s.csv"
    out = _out(capsys, ["predict", str(model), str(p), "--scores", str(scores)])
    assert out["rows"] == len(labels)
    got = np.loadtxt(scores, delimiter=",", skiprows=1)[:, 0]
    np.testing.assert_array_equal(got, est.decision_function(X))
    # the same flag given again is the same reading
    same = _out(capsys, ["predict", str(model), str(p), "--drop-columns", "when,id"])
    assert same["auc"] == out["auc"]
    # new data without the dropped columns: --drop-columns '' reads every column
    cut = _write(tmp_path / "cut.csv", ["a", "b", "c", "label"],
                 [[*map(repr, x), lab] for x, lab in zip(X.tolist(), labels)])  # fmt: skip
    err = _fails(capsys, ["predict", str(model), str(cut)], "no column has that name")
    assert "The model was trained with --drop-columns when,id" in err
    assert "--drop-columns ''" in err
    again = _out(capsys, ["predict", str(model), str(cut), "--drop-columns", ""])
    assert again["auc"] == out["auc"]
    # a different drop: the model's columns are checked as before
    _fails(capsys, ["predict", str(model), str(p), "--drop-columns", "when"],
           "has 4 features; the model was trained on 3 (ts.csv). Read it with the same "
           "columns (--label-column, --nominal-columns, --drop-columns)")  # fmt: skip
    _fails(capsys, ["predict", str(model), str(p), "--drop-columns", "when,id,b"],
           "has 2 features; the model was trained on 3")  # fmt: skip


def test_drop_columns_flag_errors(tmp_path, capsys):
    p, _, _ = _stamped(tmp_path)
    svm = tmp_path / "f.svm"
    svm.write_text("1 1:2\n-1 2:3\n")
    _fails(capsys, ["stream", str(svm), "--model", "AROW", "--drop-columns", "1"],
           "--drop-columns applies to CSV files, not to LIBSVM files")  # fmt: skip
    _fails(capsys, ["stream", "pima", "--model", "AROW", "--drop-columns", "a"],
           "--drop-columns applies to data files")  # fmt: skip
    _fails(capsys, ["stream", str(p), "--model", "AROW", "--drop-columns", ","],
           "--drop-columns needs column names or indices")  # fmt: skip
    _fails(capsys, ["stream", str(p), "--model", "AROW", "--drop-columns", "label"],
           "names the label column 'label'")  # fmt: skip
    _fails(capsys, ["stream", str(p), "--model", "AROW", "--drop-columns", "when,id",
                    "--nominal-columns", "id"],
           "in both --drop-columns COL,COL and --nominal-columns COL,COL")  # fmt: skip


@pytest.mark.parametrize("length", range(0, 20))
def test_a_dropped_field_of_any_length_ends_where_the_careful_reader_ends_it(tmp_path, length):
    """The compiled parser passes over a dropped field eight bytes at a time: a field of
    each length, at each offset in the file, with a byte the careful reader must see
    (a quote, non-ASCII) at each place of it, reads as the careful reader reads it."""
    body = "x" * length
    variants = ["", "q", body] + [body[:k] + ch + body[k + 1:] for k in range(length)
                         for ch in ("é", "'", "\x01")]  # fmt: skip
    rows = []
    for k, cell in enumerate(variants):
        rows.append(f"{k}.5,{cell},{'a' if k % 2 else 'b'},{k}")
    p = tmp_path / "f.csv"
    p.write_text("v,when,label,w\n" + "\n".join(rows) + "\n", encoding="utf-8")
    kw = {"drop_columns": ["when"], "label_column": "label"}
    want = R._read_csv_careful(p, **kw)
    got = read_csv(p, **kw)
    assert got[0].tobytes() == want[0].tobytes() and got[1].tolist() == want[1].tolist()
    assert got[0][:, 1].tolist() == list(range(len(variants)))
    for size in (1, 5):
        chunks = np.vstack([X for X, _ in iter_chunks(p, size, block_bytes=1024, **kw)])
        assert chunks.tobytes() == want[0].tobytes()


def test_a_quoted_delimiter_across_two_dropped_columns_is_the_careful_readers_error(tmp_path):
    """Two dropped columns side by side: ``"a,b"`` is one field of the row (the careful
    reader's count), not one in each; the compiled parser, which does not read dropped
    fields, hands a quote to the careful reader instead of counting it as two fields."""
    p = tmp_path / "f.csv"
    p.write_text('when,id,v,label\nt,1,1.5,a\n"t,1",2.5,b\n', encoding="utf-8")
    kw = {"drop_columns": ["when", "id"]}
    match = r"line 3: 3 values where 4 are expected"
    for reader in _both(p, **kw):
        with pytest.raises(ValueError, match=match):
            reader()


def test_an_empty_field_before_a_dropped_last_column_is_no_trailing_delimiter(tmp_path):
    """Session 26 review (probe r): with the last column dropped, an empty kept field just
    before it is an ordinary missing value. The line ``0,,2024-01-02`` does not end with
    the delimiter; it was told it did, with a ``sed`` to remove trailing delimiters."""
    p = tmp_path / "f.csv"
    p.write_text(
        "y,a,when\n1,0.5,2024-01-01\n0,,2024-01-02\n1,3,2024-01-03\n0,1,t\n", encoding="utf-8"
    )
    kw = {"label_column": "y", "drop_columns": ["when"]}
    for reader in _both(p, **kw):
        with pytest.raises(ValueError, match=r"line 3: missing value '' in 'a' \(column 2\)"):
            reader()
    # every row so: "every data row has a missing value", not "every line ends with ','"
    p.write_text("y,a,when\n1,,2024-01-01\n0,,2024-01-02\n", encoding="utf-8")
    for reader in _both(p, missing="drop", **kw):
        with pytest.raises(ValueError, match=r"every data row has a missing value"):
            reader()
    # an empty last field that is kept still gets the trailing-delimiter message
    p.write_text("when,y,a\nt,1,0.5\nt,0,\n", encoding="utf-8")
    for reader in _both(p, **kw):
        with pytest.raises(ValueError, match=r"line 3: the line ends with the delimiter"):
            reader()


def test_predict_names_the_models_dropped_columns_when_the_width_differs(tmp_path, capsys):
    """Session 26 review (probe r): a model saved with ``--drop-columns 0,2`` (indices)
    leaves columns 0 and 2 out of any CSV file ``predict`` reads; in a file without the
    timestamp those are other columns, and the width message advised "the same columns
    (..., --drop-columns)" without saying that the model had dropped any."""
    p, X, labels = _stamped(tmp_path)
    model = tmp_path / "m.skl"
    assert main(["stream", str(p), "--model", "AROW", "--drop-columns", "0,2",
                 "--save", str(model), "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    rows = [[i, *map(repr, x), lab] for i, x, lab in zip(_table()[1], X.tolist(), labels)]
    cut = _write(tmp_path / "cut.csv", ["id", "a", "b", "c", "label"], rows)
    err = _fails(capsys, ["predict", str(model), str(cut)], "has 2 features")
    assert "The model was trained with --drop-columns 0,2" in err
    assert "--drop-columns ''" in err
    # the same width, another order: the feature-name message names them too
    swapped = [[r[1], r[0], *r[2:]] for r in csv.reader(io.StringIO(p.read_text("utf-8")))]
    sw = _write(tmp_path / "sw.csv", swapped[0], swapped[1:])
    err = _fails(capsys, ["predict", str(model), str(sw)], "feature 1 is 'when'")
    assert "The model was trained with --drop-columns 0,2" in err
    # told another drop, the model's is not applied, and the message does not name it
    err = _fails(
        capsys, ["predict", str(model), str(cut), "--drop-columns", "a"], "feature 1 is 'id'"
    )
    assert "The model was trained" not in err


@pytest.mark.parametrize("eol", ["\r", "\n"])
@pytest.mark.parametrize("k", [0, 3, 7, 8, 12, 18])
def test_a_nul_byte_and_a_line_end_inside_a_long_dropped_field(tmp_path, k, eol):
    """Session 26 review (probe r): the eight-bytes-at-a-time skip of a dropped field
    stops at a NUL byte (the chunked reader's careful path names it, as ``read_csv``
    does) and at a line end, LF or a bare CR: short lines after a dropped last field at
    the end of the file are rows of their own (the field count's error, naming the
    line), not more of that field."""
    field = "2024-01-01 10:00:00"  # 19 bytes
    p = tmp_path / "n.csv"
    p.write_bytes(f"a,y,when\n1,0,{field}\n2,1,{field[:k]}\0{field[k + 1 :]}\n".encode())
    with pytest.raises(ValueError, match=r"line 3: a NUL byte"):
        list(iter_chunks(p, 1, drop_columns=["when"], label_column="y"))
    lines = [f"1,0,{field}", "2,1,x", f"3,1,{field[: k + 1]}"] + ["9"] * 8  # at the end
    p.write_bytes(("a,y,when" + eol + eol.join(lines) + eol).encode())
    for reader in _both(p, drop_columns=["when"], label_column="y"):
        with pytest.raises(ValueError, match=r"line 5: 1 values? where 3 are expected"):
            reader()


@pytest.mark.parametrize(
    "dropped, shown, pronoun",
    [(["id"], "--drop-columns id,", "it left out"),
     (["free text", 2], "--drop-columns 'free text,2',", "them left out"),
     (["when", "id"], "--drop-columns when,id,", "them left out")],
)  # fmt: skip
def test_predicts_drop_note_can_be_typed_back(dropped, shown, pronoun):
    """Session 27 (probe q's left-alone): predict's note on the columns a model dropped
    showed a name with a space bare (``--drop-columns free text,2``, two words to the
    shell) and said "them" of one column."""
    from skewlearn.cli import _drop_note

    note = _drop_note({"drop_columns": dropped})
    assert f"The model was trained with {shown} so this file is read with {pronoun}" in note
