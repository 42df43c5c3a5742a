"""Session 27: CSV/TSV records whose quoted fields hold line breaks (RFC 4180; a free-text
column of a fraud or incident export) are read by the chunked reader as ``read_csv``
reads them: the same X, y, feature names and dropped rows, or the same message, at any
chunk size, any block size (a record crossing a block boundary), memory-mapped or not,
gzip or plain, CRLF, CR or LF, with or without a byte-order mark. Messages name the
physical line where the record (the quote) starts.

References: ``read_csv`` (the csv module over the whole text) and the csv module's own
records of the file; the command line's ``stream`` reads such a file too."""

from __future__ import annotations

import csv
import gzip
import io
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skewlearn.datasets import iter_chunks, read_csv


def _write(path, text: str, eol: str = "\n", bom: bool = False, gz: bool = False):
    raw = (("\ufeff" if bom else "") + text.replace("\n", eol)).encode("utf-8")
    if gz:
        path = path.with_name(path.name + ".gz")
        path.write_bytes(gzip.compress(raw))
    else:
        path.write_bytes(raw)
    return path


def _gather(stream):
    Xs, ys = [], []
    for X, y in stream:
        Xs.append(X)
        ys.append(y)
    return np.vstack(Xs), np.concatenate(ys)


def _whole_or_error(path, opts):
    try:
        return read_csv(path, **opts), None
    except ValueError as exc:
        return None, str(exc)


def _line_of(message: str) -> int:
    return int(re.search(r", line (\d+):", message).group(1))


def _first_of_two_errors(chunked: str, whole: str) -> None:
    """The one way the two readers' refusals of a file may differ (decisions.md, session
    27, the lead): read_csv's careful reader parses every record before it checks their
    widths, so a malformed record anywhere is named before an earlier record's wrong
    value count, which iter_chunks, reading record by record, names first."""
    assert "malformed CSV" in whole and "malformed CSV" not in chunked, (chunked, whole)
    assert "where" in chunked and _line_of(chunked) < _line_of(whole), (chunked, whole)


def _agree(path, opts, chunk_sizes=(1, 2, 3, 100_000), blocks=(1024, 1 << 22), maps=(True, False)):
    """iter_chunks equals read_csv on ``path`` (or both refuse it with one message), at
    every chunk size, block size and memory-map setting; with and without the counting
    pass. Returns read_csv's ``(X, y, meta)`` or None."""
    whole, error = _whole_or_error(path, opts)
    for cs in chunk_sizes:
        for block in blocks:
            for mm in maps:
                kw = dict(opts, chunk_size=cs, block_bytes=block, memory_map=mm)
                if error is not None:
                    with pytest.raises(ValueError) as chunked:
                        list(iter_chunks(path, **kw))
                    if str(chunked.value) != error:
                        _first_of_two_errors(str(chunked.value), error)
                    continue
                X, y, meta = whole
                counted = iter_chunks(path, **kw)
                pos = counted.positive_class
                want = np.where(y == pos, 1, -1)
                for stream in (counted, iter_chunks(path, positive_class=pos, **kw)):
                    Xc, yc = _gather(stream)
                    np.testing.assert_array_equal(Xc.view(np.int64), X.view(np.int64))
                    np.testing.assert_array_equal(yc, want)
                    assert stream.feature_names == meta["feature_names"]
                    assert stream.n_dropped == meta["n_dropped"]
                    sizes = [len(c[1]) for c in stream]
                    assert all(s == cs for s in sizes[:-1]) and 0 < sizes[-1] <= cs
                assert counted.n_rows == len(y)
    return whole


