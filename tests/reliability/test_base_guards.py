"""The shared guards of :mod:`skewlearn.base`: magnitude of the input, overflow of the
learned state, and the skewlearn version stamped into saved models."""

from __future__ import annotations

import collections
import pickle

import joblib
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone

import skewlearn
from skewlearn import AROW, CW, SOP, CostSensitivePA, LinearASLS, PassiveAggressive, Perceptron
from skewlearn._discovery import all_estimators
from skewlearn.base import BinaryClassifier, max_abs_value


def _data(n=80, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + 0.3 * rng.normal(size=n) > 0.5).astype(int)
    return X, y


def test_max_abs_value_is_where_squared_norms_overflow():
    # d features plus the intercept: (d + 1) * limit**2 is the largest float64
    for d in (1, 4, 1000):
        lim = max_abs_value(d)
        assert np.isfinite((d + 1) * lim**2)
        assert (d + 1) * lim**2 == pytest.approx(np.finfo(np.float64).max, rel=1e-12)


@pytest.mark.parametrize("est", [Perceptron(), CW(), LinearASLS()], ids=type)
@pytest.mark.parametrize("make", [np.asarray, sp.csr_matrix], ids=["dense", "csr"])
def test_values_whose_squares_overflow_are_refused_with_the_fix(est, make):
    X, y = _data()
    big = X.copy()
    big[3, 2] = -1e300
    if make is sp.csr_matrix and est._accept_sparse is False:
        return
    with pytest.raises(ValueError, match=r"magnitude 1e\+300.*StandardScaler"):
        est.fit(make(big), y)
    est.fit(make(X), y)  # fine data: learns
    with pytest.raises(ValueError, match=r"magnitude 1e\+300.*Scale the features"):
        est.decision_function(make(big))
    # the largest accepted magnitude itself is fine
    ok = X.copy()
    ok[3, 2] = max_abs_value(X.shape[1])
    assert np.isfinite(est.decision_function(make(ok))).all()


def test_overflowing_state_raises_and_discards_the_model():
    # 1e100-scale rows against an intercept of scale 1: CW's step γ of Lemma 1 exceeds
    # float64 (about 1e392) on row 11; the learner must say so, not keep a NaN model.
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 5)) * 1e100
    y = rng.integers(0, 2, 40)
    est = CW()
    with pytest.raises(
        ValueError,
        match=r"non-finite.*Scale the features.*StandardScaler\) or use a smaller a, "
        r"then call fit again\. The broken model was discarded",
    ):
        est.fit(X, y)
    assert not hasattr(est, "classes_") and not hasattr(est, "weights_")
    with pytest.raises(Exception, match="not fitted"):
        est.predict(X)
    # and it starts over cleanly on sane data
    Xs, ys = _data()
    assert np.isfinite(est.fit(Xs, ys).decision_function(Xs)).all()


@pytest.mark.parametrize(
    "name", sorted(n for n, c in all_estimators().items() if issubclass(c, BinaryClassifier))
)
def test_the_overflow_advice_names_only_the_learners_own_settings(name):
    """The advice used to name "(eta, C, gamma)" for every learner, settings AROW and SOP
    do not have (and whose direction is the reverse of theirs: larger r or a, smaller
    steps)."""
    est = all_estimators()[name]()
    params = est.get_params()
    for setting, way in est._step_settings():
        assert setting in params, (name, setting)
        assert way in ("smaller", "larger")
    advice = est._overflow_advice()
    assert "eta, C, gamma" not in advice and advice.endswith(".")


@pytest.mark.parametrize(
    ("est", "advice"),
    [
        (AROW(), "or use a larger r, then"),
        (SOP(), "or use a larger a, then"),
        (CW(), "or use a smaller a, then"),
        (Perceptron(), "or use a smaller eta, then"),
        (PassiveAggressive(), "or use a smaller C, then"),
        (PassiveAggressive(variant="pa"), "StandardScaler), then"),
        (CostSensitivePA(variant="pa"), "StandardScaler), then"),
        (LinearASLS(), "StandardScaler), then"),
    ],
)
def test_the_overflow_advice_says_which_way_to_move_the_step_setting(est, advice):
    assert advice in est._overflow_advice()


