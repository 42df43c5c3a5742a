"""Run every benchmark in one go and write docs/benchmarks.md.

1. **Learners beside peers**: every exported skewlearn estimator's rows/s (per CPU second
   and per wall second) and peak memory (``tracemalloc``: bytes the fit allocates beyond
   its input) at d = 10 dense, 50 dense and 300 sparse (5% non-zero), with the peers
   measured in the same process on the same data: scikit-learn ``SGDClassifier`` (PA-I,
   one epoch), ``Perceptron`` (one epoch), ``SVC`` (RBF), ``Nystroem`` + ``LinearSVC``;
   River ``PAClassifier``, ``LogisticRegression`` (one ``learn_one`` per row; the dict
   conversion is not timed) and ``ROCAUC`` beside skewlearn's exact streaming ``ROCAUC``.
   Each learner's ratio to its family's closest peer is printed.
2. **Scaling**: how cost grows with rows, dimension and budget, one table per family.
3. **Small batches**, River's one-row API and the cost of one-row calls
   (``bench_small_batches.py``), **parsing**
   (``bench_parse.py``), **streaming a file from disk** through ``skewlearn stream``
   (``bench_stream.py``), **start-up** and float32 input (``bench_startup.py``).

Every online learner makes one pass in stream order; batch learners one ``fit``. Each
measurement is sized to take about ``--target`` CPU seconds (after a compile/cache-load
warm-up call), capped at ``--max-rows``. The machine may be shared with other work: CPU
time (``time.process_time``) is the figure to read, wall time is shown beside it. BLAS is
limited to ``--blas-threads`` threads (default 1), so every figure is a one-core figure
(waiting BLAS threads would otherwise count as CPU time).

Run::

    python benchmarks/run_all.py                    # about 15 minutes
    python benchmarks/run_all.py --quick            # about 3 minutes, smaller sizes
    python benchmarks/run_all.py --stream-rows 10000000 --stream-path /tmp/stream10m.svm
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
import tracemalloc
import warnings

import numpy as np
import scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

#: module prefix -> family name (the order of the report)
FAMILIES = {
    "skewlearn.linear.first_order": "linear, first order",
    "skewlearn.linear.second_order": "linear, second order",
    "skewlearn.linear.sparse": "linear, sparse",
    "skewlearn.linear.cost_sensitive": "linear, cost-sensitive",
    "skewlearn.auc": "online AUC",
    "skewlearn.kernel": "budgeted kernel",
    "skewlearn.ensemble": "ensembles",
    "skewlearn.batch": "batch",
}
#: the closest peer of each family (a learner's own entry overrides)
CLOSEST = {
    "linear, first order": "sklearn SGDClassifier(pa1)",
    "linear, second order": "sklearn SGDClassifier(pa1)",
    "linear, sparse": "sklearn SGDClassifier(pa1)",
    "linear, cost-sensitive": "sklearn SGDClassifier(pa1)",
    "online AUC": "sklearn SGDClassifier(pa1)",
    "budgeted kernel": "sklearn SVC(rbf)",
    "ensembles": "sklearn SGDClassifier(pa1)",
    "batch": "sklearn Nystroem+LinearSVC",
}
CLOSEST_OF = {
    "Perceptron": "sklearn Perceptron",
    "KernelASLS": "sklearn SVC(rbf)",
    "SimpleMKL": "sklearn SVC(rbf)",
}
#: representatives of each family for the scaling tables, with the budget parameter(s)
SCALING = {
    "linear, first order": ("PassiveAggressive", None),
    "linear, second order": ("AROW", None),
    "linear, sparse": ("OFS", None),
    "linear, cost-sensitive": ("CostSensitiveOGD", None),
    "online AUC": ("OAM", ("budget_pos", "budget_neg")),
    "budgeted kernel": ("KOIL", ("budget_pos", "budget_neg")),
    "ensembles": ("OMCSL", None),
    "batch": ("MultiNystroemMKL", None),
}
KERNEL_FAMILIES = ("budgeted kernel",)
#: run_all rewrites docs/benchmarks.md above this line and keeps what follows it
MARKER = "<!-- run_all.py writes everything above this line; sections below it are kept -->\n"


# --------------------------------------------------------------------------- data
def make_data(n: int, d: int, sparse: bool, seed: int = 0):
    """``n`` rows, about 5% positives from a noisy linear concept."""
    rng = np.random.default_rng(seed)
    if sparse:
        X = sp.random(n, d, density=0.05, format="csr", random_state=seed, dtype=np.float64)
        X.data = rng.normal(size=X.nnz)
    else:
        X = rng.normal(size=(n, d))
    w = rng.normal(size=d)
    s = X @ w + 0.3 * np.sqrt(d * (0.05 if sparse else 1.0)) * rng.normal(size=n)
    y = (s > np.quantile(s, 0.95)).astype(np.int64)
    return X, y


def settings(d_label: str):
    d, sparse = {"10": (10, False), "50": (50, False), "300s": (300, True)}[d_label]
    return d, sparse


# --------------------------------------------------------------------------- timing
def cpu_wall(fn):
    c, t = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c, time.perf_counter() - t


def best_of(fn, repeat: int = 3):
    """The run with the least CPU time of ``repeat`` (two vCPUs may share a core)."""
    return min((cpu_wall(fn) for _ in range(repeat)), key=lambda r: r[0])


def measure(fit, X, y, target: float, max_rows: int, min_rows: int = 500) -> dict:
    """Size the run to ~target CPU seconds, time it, then trace its allocations."""
    n_all = X.shape[0]
    n = min(min_rows, n_all)
    cpu, _ = cpu_wall(lambda: fit(X[:n], y[:n]))
    while cpu < target / 4 and n < min(max_rows, n_all):
        n = min(n * 4, max_rows, n_all)
        cpu, _ = cpu_wall(lambda n=n: fit(X[:n], y[:n]))
    if cpu > 0 and cpu < target:
        n = int(min(max(n * target / cpu, n), max_rows, n_all))
    Xn, yn = X[:n], y[:n]
    cpu, wall = best_of(lambda: fit(Xn, yn), 2)
    tracemalloc.start()
    fit(Xn, yn)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {
        "rows": n,
        "cpu_s": cpu,
        "wall_s": wall,
        "rows_per_cpu_s": n / cpu if cpu > 0 else float("nan"),
        "rows_per_s": n / wall if wall > 0 else float("nan"),
        "peak_mb": peak / 1e6,
    }


def skewlearn_estimators():
    from skewlearn._discovery import all_estimators

    out = []
    for name, cls in all_estimators().items():
        family = next((f for p, f in FAMILIES.items() if cls.__module__.startswith(p)), "other")
        out.append((family, name, cls))
    order = list(FAMILIES.values())
    out.sort(key=lambda t: (order.index(t[0]) if t[0] in order else 99, t[1]))
    return out


def make_estimator(cls, d: int, **extra):
    est = cls()
    params = est.get_params()
    if "gamma" in params:
        extra.setdefault("gamma", 1.0 / d)
    if "random_state" in params:
        extra.setdefault("random_state", 0)
    return est.set_params(**{k: v for k, v in extra.items() if k in params})


def peers(d: int):
    """name -> (fit(X, y) callable, kind) for the peers that run on this data."""
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import Perceptron, SGDClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import SVC, LinearSVC

    out = {
        "sklearn SGDClassifier(pa1)": lambda X, y: SGDClassifier(
            loss="hinge",
            penalty=None,
            learning_rate="pa1",
            eta0=1.0,
            max_iter=1,
            tol=None,
            shuffle=False,
        ).fit(X, y),
        "sklearn Perceptron": lambda X, y: Perceptron(max_iter=1, tol=None, shuffle=False).fit(
            X, y
        ),
        "sklearn SVC(rbf)": lambda X, y: SVC(kernel="rbf", gamma=1.0 / d).fit(X, y),
        "sklearn Nystroem+LinearSVC": lambda X, y: make_pipeline(
            Nystroem(gamma=1.0 / d, n_components=100, random_state=0), LinearSVC()
        ).fit(X, y),
    }
    try:
        from river import linear_model as rlm
    except ImportError:  # pragma: no cover - river is optional
        return out

    def river(make):
        def fit(X, y):
            model = make()
            for xi, yi in zip(_dicts(X), y.astype(bool).tolist()):
                model.learn_one(xi, yi)

        return fit

    out["River PAClassifier"] = river(lambda: rlm.PAClassifier(C=1.0, mode=1))
    out["River LogisticRegression"] = river(rlm.LogisticRegression)
    return out


_DICT_CACHE: dict = {}


def metric_peers(n: int) -> dict:
    """Exact streaming AUC (skewlearn) beside River's ROCAUC, per-row updates and batched;
    the exact average precision and F1 one row at a time, F1 beside River's F1."""
    from skewlearn.metrics import F1, PRAUC, ROCAUC

    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.05).astype(int)
    s = rng.normal(size=n) + y
    res = {}
    ys, ss = y.tolist(), s.tolist()
    # warm-up: load every compiled kernel from the cache before timing
    ROCAUC().update_many(y[:100], s[:100]).update(1, 0.5).get()
    PRAUC().update_many(y[:100], s[:100]).update(1, 0.5).get()

    def ours_batched():
        m = ROCAUC()
        for lo in range(0, n, 1000):
            m.update_many(y[lo : lo + 1000], s[lo : lo + 1000])
        m.get()

    def ours_rows():
        m = ROCAUC()
        for a, b in zip(ys, ss):
            m.update(a, b)
        m.get()

    cpu, _ = best_of(ours_batched, 2)
    res["skewlearn ROCAUC (exact, update_many per 1000)"] = n / cpu
    cpu, _ = best_of(ours_rows, 2)
    res["skewlearn ROCAUC (exact, one update per row)"] = n / cpu
    preds = (s > 0.5).astype(int).tolist()

    def ours_prauc_rows():
        m = PRAUC()
        for a, b in zip(ys, ss):
            m.update(a, b)
        m.get()

    def ours_f1_rows():
        m = F1()
        for a, b in zip(ys, preds):
            m.update(a, b)
        m.get()

    cpu, _ = best_of(ours_prauc_rows, 2)
    res["skewlearn PRAUC (exact average precision, one update per row)"] = n / cpu
    cpu, _ = best_of(ours_f1_rows, 2)
    res["skewlearn F1 (one update per row)"] = n / cpu
    try:
        from river import metrics as rm
    except ImportError:  # pragma: no cover
        return res

    # River takes booleans: converted before the clock, as skewlearn's lists are
    yb, pb = [bool(a) for a in ys], [bool(b) for b in preds]

    def river_f1_rows():
        m = rm.F1()
        for a, b in zip(yb, pb):
            m.update(a, b)
        m.get()

    cpu, _ = best_of(river_f1_rows, 2)
    res["River F1 (one update per row)"] = n / cpu

    def river_rows():
        m = rm.ROCAUC()
        for a, b in zip(yb, ss):
            m.update(a, b)
        m.get()

    cpu, _ = best_of(river_rows, 2)
    res["River ROCAUC (approximate, n_thresholds=10)"] = n / cpu
    return res


