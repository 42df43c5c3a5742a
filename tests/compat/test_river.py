"""River adapter: River's own estimator checks, equality with skewlearn, exact metrics."""

from __future__ import annotations

import copy
import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from river import compose, datasets, ensemble, evaluate, preprocessing
from river import linear_model as river_linear_model
from river import metrics as rmetrics
from river.checks import check_estimator
from sklearn.base import clone
from sklearn.metrics import f1_score, roc_auc_score

from skewlearn import AROW, KOIL, OAM, OGD, OMCSL, UOB, CostSensitivePA
from skewlearn.compat.river import RiverClassifier, RiverMetric
from skewlearn.metrics import F1, ROCAUC, Confusion, HistogramPRAUC, MistakeRate


@pytest.mark.parametrize(
    "estimator",
    [
        OGD(loss="logistic"),
        AROW(),  # second order
        KOIL(budget_pos=30, budget_neg=30, random_state=0),
        OAM(),  # AUC
        OMCSL(),
    ],
    ids=["OGD", "AROW", "KOIL", "OAM", "OMCSL"],
)
@pytest.mark.filterwarnings("ignore:RiverClassifier learnt its feature order:UserWarning")
def test_passes_rivers_estimator_checks(estimator):
    check_estimator(RiverClassifier(estimator))  # (check_emerging_features adds keys)


def _phishing(n=300):
    rows = list(datasets.Phishing().take(n))
    keys = list(rows[0][0])
    X = np.array([[x[k] for k in keys] for x, _ in rows], dtype=float)
    y = np.array([int(t) for _, t in rows])
    return rows, keys, X, y


def test_learn_one_and_learn_many_equal_partial_fit():
    rows, keys, X, y = _phishing()
    model = RiverClassifier(OMCSL(measure="auprc"), seed=3)
    probs = []
    for x, t in rows:
        probs.append(model.predict_proba_one(x)[True])
        model.learn_one(x, t)
    ref = OMCSL(measure="auprc", random_state=3)
    scores = ref.test_then_train(X, y, classes=[0, 1])
    expit = 1 / (1 + np.exp(-scores))
    np.testing.assert_allclose(probs[1:], expit[1:], rtol=1e-12)
    assert probs[0] == 0.5  # nothing learnt yet
    many = RiverClassifier(OMCSL(measure="auprc"), seed=3)
    frame = pd.DataFrame([x for x, _ in rows])
    many.learn_many(frame[:150], pd.Series([t for _, t in rows[:150]]))
    many.learn_many(frame[150:], pd.Series([t for _, t in rows[150:]]))
    np.testing.assert_array_equal(many.model.weights_, ref.weights_)
    np.testing.assert_allclose(
        many.predict_proba_many(frame)[True], 1 / (1 + np.exp(-ref.decision_function(X)))
    )
    assert list(many.predict_many(frame)) == [bool(v) for v in ref.predict(X)]
    assert model.predict_one(rows[0][0]) == bool(ref.predict(X[:1])[0])


@pytest.mark.parametrize(
    "estimator",
    [KOIL(budget_pos=30, budget_neg=30, threshold=0.3, random_state=0), OAM(threshold=-5.0)],
    ids=["KOIL", "OAM"],
)
def test_predictions_follow_the_learners_threshold(estimator):
    """predict_one/many agree with the learner's predict, which cuts at its threshold, and
    p > 1/2 exactly there."""
    rows, keys, X, y = _phishing()
    model = RiverClassifier(estimator, seed=1)
    for x, t in rows:
        model.learn_one(x, t)
    frame = pd.DataFrame([x for x, _ in rows])
    expected = [bool(v) for v in model.model.predict(X)]
    s = model.model.decision_function(X)
    assert (s > 0).tolist() != expected  # the threshold matters on this stream
    assert list(model.predict_many(frame)) == expected
    assert [model.predict_one(x) for x, _ in rows] == expected
    assert ((model.predict_proba_many(frame)[True] > 0.5).tolist()) == expected
    assert [model.predict_proba_one(x)[True] > 0.5 for x, _ in rows] == expected


def test_feature_order_new_keys_ignored_missing_zero():
    model = RiverClassifier(CostSensitivePA(), classes=("no", "yes"))
    model.learn_one({"a": 1.0, "b": 2.0}, "yes")
    with pytest.warns(UserWarning, match="key 'c' first appeared later and is ignored"):
        model.learn_one({"b": -1.0, "a": 0.5, "c": 100.0}, "no")  # c: not in the order
    ref = CostSensitivePA().partial_fit(np.array([[1.0, 2.0], [0.5, -1.0]]), [1, 0], classes=[0, 1])
    np.testing.assert_array_equal(model.model.weights_, ref.weights_)
    s = ref.decision_function([[0.0, 2.0]])[0]  # a missing -> 0
    assert model.predict_proba_one({"b": 2.0})["yes"] == pytest.approx(1 / (1 + np.exp(-s)))
    fixed = RiverClassifier(OGD(), features=("b", "a"))
    fixed.learn_one({"a": 1.0, "b": 2.0}, True)
    assert fixed.model.n_features_in_ == 2
    with pytest.raises(ValueError, match="neither of classes"):
        model.learn_one({"a": 1.0}, "maybe")
    with pytest.raises(ValueError, match="must be a number"):
        model.learn_one({"a": "red"}, "no")
    with pytest.raises(TypeError, match="skewlearn online classifier"):
        RiverClassifier(object())
    with pytest.raises(ValueError, match="two distinct labels"):
        RiverClassifier(OGD(), classes=(1, 1))


def _phishing_auc(model):
    """Test-then-train ``model`` on River's Phishing stream: our exact ROC AUC and River's
    ``ROCAUC`` of its probabilities, and scikit-learn's ``roc_auc_score`` of them."""
    ours, theirs = RiverMetric(ROCAUC()), rmetrics.ROCAUC()
    truth, probs = [], []
    for x, t in datasets.Phishing():
        p = model.predict_proba_one(x)
        ours.update(t, p)
        theirs.update(t, p)
        truth.append(t)
        probs.append(p[True])
        model.learn_one(x, t)
    return ours, theirs, roc_auc_score(truth, probs)


def test_exact_roc_auc_in_progressive_validation():
    """Ours equals scikit-learn on the prequential probabilities; River's ROCAUC approximates."""
    ours, theirs, exact = _phishing_auc(RiverClassifier(OGD(loss="logistic")))
    assert ours.get() == pytest.approx(exact, rel=1e-12)
    assert abs(theirs.get() - exact) < 0.05  # River's grid approximation, for reference
    res = evaluate.progressive_val_score(
        datasets.Phishing(), RiverClassifier(OGD(loss="logistic")), RiverMetric(ROCAUC())
    )
    assert res.get() == pytest.approx(exact, rel=1e-12)


