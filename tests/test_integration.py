"""Every estimator inside imbalanced-learn's Pipeline and scikit-learn's GridSearchCV.

Like tests/test_common.py this iterates over all exported estimators, so a new one is
covered without editing this file.
"""

from __future__ import annotations

import numpy as np
import pytest
from imblearn import FunctionSampler
from imblearn.over_sampling import RandomOverSampler
from imblearn.pipeline import Pipeline
from imblearn.under_sampling import RandomUnderSampler
from sklearn.base import clone, is_classifier
from sklearn.ensemble import BaggingClassifier, StackingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_predict
from sklearn.multiclass import OneVsRestClassifier
from sklearn.preprocessing import StandardScaler

from skewlearn._discovery import all_estimators

ESTIMATORS = {n: c for n, c in all_estimators().items() if is_classifier(c())}


def _first_params(cls) -> dict:
    return dict(getattr(cls, "_test_params", [{}])[0])


def _shuffle(X, y, seed=0):
    """imblearn's samplers return rows grouped by class; an online learner's fit keeps the
    order it is given, so a pipeline shuffles after sampling (see docs/decisions.md)."""
    perm = np.random.default_rng(seed).permutation(len(y))
    return X[perm], y[perm]


def _imbalanced(n=600, d=5, seed=0):
    """~10% positives, positives shifted along a direction: learnable by every model."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(int)
    X = rng.normal(size=(n, d)) + 2.5 * y[:, None] * np.linspace(1.0, 0.2, d)
    return X, np.array(["majority", "minority"])[y]


@pytest.mark.parametrize("sampler", [RandomUnderSampler, RandomOverSampler], ids=["under", "over"])
@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_in_imblearn_pipeline_after_sampler(name, sampler):
    X, y = _imbalanced()
    est = ESTIMATORS[name](**_first_params(ESTIMATORS[name]))
    if "random_state" in est.get_params():
        est.set_params(random_state=0)
    pipe = Pipeline(
        [
            ("scale", StandardScaler()),
            ("sample", sampler(random_state=0)),
            ("shuffle", FunctionSampler(func=_shuffle, validate=False)),
            ("model", est),
        ]
    )
    pipe.fit(X[:400], y[:400])
    scores = pipe.decision_function(X[400:])
    assert np.all(np.isfinite(scores))
    assert set(pipe.predict(X[400:])) <= {"majority", "minority"}
    assert roc_auc_score(y[400:] == "minority", scores) > 0.7


def _grid(est) -> dict:
    """A small real grid over C when the estimator has one, else its test params."""
    if isinstance(est.get_params().get("C"), (int, float)):
        return {"C": [0.1, 1.0]}
    return {k: [v] for k, v in _first_params(type(est)).items()} or {"pos_label": [None]}


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_in_grid_search_with_roc_auc(name):
    X, y = _imbalanced(seed=1)
    cls = ESTIMATORS[name]
    est = cls(**_first_params(cls))
    if "random_state" in est.get_params():
        est.set_params(random_state=0)
    search = GridSearchCV(
        clone(est),
        _grid(est),
        scoring="roc_auc",
        cv=StratifiedKFold(3, shuffle=True, random_state=0),
        error_score="raise",
    )
    search.fit(X, y)
    assert np.isfinite(search.best_score_) and search.best_score_ > 0.7
    assert search.predict(X[:5]).shape == (5,)


@pytest.mark.parametrize(
    "run",
    [
        lambda est, X, y: cross_val_predict(est, X, y, method="decision_function", cv=2),
        lambda est, X, y: BaggingClassifier(est, n_estimators=2, random_state=0).fit(X, y),
        lambda est, X, y: StackingClassifier([("m", est)], cv=2).fit(X, y),
        lambda est, X, y: OneVsRestClassifier(est).fit(X, y),
    ],
    ids=["cross_val_predict", "bagging", "stacking", "one_vs_rest"],
)
def test_pos_label_inside_label_encoding_meta_estimators_is_explained(run):
    """scikit-learn's cross_val_predict (scores), BaggingClassifier, VotingClassifier and
    StackingClassifier fit their copies on y re-encoded as 0/1, so pos_label="minority"
    meets classes [0, 1]. The error said only that 'minority' is not one of [0, 1]; it now
    names the re-encoding and the way out."""
    X, y = _imbalanced(n=200)
    est = ESTIMATORS["OGD"](pos_label="minority")
    with pytest.raises(ValueError, match=r"re-encoded as 0 and 1.*pos_label=None"):
        run(est, X, y)


@pytest.mark.parametrize("name", ["BalancedBaggingClassifier", "EasyEnsembleClassifier"])
def test_pos_label_inside_imbalanced_learns_bagging_names_it(name):
    """imbalanced-learn's balanced bagging ensembles (the natural wrappers for this
    library's users) re-encode y as 0/1 as BaggingClassifier does, but the explanation
    listed scikit-learn's meta-estimators only; it now names them too."""
    from imblearn import ensemble

    X, y = _imbalanced(n=200)
    wrapper = getattr(ensemble, name)(
        estimator=ESTIMATORS["OGD"](pos_label="minority"), n_estimators=2, random_state=0
    )
    with pytest.raises(ValueError, match=r"re-encoded as 0 and 1.*pos_label=None") as info:
        wrapper.fit(X, y)
    assert "imbalanced-learn's" in str(info.value) and name in str(info.value)