@pytest.mark.parametrize("dump", [pickle.dumps, "joblib"])
def test_saved_models_carry_the_version_and_refuse_another_minor(dump, tmp_path, monkeypatch):
    X, y = _data()
    est = PassiveAggressive().fit(X, y)
    assert est.__getstate__()["_skewlearn_version"] == skewlearn.__version__
    assert "_skewlearn_version" not in vars(est)  # the live object is untouched

    def save():
        if dump == "joblib":
            path = tmp_path / "m.joblib"
            joblib.dump(est, path)
            return lambda: joblib.load(path)
        blob = pickle.dumps(est)
        return lambda: pickle.loads(blob)

    load = save()
    again = load()
    assert "_skewlearn_version" not in vars(again)
    np.testing.assert_array_equal(again.decision_function(X), est.decision_function(X))

    major, minor = skewlearn.__version__.split(".")[:2]
    monkeypatch.setattr(skewlearn, "__version__", f"{major}.{minor}.999")  # same minor: loads
    np.testing.assert_array_equal(load().decision_function(X), est.decision_function(X))
    monkeypatch.setattr(skewlearn, "__version__", f"{int(major) + 1}.0.0")
    saved = f"{major}.{minor}"
    with pytest.raises(
        ValueError,
        match=rf"saved by skewlearn {saved}.*{int(major) + 1}\.0\.0 is installed.*Refit.*pip",
    ):
        load()


@pytest.mark.parametrize(
    ("name", "full", "alternative"),
    [
        ("OPAUC", {}, {"covariance": "low_rank", "rank": 3, "random_state": 0}),
        ("AROW", {"covariance": "full"}, {"covariance": "diag"}),
        ("SOP", {"covariance": "full"}, {"covariance": "diag"}),
        ("IELLIP", {"covariance": "full"}, {"covariance": "diag"}),
    ],
)
def test_a_large_full_covariance_warns_and_names_the_alternative(
    monkeypatch, name, full, alternative
):
    """covariance='full' keeps d × d matrices (OPAUC two) updated in O(d²) per sample; on
    text-like input that silently exhausted memory or ran for hours. Like a large
    support-vector buffer, it now warns with the setting that avoids them (threshold
    lowered here from 1 GiB to 10 kB: 41² × 8 B = 13 kB, OPAUC 2 × 40² × 8 B = 26 kB). A
    warning turned into an error leaves the learner unfitted."""
    import warnings

    import skewlearn.base as base

    cls = getattr(skewlearn, name)
    X = np.random.default_rng(0).normal(size=(20, 40))
    y = np.arange(20) % 2
    with warnings.catch_warnings():  # under the default threshold, no warning
        warnings.simplefilter("error", RuntimeWarning)
        cls(**full).fit(X, y)
    monkeypatch.setattr(base, "LARGE_STATE", 10_000)
    named = alternative["covariance"]
    with pytest.warns(RuntimeWarning, match=rf"{name}\(covariance='full'\).*'{named}'"):
        cls(**full).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        cls(**alternative).fit(X, y)  # the named alternative does not warn
        est = cls(**full)
        with pytest.raises(RuntimeWarning):
            est.fit(X, y)
    assert not hasattr(est, "classes_")  # not left half-fitted


@pytest.mark.parametrize("est", [Perceptron(), CW(), LinearASLS()], ids=type)
@pytest.mark.parametrize(
    "labels", [[0, 1, None, 1], ["no", "yes", None, "no"]], ids=["numbers", "strings"]
)
def test_a_missing_label_is_named_with_its_index(est, labels):
    """A None label gave scikit-learn's "Unknown label type: unknown" (numbers) or "'<' not
    supported between 'NoneType' and 'str'" (strings); the message now says which row and
    what to do (session 13, from helper probe D's list)."""
    X, _ = _data(n=4)
    with pytest.raises(ValueError, match=r"missing label \(None\) at index 2; .*Drop"):
        est.fit(X, labels)
    if hasattr(est, "partial_fit"):
        started = est.fit(X, [0, 1, 0, 1] if labels[0] == 0 else ["no", "yes", "no", "no"])
        with pytest.raises(ValueError, match=r"missing label \(None\) at index 2"):
            started.partial_fit(X, labels)


@pytest.mark.parametrize("est", [Perceptron(), CW(), LinearASLS()], ids=type)
@pytest.mark.parametrize(
    "labels", [["no", 1, "no", 1], [True, "x", True, "x"]], ids=["str-int", "bool-str"]
)
def test_labels_of_mixed_types_are_named(est, labels):
    """An object y mixing numbers and strings (a pandas column read from "yes"/1 text) gave
    numpy's "'<' not supported between instances of 'int' and 'str'" or scikit-learn's
    "Unknown label type: unknown"; the message now names both types and the fix, as the
    batch metrics do (session 14)."""
    X, _ = _data(n=4)
    y = np.array(labels, dtype=object)
    with pytest.raises(
        ValueError,
        match=r"y mixes strings and (int|bool) values as labels \(.* index 1.*\).*astype\(str\)",
    ):
        est.fit(X, y)
    if hasattr(est, "partial_fit"):
        started = est.fit(X, np.array(["no", "yes", "no", "yes"], dtype=object))
        with pytest.raises(ValueError, match=r"y mixes strings and (int|bool) values"):
            started.partial_fit(X, y)


