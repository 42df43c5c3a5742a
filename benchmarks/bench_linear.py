"""Time skewlearn's PA-I and AROW (diagonal) beside scikit-learn and River, in one run.

Data: ``n`` dense rows × 50 features, 5% positives (a noisy linear concept), float64.
Peers, measured in the same process on the same data:

* scikit-learn ``SGDClassifier(loss="hinge", learning_rate="pa1")``, one epoch, no shuffle
  (scikit-learn's compiled PA-I);
* River ``PAClassifier(mode=1)`` on a prefix (it learns one dict per row), scaled to rows/s.

Every learner makes exactly one pass. We report the best of ``--repeat`` runs (after one
warm-up call, so numba compilation is excluded — the compiled code is cached on disk) and
ratios against each peer.

Run::

    python benchmarks/bench_linear.py            # 1,000,000 rows
    python benchmarks/bench_linear.py --rows 200000 --river-rows 20000
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def make_stream(n: int, d: int = 50, pos_rate: float = 0.05, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    w = rng.normal(size=d)
    s = X @ w + 0.5 * rng.normal(size=n)
    y = (s > np.quantile(s, 1 - pos_rate)).astype(np.int64)
    return X, y


def best_time(fn, repeat: int) -> float:
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv=None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--river-rows", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)

    from sklearn.linear_model import SGDClassifier

    import skewlearn

    X, y = make_stream(args.rows)
    n = len(y)
    rates: dict[str, float] = {}

    learners = {"skewlearn PA-I": lambda: skewlearn.PassiveAggressive(C=1.0, variant="pa1")}
    if hasattr(skewlearn, "AROW"):
        learners["skewlearn AROW (diag)"] = lambda: skewlearn.AROW(covariance="diag")
    for name, make in learners.items():
        make().fit(X[:100], y[:100])  # compile / load the cached kernel
        rates[name] = n / best_time(lambda make=make: make().fit(X, y), args.repeat)

    def sgd():
        SGDClassifier(
            loss="hinge",
            penalty=None,
            learning_rate="pa1",
            eta0=1.0,
            max_iter=1,
            tol=None,
            shuffle=False,
        ).fit(X, y)

    rates["scikit-learn SGDClassifier pa1 (1 epoch)"] = n / best_time(sgd, args.repeat)

    try:
        from river import linear_model as rlm
    except ImportError:  # pragma: no cover - river is optional
        rlm = None
    if rlm is not None:
        m = min(args.river_rows, n)
        cols = [f"x{j}" for j in range(X.shape[1])]
        dicts = [dict(zip(cols, row)) for row in X[:m].tolist()]
        labels = y[:m].astype(bool).tolist()

        def river_pa():
            model = rlm.PAClassifier(C=1.0, mode=1)
            for xi, yi in zip(dicts, labels):
                model.learn_one(xi, yi)

        # the same best of --repeat as every other learner (one run was River's first and
        # only, on a shared machine up to ~1.4x slower than its best)
        rates[f"River PAClassifier (first {m:,} rows, scaled)"] = m / best_time(
            river_pa, args.repeat
        )

    width = max(map(len, rates))
    peers = [k for k in rates if not k.startswith("skewlearn")]
    print(f"{n:,} rows x {X.shape[1]} features, {y.mean():.1%} positives, one pass each")
    print(f"{'learner':<{width}}  {'rows/s':>12}  " + "  ".join(f"÷{p.split()[0]}" for p in peers))
    for name, r in rates.items():
        ratios = "  ".join(f"{r / rates[p]:>{len(p.split()[0]) + 1}.2f}" for p in peers)
        print(f"{name:<{width}}  {r:>12,.0f}  {ratios}")
    return rates


if __name__ == "__main__":
    main()