def test_the_docstring_warns_that_rivers_rocauc_loses_small_kernel_scores():
    """Session 17: the docstring called sigma(f - t) "enough for River's ROC AUC". River's
    ``ROCAUC`` counts the probabilities at ``n_thresholds`` (10) grid points; KOIL's scores
    are small, so behind a StandardScaler its probabilities stay near 1/2 and River reports
    about 0.55 where the exact AUC of the same probabilities is about 0.9."""
    from river import compose, preprocessing

    model = compose.Pipeline(
        preprocessing.StandardScaler(),
        RiverClassifier(KOIL(budget_pos=30, budget_neg=30), seed=0),
    )
    ours, theirs, exact = _phishing_auc(model)
    assert ours.get() == pytest.approx(exact, rel=1e-12)
    assert ours.get() > 0.85 and theirs.get() < ours.get() - 0.2
    doc = " ".join(RiverClassifier.__doc__.split())
    assert "enough for River's ROC AUC" not in doc
    assert "n_thresholds" in doc and "RiverMetric(ROCAUC())" in doc


def test_label_metrics_equal_rivers_and_errors():
    rng = np.random.default_rng(0)
    y = rng.random(200) < 0.2
    yp = rng.random(200) < 0.3
    ours, theirs, mr = RiverMetric(F1()), rmetrics.F1(), RiverMetric(MistakeRate())
    for a, b in zip(y, yp):
        for m in (ours, theirs, mr):
            m.update(bool(a), bool(b))
    assert ours.get() == pytest.approx(theirs.get(), rel=1e-12)
    assert ours.get() == pytest.approx(f1_score(y, yp), rel=1e-12)
    assert mr.get() == pytest.approx(np.mean(y != yp)) and not mr.bigger_is_better
    assert ours.requires_labels and not RiverMetric(HistogramPRAUC()).requires_labels
    words = RiverMetric(F1(), pos_val="spam")
    words.update("spam", "spam")
    words.update("ham", "spam")
    assert words.get() == pytest.approx(2 / 3)
    with pytest.raises(NotImplementedError, match="cannot forget"):
        ours.revert(True, True)
    with pytest.raises(ValueError, match="sample weights"):
        ours.update(True, True, w=2.0)
    with pytest.raises(TypeError, match="float value"):
        RiverMetric(Confusion())
    with pytest.raises(ValueError, match="pos_label must be 1"):
        RiverMetric(F1(pos_label="spam"))


def test_exact_auprc_and_windowed_auroc_as_river_metrics():
    from sklearn.metrics import average_precision_score

    from skewlearn.metrics import PRAUC, WindowedPRAUC, WindowedROCAUC

    model = RiverClassifier(OGD(loss="logistic"))
    ap, wroc, wap = (
        RiverMetric(PRAUC()),
        RiverMetric(WindowedROCAUC(200)),
        RiverMetric(WindowedPRAUC(200)),
    )
    truth, probs = [], []
    for i, (x, t) in enumerate(datasets.Phishing()):
        p = model.predict_proba_one(x)
        for m in (ap, wroc, wap):
            m.update(t, p)
        truth.append(t)
        probs.append(p[True])
        model.learn_one(x, t)
        if i % 97 == 96:
            assert ap.get() == pytest.approx(average_precision_score(truth, probs), rel=1e-12)
            assert wroc.get() == pytest.approx(roc_auc_score(truth[-200:], probs[-200:]), rel=1e-12)
            assert wap.get() == pytest.approx(
                average_precision_score(truth[-200:], probs[-200:]), rel=1e-12
            )


def test_learn_many_reads_a_missing_cell_as_a_missing_key():
    """A frame built from dicts with different keys holds NaN where a key is missing;
    learn_many crashed on it ("X contains NaN") while learn_one counts the key as 0."""
    rows = [{"a": 1.0, "b": 0.5}, {"a": -1.0}, {"a": 0.8, "b": -0.2}, {"a": -0.9, "b": 0.1}]
    ys = [True, False, True, False]
    one = RiverClassifier(CostSensitivePA())
    for x, t in zip(rows, ys):
        one.learn_one(x, t)
    many = RiverClassifier(CostSensitivePA())
    many.learn_many(pd.DataFrame(rows), pd.Series(ys))
    np.testing.assert_array_equal(many.model.weights_, one.model.weights_)
    q = pd.DataFrame([{"a": 0.3}, {"a": 0.3, "b": 0.0}])
    p = many.predict_proba_many(q)[True]
    assert p[0] == p[1] == one.predict_proba_one({"a": 0.3})[True]
    assert list(many.predict_many(q)) == [one.predict_one({"a": 0.3})] * 2


def test_a_cloned_metric_has_seen_no_data():
    """River's clone contract ("not been updated with any data"), which River's Metrics,
    SuccessiveHalving and evaluation tracks rely on; the wrapper's clone copied the counts."""
    from river.metrics.base import Metrics

    m = RiverMetric(ROCAUC())
    for yt, p in [(True, 0.9), (False, 0.1), (True, 0.2), (False, 0.6)]:
        m.update(yt, p)
    c = m.clone()
    assert c.metric.n_pos == c.metric.n_neg == 0 and math.isnan(c.get())
    assert m.get() == 0.75  # the original keeps its counts
    c.update(True, 0.3)
    c.update(False, 0.4)
    assert c.get() == 0.0 and m.get() == 0.75
    f = RiverMetric(F1())
    f.update(True, True)
    assert f.clone().metric.get() == F1().get()
    assert RiverMetric(F1(), pos_val="yes").clone().pos_val == "yes"
    both = Metrics([RiverMetric(ROCAUC())])
    both.update(True, 0.9)
    both.update(False, 0.1)
    assert math.isnan(both.clone()[0].get())


def test_text_cells_in_a_frame_get_the_same_hint_as_in_a_dict():
    """learn_many / predict_many / predict_proba_many raised pandas' bare "could not convert
    string to float" where learn_one names the fix (encode categorical features)."""
    model = RiverClassifier(OGD())
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": ["red", "blue"]})
    for call in (
        lambda: model.learn_many(frame, pd.Series([True, False])),
        lambda: model.learn_one({"a": "red"}, True),
    ):
        with pytest.raises(ValueError, match=r"must be a number.*OneHotEncoder"):
            call()
    model.learn_many(frame[["a"]], pd.Series([True, False]))
    for call in (model.predict_many, model.predict_proba_many):
        with pytest.raises(ValueError, match=r"must be a number.*OneHotEncoder"):
            call(frame.rename(columns={"b": "a", "a": "b"}))


def test_an_integer_beyond_float64_is_named_with_a_fix():
    """A Python integer beyond float64's range (a count or an ID kept as a feature) raised
    Python's bare OverflowError "int too large to convert to float" from learn_one,
    predict_one and the frame methods, naming neither the feature nor a fix; a float that
    large is refused with the magnitude message."""
    huge = 10**400
    model = RiverClassifier(OGD(), classes=(0, 1))
    frame = pd.DataFrame({"a": [1.0, 2.0], "n": [huge, 1]})
    message = r"Feature 'n' holds an integer too large for float64.*logarithm"
    for call in (
        lambda: model.learn_one({"a": 1.0, "n": huge}, 1),
        lambda: model.learn_many(frame, pd.Series([1, 0])),
    ):
        with pytest.raises(ValueError, match=message):
            call()
    model.learn_one({"a": 1.0, "n": 2}, 1)
    model.learn_one({"a": -1.0, "n": 3}, 0)
    weights = model.model.weights_.copy()
    for call in (
        lambda: model.learn_one({"a": 1.0, "n": huge}, 1),
        lambda: model.predict_one({"a": 1.0, "n": huge}),
        lambda: model.predict_proba_one({"n": -huge}),
        lambda: model.predict_many(frame),
    ):
        with pytest.raises(ValueError, match=message):
            call()
    np.testing.assert_array_equal(model.model.weights_, weights)
    with pytest.raises(ValueError, match=r"magnitude 1e\+300, beyond"):  # a float64
        model.predict_one({"a": 1.0, "n": 10**300})