def test_pos_label_error_without_encoding_keeps_its_message():
    """Classes other than 0/1 give the bare message (no guess about meta-estimators)."""
    X, y = _imbalanced(n=200)
    with pytest.raises(ValueError, match=r"is not one of the classes") as info:
        ESTIMATORS["OGD"](pos_label="yes").fit(X, y)
    assert "re-encoded" not in str(info.value)
    with pytest.raises(ValueError, match=r"is not one of the classes") as info:
        ESTIMATORS["OGD"](pos_label="yes").fit(X, y == "minority")  # bool classes
    assert "re-encoded" not in str(info.value)


@pytest.mark.parametrize("name", ["KOIL", "OAM", "OPAUC"])
@pytest.mark.parametrize("pos_label", ["majority", "minority"])
def test_fixed_threshold_classifier_carries_the_threshold(name, pos_label):
    """The `threshold` docstrings send users to FixedThresholdClassifier where a
    meta-estimator cuts decision_function itself: it must predict exactly as the
    learner's own threshold does, for either positive class."""
    from sklearn.model_selection import FixedThresholdClassifier

    X, y = _imbalanced(n=300)
    params = {**_first_params(ESTIMATORS[name]), "pos_label": pos_label}
    own = ESTIMATORS[name](**params, threshold=0.05).fit(X, y)
    wrapped = FixedThresholdClassifier(
        ESTIMATORS[name](**params), threshold=0.05, pos_label=pos_label
    ).fit(X, y)
    assert 0 < (own.predict(X) != own.classes_[(own.decision_function(X) > 0).astype(int)]).sum()
    np.testing.assert_array_equal(wrapped.predict(X), own.predict(X))


def test_class_weight_inside_label_encoding_meta_estimator_is_explained():
    """SimpleMKL's class_weight dict keyed by the original labels meets classes [0, 1]
    inside BaggingClassifier; the error names the re-encoding, as for pos_label."""
    X, y = _imbalanced(n=200)
    est = ESTIMATORS["SimpleMKL"](max_iter=3, class_weight={"minority": 5.0, "majority": 1.0})
    with pytest.raises(
        ValueError, match=r"class_weight keys.*re-encoded as 0 and 1.*Key class_weight"
    ):
        BaggingClassifier(est, n_estimators=2, random_state=0).fit(X, y)
    est.fit(X, y)  # the original labels work outside


