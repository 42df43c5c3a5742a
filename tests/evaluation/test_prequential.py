"""Prequential evaluation: exact metrics of the pre-update scores, whatever the chunking."""

from __future__ import annotations

import json
from itertools import pairwise

import numpy as np
import pytest
import scipy.sparse as sp
from imblearn.metrics import geometric_mean_score
from sklearn import metrics as skm
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression

from skewlearn import PassiveAggressive, Perceptron
from skewlearn.evaluation import PrequentialResult, prequential
from skewlearn.evaluation.prequential import TIMING_COLUMNS, format_table
from skewlearn.metrics import FBeta


def _stream(n=900, d=5, seed=0, pos=0.12):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    s = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n)
    y = (s > np.quantile(s, 1 - pos)).astype(int)
    return X, y


def _untimed(res: PrequentialResult):
    return [{k: v for k, v in row.items() if k not in TIMING_COLUMNS} for row in res.checkpoints]


def test_scores_are_the_learners_pre_update_scores_and_auc_equals_sklearn():
    X, y = _stream()
    est = PassiveAggressive(C=0.1)
    res = prequential(clone(est), X, y, chunk_size=128)
    np.testing.assert_array_equal(res.scores, clone(est).test_then_train(X, y, classes=[0, 1]))
    assert res.final["auc"] == pytest.approx(skm.roc_auc_score(y, res.scores), rel=1e-12)
    assert res.final["rows"] == res.n_rows == 900


def test_every_checkpoint_equals_the_batch_metrics_of_its_prefix():
    X, y = _stream(seed=1)
    res = prequential(Perceptron(), X, y, chunk_size=100, checkpoints=[1, 5, 37, 333, 900])
    assert [r["rows"] for r in res.checkpoints] == [1, 5, 37, 333, 900]
    for row in res.checkpoints:
        k = row["rows"]
        yk, sk = y[:k], res.scores[:k]
        pred = (sk > 0).astype(int)
        both = len(set(yk)) == 2
        assert row["mistakes"] == int(np.sum(pred != yk))
        assert row["mistake_rate"] == pytest.approx(np.mean(pred != yk))
        assert row["f1"] == pytest.approx(skm.f1_score(yk, pred, labels=[0, 1], zero_division=0))
        if both:
            assert row["auc"] == pytest.approx(skm.roc_auc_score(yk, sk), rel=1e-12)
            assert row["gmean"] == pytest.approx(geometric_mean_score(yk, pred), rel=1e-12)
        else:
            assert np.isnan(row["auc"]) and np.isnan(row["gmean"])
        assert row["rows_per_s"] > 0 and row["seconds"] > 0


@pytest.mark.parametrize("est", [Perceptron(), PassiveAggressive(C=0.05, variant="pa2")])
def test_chunk_size_does_not_change_results(est):
    X, y = _stream(n=700, seed=2)
    runs = [
        prequential(clone(est), X, y, chunk_size=c, checkpoints=[50, 333, 512])
        for c in (1, 7, 64, 1000)
    ]
    for other in runs[1:]:
        np.testing.assert_array_equal(other.scores, runs[0].scores)
        assert _untimed(other) == _untimed(runs[0])  # bit-identical floats


def test_evenly_spaced_checkpoints():
    X, y = _stream(n=1000)
    res = prequential(Perceptron(), X, y, checkpoints=3, chunk_size=400)
    assert [r["rows"] for r in res.checkpoints] == [334, 667, 1000]
    res = prequential(Perceptron(), X[:5], y[:5], checkpoints=10)
    assert [r["rows"] for r in res.checkpoints] == [1, 2, 3, 4, 5]


def test_sparse_equals_dense():
    X, y = _stream(seed=3)
    X[np.abs(X) < 0.8] = 0.0
    a = prequential(PassiveAggressive(), X, y, chunk_size=100)
    b = prequential(PassiveAggressive(), sp.csr_matrix(X), y, chunk_size=100)
    np.testing.assert_allclose(a.scores, b.scores, rtol=1e-10, atol=1e-12)
    assert a.final["mistakes"] == b.final["mistakes"]


