"""Small batches: ``partial_fit`` one batch at a time, and one row at a time from River.

A stream is often learned in small pieces (a message queue, River's ``learn_one``), and
then the cost of each call, not of each row, decides the speed. This times, on the same
data in the same process:

* ``partial_fit`` on batches of 1, 10, 100 and 1,000 rows (d = 10 dense, 5 % positives):
  skewlearn ``PassiveAggressive(variant="pa1")`` beside scikit-learn
  ``SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1", eta0=1.0)``, the same
  PA-I update;
* one row at a time through River's API: River ``PAClassifier(C=1, mode=1)`` and skewlearn's
  adapter ``RiverClassifier(PassiveAggressive(variant="pa1"))``, ``learn_one`` and
  ``predict_one`` + ``learn_one`` (the dicts are built before the clock starts);
* the cost of one-row calls (``--one-row-calls``, 0 to skip): CPU µs a call of
  ``partial_fit``, ``decision_function``, ``predict`` (and OGD's ``predict_proba``,
  OMCSL's ``test_then_train``) on one row of a started model, for Perceptron, PA-I, OGD
  (logistic), AROW, CW, KOIL (budget 100 + 100) and OMCSL, on dense rows of 10 and 300
  features and CSR rows of 10,000 features with 20 non-zeros, beside scikit-learn's
  ``SGDClassifier`` (the same calls); the River adapter's ``learn_one``, ``predict_one``
  and ``predict_proba_one`` (PA-I and logistic OGD, 10 features) beside River's
  ``PAClassifier`` and ``LogisticRegression``; and one sample's ``update`` of the
  streaming ``ROCAUC`` and ``F1`` beside River's (the rows, dicts and scores are made
  before the clock starts).

Rates are rows per CPU second (``time.process_time``), best of ``--repeat`` runs.

Run::

    python benchmarks/bench_small_batches.py
"""

from __future__ import annotations

import argparse
import json
import time
import warnings

import numpy as np

BATCHES = (1, 10, 100, 1000)


