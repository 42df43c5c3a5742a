"""Code a user writes against skewlearn's public API, checked with ``mypy --strict``.

skewlearn ships ``py.typed``, so a user's type checker takes our annotations as the truth.
This file uses the API the way README.md, docs/guide.md, docs/experiments.md and the
command line's Python equivalents do; tests/typing/test_user_typing.py type-checks it
(``mypy --strict``, which must report nothing) and runs :func:`main` on small data, so it
is real code, not only annotations. ``assert_type`` pins the return types users rely on.

Everything runs inside :func:`main` (pytest imports this file for its doctests).
"""

from __future__ import annotations

import pickle
import tomllib
from pathlib import Path
from typing import Any, assert_type

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from skewlearn import (
    AROW,
    KOIL,
    OGD,
    OMCSL,
    OPAUC,
    CostSensitiveOGD,
    LinearASLS,
    MultiNystroem,
    PassiveAggressive,
    SelectionTrace,
    StratifiedNystroem,
)
from skewlearn.base import OnlineClassifier
from skewlearn.datasets import describe, iter_chunks, list_datasets, load, read, read_libsvm
from skewlearn.evaluation import KFold, PrequentialResult, paired_ttest, prequential
from skewlearn.experiments import Experiment, parse_experiment, run_experiment
from skewlearn.experiments.store import ResultStore, experiment_rows
from skewlearn.metrics import (
    F1,
    PRAUC,
    ROCAUC,
    Confusion,
    ConfusionCounts,
    GMean,
    HistogramROCAUC,
    StreamingMetric,
    WindowedROCAUC,
    confusion_counts,
    gmean,
    roc_auc,
)

Array = NDArray[Any]

EXPERIMENT = """
name = "typing"
seed = 0
metrics = ["roc_auc"]

[[datasets]]
name = "d"
generator = "make_classification"
params = {n_samples = 60, n_features = 4, weights = [0.8], random_state = 0}

[protocol]
kind = "kfold"
n_splits = 2
n_repeats = 1

[[estimators]]
name = "PA"
class = "PassiveAggressive"
"""