def test_iterator_of_chunks_equals_arrays():
    X, y = _stream(seed=4)
    cuts = [0, 10, 250, 251, 600, 900]
    chunks = ((X[a:b], y[a:b]) for a, b in pairwise(cuts))
    it = prequential(Perceptron(), chunks, classes=[0, 1])
    arr = prequential(Perceptron(), X, y, checkpoints=cuts[1:], chunk_size=77)
    np.testing.assert_array_equal(it.scores, arr.scores)
    assert [r["rows"] for r in it.checkpoints] == cuts[1:]  # one per incoming chunk
    assert _untimed(it) == _untimed(arr)
    # row-count checkpoints cut the incoming chunks
    chunks = ((X[a : a + 300], y[a : a + 300]) for a in range(0, 900, 300))
    res = prequential(Perceptron(), chunks, classes=[0, 1], checkpoints=[100, 450])
    assert [r["rows"] for r in res.checkpoints] == [100, 450, 900]
    np.testing.assert_array_equal(res.scores, arr.scores)
    same = prequential(Perceptron(), X, y, checkpoints=[100, 450], chunk_size=1000)
    assert _untimed(res) == _untimed(same)


def test_labels_of_any_type_and_pos_label_first():
    X, y = _stream(seed=5)
    ref = prequential(Perceptron(), X, y)
    names = np.array(["b", "a"])[y]  # the positive class "a" sorts first
    res = prequential(Perceptron(pos_label="a"), X, names)
    assert res.pos_label == "a"
    np.testing.assert_array_equal(res.scores, -ref.scores)
    assert _untimed(res) == _untimed(ref)


def test_continues_a_fitted_learner_and_extra_metrics():
    X, y = _stream(seed=6)
    est = Perceptron().partial_fit(X[:100], y[:100], classes=[0, 1])
    res = prequential(est, X[100:], y[100:], metrics={"f2": FBeta(beta=2.0)})
    assert est.n_samples_seen_ == 900
    pred = (res.scores > 0).astype(int)
    assert res.final["f2"] == pytest.approx(skm.fbeta_score(y[100:], pred, beta=2.0))


def test_outputs():
    X, y = _stream(n=300)
    res = prequential(Perceptron(), X, y, checkpoints=3, progress=True)
    frame = res.to_frame()
    assert list(frame["rows"]) == [100, 200, 300]
    assert list(frame.columns) == [
        "rows",
        "mistakes",
        "mistake_rate",
        "auc",
        "f1",
        "gmean",
        "seconds",
        "rows_per_s",
    ]
    d = json.loads(json.dumps(res.to_dict()))
    assert d["estimator"] == "Perceptron" and d["n_rows"] == 300 and d["pos_label"] == 1
    assert d["final"]["rows"] == 300
    table = res.as_table()
    assert table.splitlines()[0].split()[:3] == ["rows", "mistakes", "mistake_rate"]
    assert len(table.splitlines()) == 5
    assert "Perceptron" in str(res)
    assert format_table([]) == "(no rows)"


def test_errors():
    X, y = _stream(n=50)
    with pytest.raises(TypeError, match="LogisticRegression has no test_then_train"):
        prequential(LogisticRegression(), X, y)
    with pytest.raises(ValueError, match="chunk_size must be an int >= 1; got 0"):
        prequential(Perceptron(), X, y, chunk_size=0)
    with pytest.raises(ValueError, match="y is missing"):
        prequential(Perceptron(), X)
    with pytest.raises(ValueError, match="same number of rows; got 50 and 49"):
        prequential(Perceptron(), X, y[:-1])
    with pytest.raises(ValueError, match="checkpoints must be a positive number"):
        prequential(Perceptron(), X, y, checkpoints=0)
    with pytest.raises(ValueError, match=r"row counts >= 1; got \[-3, 5\]"):
        prequential(Perceptron(), X, y, checkpoints=[5, -3])
    with pytest.raises(ValueError, match="stream is empty"):
        prequential(Perceptron(), iter([]), classes=[0, 1])
    with pytest.raises(TypeError, match="must be a skewlearn StreamingMetric"):
        prequential(Perceptron(), X, y, metrics={"x": skm.f1_score})
    with pytest.raises(ValueError, match=r"taken by the default columns"):
        prequential(Perceptron(), X, y, metrics={"auc": FBeta()})


@pytest.mark.parametrize("missing", [None, np.nan])
def test_a_missing_label_is_named(missing):
    """Session 13: a None label raised numpy's "'<' not supported between instances of
    'NoneType' and 'int'" (while listing the classes), a NaN one scikit-learn's "Input y
    contains NaN"; both now name the missing label and its row."""
    X = np.random.default_rng(0).normal(size=(6, 2))
    y = np.array([0, 1, 0, missing, 1, 0], dtype=object if missing is None else float)
    with pytest.raises(
        ValueError,
        match=r"y holds 1 missing label \((None|nan) at index 3\); prequential evaluation needs "
        r"a label for every row",
    ):
        prequential(Perceptron(), X, y)