@pytest.mark.parametrize(
    "make",
    [
        lambda: __import__("pandas").Series(["no", "yes", None, "no"], dtype="string"),
        lambda: np.array(["no", "yes", __import__("pandas").NA, "no"], dtype=object),
        lambda: __import__("pandas").Series([0, 1, __import__("pandas").NA, 1], dtype=object),
        lambda: np.array(["no", "yes", np.nan, "no"], dtype=object),
        # session 25: pandas' nullable numbers and booleans (a 0/1 column with a gap):
        # scikit-learn said "Input y contains NaN", without the row, of an NA
        lambda: __import__("pandas").Series([0, 1, None, 1], dtype="Int64"),
        lambda: __import__("pandas").Series([0.0, 1.0, None, 1.0], dtype="Float64"),
        lambda: __import__("pandas").Series([False, True, None, True], dtype="boolean"),
    ],
    ids=["string-dtype", "object-NA", "series-NA", "object-nan", "Int64", "Float64", "boolean"],
)
def test_a_missing_label_of_pandas_is_named_with_its_index(make):
    """pandas' NA as a label (a "string" column with a gap) gave scikit-learn's bare
    "TypeError: boolean value of NA is ambiguous"; a NaN among string labels "Input
    contains NaN" without a row (session 14)."""
    X, _ = _data(n=4)
    with pytest.raises(ValueError, match=r"missing label \((<NA>|nan)\) at index 2; .*Drop"):
        Perceptron().fit(X, make())
    started = Perceptron().fit(X, ["no", "yes", "no", "yes"])
    with pytest.raises(ValueError, match=r"missing label \((<NA>|nan)\) at index 2"):
        started.partial_fit(X, make())


@pytest.mark.parametrize("dtype", ["Int64", "boolean", object, "string"])
def test_a_missing_label_of_a_filtered_series_is_named_by_its_index_label(dtype):
    """Session 25 (probe w): the missing-label message gave the position as "at index 5";
    a Series from a filtered frame or a fold of cross-validation keeps its index labels,
    where ``y[5]``/``y.loc[5]`` is another row (with a label) or none at all. A Series
    without the default RangeIndex now gets the position and its index label; the
    default one keeps "at index 5"."""
    pd = pytest.importorskip("pandas")
    X, _ = _data(n=8)
    values = [True, False, True, False, True, None, True, False]
    if dtype != "boolean":
        values = [None if v is None else ("yes" if v else "no") for v in values]
        if dtype == "Int64":
            values = [None if v is None else int(v == "yes") for v in values]
    for index, label in [
        (range(7, -1, -1), "2"),  # reversed: label 5 is position 2, a labelled row
        (range(100, 108), "105"),
        (range(0, 16, 2), "10"),  # every other row kept
        (list("abcdefgh"), "'f'"),
        (pd.MultiIndex.from_product([[1, 2], [3, 4, 5, 6]]), r"\(2, 4\)"),
    ]:
        y = pd.Series(values, dtype=dtype, index=index)
        with pytest.raises(ValueError, match=rf"\) at position 5 \(index label {label}\); "):
            Perceptron().fit(X, y)
    y = pd.Series(values, dtype=dtype)  # the default index: its label is the position
    with pytest.raises(ValueError, match=r"\) at index 5; every row"):
        Perceptron().fit(X, y)
    # a one-column frame is a Series; in two columns the position is no row's
    frame = pd.DataFrame({"y": y}).set_axis(range(100, 108))
    with pytest.raises(ValueError, match=r"\) at position 5 \(index label 105\); "):
        Perceptron().fit(X, frame)
    frame = pd.DataFrame({"x": y.iloc[::-1].to_numpy(), "y": y}).set_axis(range(100, 108))
    with pytest.raises(ValueError, match=r"\) at index 4; "):  # (x, y) row 2, x's gap
        Perceptron().fit(X, frame)


