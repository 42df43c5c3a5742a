"""CPU time per row and peak memory of the online learners on wide sparse (CSR) streams.

The setting of SOL and LIBOL's text and click data (rcv1, news20, url, webspam: d from
47k to 3M, tens to hundreds of non-zeros a row): ``--rows`` CSR rows with ``--nnz``
non-zeros each (default 50; uniform values at uniform columns, repeats summed), at every
width of ``--dims`` (default 10^3 to 10^6), labels from a noisy linear concept with about
20 % positives. Each learner runs with its defaults (``random_state=0``); ``OGD_L2`` is
``OGD(alpha=1e-4)``, the L2 decay of the peer ``SGDClassifier``'s default.

Two ways of learning, both one pass in stream order:

* ``fit`` on the whole stream (one compiled pass): CPU microseconds a row, and the peak
  memory the fit allocates beyond its input (``tracemalloc``, on a separate fit of the
  first 500 rows);
* ``partial_fit`` one row at a time (``--one-row`` rows, default 300), the way a stream
  consumer (River's ``learn_one``) calls it: CPU microseconds a call. A learner whose
  per-row work is O(nnz) costs about the same at every width; one with an O(d) step per
  row (or per call, in the second mode) grows ~10x per decade of d.

The peers, on the same rows: scikit-learn's ``SGDClassifier(loss="hinge")`` with
``partial_fit`` (whole stream, and one row a call), and River's ``linear_model.PAClassifier``
(``learn_one`` per row; building its dicts is not timed) when River is installed. Each
skewlearn line gives its ratio to SGDClassifier in the same mode (> 1: slower than it).

Learners whose state is O(d^2) (``covariance="full"``) or whose support vectors are
stored dense (the kernel learners; OAM's buffers) are not run at widths where that state
would pass ``--max-state-mb`` (default 1,000): their line says so. ``--learners`` picks
some by name (``SGDClassifier`` and ``River`` name the peers).

The timing is CPU time of this process (``time.process_time``), best of ``--repeat``
calls after a warm-up call that compiles or loads the cached code.

Run::

    python benchmarks/bench_sparse.py                        # about 5 minutes
    python benchmarks/bench_sparse.py --dims 1000 1000000 --learners Perceptron CW OGD
    python benchmarks/bench_sparse.py --rows 2000 --dims 1000 10000 --one-row 100
"""

from __future__ import annotations

import argparse
import tracemalloc
import warnings

import numpy as np
import scipy.sparse as sp
from bench_small_batches import _best  # best-of-repeat CPU time

#: The online learners measured by default: the linear families, the AUC learners, the
#: ensembles and baselines, and the kernel learners (budgeted ones with their defaults).
LEARNERS = (
    "Perceptron PassiveAggressive OGD OGD_L2 ALMA ROMMA CostSensitiveOGD CostSensitivePA "
    "TruncatedGradient OFS AROW CW SCW NAROW NHERD SOP IELLIP OAM OPAUC OMCSL OFO OOB UOB "
    "KOIL RBP Forgetron NORMA Projectron ProjectronPP KernelPerceptron"
).split()

#: Learners whose state grows with d beyond the weight vectors, as a function of d giving
#: the bytes: OPAUC's default low-rank sketch is d x tau (tau = 50) per class; the kernel
#: learners and OAM store dense support vectors (their default budgets).
_STATE_BYTES = {
    "OAM": lambda d: 8 * 200 * d,
    "OPAUC": lambda d: 8 * 2 * 50 * d,
    "KOIL": lambda d: 8 * 200 * d,
    "RBP": lambda d: 8 * 100 * d,
    "Forgetron": lambda d: 8 * 100 * d,
    "NORMA": lambda d: 8 * 100 * d,
    "Projectron": lambda d: 8 * 1000 * d,
    "ProjectronPP": lambda d: 8 * 1000 * d,
    "KernelPerceptron": lambda d: 8 * 1000 * d,
}


def make_stream(n: int, d: int, nnz: float, seed: int = 0):
    """``n`` CSR rows of width ``d`` with about ``nnz`` non-zeros each, and 0/1 labels."""
    gen = np.random.default_rng(seed)
    per_row = int(min(float(d), nnz))
    total = n * per_row
    X = sp.csr_matrix(
        (gen.random(total), (np.repeat(np.arange(n), per_row), gen.integers(0, d, total))),
        shape=(n, d),
    )
    X.sum_duplicates()
    w = gen.normal(size=d)
    s = X @ w + 0.3 * gen.normal(size=n)
    return X, np.where(s > np.quantile(s, 0.8), 1, 0)


def _model(name: str):
    import skewlearn

    if name == "OPAUC":
        return skewlearn.OPAUC(covariance="low_rank", random_state=0)
    if name == "OGD_L2":  # L2 decay at SGDClassifier's default strength, the peer's setting
        return skewlearn.OGD(alpha=1e-4, random_state=0)
    cls = getattr(skewlearn, name)
    try:
        return cls(random_state=0)
    except TypeError:
        return cls()