def test_another_librarys_online_learner_is_not_told_it_needs_partial_fit():
    """Session 26 (probe y's left-alone): SGDClassifier has partial_fit, and was told that
    prequential evaluation needs "an online skewlearn learner (one with partial_fit)"."""
    from sklearn.linear_model import SGDClassifier

    X, y = _stream(n=50)
    with pytest.raises(TypeError) as info:
        prequential(SGDClassifier(), X, y)
    msg = str(info.value)
    assert "one with partial_fit" not in msg
    assert "scores each chunk before learning from it (SGDClassifier's partial_fit" in msg
    assert "e.g. OGD or PassiveAggressive" in msg


def test_a_pipeline_is_told_how_to_scale_a_stream():
    """Session 26: prequential(make_pipeline(StandardScaler(), learner), X, y) said only that
    the Pipeline has no test_then_train; a user scaling a stream is now told how: transform
    X with statistics of a leading part, and pass the learner itself."""
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = _stream(n=50)
    with pytest.raises(
        TypeError,
        match=r"Pipeline has no test_then_train method.*A Pipeline cannot learn one row "
        r"at a time.*StandardScaler\(\)\.fit\(X\[:1000\]\)\.transform\(X\).*pass "
        r"the learner itself",
    ):
        prequential(make_pipeline(StandardScaler(), Perceptron()), X, y)


def test_a_river_model_is_not_told_that_a_pipeline_cannot_learn_row_by_row():
    """Session 26 (probe w): a River pipeline has ``steps`` too, so prequential told it "A
    Pipeline cannot learn one row at a time ... pass the learner itself", false of a River
    pipeline; a River model is pointed at River's own progressive evaluation."""
    pytest.importorskip("river")
    from river import linear_model, preprocessing

    X, y = _stream(n=50)
    for model in (
        preprocessing.StandardScaler() | linear_model.LogisticRegression(),
        linear_model.LogisticRegression(),
    ):
        with pytest.raises(TypeError) as err:
            prequential(model, X, y)
        msg = str(err.value)
        assert "cannot learn one row at a time" not in msg
        assert "is a River model" in msg and "evaluate.progressive_val_score" in msg


def test_a_class_instead_of_an_instance_is_named():
    """Session 26 (probe w): prequential(Perceptron, X, y) (the class) failed inside with
    "test_then_train() missing 1 required positional argument: 'y'", and a class without
    test_then_train was called "type"."""
    from skewlearn import LinearASLS

    X, y = _stream(n=50)
    with pytest.raises(
        TypeError, match=r"the class Perceptron, not an instance.*prequential\(Perceptron\(\), "
    ):
        prequential(Perceptron, X, y)
    with pytest.raises(TypeError, match=r"^LinearASLS has no test_then_train method"):
        prequential(LinearASLS, X, y)


def test_checkpoints_beyond_the_stream_are_not_dropped_silently():
    """Session 13: `checkpoints=[10, 5000]` on 900 rows reported at 10 and 900 and left
    5000 out without a word. With the length known it is refused before the run; for
    chunks of unknown length a warning names the row counts never reached."""
    X, y = _stream(n=900)
    with pytest.raises(ValueError, match=r"checkpoints \[5000\] lie beyond the stream's 900 rows"):
        prequential(Perceptron(), X, y, checkpoints=[10, 5000])
    chunks = [(X[:400], y[:400]), (X[400:], y[400:])]
    with pytest.warns(UserWarning, match=r"checkpoints \[5000\] lie beyond the stream's 900"):
        res = prequential(Perceptron(), iter(chunks), checkpoints=[10, 5000])
    assert [r["rows"] for r in res.checkpoints] == [10, 900]


def test_one_metric_object_under_two_names_is_refused():
    """Session 13: `metrics={"f2": m, "f2_again": m}` updated the one object twice per row,
    so both columns counted every sample twice (the F-measure stays, but a count-based
    metric such as MistakeRate's denominator doubles silently)."""
    X, y = _stream(n=200)
    m = FBeta(beta=2.0)
    with pytest.raises(ValueError, match=r"metrics 'a' and 'b' are the same object"):
        prequential(Perceptron(), X, y, metrics={"a": m, "b": m})


def test_to_json_is_standard_json_with_null_for_an_undefined_metric():
    """Session 20: the README sent users to ``json.dumps(res.to_dict())``, which writes
    ``NaN`` for the AUC of a checkpoint before both classes were seen; jq and
    JavaScript reject that. ``to_json`` writes null there; ``to_dict`` keeps NaN."""
    import math

    X, y = _stream(n=300)
    y = y.copy()
    y[:100] = 0  # no positive before the first checkpoint
    res = prequential(Perceptron(), X, y, checkpoints=3)
    assert math.isnan(res.to_dict()["checkpoints"][0]["auc"])

    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    with pytest.raises(ValueError, match="not JSON: NaN"):
        json.loads(json.dumps(res.to_dict()), parse_constant=refuse)
    d = json.loads(res.to_json(indent=1), parse_constant=refuse)
    assert d["checkpoints"][0]["auc"] is None
    assert d["final"] == json.loads(json.dumps(res.to_dict()))["final"]
    assert d["estimator"] == "Perceptron" and d["n_rows"] == 300