@pytest.mark.parametrize("dtype", ["category", "string", "str"])
def test_category_and_string_labels_are_checked_for_gaps_without_a_python_loop(dtype, monkeypatch):
    """Session 25 (probe w): pandas' category and "string" label columns (dtype kind "O")
    went through the per-value Python scan for missing labels, ~0.3 s of a 0.35 s ``fit``
    on 10⁶ category labels; they are pandas extension dtypes, whose vectorised ``isna``
    probe d's nullable branch uses. The gap is still named, with its index label."""
    import skewlearn.base as base

    pd = pytest.importorskip("pandas")
    X, _ = _data(n=8)
    calls = []
    monkeypatch.setattr(base, "_is_missing", lambda v: calls.append(v) or False)
    y = pd.Series(["no", "yes"] * 4, dtype=dtype)
    assert Perceptron().fit(X, y).classes_.tolist() == ["no", "yes"]
    y = pd.Series(["no", "yes", "no", None] * 2, dtype=dtype, index=range(10, 18))
    with pytest.raises(ValueError, match=r"at position 3 \(index label 13\); every row"):
        Perceptron().fit(X, y)
    assert calls == []


@pytest.mark.parametrize("est", [Perceptron(), CW(), LinearASLS()], ids=type)
def test_a_text_column_in_x_is_named_with_the_fix(est):
    """A DataFrame with a text column gave numpy's "could not convert string to float: 'x'"
    alone; the message now says that X holds text and how to encode it (session 14)."""
    pd = pytest.importorskip("pandas")
    X, _ = _data(n=6)
    y = np.arange(6) % 2
    frame = pd.DataFrame(X, columns=list("abcd")).assign(colour=list("rgbrgb"))
    with pytest.raises(ValueError, match=r"could not convert string to float: 'r'.*OneHotEncoder"):
        est.fit(frame, y)
    fitted = est.fit(pd.DataFrame(X, columns=list("abcd")), y)
    with pytest.raises(ValueError, match=r"could not convert string.*OneHotEncoder"):
        fitted.predict(pd.DataFrame(X, columns=list("abcd")).assign(a="x"))


@pytest.mark.parametrize("est", [Perceptron(), CW(), LinearASLS()], ids=type)
def test_rows_as_dicts_in_x_are_named_with_the_fix(est):
    """A list of ``{feature: value}`` rows (a JSON export, River's row format) or a dict of
    columns gave numpy's bare "float() argument must be a string or a real number, not
    'dict'", naming neither X nor what to do (session 23). The message now says X holds
    dicts and names DictVectorizer and pandas.DataFrame; the error stays a TypeError."""
    X, _ = _data(n=6)
    y = np.arange(6) % 2
    rows = [dict(zip("abcd", row, strict=True)) for row in X.tolist()]
    with pytest.raises(TypeError, match=r"not 'dict'.*X holds dicts.*DictVectorizer"):
        est.fit(rows, y)
    with pytest.raises(TypeError, match=r"X holds dicts.*pandas\.DataFrame\(X\)"):
        est.fit({k: X[:, i] for i, k in enumerate("abcd")}, y)
    fitted = est.fit(X, y)
    with pytest.raises(TypeError, match=r"X holds dicts.*DictVectorizer"):
        fitted.predict(rows)
    assert fitted.predict(X).shape == (6,)  # the model is untouched
    # dict's subclasses, whose names numpy's message spells otherwise
    for kind in (collections.OrderedDict, collections.Counter):
        with pytest.raises(TypeError, match=r"X holds dicts.*DictVectorizer"):
            est.fit([kind(r) for r in rows], y)
    with pytest.raises(TypeError, match=r"X holds dicts"):
        est.fit([collections.defaultdict(float, r) for r in rows], y)