def _cost_settings(est) -> list[str]:
    names = ("c_pos", "c_neg", "C_pos", "C_neg", "r_pos", "m_pos", "class_weight")
    return [n for n in names if n in est.get_params(deep=False)]


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_sample_weight_is_refused_with_the_alternatives(name):
    """The learners take no sample weights (known and kept), but fit(X, y, sample_weight=w)
    -- directly, or through StackingClassifier, VotingClassifier or a Pipeline, which pass
    it on -- failed with Python's bare "got an unexpected keyword argument". The error now
    says the learner does not weight rows and names what it has instead: its class costs
    when it has them, else imbalanced-learn's samplers. scikit-learn must still see no
    sample_weight parameter (BaggingClassifier then bootstraps by indexing, and no
    set_fit_request appears)."""
    from sklearn.ensemble import VotingClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.utils.validation import has_fit_parameter

    X, y = _imbalanced(n=120)
    w = np.ones(len(y))
    cls = ESTIMATORS[name]
    est = cls(**_first_params(cls))
    message = r"takes no sample_weight.*imbalanced-learn"
    for run in (
        lambda: clone(est).fit(X, y, sample_weight=w),
        lambda: VotingClassifier([("m", clone(est))]).fit(X, y, sample_weight=w),
        lambda: StackingClassifier([("m", clone(est))], cv=2).fit(X, y, sample_weight=w),
        lambda: make_pipeline(StandardScaler(), clone(est)).fit(
            X, y, **{f"{name.lower()}__sample_weight": w}
        ),
    ):
        with pytest.raises(TypeError, match=message) as info:
            run()
        for setting in _cost_settings(est):
            assert setting in str(info.value)
        if name == "OMCSL":  # it chooses its costs itself
            assert "let OMCSL choose the class costs" in str(info.value)
    if hasattr(est, "partial_fit"):
        with pytest.raises(TypeError, match=message):
            clone(est).partial_fit(X, y, sample_weight=w)
        with pytest.raises(TypeError, match=r"test_then_train\(\) takes no sample_weight"):
            clone(est).test_then_train(X, y, sample_weight=w)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'weights'"):
        clone(est).fit(X, y, weights=w)
    assert not has_fit_parameter(est, "sample_weight")
    assert not hasattr(est, "set_fit_request")
    routing = est.get_metadata_routing()
    assert "sample_weight" not in str(routing.fit) + str(routing.partial_fit)


def test_one_vs_one_partial_fit_with_text_labels_is_explained():
    """scikit-learn's OneVsOneClassifier.partial_fit hands its binary learners text labels
    made with np.zeros_like(y): '' and '1' against classes=[0, 1] (its own SGDClassifier
    fails too). The error said only that y contains labels '', '1'; it now names the
    cause and the way out, which works."""
    from sklearn.multiclass import OneVsOneClassifier
    from sklearn.preprocessing import LabelEncoder

    rng = np.random.default_rng(0)
    y3 = rng.integers(0, 3, 150)
    X = rng.normal(size=(150, 4)) + y3[:, None]
    text = np.array(["a", "b", "c"])[y3]
    est = ESTIMATORS["OGD"]()
    with pytest.raises(ValueError, match=r"OneVsOneClassifier.*'' and '1'.*LabelEncoder") as info:
        OneVsOneClassifier(est).partial_fit(X, text, classes=["a", "b", "c"])
    # session 23: this hint replaces the general one ("pass y's two labels as classes"),
    # which the user cannot follow: OneVsOneClassifier chooses the binary classes
    assert "y holds strings" not in str(info.value)
    codes = LabelEncoder().fit(text)
    ovo = OneVsOneClassifier(est)
    for lo in range(0, 150, 50):
        ovo.partial_fit(X[lo : lo + 50], codes.transform(text[lo : lo + 50]), classes=[0, 1, 2])
    full = OneVsOneClassifier(est).fit(X, y3)
    np.testing.assert_array_equal(ovo.predict(X), full.predict(X))