def test_without_river_the_import_error_says_what_to_install():
    """A plain `pip install .` has neither River nor pandas; the adapter's import failed
    with "No module named 'pandas'" and no word of River."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['river'] = None\n"
        "try:\n    import skewlearn.compat.river\n"
        "except ImportError as e:\n    print(e)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "needs River and pandas" in out.stdout and "pip install river pandas" in out.stdout


@pytest.mark.parametrize(
    "estimator",
    [CostSensitivePA(), AROW(), OGD(eta=5.0, loss="squared"), KOIL(budget_pos=8, budget_neg=8),
     UOB(n_estimators=3), OMCSL()],
    ids=lambda e: type(e).__name__,
)  # fmt: skip
def test_learn_one_equals_partial_fit_row_by_row(estimator):
    """After the first row, learn_one skips partial_fit's validation of what it built itself
    (session 13); the learner's state, warnings and errors must be those of partial_fit
    called one row at a time (OMCSL keeps the partial_fit path: it post-processes _run)."""
    rows, keys, X, y = _phishing()
    X, y = X[:120], y[:120]
    model = RiverClassifier(estimator, seed=2)
    ref = clone(estimator).set_params(random_state=2, pos_label=None)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        for x, t in rows[:120]:
            model.learn_one(x, t)
    with warnings.catch_warnings(record=True) as expected:
        warnings.simplefilter("always")
        for i in range(120):
            ref.partial_fit(X[i : i + 1], y[i : i + 1], classes=[0, 1])
    assert [str(w.message) for w in got] == [str(w.message) for w in expected]
    # a later row's step-size warning points at the caller's line (the first row's, from
    # partial_fit inside the adapter, at the adapter)
    assert all(w.filename == __file__ for w in got[1:])
    if isinstance(estimator, OGD):
        assert len(got) > 50
    for name, value in vars(ref).items():
        if name.endswith("_") and isinstance(value, np.ndarray):
            np.testing.assert_array_equal(getattr(model.model, name), value, err_msg=name)
    bad = dict(rows[0][0])
    first = keys[0]
    for value, match in [(math.nan, "Input X contains NaN"), (1e200, "magnitude 1e\\+200")]:
        bad[first] = value
        with pytest.raises(ValueError, match=match):
            model.learn_one(bad, True)
    model.model.set_params(random_state=7)
    with pytest.raises(ValueError, match="random_state=2 -> 7 changed"):
        model.learn_one(rows[0][0], True)


@pytest.mark.parametrize(
    "estimator",
    [CostSensitivePA(), AROW(), KOIL(budget_pos=8, budget_neg=8, threshold=0.3),
     OAM(threshold=-0.2), UOB(n_estimators=3), OMCSL()],
    ids=lambda e: type(e).__name__,
)  # fmt: skip
def test_predict_one_equals_decision_function(estimator):
    """predict_one / predict_proba_one score the row they build without decision_function's
    validation (session 14); they must give the learner's own decision_function minus its
    threshold, squashed by the logistic function, and refuse what it refuses."""
    rows, keys, X, y = _phishing()
    model = RiverClassifier(estimator, seed=2)
    for x, t in rows[:150]:
        model.learn_one(x, t)
    learner = model.model
    cut = learner.threshold if getattr(learner, "threshold", None) is not None else 0.0
    s = learner.decision_function(X[150:]) - cut
    p = [model.predict_proba_one(x)[True] for x, _ in rows[150:]]
    np.testing.assert_allclose(p, 1.0 / (1.0 + np.exp(-s)), rtol=1e-12, atol=1e-300)
    # bit for bit (session 20: one row is scored without the 1-row matrix)
    np.testing.assert_array_equal(p, _logistic_pair(s)[:, 1])
    assert [model.predict_one(x) for x, _ in rows[150:]] == (s > 0).tolist()
    bad = dict(rows[0][0])
    for value, match in [(math.nan, "Input X contains NaN"), (1e200, "magnitude 1e\\+200")]:
        bad[keys[0]] = value
        for call in (model.predict_one, model.predict_proba_one):
            with pytest.raises(ValueError, match=match):
                call(bad)
        with pytest.raises(ValueError, match=match):
            learner.decision_function(np.array([[bad.get(k, 0.0) for k in keys]]))


def test_rivers_keyword_arguments_of_a_prediction_are_accepted_and_ignored():
    """River's Classifier declares predict_one(x, **kwargs) and predict_proba_one(x,
    **kwargs); its wrappers pass their keywords on to the wrapped classifier
    (ensemble.BaggingClassifier), and compose.Pipeline hands a last step that declares
    **kwargs every keyword the pipeline got (the timestamp t of utils.TimeRolling, ...),
    whichever step it was meant for: the adapter takes them and they change nothing
    (session 22; before, a keyword was a TypeError, also inside BaggingClassifier)."""
    rows = _phishing(140)[0]
    model = RiverClassifier(AROW(), seed=2)
    pipe = compose.Pipeline(preprocessing.StandardScaler(), RiverClassifier(AROW(), seed=2))
    bag = ensemble.BaggingClassifier(RiverClassifier(AROW(), seed=2), n_models=2, seed=0)
    for x, t in rows[:100]:
        model.learn_one(x, t)
        pipe.learn_one(x, t)
        bag.learn_one(x, t)
    for x, _ in rows[100:]:
        assert model.predict_one(x, t=5) == model.predict_one(x)
        assert model.predict_proba_one(x, t=5, other="x") == model.predict_proba_one(x)
        assert pipe.predict_one(x, t=5) == pipe.predict_one(x)
        assert pipe.predict_proba_one(x, t=5) == pipe.predict_proba_one(x)
        assert bag.predict_proba_one(x, t=5) == bag.predict_proba_one(x)


def test_predicting_an_empty_frame_gives_an_empty_answer():
    """predict_many / predict_proba_many on a frame of no rows answered with an empty
    Series/DataFrame before learning but raised scikit-learn's "0 sample(s)" error after
    it (River's own models answer empty, and learn_many takes an empty frame)."""
    rows, keys, X, y = _phishing(60)
    frame = pd.DataFrame([x for x, _ in rows])
    model = RiverClassifier(OMCSL(), seed=0, classes=("no", "yes"))
    model.learn_many(frame, pd.Series(np.where(y == 1, "yes", "no")))
    empty = frame.iloc[:0]
    proba = model.predict_proba_many(empty)
    assert proba.shape == (0, 2) and list(proba.columns) == ["no", "yes"]
    labels = model.predict_many(empty)
    assert len(labels) == 0 and labels.index.equals(empty.index)
    fresh = RiverClassifier(OMCSL(), classes=("no", "yes"))
    pd.testing.assert_frame_equal(proba, fresh.predict_proba_many(empty))
    pd.testing.assert_series_equal(labels, fresh.predict_many(empty))


def test_a_wrapped_metric_is_shown_with_its_name():
    """River prints metrics by class name (progressive_val_score, Metrics); every wrapped
    metric read "RiverMetric: ...", so two of them could not be told apart. They are shown
    as River shows its own wrappers (``Rolling(ROCAUC)``)."""
    from river.metrics.base import Metrics

    auc, f1 = RiverMetric(ROCAUC()), RiverMetric(F1())
    for yt, p in [(True, 0.9), (False, 0.1), (True, 0.2), (False, 0.6)]:
        auc.update(yt, p)
        f1.update(yt, p > 0.5)
    assert repr(auc) == "RiverMetric(ROCAUC): 75.00%"
    assert str(f1) == "RiverMetric(F1): 50.00%"
    assert str(Metrics([auc, f1])) == "RiverMetric(ROCAUC): 75.00%\nRiverMetric(F1): 50.00%"


def test_an_estimator_class_instead_of_an_instance_is_named():
    """RiverClassifier(OGD) (the class) said "...; got type", naming neither the mistake
    nor the fix."""
    with pytest.raises(
        TypeError, match=r"the class OGD, not an instance.*RiverClassifier\(OGD\(\)\)"
    ):
        RiverClassifier(OGD)


def test_a_class_that_cannot_be_wrapped_is_not_told_to_be_passed_as_an_instance():
    """Session 26 (probe w): RiverClassifier(river.linear_model.LogisticRegression) (the
    class) advised RiverClassifier(LogisticRegression()), which is refused in turn as a River
    model; a class that no instance of could be wrapped gets the instance's reason."""
    from sklearn.linear_model import SGDClassifier

    from skewlearn import LinearASLS

    cases = {
        river_linear_model.LogisticRegression: r"LogisticRegression is a River model already",
        SGDClassifier: r"the class SGDClassifier.*convert_sklearn_to_river\(SGDClassifier",
        LinearASLS: r"the class LinearASLS.*LinearASLS is a batch learner",
    }
    for cls, words in cases.items():
        with pytest.raises(TypeError, match=words) as err:
            RiverClassifier(cls)
        assert f"RiverClassifier({cls.__name__}())" not in str(err.value)


def test_an_estimator_that_cannot_learn_row_by_row_is_told_what_to_wrap():
    """A batch learner, a scikit-learn Pipeline, or another library's online classifier
    got "must be a skewlearn online classifier (with partial_fit and decision_function)",
    which SGDClassifier has both of, and which named no way forward for any of them."""
    from sklearn.linear_model import SGDClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from skewlearn import KernelASLS, StratifiedNystroem

    with pytest.raises(TypeError, match=r"KernelASLS is a batch learner.*no partial_fit"):
        RiverClassifier(KernelASLS())
    with pytest.raises(TypeError, match=r"StratifiedNystroem is a batch .*no partial_fit"):
        RiverClassifier(StratifiedNystroem())
    with pytest.raises(
        TypeError,
        match=r"a Pipeline.*preprocessing\.StandardScaler\(\) \| RiverClassifier\(",
    ):
        RiverClassifier(make_pipeline(StandardScaler(), OGD()))
    with pytest.raises(
        TypeError,
        match=r"SGDClassifier is not a skewlearn learner.*"
        r"river\.compat\.convert_sklearn_to_river\(SGDClassifier\(\.\.\.\), "
        r"classes=\['no', 'yes'\]\)",
    ):
        RiverClassifier(SGDClassifier(), classes=("no", "yes"))
    with pytest.raises(TypeError, match=r"SGDClassifier\(\.\.\.\), classes=\[False, True\]"):
        RiverClassifier(SGDClassifier(), classes=5)  # not two labels: the default shown
    with pytest.raises(TypeError, match=r"LogisticRegression is a River model already"):
        RiverClassifier(river_linear_model.LogisticRegression())
    with pytest.raises(TypeError, match=r"skewlearn online classifier.*got object\."):
        RiverClassifier(object())


def test_a_river_pipeline_is_told_it_is_a_river_model_not_a_pipeline():
    """Session 26 (probe w): a River pipeline has ``steps`` too, so RiverClassifier around
    one said "a Pipeline, which cannot learn one row at a time; build the pipeline in River"
    of a pipeline that learns row by row and is built in River."""
    for pipe in (
        preprocessing.StandardScaler() | river_linear_model.LogisticRegression(),
        preprocessing.StandardScaler() | RiverClassifier(OGD()),
    ):
        with pytest.raises(TypeError) as err:
            RiverClassifier(pipe)
        msg = str(err.value)
        assert "Pipeline is a River model already; use it directly" in msg
        assert "cannot learn one row at a time" not in msg


def test_a_metric_class_instead_of_an_instance_is_named():
    """RiverMetric(ROCAUC) (the class) said "...; got type"."""
    with pytest.raises(
        TypeError, match=r"the class ROCAUC, not an instance.*RiverMetric\(ROCAUC\(\)\)"
    ):
        RiverMetric(ROCAUC)


def test_omcsls_saturation_warning_points_at_the_callers_line():
    """OMCSL's saturation warning had a fixed stacklevel for a direct call, so through the
    adapter (learn_one / learn_many -> partial_fit) it pointed at the adapter's own line;
    it must point at the line that called the adapter, as the learners' step-size warnings
    do."""
    rng = np.random.default_rng(0)
    X = 30.0 * rng.normal(size=(300, 3))
    y = X[:, 0] + 20.0 * rng.normal(size=300) > 40.0
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    for many in (False, True):
        model = RiverClassifier(OMCSL(measure="auroc"), seed=0)
        with pytest.warns(RuntimeWarning, match="saturated") as caught:
            if many:
                model.learn_many(frame, pd.Series(y))
            else:
                for x, t in zip(frame.to_dict("records"), y):
                    model.learn_one(x, bool(t))
        assert [w.filename for w in caught] == [__file__]


def test_labels_that_can_never_equal_pos_val_are_refused():
    """RiverMetric compared each label with pos_val itself and passed the wrapped metric a
    bool, so a stream of text labels under the default pos_val=True counted every sample
    as negative: F1 0 and ROC AUC NaN for ever, silently, where the wrapped metric itself
    refuses text labels against a numeric pos_label (River's own metrics show 0% too)."""
    for metric, good in ((F1(), "spam"), (ROCAUC(), {"spam": 0.9, "ham": 0.1})):
        wrapped = RiverMetric(metric)
        with pytest.raises(ValueError, match=r"pos_val=True.*pos_val='spam'"):
            wrapped.update("spam", good)
        assert math.isnan(wrapped.get()) or wrapped.get() == 0.0  # nothing was counted
    numeric = RiverMetric(F1(), pos_val="spam")
    with pytest.raises(ValueError, match="y_true holds 1, a number, but pos_val='spam'"):
        numeric.update(1, "spam")
    with pytest.raises(ValueError, match="y_pred holds 'True', text, but pos_val=True"):
        RiverMetric(F1()).update(True, "True")
    # what stays accepted: bools, 0/1 against True, text against text, River's None and
    # an empty dict before a model has learnt (progressive_val_score skips those)
    ok = RiverMetric(F1())
    for a, b in ((True, True), (1, 0), (np.bool_(False), np.int64(1)), (True, None)):
        ok.update(a, b)
    assert ok.get() == pytest.approx(f1_score([1, 1, 0, 1], [1, 0, 1, 0]))
    words = RiverMetric(ROCAUC(), pos_val="spam")
    words.update("spam", {"spam": 0.9})
    words.update("ham", {})
    assert words.get() == 1.0


def test_an_estimators_pos_label_is_honoured_or_refused_never_replaced():
    """The adapter set the clone's pos_label to None (its codes 0/1 make classes[1]
    positive), silently: CostSensitiveOGD(pos_label=0, c_pos=0.9) learnt with the costs
    of the other class, and its predictions agreed with the same learner's on the same
    rows half of the time. A pos_label that is classes[1] is that convention; one that
    is another label now raises, naming classes=."""
    from skewlearn import CostSensitiveOGD

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] + rng.normal(size=300) > 1).astype(int)
    est = CostSensitiveOGD(objective="weighted", c_pos=0.9, c_neg=0.1, pos_label=0)
    with pytest.raises(ValueError, match=r"pos_label=0 .*classes=\(1, 0\)"):
        RiverClassifier(est, classes=(0, 1))
    with pytest.raises(ValueError, match=r"pos_label='spam' is not one of classes"):
        RiverClassifier(OGD(pos_label="spam"), classes=("ham", "eggs"))
    # the positive class through classes=: the learner's own model, bit for bit
    model = RiverClassifier(est, classes=(1, 0))
    for row, label in zip(X, y):
        model.learn_one({"a": row[0], "b": row[1]}, int(label))
    direct = clone(est).fit(X, y)
    np.testing.assert_array_equal(model.model.weights_, direct.weights_)
    predicted = [model.predict_one({"a": a, "b": b}) for a, b in X]
    assert predicted == direct.predict(X).tolist()
    # a pos_label equal to classes[1] (True == 1 included) changes nothing
    for pos, classes in ((1, (0, 1)), (True, (0, 1)), ("spam", ("ham", "spam"))):
        RiverClassifier(OGD(pos_label=pos), classes=classes)