@pytest.mark.parametrize("est", [Perceptron(), CW(), LinearASLS()], ids=type)
def test_dates_and_times_in_x_are_named_with_the_fix(est):
    """A DataFrame with a timestamp column (a fraud table's transaction time) beside
    numbers gave numpy's "The DType <class 'numpy.dtypes.Float64DType'> could not be
    promoted by <class 'numpy.dtypes.DateTime64DType'>", and a time-zone-aware, Period or
    Python datetime column "float() argument must be ... not 'Timestamp'" (or 'Period',
    'datetime.date'), naming neither X nor a fix (session 25). The message now says X
    holds dates or times and how to make numbers of them; the error stays a TypeError
    (numpy's DTypePromotionError is one)."""
    import datetime

    pd = pytest.importorskip("pandas")
    X, _ = _data(n=6)
    y = np.arange(6) % 2
    numbers = pd.DataFrame(X, columns=list("abcd"))
    when = pd.date_range("2024-01-01", periods=6, freq="h")
    frames = {
        "datetime64": numbers.assign(when=when),
        "timedelta64": numbers.assign(took=pd.to_timedelta(np.arange(6), "s")),
        "tz-aware": numbers.assign(when=when.tz_localize("UTC")),
        "period": numbers.assign(day=when.to_period("D")),
        "python date": numbers.assign(day=[datetime.date(2024, 1, 1)] * 6),
        "with a nullable column": numbers.assign(
            when=when, flag=pd.array([True, None] * 3, dtype="boolean")
        ),
        # probe w: each of pandas' "Cannot cast ...Array" messages (the test passed
        # without the Timedelta and Period alternatives of the pattern)
        "timedelta with a nullable column": numbers.assign(
            took=pd.to_timedelta(np.arange(6), "s"), flag=pd.array([1, None] * 3, dtype="Int64")
        ),
        "period with a nullable column": numbers.assign(
            day=when.to_period("D"), flag=pd.array([1, None] * 3, dtype="Int64")
        ),
    }
    hint = r"X holds dates or times.*\.dt\.hour.*total_seconds\(\)"
    for frame in frames.values():
        with pytest.raises(TypeError, match=hint):
            est.fit(frame, y)
    # a list of rows; Python's time and timedelta too (the test passed without them)
    for value in (datetime.datetime(2024, 1, 1), datetime.time(9, 30), datetime.timedelta(1)):
        with pytest.raises(TypeError, match=hint):
            est.fit([[1.0, value]] * 6, y)
    fitted = est.fit(numbers, y)
    with pytest.raises(TypeError, match=hint):
        fitted.predict(numbers.assign(d=when))  # the same names, a column of dates
    assert fitted.predict(numbers).shape == (6,)  # the model is untouched


@pytest.mark.parametrize("est", [Perceptron(), LinearASLS()], ids=type)
def test_pandas_na_in_an_object_column_of_x_is_named_with_the_fix(est):
    """Session 25 (probe w): pandas' NA in an object column of X (a frame built from
    records with gaps) gave numpy's bare "float() argument must be a string or a real
    number, not 'NAType'" (so did scikit-learn's SimpleImputer, the usual fix). The
    message now says X holds pandas' NA and what works: pd.to_numeric (NA becomes NaN),
    then impute or drop; still a TypeError. The fix, as written, is run."""
    pd = pytest.importorskip("pandas")
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline

    X, _ = _data(n=6)
    y = np.arange(6) % 2
    frame = pd.DataFrame(X, columns=list("abcd")).astype(object)
    frame.loc[2, "b"] = pd.NA
    hint = r"not 'NAType': X holds pandas' missing value NA.*pd\.to_numeric.*SimpleImputer"
    with pytest.raises(TypeError, match=hint):
        est.fit(frame, y)
    fitted = clone(est).fit(pd.DataFrame(X, columns=list("abcd")), y)
    with pytest.raises(TypeError, match=hint):
        fitted.predict(frame)
    fixed = frame.apply(pd.to_numeric)  # what the message says
    assert make_pipeline(SimpleImputer(), clone(est)).fit(fixed, y).predict(fixed).shape == (6,)


@pytest.mark.parametrize("est", [Perceptron(), LinearASLS()], ids=type)
def test_a_missing_time_first_in_a_column_of_times_gets_the_dates_hint(est):
    """Session 26 (probe q): a column of dates or times got the dates hint unless its
    first value was pandas' NaT (a missing time): numpy stopped there, on "... not
    'NaTType'", and that bare message was all (an object column of Timestamps, e.g. of
    mixed time zones, or rows of datetimes). NaT is a time's gap, so it gets the hint."""
    import datetime

    pd = pytest.importorskip("pandas")
    y = np.arange(6) % 2
    when = pd.Series([pd.NaT, *pd.date_range("2024-01-01", periods=5)]).astype(object)
    hint = r"not 'NaTType': X holds dates or times.*total_seconds\(\)"
    with pytest.raises(TypeError, match=hint):
        est.fit(pd.DataFrame({"a": np.arange(6.0), "when": when}), y)
    rows = [[1.0, pd.NaT]] + [[1.0, datetime.datetime(2024, 1, 1)]] * 5
    with pytest.raises(TypeError, match=hint):
        est.fit(rows, y)