# --------------------------------------------------------------------------- report
def fmt_rate(x: float) -> str:
    if x != x:
        return "–"
    return f"{x:,.0f}"


def fmt_ratio(x: float) -> str:
    if x != x:
        return "–"
    if x >= 10:
        return f"{x:,.0f}"
    if x >= 1:
        return f"{x:.1f}"
    return f"{x:.2g}"


def table(header: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (about 3 minutes)")
    ap.add_argument("--target", type=float, default=None, help="CPU seconds per measurement")
    ap.add_argument("--max-rows", type=int, default=None)
    ap.add_argument("--stream-rows", type=int, default=None)
    ap.add_argument("--stream-path", default=None)
    ap.add_argument("--parse-rows", type=int, default=None)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "docs", "benchmarks.md"))
    ap.add_argument(
        "--blas-threads", type=int, default=1, help="BLAS threads in this process (default 1)"
    )
    args = ap.parse_args(argv)
    quick = args.quick
    target = args.target or (0.15 if quick else 0.5)
    max_rows = args.max_rows or (200_000 if quick else 1_000_000)
    stream_rows = args.stream_rows or (200_000 if quick else 1_000_000)
    parse_rows = args.parse_rows or (200_000 if quick else 1_000_000)
    command = "python benchmarks/run_all.py" + (" " + " ".join(argv or sys.argv[1:])).rstrip()
    warnings.filterwarnings("ignore")
    t_start = time.perf_counter()
    load_start = os.getloadavg()

    import bench_parse
    import bench_small_batches
    import bench_sparse
    import bench_startup
    import bench_stream
    from threadpoolctl import threadpool_limits

    # one BLAS thread unless asked: the online learners and most peers run on one core,
    # and on a shared 2-core machine OpenBLAS threads spin, adding CPU time that is not
    # work (MultiNystroemMKL, 30,000 x 50: 0.9 CPU s with two threads, 0.33 with one)
    blas = threadpool_limits(limits=args.blas_threads)
    try:
        estimators = skewlearn_estimators()
        results: dict = {"learners": {}, "peers": {}, "target": target}
        results.update(commit=git_commit(), blas_threads=args.blas_threads)
        dims = ["10", "50", "300s"]
        for dl in dims:
            d, sparse = settings(dl)
            X, y = make_data(max_rows, d, sparse)
            print(f"\n== d = {dl}: {X.shape[0]:,} rows available", flush=True)
            for family, name, cls in estimators:
                if sparse and not getattr(cls, "_accept_sparse", "csr"):
                    results["learners"][(name, dl)] = None
                    continue

                def fit(Xa, ya, cls=cls, d=d):
                    make_estimator(cls, d).fit(Xa, ya)

                try:
                    fit(X[:300], y[:300])  # compile or load the cached kernels
                    res = measure(fit, X, y, target, max_rows)
                except Exception as exc:  # report, do not stop the suite
                    res = {"error": f"{type(exc).__name__}: {exc}"[:120]}
                results["learners"][(name, dl)] = {**res, "family": family}
                rate = res.get("rows_per_cpu_s", float("nan"))
                print(f"{family:<24} {name:<20} {fmt_rate(rate):>12} rows/CPU-s", flush=True)
            for pname, fit in peers(d).items():
                cap = max_rows
                if pname.startswith("River"):
                    cap = 20_000 if not quick else 5_000
                if "SVC(rbf)" in pname:
                    cap = 5_000 if not quick else 2_000
                if "Nystroem" in pname:
                    cap = 100_000 if not quick else 20_000
                Xp, yp = X[:cap], y[:cap]
                if pname.startswith("River"):
                    Xp = _PrefixCache(Xp)
                try:
                    fit(Xp[:300], yp[:300])
                    res = measure(fit, Xp, yp, target, cap)
                except Exception as exc:
                    res = {"error": f"{type(exc).__name__}: {exc}"[:120]}
                results["peers"][(pname, dl)] = res
                rate = res.get("rows_per_cpu_s", float("nan"))
                print(f"{'peer':<24} {pname:<20} {fmt_rate(rate):>12} rows/CPU-s", flush=True)
            _DICT_CACHE.clear()

        results["metrics"] = run_suite(metric_peers, 100_000 if not quick else 20_000)
        met = results["metrics"]
        print("\nmetrics:", met if _failed(met) else {k: fmt_rate(v) for k, v in met.items()})

        # ---------------------------------------------------------------- scaling
        from skewlearn._discovery import all_estimators

        every = all_estimators()
        scaling = {}
        X50, y50 = make_data(max_rows, 50, False, seed=1)
        for family, (name, budget) in SCALING.items():
            cls = every.get(name)
            if cls is None:
                continue

            def fit(Xa, ya, cls=cls, d=50, **kw):
                make_estimator(cls, d, **kw).fit(Xa, ya)

            fit(X50[:300], y50[:300])
            base = measure(fit, X50, y50, target / 2, max_rows // 4)
            n1 = base["rows"]
            rows_tab = []
            for k in (1, 2, 4):
                n = min(n1 * k, X50.shape[0])
                cpu, wall = best_of(lambda n=n: fit(X50[:n], y50[:n]))
                rows_tab.append((n, cpu, wall))
            dim_tab = []
            for d in (10, 50, 100, 300):
                Xd, yd = make_data(n1, d, False, seed=2)

                def fit_d(Xa, ya, cls=cls, d=d):
                    make_estimator(cls, d).fit(Xa, ya)

                fit_d(Xd[:300], yd[:300])
                cpu, wall = best_of(lambda Xd=Xd, yd=yd, f=fit_d: f(Xd, yd))
                dim_tab.append((d, n1, cpu, wall))
            bud_tab = []
            if budget:
                for b in (25, 50, 100, 200):
                    kw = dict.fromkeys(budget, b)
                    fit(X50[:300], y50[:300], **kw)
                    cpu, wall = best_of(lambda kw=kw, n1=n1: fit(X50[:n1], y50[:n1], **kw))
                    bud_tab.append((b, n1, cpu, wall))
            scaling[family] = {"learner": name, "rows": rows_tab, "dim": dim_tab, "budget": bud_tab}
            print(f"scaling {family}: {name} done", flush=True)

        # ---------------------------------------------------------------- other suites
        print("\n== small batches", flush=True)
        results["small"] = run_suite(
            bench_small_batches.main,
            ["--repeat", "2" if quick else "3", "--one-row-calls", "1000" if quick else "5000"],
        )
        print("\n== parsing", flush=True)
        results["parse"] = run_suite(bench_parse.main, ["--rows", str(parse_rows), "--repeat", "2"])
        print("\n== wide sparse rows", flush=True)
        results["sparse"] = run_suite(bench_sparse.main, SPARSE_ARGS)
        print("\n== streaming a file through skewlearn stream", flush=True)
        sargs = ["--rows", str(stream_rows)]
        if args.stream_path:
            sargs += ["--path", args.stream_path]
        results["stream"] = run_suite(bench_stream.main, sargs)
        print("\n== start-up", flush=True)
        results["startup"] = run_suite(
            bench_startup.main,
            ["--repeat", "2" if quick else "3", "--float32-rows", str(min(max_rows, 1_000_000))],
        )
    finally:
        blas.restore_original_limits()
    elapsed = time.perf_counter() - t_start
    load_end = os.getloadavg()
    doc = report(results, scaling, estimators, command, elapsed, load_start, load_end)
    kept = ""  # sections others wrote below the marker survive a new run
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as fh:
            old = fh.read()
        if MARKER in old:
            kept = old.split(MARKER, 1)[1]
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(doc.rstrip() + "\n\n" + MARKER + kept)
    print(f"\nwrote {os.path.normpath(args.out)} after {elapsed / 60:.1f} minutes")
    return results


#: bench_sparse's part of the report: the linear learners whose steps were O(d) on CSR rows
#: until sessions 20-22, their O(nnz) neighbours, one kernel learner and the two peers.
SPARSE_ARGS = [
    "--rows", "2000", "--one-row", "200", "--repeat", "2", "--dims", "1000", "100000", "1000000",
    "--learners", "Perceptron", "PassiveAggressive", "OGD", "OGD_L2", "ALMA", "ROMMA",
    "TruncatedGradient", "AROW", "CW", "KOIL", "SGDClassifier", "River",
]  # fmt: skip


def run_suite(main_fn, argv):
    """``main_fn(argv)``, or ``{"error": ...}`` if it fails: one failing suite (a missing
    ``/usr/bin/time``, a full disk, a bug) leaves the rest of the report standing."""
    try:
        return main_fn(argv)
    except (Exception, SystemExit) as exc:  # SystemExit: bench_stream's own checks
        import traceback

        traceback.print_exc()
        return {"error": f"{type(exc).__name__}: {exc}".strip()[:300]}


def git_commit() -> str:
    """The checked-out commit (``+ uncommitted changes`` when tracked files differ)."""
    import subprocess

    root = os.path.join(HERE, "..")
    try:
        head = subprocess.run(
            ["git", "-C", root, "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return head + (" + uncommitted changes" if dirty else "")


def _failed(res) -> bool:
    return isinstance(res, dict) and "error" in res


class _PrefixCache:
    """Slicing ``X[:k]`` returns an object whose River dicts were prepared untimed."""

    def __init__(self, X):
        self.X = X
        self.shape = X.shape

    def __getitem__(self, sl):
        Xs = self.X[sl]
        _dicts(Xs)  # prepared before the timed call
        return _Prepared(Xs)


class _Prepared:
    def __init__(self, X):
        self.X = X
        self.shape = X.shape


def _dicts(X):
    """Rows as River dicts, built once per array (before the timed call)."""
    X = X.X if isinstance(X, _Prepared) else X
    key = (id(X), X.shape)
    if key not in _DICT_CACHE:
        if sp.issparse(X):
            _DICT_CACHE[key] = (
                X,
                [
                    dict(zip(X.indices[a:b].tolist(), X.data[a:b].tolist()))
                    for a, b in zip(X.indptr[:-1], X.indptr[1:])
                ],
            )
        else:
            _DICT_CACHE[key] = (X, [dict(enumerate(r)) for r in X.tolist()])
    return _DICT_CACHE[key][1]


def report(results, scaling, estimators, command, elapsed, load_start, load_end) -> str:
    import numba
    import sklearn

    import skewlearn

    try:
        import river

        river_v = river.__version__
    except ImportError:  # pragma: no cover
        river_v = "not installed"
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next(ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    L = []
    L.append("# Benchmarks\n")
    L.append(
        f"Produced by `{command}` in {elapsed / 60:.1f} minutes on "
        f"{datetime.date.today().isoformat()}: {cpu}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, "
        f"scikit-learn {sklearn.__version__}, River {river_v}, skewlearn "
        f"{skewlearn.__version__}, commit {results.get('commit', 'not recorded')}.\n"
    )
    L.append(
        "**Read the CPU figures.** The machine is shared with other work (load average "
        f"{load_start[0]:.1f} at the start, {load_end[0]:.1f} at the end, on "
        f"{os.cpu_count()} cores), so wall-clock rates are lower and noisier than on an idle "
        "machine, and the two vCPUs may share one physical core, so even CPU time can vary "
        "by tens of percent between runs (timed entries are the best of 2-3 runs). "
        "Rates are rows per CPU second of this process (`time.process_time`), "
        "wall-clock rows/s beside them where shown. Every figure below comes from the run "
        "named above; regenerate the page with the same command.\n"
    )
    threads = results.get("blas_threads")
    L.append(
        (
            f"BLAS (NumPy's, SciPy's, scikit-learn's) ran with {threads} thread"
            f"{'' if threads == 1 else 's'} in this process (`--blas-threads`), so every "
            "learner and peer here uses one core unless noted: the online learners, "
            "`SGDClassifier`, `Perceptron`, libsvm and liblinear are single-threaded anyway, "
            "and BLAS threads waiting on a shared machine add CPU time that is not work.\n"
        )
        if threads is not None
        else "BLAS threads: not recorded.\n"
    )

    # ---- headline
    learners, peers_ = results["learners"], results["peers"]

    def rate(d, key, peer=False):
        r = (peers_ if peer else learners).get((key, d))
        return (r or {}).get("rows_per_cpu_s", float("nan"))

    pa = rate("50", "PassiveAggressive")
    parse = results["parse"]
    nan = {"rows_per_cpu_s": float("nan")}
    lib = parse.get("skewlearn iter_chunks LIBSVM (compiled)", nan)["rows_per_cpu_s"]
    csvr = parse.get("skewlearn iter_chunks CSV (compiled)", nan)["rows_per_cpu_s"]
    st = results["stream"]
    L.append("## Headline figures\n")
    head = [
        ["PA-I in memory, 50 dense features", f"{fmt_rate(pa)} rows/CPU-s", "≥ 5,000,000"],
        [
            "LIBSVM parse, 50 dense features (iter_chunks)",
            f"{fmt_rate(lib)} rows/CPU-s",
            "≥ 1,000,000",
        ],
        [
            "CSV parse, 50 dense features (iter_chunks)",
            f"{fmt_rate(csvr)} rows/CPU-s",
            "≥ 1,000,000",
        ],
    ]
    if _failed(st):
        head.append(["`skewlearn stream`", "failed: " + st["error"], "< 300 MB"])
    for name in bench_stream_models(st):
        r = st[name]
        head.append(
            [
                f"`skewlearn stream` {st['rows']:,}-row LIBSVM file, {name}",
                f"peak RSS {r['max_rss_mb']:.0f} MB ({st['baseline']['max_rss_mb']:.0f} MB on a "
                f"2,000-row prefix, see below); {r['cpu_s']:.0f} s CPU, {r['wall_s']:.0f} s wall",
                "< 300 MB",
            ]
        )
    L.append(table(["what", "measured", "target"], head) + "\n")
    failed = [
        k
        for k in ("metrics", "small", "parse", "sparse", "stream", "startup")
        if k in results and _failed(results[k])
    ]
    if failed:
        L.append(
            "**Incomplete run**: "
            + "; ".join(f"`{k}` failed ({results[k]['error']})" for k in failed)
            + ". Their sections below are left out.\n"
        )

    # ---- learners beside peers
    L.append("## Every learner beside its peers\n")
    L.append(
        "One pass (online) or one fit (batch) on a synthetic stream with 5% positives "
        "(noisy linear concept). d = 10 and 50: dense float64; 300s: CSR with 5% non-zeros. "
        "Rows/s per CPU second; `mem` = peak bytes the fit allocates (tracemalloc), MB; "
        "`÷ peer` = ratio to the family's closest peer on the same data (> 1: skewlearn is "
        "faster). Sizes were chosen so each measurement takes about "
        f"{results.get('target', 0.15 if 'quick' in command else 0.5):g} CPU s; `rows` is the "
        "size used. tracemalloc sees what NumPy, Python and numba's run-time allocate, not "
        "C/C++ `malloc`: libsvm's kernel cache (`SVC`, up to `cache_size` = 200 MB) and "
        "liblinear's working memory (`LinearSVC`) are not in the peers' `mem` (a 5,000-row "
        "`SVC` fit shows 0.9 MB there while the process's peak RSS grows by about 40 MB).\n"
    )
    for dl in ("10", "50", "300s"):
        rows = []
        for family, name, _ in estimators:
            r = learners.get((name, dl))
            if r is None:
                rows.append([family, name, "dense only", "", "", "", "", ""])
                continue
            if "error" in r:
                rows.append([family, name, "error: " + r["error"], "", "", "", "", ""])
                continue
            peer = CLOSEST_OF.get(name, CLOSEST.get(family, "sklearn SGDClassifier(pa1)"))
            pr = rate(dl, peer, peer=True)
            rows.append([
                family, name, f"{r['rows']:,}", fmt_rate(r["rows_per_cpu_s"]),
                fmt_rate(r["rows_per_s"]), f"{r['peak_mb']:.1f}",
                f"{fmt_ratio(r['rows_per_cpu_s'] / pr)} × {peer}" if pr == pr else "–",
                fmt_ratio(r["rows_per_cpu_s"] / rate(dl, "River PAClassifier", True)),
            ])  # fmt: skip
        L.append(f"### d = {dl}\n")
        L.append(
            table(
                [
                    "family",
                    "learner",
                    "rows",
                    "rows/CPU-s",
                    "rows/s (wall)",
                    "mem MB",
                    "÷ closest peer",
                    "÷ River PA",
                ],
                rows,
            )
            + "\n"
        )
        prow = []
        for (pname, d2), r in peers_.items():
            if d2 != dl:
                continue
            if "error" in r:
                prow.append([pname, "error: " + r["error"], "", "", ""])
            else:
                prow.append([pname, f"{r['rows']:,}", fmt_rate(r["rows_per_cpu_s"]),
                             fmt_rate(r["rows_per_s"]), f"{r['peak_mb']:.1f}"])  # fmt: skip
        L.append(f"Peers at d = {dl}:\n")
        L.append(table(["peer", "rows", "rows/CPU-s", "rows/s (wall)", "mem MB"], prow) + "\n")
    L.append(
        "Closest peers: scikit-learn's compiled PA-I (`SGDClassifier(loss='hinge', "
        "learning_rate='pa1')`, one epoch, no shuffle) for the online linear, AUC and "
        "ensemble learners (no library ships online AUC maximisation or these ensembles); "
        "scikit-learn `Perceptron` for the Perceptron; `SVC` (exact batch RBF SVM, fit on at "
        "most 5,000 rows) for the budgeted kernel learners and the kernel batch learners "
        "(there is no online budgeted kernel learner in scikit-learn or River); "
        "`Nystroem(100) + LinearSVC` for the Nyström / ASLS batch learners. River learns "
        "from one dict per row, so its rates are per `learn_one` call, the dict "
        "conversion untimed.\n"
    )
    if not _failed(results["metrics"]):
        L.append("### Streaming metrics\n")
        rows = [[k, fmt_rate(v)] for k, v in results["metrics"].items()]
        L.append(table(["metric", "rows/CPU-s"], rows) + "\n")

    # ---- scaling
    L.append("## How cost grows\n")
    L.append(
        "Per family one learner, 50 dense features unless the dimension varies; each entry "
        "is the best of 3 runs. µs/row = CPU microseconds per row; flat µs/row across rows "
        "means cost linear in rows, flat µs/row/budget means cost linear in the budget.\n"
    )
    for family, sc in scaling.items():
        L.append(f"### {family}: {sc['learner']}\n")
        rows = [[f"{n:,}", f"{cpu:.3f}", f"{1e6 * cpu / n:.2f}", f"{wall:.3f}"]
                for n, cpu, wall in sc["rows"]]  # fmt: skip
        L.append(table(["rows", "CPU s", "µs/row", "wall s"], rows) + "\n")
        rows = [[str(d), f"{n:,}", f"{1e6 * cpu / n:.2f}", f"{1e6 * cpu / n / d * 1000:.1f}"]
                for d, n, cpu, wall in sc["dim"]]  # fmt: skip
        L.append(table(["d", "rows", "µs/row", "ns/row/feature"], rows) + "\n")
        if sc["budget"]:
            rows = [[str(b), f"{n:,}", f"{1e6 * cpu / n:.2f}", f"{1e6 * cpu / n / b:.3f}"]
                    for b, n, cpu, wall in sc["budget"]]  # fmt: skip
            L.append(table(["budget per class", "rows", "µs/row", "µs/row/budget"], rows) + "\n")

    # ---- small batches
    if not _failed(results["small"]):
        small = results["small"]
        L.append("## Small batches and River's one-row API\n")
        L.append(
            "`python benchmarks/bench_small_batches.py` (called by run_all): `partial_fit` one "
            "batch at a time on 20,000 rows (d = 10 dense, 5 % positives; 5,000 rows for "
            'batches of 1), skewlearn `PassiveAggressive(variant="pa1")` beside scikit-learn '
            '`SGDClassifier(learning_rate="pa1")`, the same update; here the cost of a call, '
            "not of a row, decides. A later call skips scikit-learn's input validation when the "
            "input is already in the form it would return (docs/decisions.md, Performance, "
            "session 12).\n"
        )
        rows = [[str(b), fmt_rate(r["skewlearn"]), fmt_rate(r["sklearn"]),
                 f"{fmt_ratio(r['skewlearn'] / r['sklearn'])} × sklearn"]
                for b, r in small["batches"].items()]  # fmt: skip
        L.append(
            table(["rows per call", "skewlearn rows/CPU-s", "sklearn rows/CPU-s", "ratio"], rows)
            + "\n"
        )
        if small.get("river"):
            rows = [[name, fmt_rate(r["learn_one"]), fmt_rate(r["predict_one+learn_one"])]
                    for name, r in small["river"].items()]  # fmt: skip
            L.append(
                "One row at a time through River's API (5,000 rows, the dicts built untimed):\n"
            )
            L.append(
                table(["model", "learn_one rows/CPU-s", "predict_one + learn_one rows/CPU-s"], rows)
                + "\n"
            )
        if small.get("one_row"):
            L.extend(one_row_sections(small["one_row"]))

    # ---- parsing
    if not _failed(results["parse"]):
        L.append("## Parsing\n")
        L.append(
            f"`python benchmarks/bench_parse.py --rows {parse_rows_of(parse)}` (called by "
            "run_all): a file of 50 dense features with 4 decimals written by "
            "`benchmarks/make_libsvm.py`, from the page cache. iter_chunks is given "
            "`positive_class` and `n_features` (one pass) unless marked *counting pass* (two "
            "passes, as when they are unknown).\n"
        )
        rows = [[k, f"{v['rows']:,}", fmt_rate(v["rows_per_cpu_s"]), fmt_rate(v["rows_per_s"]),
                 f"{v['bytes_per_row']:.0f}"] for k, v in parse.items()]  # fmt: skip
        L.append(table(["reader", "rows", "rows/CPU-s", "rows/s (wall)", "bytes/row"], rows) + "\n")

    # ---- wide sparse rows
    if "sparse" in results and not _failed(results["sparse"]):
        L.append("## Wide sparse rows\n")
        L.append(
            "`python benchmarks/bench_sparse.py " + " ".join(SPARSE_ARGS) + "` (called by "
            "run_all): 2,000 CSR rows with 50 non-zeros each at every width d (uniform values at "
            "uniform columns, about 20 % positives), one pass in stream order: a whole-stream "
            "`fit`, and `partial_fit` one row a call (200 calls, after a first call on two "
            "rows), in CPU microseconds a row. Beside them scikit-learn's "
            '`SGDClassifier(loss="hinge")` (`partial_fit`, L2 `alpha=1e-4` by default) and '
            "River's `PAClassifier` (`learn_one`; the dicts built untimed). `OGD_L2` is "
            "`OGD(alpha=1e-4)`, the peer's decay, kept as a scale of the weights (session 21), as "
            "ALMA's projection and ROMMA's c_t are since session 22; TruncatedGradient "
            "truncates lazily on sparse rows from 30,000 features (session 22). "
            "`× SGD` is SGDClassifier's time over the learner's (> 1: skewlearn is faster). "
            "KOIL stores its support vectors dense, so it is left out where they would pass "
            "1 GB.\n"
        )
        sparse_res = results["sparse"]
        rows = []
        for key, r in sparse_res.items():
            name, d = key.rsplit(" d=", 1)
            rows.append(
                [
                    name,
                    f"{int(d):,}",
                    f"{r['fit']:.2f}",
                    fmt_ratio(1 / r["fit_ratio"]),
                    f"{r['row']:.1f}",
                    fmt_ratio(1 / r["row_ratio"]),
                ]
            )
        L.append(table(["learner", "d", "fit µs/row", "× SGD", "one-row µs", "× SGD"], rows) + "\n")

    # ---- streaming
    if not _failed(results["stream"]):
        L.append("## Streaming a file from disk\n")
        L.append(
            f"`python benchmarks/bench_stream.py --rows {st['rows']} --path FILE` (called by "
            f"run_all; file {st['bytes'] / 1e9:.2f} GB). Peak RSS from `/usr/bin/time -v`; "
            "each command in its own process, after an untimed run on a 2,000-row prefix that "
            "fills numba's disk cache (a first-ever run also compiles, which costs about 50 MB "
            "more). The first two rows are the fixed part: the PA-I command on the 2,000-row "
            "prefix, as the `skewlearn` command and through `main(argv)` in a Python process, "
            "where scikit-learn has imported pandas.\n"
        )
        rows = []
        for key, label in (("baseline", "`skewlearn stream PREFIX ...` (2,000 rows, PA-I)"),
                           ("baseline_with_pandas", "the same through `python -c \"...main(argv)\"`"
                            " (pandas and pyarrow loaded)")):  # fmt: skip
            if key in st:
                b = st[key]
                rows.append([label, f"{b['max_rss_mb']:.0f}", f"{b['cpu_s']:.1f}",
                             f"{b['wall_s']:.1f}", b["final"]])  # fmt: skip
        for name in bench_stream_models(st):
            r = st[name]
            rows.append([f"`{r['command'].replace(st['path'], 'FILE')}`", f"{r['max_rss_mb']:.0f}",
                         f"{r['cpu_s']:.1f}", f"{r['wall_s']:.1f}", r["final"]])  # fmt: skip
        L.append(table(["command", "peak RSS MB", "CPU s", "wall s", "result"], rows) + "\n")
        tr = st["traced"]
        L.append(
            "tracemalloc peak of all Python/numpy allocations while "
            "`prequential(PassiveAggressive(), iter_chunks(FILE, chunk_size=1000), "
            f"keep_scores=False, auc_bins=4096)` reads the "
            f"{tr['rows']:,} rows: **{tr['tracemalloc_peak_mb']:.1f} MB** — the memory that "
            "depends on the data; it does not grow with the file. The resident set is dominated "
            "by fixed costs: NumPy/SciPy and scikit-learn (which imports `scipy.stats`), numba's "
            "LLVM library and its run-time, loaded at the first compiled call (~40 MB even when "
            "every function comes from the disk cache). `skewlearn stream` imports only the "
            "model's family and the reader, and keeps pandas out of its process: scikit-learn "
            "imports pandas whenever it is installed (pandas then imports pyarrow), about 70 MB "
            "the stream never uses (`skewlearn.cli._keep_pandas_out`; docs/decisions.md, "
            '"Performance at scale"). The exact AUC keeps one float per row, so streams too '
            "long to hold use `--auc-bins` (histogram AUROC); prequential keeps no per-row "
            "scores in the CLI.\n"
        )

    # ---- startup
    if not _failed(results["startup"]):
        su = results["startup"]
        L.append("## Start-up, compilation cache, float32\n")
        L.append("`python benchmarks/bench_startup.py` (called by run_all).\n")
        imp = su["import"]
        rows = [[k, f"{v['cpu']:.3f}", f"{v['wall']:.3f}", ", ".join(v["loaded"])]
                for k, v in imp.items()]  # fmt: skip
        L.append(
            table(
                ["`import ...` in a fresh process", "CPU s", "wall s", "heavy modules loaded"], rows
            )
            + "\n"
        )
        L.append(
            "Best of the runs (CPU and wall separately). `import skewlearn` imports names on "
            "first use (PEP 562) and loads no heavy library; the first use of a learner imports "
            "its family with scikit-learn and numba, and most of that time is "
            "`import sklearn.base, numba` alone (scikit-learn imports SciPy's statistics and "
            "pandas). tqdm, matplotlib, dask and River load only when a progress bar, a plot, a "
            "cluster or a River comparison is asked for.\n"
        )
        rows = [[k, f"{v['cold']['cpu']:.2f}", f"{v['cold']['wall']:.2f}",
                 f"{v['warm']['cpu']:.2f}", f"{v['warm']['wall']:.2f}"]
                for k, v in su["first_call"].items()]  # fmt: skip
        L.append(
            "First `fit` (200 rows) in a fresh process: *cold* with an empty `NUMBA_CACHE_DIR` "
            "(numba compiles and writes the cache), *warm* in the next process (loaded from "
            "disk). Compilation happens once per installation, not per process.\n"
        )
        L.append(
            table(["learner", "cold CPU s", "cold wall s", "warm CPU s", "warm wall s"], rows)
            + "\n"
        )
        f32 = su["float32"]
        L.append(
            f"float32 input ({f32['input_mb_float64'] / 2:.0f} MB as float32): PassiveAggressive "
            f"fits float64 at {fmt_rate(f32['float64']['rows_per_cpu_s'])} rows/CPU-s allocating "
            f"{f32['float64']['peak_mb']:.1f} MB, float32 at "
            f"{fmt_rate(f32['float32']['rows_per_cpu_s'])} rows/CPU-s allocating "
            f"{f32['float32']['peak_mb']:.1f} MB: no copy (a float64 copy would take "
            f"{f32['astype_float64_cpu_s']:.3f} CPU s and {f32['input_mb_float64']:.0f} MB). The "
            "online linear learners (Perceptron, PassiveAggressive, OGD, ALMA, ROMMA, AROW, CW, "
            "SCW, NAROW, NHERD, IELLIP, SOP, TruncatedGradient, OFS, CostSensitiveOGD, "
            "CostSensitivePA) take float32 as it is and compute in float64, so the model equals "
            "the float64 copy's bit for bit (tests/perf/test_float32.py); the other learners "
            "convert to float64.\n"
        )
    L.append("## Compiled-code hygiene\n")
    L.append(
        "Every numba function is declared with `cache=True` (`_config.NJIT` / `NJIT_INLINE`, "
        "or the parsers' `_PARSE` options, which leave out fast-math so number parsing "
        "rounds exactly); `@njit` always compiles in nopython mode in numba ≥ 0.59, so there "
        "is no object-mode fallback; no `forceobj`/`objmode` is used. Checked with "
        "`grep -rn 'njit\\|jit(' src/skewlearn --include=*.py`. Importing loads no compiled "
        "function: after `import skewlearn; skewlearn.__all__` (every family imported) no "
        'numba dispatcher of a skewlearn module has an overload (`python -c "import sys, '
        "skewlearn; skewlearn.__all__; from numba.core.registry import CPUDispatcher; "
        "print([k for m in list(sys.modules.values()) if m and m.__name__.startswith("
        "'skewlearn') for k, v in vars(m).items() if isinstance(v, CPUDispatcher) and "
        "v.overloads])\"` prints `[]`); code is loaded from the disk cache at a learner's "
        "first call.\n"
    )
    return "\n".join(L)


def one_row_sections(one: dict) -> list[str]:
    """The report's one-row tables (``bench_small_batches.one_row_calls``)."""
    L = [
        "### One-row calls\n",
        "CPU µs a call on one row of a started model (`bench_small_batches.py "
        "--one-row-calls`; best of the runs; the rows sliced before the clock starts). "
        "`× SGD` is scikit-learn's `SGDClassifier` on the same call over the learner's time "
        "(> 1: skewlearn is faster).\n",
    ]
    learners = one["learners"]
    methods = ("partial_fit", "decision_function", "predict")
    sgd = {kind: r for (name, kind), r in learners.items() if name == "sklearn SGDClassifier"}
    rows = []
    for (name, kind), res in learners.items():
        peer = sgd.get(kind, {}) if name != "sklearn SGDClassifier" else {}
        cells = [name, kind]
        for method in methods:
            cells.append(f"{res[method]:.1f}")
            cells.append(fmt_ratio(peer[method] / res[method]) if method in peer else "")
        extra = [f"{m} {res[m]:.1f}" for m in ("predict_proba", "test_then_train") if m in res]
        rows.append([*cells, "; ".join(extra)])
    header = ["learner", "input", "partial_fit µs", "× SGD", "decision_function µs", "× SGD",
              "predict µs", "× SGD", "other µs"]  # fmt: skip
    L.append(table(header, rows) + "\n")
    if one.get("river"):
        L.append(
            "Through River's API, one 10-feature dict a call (µs; the dicts built untimed), "
            "each adapter beside River's own model of the same kind:\n"
        )
        calls = ("learn_one", "predict_one", "predict_proba_one")
        rows = []
        for name, res in one["river"].items():
            peer = one["river"].get(one.get("river_peers", {}).get(name), {})
            cells = [f"{res[m]:.1f}" for m in calls]
            if peer:
                cells = [f"{c} ({fmt_ratio(peer[m] / res[m])}×)" for c, m in zip(cells, calls)]
            rows.append([name, *cells])
        L.append(
            "(In brackets: River's own model's time over the adapter's, > 1: the adapter "
            "is faster.)\n"
        )
        L.append(table(["model", *calls], rows) + "\n")
    if one.get("metrics"):
        rows = [
            [
                name,
                f"{r['skewlearn']:.2f}",
                f"{r['River']:.2f}",
                fmt_ratio(r["River"] / r["skewlearn"]),
            ]
            for name, r in one["metrics"].items()
        ]
        L.append("One sample's `update` of a streaming metric (µs):\n")
        L.append(table(["metric", "skewlearn", "River", "× River"], rows) + "\n")
    return L


def bench_stream_models(st) -> list[str]:
    return [
        k
        for k in st
        if isinstance(st[k], dict) and "max_rss_mb" in st[k] and not k.startswith("baseline")
    ]


def parse_rows_of(parse) -> int:
    return max(v["rows"] for v in parse.values())


if __name__ == "__main__":
    main()