# --------------------------------------------------------------------------- hand cases
ML = 'a,b,label\n1,"x\ny",1\n2,"z",0\n3,"w",1\n'


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("bom", [False, True])
@pytest.mark.parametrize("gz", [False, True])
def test_a_dropped_free_text_column_with_a_line_break_is_read(tmp_path, eol, bom, gz):
    """The brief's file: read_csv read it, iter_chunks said "line 2: malformed CSV
    (unexpected end of data)"."""
    p = _write(tmp_path / "ml.csv", ML, eol, bom, gz)
    X, y, _ = _agree(p, {"label_column": "label", "drop_columns": ["b"]})
    assert X.tolist() == [[1.0], [2.0], [3.0]] and y.tolist() == [1, 0, 1]


def test_a_nominal_column_keeps_the_line_break_in_its_category(tmp_path):
    """The careful (nominal) path fed the csv module lines without their ends, so
    "x<newline>y" became the category "xy"; read_csv keeps the line break."""
    p = _write(tmp_path / "n.csv", 'a,b,label\n1,"x\r\ny",1\n2,"z",0\n3,"x\ny",0\n', "\n")
    _, _, meta = _agree(p, {"nominal_columns": ["b"]})
    assert meta["feature_names"] == ["a", "b=x\ny", "b=z"]


def test_a_label_holding_a_line_break_is_a_class(tmp_path):
    p = _write(tmp_path / "l.csv", 'a,label\n1,"not\nfraud"\n2,fraud\n3,"not\nfraud"\n')
    _, y, _ = _agree(p, {})
    assert y.tolist() == ["not\nfraud", "fraud", "not\nfraud"]


@pytest.mark.parametrize("nominal", [False, True])
def test_a_header_name_holding_a_line_break(tmp_path, nominal):
    """The header record's lines count: the data start after it, and a bad value is named
    on its physical line (5)."""
    opts = {"nominal_columns": ["b"]} if nominal else {"drop_columns": ["b"]}
    p = _write(tmp_path / "h.csv", '"first\nvalue",b,label\n1,"t\nu",1\n2,v,0\n', "\r\n")
    _, _, meta = _agree(p, opts)
    assert meta["feature_names"][0] == "first\nvalue"
    p = _write(tmp_path / "h2.csv", '"first\nvalue",b,label\n1,"t\nu",1\nx,v,0\n', "\r\n")
    _agree(p, opts)
    with pytest.raises(ValueError, match=r"h2\.csv, line 5: "):
        list(iter_chunks(p, 2, **opts))


def test_a_label_spelling_a_missing_value_is_named_on_its_record_line(tmp_path):
    """The line that holds a label spelling a missing value is found among records, not
    lines: line 3, inside a quoted field, reads "2,3,NA" but is no row."""
    p = _write(tmp_path / "q.csv", 'a,b,label\n1,"note\n2,3,NA\nend",1\n4,t,NA\n5,u,0\n')
    _agree(p, {"drop_columns": ["b"]})
    with pytest.raises(ValueError, match=r"q\.csv, line 5: "):
        list(iter_chunks(p, 2, drop_columns=["b"]))


def test_quotes_inside_unquoted_fields_are_text_and_end_no_record(tmp_path):
    """A quote opens a quoted field only as the field's first character (the csv module's
    rule): ``ab"c`` and `` "x`` (after a blank) are text, and the line is a whole record."""
    p = _write(tmp_path / "t.csv", 'a,b,label\n1, "x,1\n2,ab"c,0\n3,"y",1\n4,"q\nr",0\n')
    X, _, _ = _agree(p, {"drop_columns": ["b"]})
    assert X.ravel().tolist() == [1, 2, 3, 4]
    # such a quote before a field that opens a record, and after one that closes it
    text = 'a,b,c,label\n1,a"b,"c\nd",1\n2,"e\nf",g"h,0\n3,i,j,1\n'
    p = _write(tmp_path / "t2.csv", text)
    X, _, _ = _agree(p, {"drop_columns": ["b", "c"]})
    assert X.ravel().tolist() == [1, 2, 3]