@pytest.mark.parametrize(
    "classes, match",
    [
        ([0, None], r"classes=\[0, None\] holds a missing label \(None\)"),
        ([0, np.nan], r"classes=\[0, nan\] holds a missing label \(nan\)"),
        (["no", None], r"classes=\['no', None\] holds a missing label"),
        ({0, 1}, r"classes must be an array-like of the two labels .* got a set"),
        ("01", r"classes must be an array-like of the two labels .* got a str"),
        ([0, 1.5], r"classes=\[0, 1.5\] .* not class labels \(continuous\)"),
    ],
    ids=["None", "nan", "str-None", "set", "str", "continuous"],
)
def test_a_bad_classes_argument_is_named_and_leaves_nothing_fitted(classes, match):
    """``partial_fit(classes=...)`` met a None with numpy's "'<' not supported between
    'NoneType' and 'int'", a set or a string with "got 1" label, and took NaN (or 1.5,
    which scikit-learn calls continuous as y) as a class: a first batch of 0s then made a
    model whose positive class was nan. Each is now refused by name, as scikit-learn's
    SGDClassifier refuses them, and on a later call too (session 16)."""
    X, _ = _data(n=4)
    y = np.zeros(4, dtype=int)
    est = Perceptron()
    with pytest.raises(ValueError, match=match):
        est.partial_fit(X, y, classes=classes)
    assert not hasattr(est, "classes_")
    est.partial_fit(X, y, classes=[0, 1])
    with pytest.raises(ValueError, match=match):
        est.partial_fit(X, y, classes=classes)
    assert est.n_samples_seen_ == 4


@pytest.mark.parametrize(
    "classes, got",
    [([1], r"one \(1\)"), ([1, 1], r"one \(1\)"), (["fraud"], r"one \('fraud'\)"), ([], "none")],
)
def test_a_classes_argument_of_one_label_is_told_to_pass_both(classes, got):
    """Session 27: ``partial_fit(X, y, classes=[1])`` said "classes must hold exactly two
    labels for a binary learner; got 1 (1)." ("got 0 ()." for ``[]``) without the fix the
    three-label message gives; it now says to pass both labels as y holds them."""
    X, y = _data(n=4)
    est = AROW()
    with pytest.raises(ValueError, match=rf"; got {got}\. Pass both labels,.*classes=\[0, 1\]"):
        est.partial_fit(X, y, classes=classes)
    assert not hasattr(est, "classes_")


@pytest.mark.parametrize(
    "y, classes, match",
    [
        (
            np.r_[-1, 1, -1, 1, -1, 1],
            ["ok", "fraud"],
            r"labels -1, 1 that are not in classes=\['fraud', 'ok'\]\. y holds numbers and "
            r"classes strings.*iter_chunks.*classes=\[-1, 1\]",
        ),
        (
            np.array(["no", "yes"] * 3),
            [0, 1],
            r"labels 'no', 'yes' that are not in classes=\[0, 1\]\. y holds strings and "
            r"classes numbers.*Convert",
        ),
        (
            np.r_[0, 2, 0, 2, 0, 2],
            [0, 1],
            r"labels 2 that are not in classes=\[0, 1\]\. classes must name the two labels",
        ),
        (
            np.r_[0, 1, 0, 1, 0, 1],
            ["ok", "fraud"],
            r"labels 0, 1 that are not in classes=\['fraud', 'ok'\]\. y holds numbers and "
            r"classes strings\. Pass y's two labels as classes, or convert y",
        ),
    ],
    ids=["numbers-vs-strings", "strings-vs-numbers", "other-label", "zero-one-vs-strings"],
)
def test_labels_outside_the_first_classes_argument_are_named_with_the_fix(y, classes, match):
    """A first ``partial_fit(X, y, classes=[...])`` whose y holds other labels said only
    "y contains labels -1, 1 that are not in classes=['fraud', 'ok']." The usual case is
    the -1/+1 labels of skewlearn.datasets' readers against the file's own text labels;
    the message now says what differs (the labels' type) and what to pass (session 23)."""
    X, _ = _data(n=6)
    est = AROW()
    with pytest.raises(ValueError, match=match):
        est.partial_fit(X, y, classes=classes)
    assert not hasattr(est, "classes_")


@pytest.mark.parametrize("est", [Perceptron(), LinearASLS()], ids=type)
@pytest.mark.parametrize("pos_label", [[0, 1], np.array([1, 0]), [1], (1,)], ids=repr)
def test_a_pos_label_that_is_not_one_label_is_named(est, pos_label):
    """pos_label=[0, 1] failed with numpy's "truth value of an array with more than one
    element is ambiguous", while pos_label=[1] was taken as 1 (session 16)."""
    X, y = _data()
    with pytest.raises(ValueError, match=r"pos_label must be one label .* got .*\[?1"):
        est.set_params(pos_label=pos_label).fit(X, y)
    assert not hasattr(est, "classes_")