def test_a_features_setting_that_is_no_ordered_list_of_keys_is_refused():
    """features="ab" became the keys 'a' and 'b' (a row {"ab": 3.0} was then all zeros),
    a repeated key was counted twice, a set gave an order that depends on the string hash
    seed of the process, and features=() or 5 failed at the first row with unrelated
    messages; all silently or late. Each is refused when the adapter is built."""
    for bad, match in (
        ("ab", r"features='ab' is one string"),
        (["a", "b", "a"], r"features names 'a' twice"),
        ({"a", "b"}, r"features must be an ordered sequence"),
        ((), r"features=\(\) names no feature"),
        (5, r"features must be an ordered sequence"),
        (("a", ["x"]), r"feature names must be hashable"),
    ):
        with pytest.raises((ValueError, TypeError), match=match):
            RiverClassifier(OGD(), features=bad)
    with pytest.raises(ValueError, match=r"classes='01' is one string"):
        RiverClassifier(OGD(), classes="01")  # read as the labels '0' and '1'
    model = RiverClassifier(OGD(), features=["b", "a"])
    model.learn_one({"a": 1.0, "b": 2.0, "c": 5.0}, True)
    assert model.model.weights_[:2].tolist() == [2.0, 1.0]


def test_a_probability_dict_where_a_label_belongs_is_refused():
    """RiverMetric(F1()).update(y, model.predict_proba_one(x)) compared the dict with
    pos_val (never equal), so every prediction counted as negative and F1 stayed 0,
    silently: the case session 15 refused in the streaming metrics themselves, passed
    through the wrapper (which hands them a bool). Score metrics take the dict."""
    model = RiverClassifier(OGD(loss="logistic"))
    rows, *_ = _phishing(50)
    for x, t in rows:
        model.learn_one(x, t)
    x, t = rows[0]
    with pytest.raises(ValueError, match=r"y_pred holds \{.*a dict.*predict_one"):
        RiverMetric(F1()).update(t, model.predict_proba_one(x))
    auc = RiverMetric(ROCAUC())
    auc.update(True, model.predict_proba_one(x))
    auc.update(False, {True: 0.0})
    assert auc.get() == 1.0