@pytest.mark.parametrize("nominal", [False, True])
def test_a_bad_byte_inside_a_record_is_named_on_its_line(tmp_path, nominal):
    p = tmp_path / "b.csv"
    p.write_bytes(b'a,b,label\n1,"x\n\nnot \xff utf-8",1\n2,y,0\n')
    opts = {"nominal_columns": ["b"]} if nominal else {"drop_columns": ["b"]}
    _agree(p, opts)
    with pytest.raises(ValueError, match=r"b\.csv, line 4: bytes that are not UTF-8"):
        list(iter_chunks(p, 2, **opts))


@pytest.mark.parametrize("nominal", [False, True])
def test_a_header_record_longer_than_the_first_peek(tmp_path, nominal):
    """The header is read from the file's first 64 KiB, then more: a name holding a line
    break past them."""
    name = "n" * 100 + "\n" + "m" * 70_000
    p = _write(tmp_path / "w.csv", f'"{name}",b,label\n1,"t\nu",1\n2,v,0\n')
    opts = {"nominal_columns": ["b"]} if nominal else {"drop_columns": ["b"]}
    _, _, meta = _agree(p, opts, chunk_sizes=(1,), maps=(True,))
    assert meta["feature_names"][0] == name


def test_a_record_stops_taking_lines_past_the_field_size_limit():
    """Bounded memory: an unclosed quote takes lines until its field exceeds the csv
    module's limit, not to the end of the file."""
    from skewlearn.datasets.streaming import _Record

    block = b"t" * 99 + b"\n"
    block *= 10_000
    rec = _Record('1,"open', 2, ",", "f.csv")
    pos = rec.take(block, 0, len(block), 0)
    limit = csv.field_size_limit()
    assert rec.done and rec.open and limit < rec.size <= limit + 100
    assert pos == 100 * (len(rec.lines) - 1)


@pytest.fixture
def small_field_limit():
    """The csv module's field size limit at 1,000 characters (a process-wide setting,
    restored after the test): read_csv and iter_chunks both follow it."""
    old = csv.field_size_limit(1000)
    yield 1000
    csv.field_size_limit(old)


def test_two_quoted_fields_of_several_lines_are_limited_each_not_together(
    tmp_path, small_field_limit
):
    """Session 27, probe w: the limit is on a field (csv.Error "field larger than field
    limit"), but _Record counted every line after the record's first, so two free-text
    fields of 600 characters each (1,200 together) under a limit of 1,000 were refused by
    iter_chunks ("unexpected end of data", the record cut mid-quote) while read_csv read
    the file."""
    a, b = "x" * 600, "y" * 600
    text = f'n,note,memo,label\n1,"start\n{a}\nend","s2\n{b}\ne2",1\n2,"ok",plain,0\n'
    p = _write(tmp_path / "two.csv", text)
    X, y, _ = _agree(p, {"drop_columns": ["note", "memo"]}, chunk_sizes=(1, 3))
    assert X.tolist() == [[1.0], [2.0]] and y.tolist() == [1, 0]
    # one field over the limit is still refused by both, naming the record's first line
    p = _write(tmp_path / "one.csv", text.replace(b, b + "z" * 500))
    _agree(p, {"drop_columns": ["note", "memo"]}, chunk_sizes=(1,))
    with pytest.raises(ValueError, match=r"line 2: malformed CSV .*field larger than field limit"):
        list(iter_chunks(p, 1, drop_columns=["note", "memo"]))


def test_doubled_quotes_inside_an_open_field_count_toward_its_limit(small_field_limit):
    """A line of an open field holding doubled quotes ("" is one quote character) is
    still the field's: an unclosed quote over such lines stops past the limit."""
    from skewlearn.datasets.streaming import _Record

    block = (b'say ""hi"" ' * 9 + b"\n") * 1000
    rec = _Record('1,"open', 2, ",", "f.csv")
    rec.take(block, 0, len(block), 0)
    assert rec.done and rec.open and 1000 < rec.size <= 1000 + 100