def stream(n: int, seed: int = 0) -> tuple[Array, Array]:
    """A small imbalanced problem with string labels, as in README.md."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 1.0, "fraud", "ok")
    return X, y


def estimators(X: Array, y: Array) -> float:
    """fit / partial_fit / test_then_train / predict / decision_function / predict_proba."""
    clf = PassiveAggressive(C=0.1, pos_label="fraud").fit(X[:150], y[:150])
    assert_type(clf, PassiveAggressive)
    scores = clf.decision_function(X[150:])
    assert_type(scores, Array)
    labels = clf.predict(X[150:])
    auc: float = roc_auc(y[150:], scores)
    g: float = gmean(y[150:], labels, pos_label="fraud")
    proba = OGD(loss="logistic").fit(X, y).predict_proba(X[150:])
    assert proba.shape == (len(X) - 150, 2)

    online = AROW(r=1.0)
    for lo in range(0, len(X), 50):
        online = online.partial_fit(X[lo : lo + 50], y[lo : lo + 50], classes=["fraud", "ok"])
    assert_type(online, AROW)
    tt = AROW(r=1.0, pos_label="fraud").test_then_train(X, y, classes=["fraud", "ok"])
    assert_type(tt, Array)

    csr = sp.csr_matrix(X)
    OPAUC(random_state=0).fit(csr, y).decision_function(csr)
    KOIL(random_state=0).partial_fit(X, y).predict(X)
    omcsl = OMCSL(measure="f1", random_state=0).set_params(eta=0.5).fit(X, y)
    assert_type(omcsl, OMCSL)
    scores_o, trace = OMCSL(random_state=0).test_then_train(X, y, return_trace=True)
    assert_type(trace, SelectionTrace)  # the overload on return_trace (session 22)
    assert_type(OMCSL(random_state=0).test_then_train(X, y), Array)
    # return_trace known only at run time, or given by position: accepted by the method, so
    # by its hints too (the union when the flag is a bool)
    traced = len(X) > 0
    either = OMCSL(random_state=0).test_then_train(X, y, return_trace=traced)
    assert_type(either, Array | tuple[Array, SelectionTrace])
    assert isinstance(either, tuple) and np.array_equal(either[0], scores_o)
    _, by_position = OMCSL(random_state=0).test_then_train(X, y, None, True)
    assert_type(by_position, SelectionTrace)
    assert len(trace.learner) == len(scores_o)
    try:  # random_state is what check_random_state takes: no numpy Generator
        OGD(random_state=np.random.default_rng(0)).fit(X, y)  # type: ignore[arg-type]
    except ValueError:
        pass
    else:
        raise AssertionError("a numpy Generator as random_state was accepted")
    CostSensitiveOGD(objective="sum").fit(X, y)
    LinearASLS().fit(X, y).decision_function(X)
    features = StratifiedNystroem(n_landmarks=10, random_state=0).fit(X, y).transform(X)
    assert_type(features, Array)
    mixed = MultiNystroem(kernels=({"gamma": 0.5}, {"kernel": "linear"}), n_landmarks=10)
    assert_type(mixed.fit(X, y).transform(X), Array)  # a tuple of kernels, as documented

    restored = pickle.loads(pickle.dumps(clf))  # what ``--save`` writes: a pickle
    assert isinstance(restored, PassiveAggressive)
    assert np.array_equal(restored.decision_function(X), clf.decision_function(X))
    return auc + g


def metrics(X: Array, y: Array) -> float:
    """Batch and streaming metrics, updated one row at a time and in batches."""
    scores = AROW(pos_label="fraud").test_then_train(X, y, classes=["fraud", "ok"])
    exact = ROCAUC(pos_label="fraud").update_many(y, -scores).get()
    assert_type(exact, float)
    one = ROCAUC(pos_label="fraud")
    for label, s in zip(y, -scores):
        one.update(label, s)
    assert one.get() == exact
    streaming: list[StreamingMetric] = [
        PRAUC(pos_label="fraud"),
        WindowedROCAUC(window=50, pos_label="fraud"),
        HistogramROCAUC(pos_label="fraud"),
    ]
    total = exact
    for m in streaming:
        total += m.update_many(y, -scores).get()
    predicted = np.where(scores < 0, "fraud", "ok")
    f1 = F1(pos_label="fraud").update_many(y, predicted).merge(F1(pos_label="fraud")).get()
    gm = GMean(pos_label="fraud").update_many(y, predicted).get()
    assert_type(gm, float)
    assert_type(Confusion(pos_label="fraud").update(y[0], predicted[0]).get(), ConfusionCounts)
    counts = confusion_counts(y, predicted, pos_label="fraud")
    assert_type(counts, ConfusionCounts)
    return total + f1 + gm + counts.tp


def evaluation(X: Array, y: Array, tmp: Path) -> float:
    """prequential over arrays and over a file read in chunks."""
    res = prequential(AROW(r=1.0, pos_label="fraud"), X, y, checkpoints=5, chunk_size=50)
    assert_type(res, PrequentialResult)
    final: dict[str, Any] = res.final
    table: str = res.as_table()
    assert table and res.to_json()
    frame = res.to_frame()  # pandas, as README.md shows
    assert len(frame) == 5

    path = tmp / "stream.svm"
    with open(path, "w", encoding="utf-8") as f:
        for row, label in zip(X, y):
            cells = " ".join(f"{j + 1}:{v:.6g}" for j, v in enumerate(row))
            f.write(f"{1 if label == 'fraud' else -1} {cells}\n")
    chunks = iter_chunks(path, chunk_size=64)
    by_chunks = prequential(AROW(r=1.0), chunks, metrics={"exact_auc": ROCAUC()})
    Xf, yf, meta = read_libsvm(path)
    Xr, yr, _ = read(str(path), format="libsvm")
    Xl, yl, info = load(path, positive_class=1)
    assert Xf.shape == Xr.shape == Xl.shape and len(yf) == len(yr) == len(yl)
    assert meta["format"] == "LIBSVM" and info["n_features"] == Xl.shape[1]
    train, test = KFold(n_splits=2, n_repeats=1).split(np.asarray(y), 0, "d", 0, 0)
    assert_type(train, Array)
    p_value = paired_ttest(float(final["auc"]) + np.arange(3.0), [0.1, 0.3, 0.2]).pvalue
    assert len(train) + len(test) == len(y) and 0 <= p_value <= 1
    return float(final["auc"]) + float(by_chunks.final["exact_auc"])


def registry() -> int:
    """The dataset registry: names and their description, without downloading."""
    names = list_datasets()
    info: dict[str, Any] = describe(names[0])
    return len(names) + len(info)


def experiments(tmp: Path) -> int:
    """An experiment from a TOML text, run in-process into an SQLite file, read back."""
    exp = parse_experiment(tomllib.loads(EXPERIMENT))
    assert_type(exp, Experiment)
    db = tmp / "results.sqlite"
    out = run_experiment(exp, db, n_jobs=1, progress=False)
    assert_type(out, dict[str, int])
    with ResultStore(db, readonly=True) as store:
        rows = store.rows("typing")
    assert len(rows) == len(experiment_rows(db, "typing"))
    return out["ran"]


def river_adapter(X: Array, y: Array) -> float:
    """The River adapter: a skewlearn learner as a River classifier, a metric as River's."""
    from skewlearn.compat.river import RiverClassifier, RiverMetric

    model = RiverClassifier(AROW(r=1.0), classes=("ok", "fraud"))
    metric = RiverMetric(ROCAUC(), pos_val="fraud")
    for row, label in zip(X, y):
        x = {f"x{j}": float(v) for j, v in enumerate(row)}
        proba = model.predict_proba_one(x)
        assert model.predict_one(x, t=0) in ("ok", "fraud")  # River's **kwargs, ignored
        metric.update(label, proba.get("fraud", 0.0))
        model.learn_one(x, label)
    assert_type(model.model, OnlineClassifier | None)
    # the feature order and the classes as lists, as their docstrings allow
    listed = RiverClassifier(AROW(r=1.0), classes=["ok", "fraud"], features=["x1", "x0"])
    listed.learn_one({"x0": 1.0, "x1": -1.0}, "fraud")
    assert listed.predict_one({"x0": 1.0, "x1": -1.0}) == "fraud"
    return metric.get()


def main(tmp: Path) -> None:
    """Run every part once on a small stream (writing files under ``tmp``)."""
    X, y = stream(300)
    total = estimators(X, y) + metrics(X, y) + evaluation(X, y, tmp)
    total += registry() + experiments(tmp) + river_adapter(X, y)
    assert np.isfinite(total)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        main(Path(d))