def test_array_labels_of_one_or_three_classes_are_named_for_prequential():
    """Session 23: ``prequential(est, X, y)`` with ``y`` of one class (a label column read
    wrongly, a slice without positives) said "classes must hold exactly two labels for a
    binary learner; got 1" -- of a ``classes`` argument the user never gave -- and with
    three classes the same (with a hint to wrap the learner in OneVsRestClassifier, which
    has no test_then_train). Both now name y, as the chunked path names its first
    chunk, and say what to do."""
    X, y = _stream(n=60)
    with pytest.raises(ValueError, match=r"^y holds one class \(\[0\]\).*classes=\[negative"):
        prequential(Perceptron(), X, np.zeros(60, dtype=int))
    with pytest.raises(ValueError, match=r"^y has 3 classes \(0, 1, 2\).*Map the labels"):
        prequential(Perceptron(), X, np.arange(60) % 3)
    res = prequential(Perceptron(), X, np.zeros(60, dtype=int), classes=[0, 1])
    assert res.final["rows"] == 60  # with classes given, a one-class stream runs


def test_text_or_dicts_in_x_are_named_with_the_fix_as_the_learners_name_them():
    """Session 23: ``prequential(est, X, y)`` -- the README's evaluation line -- validates X
    itself, outside the learners' hint, so a DataFrame with a text column or a list of
    ``{feature: value}`` rows got numpy's bare "could not convert string to float" / "not
    'dict'" there, while ``est.fit`` on the same X names what to do. Same errors, same
    types, same hint."""
    pd = pytest.importorskip("pandas")
    X, y = _stream(n=40, d=3)
    frame = pd.DataFrame(X, columns=list("abc")).assign(colour="red")
    with pytest.raises(ValueError, match=r"could not convert string.*X holds text.*OneHot"):
        prequential(Perceptron(), frame, y)
    rows = [dict(zip("abc", row, strict=True)) for row in X.tolist()]
    with pytest.raises(TypeError, match=r"not 'dict'.*X holds dicts.*DictVectorizer"):
        prequential(Perceptron(), rows, y)
    assert prequential(Perceptron(), pd.DataFrame(X), y).final["rows"] == 40


def test_a_first_chunk_of_three_classes_is_named_for_prequential():
    """Session 23: probe d named y for arrays of three classes, but a stream of chunks whose
    first chunk brings three labels still got the learner's "classes must hold exactly two
    labels for a binary learner; got 3 ... Wrap the learner in OneVsRestClassifier" -- of a
    ``classes`` argument the user never gave, naming a wrapper that has no
    test_then_train. It names the first chunk, as the one-class message does."""
    X, _ = _stream(n=60)
    y = np.arange(60) % 3
    chunks = [(X[:30], y[:30]), (X[30:], y[30:])]
    with pytest.raises(ValueError, match=r"^the first chunk has 3 classes \(0, 1, 2\).*Map") as e:
        prequential(Perceptron(), chunks)
    assert "OneVsRest" not in str(e.value)
    with pytest.raises(ValueError, match=r"^the first chunk holds one class \(\[2\]\).*negative"):
        prequential(Perceptron(), [(X[:1], y[2:3]), (X[1:], y[1:])])
    res = prequential(Perceptron(), [(X[:30], y[:30] % 2), (X[30:], y[30:] % 2)])
    assert res.final["rows"] == 60


def test_an_id_column_as_labels_is_named_briefly_for_prequential():
    """Session 24 (probe q): the learners' label errors list ten labels then "...", but
    ``prequential(est, X, ids)`` -- an id column passed as y, or as the first chunk's
    labels -- still listed all 2,000 of them (11-15 KB). The count stays whole."""
    X = np.random.default_rng(0).normal(size=(2000, 3))
    ids = np.arange(2000)
    for labels, tenth in ((ids, "9"), (ids.astype(str), "'1005'")):
        with pytest.raises(ValueError, match=rf"^y has 2000 classes \(.*, {tenth}, \.\.\.\)") as e:
            prequential(Perceptron(), X, labels)
        assert len(str(e.value)) < 400
    with pytest.raises(ValueError, match=r"^the first chunk has 1000 classes \(0, .*, 9, \.\.\.\)"):
        prequential(Perceptron(), [(X[:1000], ids[:1000]), (X[1000:], ids[1000:])])