@pytest.mark.parametrize("header", [True, False])
def test_line_numbers_after_a_record_of_several_lines_are_physical_lines(tmp_path, header):
    """A bad value after a three-line record is named on its physical line (7 with a
    header), as read_csv names it; one inside the record on the line the record starts."""
    head = "a,b,label\n" if header else ""
    body = '1,"x\n\ny",1\n2,"z",0\n3,"w",1\nabc,"v",0\n'
    p = _write(tmp_path / "bad.csv", head + body)
    opts = {"drop_columns": [1], "header": header}
    _agree(p, opts)
    with pytest.raises(ValueError, match=rf"line {6 + header}: "):
        list(iter_chunks(p, 2, **opts))
    p = _write(tmp_path / "bad2.csv", head + '1,2,0\nx,"a\nb",1\n4,5,1\n')
    _agree(p, opts)
    with pytest.raises(ValueError, match=rf"line {2 + header}: "):
        list(iter_chunks(p, 2, **opts))


@pytest.mark.parametrize("nominal", [False, True])
def test_an_unclosed_quote_is_refused_naming_the_line_it_opens(tmp_path, nominal):
    rows = [f"{k},t{k},{k % 2}" for k in range(40)]
    rows[7] = '7,"never closed,1'
    p = _write(tmp_path / "u.csv", "a,b,label\n" + "\n".join(rows) + "\n")
    opts = {"nominal_columns": ["b"]} if nominal else {"drop_columns": ["b"]}
    _agree(p, opts, chunk_sizes=(3,))
    with pytest.raises(ValueError) as exc:
        list(iter_chunks(p, 3, **opts))
    assert str(exc.value).startswith(f"{p}, line 9: malformed CSV in the row starting here")
    assert "unexpected end of data; the reader stopped at line 41" in str(exc.value)


def test_an_unclosed_quote_in_a_long_file_stops_at_the_field_limit(tmp_path):
    """The chunked reader keeps bounded memory: an unclosed quote is refused where the csv
    module's field size limit stops it, as read_csv refuses it, not after the file."""
    rows = [f"{k},{'t' * 50},{k % 2}" for k in range(5000)]
    rows[3] = '3,"open,1'
    p = _write(tmp_path / "big.csv", "a,b,label\n" + "\n".join(rows) + "\n")
    _agree(p, {"drop_columns": ["b"]}, chunk_sizes=(7,), maps=(True,))
    with pytest.raises(ValueError, match=r"line 5: malformed CSV .*field larger than field limit"):
        list(iter_chunks(p, 7, drop_columns=["b"]))


def test_a_record_longer_than_a_block_crosses_blocks(tmp_path):
    text = "x" * 700 + "\n" + "y" * 700
    rows = [f'{k},"{text}\n{k}",{k % 2}' for k in range(12)]
    p = _write(tmp_path / "long.csv", "a,b,label\n" + "\n".join(rows) + "\n")
    X, _, _ = _agree(p, {"drop_columns": ["b"]}, blocks=(1024, 2048, 4096))
    assert X[:, 0].tolist() == list(range(12))


def test_missing_drop_counts_a_record_of_several_lines_once(tmp_path):
    p = _write(tmp_path / "m.csv", 'a,b,label\n?,"x\ny",1\n2,"z",0\n3,"w\n\nv",1\n,"q",0\n')
    X, _, meta = _agree(p, {"drop_columns": ["b"], "missing": "drop"})
    assert X.tolist() == [[2.0], [3.0]] and meta["n_dropped"] == 2


def test_no_header_names_line_of_several_lines(tmp_path):
    """``header=False`` on a file whose first record is column names (one of them over two
    lines): read_csv's "the first line holds names" advice, from the chunked reader too."""
    p = _write(tmp_path / "nh.csv", 'a,"b\nc",label\n1,2,1\n3,4,0\n')
    _agree(p, {"header": False})
    with pytest.raises(ValueError, match=r"line 1: "):
        list(iter_chunks(p, 2, header=False))