def test_frames_of_other_backends_are_read_and_a_refused_call_leaves_no_trace():
    """River 0.26 takes any frame narwhals reads (pyarrow, polars, ...); the adapter called
    pandas methods on it: AttributeError, after fixing the feature order to a pyarrow
    Table's `columns` (its column *data*), so the next pandas frame failed too
    ("unhashable type: 'pyarrow.lib.ChunkedArray'")."""
    pa = pytest.importorskip("pyarrow")
    rows, keys, X, y = _phishing(120)
    frame = pd.DataFrame(X, columns=keys)
    labels = pd.Series(y.astype(bool))
    ref = RiverClassifier(OGD(loss="logistic"))
    ref.learn_many(frame, labels)
    model = RiverClassifier(OGD(loss="logistic"))
    model.learn_many(pa.Table.from_pandas(frame), pa.chunked_array([labels.tolist()]))
    np.testing.assert_array_equal(model.model.weights_, ref.model.weights_)
    table = pa.Table.from_pandas(frame[:10])
    pd.testing.assert_frame_equal(
        model.predict_proba_many(table), ref.predict_proba_many(frame[:10]), check_index_type=False
    )
    assert list(model.predict_many(table)) == list(ref.predict_many(frame[:10]))
    fresh = RiverClassifier(OGD())
    with pytest.raises(TypeError, match=r"learn_many takes a data frame .* got list"):
        fresh.learn_many([dict(r) for r, _ in rows[:5]], labels[:5])
    fresh.learn_many(frame, labels)  # nothing of the refused call was kept
    np.testing.assert_array_equal(fresh.model.weights_[:-1].shape, (len(keys),))


def test_a_score_metric_refuses_text_as_the_wrapped_metric_does():
    """RiverMetric turned a score metric's y_pred into float itself, so a predicted label
    "1" (predict_one of a model over the labels "0"/"1") was taken as the score 1.0,
    silently, where ROCAUC itself refuses text scores (River's own ROCAUC fails on it)."""
    auc = RiverMetric(ROCAUC(), pos_val="1")
    with pytest.raises(TypeError, match="Pass scores, not predicted labels"):
        auc.update("1", "1")
    with pytest.raises(TypeError, match="Pass scores, not predicted labels"):
        auc.update("0", {"1": "0.3"})
    assert math.isnan(auc.get()) and auc.metric.n_pos == 0  # nothing was counted
    auc.update("1", {"1": 0.8, "0": 0.2})
    auc.update("0", np.float32(0.25))
    assert auc.get() == 1.0