def _data(n: int, d: int = 10, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    s = X @ rng.normal(size=d) + 0.3 * np.sqrt(d) * rng.normal(size=n)
    return X, (s > np.quantile(s, 0.95)).astype(np.int64)


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def _batches(make, X, y, size: int):
    def run():
        model = make()
        model.partial_fit(X[:size], y[:size], classes=[0, 1])
        for lo in range(size, X.shape[0], size):
            model.partial_fit(X[lo : lo + size], y[lo : lo + size])

    return run


def _rounded(res: dict) -> str:
    return json.dumps({k: round(v, 2) for k, v in res.items()})


def _per_call(fn, calls: int, repeat: int) -> float:
    """CPU µs a call of ``fn`` (which makes ``calls`` calls), best of ``repeat``."""
    return _best(fn, repeat) / calls * 1e6


#: The one-row learners (name, constructor keywords) and the inputs (name, d, sparse).
ONE_ROW_LEARNERS = (
    ("Perceptron", {}),
    ("PassiveAggressive", {"variant": "pa1"}),
    ("OGD", {"loss": "logistic"}),
    ("AROW", {}),
    ("CW", {}),
    ("KOIL", {"budget_pos": 100, "budget_neg": 100}),
    ("OMCSL", {}),
)
ONE_ROW_INPUTS = (("dense d=10", 10, False), ("dense d=300", 300, False),
                  ("CSR d=10^4, 20 nnz", 10_000, True))  # fmt: skip


def _one_row_data(n: int, d: int, sparse: bool, seed: int = 0):
    rng = np.random.default_rng(seed)
    if sparse:
        import scipy.sparse as sp

        X = sp.random(n, d, density=20 / d, format="csr", random_state=seed)
        X.data = rng.normal(size=X.nnz)
    else:
        X = rng.normal(size=(n, d))
    return X, (rng.random(n) < 0.2).astype(np.int64)


def one_row_calls(calls: int, repeat: int) -> dict:
    """µs a call of one-row calls on started models (see the module docstring)."""
    from sklearn.linear_model import SGDClassifier

    import skewlearn

    def timed(model, method, rows, labels):
        f = getattr(model, method)
        if method in ("partial_fit", "test_then_train"):
            return _per_call(lambda: [f(r, t) for r, t in zip(rows, labels)], calls, repeat)
        return _per_call(lambda: [f(r) for r in rows], calls, repeat)

    out: dict = {"learners": {}, "river": {}, "metrics": {}}
    for kind, d, sparse in ONE_ROW_INPUTS:
        X, y = _one_row_data(calls + 50, d, sparse)
        rows = [X[i : i + 1] for i in range(50, calls + 50)]
        labels = [y[i : i + 1] for i in range(50, calls + 50)]
        makers = [(name, lambda n=name, kw=kw: getattr(skewlearn, n)(**kw))
                  for name, kw in ONE_ROW_LEARNERS]  # fmt: skip
        makers.append(("sklearn SGDClassifier", lambda: SGDClassifier(loss="hinge")))
        for name, make in makers:
            methods = ["partial_fit", "decision_function", "predict"]
            methods += ["predict_proba"] if name == "OGD" else []
            methods += ["test_then_train"] if name == "OMCSL" else []
            res = {}
            for method in methods:
                model = make().partial_fit(X[:50], y[:50], classes=[0, 1])
                timed(model, method, rows[:20], labels[:20])  # compile or load the cache
                res[method] = timed(model, method, rows, labels)
            out["learners"][(name, kind)] = res
            print(f"one row, {kind}, {name}: {_rounded(res)} µs", flush=True)
    try:
        from river import linear_model as rlm
        from river import metrics as rmetrics
        from river import optim

        from skewlearn.compat.river import RiverClassifier
    except ImportError:  # pragma: no cover - river is optional
        return out
    X, y = _data(calls + 100)
    dicts = [dict(zip([f"x{j}" for j in range(X.shape[1])], r)) for r in X.tolist()]
    first, dicts = dicts[:100], dicts[100:]
    flags = (X[:, 0] > 1.2).tolist()
    first_y, flags = flags[:100], flags[100:]
    makers = {
        "River PAClassifier": lambda: rlm.PAClassifier(C=1.0, mode=1),
        "RiverClassifier(PassiveAggressive)": lambda: RiverClassifier(
            skewlearn.PassiveAggressive(variant="pa1")
        ),
        "River LogisticRegression": lambda: rlm.LogisticRegression(optimizer=optim.SGD(0.01)),
        "RiverClassifier(OGD logistic)": lambda: RiverClassifier(skewlearn.OGD(loss="logistic")),
    }
    #: each adapter's peer: River's own model of the same kind
    out["river_peers"] = {
        "RiverClassifier(PassiveAggressive)": "River PAClassifier",
        "RiverClassifier(OGD logistic)": "River LogisticRegression",
    }
    for name, make in makers.items():
        model = make()
        for xi, yi in zip(first, first_y):
            model.learn_one(xi, yi)
        res = {
            "learn_one": _per_call(
                lambda m=model: [m.learn_one(xi, yi) for xi, yi in zip(dicts, flags)],
                calls,
                repeat,
            ),
            "predict_one": _per_call(
                lambda m=model: [m.predict_one(x) for x in dicts], calls, repeat
            ),
            "predict_proba_one": _per_call(
                lambda m=model: [m.predict_proba_one(x) for x in dicts], calls, repeat
            ),
        }
        out["river"][name] = res
        print(f"one row, River API, {name}: {_rounded(res)} µs", flush=True)
    from skewlearn.metrics import streaming

    scores = np.random.default_rng(1).normal(size=calls).tolist()
    pairs = list(zip(flags, scores))
    metrics = {
        "ROCAUC": (
            streaming.ROCAUC,
            lambda m: [m.update(t, s) for t, s in pairs],
            rmetrics.ROCAUC,
            lambda m: [m.update(t, {True: s, False: -s}) for t, s in pairs],
        ),
        "F1": (
            streaming.F1,
            lambda m: [m.update(t, s > 0) for t, s in pairs],
            rmetrics.F1,
            lambda m: [m.update(t, s > 0) for t, s in pairs],
        ),
    }
    for name, (ours, feed, theirs, feed_theirs) in metrics.items():
        feed(ours())  # warm-up: compile or load the cache
        out["metrics"][name] = {
            "skewlearn": _per_call(lambda f=feed, m=ours: f(m()), calls, repeat),
            "River": _per_call(lambda f=feed_theirs, m=theirs: f(m()), calls, repeat),
        }
        print(f"one sample, {name}.update: {_rounded(out['metrics'][name])} µs", flush=True)
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20_000, help="rows per batched run")
    ap.add_argument("--river-rows", type=int, default=5_000, help="rows per River run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--one-row-calls", type=int, default=5_000,
                    help="calls per measurement of the one-row section (0: skip)")  # fmt: skip
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore")
    from sklearn.linear_model import SGDClassifier

    from skewlearn import PassiveAggressive

    def ours():
        return PassiveAggressive(variant="pa1")

    def sgd():
        return SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1", eta0=1.0)

    X, y = _data(args.rows)
    out: dict = {"batches": {}, "river": {}}
    for size in BATCHES:
        n = args.rows if size > 1 else min(args.rows, args.river_rows)
        rates = {}
        for name, make in (("skewlearn", ours), ("sklearn", sgd)):
            _batches(make, X[:200], y[:200], size)()  # warm-up: compile or load the cache
            rates[name] = n / _best(_batches(make, X[:n], y[:n], size), args.repeat)
        out["batches"][size] = rates
        print(f"batch {size:>5}: skewlearn {rates['skewlearn']:>12,.0f}  sklearn "
              f"{rates['sklearn']:>12,.0f} rows/CPU-s", flush=True)  # fmt: skip
    try:
        from river import linear_model as rlm

        from skewlearn.compat.river import RiverClassifier
    except ImportError:  # pragma: no cover - river is optional
        return out
    n = args.river_rows
    rows = [dict(zip([f"x{j}" for j in range(X.shape[1])], r)) for r in X[:n].tolist()]
    labels = y[:n].astype(bool).tolist()
    makers = {
        "River PAClassifier": lambda: rlm.PAClassifier(C=1.0, mode=1),
        "skewlearn RiverClassifier(PassiveAggressive)": lambda: RiverClassifier(ours()),
    }
    for name, make in makers.items():

        def learn(make=make):
            model = make()
            for xi, yi in zip(rows, labels):
                model.learn_one(xi, yi)

        def both(make=make):
            model = make()
            for xi, yi in zip(rows, labels):
                model.predict_one(xi)
                model.learn_one(xi, yi)

        learn()  # warm-up
        out["river"][name] = {
            "learn_one": n / _best(learn, args.repeat),
            "predict_one+learn_one": n / _best(both, args.repeat),
        }
        print(f"{name}: {json.dumps({k: round(v) for k, v in out['river'][name].items()})}")
    if args.one_row_calls > 0:
        out["one_row"] = one_row_calls(args.one_row_calls, args.repeat)
    return out


if __name__ == "__main__":
    main()