def _nan_at_first(X):
    X = X.copy()
    X[0, 0] = np.nan
    return X


def _huge_at_first(X):
    X = X.copy()
    X[0, 0] = 1e300
    return X


@pytest.mark.parametrize(
    "est",
    [PassiveAggressive(), AROW(covariance="full"), SOP(), CostSensitivePA(), LinearASLS()],
    ids=type,
)
@pytest.mark.parametrize(
    "spoil",
    [
        lambda X, y: (_nan_at_first(X), y),
        lambda X, y: (_huge_at_first(X), y),
        lambda X, y: (X, y + 0.5),  # continuous labels
        lambda X, y: (X, np.zeros_like(y)),  # one class
    ],
    ids=["nan", "huge", "continuous-y", "one-class"],
)
def test_a_refused_refit_with_another_width_leaves_no_model_of_the_old_one(est, spoil):
    """A refit refused after scikit-learn's validation had already set n_features_in_ to
    the new width (NaN or too large values in X, continuous or one-class y) kept the old
    model under the new width: decision_function on rows of the new width then read past
    the end of the weights in compiled code (garbage scores, or an 'overflow' error) and
    partial_fit wrote past it. A refused fit now leaves the learner unfitted, as a refused
    first call does; it then learns the new width from scratch (session 16)."""
    X, y = _data(d=3)
    X_wide, y_wide = _data(d=40, seed=1)
    est.fit(X, y)
    with pytest.raises(ValueError):
        est.fit(*spoil(X_wide, y_wide))
    assert not hasattr(est, "n_features_in_") and not hasattr(est, "classes_")
    with pytest.raises(Exception, match="not fitted"):
        est.decision_function(X_wide)
    fresh = clone(est).fit(X_wide, y_wide)
    np.testing.assert_array_equal(
        est.fit(X_wide, y_wide).decision_function(X_wide), fresh.decision_function(X_wide)
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda y: np.array(y.astype(str), dtype=object),
        lambda y: __import__("pandas").Series(y.astype(str).tolist(), dtype=object),
    ],
    ids=["object-array", "pandas-object"],
)
def test_later_text_labels_of_object_dtype_are_named_as_a_type_mismatch(make):
    """ "0"/"1" after 0/1 is refused as a type mismatch (test_common); held in an object
    array (a pandas text column) it failed instead with numpy's "'<' not supported between
    instances of 'str' and 'int'" while the labels were merged (session 16)."""
    X, y = _data()
    est = Perceptron().partial_fit(X, y, classes=[0, 1])
    before = pickle.dumps(est)
    with pytest.raises(ValueError, match=r"labels \['0', '1'\] are not the classes .*strings"):
        est.partial_fit(X, make(y))
    assert pickle.dumps(est) == before


def test_a_batch_fit_that_fails_after_validation_leaves_no_model_of_the_old_one():
    """The same for a batch learner whose fit raises after validation (here KernelASLS's
    poly kernel overflowing float64 on 1e30-scale rows): the old support vectors stayed
    under the new n_features_in_, and decision_function on the new width failed inside
    the kernel product (session 16)."""
    X, y = _data(d=3)
    X_wide, y_wide = _data(d=40, seed=1)
    est = skewlearn.KernelASLS(kernel="poly", degree=10, sigma=1.0).fit(X, y)
    with pytest.raises(ValueError, match="overflow"):
        est.fit(X_wide * 1e30, y_wide)
    assert not hasattr(est, "n_features_in_") and not hasattr(est, "classes_")
    with pytest.raises(Exception, match="not fitted"):
        est.decision_function(X_wide)


def _overflowed(est):
    """``est`` fitted on a sane stream, then discarded by one overflowing batch."""
    X, y = _data()
    est.fit(X, y)
    with pytest.raises(ValueError, match=r"overflowed float64.*discarded"):
        est.partial_fit(np.full((3, X.shape[1]), 1e100), np.array([0, 1, 0]))
    return X, y