@pytest.mark.parametrize("label", [None, float("nan"), pd.NA])
def test_a_missing_label_is_refused_as_missing(label):
    """An unlabelled row (None, NaN, pandas' NA) is no class: ``learn_one`` raised
    "boolean value of NA is ambiguous" for ``pd.NA`` and advised changing ``classes`` for
    None/NaN, which cannot help. It names the missing label and the fix (skip the row)."""
    model = RiverClassifier(OGD())
    with pytest.raises(ValueError, match=r"missing label.*Skip"):
        model.learn_one({"a": 1.0}, label)
    y = pd.Series([True, label, False], dtype="boolean" if label is pd.NA else object)
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0]}, index=[10, 11, 12])
    with pytest.raises(ValueError, match=r"missing label.*index 11.*Skip"):
        model.learn_many(X, y.set_axis(X.index))
    assert model.model is None  # nothing was learnt


def test_a_missing_true_label_is_not_counted_by_river_metric():
    """A missing y_true counted as a negative (None) or raised "boolean value of NA is
    ambiguous" (pd.NA); the wrapped metrics refuse missing labels."""
    for label in (None, float("nan"), pd.NA):
        m = RiverMetric(F1())
        with pytest.raises(ValueError, match="missing label"):
            m.update(label, True)
        m2 = RiverMetric(ROCAUC())
        with pytest.raises(ValueError, match="missing label"):
            m2.update(label, 0.3)
    m = RiverMetric(F1())
    m.update(True, None)  # a prediction River's models return before learning: passes
    assert m.metric.counts == (0, 0, 0, 1)


def test_a_frame_with_a_repeated_column_name_is_refused():
    """A first ``learn_many`` frame with two columns "a" made the feature order
    ("a", "a") (which ``features=`` refuses: one weight per key), so a later dict's "a"
    filled both; once the order was known, the same frame failed with pandas' "cannot
    reindex on an axis with duplicate labels". Both name the repeated column."""
    X = pd.DataFrame([[1.0, 2.0], [0.0, 1.0]], columns=["a", "a"])
    y = pd.Series([True, False])
    model = RiverClassifier(OGD())
    with pytest.raises(ValueError, match="'a' twice"):
        model.learn_many(X, y)
    assert model.model is None
    model.learn_one({"a": 1.0, "b": 2.0}, True)
    for method, args in (
        ("learn_many", (X, y)),
        ("predict_many", (X,)),
        ("predict_proba_many", (X,)),
    ):
        with pytest.raises(ValueError, match="'a' twice"):
            getattr(model, method)(*args)


def _logistic_pair(s):
    """[sigma(-s), sigma(s)] as OGD.predict_proba computes them (numpy's exp)."""
    from skewlearn.linear.first_order import _logistic_columns

    return _logistic_columns(np.asarray(s, dtype=np.float64))


@pytest.mark.parametrize(
    "estimator",
    [OGD(loss="logistic"), KOIL(budget_pos=8, budget_neg=8, threshold=0.3)],
    ids=lambda e: type(e).__name__,
)
def test_probabilities_are_the_learners_own_bit_for_bit(estimator):
    """Session 20: predict_proba_one/_many gave the class-0 column as 1 - p, where the
    wrapped OGD's predict_proba gives sigma(-z) (session 19: 1 - p is exactly 0 above
    z ~ 37, tying every confident row), and predict_proba_one took math.exp where
    predict_proba_many and OGD take numpy's, which differ in the last bit for ~5 % of
    scores. Both columns of both methods must now be OGD.predict_proba's values, bit for
    bit (for another learner the same function of f - threshold)."""
    rows, keys, X, y = _phishing()
    model = RiverClassifier(estimator, seed=0)
    for x, t in rows[:150]:
        model.learn_one(x, t)
    learner = model.model
    # the stream's rows, and the same rows scaled so that the scores pass |z| = 40
    Q = np.vstack([X, 100.0 * X[:40]])
    s = learner.decision_function(Q) - (getattr(learner, "threshold", None) or 0.0)
    expected = learner.predict_proba(Q) if hasattr(learner, "predict_proba") else None
    if expected is None:
        expected = _logistic_pair(s)
    else:
        np.testing.assert_array_equal(expected, _logistic_pair(s))
    if isinstance(learner, OGD):  # (KOIL's RBF scores stay small)
        assert s.max() > 40 and (expected[:, 0][s > 40] > 0).all()
    frame = pd.DataFrame(Q, columns=keys)
    many = model.predict_proba_many(frame)
    np.testing.assert_array_equal(many[False].to_numpy(), expected[:, 0])
    np.testing.assert_array_equal(many[True].to_numpy(), expected[:, 1])
    one = [model.predict_proba_one(dict(zip(keys, q.tolist()))) for q in Q]
    np.testing.assert_array_equal([p[False] for p in one], expected[:, 0])
    np.testing.assert_array_equal([p[True] for p in one], expected[:, 1])


@pytest.mark.parametrize(
    "estimator",
    [CostSensitivePA(), AROW(), OGD(loss="squared", eta=0.1)],
    ids=lambda e: type(e).__name__,
)
@pytest.mark.filterwarnings("ignore:OGD.*unstable step:RuntimeWarning")  # (OGD's huge rows)
def test_the_quick_row_check_refuses_and_learns_what_partial_fit_does(estimator):
    """Session 20: learn_one / predict_one pass a row without scanning it when its norm is
    within half the magnitude limit. Rows near and beyond the limit, and inf, must still
    get partial_fit's own verdict: learnt (an overflow of the state named, the model
    discarded: OGD's squared loss) or refused with its message."""
    from skewlearn.base import max_abs_value

    limit = max_abs_value(2)
    cases = [
        [0.4 * limit, 0.4 * limit],  # norm past the quick bound, values within the limit
        [0.9 * limit, 0.1],
        [1.5 * limit, 0.0],  # beyond the limit
        [-limit * (1 + 1e-15), 0.0],
        [math.inf, 0.0],
        [1e-300, -0.4 * limit],
    ]
    messages = []
    for values in cases:
        model = RiverClassifier(estimator, classes=(0, 1))
        ref = clone(estimator)
        for row, label in (([1000.0, 0.0], 0), ([-1.0, 1.0], 0), (values, 1)):
            try:
                ref.partial_fit(np.array([row]), [label], classes=[0, 1])
                expected = None
            except ValueError as err:
                expected = str(err)
            try:
                model.learn_one(dict(zip("ab", row)), label)
                got = None
            except ValueError as err:
                got = str(err)
            # the learner's own message (here after the feature's name)
            assert (got is None) == (expected is None), values
            assert expected is None or expected in got, values
            messages.append(got)
        for name, value in vars(ref).items():
            if name.endswith("_") and isinstance(value, np.ndarray):
                np.testing.assert_array_equal(getattr(model.model, name), value, err_msg=name)
        assert hasattr(model.model, "classes_") == hasattr(ref, "classes_")
    if isinstance(estimator, OGD):
        assert any(m and "state (weights_) became non-finite" in m for m in messages)
    model = RiverClassifier(estimator, classes=(0, 1))
    model.learn_one({"a": 1.0, "b": 0.0}, 0)
    for bad, match in [(1.5 * limit, "magnitude"), (math.inf, "infinity"), (math.nan, "NaN")]:
        for call in (model.predict_one, model.predict_proba_one):
            with pytest.raises(ValueError, match=match):
                call({"a": bad})