def _peak_mb(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def time_skewlearn(name, X, y, one_row: int, repeat: int) -> dict:
    """``fit`` and one-row ``partial_fit`` CPU microseconds a row, and the fit's peak MB."""
    from sklearn.base import clone

    proto = _model(name)
    clone(proto).fit(X[:200], y[:200])  # compile / load the cached code
    fit_us = _best(lambda: clone(proto).fit(X, y), repeat) / X.shape[0] * 1e6
    peak = _peak_mb(lambda: clone(proto).fit(X[:500], y[:500]))
    m = min(one_row, X.shape[0] - 2)
    rows = [X[i : i + 1] for i in range(2, 2 + m)]

    def by_row():
        model = clone(proto).partial_fit(X[:2], y[:2], classes=[0, 1])
        for i, row in enumerate(rows):
            model.partial_fit(row, y[2 + i : 3 + i])

    row_us = _best(by_row, repeat) / max(m, 1) * 1e6
    return {"fit": fit_us, "row": row_us, "peak": peak}


def time_sgd(X, y, one_row: int, repeat: int) -> dict:
    from sklearn.linear_model import SGDClassifier

    def whole():
        SGDClassifier(loss="hinge").partial_fit(X, y, classes=[0, 1])

    m = min(one_row, X.shape[0])
    rows = [X[i : i + 1] for i in range(m)]

    def by_row():
        model = SGDClassifier(loss="hinge")
        for i, row in enumerate(rows):
            model.partial_fit(row, y[i : i + 1], classes=[0, 1])

    whole()
    fit_us = _best(whole, repeat) / X.shape[0] * 1e6
    peak = _peak_mb(lambda: SGDClassifier(loss="hinge").partial_fit(X[:500], y[:500], [0, 1]))
    return {"fit": fit_us, "row": _best(by_row, repeat) / max(m, 1) * 1e6, "peak": peak}


def time_river(X, y, one_row: int, repeat: int) -> dict | None:
    try:
        from river import linear_model
    except ImportError:
        return None
    m = min(max(one_row, 1000), X.shape[0])
    dicts = []
    for i in range(m):
        lo, hi = X.indptr[i], X.indptr[i + 1]
        dicts.append(dict(zip(X.indices[lo:hi].tolist(), X.data[lo:hi].tolist())))
    labels = [bool(v) for v in y[:m]]

    def learn():
        model = linear_model.PAClassifier()
        for x, t in zip(dicts, labels):
            model.learn_one(x, t)

    us = _best(learn, repeat) / m * 1e6
    return {"fit": us, "row": us, "peak": float("nan")}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5_000)
    ap.add_argument("--nnz", type=float, default=50.0)
    ap.add_argument("--dims", type=int, nargs="+", default=[1_000, 10_000, 100_000, 1_000_000])
    ap.add_argument("--one-row", type=int, default=300, help="rows learned one call each")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--max-state-mb", type=float, default=1_000.0)
    ap.add_argument("--learners", nargs="+", default=None, help="only these (by name)")
    args = ap.parse_args(argv)

    names = [*LEARNERS, "SGDClassifier", "River"]
    if args.learners is not None:
        names = [n for n in names if n in args.learners]
    results: dict[str, dict] = {}
    print(f"{'learner':<18} {'d':>9} {'fit us/row':>11} {'÷ SGD':>7} {'1-row us':>9} "
          f"{'÷ SGD':>7} {'peak MB':>8}")  # fmt: skip
    for d in args.dims:
        X, y = make_stream(args.rows, d, args.nnz)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = time_sgd(X, y, args.one_row, args.repeat)
            for name in names:
                if name == "SGDClassifier":
                    res = ref
                elif name == "River":
                    res = time_river(X, y, args.one_row, args.repeat)
                    if res is None:
                        print(f"{'River':<18} {d:>9,} (not installed)")
                        continue
                else:
                    need = _STATE_BYTES.get(name, lambda _: 0)(d) / 1e6
                    if need > args.max_state_mb:
                        print(f"{name:<18} {d:>9,} skipped: {need:,.0f} MB of dense state")
                        continue
                    res = time_skewlearn(name, X, y, args.one_row, args.repeat)
                res = {
                    **res,
                    "fit_ratio": res["fit"] / ref["fit"],
                    "row_ratio": res["row"] / ref["row"],
                }
                results[f"{name} d={d}"] = res
                print(
                    f"{name:<18} {d:>9,} {res['fit']:>11.2f} {res['fit_ratio']:>7.2f} "
                    f"{res['row']:>9.1f} {res['row_ratio']:>7.2f} {res['peak']:>8.1f}",
                    flush=True,
                )
    return results


if __name__ == "__main__":
    main()
