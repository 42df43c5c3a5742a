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
  ``predict_one`` + ``learn_one`` (the dicts are built before the clock starts).

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


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20_000, help="rows per batched run")
    ap.add_argument("--river-rows", type=int, default=5_000, help="rows per River run")
    ap.add_argument("--repeat", type=int, default=3)
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
    return out


if __name__ == "__main__":
    main()