def test_a_bad_value_in_a_dict_is_named_by_its_key_with_rivers_fix():
    """Session 20: NaN, inf, a value too large or no number at all in a feature dict was
    refused without the key that held it ("Input X contains NaN") and with
    scikit-learn's SimpleImputer / StandardScaler as the fix, which a River pipeline
    cannot use. The message now names the key and River's preprocessing, and keeps the
    learner's own words."""
    model = RiverClassifier(OGD(), classes=(0, 1))
    calls = (
        lambda x: model.learn_one(x, 1),
        model.predict_one,
        model.predict_proba_one,
    )
    for fitted in (False, True):
        for value, words in [
            (math.nan, r"Input X contains NaN.*StatImputer"),
            (math.inf, r"Input X contains infinity.*finite value or leave the key out"),
            (1e200, r"magnitude 1e\+200.*river\.preprocessing\.StandardScaler"),
            ("red", r"must be a number.*OneHotEncoder"),
        ]:
            for call in calls[: 1 if not fitted else 3]:
                with pytest.raises(ValueError, match=rf"[Ff]eature 'b' .*{words}"):
                    call({"a": 1.0, "b": value, "c": 2.0})
        model.learn_one({"a": 1.0, "b": 0.0, "c": 2.0}, 1)
        model.learn_one({"a": -1.0, "b": 0.5, "c": 2.0}, 0)
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": [0.5, "red"], "c": [1.0, 1.0]})
    for call in (
        lambda: model.learn_many(frame, pd.Series([1, 0])),
        lambda: model.predict_many(frame),
        lambda: model.predict_proba_many(frame),
    ):
        with pytest.raises(ValueError, match=r"[Ff]eature 'b' .*must be a number.*OneHotEncoder"):
            call()


def test_a_bad_value_in_a_frame_is_named_by_its_column_and_row_with_rivers_fix():
    """Session 26: inf or a value too large in a ``learn_many`` / ``predict_many`` /
    ``predict_proba_many`` frame was refused with the learner's words alone ("Input X
    contains infinity ... e.g. sklearn.impute.SimpleImputer"), naming neither the column
    nor the row, nor a fix a River pipeline can use; ``learn_one`` names the key and
    River's fix. The frame's message now names the column, the row's index label and
    River's fix, and keeps the learner's own words (as ``learn_one``'s does)."""
    model = RiverClassifier(OGD(), classes=(0, 1))
    for fitted in (False, True):
        for value, words in [
            (math.inf, r"Input X contains infinity.*replace it with a finite value"),
            (-math.inf, r"Input X contains infinity.*replace it with a finite value"),
            (1e200, r"magnitude 1e\+200.*river\.preprocessing\.StandardScaler"),
        ]:
            frame = pd.DataFrame(
                {"a": [1.0, 2.0, 3.0], "b": [0.5, 0.0, value], "c": [1.0, 1.0, 1.0]},
                index=["r0", "r1", "r2"],
            )
            calls = [lambda f=frame: model.learn_many(f, pd.Series([1, 0, 1], index=f.index))]
            if fitted:
                calls += [
                    lambda f=frame: model.predict_many(f),
                    lambda f=frame: model.predict_proba_many(f),
                ]
            for call in calls:
                with pytest.raises(
                    ValueError, match=rf"Feature 'b' holds -?(inf|1e\+200) at index 'r2': .*{words}"
                ):
                    call()
        model.learn_many(pd.DataFrame({"a": [1.0, -1.0], "b": [0.0, 0.5], "c": [2.0, 2.0]}),
                         pd.Series([1, 0]))  # fmt: skip
    assert model.predict_many(pd.DataFrame({"a": [1.0], "b": [0.0], "c": [2.0]})).size == 1


def test_a_bad_value_in_a_frame_with_a_numeric_index_names_the_row_as_python_would():
    """Session 26 (probe w): the frame's message showed numpy's repr of an integer or float
    index label ("at index np.int64(2)", numpy 2), where the label is 2; a default or
    filtered frame has such an index."""
    model = RiverClassifier(OGD(), classes=(0, 1))
    for index, shown in [(None, "2"), ([10, 11, 12], "12"), ([0.5, 1.5, 2.5], "2.5")]:
        frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [0.5, 0.0, math.inf]}, index=index)
        with pytest.raises(ValueError) as err:
            model.learn_many(frame, pd.Series([1, 0, 1], index=frame.index))
        assert f"Feature 'b' holds inf at index {shown}: " in str(err.value)


def test_a_missing_value_in_a_dict_is_named_with_a_river_fix_that_works():
    """Session 25: ``None`` (a JSON ``null``; River's own mark of a missing value) or
    pandas' ``NA`` in a feature dict was told "Encode categorical features first (e.g.
    river.preprocessing.OneHotEncoder)", a fix for text; NaN and inf were told to impute
    with ``river.preprocessing.StatImputer``, which fills None only, for the features it
    is given, and passes NaN and inf through (into its running mean too). Each message now
    names the value and a fix River carries out: the one it gives for None is run here."""
    from river import preprocessing, stats

    imputer = preprocessing.StatImputer(("b", stats.Mean()))  # what the NaN text says
    imputer.learn_one({"b": 1.0})
    assert math.isnan(imputer.transform_one({"b": math.nan})["b"])
    assert imputer.transform_one({"b": None})["b"] == 1.0
    model = RiverClassifier(OGD(), classes=(0, 1))
    calls = (lambda x: model.learn_one(x, 1), model.predict_one, model.predict_proba_one)
    impute = re.escape("river.preprocessing.StatImputer(('b', river.stats.Mean()))")
    leave = re.escape("leave the key out of the dict (a missing key counts as 0)")
    for fitted in (False, True):
        for value, words in [
            (None, rf"holds None, a missing value.*{impute} fills None\) or {leave}"),
            (pd.NA, rf"holds <NA>, a missing value.*{leave}, or put None in its place.*not <NA>\)"),
            (math.nan, rf"holds nan: .*{leave}, or put None in its place.*not NaN"),
            (pd.NaT, rf"holds NaT, a missing value.*{leave}, or put None in its place.*not NaT"),
            (-math.inf, rf"holds -inf: .*replace it with a finite value or {leave}"),
        ]:
            for call in calls[: 1 if not fitted else 3]:
                with pytest.raises(ValueError, match=rf"[Ff]eature 'b' {words}") as info:
                    call({"a": 1.0, "b": value, "c": 2.0})
                assert "OneHotEncoder" not in str(info.value)
        model.learn_one({"a": 1.0, "b": 0.0, "c": 2.0}, 1)
        model.learn_one({"a": -1.0, "b": 0.5, "c": 2.0}, 0)
    # the fix the None message names, as written, in a River pipeline
    pipe = preprocessing.StatImputer(("b", stats.Mean())) | RiverClassifier(OGD())
    for x, y in [({"a": 1.0, "b": 2.0}, True), ({"a": -1.0, "b": None}, False)]:
        pipe.learn_one(x, y)
    assert set(pipe.predict_proba_one({"a": 1.0, "b": None})) == {False, True}
    # probe w: StatImputer fills None only (``x[i] is None``); pandas' NA passes through it,
    # so the NA message may not offer it as the fix (it did, and the same error followed)
    assert imputer.transform_one({"b": pd.NA})["b"] is pd.NA
    with pytest.raises(ValueError, match="holds <NA>"):
        pipe.learn_one({"a": 1.0, "b": pd.NA}, True)