def test_a_discarded_model_refuses_to_go_on_until_fit():
    """Session 20: after an overflow discarded the model, the next partial_fit with both
    labels silently started a new model from that batch alone (the stream's history gone
    without a word); predict said only "not fitted"."""
    from sklearn.exceptions import NotFittedError

    from skewlearn import OGD

    est = OGD(eta=1e300, schedule="constant")
    X, y = _overflowed(est)
    for call in (est.partial_fit, est.test_then_train):
        with pytest.raises(ValueError, match=r"discarded when its updates overflowed.*fit"):
            call(X[:10], y[:10], classes=[0, 1])
    assert not hasattr(est, "classes_")
    with pytest.raises(NotFittedError, match=r"not fitted: its model was discarded"):
        est.predict(X)
    # fit starts again (and clears the mark); a clone has no mark
    est.set_params(eta=0.1)
    assert np.isfinite(est.fit(X, y).decision_function(X)).all()
    est.partial_fit(X[:10], y[:10])
    _overflowed(est.set_params(eta=1e300))
    clone(est).partial_fit(X[:10], y[:10], classes=[0, 1])


def test_a_river_stream_stops_at_a_discarded_model():
    """The River adapter predicted its first class for every row and then learnt a new
    model from the next row, silently, after its learner was discarded."""
    from skewlearn import OGD
    from skewlearn.compat.river import RiverClassifier

    clf = RiverClassifier(OGD(eta=1e300, schedule="constant"))
    for i in range(20):
        clf.learn_one({"a": float(i % 3), "b": 1.0}, i % 2 == 0)
    with pytest.raises(ValueError, match="overflowed"):
        clf.learn_one({"a": 1e100, "b": 1e100}, False)
    for call in (
        lambda: clf.learn_one({"a": 1.0, "b": 1.0}, True),
        lambda: clf.predict_one({"a": 1.0, "b": 1.0}),
        lambda: clf.predict_proba_one({"a": 1.0, "b": 1.0}),
    ):
        with pytest.raises(ValueError, match="discarded"):
            call()


@settings(max_examples=300, deadline=None)
@given(
    dtype=st.sampled_from(["int8", "uint8", "int64", "uint64", "bool"]),
    values=st.lists(st.integers(-3, 3), min_size=0, max_size=60),
    n_distinct=st.integers(1, 3),
)
def test_unique_labels_is_numpys_unique(dtype, values, n_distinct):
    """The fast path of ``_unique_labels`` (min and max of integer or boolean labels, when
    nothing else is there) gives ``np.unique``'s array: same values, order and dtype."""
    from skewlearn.base import _unique_labels

    if dtype == "bool":
        y = np.array([v > 0 for v in values], dtype=bool)
    else:
        y = np.array([abs(v) % (n_distinct + 1) for v in values], dtype=dtype)
        if dtype.startswith("int"):
            y = y - 1  # negatives too
    got, want = _unique_labels(y), np.unique(y)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("y", [[-1, 1] * 20, [5] * 40, [0, 1, 2] * 20, [3, 7, 3, 3] * 10])
def test_unique_labels_past_the_few_rows_path(y):
    from skewlearn.base import _unique_labels

    y = np.array(y)
    np.testing.assert_array_equal(_unique_labels(y), np.unique(y))
    assert _unique_labels(y).dtype == y.dtype


@pytest.mark.parametrize(
    "y, classes, readers",
    [
        (np.r_[-1, 1, -1, 1, -1, 1], [0, 1], True),  # a 0/1 file through iter_chunks
        (np.r_[-1, 1, -1, 1, -1, 1], [1, 2], True),  # a 1/2 file
        (np.r_[-1.0, -1.0, -1.0, -1.0], [0, 1], True),  # a chunk without positives
        (np.r_[-1, 0, -1, 0, -1, 0], [0, 1], False),  # -1 beside 0: not the readers'
        (np.r_[0, 2, 0, 2, 0, 2], [0, 1], False),
    ],
)
def test_the_readers_minus_one_plus_one_against_numeric_classes_is_named(y, classes, readers):
    """Session 23: skewlearn.datasets' readers and iter_chunks label a file's classes -1/+1
    whatever the file says (0/1, 1/2), so a user streaming a 0/1 CSV passes classes=[0, 1].
    Probe d's message names classes=[-1, 1] for -1/+1 labels against text classes only;
    against numbers it said "classes must name the two labels ... as y holds them", while
    the user's file holds 0/1. It names the readers' convention whenever all of y's labels
    are -1/+1, and only then (a -1 beside a 0 is not the readers')."""
    X, _ = _data(n=len(y))
    est = AROW()
    with pytest.raises(ValueError, match=r"not in classes=") as info:
        est.partial_fit(X, y, classes=classes)
    named = "iter_chunks label the positive class +1" in str(info.value)
    assert named == readers, str(info.value)
    assert ("classes=[-1, 1]" in str(info.value)) == readers
    assert not hasattr(est, "classes_")