def test_no_header_names_line_followed_by_a_record_of_several_lines(tmp_path):
    """``header=False`` on a file of names whose first data record spans lines: the names
    advice, as read_csv gives it (it judges the names line by the next record, whole)."""
    p = _write(tmp_path / "nh2.csv", 'a,note,label\n1,"x\ny",1\n2,z,0\n')
    _agree(p, {"header": False, "drop_columns": [1]})
    with pytest.raises(ValueError, match=r"line 1: .*looks like column names"):
        list(iter_chunks(p, 2, header=False, drop_columns=[1]))


def test_stream_and_predict_commands_read_the_file(tmp_path, capsys):
    """``skewlearn stream`` learns what ``fit`` learns from ``load``'s arrays, and
    ``predict`` scores every record (one score per record, not per physical line)."""
    import json
    import pickle

    from skewlearn import PassiveAggressive
    from skewlearn.cli import main
    from skewlearn.datasets import load

    rows = [f'{k % 5},"note {k}\nmore",{int(k % 4 == 0)}' for k in range(40)]
    p = _write(tmp_path / "s.csv", "a,note,label\n" + "\n".join(rows) + "\n")
    model = tmp_path / "pa.skl"
    argv = ["stream", str(p), "--model", "PassiveAggressive", "--drop-columns", "note",
            "--chunk-size", "7", "--save", str(model), "--no-progress",
            "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["data"]["rows"] == 40
    X, y, _ = load(p, drop_columns=["note"])
    saved = pickle.loads(model.read_bytes())["model"]
    np.testing.assert_array_equal(
        saved.weights_, PassiveAggressive(random_state=0).fit(X, y).weights_
    )
    scores = tmp_path / "scores.csv"
    assert main(["predict", str(model), str(p), "--scores", str(scores)]) == 0
    assert len(scores.read_text().splitlines()) == 41


# --------------------------------------------------------------------------- property
_TEXT = st.text(alphabet='ab ,;"\n\r\t', min_size=0, max_size=40)


@st.composite
def _tables(draw):
    k = draw(st.integers(1, 3))
    n = draw(st.integers(2, 14))
    nums = draw(
        st.lists(
            st.lists(st.integers(-50, 50).map(lambda v: v / 4), min_size=k, max_size=k),
            min_size=n,
            max_size=n,
        )
    )
    texts = draw(st.lists(_TEXT.map(lambda t: t + "z"), min_size=n, max_size=n))
    labels = [0, 1, *draw(st.lists(st.integers(0, 1), min_size=n - 2, max_size=n - 2))]
    quote_nums = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    where = draw(st.integers(0, k))  # the text column's position among the features
    unclosed = draw(st.sampled_from([None, None, None, draw(st.integers(0, n - 1))]))
    long_text = draw(st.sampled_from([0, 0, 1500]))  # a record longer than a block
    # missing="drop": a few rows with a missing value ("", "?") in a numeric column (not
    # the first two, which keep both classes)
    holes = draw(st.one_of(st.none(), st.lists(st.integers(2, max(2, n - 1)), max_size=3)))
    return k, nums, texts, labels, quote_nums, where, unclosed, long_text, holes


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    table=_tables(),
    mode=st.sampled_from(["drop", "nominal", "label"]),
    delimiter=st.sampled_from([",", ";", "\t"]),
    eol=st.sampled_from(["\n", "\r\n", "\r"]),
    bom=st.booleans(),
    gz=st.booleans(),
    chunk_size=st.integers(1, 5),
    block_bytes=st.sampled_from([1024, 1 << 22]),
    memory_map=st.booleans(),
)
def test_random_multiline_tables_read_in_chunks_as_read_csv_and_csv_read_them(
    tmp_path, table, mode, delimiter, eol, bom, gz, chunk_size, block_bytes, memory_map
):
    k, nums, texts, labels, quote_nums, where, unclosed, long_text, holes = table

    def q(s):
        return '"' + s.replace('"', '""') + '"'

    names = [f"a{j}" for j in range(k)]
    names.insert(where, "t")
    lines = [delimiter.join([*names, "label"])]
    for r, (row, text) in enumerate(zip(nums, texts)):
        cells = [q(repr(v)) if quote_nums[r] else repr(v) for v in row]
        if holes is not None and r in holes and r >= 2:
            cells[r % k] = ["", "?", '""'][r % 3]
        if long_text and r == 1:
            text = "w" * long_text + "\n" + text
        cell = q(text)
        if unclosed == r:
            cell = '"' + text.replace('"', "")  # a quote that opens and never closes
        cells.insert(where, cell)
        label = q(["no\nfraud", "fraud"][labels[r]]) if mode == "label" else str(labels[r])
        lines.append(delimiter.join([*cells, label]))
    text = "\n".join(lines) + "\n"
    p = _write(tmp_path / "r.csv", text, eol, bom, gz)
    opts = {"delimiter": delimiter, "missing": "error" if holes is None else "drop"}
    if mode == "nominal":
        opts["nominal_columns"] = ["t"]
    else:
        opts["drop_columns"] = ["t"]
    whole = _agree(p, opts, (chunk_size,), (block_bytes,), (memory_map,))
    if unclosed is not None or whole is None:
        return
    # the csv module's own records of the file (universal newlines, as read_csv unifies)
    with (gzip.open(p, "rt", encoding="utf-8-sig", newline=None) if gz
          else open(p, encoding="utf-8-sig", newline=None)) as fh:  # fmt: skip
        records = list(csv.reader(io.StringIO(fh.read()), delimiter=delimiter, strict=True))
    assert records[0] == [*names, "label"] and len(records) == len(nums) + 1
    X, y, meta = whole
    feats = [j for j in range(k + 1) if j != where]
    records = [rec for rec in records[1:] if all(rec[j].strip() not in ("", "?") for j in feats)]
    assert meta["n_dropped"] == len(nums) - len(records)
    want = np.array([[float(rec[j].strip()) for j in feats] for rec in records]).reshape(-1, k)
    numeric = [c for c, name in enumerate(meta["feature_names"]) if not name.startswith("t=")]
    np.testing.assert_array_equal(X[:, numeric], want)
    assert [str(v) for v in y] == [rec[-1].strip() for rec in records]
    if mode == "nominal":
        cats = sorted({rec[where].strip() for rec in records})
        assert [f for f in meta["feature_names"] if f.startswith("t=")] == [f"t={c}" for c in cats]