def test_a_wrapped_model_refit_by_hand_is_validated_not_read_past_its_end():
    """Session 20: learn_one / predict_one skip validation for the adapter's own model,
    whose width is the feature order's. A user who refits ``model`` (exposed as
    ``.model``) with other data left it with another width or other classes, and the
    one-row paths still used them: scores read past the end of the 3 weights (a garbage
    probability, not an error) and learning wrote past it, or mapped every label to the
    negative class. Such a model now gets the learner's own validation."""
    model = RiverClassifier(OGD(), classes=(0, 1))
    x = {f"f{j}": float(j % 3 - 1) for j in range(20)}
    model.learn_one(x, 1)
    model.learn_one({k: -v for k, v in x.items()}, 0)
    rng = np.random.default_rng(0)
    model.model.fit(rng.normal(size=(20, 2)), np.arange(20) % 2)
    for call in (model.predict_one, model.predict_proba_one, lambda x: model.learn_one(x, 1)):
        with pytest.raises(ValueError, match="expecting 2 features"):
            call(x)
    model.model.fit(rng.normal(size=(20, 20)), np.where(np.arange(20) % 2, "b", "a"))
    with pytest.raises(ValueError, match="not the classes of earlier calls"):
        model.learn_one(x, 1)
    model.model.fit(rng.normal(size=(20, 20)), np.arange(20) % 2)  # as the adapter learns
    ref = copy.deepcopy(model.model)
    row = np.array([list(x.values())])
    for label in (1, 0, 1):
        model.learn_one(x, label)
        ref.partial_fit(row, [label])
    np.testing.assert_array_equal(model.model.weights_, ref.weights_)
    assert model.predict_proba_one(x)[1] == _logistic_pair(ref.decision_function(row))[0, 1]


def test_a_warning_names_the_users_line_through_rivers_pipeline_and_evaluation(monkeypatch):
    """The stack walk passes over scikit-learn's frames (a Pipeline, cross_val_score), so a
    warning names the line that called them; River's ``compose.Pipeline`` (the adapter's
    usual place, behind a scaler) and ``evaluate.progressive_val_score`` stand between the
    user and the adapter the same way, and the warning named river/compose/pipeline.py or
    river/evaluate/progressive_validation.py instead of the user's line."""
    from skewlearn import base

    monkeypatch.setattr(base, "LARGE_STATE", 1)  # AROW's full-covariance size warning
    rows = _phishing(40)[0]
    text = "covariance='full'"

    def files(call):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            call()
        hits = {w.filename for w in record if text in str(w.message)}
        assert hits, [str(w.message)[:80] for w in record]
        return hits

    def through_pipeline():
        model = preprocessing.StandardScaler() | RiverClassifier(AROW(covariance="full"))
        for x, t in rows:
            model.learn_one(x, t)

    assert files(through_pipeline) == {__file__}
    model = RiverClassifier(AROW(covariance="full"))
    assert files(lambda: evaluate.progressive_val_score(rows, model, rmetrics.ROCAUC())) == {
        __file__
    }


def test_a_score_of_zero_is_the_negative_class_in_every_prediction_method():
    """At a decision value of exactly 0 the learner's predict gives classes_[0]; the
    adapter's predict_one and predict_many must agree (session 23: no test held a row
    there, so ``>= 0`` in either survived)."""
    model = RiverClassifier(OGD(fit_intercept=False))
    model.learn_one({"a": 1.0, "b": 0.0}, True)
    model.learn_one({"a": 0.0, "b": 1.0}, False)
    x = {"a": 0.0, "b": 0.0}
    assert model.model.decision_function([[0.0, 0.0]])[0] == 0.0
    assert model.model.predict([[0.0, 0.0]])[0] == 0
    assert model.predict_one(x) is False
    assert model.predict_many(pd.DataFrame([x, {"a": 1.0, "b": 0.0}])).tolist() == [False, True]
    assert model.predict_proba_one(x) == {False: 0.5, True: 0.5}


def test_a_probability_dict_without_pos_val_scores_zero():
    """A River model that has seen one class only returns that class alone
    (``{False: 1.0}``): the probability of ``pos_val`` is then 0, ranked below every
    positive probability, not a neutral ½ (session 23: the default was untested)."""
    m = RiverMetric(ROCAUC())
    m.update(True, {True: 0.2, False: 0.8})
    m.update(False, {False: 1.0})
    assert m.get() == 1.0
    m.update(True, {False: 1.0})  # a positive at 0.0 ties the negative
    assert m.get() == pytest.approx(0.75)


def test_a_key_first_seen_after_the_first_learning_call_is_named_once():
    # River's OneHotEncoder, which the adapter's errors advise for text, emits a key only
    # for the category of the row at hand: the order learnt from the first row held one
    # category, and every other was ignored without a word (accuracy 74 % where River's
    # LogisticRegression reaches 99 % on this stream).
    rng = np.random.default_rng(0)
    colors = ["red", "green", "blue", "black"]
    rows = []
    for _ in range(400):
        c = colors[rng.integers(4)]
        rows.append(({"color": c, "v": float(rng.normal())}, c in ("blue", "black")))

    def pipeline(**kwargs):
        encoded = compose.Select("color") | preprocessing.OneHotEncoder()
        return encoded + compose.Select("v") | RiverClassifier(OGD(loss="logistic"), **kwargs)

    model = pipeline()
    with pytest.warns(UserWarning, match=r"key 'color_\w+' .*ignored.*features=") as caught:
        for x, t in rows:
            model.learn_one(x, t)
    assert len([w for w in caught if "features=" in str(w.message)]) == 1  # once per model
    assert caught[0].filename == __file__
    # with every feature named up front nothing is lost, and nothing is said
    names = ("v", *(f"color_{c}" for c in colors))
    named = pipeline(features=names)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = evaluate.progressive_val_score(rows, named, rmetrics.Accuracy())
    assert m.get() > 0.95
    with warnings.catch_warnings():  # keys left out of a given order are the user's choice
        warnings.simplefilter("error")
        chosen = RiverClassifier(OGD(), features=("a",))
        chosen.learn_one({"a": 1.0, "id": 7.0}, True)
        chosen.learn_one({"a": -1.0, "id": 8.0, "other": 1.0}, False)
        chosen.learn_many(pd.DataFrame({"a": [1.0], "id": [9.0]}), pd.Series([True]))
    # learn_many: a column the order does not hold
    frame = pd.DataFrame({"a": [1.0, -1.0], "b": [0.5, 0.2]})
    many = RiverClassifier(OGD())
    many.learn_many(frame[["a"]], pd.Series([True, False]))
    with pytest.warns(UserWarning, match=r"key 'b' .*ignored"):
        many.learn_many(frame, pd.Series([True, False]))
    with warnings.catch_warnings():  # predicting with other keys learns nothing: no word
        warnings.simplefilter("error")
        many.predict_proba_many(frame)
        many.predict_one({"a": 1.0, "c": 2.0})