def test_the_delimiter_sniffer_is_not_shown_the_blank_lines_of_a_quoted_field(
    tmp_path, monkeypatch
):
    """Session 27 (probe w's left-alone): the first three non-blank lines the delimiter
    is sniffed from took in every blank line of a quoted field before them, and the csv
    module's quote pattern is quadratic in those (64 CPU s for 10⁵ line breaks, in
    read_csv and iter_chunks alike). The sniffer now sees the non-blank lines alone."""
    shown: list[str] = []
    sniff = csv.Sniffer.sniff

    def spy(self, sample, delimiters=None):
        shown.append(sample)
        return sniff(self, sample, delimiters)

    monkeypatch.setattr(csv.Sniffer, "sniff", spy)
    path = tmp_path / "notes.csv"
    path.write_text('a;note;label\n1;"x' + "\n" * 20_000 + 'y";0\n2;z;1\n', encoding="utf-8")
    X, y, _ = read_csv(str(path), drop_columns=["note"])
    chunks = list(iter_chunks(str(path), drop_columns=["note"]))
    np.testing.assert_array_equal(np.vstack([c[0] for c in chunks]), X)
    np.testing.assert_array_equal(X, [[1.0], [2.0]])
    assert shown and all(len(s) < 100 and "\n\n" not in s for s in shown), [len(s) for s in shown]
